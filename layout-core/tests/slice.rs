//! `Map::slice_entries` / `Map::slice` (restriction with free parts `_`, at any depth): every
//! coordinate of every slice against a brute-force evaluator written here. The evaluator reads
//! the layouts' shapes and strides only: it walks the full domain in flat order (last leaf
//! fastest), keeps the coordinates whose fixed leaves carry their values, and the `k`-th kept
//! one is the slice's flat index `k` (the free parts are in leaf order, so the slice's order is
//! the full domain's order on its free leaves).

#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{Annotated, Error, Layout, Map, ModePath, Space, Stride, Tree, compose};

/// The leaves of a tree, in order.
fn leaves<T: Copy>(t: &Tree<T>) -> Vec<T> {
    match t {
        Tree::Leaf(x) => vec![*x],
        Tree::Tuple(v) => v.iter().flat_map(leaves).collect(),
    }
}

/// The top-level entries of a shape (a leaf is one entry).
fn top(t: &Tree<i64>) -> Vec<Tree<i64>> {
    match t {
        Tree::Leaf(_) => vec![t.clone()],
        Tree::Tuple(v) => v.clone(),
    }
}

/// `L(i)`: the flat index unflattened over the leaves (last fastest), times the strides.
fn offset(l: &Layout, i: i64) -> i64 {
    let sizes = leaves(l.shape());
    let strides: Vec<i64> = leaves(l.stride())
        .into_iter()
        .map(|s| match s {
            Stride::Int(d) => d,
            Stride::Broadcast => 0,
        })
        .collect();
    let mut rest = i;
    let mut acc = 0;
    for (n, d) in sizes.iter().zip(&strides).rev() {
        acc += (rest % n) * d;
        rest /= n;
    }
    acc
}

/// The fixed coordinate of every leaf of `shape` a value names (`None`: free), in order;
/// `None` for the whole list when the value does not fit (wrong rank or out of range).
fn fixed_leaves(shape: &Tree<i64>, value: &Tree<Option<i64>>) -> Option<Vec<Option<i64>>> {
    match (value, shape) {
        (Tree::Leaf(None), _) => Some(vec![None; leaves(shape).len()]),
        (Tree::Leaf(Some(v)), _) => {
            let sizes = leaves(shape);
            let size: i64 = sizes.iter().product();
            if !(0..size).contains(v) {
                return None;
            }
            let mut rest = *v;
            let mut out = vec![None; sizes.len()];
            for (slot, n) in out.iter_mut().zip(&sizes).rev() {
                *slot = Some(rest % n);
                rest /= n;
            }
            Some(out)
        }
        (Tree::Tuple(vs), Tree::Tuple(ss)) if vs.len() == ss.len() => {
            let mut out = Vec::new();
            for (v, s) in vs.iter().zip(ss) {
                out.extend(fixed_leaves(s, v)?);
            }
            Some(out)
        }
        _ => None,
    }
}

/// The free parts a value leaves, depth first (CuTe's `_` modes, in order).
fn free_parts(shape: &Tree<i64>, value: &Tree<Option<i64>>, out: &mut Vec<Tree<i64>>) {
    match (value, shape) {
        (Tree::Leaf(None), _) => out.push(shape.clone()),
        (Tree::Leaf(Some(_)), _) => {}
        (Tree::Tuple(vs), Tree::Tuple(ss)) => {
            for (v, s) in vs.iter().zip(ss) {
                free_parts(s, v, out);
            }
        }
        _ => unreachable!("checked by fixed_leaves"),
    }
}

/// The expected slice of a function `f` over `shape` with entry values `values` (one per
/// top-level entry): its domain's parts and its value at every flat index.
fn expected(
    shape: &Tree<i64>,
    values: &[Tree<Option<i64>>],
    f: &dyn Fn(i64) -> i64,
) -> Option<(Vec<Tree<i64>>, Vec<i64>)> {
    let entries = top(shape);
    let mut fixed = Vec::new();
    let mut parts = Vec::new();
    for (e, v) in entries.iter().zip(values) {
        fixed.extend(fixed_leaves(e, v)?);
        free_parts(e, v, &mut parts);
    }
    let sizes = leaves(shape);
    let size: i64 = sizes.iter().product();
    let mut out = Vec::new();
    for i in 0..size {
        let mut rest = i;
        let mut keep = true;
        for (n, f) in sizes.iter().zip(&fixed).rev() {
            if f.is_some_and(|f| f != rest % n) {
                keep = false;
            }
            rest /= n;
        }
        if keep {
            out.push(f(i));
        }
    }
    Some((parts, out))
}

