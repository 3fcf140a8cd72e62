//! `Tensor` over every kind of checked layout, and `recast`, against a brute-force model written
//! here: the element at coordinate `c` is `data[base + Σ cⱼ·dⱼ]` (swizzles, composites and
//! restrictions evaluated by hand from their definitions), at every coordinate, read and
//! stored, by flat index and by natural coordinate; the constructor's range check at its exact
//! boundary; and each rule of `recast` with its exact error, its values compared with the bytes
//! they reinterpret.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use layout_typed::prelude::*;
use layout_typed::{Tensor, TensorError, TensorLayout, try_compose};

/// The leaf coordinates of flat index `i` (last leaf fastest).
fn digits(mut i: usize, sizes: &[usize]) -> Vec<usize> {
    let mut out = vec![0; sizes.len()];
    for j in (0..sizes.len()).rev() {
        out[j] = i % sizes[j];
        i /= sizes[j];
    }
    out
}

/// `Σ cⱼ·dⱼ` at flat index `i` of the flat layout `sizes:strides`.
fn affine(i: usize, sizes: &[usize], strides: &[i64]) -> i64 {
    digits(i, sizes)
        .iter()
        .zip(strides)
        .map(|(&c, &d)| c as i64 * d)
        .sum()
}

/// Distinct values, so a read from the wrong element is seen.
fn data(len: usize) -> Vec<u32> {
    (0..len).map(|i| i as u32 * 7 + 3).collect()
}

/// Reads at every flat index equal `data[base + model(i)]`, and the index one past the domain
/// is refused by `try_get` and `get`.
fn check_reads<L: TensorLayout>(
    t: &Tensor<&[u32], L>,
    buf: &[u32],
    base: usize,
    size: usize,
    model: &dyn Fn(usize) -> i64,
) where
    usize: layout_typed::Coord<L::Form>,
{
    assert_eq!(t.size(), size);
    for i in 0..size {
        let at = usize::try_from(base as i64 + model(i)).expect("in the data");
        assert_eq!(*t.get(i), buf[at], "flat index {i}");
        assert_eq!(t.try_get(i), Some(&buf[at]));
        assert_eq!(*t.get_unchecked(i), buf[at]);
    }
    assert_eq!(t.try_get(size), None);
    let r = catch_unwind(AssertUnwindSafe(|| *t.get(size)));
    assert!(r.is_err(), "get outside the domain must panic");
}

/// Stores at every flat index (value `1000 + i`) write exactly `data[base + model(i)]`; a
/// store one past the domain is refused and changes nothing.
fn check_stores<L>(
    mut t: Tensor<&mut [u32], L>,
    len: usize,
    base: usize,
    model: &dyn Fn(usize) -> i64,
) where
    L: TensorLayout,
    L::Access: layout_typed::Storable,
    usize: layout_typed::Coord<L::Form>,
{
    let size = t.size();
    let mut want = vec![0u32; len];
    for i in 0..size {
        t.set(i, 1000 + i as u32);
        want[usize::try_from(base as i64 + model(i)).expect("in the data")] = 1000 + i as u32;
    }
    assert_eq!(t.try_set(size, 7), Err(7));
    assert_eq!(t.into_inner(), &want[..]);
}

