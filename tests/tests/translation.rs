//! The translation table (spec: Translation table; spec: CuTe interoperability): every CuTe idiom CUTLASS
//! kernels are written with, its recipe in this algebra, and a test that both sides give the
//! same function. The CuTe side is `layout_core::cute` (CuTe's own operations with CuTe's
//! semantics, checked against pycute by `pycute_diff.rs`), the corpus's pycute/C++ values, or —
//! for the idioms CuTe builds on top of its operations (`local_tile`, `local_partition`,
//! `partition_C`, `make_tiled_copy`, `TiledMMA`, `upcast`) — the CuTe definition written out
//! from the CUTLASS 4.2 headers over `layout_core::cute`'s operations, cited per test. Our side
//! is the seed-order algebra of `layout_core` and, where the idiom is a constant, `layout!`.
//!
//! Integer indices are the same in both notations (seed order is CuTe order reversed,
//! recursively), so "the same function" is checked at every integral index unless a row says
//! which coordinates it compares. The rows, in the order of `docs/cute.md`:
//!
//! | # | CuTe | here | test |
//! |---|---|---|---|
//! | 1 | `make_layout(S, D)` | `S^r : D^r` (`cute` in `layout!`, `Layout::from_cute`) | [`row01_make_layout`] |
//! | 2 | `composition(A, B)` | `compose(A, B)` | [`row02_composition`] |
//! | 3 | `complement(B, M)` | the rest of `divide(canonical(R), S)` | [`row03_complement`] |
//! | 4 | `logical_divide`, `zipped_divide` | `divide_modes`, `divide` | [`row04_divide`] |
//! | 5 | `local_tile(A, S, b)` | `restrict(divide(A, S), rest = b)` | [`row05_local_tile`] |
//! | 6 | `local_partition(A, T, t)` | `restrict(divide(A, S_T), tile = inverse(T)(t))` | [`row06_local_partition`] |
//! | 7 | `partition_A/B/C`, `tensor(_, k)` | `restrict(compose(A, F), thread = t)`, `restrict(A, k)` | [`row07_partition`] |
//! | 8 | `logical_product`, `blocked_product`, `tile_to_shape` | `repeat`, `repeat_modewise` | [`row08_products`] |
//! | 9 | `raked_product` | `repeat_modewise_raked` | [`row09_raked_product`] |
//! | 10 | `logical_product(B, A)`, copies first | `interleave(A, B)` | [`row10_interleave`] |
//! | 11 | stride-0 modes | `broadcast(L, S)`, read-only | [`row11_broadcast`] |
//! | 12 | `Swizzle<B,M,S> ∘ L` | `swizzle(L, b = B, src = M+S, dst = M)` | [`row12_swizzle`] |
//! | 13 | k-stage pipeline buffer | `repeat(L, k:1)` | [`row13_pipeline_buffer`] |
//! | 14 | `TiledCopy`: `partition_S/D`, vector width `v` | `compose(divide(A, (1, v)), interleave(v:1, 32:1))` | [`row14_tiled_copy`] |
//! | 15 | `TiledMMA`: atom `F`, warp grid `W` | `compose(divide(A, S_F), interleave(F, W))` | [`row15_tiled_mma`] |
//! | 16 | `right_inverse(L)`; `retile_S/D` | `inverse(L)`; `compose(inverse(F_mma), F_copy)` | [`row16_inverse_retile`] |
//! | 17 | `coalesce`, `group_modes`, `select`, `flatten` | `coalesce`; `group`, `select` (`permute`), `flatten`, in `layout!` too | [`row17_regroupings`] |
//! | 18 | `recast`, `upcast<v>` | `divide(A, (1, …, 1, v))`, the rest group | [`row18_upcast`] |
//! | 19 | TMA box `S`; multicast | `divide(A, S)`; `broadcast` across CTAs | [`row19_tma_box`] |
//! | 20 | `make_tensor(ptr, L)`, `tensor(c)` | `Tensor::new(data, L)` (`with_base` for `ptr + base`), `get(c)` | [`row20_make_tensor`] |
//! | 21 | `recast<U>(tensor)` | `tensor.recast::<U>()` | [`row21_recast`] |
//! | 22 | `tensor(_, _, k)`, nested `_`; `tXsA(_, _, _, p)` | `restrict(A, (k, _, _))`, `restrict(A, (k, _, (1, _)))`; `restrict(compose(S, TV), thread = t, stage = p)` | [`row22_slice`] |

use layout_core::cute::{self, Cute, CuteLayout, CuteOp, Tiler};
use layout_core::{
    Annotated, Layout, Map, Space, Swizzle, SwizzleUnit, Tree, broadcast, canonical, divide,
    divide_modes, flatten, group, interleave, inverse, permute, repeat, repeat_modewise,
    repeat_modewise_raked, select,
};
use layout_tests::Rng;
use layout_tests::{corpus, ints, load};
use layout_typed::Layout as _; // the trait, shadowed by `layout_core::Layout`
use layout_typed::prelude::*;

type R = Result<(), Box<dyn std::error::Error>>;

fn leaf(x: i64) -> Tree<i64> {
    Tree::Leaf(x)
}

fn tup(v: Vec<Tree<i64>>) -> Tree<i64> {
    Tree::Tuple(v)
}

fn flat(v: &[i64]) -> Tree<i64> {
    tup(v.iter().map(|&x| leaf(x)).collect())
}

fn divisors(n: i64) -> Vec<i64> {
    (1..=n).filter(|d| n % d == 0).collect()
}

/// A flat seed-order layout of `shape` whose strides are the running products of the sizes in
/// a random order (a dense bijection), each multiplied by `gap` from the `gapped`-th on.
fn permuted(rng: &mut Rng, shape: &[i64], gap: i64) -> Layout {
    let mut order: Vec<usize> = (0..shape.len()).collect();
    rng.shuffle(&mut order);
    let mut strides = vec![0i64; shape.len()];
    let mut current = 1;
    for (j, &k) in order.iter().enumerate() {
        if j == 1 {
            current *= gap;
        }
        strides[k] = current;
        current *= shape[k];
    }
    seed_flat(shape, &strides)
}

/// A random dense bijection of a size drawn from `sizes`, its shape a random factorisation.
fn dense(rng: &mut Rng, sizes: &[i64]) -> Layout {
    let n = rng.pick(sizes);
    let shape = factor(rng, n);
    permuted(rng, &shape, 1)
}

/// A random rank-2 dense bijection with sizes drawn from `s0` and `s1`.
fn dense2(rng: &mut Rng, s0: &[i64], s1: &[i64]) -> Layout {
    let shape = [rng.pick(s0), rng.pick(s1)];
    permuted(rng, &shape, 1)
}

/// Top-level group `i` of a seed-order layout (the others fixed at 0).
fn group_of(l: &Layout, i: usize) -> Layout {
    select(l, &[i]).expect("a top-level mode")
}