/// Every value tree for a sub-shape: `_`, a few flat indices (first, middle, last, one past),
/// and for a tuple every combination of its entries' values (at most `budget` in all).
fn values(shape: &Tree<i64>, depth: usize) -> Vec<Tree<Option<i64>>> {
    let size: i64 = leaves(shape).iter().product();
    let mut out = vec![
        Tree::Leaf(None),
        Tree::Leaf(Some(0)),
        Tree::Leaf(Some(size - 1)),
    ];
    if size > 2 {
        out.push(Tree::Leaf(Some(size / 2)));
    }
    if let Tree::Tuple(ss) = shape
        && depth < 3
    {
        let mut combos: Vec<Vec<Tree<Option<i64>>>> = vec![Vec::new()];
        for s in ss {
            let opts = values(s, depth + 1);
            let mut next = Vec::new();
            for c in &combos {
                for o in opts.iter().take(3) {
                    let mut c = c.clone();
                    c.push(o.clone());
                    next.push(c);
                }
            }
            combos = next;
        }
        out.extend(combos.into_iter().map(Tree::Tuple));
    }
    out
}

fn logical(text: &str) -> Map {
    Annotated::new(
        text.parse().expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("annotated")
    .into()
}

fn layouts() -> Vec<&'static str> {
    vec![
        "((2,3),(2,2),4):((1,2),(6,12),24)",
        "(((2,2),3),5):(((30,15),5),1)",
        "((4,(2,3)),2):((-1,(8,40)),_)",
        "(3,(2,(2,2))):(8,(4,(2,1)))",
        "((2,2),(2,2)):((1,4),(2,8))",
    ]
}