#[test]
fn static_layouts_at_every_coordinate() {
    // Nested, with a stride-1 leaf inside a tuple: (3,(2,4)):(40,(1,8)).
    let l = layout!((3,(2,4)):(40,(1,8)), logical -> physical);
    let (sizes, strides) = ([3, 2, 4], [40, 1, 8]);
    let model = |i| affine(i, &sizes, &strides);
    for base in [0usize, 5] {
        let len = base + 106; // max offset 80 + 1 + 24 = 105
        let buf = data(len);
        check_reads(
            &Tensor::with_base(&buf[..], base, l),
            &buf,
            base,
            24,
            &model,
        );
        // Natural coordinates: (r, (a, b)).
        let t = Tensor::with_base(&buf[..], base, l);
        for r in 0..3usize {
            for a in 0..2usize {
                for b in 0..4usize {
                    let at = base + r * 40 + a + 8 * b;
                    assert_eq!(*t.get((r, (a, b))), buf[at]);
                    assert_eq!(*t.get((r, a * 4 + b)), buf[at]); // a coarser coordinate
                }
            }
        }
        assert_eq!(t.try_get((3usize, 0usize)), None);
        assert_eq!(t.try_get((0usize, (2usize, 0usize))), None);
        check_stores(
            Tensor::with_base(&mut vec![0u32; len][..], base, l),
            len,
            base,
            &model,
        );
    }
    // Negative strides need a base: offsets from -8 to 3.
    let n = layout!((3,4):(-4,1), logical -> physical);
    let model = |i| affine(i, &[3, 4], &[-4, 1]);
    assert_eq!(
        Tensor::try_with_base(&data(12)[..], 7, n).unwrap_err(),
        TensorError::BelowStart { base: 7, min: -8 }
    );
    let buf = data(12);
    check_reads(&Tensor::with_base(&buf[..], 8, n), &buf, 8, 12, &model);
    check_stores(
        Tensor::with_base(&mut vec![0u32; 12][..], 8, n),
        12,
        8,
        &model,
    );
}

#[test]
fn the_range_check_is_exact() {
    let l = layout!((16,32):(32,1), logical -> physical);
    for base in [0usize, 1, 33] {
        let need = base + 512;
        assert!(Tensor::try_with_base(&data(need)[..], base, l).is_ok());
        assert_eq!(
            Tensor::try_with_base(&data(need - 1)[..], base, l).unwrap_err(),
            TensorError::PastEnd {
                len: need - 1,
                base,
                max: 511
            }
        );
    }
    let r = catch_unwind(|| Tensor::new(&[0u32; 511][..], l));
    assert!(r.is_err(), "new panics where try_new fails");
    let msg = TensorError::PastEnd {
        len: 511,
        base: 0,
        max: 511,
    }
    .to_string();
    assert_eq!(
        msg,
        "the layout reaches offset 511 from base 0, past the data's 511 elements"
    );
}

#[test]
fn swizzled_layouts_at_every_coordinate() {
    let l = layout!((8,8):(8,1), logical -> physical, swizzle(b = 2, src = 3, dst = 0));
    let model = |i: usize| {
        let x = affine(i, &[8, 8], &[8, 1]);
        x ^ ((x >> 3) & 3)
    };
    let buf = data(3 + 64);
    check_reads(&Tensor::with_base(&buf[..], 3, l), &buf, 3, 64, &model);
    check_stores(
        Tensor::with_base(&mut vec![0u32; 67][..], 3, l),
        67,
        3,
        &model,
    );
}

#[test]
fn composites_and_generated_maps_at_every_coordinate() {
    layout! {
        const SMEM = (16,32):(32,1), logical -> physical;
        const TV = (128,4):(4,1), thread-value -> logical;
        const SW = (8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 2, src = 3, dst = 0);
        const TV8 = (16,4):(4,1), thread-value -> logical(8, 8);
        const PAD = (16,32):(40,1), logical -> physical;
        const TVT = (32,16):(1,32), thread-value -> logical;
    }
    // A composite that is a layout (`Composed`, decided while compiling).
    let smem = |p: i64| affine(p as usize, &[16, 32], &[32, 1]);
    let m = |i| smem(affine(i, &[128, 4], &[4, 1]));
    let buf = data(512);
    check_reads(&Tensor::new(&buf[..], compose(SMEM, TV)), &buf, 0, 512, &m);
    check_stores(
        Tensor::new(&mut vec![0u32; 512][..], compose(SMEM, TV)),
        512,
        0,
        &m,
    );
    // A padded storage under a transposing partition.
    let pad = |i| affine(affine(i, &[32, 16], &[1, 32]) as usize, &[16, 32], &[40, 1]);
    let buf = data(632);
    check_reads(
        &Tensor::new(&buf[..], compose(PAD, TVT)),
        &buf,
        0,
        512,
        &pad,
    );
    // A swizzled composite: a `Generated` map.
    let g = layout!(compose(SW, TV8));
    let sw = |i: usize| {
        let x = affine(affine(i, &[16, 4], &[4, 1]) as usize, &[8, 8], &[8, 1]);
        x ^ ((x >> 3) & 3)
    };
    let buf = data(70);
    check_reads(&Tensor::with_base(&buf[..], 6, g), &buf, 6, 64, &sw);
    check_stores(Tensor::with_base(&mut vec![0u32; 70][..], 6, g), 70, 6, &sw);
}