fn seed_flat(shape: &[i64], strides: &[i64]) -> Layout {
    let text = format!(
        "({}):({})",
        shape
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(","),
        strides
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    text.parse().expect("a layout")
}

fn map(l: &Layout, domain: Space, codomain: Space) -> Map {
    Annotated::new(l.clone(), domain, codomain)
        .expect("a valid annotation")
        .into()
}

fn cute(text: &str) -> CuteLayout {
    text.parse().expect("CuTe text")
}

/// The same function at every integral index: `ours` (seed order) and `theirs` (CuTe order).
fn same_function(ours: &Layout, theirs: &CuteLayout, what: &str) {
    assert_eq!(ours.size(), theirs.size(), "{what}: sizes");
    for i in 0..ours.size() {
        assert_eq!(
            ours.eval_index(i).expect("in range"),
            theirs.eval_index(i).expect("in range"),
            "{what} at {i}: ours {ours}, CuTe {theirs}"
        );
    }
}

/// Row 1. `make_layout(S, D)` is `S^r : D^r`, every tuple reversed recursively; CuTe's `_8` is
/// 8 and its stride 0 (size > 1) our `_`. Every layout of the corpus's `layout_eval` cases, read
/// with `Layout::from_cute`, gives pycute's offsets; `layout!(cute …)` the same at compile time.
#[test]
fn row01_make_layout() -> R {
    let cases = corpus("layout_eval");
    assert!(cases.len() >= 20);
    for case in &cases {
        let text = case["inputs"]["layout"].as_str().expect("layout");
        let ours = Layout::from_cute(text)?;
        let offsets = ints(&case["expected"]["offsets"]).expect("offsets");
        for (i, &want) in offsets.iter().enumerate() {
            assert_eq!(ours.eval_index(i as i64)?, want, "{text} at {i}");
        }
        // The CuTe-semantics module reads the same text as the same function.
        same_function(&ours, &cute(text), text);
    }
    // The reversal, spelled out; static integers and broadcasts.
    let l = Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))")?;
    assert_eq!(l.to_string(), "((2,2),(8,4)):((8,16),(1,32))");
    assert_eq!(l.to_cute().to_string(), "((4,8),(2,2)):((32,1),(16,8))");
    // C++'s printed static integers: read by the CuTe module's parser and by `layout!(cute …)`.
    let printed: CuteLayout = "(_8,_4):(_4,_1)".parse()?;
    assert_eq!(printed.to_seed()?.to_string(), "(4,8):(1,4)");
    layout! { const STATIC = cute (_8,_4):(_4,_1), logical -> physical; }
    for i in 0..32usize {
        assert_eq!(STATIC.offset_index(i), printed.eval_index(i as i64)?);
    }
    assert_eq!(Layout::from_cute("(4,2):(1,0)")?.to_string(), "(2,4):(_,1)");
    layout! { const TV_C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8); }
    let c = cute("((4,8),(2,2)):((32,1),(16,8))");
    for i in 0..128usize {
        assert_eq!(TV_C.offset_index(i), c.eval_index(i as i64)?);
    }
    Ok(())
}

/// Row 2. `composition(A, B)` is `A ∘ B` (`B` first), for `B` a dense bijection onto `A`'s
/// domain (the only precondition here). The CuTe documentation's example, and 300 random pairs
/// with sizes that are not powers of two: where CuTe returns a result, it is our composite at
/// every index; where CuTe refuses or goes wrong, the layout its diagnostic offers (Theorem 1)
/// is our composite; and our composite exists in every case.
#[test]
fn row02_composition() -> R {
    let a = Layout::from_cute("(6,2):(8,2)")?;
    let b = Layout::from_cute("(4,3):(3,1)")?;
    let ab = layout_core::compose(
        &map(&a, Space::Logical, Space::Physical),
        &map(&b, Space::ThreadValue, Space::Logical),
    )?;
    let theirs = cute::composition(&cute("(6,2):(8,2)"), &cute("(4,3):(3,1)"))?;
    assert_eq!(theirs.to_string(), "((2,2),3):((24,2),8)");
    for i in 0..12 {
        assert_eq!(ab.eval_index(i)?, theirs.eval_index(i)?);
    }
    layout! {
        const A = cute (6,2):(8,2), logical -> physical;
        const B = cute (4,3):(3,1), thread-value -> logical;
    }
    let typed = layout!(compose(A, B));
    assert_eq!(typed.to_string(), "(3,(2,2)):(8,(2,24))"); // CuTe's result, reversed
    for i in 0..12usize {
        assert_eq!(typed.offset_index(i), theirs.eval_index(i as i64)?);
    }

    let mut rng = Rng(0x0002);
    let (mut results, mut suggestions, mut neither) = (0, 0, 0);
    for _ in 0..300 {
        let n = rng.pick(&[6i64, 12, 18, 24, 30, 36, 60, 72, 90]);
        let shape_a = factor(&mut rng, n);
        let shape_b = factor(&mut rng, n);
        let gap = rng.pick(&[1i64, 1, 2, 3]);
        let a = permuted(&mut rng, &shape_a, gap);
        let b = permuted(&mut rng, &shape_b, 1);
        let ours = layout_core::compose(
            &map(&a, Space::Logical, Space::Physical),
            &map(&b, Space::ThreadValue, Space::Logical),
        )?;
        let (ca, cb) = (CuteLayout::from_seed(&a), CuteLayout::from_seed(&b));
        let check = |l: &CuteLayout| {
            for i in 0..n {
                assert_eq!(
                    ours.eval_index(i).unwrap(),
                    l.eval_index(i).unwrap(),
                    "{a} o {b} at {i}"
                );
            }
        };
        match cute::composition(&ca, &cb) {
            Ok(r) => {
                check(&r);
                results += 1;
            }
            Err(d) => match d.suggestion() {
                Some(s) => {
                    check(s);
                    suggestions += 1;
                }
                None => neither += 1,
            },
        }
    }
    println!(
        "composition: {results} CuTe results, {suggestions} suggestions, {neither} composites CuTe cannot write"
    );
    assert!(results > 100);
    Ok(())
}

/// `n` split into random factors (a flat shape of size `n`, slowest first).
fn factor(rng: &mut Rng, n: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut rest = n;
    while rest > 1 {
        let ds: Vec<i64> = divisors(rest).into_iter().filter(|&d| d > 1).collect();
        let d = if out.len() >= 3 { rest } else { rng.pick(&ds) };
        out.push(d);
        rest /= d;
    }
    if out.is_empty() {
        out.push(1);
    }
    out
}

