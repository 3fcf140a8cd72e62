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