#[test]
fn restrictions_at_every_coordinate() {
    layout! {
        const SMEM = (16,32):(32,1), logical -> physical;
        const TV = (thread: 128, value: 4):(4,1), thread-value -> logical;
    }
    // A restriction by a literal: (4,8,4):(32,1,8) with entry 0 = 2 is 64 + r + 8·v.
    let fixed = layout!(restrict([(4,8,4):(32,1,8), logical -> physical], 0 = 2));
    let model = |i| 64 + affine(i, &[8, 4], &[1, 8]);
    let buf = data(128);
    check_reads(&Tensor::new(&buf[..], fixed), &buf, 0, 32, &model);
    check_stores(Tensor::new(&mut vec![0u32; 128][..], fixed), 128, 0, &model);
    // By a run-time value: every thread of the composite (a type `layout!` generates).
    let buf = data(512);
    for t in [0usize, 1, 77, 127] {
        let slice = layout!(restrict(compose(SMEM, TV), thread = t));
        let model = |v: usize| affine(4 * t + v, &[16, 32], &[32, 1]);
        check_reads(&Tensor::new(&buf[..], slice), &buf, 0, 4, &model);
        check_stores(Tensor::new(&mut vec![0u32; 512][..], slice), 512, 0, &model);
    }
}

#[test]
fn run_time_layouts_at_every_coordinate() {
    for (m, n, ld) in [(1i64, 1i64, 1i64), (3, 5, 5), (4, 6, 9), (7, 3, 11)] {
        let g = layout!(({m}, {n}):({ld}, 1), logical -> physical).expect("a valid layout");
        let (mu, nu) = (m as usize, n as usize);
        let model = |i| affine(i, &[mu, nu], &[ld, 1]);
        let len = 2 + ((m - 1) * ld + n) as usize;
        let buf = data(len);
        let t = Tensor::with_base(&buf[..], 2, g);
        check_reads(&t, &buf, 2, mu * nu, &model);
        for r in 0..mu {
            for c in 0..nu {
                assert_eq!(*t.get((r, c)), buf[2 + r * ld as usize + c]);
            }
        }
        assert_eq!(t.try_get((mu, 0usize)), None);
        assert_eq!(t.try_get((0usize, nu)), None);
        assert!(!t.is_read_only());
        assert_eq!(
            Tensor::try_with_base(&buf[..len - 1], 2, g).unwrap_err(),
            TensorError::PastEnd {
                len: len - 1,
                base: 2,
                max: (m - 1) * ld + n - 1
            }
        );
        check_stores(
            Tensor::with_base(&mut vec![0u32; len][..], 2, g),
            len,
            2,
            &model,
        );
    }
    // A run-time composite.
    layout! { const TV = (8,4):(1,8), thread-value -> logical; }
    let ld = 6i64;
    let g = layout!((8, 4):({ld}, 1), logical -> physical).expect("a valid layout");
    let c = try_compose(g, TV).expect("sizes agree");
    let model = |i| affine(affine(i, &[8, 4], &[1, 8]) as usize, &[8, 4], &[ld, 1]);
    let buf = data(46);
    check_reads(&Tensor::new(&buf[..], c), &buf, 0, 32, &model);
    check_stores(Tensor::new(&mut vec![0u32; 46][..], c), 46, 0, &model);
}