/// Row 3. `complement(B, M)` is never formed on its own: it is the rest of a divide. For `B`
/// the tile `S` of `canonical(R)` (`k_i | n_i`), the rest group of `divide(canonical(R), S)`
/// is, mode by mode, CuTe's `complement(k_i:1, n_i)` scaled by the mode's canonical weight —
/// and for a strided CuTe tile such as `complement(4:2, 16) = (2,2):(1,8)`, `R` is the shape
/// refined so that the tile is one block of it: `(2,4,2)` with `S = (1,4,1)`.
#[test]
fn row03_complement() -> R {
    let mut rng = Rng(0x0003);
    for _ in 0..200 {
        let rank = 1 + rng.below(3);
        let r: Vec<i64> = (0..rank)
            .map(|_| rng.pick(&[2i64, 3, 4, 5, 6, 8, 9, 10, 12]))
            .collect();
        let s: Vec<i64> = r.iter().map(|&n| rng.pick(&divisors(n))).collect();
        let can = canonical(&flat(&r))?;
        let d = divide(&can, &s)?;
        for i in 0..rank {
            let w: i64 = r[i + 1..].iter().product();
            let theirs = cute::complement(&CuteLayout::leaf(s[i], 1)?, r[i])?;
            for x in 0..r[i] / s[i] {
                // Rest coordinate x in mode i, 0 elsewhere; tile coordinate 0.
                let rest: Vec<i64> = (0..rank).map(|j| if j == i { x } else { 0 }).collect();
                assert_eq!(
                    d.eval(&tup(vec![leaf(0), flat(&rest)]))?,
                    w * theirs.eval_index(x)?,
                    "R {r:?} S {s:?}"
                );
            }
        }
    }
    let theirs = cute::complement(&cute("4:2"), 16)?;
    assert_eq!(theirs.to_string(), "(2,2):(1,8)");
    let d = divide(&canonical(&flat(&[2, 4, 2]))?, &[1, 4, 1])?;
    assert_eq!(
        d.to_string(),
        "(tile:(1,4,1),rest:(2,1,2)):((8,2,1),(8,8,1))"
    );
    let ours: Vec<i64> = (0..4)
        .map(|r| d.eval(&tup(vec![leaf(0), leaf(r)])))
        .collect::<Result<_, _>>()?;
    let cute_values: Vec<i64> = (0..4)
        .map(|i| theirs.eval_index(i))
        .collect::<Result<_, _>>()?;
    assert_eq!(ours, [0, 1, 8, 9]);
    assert_eq!(cute_values, [0, 1, 8, 9]);
    Ok(())
}

/// A CuTe by-mode shape tiler `<k_m:1,…,k_1:1>` for the seed-order tile `(k_1..k_m)`.
fn shape_tiler(s: &[i64]) -> Tiler {
    Tiler::Modes(
        s.iter()
            .rev()
            .map(|&k| Tiler::Layout(CuteLayout::leaf(k, 1).expect("a mode")))
            .collect(),
    )
}

/// A random flat seed-order layout with positive, possibly gappy strides.
fn random_flat(rng: &mut Rng) -> (Vec<i64>, Layout) {
    let rank = 1 + rng.below(3);
    let shape: Vec<i64> = (0..rank)
        .map(|_| rng.pick(&[2i64, 3, 4, 5, 6, 8, 9, 10, 12]))
        .collect();
    let gap = rng.pick(&[1i64, 2, 3]);
    let l = permuted(rng, &shape, gap);
    (shape, l)
}

/// Row 4. `logical_divide(A, S)` is `divide_modes(A, S)` (CuTe's result exactly, reversed) and
/// `zipped_divide(A, S)` is `divide(A, S)`: the same offset at every group coordinate
/// `(tile t, rest r)`, CuTe's groups being `(tile, rest)` first-fastest.
#[test]
fn row04_divide() -> R {
    let mut rng = Rng(0x0004);
    for _ in 0..200 {
        let (shape, a) = random_flat(&mut rng);
        let s: Vec<i64> = shape.iter().map(|&n| rng.pick(&divisors(n))).collect();
        let ca = CuteLayout::from_seed(&a);
        let logical = Cute::new().logical_divide(&ca, &shape_tiler(&s))?;
        let dm = divide_modes(&a, &s)?;
        same_function(&dm, &logical, "logical_divide");
        if s.iter().zip(&shape).all(|(k, n)| *k > 1 && k < n) {
            assert_eq!(dm.to_cute().to_string(), logical.to_string());
        }
        let zipped = Cute::new().zipped_divide(&ca, &shape_tiler(&s))?;
        let d = divide(&a, &s)?;
        let (tiles, rests): (i64, i64) = (s.iter().product(), a.size() / s.iter().product::<i64>());
        for t in 0..tiles {
            for r in 0..rests {
                assert_eq!(
                    d.eval(&tup(vec![leaf(t), leaf(r)]))?,
                    zipped.eval(&tup(vec![leaf(t), leaf(r)]))?,
                    "divide({a}, {s:?}) at tile {t}, rest {r}"
                );
            }
        }
    }
    Ok(())
}

/// Row 5. `local_tile(A, S, b)` — CuTe 4.2 `tensor_impl.hpp`: `inner_partition`, i.e.
/// `zipped_divide(A, S)(_, b)` — is `restrict(divide(A, S), rest = b)`: the same offset at
/// every position `t` of every tile `b`, also through `layout!`.
#[test]
fn row05_local_tile() -> R {
    let mut rng = Rng(0x0005);
    for _ in 0..150 {
        let (shape, a) = random_flat(&mut rng);
        let s: Vec<i64> = shape.iter().map(|&n| rng.pick(&divisors(n))).collect();
        let zipped = Cute::new().zipped_divide(&CuteLayout::from_seed(&a), &shape_tiler(&s))?;
        let d = map(&divide(&a, &s)?, Space::Logical, Space::Physical);
        let tiles: i64 = s.iter().product();
        for b in 0..a.size() / tiles {
            let tile = d.restrict_named(&[("rest", b)])?;
            for t in 0..tiles {
                assert_eq!(
                    tile.eval_index(t)?,
                    zipped.eval(&tup(vec![leaf(t), leaf(b)]))?
                );
            }
        }
    }
    layout! { const GMEM = cute (64,48):(1,64), logical -> physical; }
    let zipped = Cute::new().zipped_divide(&cute("(64,48):(1,64)"), &"<16:1,12:1>".parse()?)?;
    for b in 0..16usize {
        let tile = layout!(restrict(divide(GMEM, (12, 16)), rest = b));
        for t in 0..192usize {
            assert_eq!(
                tile.offset(t),
                zipped.eval(&tup(vec![leaf(t as i64), leaf(b as i64)]))?
            );
        }
    }
    // The same with a run-time matrix (m, k, ld): `local_tile(A, make_shape(32, 16), b)`.
    for (m, k, ld) in [(64usize, 48usize, 48usize), (96, 32, 40), (32, 80, 81)] {
        let zipped = Cute::new().zipped_divide(
            &cute(&format!("({k},{m}):(1,{ld})")),
            &"<16:1,32:1>".parse()?,
        )?;
        for b in 0..(m / 32) * (k / 16) {
            let tile = layout!(restrict(
                divide([cute ({k}, {m}):(1, {ld}), logical -> physical], (32, 16)),
                rest = b
            ))?;
            for t in 0..512usize {
                assert_eq!(
                    tile.offset(t),
                    zipped.eval(&tup(vec![leaf(t as i64), leaf(b as i64)]))?
                );
            }
        }
    }
    Ok(())
}

/// CuTe's `get_flat_coord(idx)` of a layout `T` (coordinate → index), written from
/// `layout.hpp` (`idx2crd(idx, shape, stride)`: `(idx / d_i) mod n_i` per mode), returned as
/// the integral (colexicographic) index of that coordinate in `T`'s shape.
fn flat_coord_index(t: &CuteLayout, idx: i64) -> i64 {
    let mut acc = 0;
    let mut weight = 1;
    for (n, d) in t.leaves() {
        acc += (idx / d) % n * weight;
        weight *= n;
    }
    acc
}

