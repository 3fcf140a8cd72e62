//! The operations (spec: Algebra): every `op` case of `seed000_cases.json`, each law
//! (spec: Algebra) as a property against brute-force evaluation ([`Flat`], independent of
//! `layout-core`'s evaluator), the names, and every error with its exact variant.

use std::collections::HashMap;

use layout_core::expr::Op;
use layout_core::{
    Error, Layout, ModePath, Quantity, Stride, Tree, broadcast, canonical, divide, divide_modes,
    flatten, group, interleave, inverse, is_dense_bijection, permute, repeat, repeat_modewise,
    repeat_modewise_raked, scale_mode, select,
};
use layout_tests::{Flat, ints, json_layout, json_tree, seed_cases};
use proptest::prelude::*;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Brute force, written against the trees only (never `layout-core`'s evaluation).

/// The leaves of a layout as a flat layout for brute force.
fn flat_of(l: &Layout) -> Flat {
    Flat {
        modes: l
            .shape()
            .leaves()
            .into_iter()
            .zip(l.stride().leaves())
            .map(|(n, d)| {
                (
                    *n,
                    match d {
                        Stride::Int(x) => Some(*x),
                        Stride::Broadcast => None,
                    },
                )
            })
            .collect(),
    }
}

/// Every offset by flat index (last leaf fastest), by brute force.
fn offsets(l: &Layout) -> Vec<i64> {
    flat_of(l).offsets()
}

fn product(t: &Tree<i64>) -> i64 {
    t.leaves().into_iter().product()
}

/// The sizes of the top-level modes.
fn top_sizes(l: &Layout) -> Vec<i64> {
    match l.shape() {
        Tree::Tuple(v) => v.iter().map(product).collect(),
        leaf => vec![product(leaf)],
    }
}

/// The flat index of the per-mode integer coordinate `x` over modes of sizes `sizes`.
fn flat_index(x: &[i64], sizes: &[i64]) -> i64 {
    x.iter().zip(sizes).fold(0, |acc, (c, n)| acc * n + c)
}

/// Every per-mode integer coordinate over `sizes`, in flat-index order.
fn coords(sizes: &[i64]) -> Vec<Vec<i64>> {
    let total: i64 = sizes.iter().product();
    (0..total)
        .map(|mut i| {
            let mut c = vec![0; sizes.len()];
            for k in (0..sizes.len()).rev() {
                c[k] = i % sizes[k];
                i /= sizes[k];
            }
            c
        })
        .collect()
}

/// `L` at a per-top-level-mode integer coordinate, by brute force.
fn eval_modes(l: &Layout, x: &[i64]) -> i64 {
    flat_of(l).eval(flat_index(x, &top_sizes(l)))
}

fn span(v: &[i64]) -> (i64, i64) {
    (
        v.iter().copied().min().unwrap_or(0),
        v.iter().copied().max().unwrap_or(0),
    )
}

fn names(l: &Layout) -> Vec<Option<&str>> {
    l.names().iter().map(Option::as_deref).collect()
}

/// The name of top-level mode `i`, `None` when unnamed.
fn name(l: &Layout, i: usize) -> Option<&str> {
    l.names().get(i).and_then(Option::as_deref)
}

fn divisors(n: i64) -> Vec<i64> {
    (1..=n).filter(|k| n % k == 0).collect()
}

/// Independent statement of `divide`'s rule for one mode with leaf sizes `leaves` (last
/// fastest): some leaf `p` with `W = product of the leaves after p`, `W | k` and `(k/W) | n_p`.
fn cuttable(leaves: &[i64], k: i64) -> bool {
    (0..leaves.len()).any(|p| {
        let w: i64 = leaves[p + 1..].iter().product();
        k % w == 0 && leaves[p] % (k / w) == 0
    })
}

// ---------------------------------------------------------------------------------------------
// Generators.

fn stride() -> impl Strategy<Value = Stride> {
    prop_oneof![
        9 => (-6i64..=12).prop_filter("0 is not a stride", |d| *d != 0).prop_map(Stride::Int),
        1 => Just(Stride::Broadcast),
    ]
}

/// Groups flat leaves into a tree: `join[i]` puts leaf `i + 1` in the same top-level mode as
/// leaf `i`; `deep` nests the first two leaves of a group of three or more once more.
fn nest<T: Clone>(leaves: &[T], join: &[bool], deep: bool) -> Tree<T> {
    let mut groups: Vec<Vec<T>> = Vec::new();
    for (i, x) in leaves.iter().enumerate() {
        if i > 0 && join[i - 1] {
            groups.last_mut().expect("a group").push(x.clone());
        } else {
            groups.push(vec![x.clone()]);
        }
    }
    Tree::Tuple(
        groups
            .into_iter()
            .map(|g| match g.len() {
                1 => Tree::Leaf(g[0].clone()),
                n if deep && n >= 3 => {
                    let mut v = vec![Tree::Tuple(
                        g[..2].iter().cloned().map(Tree::Leaf).collect(),
                    )];
                    v.extend(g[2..].iter().cloned().map(Tree::Leaf));
                    Tree::Tuple(v)
                }
                _ => Tree::Tuple(g.into_iter().map(Tree::Leaf).collect()),
            })
            .collect(),
    )
}

/// Any layout: up to `rank` leaves of size `1..=max`, nested at random.
fn any_layout(rank: usize, max: i64) -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec((1..=max, stride()), 1..=rank),
        prop::collection::vec(any::<bool>(), rank),
        any::<bool>(),
    )
        .prop_map(|(modes, join, deep)| {
            let sizes: Vec<i64> = modes.iter().map(|m| m.0).collect();
            let strides: Vec<Stride> = modes.iter().map(|m| m.1).collect();
            Layout::new(nest(&sizes, &join, deep), nest(&strides, &join, deep))
                .expect("small valid layout")
        })
}