#[test]
fn run_time_broadcasts_are_read_only_when_their_values_make_them_so() {
    for m in [1usize, 2, 5] {
        let g = layout!(({m}, 8):(_, 1), logical -> physical).expect("a valid layout");
        let buf = data(8);
        let t = Tensor::new(&buf[..], g);
        assert_eq!(t.is_read_only(), m > 1);
        check_reads(&t, &buf, 0, m * 8, &|i| (i % 8) as i64);
        let mut store = vec![0u32; 8];
        let mut t = Tensor::new(&mut store[..], g);
        if m > 1 {
            assert_eq!(t.try_set((1usize, 2usize), 9), Err(9));
            let r = catch_unwind(AssertUnwindSafe(|| t.set((0usize, 2usize), 9)));
            assert!(r.is_err(), "a store through a run-time broadcast panics");
            let r = catch_unwind(AssertUnwindSafe(|| t.set_unchecked(2usize, 9)));
            assert!(r.is_err(), "also unchecked");
            assert_eq!(store, [0; 8]);
        } else {
            t.set((0usize, 2usize), 9);
            assert_eq!(store[2], 9);
        }
    }
    // A static broadcast reads through a tensor (stores do not compile: ui-tests).
    let buf = data(8);
    let t = Tensor::new(&buf[..], layout!((4,8):(_,1), logical -> physical));
    assert!(t.is_read_only());
    check_reads(&t, &buf, 0, 32, &|i| (i % 8) as i64);
}

/// fp16 bits in a 16-byte aligned buffer.
#[repr(C, align(16))]
struct Aligned([u16; 1024]);

fn halves() -> Aligned {
    let mut a = Aligned([0; 1024]);
    for (i, x) in a.0.iter_mut().enumerate() {
        *x = (i as u16).wrapping_mul(0x9e37) ^ 0x3c00;
    }
    a
}

/// The `k` values of `T` from index `at`, as the bytes of one value of `U`.
fn bytes_of(v: &[u16], at: usize, k: usize) -> Vec<u8> {
    v[at..at + k].iter().flat_map(|x| x.to_ne_bytes()).collect()
}

#[test]
fn recast_to_vectors_reads_the_bytes_it_reinterprets() {
    let a = halves();
    // A static row-major 8×16 tile from base 16, as eight-wide vectors.
    let t = Tensor::with_base(&a.0[..], 16, layout!((8,16):(16,1), logical -> physical));
    let v = t.recast::<[u16; 8]>().expect("aligned and divisible");
    let w = t.recast::<u128>().expect("aligned and divisible");
    assert_eq!((v.size(), v.base()), (16, 2));
    for r in 0..8usize {
        for c in 0..2usize {
            let at = 16 + r * 16 + c * 8;
            assert_eq!(v.get((r, c)).as_slice(), &a.0[at..at + 8]);
            assert_eq!(w.get((r, c)).to_ne_bytes().to_vec(), bytes_of(&a.0, at, 8));
            assert_eq!(*w.get(r * 2 + c), *w.get((r, c)));
        }
    }
    assert_eq!(v.try_get((0usize, 2usize)), None);
    // A run-time leading dimension that keeps the alignment, nested modes, a stride-1 leaf
    // that is not the last.
    for (m, ld) in [(1usize, 16usize), (3, 24), (4, 40)] {
        let g = layout!(({m}, (16, 2)):({ld}, (1, 64)), logical -> physical).expect("valid");
        let t = Tensor::new(&a.0[..], g);
        let v = t.recast::<u64>().expect("multiples of 4");
        assert_eq!(v.size(), m * 8);
        for i in 0..m * 8 {
            let d = digits(i, &[m, 4, 2]);
            let at = d[0] * ld + d[1] * 4 + d[2] * 64;
            assert_eq!(
                v.get(i).to_ne_bytes().to_vec(),
                bytes_of(&a.0, at, 4),
                "{i}"
            );
        }
    }
    // Downcast: u64 words split into u16, and back.
    let words: Vec<u64> = (0..32u64)
        .map(|i| i.wrapping_mul(0x0123_4567_89ab_cdef))
        .collect();
    let t = Tensor::new(&words[..], layout!((4,8):(8,1), logical -> physical));
    let h = t.recast::<u16>().expect("a stride-1 leaf");
    assert_eq!(h.size(), 128);
    for r in 0..4usize {
        for c in 0..32usize {
            let word = words[r * 8 + c / 4].to_ne_bytes();
            let half = u16::from_ne_bytes([word[2 * (c % 4)], word[2 * (c % 4) + 1]]);
            assert_eq!(*h.get((r, c)), half);
        }
    }
    let back = h.recast::<u64>().expect("the round trip");
    for (i, w) in words.iter().enumerate() {
        assert_eq!(back.get(i), w);
    }
}