/// Row 6. `local_partition(A, T, t)` — CuTe 4.2: `outer_partition(A, product_each(shape(T)),
/// T.get_flat_coord(t))`, i.e. `zipped_divide(A, S_T)(c, _)` — is
/// `restrict(divide(A, S_T), tile = inverse(T)(t))` with `T` read as logical → thread-value.
#[test]
fn row06_local_partition() -> R {
    for (a_text, t_text) in [
        ("(16,64):(64,1)", "(2,16):(16,1)"),
        ("(16,64):(1,16)", "(2,16):(1,2)"),
        ("(12,30):(30,1)", "(3,5):(5,1)"),
        ("(24,18):(1,25)", "(4,6):(1,4)"),
    ] {
        let (ca, ct) = (cute(a_text), cute(t_text));
        let s_t: Vec<i64> = ct.leaves().iter().map(|l| l.0).collect(); // CuTe order
        let zipped = Cute::new().zipped_divide(
            &ca,
            &shape_tiler(&s_t.iter().rev().copied().collect::<Vec<_>>()),
        )?;
        let a = Layout::from_cute(a_text)?;
        let t_seed = Layout::from_cute(t_text)?;
        let s_seed: Vec<i64> = s_t.iter().rev().copied().collect();
        let d = map(&divide(&a, &s_seed)?, Space::Logical, Space::Physical);
        let inv = inverse(&t_seed)?; // thread -> position in the tile
        let threads = ct.size();
        for thr in 0..threads {
            let ours = d.restrict_named(&[("tile", inv.eval_index(thr)?)])?;
            let c = flat_coord_index(&ct, thr);
            for r in 0..a.size() / threads {
                assert_eq!(
                    ours.eval_index(r)?,
                    zipped.eval(&tup(vec![leaf(c), leaf(r)]))?,
                    "{a_text} by {t_text}: thread {thr}, value {r}"
                );
            }
        }
    }
    Ok(())
}

/// Row 7. `partition_C` of one MMA atom — CuTe 4.2 `mma_atom.hpp`: `thrfrg_C` composes the
/// atom's `(thread, value) -> (m, n)` layout `F` into the tile, `partition_C` slices the
/// thread — is `restrict(compose(C, F), thread = t)`; `tensor(_, _, k)` is `restrict(A, k)`.
/// The atom is SM80 `16x8x16_F32F16F16F32_TN` (the typed constant and the corpus text).
#[test]
fn row07_partition() -> R {
    use layout_typed::atoms::sm80_16x8x16_f32f16f16f32_tn as atom;
    let f_text = "((4,8),(2,2)):((32,1),(16,8))";
    let storage = "(16,8):(1,20)"; // a 16×8 C tile, column-major with padding
    let theirs = Cute::new().composition(&cute(storage), &Tiler::Layout(cute(f_text)))?;
    let f = Layout::from_cute(f_text)?;
    let c = map(
        &Layout::from_cute(storage)?,
        Space::Logical,
        Space::Physical,
    );
    let ours = layout_core::compose(&c, &map(&f, Space::ThreadValue, Space::Logical))?;
    layout! { const GC = cute (16,8):(1,20), logical(16,8) -> physical; }
    let typed = compose(GC, atom::C);
    for t in 0..32 {
        let slice = ours.restrict(&[(1, t)])?; // entry 1: the thread (seed order: value, thread)
        for v in 0..4 {
            let want = theirs.eval(&tup(vec![leaf(t), leaf(v)]))?;
            assert_eq!(slice.eval_index(v)?, want, "thread {t}, value {v}");
            assert_eq!(typed.offset((v as usize, t as usize)), want);
        }
    }
    // tensor(_, _, k): a 3-mode (M, N, K) tensor with the K mode fixed.
    let mnk = "(4,6,5):(1,4,24)";
    let a = map(&Layout::from_cute(mnk)?, Space::Logical, Space::Physical);
    let ca = cute(mnk);
    for k in 0..5 {
        let slice = a.restrict(&[(0, k)])?; // CuTe's last mode is the seed's first
        for i in 0..24 {
            let (m, n) = (i % 4, i / 4);
            assert_eq!(slice.eval_index(i)?, ca.eval(&flat(&[m, n, k]))?);
        }
    }
    Ok(())
}

/// Row 8. `logical_product(A, B)` is `repeat(A, B)`, `blocked_product` is `repeat_modewise`
/// and `tile_to_shape(A, S)` is `repeat_modewise(A, P)` for `P` the column-major arrangement
/// of `S / shape(A)` — for `A` a dense bijection (a layout whose image is `[0, cosize)`) and
/// `B` a dense bijection. For a gappy `A`, CuTe fills the holes with its complement; `repeat`
/// lays the copies `cosize(A)` apart instead (shown below).
#[test]
fn row08_products() -> R {
    let mut rng = Rng(0x0008);
    for _ in 0..150 {
        let a = dense(&mut rng, &[2, 3, 4, 6, 9, 10]);
        let b = dense(&mut rng, &[2, 3, 5, 6, 8]);
        let theirs = Cute::new().logical_product(
            &CuteLayout::from_seed(&a),
            &Tiler::Layout(CuteLayout::from_seed(&b)),
        )?;
        same_function(&repeat(&a, &b)?, &theirs, "logical_product");
        // Rank 2: blocked.
        let a2 = dense2(&mut rng, &[2, 3, 5], &[2, 4, 6]);
        let b2 = dense2(&mut rng, &[1, 2, 3], &[2, 3, 4]);
        let theirs = Cute::new()
            .blocked_product(&CuteLayout::from_seed(&a2), &CuteLayout::from_seed(&b2))?;
        same_function(&repeat_modewise(&a2, &b2)?, &theirs, "blocked_product");
    }
    // The corpus: a 128×128 blocked product and CUTLASS's tile_to_shape of a GMMA atom
    // (mma_traits_sm90_gmma.hpp: blocked_product(atom, (16,1) column-major)).
    for id in [
        "big_blocked_product_128x128",
        "gmma_tile_to_shape_K_SW128_128x64",
    ] {
        let case = load("cute_corpus.json")
            .into_iter()
            .find(|c| c["id"] == id)
            .expect("case");
        let a = Layout::from_cute(case["inputs"]["A"].as_str().expect("A"))?;
        let b = Layout::from_cute(case["inputs"]["B"].as_str().expect("B"))?;
        let ours = if case["op"] == "logical_product" {
            repeat(&a, &b)?
        } else {
            repeat_modewise(&a, &b)?
        };
        let want = ints(&case["expected"]["offsets"]).expect("offsets");
        for (i, &w) in want.iter().enumerate() {
            assert_eq!(ours.eval_index(i as i64)?, w, "{id} at {i}");
        }
    }
    // A gappy block 2:2 (offsets 0, 2): CuTe's second copy fills the hole at 1, `repeat`
    // puts it after the block (M = 3).
    let theirs = cute::logical_product(&cute("2:2"), &Tiler::Layout(cute("2:1")))?;
    assert_eq!(theirs.to_string(), "(2,2):(2,1)");
    assert_eq!(
        repeat(&"2:2".parse()?, &"2:1".parse()?)?.to_string(),
        "(2,2):(3,2)"
    );
    Ok(())
}