/// A dense bijection: up to `rank` leaves of size `1..=max`, strides the running products in a
/// random order, nested at random.
fn dense_layout(rank: usize, max: i64) -> impl Strategy<Value = Layout> {
    prop::collection::vec(1..=max, 1..=rank)
        .prop_flat_map(|sizes| {
            let k = sizes.len();
            (
                Just(sizes),
                Just((0..k).collect::<Vec<usize>>()).prop_shuffle(),
                prop::collection::vec(any::<bool>(), k),
                any::<bool>(),
            )
        })
        .prop_map(|(sizes, order, join, deep)| {
            let mut strides = vec![Stride::Int(0); sizes.len()];
            let mut w = 1;
            for &i in &order {
                strides[i] = Stride::Int(w);
                w *= sizes[i];
            }
            Layout::new(nest(&sizes, &join, deep), nest(&strides, &join, deep))
                .expect("small dense layout")
        })
}

/// A shape of up to `rank` leaves of size `1..=max`, nested at random.
fn any_shape(rank: usize, max: i64) -> impl Strategy<Value = Tree<i64>> {
    (
        prop::collection::vec(1..=max, 1..=rank),
        prop::collection::vec(any::<bool>(), rank),
        any::<bool>(),
    )
        .prop_map(|(sizes, join, deep)| nest(&sizes, &join, deep))
}

/// The layout with names on the top-level modes picked by `mask` (`m0`, `m1`, ...).
fn named(l: Layout, mask: &[bool]) -> Layout {
    let names: Vec<Option<String>> = (0..l.rank())
        .map(|i| {
            mask.get(i)
                .copied()
                .unwrap_or(false)
                .then(|| format!("m{i}"))
        })
        .collect();
    l.with_names(names).expect("one name per mode")
}

// ---------------------------------------------------------------------------------------------
// The `op` cases of the seed file.

fn layout_arg(c: &Value, key: &str) -> Layout {
    json_layout(&c["args"][key]).unwrap_or_else(|e| panic!("{c}: {e}"))
}

fn unnamed(l: &Layout) -> Layout {
    Layout::new(l.shape().clone(), l.stride().clone()).expect("valid")
}

#[test]
fn seed_op_cases() {
    let cases = seed_cases("op");
    assert!(cases.len() >= 18, "{} op cases", cases.len());
    let mut seen: HashMap<String, usize> = HashMap::new();
    for c in &cases {
        let op = c["op"].as_str().unwrap_or_else(|| panic!("no op: {c}"));
        let expected = json_layout(&c["result"]).unwrap_or_else(|e| panic!("{c}: {e}"));
        let got = match op {
            "canonical" => canonical(&json_tree(&c["args"]["S"])),
            "scale_mode" => scale_mode(&layout_arg(c, "L"), &json_tree(&c["args"]["S"])),
            "divide" => {
                let tile = ints(&c["args"]["S"]).expect("a tile");
                divide(&layout_arg(c, "L"), &tile).inspect(|d| {
                    assert_eq!(names(d), [Some("tile"), Some("rest")], "{c}");
                })
            }
            "divide_modes" => {
                divide_modes(&layout_arg(c, "L"), &ints(&c["args"]["S"]).expect("a tile"))
            }
            "repeat" => repeat(&layout_arg(c, "L"), &layout_arg(c, "A")),
            "repeat_modewise" => repeat_modewise(&layout_arg(c, "L"), &layout_arg(c, "A")),
            "repeat_modewise_raked" => {
                repeat_modewise_raked(&layout_arg(c, "L"), &layout_arg(c, "A"))
            }
            "interleave" => interleave(&layout_arg(c, "L"), &layout_arg(c, "A")),
            "broadcast" => broadcast(&layout_arg(c, "L"), &json_tree(&c["args"]["S"])),
            "inverse" => inverse(&layout_arg(c, "L")),
            other => panic!("unknown op `{other}` in {c}"),
        }
        .unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_eq!(
            unnamed(&got),
            expected,
            "{c}: got {got}, expected {expected}"
        );
        // The case's own values agree with brute force on the printed result.
        assert_eq!(offsets(&got), offsets(&expected), "{c}");
        *seen.entry(op.to_string()).or_default() += 1;
    }
    for op in [
        "canonical",
        "scale_mode",
        "divide",
        "divide_modes",
        "repeat",
        "interleave",
        "repeat_modewise",
        "repeat_modewise_raked",
        "inverse",
    ] {
        assert!(seen.contains_key(op), "no `{op}` case: {seen:?}");
    }
}