#[test]
fn recast_mut_stores_the_bytes() {
    let mut a = halves();
    let before = a.0;
    let mut t = Tensor::with_base(&mut a.0[..], 8, layout!((4,16):(32,1), logical -> physical));
    let mut v = t.recast_mut::<u128>().expect("aligned");
    for i in 0..8usize {
        v.set(i, u128::from_ne_bytes([i as u8; 16]));
    }
    let mut want = before;
    for i in 0..8usize {
        let at = 8 + (i / 2) * 32 + (i % 2) * 8;
        want[at..at + 8].copy_from_slice(&[u16::from_ne_bytes([i as u8; 2]); 8]);
    }
    assert_eq!(a.0, want);
}

#[test]
fn recast_refuses_each_rule_with_its_error() {
    let a = halves();
    let l = |m: usize, ld: usize| {
        layout!(({m}, 64):({ld}, 1), logical -> physical).expect("a valid layout")
    };
    // A leading dimension that breaks the vectors' alignment: 100 is not a multiple of 8.
    let t = Tensor::new(&a.0[..], l(2, 100));
    assert_eq!(
        t.recast::<[u16; 8]>().unwrap_err(),
        TensorError::StrideNotMultiple {
            leaf: 0,
            stride: 100,
            factor: 8
        }
    );
    assert_eq!(t.recast::<u32>().unwrap().size(), 64); // 100 is a multiple of 2
    // A base that is not a multiple of the vector.
    let t = Tensor::with_base(&a.0[..], 3, l(2, 64));
    assert_eq!(
        t.recast::<u128>().unwrap_err(),
        TensorError::BaseNotMultiple { base: 3, factor: 8 }
    );
    // Data that starts off the vector's alignment (the layout itself fits).
    let off = &a.0[1..];
    let t = Tensor::new(off, l(2, 64));
    let misalignment = off.as_ptr() as usize % 16;
    assert_eq!(misalignment, 2);
    assert_eq!(
        t.recast::<u128>().unwrap_err(),
        TensorError::Misaligned {
            align: 16,
            misalignment: 2
        }
    );
    assert_eq!(t.recast::<[u16; 8]>().unwrap().size(), 16); // align 2: fine
    // The stride-1 leaf's size must be a multiple of the vector.
    let t = Tensor::new(&a.0[..], layout!((4,12):(16,1), logical -> physical));
    assert_eq!(
        t.recast::<[u16; 8]>().unwrap_err(),
        TensorError::UnitModeSize {
            leaf: 1,
            size: 12,
            factor: 8
        }
    );
    // Sizes of which neither is a multiple of the other.
    assert_eq!(
        t.recast::<[u8; 3]>().unwrap_err(),
        TensorError::ElementSizes { from: 2, to: 3 }
    );
    assert_eq!(
        t.recast::<()>().unwrap_err(),
        TensorError::ElementSizes { from: 2, to: 0 }
    );
    // Maps that are not one stride per leaf.
    let sw = layout!((8,8):(8,1), logical -> physical, swizzle(b = 2, src = 3, dst = 0));
    assert_eq!(
        Tensor::new(&a.0[..], sw).recast::<u32>().unwrap_err(),
        TensorError::NotLinear
    );
    layout! { const TV = (8,8):(1,8), thread-value -> logical; }
    let c = try_compose(l(1, 64), TV).expect("sizes agree");
    assert_eq!(
        Tensor::new(&a.0[..], c).recast::<u32>().unwrap_err(),
        TensorError::NotLinear
    );
    // A smaller element needs a stride-1 leaf to split into.
    let words = [0u64; 8];
    let t = Tensor::new(&words[..], layout!(4:2, logical -> physical));
    assert_eq!(t.recast::<u32>().unwrap_err(), TensorError::NoUnitMode);
    // Without a stride-1 leaf a larger element covers more data: checked like any tensor.
    let t = Tensor::new(&a.0[..25], layout!(4:8, logical -> physical));
    assert_eq!(
        t.recast::<u32>().unwrap_err(),
        TensorError::PastEnd {
            len: 12,
            base: 0,
            max: 12
        }
    );
    assert_eq!(
        *Tensor::new(&a.0[..26], layout!(4:8, logical -> physical))
            .recast::<[u16; 2]>()
            .unwrap()
            .get(3usize),
        [a.0[24], a.0[25]]
    );
}