/// Row 9. `raked_product(A, B)` is `repeat_modewise_raked(A, B)`: the two coordinate groups
/// exchanged in each mode (the copies interleaved element by element), for dense `A` and `B`.
#[test]
fn row09_raked_product() -> R {
    let mut rng = Rng(0x0009);
    for _ in 0..150 {
        let a = dense2(&mut rng, &[2, 3, 5], &[2, 4, 6]);
        let b = dense2(&mut rng, &[1, 2, 3], &[2, 3, 4]);
        let theirs =
            Cute::new().raked_product(&CuteLayout::from_seed(&a), &CuteLayout::from_seed(&b))?;
        same_function(&repeat_modewise_raked(&a, &b)?, &theirs, "raked_product");
    }
    for id in ["dsl_raked_product", "big_tv_raked_16x16_by_4x2"] {
        let case = load("cute_corpus.json")
            .into_iter()
            .find(|c| c["id"] == id)
            .expect("case");
        let a = Layout::from_cute(case["inputs"]["A"].as_str().expect("A"))?;
        let b = Layout::from_cute(case["inputs"]["B"].as_str().expect("B"))?;
        let ours = repeat_modewise_raked(&a, &b)?;
        let want = ints(&case["expected"]["offsets"]).expect("offsets");
        for (i, &w) in want.iter().enumerate() {
            assert_eq!(ours.eval_index(i as i64)?, w, "{id} at {i}");
        }
    }
    Ok(())
}

/// Row 10. `logical_product(B, A)` with the copies first is `interleave(A, B)`:
/// `(l, a) ↦ size(B)·A(l) + B(a)`, for `B` a dense bijection (and `A` dense); also in `layout!`.
#[test]
fn row10_interleave() -> R {
    let mut rng = Rng(0x0010);
    for _ in 0..150 {
        let a = dense(&mut rng, &[2, 3, 4, 6, 10]);
        let b = dense(&mut rng, &[2, 3, 5, 8, 32]);
        let theirs = cute::logical_product(
            &CuteLayout::from_seed(&b),
            &Tiler::Layout(CuteLayout::from_seed(&a)),
        )?;
        same_function(&interleave(&a, &b)?, &theirs, "interleave");
    }
    // A vector of 4 values per lane over 32 lanes: CuTe's logical_product(32:1, 4:1).
    let tv = layout!(interleave([(4):(1), logical -> logical], (32):(1)));
    let theirs = cute::logical_product(&cute("32:1"), &Tiler::Layout(cute("4:1")))?;
    for i in 0..128usize {
        assert_eq!(tv.offset_index(i), theirs.eval_index(i as i64)?);
    }
    Ok(())
}

/// Row 11. A stride-0 mode is `broadcast(L, S)`: `size(S)` copies of `L` at the same
/// addresses, read-only (`View::set` does not compile through it). CuTe writes it
/// `make_layout(L, make_layout(S, 0))`; `Layout::from_cute` reads its `0` as `_`.
#[test]
fn row11_broadcast() -> R {
    let l = Layout::from_cute("(3,2):(1,3)")?;
    let b = broadcast(&l, &leaf(4))?;
    let theirs = cute("((3,2),4):((1,3),0)");
    assert_eq!(b.to_string(), "(4,(2,3)):(_,(3,1))");
    assert_eq!(Layout::from_cute("((3,2),4):((1,3),0)")?, b);
    same_function(&b, &theirs, "broadcast");
    assert!(b.is_broadcast());
    // The GMMA _SS operand: every thread of the warpgroup reads the whole tile.
    let ss = Layout::from_cute("(128,(64,16)):(0,(1,64))")?;
    let dense = Layout::from_cute("(64,16):(1,64)")?;
    // CuTe's thread mode is first (fastest): the broadcast group goes last in seed order.
    assert_eq!(permute(&broadcast(&dense, &leaf(128))?, &[1, 0])?, ss);
    same_function(&ss, &cute("(128,(64,16)):(0,(1,64))"), "GMMA _SS");
    layout! { const ROW = cute (3,2):(1,3), logical -> physical; }
    let typed = layout!(broadcast(ROW, (4)));
    for i in 0..24usize {
        assert_eq!(typed.offset_index(i), theirs.eval_index(i as i64)?);
    }
    Ok(())
}

/// Row 12. `composition(Swizzle<B,M,S>{}, L)` is `swizzle(L, b = B, src = M + S, dst = M)`
/// (seed Definition 4; for `S < 0`, `src = M`, `dst = M − S`): every `B ≤ 3`, `M ≤ 4`,
/// `|S| ≤ 4` with disjoint fields over two storage layouts, against the CuTe-semantics module,
/// and the corpus's swizzled layouts against pycute's offsets.
#[test]
fn row12_swizzle() -> R {
    let storages = ["(32,16):(16,1)", "((2,4),(8,4)):((4,1),(8,64))"];
    let mut n = 0;
    for bits in 1..=3i64 {
        for m in 0..=4i64 {
            for s in -4..=4i64 {
                if s.abs() < bits {
                    continue; // overlapping fields: CuTe's static_assert, our SwizzleOverlap
                }
                let ours = if s > 0 {
                    Swizzle::new(bits as u32, (m + s) as u32, m as u32)?
                } else {
                    Swizzle::new(bits as u32, m as u32, (m - s) as u32)?
                };
                assert_eq!(ours, Swizzle::from_cute(bits, m, s, SwizzleUnit::Elements)?);
                for st in storages {
                    let l = map(&Layout::from_cute(st)?, Space::Logical, Space::Physical)
                        .swizzle(ours)?;
                    let sw = format!("Swizzle<{bits},{m},{s}>");
                    let theirs = Cute::new().apply(CuteOp::Swizzle, &[&sw, st])?.offsets()?;
                    for (i, &w) in theirs.iter().enumerate() {
                        assert_eq!(l.eval_index(i as i64)?, w, "{sw} o {st} at {i}");
                    }
                    n += 1;
                }
            }
        }
    }
    assert!(n > 50);
    for case in corpus("swizzle")
        .iter()
        .filter(|c| c["inputs"].get("outer").is_none())
    {
        let sw = ints(&case["inputs"]["swizzle"]).expect("B,M,S");
        let l = Layout::from_cute(case["inputs"]["layout"].as_str().expect("layout"))?;
        let m = map(&l, Space::Logical, Space::Physical).swizzle(Swizzle::from_cute(
            sw[0],
            sw[1],
            sw[2],
            SwizzleUnit::Elements,
        )?)?;
        let want = ints(&case["expected"]["offsets"]).expect("offsets");
        for (i, &w) in want.iter().enumerate() {
            assert_eq!(m.eval_index(i as i64)?, w, "{} at {i}", case["id"]);
        }
    }
    layout! { const SW = cute (8,8):(8,1), logical -> physical, Swizzle<3,0,3> over elements; }
    let theirs = Cute::new()
        .apply(CuteOp::Swizzle, &["Swizzle<3,0,3>", "(8,8):(8,1)"])?
        .offsets()?;
    for (i, &w) in theirs.iter().enumerate() {
        assert_eq!(SW.offset_index(i), w);
    }
    Ok(())
}