/// The seed cases' inputs, checked against the laws as well (not only the printed result).
#[test]
fn seed_op_cases_obey_the_laws() {
    for c in seed_cases("op") {
        let op = c["op"].as_str().expect("op");
        match op {
            "divide" => {
                let l = layout_arg(&c, "L");
                let tile = ints(&c["args"]["S"]).expect("tile");
                check_divide_law(&l, &tile, &divide(&l, &tile).expect("divides"));
            }
            "inverse" => {
                let l = layout_arg(&c, "L");
                check_inverse_law(&l, &inverse(&l).expect("dense"));
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Laws, checked by brute force.

fn check_divide_law(l: &Layout, tile: &[i64], d: &Layout) {
    let n = top_sizes(l);
    let rest: Vec<i64> = n.iter().zip(tile).map(|(n, k)| n / k).collect();
    let flat = flat_of(d);
    let rest_size: i64 = rest.iter().product();
    for t in coords(tile) {
        for r in coords(&rest) {
            let x: Vec<i64> = t
                .iter()
                .zip(&r)
                .zip(tile)
                .map(|((t, r), k)| r * k + t)
                .collect();
            let want = eval_modes(l, &x);
            // The result's flat index: the tile group is the slower one.
            let i = flat_index(&t, tile) * rest_size + flat_index(&r, &rest);
            assert_eq!(
                flat.eval(i),
                want,
                "{l} / {tile:?} = {d} at t={t:?} r={r:?}"
            );
            // The same through a group coordinate `(tile, rest)`, one integer per mode.
            let coord = Tree::Tuple(vec![
                Tree::Tuple(t.iter().copied().map(Tree::Leaf).collect()),
                Tree::Tuple(r.iter().copied().map(Tree::Leaf).collect()),
            ]);
            assert_eq!(d.eval(&coord), Ok(want), "{d} at {coord:?}");
        }
    }
}

fn check_inverse_law(l: &Layout, inv: &Layout) {
    let fwd = flat_of(l);
    let back = flat_of(inv);
    assert_eq!(inv.size(), l.size());
    for i in 0..l.size() {
        assert_eq!(
            back.eval(fwd.eval(i)),
            i,
            "inverse({l}) = {inv} after {l} at {i}"
        );
        assert_eq!(
            fwd.eval(back.eval(i)),
            i,
            "{l} after inverse({l}) = {inv} at {i}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `canonical(S)` keeps the shape, is a dense bijection, and is the identity on flat
    /// indices (row-major: the last leaf fastest).
    #[test]
    fn canonical_is_the_identity_on_flat_indices(s in any_shape(5, 5)) {
        let c = canonical(&s).expect("valid shape");
        let plain = Layout::new(s.clone(), s.map(&mut |_| Stride::Int(1))).expect("valid");
        prop_assert_eq!(c.shape(), plain.shape());
        prop_assert!(is_dense_bijection(&c));
        prop_assert!(flat_of(&c).brute_dense());
        prop_assert_eq!(offsets(&c), (0..product(&s)).collect::<Vec<_>>());
    }

    /// `scale_mode(n:d, S)` is `n:d` on the integers `[0, n)`, with the shape `S`.
    #[test]
    fn scale_mode_is_the_mode(s in any_shape(4, 5), d in stride(), name in any::<bool>()) {
        let n = product(&s);
        let mut l = Layout::new(Tree::Leaf(n), Tree::Leaf(d)).expect("valid");
        if name {
            l = l.with_names(vec![Some("x".into())]).expect("rank 1");
        }
        let r = scale_mode(&l, &s).expect("size matches");
        let want: Vec<i64> = (0..n).map(|i| i * d.value()).collect();
        prop_assert_eq!(offsets(&r), want);
        if name {
            prop_assert_eq!(names(&r), [Some("x")]);
        } else {
            let shape = Layout::new(s.clone(), s.map(&mut |_| Stride::Int(1))).expect("valid");
            prop_assert_eq!(r.shape(), shape.shape());
        }
    }

    /// `divide_modes` equals L on every flat index and keeps its names; `divide` equals L at
    /// every group coordinate (`divide(L,S)(t, r) = L(r·k + t)` per mode). A tile entry is
    /// accepted exactly when it cuts its mode along the leaves (see `cuttable`), else the error
    /// names the leaf and numbers.
    #[test]
    fn divide_laws(l in any_layout(4, 4), picks in prop::collection::vec(any::<usize>(), 4),
                   mask in prop::collection::vec(any::<bool>(), 4)) {
        let l = named(l, &mask);
        let n = top_sizes(&l);
        let tile: Vec<i64> = n.iter().zip(&picks).map(|(n, p)| {
            let ds = divisors(*n);
            ds[p % ds.len()]
        }).collect();
        let leaf_sizes: Vec<Vec<i64>> = match l.shape() {
            Tree::Tuple(v) => v.iter().map(|t| t.leaves().into_iter().copied().collect()).collect(),
            leaf => vec![leaf.leaves().into_iter().copied().collect()],
        };
        let ok = leaf_sizes.iter().zip(&tile).all(|(ls, k)| cuttable(ls, *k));
        match (divide(&l, &tile), divide_modes(&l, &tile)) {
            (Ok(d), Ok(dm)) => {
                prop_assert!(ok, "{} / {:?} accepted", l, tile);
                check_divide_law(&l, &tile, &d);
                prop_assert_eq!(names(&d), [Some("tile"), Some("rest")]);
                prop_assert_eq!(offsets(&dm), offsets(&l));
                prop_assert_eq!(dm.rank(), l.rank());
                prop_assert_eq!(dm.names(), l.names());
                prop_assert_eq!(d.size(), l.size());
            }
            (Err(e), Err(e2)) => {
                prop_assert!(!ok, "{} / {:?} refused: {}", l, tile, e);
                prop_assert_eq!(e, e2);
                let Error::TileSplit { mode, needed, size, tile: k } = e else {
                    return Err(TestCaseError::fail(format!("{l} / {tile:?}: {e:?}")));
                };
                prop_assert!(needed % size != 0 && size % needed != 0);
                prop_assert!(tile.contains(&k));
                let leaf = l.modes().into_iter().find(|m| m.path == mode).expect("a leaf");
                prop_assert_eq!(leaf.size, size);
            }
            (a, b) => prop_assert!(false, "divide {:?} vs divide_modes {:?}", a, b),
        }
    }

    /// A tile entry that is not a positive divisor is refused with the mode and numbers.
    #[test]
    fn divide_refuses_non_divisors(l in any_layout(3, 5), k in -1i64..=7, which in 0usize..3) {
        let n = top_sizes(&l);
        let which = which % n.len();
        prop_assume!(!(k >= 1 && n[which] % k == 0));
        let mut tile = vec![1; n.len()];
        tile[which] = k;
        let mode = if matches!(l.shape(), Tree::Leaf(_)) {
            ModePath::ROOT
        } else {
            ModePath::from_indices(&[which]).expect("path")
        };
        let want = Error::NotDivisible { mode, size: n[which], tile: k };
        prop_assert_eq!(divide(&l, &tile), Err(want));
        prop_assert_eq!(divide_modes(&l, &tile), Err(want));
    }

    /// `repeat`: `(a, l) ↦ M·A(a) + L(l)`, `M = max − min + 1`, copies never overlap; the
    /// per-mode forms are the same leaves regrouped: mode `i` maps `(x_i, y_i)` (blocked) or
    /// `(y_i, x_i)` (raked) to `M·A(x) + L(y)`.
    #[test]
    fn repeat_laws(l in any_layout(3, 4), a in dense_layout(3, 3)) {
        let lo = offsets(&l);
        let ao = offsets(&a);
        let (min, max) = span(&lo);
        let m = max - min + 1;
        let r = repeat(&l, &a).expect("dense arrangement");
        let ro = offsets(&r);
        let mut owner: HashMap<i64, usize> = HashMap::new();
        for (ia, av) in ao.iter().enumerate() {
            for (il, lv) in lo.iter().enumerate() {
                let v = ro[ia * lo.len() + il];
                prop_assert_eq!(v, m * av + lv);
                let o = *owner.entry(v).or_insert(ia);
                prop_assert_eq!(o, ia, "copies {} and {} overlap at {}", o, ia, v);
            }
        }
        // Per mode: A needs one top-level mode per mode of L.
        let ls = top_sizes(&l);
        let a_sizes = top_sizes(&a);
        if ls.len() == a_sizes.len() {
            let blocked = repeat_modewise(&l, &a).expect("same rank");
            let raked = repeat_modewise_raked(&l, &a).expect("same rank");
            let (bf, rf) = (flat_of(&blocked), flat_of(&raked));
            for x in coords(&a_sizes) {
                for y in coords(&ls) {
                    let want = m * eval_modes(&a, &x) + eval_modes(&l, &y);
                    let pairs = x.iter().zip(&y);
                    let bi: Vec<i64> = pairs.clone().zip(&ls).map(|((x, y), n)| x * n + y).collect();
                    let ri: Vec<i64> = pairs.zip(&a_sizes).map(|((x, y), s)| y * s + x).collect();
                    let sizes: Vec<i64> = ls.iter().zip(&a_sizes).map(|(n, s)| n * s).collect();
                    prop_assert_eq!(bf.eval(flat_index(&bi, &sizes)), want);
                    prop_assert_eq!(rf.eval(flat_index(&ri, &sizes)), want);
                }
            }
        } else {
            prop_assert_eq!(
                repeat_modewise(&l, &a),
                Err(Error::ArrangementRank { op: Op::RepeatModewise, rank: ls.len(), arrangement: a_sizes.len() })
            );
            prop_assert_eq!(
                repeat_modewise_raked(&l, &a),
                Err(Error::ArrangementRank { op: Op::RepeatModewiseRaked, rank: ls.len(), arrangement: a_sizes.len() })
            );
        }
    }

    /// `interleave`: `(l, a) ↦ size(A)·L(l) + A(a)`.
    #[test]
    fn interleave_law(l in any_layout(3, 4), a in dense_layout(3, 3)) {
        let lo = offsets(&l);
        let ao = offsets(&a);
        let r = interleave(&l, &a).expect("dense arrangement");
        let ro = offsets(&r);
        let s = a.size();
        for (il, lv) in lo.iter().enumerate() {
            for (ia, av) in ao.iter().enumerate() {
                prop_assert_eq!(ro[il * ao.len() + ia], s * lv + av);
            }
        }
    }

    /// `broadcast`: the new coordinates are ignored, and the result is a broadcast when they
    /// take more than one value.
    #[test]
    fn broadcast_law(l in any_layout(3, 4), s in any_shape(3, 3)) {
        let lo = offsets(&l);
        let r = broadcast(&l, &s).expect("valid shape");
        let ro = offsets(&r);
        prop_assert_eq!(ro.len(), lo.len() * usize::try_from(product(&s)).expect("size"));
        for (i, v) in ro.iter().enumerate() {
            prop_assert_eq!(*v, lo[i % lo.len()]);
        }
        prop_assert_eq!(r.is_broadcast(), product(&s) > 1 || l.is_broadcast());
    }

    /// `inverse(L) ∘ L = id = L ∘ inverse(L)` and `inverse(inverse(L)) = L` as functions.
    #[test]
    fn inverse_laws(l in dense_layout(5, 4)) {
        let inv = inverse(&l).expect("dense");
        check_inverse_law(&l, &inv);
        let back = inverse(&inv).expect("the inverse is dense");
        prop_assert_eq!(offsets(&back), offsets(&l));
    }

    /// `group` and `flatten` change the tree, never the function; names outside the group and
    /// on top-level leaves survive.
    #[test]
    fn regroupings_keep_the_function(l in any_layout(5, 3),
                                     mask in prop::collection::vec(any::<bool>(), 5),
                                     a in 0usize..5, b in 0usize..5) {
        let l = named(l, &mask);
        let o = offsets(&l);
        let f = flatten(&l).expect("flatten");
        prop_assert_eq!(offsets(&f), o.clone());
        prop_assert!(f.shape().leaves().len() == f.rank());
        // A top-level leaf keeps its name in the flat layout; the leaves of a nested mode are
        // unnamed.
        let tops: Vec<&Tree<i64>> = match l.shape() {
            Tree::Tuple(v) => v.iter().collect(),
            leaf => vec![leaf],
        };
        let mut k = 0;
        for (i, t) in tops.iter().enumerate() {
            let width = t.leaves().len();
            let want = if matches!(t, Tree::Leaf(_)) { name(&l, i) } else { None };
            for j in 0..width {
                prop_assert_eq!(name(&f, k + j), want);
            }
            k += width;
        }
        let rank = l.rank();
        let (start, end) = (a.min(b) % rank, (a.max(b) % rank) + 1);
        prop_assume!(start < end);
        let g = group(&l, start, end).expect("a range");
        prop_assert_eq!(offsets(&g), o);
        if end - start > 1 {
            prop_assert_eq!(g.rank(), rank - (end - start) + 1);
            for i in 0..start {
                prop_assert_eq!(name(&g, i), name(&l, i));
            }
            prop_assert_eq!(name(&g, start), None);
            for i in end..rank {
                prop_assert_eq!(name(&g, i - (end - start) + 1), name(&l, i));
            }
        } else {
            prop_assert_eq!(&g, &l);
        }
    }

    /// `select` and `permute`: mode `j` of the result is mode `I_j` of `L` (with its name), and
    /// `select(L, I)(c) = L(c')` with `c'_{I_j} = c_j`, the other modes at 0.
    #[test]
    fn select_and_permute(l in any_layout(5, 3), mask in prop::collection::vec(any::<bool>(), 5),
                          order in Just((0usize..5).collect::<Vec<_>>()).prop_shuffle(),
                          keep in 1usize..=5) {
        let l = named(l, &mask);
        let rank = l.rank();
        let perm: Vec<usize> = order.iter().copied().filter(|&i| i < rank).collect();
        let idx: Vec<usize> = perm.iter().copied().take(keep.min(rank)).collect();
        let sizes = top_sizes(&l);
        for (which, r) in [(&idx, select(&l, &idx)), (&perm, permute(&l, &perm))] {
            let r = r.expect("valid indices");
            prop_assert_eq!(r.rank(), which.len());
            let rs = top_sizes(&r);
            for (j, &i) in which.iter().enumerate() {
                prop_assert_eq!(name(&r, j), name(&l, i));
                prop_assert_eq!(rs[j], sizes[i]);
            }
            let rf = flat_of(&r);
            for c in coords(&rs) {
                let mut full = vec![0; rank];
                for (j, &i) in which.iter().enumerate() {
                    full[i] = c[j];
                }
                prop_assert_eq!(rf.eval(flat_index(&c, &rs)), eval_modes(&l, &full));
            }
        }
    }

    /// Names survive the per-mode operations and inverse.
    #[test]
    fn names_survive(l in dense_layout(4, 3), mask in prop::collection::vec(any::<bool>(), 4),
                     amask in prop::collection::vec(any::<bool>(), 4)) {
        let l = named(l, &mask);
        // inverse: mode j of the result reads the digit written by the leaf of j-th largest
        // stride, and carries its name when that leaf is a top-level mode.
        let inv = inverse(&l).expect("dense");
        let mut kept: Vec<(i64, Option<&str>)> = l.modes().into_iter().filter(|m| m.size > 1)
            .map(|m| {
                let top = match m.path.indices() {
                    [i] => name(&l, usize::from(*i)),
                    _ => None,
                };
                (m.stride.value(), top)
            })
            .collect();
        kept.sort_by_key(|k| std::cmp::Reverse(k.0));
        if !kept.is_empty() {
            let want: Vec<Option<&str>> = kept.iter().map(|k| k.1).collect();
            let got: Vec<Option<&str>> = (0..inv.rank()).map(|j| name(&inv, j)).collect();
            prop_assert_eq!(got, want);
        }
        // repeat_modewise: L's name, else A's.
        let twos = Tree::Tuple(vec![Tree::Leaf(2); l.rank()]);
        let a = named(canonical(&twos).expect("shape"), &amask);
        for r in [repeat_modewise(&l, &a), repeat_modewise_raked(&l, &a)] {
            let r = r.expect("same rank");
            for i in 0..l.rank() {
                prop_assert_eq!(name(&r, i), name(&l, i).or(name(&a, i)));
            }
        }
        // divide_modes by all-ones keeps every name.
        let ones = vec![1; l.rank()];
        let dm = divide_modes(&l, &ones).expect("1 divides");
        prop_assert_eq!(dm.names(), l.names());
    }
}

// ---------------------------------------------------------------------------------------------
// Names on the group operations, and worked examples.

fn parse(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn rank_one_operands_name_their_groups() {
    let v = parse("(value: 4):(1)");
    let lanes = parse("(lane: 32):(1)");
    let i = interleave(&v, &lanes).expect("dense");
    assert_eq!(i.to_string(), "(value:4,lane:32):(32,1)");
    let r = repeat(&parse("(tile: (2,3)):((3,1))"), &parse("(stage: 3):(1)")).expect("dense");
    assert_eq!(r.to_string(), "(stage:3,tile:(2,3)):(6,(3,1))");
    let b = broadcast(&v, &Tree::Leaf(8)).expect("shape");
    assert_eq!(names(&b), [None, Some("value")]);
    // A larger operand's mode names would be nested: they do not survive.
    let r = repeat(&parse("(m: 2, n: 3):(3, 1)"), &parse("4:1")).expect("dense");
    assert!(r.names().is_empty(), "{r}");
    let s = scale_mode(
        &parse("(k: 12):(2)"),
        &Tree::Tuple(vec![Tree::Leaf(3), Tree::Leaf(4)]),
    )
    .expect("size 12");
    assert_eq!(s.to_string(), "(k:(3,4)):((8,2))");
}

#[test]
fn inverse_of_a_named_tv_layout() {
    let tv = parse("(thread: 32, value: 4):(1, 32)");
    let inv = inverse(&tv).expect("dense");
    assert_eq!(inv.to_string(), "(value:4,thread:32):(1,4)");
    check_inverse_law(&tv, &inv);
    // A size-1 layout is its own inverse: `1:1`.
    assert_eq!(inverse(&parse("(1,1):(5,_)")).expect("dense"), parse("1:1"));
}

#[test]
fn divide_nested_modes() {
    // (2,4):(8,1) cut by 4, 8, 2 and 1: the documented pieces.
    let l = parse("((2,4)):((8,1))");
    let cut = |k: i64| divide_modes(&l, &[k]).map(|d| d.to_string());
    assert_eq!(cut(4).as_deref(), Ok("((2,4)):((8,1))"));
    assert_eq!(cut(8).as_deref(), Ok("((1,(2,4))):((16,(8,1)))"));
    assert_eq!(cut(2).as_deref(), Ok("(((2,2),2)):(((8,2),1))"));
    assert_eq!(cut(1).as_deref(), Ok("(((2,4),1)):(((8,1),1))"));
    for k in [1, 2, 4, 8] {
        check_divide_law(&l, &[k], &divide(&l, &[k]).expect("cuts"));
    }
    // (2,3) by 2: 2 | 6, but the leaf 3 would be cut by 2.
    let l = parse("(a: (2,3), b: 4):((3,1), 6)");
    assert_eq!(
        divide(&l, &[2, 2]),
        Err(Error::TileSplit {
            mode: ModePath::from_indices(&[0, 1]).expect("path"),
            tile: 2,
            needed: 2,
            size: 3
        })
    );
    // By 3 it cuts: tile 3:1, rest 2:3.
    let d = divide(&l, &[3, 2]).expect("cuts");
    assert_eq!(d.to_string(), "(tile:(3,2),rest:(2,2)):((1,6),(3,12))");
    check_divide_law(&l, &[3, 2], &d);
}

// ---------------------------------------------------------------------------------------------
// Errors, with their exact variants.

#[test]
fn error_variants() {
    let l = parse("(8,6):(6,1)");
    let m0 = ModePath::from_indices(&[0]).expect("path");
    let m1 = ModePath::from_indices(&[1]).expect("path");
    assert_eq!(
        divide(&l, &[3, 3]),
        Err(Error::NotDivisible {
            mode: m0,
            size: 8,
            tile: 3
        })
    );
    assert_eq!(
        divide(&l, &[2, 0]),
        Err(Error::NotDivisible {
            mode: m1,
            size: 6,
            tile: 0
        })
    );
    assert_eq!(divide(&l, &[2]), Err(Error::TileRank { rank: 2, tile: 1 }));
    assert_eq!(
        divide(&parse("12:1"), &[5]),
        Err(Error::NotDivisible {
            mode: ModePath::ROOT,
            size: 12,
            tile: 5
        })
    );

    // Non-dense arrangements.
    let a = parse("(2,2):(1,1)");
    let nd = Error::NotDense {
        mode: m1,
        expected: 2,
        found: 1,
    };
    assert_eq!(repeat(&l, &a), Err(nd));
    assert_eq!(interleave(&l, &a), Err(nd));
    assert_eq!(repeat_modewise(&l, &a), Err(nd));
    assert_eq!(repeat_modewise_raked(&l, &a), Err(nd));
    let b = parse("4:_");
    let bd = Error::BroadcastNotDense {
        mode: ModePath::ROOT,
        size: 4,
    };
    assert_eq!(repeat(&l, &b), Err(bd));
    assert_eq!(interleave(&l, &b), Err(bd));
    assert_eq!(
        repeat_modewise(&l, &parse("4:1")),
        Err(Error::ArrangementRank {
            op: Op::RepeatModewise,
            rank: 2,
            arrangement: 1
        })
    );
    assert_eq!(
        repeat_modewise_raked(&l, &parse("4:1")).map_err(|e| e.to_string()),
        Err(
            "repeat_modewise_raked: the arrangement has 1 top-level modes but the layout has 2"
                .to_owned()
        )
    );

    // Inverse of a non-bijection.
    assert_eq!(
        inverse(&parse("(4,8):(9,1)")),
        Err(Error::NotDense {
            mode: m0,
            expected: 8,
            found: 9
        })
    );
    assert_eq!(
        inverse(&parse("(4,8):(_,1)")),
        Err(Error::BroadcastNotDense { mode: m0, size: 4 })
    );

    // scale_mode.
    let s = Tree::Tuple(vec![Tree::Leaf(3), Tree::Leaf(5)]);
    assert_eq!(
        scale_mode(&parse("12:2"), &s),
        Err(Error::ScaleSize {
            size: 12,
            shape_size: 15
        })
    );
    assert_eq!(scale_mode(&l, &s), Err(Error::NotOneMode { leaves: 2 }));

    // Shapes.
    let bad = Tree::Tuple(vec![Tree::Leaf(3), Tree::Leaf(0)]);
    let np = Error::NonPositiveSize { mode: m1, size: 0 };
    assert_eq!(canonical(&bad), Err(np));
    assert_eq!(broadcast(&l, &bad), Err(np));
    assert_eq!(scale_mode(&parse("12:2"), &bad), Err(np));

    // Regroupings.
    let r3 = parse("(2,3,4):(12,4,1)");
    assert_eq!(
        group(&r3, 1, 1),
        Err(Error::GroupRange {
            start: 1,
            end: 1,
            rank: 3
        })
    );
    assert_eq!(
        group(&r3, 2, 4),
        Err(Error::GroupRange {
            start: 2,
            end: 4,
            rank: 3
        })
    );
    assert_eq!(
        select(&r3, &[3]),
        Err(Error::ModeIndex { index: 3, rank: 3 })
    );
    assert_eq!(select(&r3, &[1, 1]), Err(Error::RepeatedMode { index: 1 }));
    assert_eq!(select(&r3, &[]), Err(Error::EmptySelection));
    assert_eq!(
        permute(&r3, &[0, 1]),
        Err(Error::PermutationRank { rank: 3, len: 2 })
    );
    assert_eq!(
        permute(&r3, &[0, 1, 1]),
        Err(Error::RepeatedMode { index: 1 })
    );
    assert_eq!(
        permute(&r3, &[0, 1, 5]),
        Err(Error::ModeIndex { index: 5, rank: 3 })
    );
}

#[test]
fn overflow_is_an_error_never_a_wrap() {
    let big = 1i64 << 32;
    let s = Tree::Tuple(vec![Tree::Leaf(big), Tree::Leaf(big)]);
    let m0 = ModePath::from_indices(&[0]).expect("path");
    assert_eq!(
        canonical(&s),
        Err(Error::Overflow {
            mode: m0,
            what: Quantity::Positions
        })
    );
    // A scaled stride that does not fit: 4 · 2^62.
    let l = parse("2:4611686018427387904");
    assert_eq!(
        interleave(&l, &parse("4:1")),
        Err(Error::Overflow {
            mode: ModePath::ROOT,
            what: Quantity::Offset
        })
    );
    // k·d of the rest piece (of size 1): 2 · 2^62.
    assert_eq!(
        divide(&l, &[2]),
        Err(Error::Overflow {
            mode: ModePath::ROOT,
            what: Quantity::Offset
        })
    );
    // The copies' offsets: M = 2^61 + 1, A = (2,2):(2,1) reaches 3M + 2^61 > i64::MAX.
    let l = parse("2:2305843009213693952");
    assert!(matches!(
        repeat(&l, &parse("(2,2):(2,1)")),
        Err(Error::Overflow {
            what: Quantity::Offset,
            ..
        })
    ));
    // scale_mode: the canonical weight 4 of the size-1 leaf times d = 2^61.
    assert_eq!(
        scale_mode(
            &parse("4:2305843009213693952"),
            &Tree::Tuple(vec![Tree::Leaf(1), Tree::Leaf(4)])
        ),
        Err(Error::Overflow {
            mode: m0,
            what: Quantity::Offset
        })
    );
    // M itself: offsets spanning all of i64.
    let wide = parse("(2,2):(-4611686018427387904,4611686018427387903)");
    assert_eq!(
        repeat(&wide, &parse("2:1")),
        Err(Error::Overflow {
            mode: ModePath::ROOT,
            what: Quantity::Offset
        })
    );
}

#[test]
fn errors_name_their_rule_and_numbers() {
    let cases = [
        (
            Error::NotDivisible {
                mode: ModePath::ROOT,
                size: 12,
                tile: 5,
            },
            "not-divisible",
            vec![12, 5],
        ),
        (
            Error::TileSplit {
                mode: ModePath::from_indices(&[0, 1]).expect("path"),
                tile: 2,
                needed: 2,
                size: 3,
            },
            "not-divisible",
            vec![2, 3],
        ),
        (
            Error::TileRank { rank: 2, tile: 1 },
            "rank-mismatch",
            vec![2, 1],
        ),
        (
            Error::ScaleSize {
                size: 12,
                shape_size: 15,
            },
            "size-mismatch",
            vec![12, 15],
        ),
        (Error::NotOneMode { leaves: 2 }, "rank-mismatch", vec![2]),
        (
            Error::ArrangementRank {
                op: Op::RepeatModewise,
                rank: 2,
                arrangement: 1,
            },
            "rank-mismatch",
            vec![2, 1],
        ),
        (
            Error::ModeIndex { index: 3, rank: 3 },
            "mode-index",
            vec![3],
        ),
        (Error::RepeatedMode { index: 1 }, "mode-index", vec![1]),
        (
            Error::PermutationRank { rank: 3, len: 2 },
            "mode-index",
            vec![3, 2],
        ),
        (
            Error::GroupRange {
                start: 2,
                end: 4,
                rank: 3,
            },
            "mode-index",
            vec![2, 4, 3],
        ),
        (Error::EmptySelection, "mode-index", vec![]),
    ];
    for (e, rule, numbers) in cases {
        assert_eq!(e.rule(), rule, "{e:?}");
        let text = e.to_string();
        assert_eq!(
            text.chars().next().map(char::is_lowercase),
            Some(true),
            "{text}"
        );
        for n in numbers {
            assert!(
                text.split(|c: char| !c.is_ascii_digit())
                    .any(|w| w == n.to_string()),
                "`{text}` does not show {n}"
            );
        }
        let help = e.help().unwrap_or_else(|| panic!("no help for {e:?}"));
        assert!(!help.to_string().is_empty());
    }
    let e = Error::TileSplit {
        mode: ModePath::from_indices(&[0, 1]).expect("path"),
        tile: 2,
        needed: 2,
        size: 3,
    };
    assert!(e.to_string().contains("mode (0,1)"), "{e}");
    assert_eq!(e.mode(), ModePath::from_indices(&[0, 1]).ok());
}