#[test]
fn index_types_and_composites_past_the_enumeration_limit() {
    // 32-bit index types (offsets computed in 32 bits), swizzled too.
    let buf = data(600);
    let i32l = layout!((16,32):(33,1), logical -> physical, index = i32);
    let u32l = layout!((16,32):(33,1), logical -> physical, index = u32);
    let model = |i| affine(i, &[16, 32], &[33, 1]);
    check_reads(&Tensor::with_base(&buf[..], 4, i32l), &buf, 4, 512, &model);
    check_reads(&Tensor::with_base(&buf[..], 4, u32l), &buf, 4, 512, &model);
    check_stores(
        Tensor::with_base(&mut vec![0u32; 600][..], 4, u32l),
        600,
        4,
        &model,
    );
    let sw =
        layout!((16,32):(32,1), logical -> physical, swizzle(b = 2, src = 5, dst = 1), index = i32);
    let swm = |i: usize| {
        let x = affine(i, &[16, 32], &[32, 1]);
        x ^ (((x >> 5) & 3) << 1)
    };
    check_reads(&Tensor::new(&buf[..], sw), &buf, 0, 512, &swm);
    check_stores(Tensor::new(&mut vec![0u32; 600][..], sw), 600, 0, &swm);

    layout! {
        const A3 = (3,2):(1,3), logical -> physical;
        const TV3 = (2,3):(3,1), thread-value -> logical;
        const WIDE = (48,64):(1,48), logical -> physical;
        const ACROSS = (32,96):(96,1), thread-value -> logical;
    }
    // Not a layout: evaluated as written (`Composed` without leaves), by `compose` and `layout!`.
    let a3 = |i: usize| {
        let p = affine(i, &[2, 3], &[3, 1]) as usize;
        (p / 2 + 3 * (p % 2)) as i64
    };
    let buf = data(6);
    check_reads(&Tensor::new(&buf[..], compose(A3, TV3)), &buf, 0, 6, &a3);
    check_reads(
        &Tensor::new(&buf[..], layout!(compose(A3, TV3))),
        &buf,
        0,
        6,
        &a3,
    );
    check_stores(
        Tensor::new(&mut vec![0u32; 6][..], compose(A3, TV3)),
        6,
        0,
        &a3,
    );
    assert_eq!(
        Tensor::new(&buf[..], compose(A3, TV3))
            .recast::<u64>()
            .unwrap_err(),
        TensorError::NotLinear
    );
    // 3072 positions, the right operand's fast mode (96) crossing the left's (64): past
    // `COMPOSE_ENUMERATION_LIMIT`, not a layout.
    const { assert!(3072 > layout_typed::COMPOSE_ENUMERATION_LIMIT) };
    let wide = |i: usize| {
        let p = affine(i, &[32, 96], &[96, 1]) as usize;
        (p / 64 + 48 * (p % 64)) as i64
    };
    let buf = data(3072);
    check_reads(
        &Tensor::new(&buf[..], compose(WIDE, ACROSS)),
        &buf,
        0,
        3072,
        &wide,
    );
    check_stores(
        Tensor::new(&mut vec![0u32; 3072][..], compose(WIDE, ACROSS)),
        3072,
        0,
        &wide,
    );
}