/// Row 13. A `k`-stage pipeline buffer is `repeat(L, k:1)`: CuTe's
/// `tile_to_shape(L, (M, N, k))` of a dense `(M, N)` tile `L`, i.e.
/// `blocked_product(append<3>(L), (1,1,k))`, gives the same offset at every index; also in
/// `layout!`.
#[test]
fn row13_pipeline_buffer() -> R {
    for (tile, k) in [
        ("(8,64):(64,1)", 3),
        ("(16,12):(1,16)", 4),
        ("((4,2),10):((1,40),4)", 5),
    ] {
        let l = Layout::from_cute(tile)?;
        let padded = {
            let c = cute(tile);
            let mut modes = c.modes();
            modes.push(CuteLayout::leaf(1, 0)?);
            CuteLayout::make(&modes)?
        };
        let arrangement = cute(&format!("(1,1,{k}):(1,1,1)"));
        let theirs = Cute::new().blocked_product(&padded, &arrangement)?;
        same_function(
            &repeat(&l, &format!("{k}:1").parse()?)?,
            &theirs,
            "k-stage buffer",
        );
    }
    layout! { const STAGE = cute (8,64):(64,1), logical -> physical; }
    let stages = layout!(repeat(STAGE, (3):(1)));
    assert_eq!(stages.to_string(), "(3,(64,8)):(512,(1,64))");
    Ok(())
}

/// Row 14. A `TiledCopy` of `v`-element vectors over 32 lanes — CuTe 4.2 `copy_atom.hpp`:
/// `make_tiled_copy(atom, thr, val)` takes `layout_tv = right_inverse(raked_product(thr, val))`
/// and `partition_S(A)` of thread `t` is `A ∘ layout_tv` at `(t, ·)` — is
/// `compose(divide(A, (1, v)), interleave(v:1, 32:1))` for `thr = (M/v, N)` column-major and
/// `val = (v, 1)`: the same offset for every lane and value, on tiles of several shapes.
#[test]
fn row14_tiled_copy() -> R {
    for (a_text, v) in [
        ("(16,8):(1,16)", 4),
        ("(16,8):(8,1)", 4),
        ("(8,8):(1,9)", 2),
        ("(32,8):(1,40)", 8),
        ("(24,4):(1,24)", 3),
    ] {
        let ca = cute(a_text);
        let (m, n) = (ca.modes()[0].size(), ca.modes()[1].size());
        assert_eq!(m / v * n, 32, "32 lanes");
        let thr = cute(&format!("({},{n}):(1,{})", m / v, m / v));
        let val = cute(&format!("({v},1):(1,{v})"));
        let layout_mn = Cute::new().raked_product(&thr, &val)?;
        let layout_tv = Cute::new().right_inverse(&layout_mn)?;
        assert_eq!(layout_tv.size(), 32 * v);
        let a = Layout::from_cute(a_text)?;
        let ours = layout_core::compose(
            &map(&divide(&a, &[1, v])?, Space::Logical, Space::Physical),
            &map(
                &interleave(&seed_flat(&[v], &[1]), &seed_flat(&[32], &[1]))?,
                Space::ThreadValue,
                Space::Logical,
            ),
        )?;
        for t in 0..32 {
            for j in 0..v {
                let theirs = ca.eval_index(layout_tv.eval_index(t + 32 * j)?)?;
                assert_eq!(
                    ours.eval_index(j * 32 + t)?,
                    theirs,
                    "{a_text}, v = {v}: lane {t}, value {j}"
                );
            }
        }
    }
    Ok(())
}

/// Row 15. A `TiledMMA` of atom `F` over a CTA tile with warp grid `W` — CuTe 4.2
/// `mma_atom.hpp` `thrfrg_C`: `zipped_divide(C, atom tile)`, `F` composed into the tile mode,
/// the rest mode split over the warps; thread `lane + 32·w` — is
/// `compose(divide(C, S_F), interleave(F, W))`. The coordinates are `(value, lane, warp)` on
/// both sides; the flat orders differ (CuTe's thread index is lane-fastest, ours warp-fastest),
/// as for `divide`'s groups.
#[test]
fn row15_tiled_mma() -> R {
    use layout_typed::atoms::sm80_16x8x16_f32f16f16f32_tn as atom;
    let f_text = "((4,8),(2,2)):((32,1),(16,8))";
    let f = Layout::from_cute(f_text)?;
    assert_eq!(f.size() as usize, 128);
    for i in 0..128usize {
        assert_eq!(atom::C.offset_index(i), f.eval_index(i as i64)?);
    }
    for (c_text, wm, wn) in [
        ("(32,16):(16,1)", 2, 2),
        ("(64,8):(1,64)", 4, 1),
        ("(16,32):(1,20)", 1, 4),
    ] {
        let cc = cute(c_text);
        let zipped = Cute::new().zipped_divide(&cc, &"<16:1,8:1>".parse()?)?;
        let tv = Cute::new().composition(
            &zipped,
            &Tiler::Modes(vec![Tiler::Layout(cute(f_text)), Tiler::Underscore]),
        )?;
        let c = Layout::from_cute(c_text)?;
        let warps = wm * wn;
        let ours = layout_core::compose(
            &map(&divide(&c, &[8, 16])?, Space::Logical, Space::Physical),
            &map(
                &interleave(&f, &seed_flat(&[warps], &[1]))?,
                Space::ThreadValue,
                Space::Logical,
            ),
        )?;
        for w in 0..warps {
            let (m, n) = (w % wm, w / wm); // W column-major, CuTe's default
            for lane in 0..32 {
                for v in 0..4 {
                    let theirs = tv.eval(&tup(vec![flat(&[lane, v]), flat(&[m, n])]))?;
                    let index = (v * 32 + lane) * warps + w;
                    assert_eq!(
                        ours.eval_index(index)?,
                        theirs,
                        "{c_text}: warp {w}, lane {lane}, value {v}"
                    );
                }
            }
        }
    }
    Ok(())
}