/// Every coordinate of every slice of `map` (whose function is `f`) by every combination of
/// entry values (two entries listed at a time, the others free).
fn check_all(map: &Map, f: &dyn Fn(i64) -> i64) -> usize {
    let shape = map.domain_shape();
    let entries = top(&shape);
    let mut checked = 0;
    for a in 0..entries.len() {
        for b in a..entries.len() {
            for va in values(&entries[a], 0) {
                for vb in values(&entries[b], 0) {
                    if a == b && vb != Tree::Leaf(None) {
                        continue;
                    }
                    let mut all = vec![Tree::Leaf(None); entries.len()];
                    all[a] = va.clone();
                    all[b] = if a == b { va.clone() } else { vb.clone() };
                    let mut pairs = vec![(a, va.clone())];
                    if a != b {
                        pairs.push((b, vb.clone()));
                    }
                    let got = map.slice_entries(&pairs);
                    let Some((parts, want)) = expected(&shape, &all, f) else {
                        assert!(
                            matches!(
                                got,
                                Err(Error::CoordOutOfRange { .. } | Error::CoordProfile { .. })
                            ),
                            "{pairs:?}: {got:?}"
                        );
                        continue;
                    };
                    let s = got.unwrap_or_else(|e| panic!("{pairs:?}: {e:?}"));
                    assert_eq!(s.domain_entries(), parts, "{pairs:?}");
                    assert_eq!(s.size(), want.len() as i64, "{pairs:?}");
                    for (k, w) in want.iter().enumerate() {
                        assert_eq!(s.eval_index(k as i64), Ok(*w), "{pairs:?} at {k}");
                    }
                    let (min, max) = (want.iter().min(), want.iter().max());
                    assert_eq!(
                        s.offset_range().ok(),
                        Some((*min.unwrap(), *max.unwrap())),
                        "{pairs:?}"
                    );
                    // The whole-domain form gives the same map.
                    let whole = if entries.len() == 1 {
                        all[0].clone()
                    } else {
                        Tree::Tuple(all.clone())
                    };
                    assert_eq!(map.slice(&whole).as_ref(), Ok(&s), "{whole:?}");
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn every_slice_of_layouts_at_every_coordinate() {
    let mut n = 0;
    for text in layouts() {
        let m = logical(text);
        let l = m.as_layout().expect("a layout").clone();
        n += check_all(&m, &|i| offset(&l, i));
    }
    assert!(n > 500, "{n}");
}

#[test]
fn every_slice_of_composites_at_every_coordinate() {
    // A thread-value layout onto a logical tile, into a storage layout: `S(TV(i))`.
    for (s, tv) in [
        ("(8,6):(1,8)", "((2,4),(3,2)):((24,1),(4,12))"),
        ("((2,4),6):((1,12),2)", "(4,(2,3),2):(2,(1,8),24)"),
    ] {
        let sl: Layout = s.parse().unwrap();
        let tvl: Layout = tv.parse().unwrap();
        let left: Map = Annotated::new(sl.clone(), Space::Logical, Space::Physical)
            .unwrap()
            .into();
        let right: Map = Annotated::new(tvl.clone(), Space::ThreadValue, Space::Logical)
            .unwrap()
            .into();
        let c = compose(&left, &right).unwrap();
        let f = |i| offset(&sl, offset(&tvl, i));
        assert!(check_all(&c, &f) > 50);
        // And swizzled after: the swizzle's formula, written here.
        let sw = layout_core::Swizzle::new(1, 3, 0).unwrap();
        let z = c.clone().swizzle(sw).unwrap();
        let g = |i| {
            let x = f(i);
            x ^ ((x >> 3) & 1)
        };
        assert!(check_all(&z, &g) > 50);
    }
}

#[test]
fn slicing_a_restriction_and_restricting_a_slice() {
    let text = "((2,3),(2,2),4):((1,2),(6,12),24)";
    let m = logical(text);
    let l = m.as_layout().unwrap().clone();
    let shape = l.shape().clone();
    let f = |i| offset(&l, i);
    let t = |v: Vec<Tree<Option<i64>>>| Tree::Tuple(v);
    let (u, x) = (Tree::Leaf(None), |v| Tree::Leaf(Some(v)));
    // restrict(entry 2 = 3), then slice entry 0 (now 0) = (_, 1): one map, two spellings.
    let r = m.restrict(&[(2, 3)]).unwrap();
    let a = r.slice_entries(&[(0, t(vec![u.clone(), x(1)]))]).unwrap();
    // slice entry 0 = (_, 1), then restrict the last free entry (entry 2 of the original).
    let s = m.slice_entries(&[(0, t(vec![u.clone(), x(1)]))]).unwrap();
    assert_eq!(s.domain_entries().len(), 3);
    let b = s.restrict(&[(2, 3)]).unwrap();
    let (parts, want) = expected(&shape, &[t(vec![u.clone(), x(1)]), u.clone(), x(3)], &f).unwrap();
    for m in [&a, &b] {
        assert_eq!(m.domain_entries(), parts);
        let got: Vec<i64> = (0..m.size()).map(|k| m.eval_index(k).unwrap()).collect();
        assert_eq!(got, want);
    }
    // Slicing a slice: the middle entry's parts, then one of them.
    let c = s
        .slice_entries(&[(1, t(vec![x(1), u.clone()]))])
        .unwrap()
        .slice_entries(&[(1, x(1))])
        .unwrap();
    let (parts, want) = expected(
        &shape,
        &[t(vec![u.clone(), x(1)]), t(vec![x(1), x(1)]), u],
        &f,
    )
    .unwrap();
    assert_eq!(c.domain_entries(), parts);
    let got: Vec<i64> = (0..c.size()).map(|k| c.eval_index(k).unwrap()).collect();
    assert_eq!(got, want);
}

#[test]
fn names_stay_on_whole_entries() {
    let l: Layout = "((4,2),8,3):((16,1),2,64)".parse().unwrap();
    let l = l
        .with_names(vec![
            Some("thread".into()),
            Some("value".into()),
            Some("stage".into()),
        ])
        .unwrap();
    let m: Map = Annotated::new(l, Space::Logical, Space::Physical)
        .unwrap()
        .into();
    let s = m
        .slice_entries(&[(0, Tree::Tuple(vec![Tree::Leaf(None), Tree::Leaf(Some(1))]))])
        .unwrap();
    assert_eq!(
        s.domain_names(),
        vec![None, Some("value".to_string()), Some("stage".to_string())]
    );
    // By name after the split: `stage` is still an entry.
    let r = s.restrict_named(&[("stage", 2)]).unwrap();
    assert_eq!(r.eval_index(0), Ok(1 + 128));
}

#[test]
fn errors_name_the_rule() {
    let m = logical("((2,3),4):((1,2),6)");
    let (u, x) = (Tree::Leaf(None), |v| Tree::Leaf(Some(v)));
    let t = |v: Vec<Tree<Option<i64>>>| Tree::Tuple(v);
    // A tuple whose rank is not the sub-shape's, at the sub-shape's path.
    assert_eq!(
        m.slice_entries(&[(0, t(vec![u.clone(), x(1), x(0)]))]),
        Err(Error::CoordProfile {
            mode: ModePath::from_indices(&[0]).unwrap(),
            shape_rank: 2,
            coord_rank: 3
        })
    );
    assert_eq!(
        m.slice_entries(&[(1, t(vec![u.clone(), x(1)]))]),
        Err(Error::CoordProfile {
            mode: ModePath::from_indices(&[1]).unwrap(),
            shape_rank: 1,
            coord_rank: 2
        })
    );
    // A value outside its sub-shape.
    assert_eq!(
        m.slice_entries(&[(0, t(vec![x(2), u.clone()]))]),
        Err(Error::CoordOutOfRange {
            mode: ModePath::from_indices(&[0, 0]).unwrap(),
            value: 2,
            size: 2
        })
    );
    // An entry past the free ones, or twice (as `Map::restrict` says it).
    assert_eq!(
        m.slice_entries(&[(2, u.clone())]),
        Err(Error::RestrictEntry { entry: 2, rank: 2 })
    );
    assert_eq!(
        m.slice_entries(&[(0, u.clone()), (0, x(1))]),
        Err(Error::RepeatedMode { index: 0 })
    );
    assert_eq!(
        m.restrict(&[(0, 1), (0, 1)]),
        Err(Error::RepeatedMode { index: 0 })
    );
    // The whole-domain form: one element per entry.
    assert_eq!(
        m.slice(&t(vec![u.clone(), u.clone(), u.clone()])),
        Err(Error::CoordProfile {
            mode: ModePath::ROOT,
            shape_rank: 2,
            coord_rank: 3
        })
    );
    assert_eq!(
        m.slice(&x(1)),
        Err(Error::CoordProfile {
            mode: ModePath::ROOT,
            shape_rank: 2,
            coord_rank: 1
        })
    );
    // Not into physical.
    let tv: Map = Annotated::new(
        "(2,3):(3,1)".parse().unwrap(),
        Space::ThreadValue,
        Space::Logical,
    )
    .unwrap()
    .into();
    assert_eq!(
        tv.slice(&t(vec![u, x(1)])),
        Err(Error::RestrictNotPhysical {
            codomain: Space::Logical
        })
    );
}

#[test]
fn slices_past_the_decision_limit_at_sampled_coordinates() {
    // 2^26 coordinates: past `DECIDE_LIMIT`; the slice keeps 2^13 + a free entry.
    let text = "((8192,8),(2,512)):((1,8192),(65536,131072))";
    let m = logical(text);
    assert!(m.size() > layout_core::DECIDE_LIMIT);
    let l = m.as_layout().unwrap().clone();
    let v = Tree::Tuple(vec![Tree::Leaf(None), Tree::Leaf(Some(5))]);
    let s = m.slice_entries(&[(0, v)]).unwrap();
    assert_eq!(
        s.domain_entries(),
        vec![
            Tree::Leaf(8192),
            Tree::Tuple(vec![Tree::Leaf(2), Tree::Leaf(512)])
        ]
    );
    for k in [0i64, 1, 1023, 1024, 8191 * 1024 + 1023, 4096 * 1024 + 77] {
        // Free leaves: 8192 (weight 1024), then (2,512); the fixed leaf 8 is at 5.
        let (a, rest) = (k / 1024, k % 1024);
        let full = a * (8 * 1024) + 5 * 1024 + rest;
        assert_eq!(s.eval_index(k), Ok(offset(&l, full)), "{k}");
    }
}

/// `Map`'s variants are public: a restriction built by hand that names an entry its inner map
/// does not have is refused by a slice, not indexed past the end.
#[test]
fn a_hand_built_restriction_past_its_entries_is_an_error() {
    let inner = logical("((2,3),4):((1,2),6)");
    let bogus = Map::Restricted {
        fixed: vec![(9, 0)],
        inner: Box::new(inner),
    };
    assert_eq!(
        bogus.slice_entries(&[(0, Tree::Leaf(None))]),
        Err(Error::RestrictEntry { entry: 9, rank: 2 })
    );
}
