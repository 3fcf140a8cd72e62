//! The typed `compose` decides at compile time whether `a ∘ b` is a layout with one stride per
//! leaf of `b` (`Leaves::compose`). The decision is checked against brute force over random
//! operands (the composite evaluated at every coordinate in `i128`), including operands whose
//! mode boundaries do not form one divisibility chain (the enumerated fallback), zero and
//! negative strides, and strides near 2^62 whose partial sums leave `i64` (once a compile
//! error that appeared only under `cargo build`). Typed composites of 2^16 and 2^20
//! positions with large strides are built and evaluated here, so this file itself is the
//! `cargo build` test of the const evaluation.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_typed::prelude::*;
use layout_typed::{COMPOSE_ENUMERATION_LIMIT, Leaves, MAX_LEAVES};

/// `l` at flat index `i` (last leaf fastest), in `i128`.
fn eval(sizes: &[usize], strides: &[i128], mut i: usize) -> i128 {
    let mut acc = 0i128;
    for (n, d) in sizes.iter().zip(strides).rev() {
        acc += i128::try_from(i % n).unwrap() * d;
        i /= n;
    }
    acc
}

fn leaves(sizes: &[usize], strides: &[i64]) -> Leaves {
    let mut l = Leaves::one(1, 0);
    l.len = sizes.len();
    for (k, (n, d)) in sizes.iter().zip(strides).enumerate() {
        l.sizes[k] = *n;
        l.strides[k] = isize::try_from(*d).unwrap();
    }
    l
}

/// Whether `a ∘ b` is `Σ cⱼ·a(dⱼ)` at every coordinate, by enumeration.
fn brute_linear(a: (&[usize], &[i64]), b: (&[usize], &[i64])) -> bool {
    let wide = |s: &[i64]| s.iter().map(|&d| i128::from(d)).collect::<Vec<_>>();
    let (aw, bw) = (wide(a.1), wide(b.1));
    let n: usize = b.0.iter().product();
    let s: Vec<i128> =
        b.0.iter()
            .zip(&bw)
            .map(|(&m, &d)| {
                if m > 1 {
                    eval(a.0, &aw, usize::try_from(d).unwrap())
                } else {
                    0
                }
            })
            .collect();
    (0..n).all(|i| {
        let x = usize::try_from(eval(b.0, &bw, i)).unwrap();
        eval(a.0, &aw, x) == eval(b.0, &s, i)
    })
}

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % u64::try_from(n).unwrap()).unwrap()
    }
}

/// A random dense bijection with `sizes` (a random order of the running products).
fn bijection(rng: &mut Rng, sizes: &[usize]) -> Vec<i64> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    for k in (1..order.len()).rev() {
        order.swap(k, rng.below(k + 1));
    }
    let mut strides = vec![0i64; sizes.len()];
    let mut run = 1i64;
    for &k in &order {
        strides[k] = run;
        run *= i64::try_from(sizes[k]).unwrap();
    }
    strides
}

/// Random sizes whose product is `n`, as 1 to 5 leaves (some of size 1).
fn split(rng: &mut Rng, mut n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    while n > 1 && out.len() < 4 {
        let divisors: Vec<usize> = (1..=n).filter(|d| n.is_multiple_of(*d)).collect();
        let d = divisors[rng.below(divisors.len())];
        out.push(d);
        n /= d;
    }
    out.push(n);
    for k in (1..out.len()).rev() {
        out.swap(k, rng.below(k + 1));
    }
    out
}