/// Row 16. `right_inverse(L)` is `inverse(L)` for a dense bijection (the same function; CuTe's
/// order of modes reversed), and `retile` from a copy's thread-value layout to an MMA's is
/// `compose(inverse(F_mma), F_copy)` — CuTe's `composition(right_inverse(F_mma), F_copy)`.
#[test]
fn row16_inverse_retile() -> R {
    let mut rng = Rng(0x0016);
    for _ in 0..200 {
        let l = dense(&mut rng, &[6, 12, 24, 30, 36, 60, 128]);
        let theirs = cute::right_inverse(&CuteLayout::from_seed(&l))?;
        let ours = inverse(&l)?;
        same_function(&ours, &theirs, "right_inverse");
    }
    // The SM80 A fragment (16×16 tile, m + 16·k) and a copy of 8 k-contiguous values per
    // thread over the same tile.
    let f_mma = "((4,8),(2,2,2)):((32,1),(16,8,128))";
    let copy_mn = Cute::new().raked_product(&cute("(16,2):(1,16)"), &cute("(1,8):(1,1)"))?;
    let f_copy = Cute::new().right_inverse(&copy_mn)?;
    let theirs = cute::composition(&cute::right_inverse(&cute(f_mma))?, &f_copy)?;
    let ours = layout_core::compose(
        &map(
            &inverse(&Layout::from_cute(f_mma)?)?,
            Space::Logical,
            Space::ThreadValue,
        ),
        &map(
            &CuteLayout::to_seed(&f_copy)?,
            Space::ThreadValue,
            Space::Logical,
        ),
    )?;
    for i in 0..256 {
        assert_eq!(ours.eval_index(i)?, theirs.eval_index(i)?, "retile at {i}");
    }
    // The copy of the MMA's own layout retiles to the identity.
    let id = layout_core::compose(
        &map(
            &inverse(&Layout::from_cute(f_mma)?)?,
            Space::Logical,
            Space::ThreadValue,
        ),
        &map(
            &Layout::from_cute(f_mma)?,
            Space::ThreadValue,
            Space::Logical,
        ),
    )?;
    for i in 0..256 {
        assert_eq!(id.eval_index(i)?, i);
    }
    Ok(())
}

/// Row 17. `coalesce` is not needed (a kernel declares the shape it iterates), and
/// `group_modes`, `select`, `flatten` are regroupings: the same function on every index (group,
/// flatten), or CuTe's `select` with the indices complemented and reversed.
#[test]
fn row17_regroupings() -> R {
    let l = Layout::from_cute("(4,(3,2),5):(1,(4,12),24)")?;
    let c = cute("(4,(3,2),5):(1,(4,12),24)");
    same_function(&flatten(&l)?, &c, "flatten");
    same_function(&group(&l, 0, 2)?, &c, "group_modes");
    same_function(&l, &cute::coalesce(&c)?, "coalesce");
    // Our coalesce is CuTe's up to mode order: the same leaves, slowest first.
    for text in [
        "(4,(3,2),5):(1,(4,12),24)",
        "(2,(1,6)):(1,(6,2))",
        "(2,(3,4),2):(1,(16,4),48)",
    ] {
        let ours = layout_core::coalesce(&Layout::from_cute(text)?)?;
        assert_eq!(
            ours.to_cute().to_string(),
            cute::coalesce(&cute(text))?.to_string(),
            "{text}"
        );
    }
    // select<0,2> in CuTe order keeps the modes 4 and 5: ours select(L, [0, 2]) in seed order.
    let s = select(&l, &[0, 2])?;
    assert_eq!(s.to_cute().to_string(), "(4,5):(1,24)");
    Ok(())
}

/// CuTe 4.2's `upcast<N>` of a layout (`layout.hpp`), written out: per leaf, the stride-±1
/// mode's size divided by `N` (`ceil_div(n, ceil_div(N, |d|))`), other strides divided by `N`
/// (`signum(d)·ceil_div(|d|, N)`), stride 0 kept.
fn upcast(l: &CuteLayout, n: i64) -> Vec<(i64, i64)> {
    l.leaves()
        .into_iter()
        .map(|(s, d)| {
            if d == 0 {
                (s, d)
            } else {
                let q = (n + d.abs() - 1) / d.abs();
                ((s + q - 1) / q, d.signum() * ((d.abs() + n - 1) / n))
            }
        })
        .collect()
}

/// Row 18. `recast` / `upcast<v>` is `divide(A, (1, …, 1, v))`: its tile group is one vector of
/// `v` consecutive elements, and its rest group addresses the vectors, in elements, so CuTe's
/// upcast layout (in vectors) times `v` is the rest group at every index. The change of element
/// size itself is outside the algebra.
#[test]
fn row18_upcast() -> R {
    for (a_text, v) in [
        ("(32,8):(1,32)", 4),
        ("(12,(4,3)):(1,(24,96))", 2),
        ("(24,5):(1,48)", 8),
    ] {
        let ca = cute(a_text);
        let a = Layout::from_cute(a_text)?;
        let rank = a.rank();
        let mut tile = vec![1i64; rank];
        tile[rank - 1] = v; // CuTe's first mode, the stride-1 one, is the seed's last
        let d = divide(&a, &tile)?;
        let (vector, rest) = (group_of(&d, 0), group_of(&d, 1));
        for j in 0..v {
            assert_eq!(
                vector.eval_index(j)?,
                j,
                "one vector of consecutive elements"
            );
        }
        let up = upcast(&ca, v);
        let eval = |mut i: i64| {
            let mut acc = 0;
            for &(s, d) in &up {
                acc += (i % s) * d;
                i /= s;
            }
            acc
        };
        assert_eq!(rest.size(), up.iter().map(|l| l.0).product::<i64>());
        for i in 0..rest.size() {
            assert_eq!(
                rest.eval_index(i)?,
                v * eval(i),
                "upcast<{v}>({a_text}) at {i}"
            );
        }
    }
    Ok(())
}

/// Row 19. A TMA box `S` is `divide(A, S)`: box `b` is `restrict(divide(A, S), rest = b)`
/// (CuTe's `local_tile` of the box); multicast to `c` CTAs is `broadcast` of the box across
/// them — CuTe's cluster mode of stride 0.
#[test]
fn row19_tma_box() -> R {
    let g = "(256,96):(1,256)"; // a column-major global tensor
    let box_cute = "<64:1,32:1>";
    let zipped = Cute::new().zipped_divide(&cute(g), &box_cute.parse()?)?;
    let a = Layout::from_cute(g)?;
    let d = divide(&a, &[32, 64])?;
    let boxes = map(&d, Space::Logical, Space::Physical);
    for b in 0..12 {
        let tile = boxes.restrict_named(&[("rest", b)])?;
        for t in (0..2048).step_by(7) {
            assert_eq!(
                tile.eval_index(t)?,
                zipped.eval(&tup(vec![leaf(t), leaf(b)]))?
            );
        }
    }
    // Multicast to a cluster of 4 CTAs: every CTA reads the same box, (cta, t) -> box(t);
    // CuTe gives the cluster a stride-0 mode.
    let tile = group_of(&d, 0); // the box's shape and strides; a box's origin is a constant
    let multicast = broadcast(&tile, &leaf(4))?;
    let theirs = CuteLayout::make(&[CuteLayout::from_seed(&tile), CuteLayout::leaf(4, 0)?])?;
    same_function(&multicast, &theirs, "multicast");
    for cta in 0..4 {
        for t in 0..2048 {
            assert_eq!(multicast.eval_index(cta * 2048 + t)?, tile.eval_index(t)?);
        }
    }
    Ok(())
}