/// Every coordinate `c` of the original tensor (leaves `sizes:strides` from `base`, elements
/// of `u16`) is the `r`-th `u16` of the vector at `c'`, where `c'` is `c` with the unit leaf's
/// coordinate divided by `k` and `r` the remainder: the definition of a vector of `k`
/// consecutive elements, not the recast layout.
fn check_vectors<L2: TensorLayout>(
    v: &Tensor<&[u64], L2>,
    halves: &[u16],
    base: usize,
    (sizes, strides): (&[usize], &[i64]),
    unit: usize,
) where
    usize: layout_typed::Coord<L2::Form>,
{
    let k = 4;
    let mut vsizes = sizes.to_vec();
    vsizes[unit] /= k;
    assert_eq!(v.size(), sizes.iter().product::<usize>() / k);
    for i in 0..sizes.iter().product() {
        let c = digits(i, sizes);
        let at = base as i64
            + c.iter()
                .zip(strides)
                .map(|(&c, &d)| c as i64 * d)
                .sum::<i64>();
        let mut cv = c.clone();
        cv[unit] /= k;
        let r = c[unit] % k;
        let iv = cv.iter().zip(&vsizes).fold(0, |acc, (&c, &s)| acc * s + c);
        let word = v.get(iv).to_ne_bytes();
        assert_eq!(
            [word[2 * r], word[2 * r + 1]],
            halves[at as usize].to_ne_bytes(),
            "{i}"
        );
    }
}

#[test]
fn recast_over_every_kind_of_linear_layout() {
    let a = halves();
    // Negative strides from a base.
    let n = layout!((3,8):(-8,1), logical -> physical);
    let t = Tensor::with_base(&a.0[..], 16, n);
    check_vectors(
        &t.recast::<u64>().unwrap(),
        &a.0,
        16,
        (&[3, 8], &[-8, 1]),
        1,
    );
    // A composite decided to be a layout: (t, v) -> t + 32 v over (16,32):(32,1).
    layout! {
        const SMEM = (16,32):(32,1), logical -> physical;
        const TVT = (32,16):(1,32), thread-value -> logical;
    }
    let t = Tensor::new(&a.0[..], compose(SMEM, TVT));
    check_vectors(
        &t.recast::<u64>().unwrap(),
        &a.0,
        0,
        (&[32, 16], &[1, 32]),
        0,
    );
    // 32-bit index type.
    let t = Tensor::new(
        &a.0[..],
        layout!((4,(2,8)):(32,(8,1)), logical -> physical, index = u32),
    );
    check_vectors(
        &t.recast::<u64>().unwrap(),
        &a.0,
        0,
        (&[4, 2, 8], &[32, 8, 1]),
        2,
    );
    // A run-time broadcast stays read-only, a run-time `{m} = 1` one is not.
    for m in [1usize, 3] {
        let g = layout!(({m}, 8):(_, 1), logical -> physical).unwrap();
        let t = Tensor::new(&a.0[..], g);
        let v = t.recast::<u64>().unwrap();
        assert_eq!(v.is_read_only(), m > 1);
        check_vectors(&v, &a.0, 0, (&[m, 8], &[0, 1]), 1);
    }
    let t = Tensor::new(&a.0[..], layout!((3,8):(_,1), logical -> physical));
    assert!(t.recast::<u64>().unwrap().is_read_only());
}

#[test]
fn unchecked_access_outside_the_domain_stays_inside_the_data() {
    // Exactly the data the layout needs: a coordinate past the domain reaches past the data,
    // and the slice's bounds check panics (never a read or write outside it).
    let l = layout!((4,8):(8,1), logical -> physical);
    let buf = data(32);
    let t = Tensor::new(&buf[..], l);
    assert!(catch_unwind(AssertUnwindSafe(|| *t.get_unchecked(32usize))).is_err());
    assert!(catch_unwind(AssertUnwindSafe(|| *t.get_unchecked((4usize, 0usize)))).is_err());
    let mut store = vec![0u32; 32];
    let mut t = Tensor::new(&mut store[..], l);
    assert!(catch_unwind(AssertUnwindSafe(|| t.set_unchecked(32usize, 1))).is_err());
    assert_eq!(store, vec![0u32; 32]);
    // A negative offset (from a coordinate outside the domain) wraps past every slice.
    let n = layout!(4:-1, logical -> physical);
    let t = Tensor::with_base(&buf[..], 3, n);
    assert_eq!(*t.get(3usize), buf[0]);
    assert!(catch_unwind(AssertUnwindSafe(|| *t.get_unchecked(4usize))).is_err());
}