#[test]
fn decisions_agree_with_brute_force() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let totals = [
        1usize, 2, 4, 6, 8, 12, 16, 24, 30, 36, 64, 96, 128, 360, 1024,
    ];
    let (mut linear, mut not_linear, mut symbolic_sized) = (0, 0, 0);
    for round in 0..4000 {
        let n = totals[rng.below(totals.len())];
        let bs = split(&mut rng, n);
        let bd = bijection(&mut rng, &bs);
        let a_sizes = split(&mut rng, n);
        // Strides of `a`: often a bijection (so composites are often layouts), else random,
        // with zero, negative and large values.
        let a_strides: Vec<i64> = if round % 3 == 0 {
            a_sizes
                .iter()
                .map(|_| [0i64, 1, -1, 2, 3, 5, 8, -7, 1 << 40, 1 << 61][rng.below(10)])
                .collect()
        } else {
            let scale = [1i64, 1, 2, -1, 1 << 50][rng.below(5)];
            bijection(&mut rng, &a_sizes)
                .iter()
                .map(|d| d * scale)
                .collect()
        };
        // Skip operands whose offsets leave i64 (`layout!` rejects them).
        let span: i128 = a_sizes
            .iter()
            .zip(&a_strides)
            .map(|(&s, &d)| i128::try_from(s - 1).unwrap() * i128::from(d).abs())
            .sum();
        if span > i128::from(i64::MAX) {
            continue;
        }
        let want = brute_linear((&a_sizes, &a_strides), (&bs, &bd));
        let got = Leaves::compose(Some(leaves(&a_sizes, &a_strides)), Some(leaves(&bs, &bd)));
        assert!(n <= COMPOSE_ENUMERATION_LIMIT);
        match got {
            Some(out) => {
                assert!(
                    want,
                    "a = {a_sizes:?}:{a_strides:?}, b = {bs:?}:{bd:?}: not a layout"
                );
                let aw: Vec<i128> = a_strides.iter().map(|&d| i128::from(d)).collect();
                for (j, (&m, &d)) in bs.iter().zip(&bd).enumerate() {
                    let expect = if m > 1 {
                        eval(&a_sizes, &aw, usize::try_from(d).unwrap())
                    } else {
                        0
                    };
                    assert_eq!(i128::from(out.strides[j] as i64), expect, "leaf {j}");
                }
                assert_eq!(out.len, bs.len());
                linear += 1;
            }
            None => {
                assert!(
                    !want,
                    "a = {a_sizes:?}:{a_strides:?}, b = {bs:?}:{bd:?}: a layout"
                );
                not_linear += 1;
            }
        }
        if n > 100 {
            symbolic_sized += 1;
        }
    }
    assert!(
        linear > 500 && not_linear > 500 && symbolic_sized > 500,
        "{linear} {not_linear} {symbolic_sized}"
    );
}

#[test]
fn no_overflow_on_any_input() {
    // Hand-made `Leaves` (public fields) with extreme values: `None` or a value, never a panic.
    let extremes = [0isize, 1, -1, isize::MAX, isize::MIN, 1 << 62, -(1 << 62)];
    let sizes = [0usize, 1, 2, 3, usize::MAX, 1 << 32];
    let mut rng = Rng(7);
    for _ in 0..5000 {
        let mut a = Leaves::one(1, 0);
        let mut b = Leaves::one(1, 0);
        a.len = 1 + rng.below(3);
        b.len = 1 + rng.below(3);
        for k in 0..MAX_LEAVES {
            a.sizes[k] = sizes[rng.below(sizes.len())];
            a.strides[k] = extremes[rng.below(extremes.len())];
            b.sizes[k] = sizes[rng.below(sizes.len())];
            b.strides[k] = extremes[rng.below(extremes.len())];
        }
        let _ = Leaves::compose(Some(a), Some(b));
        let _ = a.eval(rng.below(7));
        let _ = a.size();
        let _ = a.swizzled_max(3, 4, 3);
    }
}

layout! {
    /// Strides near 2^62: offsets c₀·2^61 + c₁, up to 3·2^61 + 1.
    const BIG = (4,2):(2305843009213693952,1), logical -> physical;
    /// b = (2,4):(1,2): its size-4 leaf steps 2 positions, 2^61 elements of `BIG`.
    const BIG_TV = (2,4):(1,2), thread-value -> logical;
    /// 2^16 positions, column-major.
    const T256 = (256,256):(1,256), logical -> physical;
    /// Thread-value over T256's index: 2^16 positions, transposed.
    const TV256 = (256,256):(1,256), thread-value -> logical;
    /// 2^20 positions with a large leading dimension.
    const T1M = (1024,1024):(1,4398046511104), logical -> physical;
    /// Thread-value over T1M's index.
    const TV1M = (32,32,1024):(32,1,1024), thread-value -> logical;
}

#[test]
fn large_strides_compose_at_build_time() {
    let c = compose(BIG, BIG_TV);
    assert_eq!(linear_of(c), Some(leaves(&[2, 4], &[1, 1 << 61])));
    for c0 in 0..2usize {
        for c1 in 0..4usize {
            let p = c0 + 2 * c1;
            let want = i64::try_from(p / 2).unwrap() * (1 << 61) + i64::try_from(p % 2).unwrap();
            assert_eq!(c.offset((c0, c1)), want);
        }
    }
}

fn linear_of<L: Layout>(_: L) -> Option<Leaves> {
    L::LINEAR
}

#[test]
fn large_composites_are_decided_symbolically() {
    // 2^16 positions: (t, v) -> p = t + 256 v -> (p / 256) + 256 (p % 256) = v + 256 t.
    let c = compose(T256, TV256);
    assert_eq!(linear_of(c), Some(leaves(&[256, 256], &[256, 1])));
    for (t, v) in [(0usize, 0usize), (1, 0), (0, 1), (255, 255), (17, 200)] {
        assert_eq!(c.offset((t, v)), i64::try_from(v + 256 * t).unwrap());
    }
    // 2^20 positions, strides 2^42: p = 32 a + b + 1024 r, offset (p / 1024) + 2^42 (p % 1024).
    let c = compose(T1M, TV1M);
    let ld = 1i64 << 42;
    assert_eq!(
        linear_of(c),
        Some(leaves(&[32, 32, 1024], &[32 * ld, ld, 1]))
    );
    for (a, b, r) in [(0usize, 0usize, 0usize), (31, 31, 1023), (5, 7, 900)] {
        let p = 32 * a + b + 1024 * r;
        let want = i64::try_from(p / 1024).unwrap() + ld * i64::try_from(p % 1024).unwrap();
        assert_eq!(c.offset((a, b, r)), want);
    }
}