/// Row 20. `make_tensor(ptr, L)` reads `ptr[L(c)]`: a [`Tensor`] over `layout!(cute …)`, static
/// or with a run-time leading dimension, from a base offset, reads `data[base + L(i)]` at every
/// integral index, with `L(i)` CuTe's.
#[test]
fn row20_make_tensor() -> R {
    let data: Vec<u32> = (0..4096u32)
        .map(|x| x.wrapping_mul(2_654_435_761))
        .collect();
    let text = "((4,8),(2,2)):((32,1),(16,8))";
    let theirs = cute(text);
    let l = layout!(cute ((4,8),(2,2)):((32,1),(16,8)), logical -> physical);
    for base in [0usize, 7, 100] {
        let t = Tensor::with_base(&data[..], base, l);
        for i in 0..theirs.size() {
            let at = base + usize::try_from(theirs.eval_index(i)?)?;
            assert_eq!(*t.get(usize::try_from(i)?), data[at], "{text} at {i}");
        }
    }
    for ld in [64usize, 65, 96] {
        let text = format!("(64,16):(1,{ld})");
        let theirs = cute(&text);
        let l = layout!(cute (64,16):(1,{ld}), logical -> physical)?;
        let t = Tensor::with_base(&data[..], 3, l);
        for i in 0..theirs.size() {
            let at = 3 + usize::try_from(theirs.eval_index(i)?)?;
            assert_eq!(*t.get(usize::try_from(i)?), data[at], "{text} at {i}");
        }
    }
    Ok(())
}

/// 16-bit values in a buffer aligned for the widest vector.
#[repr(C, align(16))]
struct Halves([u16; 1024]);

/// Row 21. `recast<U>(tensor)` of a tensor of `T` is a tensor over CuTe's `upcast<k>` of its
/// layout, `k = sizeof(U) / sizeof(T)`, in elements of `U`: at every integral index `i` the
/// recast tensor's element is the bytes of the `k` elements of `T` from `k·upcast(i)` (the
/// `upcast` model above, written from CuTe's `upcast`). The rows' layouts of row 18, 16-bit
/// elements as 32-, 64- and 128-bit vectors.
#[test]
fn row21_recast() -> R {
    let mut h = Halves([0; 1024]);
    for (i, x) in h.0.iter_mut().enumerate() {
        *x = u16::try_from(i)?.wrapping_mul(40_503) ^ 0x3c00;
    }
    let bytes = |at: i64, k: i64| -> Vec<u8> {
        (at..at + k)
            .flat_map(|j| h.0[usize::try_from(j).expect("in range")].to_ne_bytes())
            .collect()
    };
    let check = |text: &str, k: i64, got: &dyn Fn(usize) -> Vec<u8>, size: usize| {
        let up = upcast(&cute(text), k);
        assert_eq!(
            size as i64,
            up.iter().map(|l| l.0).product::<i64>(),
            "{text}"
        );
        for i in 0..size {
            let mut rest = i as i64;
            let mut acc = 0;
            for &(s, d) in &up {
                acc += (rest % s) * d;
                rest /= s;
            }
            assert_eq!(got(i), bytes(k * acc, k), "recast of {text} by {k} at {i}");
        }
    };
    let a = Tensor::new(&h.0[..], layout!(cute (32,8):(1,32), logical -> physical));
    let v = a.recast::<u64>()?;
    check(
        "(32,8):(1,32)",
        4,
        &|i| v.get(i).to_ne_bytes().to_vec(),
        v.size(),
    );
    let b = Tensor::new(
        &h.0[..],
        layout!(cute (12,(4,3)):(1,(24,96)), logical -> physical),
    );
    let v = b.recast::<u32>()?;
    check(
        "(12,(4,3)):(1,(24,96))",
        2,
        &|i| v.get(i).to_ne_bytes().to_vec(),
        v.size(),
    );
    let c = Tensor::new(&h.0[..], layout!(cute (24,5):(1,48), logical -> physical));
    let v = c.recast::<u128>()?;
    check(
        "(24,5):(1,48)",
        8,
        &|i| v.get(i).to_ne_bytes().to_vec(),
        v.size(),
    );
    Ok(())
}

/// Row 22. Slicing with CuTe's `_` (CuTe 4.2 `layout.hpp` `slice`: the `_` modes kept in
/// order): `tensor(_, _, k)` is `restrict(A, (k, _, _))` in seed order (CuTe's last mode
/// first), `tensor(make_coord(_, 1), _, k)` is `restrict(A, (k, _, (1, _)))`, each compared
/// with CuTe's layout evaluated at the full coordinate, through `layout!` with `k` a run-time
/// value and at run time (`Map::slice`). The pipeline-stage slice of a partition,
/// `tXsA(_, _, _, p)`, fixes a second run-time value: CuTe's composition evaluated at
/// `(thread, value, stage)`.
#[test]
fn row22_slice() -> R {
    let text = "((2,2),6,5):((1,2),4,24)";
    let theirs = cute(text);
    let a = map(&Layout::from_cute(text)?, Space::Logical, Space::Physical);
    layout! { const A = cute ((2,2),6,5):((1,2),4,24), logical -> physical; }
    let (u, x) = (Tree::Leaf(None), |v: i64| Tree::Leaf(Some(v)));
    for k in 0..5usize {
        let ki = k as i64;
        let s = layout!(restrict(A, (k, _, _)));
        let run = a.slice(&Tree::Tuple(vec![x(ki), u.clone(), u.clone()]))?;
        let nested = layout!(restrict(A, (k, _, (1, _))));
        let run_nested = a.slice(&Tree::Tuple(vec![
            x(ki),
            u.clone(),
            Tree::Tuple(vec![x(1), u.clone()]),
        ]))?;
        for n in 0..6 {
            for m in 0..4 {
                let want = theirs.eval(&flat(&[m, n, ki]))?;
                let i = n * 4 + m;
                assert_eq!(s.offset_index(i as usize), want, "k = {k}, ({m}, {n})");
                assert_eq!(run.eval_index(i)?, want);
            }
            for m0 in 0..2 {
                let want = theirs.eval(&tup(vec![flat(&[m0, 1]), leaf(n), leaf(ki)]))?;
                let i = n * 2 + m0;
                assert_eq!(
                    nested.offset_index(i as usize),
                    want,
                    "k = {k}, ({m0}, {n})"
                );
                assert_eq!(run_nested.eval_index(i)?, want);
            }
        }
    }
    // tXsA(_, _, _, p): a 3-stage 32×16 buffer (CuTe ((32,16),3):((1,32),512)) and a
    // (thread, value, stage) layout (CuTe (128,4,3):(4,1,512)) into it.
    let (s_text, tv_text) = ("((32,16),3):((1,32),512)", "(128,4,3):(4,1,512)");
    let composed = Cute::new().composition(&cute(s_text), &Tiler::Layout(cute(tv_text)))?;
    layout! {
        const SA = cute ((32,16),3):((1,32),512), logical -> physical;
        const TV = cute (128,4,3):(4,1,512), thread-value -> logical;
    }
    for t in (0..128usize).step_by(9) {
        for p in 0..3usize {
            // Seed order: CuTe's (thread, value, stage) is entries (2, 1, 0).
            let frag = layout!(restrict(compose(SA, TV), 2 = t, 0 = p));
            for v in 0..4usize {
                let want = composed.eval(&flat(&[t as i64, v as i64, p as i64]))?;
                assert_eq!(frag.offset(v), want, "t = {t}, p = {p}, v = {v}");
            }
        }
    }
    Ok(())
}