layout! {
    /// 2^16 positions over 8 leaves, every other element, under `Swizzle<3,4,3>`.
    const SW8 = (4,4,4,4,4,4,4,4):(32768,8192,2048,512,128,32,8,2), logical -> physical, Swizzle<3,4,3> over elements;
}

#[test]
fn the_largest_swizzled_offset_is_exact() {
    // Swizzle<3,4,3> is σ(x) = x ^ (((x >> 7) & 7) << 4); the offsets are the even numbers
    // below 2^17.
    let max = (0..1i64 << 16)
        .map(|i| 2 * i)
        .map(|x| x ^ (((x >> 7) & 7) << 4))
        .max()
        .unwrap();
    fn max_offset<L: Layout>(_: L) -> i64 {
        L::MAX_OFFSET
    }
    assert_eq!(max_offset(SW8), max);
    assert_eq!(SW8.cosize(), usize::try_from(max + 1).unwrap());
}

/// `sizes:strides` as seed notation (a zero stride on a mode of size > 1 as the broadcast `_`).
fn text(sizes: &[usize], strides: &[i64]) -> String {
    let s: Vec<String> = sizes.iter().map(usize::to_string).collect();
    let d: Vec<String> = sizes
        .iter()
        .zip(strides)
        .map(|(&n, &d)| {
            if d == 0 && n > 1 {
                "_".to_string()
            } else {
                d.to_string()
            }
        })
        .collect();
    format!("({}):({})", s.join(","), d.join(","))
}

/// Whether the mode boundaries of `a` (adjacent modes merged where they continue each other)
/// and of the dense bijection `b` form one chain under divisibility: the case the typed
/// decision settles without enumerating.
fn one_divisibility_chain(a: (&[usize], &[i64]), b: (&[usize], &[i64])) -> bool {
    let n: usize = b.0.iter().product();
    let mut bounds = vec![1usize, n];
    let mut w = 1usize;
    let mut last: Option<(usize, i64)> = None; // (size, stride) of the merged mode below
    for (&m, &d) in a.0.iter().zip(a.1).rev() {
        if m > 1 {
            match last {
                Some((sz, st)) if i128::from(st) * i128::try_from(sz).unwrap() == i128::from(d) => {
                    last = Some((sz * m, st));
                }
                _ => {
                    bounds.push(w);
                    last = Some((m, d));
                }
            }
            w *= m;
        }
    }
    for (&m, &d) in b.0.iter().zip(b.1) {
        if m > 1 {
            bounds.push(usize::try_from(d).unwrap());
        }
    }
    bounds.sort_unstable();
    bounds.dedup();
    bounds.windows(2).all(|p| p[1] % p[0] == 0)
}

/// The typed layer's const decision and the core's `decide` are one procedure: over random
/// composites of a checked `a : logical -> physical` (or `logical -> logical`) and a dense
/// bijection `b`, of sizes up to and past `COMPOSE_ENUMERATION_LIMIT`, `Leaves::compose`
/// gives `Some(strides)` exactly when `decide` finds a layout whose coarsest form keeps one
/// piece per domain leaf, with the same strides, except past the enumeration limit when the
/// boundaries do not form one divisibility chain: there it gives `None` and the composite is
/// evaluated as written (still exactly).
#[test]
fn typed_decisions_equal_the_core_decision() {
    use layout_typed::core_algebra::{Annotated, Map, Space, compose as core_compose, decide};
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let totals = [
        1usize, 2, 6, 8, 12, 16, 24, 36, 64, 96, 128, 360, 1024, 2048, 3072, 4096, 6144,
    ];
    let (mut layouts, mut refined, mut not_layouts, mut undecided) = (0, 0, 0, 0);
    for round in 0..3000 {
        let n = totals[rng.below(totals.len())];
        let bs = split(&mut rng, n);
        let bd = bijection(&mut rng, &bs);
        let a_sizes = split(&mut rng, n);
        let (a_strides, codomain) = match round % 3 {
            // Padded or permuted storage: often a layout, sometimes refined.
            0 => {
                let pad = [0i64, 0, 1, 3][rng.below(4)];
                let mut d = bijection(&mut rng, &a_sizes);
                for x in &mut d {
                    if *x > 1 {
                        *x += pad;
                    }
                }
                (d, Space::Physical)
            }
            // A permutation of the positions: a dense bijection into logical space.
            1 => (bijection(&mut rng, &a_sizes), Space::Logical),
            // Scaled, negated, broadcast strides.
            _ => {
                let scale = [1i64, 2, -1, 1 << 40][rng.below(4)];
                let mut d: Vec<i64> = bijection(&mut rng, &a_sizes)
                    .iter()
                    .map(|d| d * scale)
                    .collect();
                if rng.below(3) == 0 {
                    let k = rng.below(d.len());
                    d[k] = 0;
                }
                (d, Space::Physical)
            }
        };
        let Ok(a) = Annotated::new(
            text(&a_sizes, &a_strides).parse().unwrap(),
            Space::Logical,
            codomain,
        ) else {
            continue; // aliasing storage: not a checked layout
        };
        let b = Annotated::new(
            text(&bs, &bd).parse().unwrap(),
            Space::ThreadValue,
            Space::Logical,
        )
        .expect("a dense bijection");
        let map = core_compose(&Map::from(a), &Map::from(b)).expect("equal sizes");
        let decision = decide(&map, false).expect("decides");
        // The core's verdict on the typed question: a layout with one piece per domain leaf.
        let core: Option<Vec<i64>> = match &decision.result {
            Ok(chains) if chains.iter().all(|c| c.shape.len() == 1) => {
                Some(chains.iter().map(|c| c.strides[0]).collect())
            }
            Ok(_) => {
                refined += 1;
                None
            }
            Err(_) => None,
        };
        let typed = Leaves::compose(Some(leaves(&a_sizes, &a_strides)), Some(leaves(&bs, &bd)));
        let typed: Option<Vec<i64>> =
            typed.map(|l| l.strides[..l.len].iter().map(|&d| d as i64).collect());
        let what = format!("a = {}, b = {}", text(&a_sizes, &a_strides), text(&bs, &bd));
        if n > COMPOSE_ENUMERATION_LIMIT
            && !one_divisibility_chain((&a_sizes, &a_strides), (&bs, &bd))
        {
            // Past the const enumeration: evaluated as written, whatever the verdict.
            assert_eq!(typed, None, "{what}");
            undecided += 1;
        } else {
            assert_eq!(typed, core, "{what}");
        }
        match core {
            Some(_) => layouts += 1,
            None => not_layouts += 1,
        }
    }
    assert!(
        layouts > 400 && not_layouts > 400 && refined > 50 && undecided > 10,
        "{layouts} layouts, {not_layouts} not ({refined} refined), {undecided} undecided"
    );
}

layout! {
    /// 3 rows of 2^23 contiguous elements: one run of 3·2^23 > `DECIDE_LIMIT` elements, whose
    /// mode boundary 2^23 is not a multiple of `TV_ODD`'s boundary 6144.
    const ROWS_2_23 = (3,8388608):(8388608,1), logical -> physical;
    /// A dense bijection of 3·2^23 positions with boundaries 3 and 6144.
    const TV_ODD = (4096,2048,3):(6144,3,1), thread-value -> logical;
}

/// The composite decided symbolically by the typed layer (the left operand's two modes merge
/// into one run) is decided by the core too, with the same strides: not "too large to decide".
/// Either side, checked against the composite evaluated by hand at sampled coordinates.
#[test]
fn a_composite_past_the_decide_limit_is_decided_alike() {
    use layout_typed::core_algebra::{DECIDE_LIMIT, decide};
    let c = compose(ROWS_2_23, TV_ODD);
    assert!(i64::try_from(c.size()).unwrap() > DECIDE_LIMIT);
    // ROWS_2_23 is the identity of 3·2^23 positions, so the composite is TV_ODD itself.
    let strides = [6144i64, 3, 1];
    assert_eq!(linear_of(c), Some(leaves(&[4096, 2048, 3], &strides)));
    let map = c.to_map().expect("a checked composite");
    let d = decide(&map, false).expect("decided without enumerating");
    let chains = d.result.expect("a layout");
    let got: Vec<(Vec<i64>, Vec<i64>)> = chains
        .iter()
        .map(|ch| (ch.shape.to_vec(), ch.strides.to_vec()))
        .collect();
    assert_eq!(
        got,
        [
            (vec![4096], vec![6144]),
            (vec![2048], vec![3]),
            (vec![3], vec![1])
        ]
    );
    for (i, j, k) in [(0usize, 0usize, 0usize), (4095, 2047, 2), (17, 1000, 1)] {
        let p = 6144 * i + 3 * j + k;
        let want = i64::try_from(p / 8388608 * 8388608 + p % 8388608).unwrap();
        assert_eq!(c.offset((i, j, k)), want);
        assert_eq!(i64::try_from(p).unwrap(), want);
    }
}
