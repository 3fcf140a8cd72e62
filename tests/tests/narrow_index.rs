//! Offsets computed in the declared 32-bit index type (`index = i32` / `u32`): where the range
//! check proves that every intermediate fits, `offset` computes in that type (`Layout::NARROW`),
//! elsewhere in `isize`. Either way every offset equals the brute-force sum `Σ cⱼ·dⱼ` (in
//! `i128`, written here) and the offset of the same layout declared with the 64-bit index
//! type, at every coordinate and in every coordinate form: flat index, `offset_index`, the
//! natural tuple and nested tuples. Layouts at the `i32` and `u32` limits, negative strides,
//! broadcasts past `u32`, swizzles at the width of the type, composites (typed, decided, as
//! written, emitted programs) and run-time restrictions.

use layout_typed::prelude::*;

fn narrow<L: Layout>(_: L) -> bool {
    L::NARROW
}

/// `Σ cⱼ·dⱼ` at flat index `i` (last leaf fastest), exactly.
fn brute(sizes: &[u64], strides: &[i64], i: u64) -> i64 {
    let (mut rest, mut acc) = (i, 0i128);
    for (n, d) in sizes.iter().zip(strides).rev() {
        acc += i128::from(rest % n) * i128::from(*d);
        rest /= n;
    }
    assert_eq!(rest, 0, "flat index {i} outside the domain");
    i64::try_from(acc).expect("offset fits i64")
}

/// `x ^ (((x >> src) & (2^b − 1)) << dst)`, in `i128`.
fn swizzle(x: i64, b: u32, src: u32, dst: u32) -> i64 {
    let x = i128::from(x);
    i64::try_from(x ^ (((x >> src) & ((1i128 << b) - 1)) << dst)).expect("fits")
}

/// Every flat index of `l` (as `offset_index` and as a `usize` coordinate) against `want`.
fn every_index<L: Layout>(l: L, want: &dyn Fn(u64) -> i64)
where
    L::Index: Into<i64>,
{
    for i in 0..L::SIZE {
        let w = want(i as u64);
        assert_eq!(
            l.offset_index(i).into(),
            w,
            "{} at flat index {i}",
            l.notation()
        );
        assert_eq!(l.offset(i).into(), w, "{} at coordinate {i}", l.notation());
    }
}

#[test]
fn offsets_at_the_i32_limits_compute_in_i32() {
    // Largest offset i32::MAX, smallest i32::MIN, and both in one layout.
    let top = layout!((2,2):(2147483646,1), logical -> physical, index = i32);
    let top_wide = layout!((2,2):(2147483646,1), logical -> physical);
    let bottom = layout!((2,2):(-2147483647,-1), logical -> physical, index = i32);
    let bottom_wide = layout!((2,2):(-2147483647,-1), logical -> physical);
    let both = layout!((2,3,2):(-1073741824,536870911,1), logical -> physical, index = i32);
    let both_wide = layout!((2,3,2):(-1073741824,536870911,1), logical -> physical);
    assert!(narrow(top) && narrow(bottom) && narrow(both));
    assert!(!narrow(top_wide) && !narrow(bottom_wide) && !narrow(both_wide));
    every_index(top, &|i| brute(&[2, 2], &[2147483646, 1], i));
    every_index(top_wide, &|i| brute(&[2, 2], &[2147483646, 1], i));
    every_index(bottom, &|i| brute(&[2, 2], &[-2147483647, -1], i));
    every_index(bottom_wide, &|i| brute(&[2, 2], &[-2147483647, -1], i));
    let (s, d) = ([2, 3, 2], [-1073741824, 536870911, 1]);
    every_index(both, &|i| brute(&s, &d, i));
    every_index(both_wide, &|i| brute(&s, &d, i));
    assert_eq!(top.offset((1usize, 1usize)), i32::MAX);
    assert_eq!(bottom.offset((1usize, 1usize)), i32::MIN);
    for (a, b, c) in (0..2).flat_map(|a| (0..3).flat_map(move |b| (0..2).map(move |c| (a, b, c)))) {
        let want = brute(&s, &d, (a * 6 + b * 2 + c) as u64);
        assert_eq!(i64::from(both.offset((a, b, c))), want);
        assert_eq!(both_wide.offset((a, b, c)), want);
    }
}

#[test]
fn offsets_at_the_u32_limit_compute_in_u32() {
    let top = layout!((2,2):(4294967294,1), logical -> physical, index = u32);
    let top_wide = layout!((2,2):(4294967294,1), logical -> physical, index = usize);
    assert!(narrow(top) && !narrow(top_wide));
    every_index(top, &|i| brute(&[2, 2], &[4294967294, 1], i));
    assert_eq!(top.offset((1usize, 1usize)), u32::MAX);
    for i in 0..4 {
        assert_eq!(
            top_wide.offset_index(i) as i64,
            brute(&[2, 2], &[4294967294, 1], i as u64)
        );
    }
}

#[test]
fn nested_coordinates_compute_in_the_index_type() {
    // Every coordinate form of a nested layout near the i32 limit: flat, per entry, per leaf.
    let (s, d) = ([3u64, 5, 4, 7], [-100000000i64, 400000000, 1, -4]);
    let l =
        layout!(((3,5),(4,7)):((-100000000,400000000),(1,-4)), logical -> physical, index = i32);
    let w = layout!(((3,5),(4,7)):((-100000000,400000000),(1,-4)), logical -> physical);
    assert!(narrow(l));
    every_index(l, &|i| brute(&s, &d, i));
    every_index(w, &|i| brute(&s, &d, i));
    for a in 0..3usize {
        for b in 0..5usize {
            for c in 0..4usize {
                for e in 0..7usize {
                    let want = brute(&s, &d, (((a * 5 + b) * 4 + c) * 7 + e) as u64);
                    assert_eq!(i64::from(l.offset(((a, b), (c, e)))), want);
                    assert_eq!(i64::from(l.offset((a * 5 + b, c * 7 + e))), want);
                    assert_eq!(i64::from(l.offset(((a, b), c * 7 + e))), want);
                    assert_eq!(w.offset(((a, b), (c, e))), want);
                }
            }
        }
    }
}

#[test]
fn what_cannot_be_proved_computes_wide() {
    // A coordinate of 2^31 does not fit i32, although every offset does: computed wide.
    let l = layout!(2147483649:-1, logical -> physical, index = i32);
    assert!(!narrow(l));
    for i in [0usize, 1, 2147483647, 2147483648] {
        assert_eq!(i64::from(l.offset(i)), -(i as i64));
        assert_eq!(i64::from(l.offset_index(i)), -(i as i64));
    }
    // A broadcast past u32: narrow (its coordinates are never converted), and its flat
    // indices, past u32, are unflattened in `usize`.
    let b = layout!((4294967296,4):(_,1), logical -> physical, index = i32);
    assert!(narrow(b));
    for i in [0usize, 5, 4294967295, 4294967296, 4 * 4294967296 - 1] {
        assert_eq!(i64::from(b.offset_index(i)), (i % 4) as i64);
        assert_eq!(i64::from(b.offset(i)), (i % 4) as i64);
        assert_eq!(i64::from(b.offset((i / 4, i % 4))), (i % 4) as i64);
    }
    // A swizzle whose source field lies past 32 bits (always 0 here): computed wide.
    let s = layout!(64:1, logical -> physical, swizzle(b = 1, src = 40, dst = 0), index = i32);
    assert!(!narrow(s));
    every_index(s, &|i| swizzle(i as i64, 1, 40, 0));
}

#[test]
fn swizzles_compute_in_the_index_type_up_to_its_width() {
    let sw = layout!(cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements, index = i32);
    let sw_u = layout!(cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements, index = u32);
    let sw_wide = layout!(cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements);
    assert!(narrow(sw) && narrow(sw_u) && !narrow(sw_wide));
    let want = |i: u64| swizzle(brute(&[64, 64], &[1, 64], i), 3, 6, 3);
    every_index(sw, &want);
    every_index(sw_u, &want);
    every_index(sw_wide, &want);
    // The field at the top of i32 (dst + b = 31) and of u32 (dst + b = 32).
    let top = layout!((8,8):(268435456,1), logical -> physical, swizzle(b = 3, src = 0, dst = 28), index = i32);
    let top_u = layout!((16,16):(268435456,1), logical -> physical, swizzle(b = 4, src = 0, dst = 28), index = u32);
    assert!(narrow(top) && narrow(top_u));
    every_index(top, &|i| {
        swizzle(brute(&[8, 8], &[268435456, 1], i), 3, 0, 28)
    });
    every_index(top_u, &|i| {
        swizzle(brute(&[16, 16], &[268435456, 1], i), 4, 0, 28)
    });
    assert_eq!(top_u.offset((15usize, 0usize)), 15 << 28);
    assert_eq!(top_u.offset((15usize, 15usize)), 15);
}

layout! {
    const SMEM = (16,32):(33,1), logical -> physical, index = i32;
    const SMEM_WIDE = (16,32):(33,1), logical -> physical;
    const TV = (128,4):(4,1), thread-value -> logical;
    const TV32 = (128,4):(4,1), thread-value -> logical, index = i32;
    const TVT = (32,16):(1,32), thread-value -> logical;
    /// Rows of 4 placed 8 apart: read through `SPLIT`, a composite that is not a layout.
    const ROWS = (3,4):(8,1), logical -> physical, index = i32;
    const ROWS_WIDE = (3,4):(8,1), logical -> physical;
    const SPLIT = (thread: 2, value: 6):(6,1), thread-value -> logical, index = i32;
    const SW = cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements, index = i32;
    const SW_WIDE = cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements;
    const TV64 = (value: (2,8), thread: (8,32)):((32,64),(512,1)), thread-value -> logical;
    const TV64_32 = (value: (2,8), thread: (8,32)):((32,64),(512,1)), thread-value -> logical, index = i32;
}

/// `ROWS ∘ SPLIT` at flat index `i`: `SPLIT` gives the flat index `k` of `ROWS`.
fn rows_split(i: u64) -> i64 {
    let k = brute(&[2, 6], &[6, 1], i) as u64;
    brute(&[3, 4], &[8, 1], k)
}

#[test]
fn composites_compute_in_the_index_type() {
    // A composite that is a layout (typed `compose` and `layout!(compose(..))`): one weighted
    // sum, narrow whatever the right operand's index type.
    let typed = compose(SMEM, TVT);
    let typed_wide = compose(SMEM_WIDE, TVT);
    let decided = layout!(compose(SMEM, TVT));
    assert!(narrow(typed) && narrow(decided) && !narrow(typed_wide));
    let want = |i: u64| brute(&[16, 32], &[33, 1], brute(&[32, 16], &[1, 32], i) as u64);
    every_index(typed, &want);
    every_index(typed_wide, &want);
    every_index(decided, &want);
    for t in 0..32usize {
        for v in 0..16usize {
            let w = want((t * 16 + v) as u64);
            assert_eq!(i64::from(typed.offset((t, v))), w);
            assert_eq!(i64::from(decided.offset((t, v))), w);
        }
    }
    // The padded tile read by 128 threads × 4 values: not a layout (rows of 32 split by
    // threads of 4), evaluated as written (typed) or emitted.
    let want = |i: u64| brute(&[16, 32], &[33, 1], brute(&[128, 4], &[4, 1], i) as u64);
    let (a, b, c) = (
        compose(SMEM, TV32),
        compose(SMEM, TV),
        layout!(compose(SMEM, TV)),
    );
    assert!(narrow(a) && !narrow(b) && narrow(c));
    every_index(a, &want);
    every_index(b, &want);
    every_index(c, &want);
    every_index(layout!(compose(SMEM_WIDE, TV)), &want);
    // A composite that is not a layout: typed (evaluated as written, narrow when both
    // operands are) and emitted by `layout!` (a program of divisions and remainders).
    let written = compose(ROWS, SPLIT);
    let written_mixed = compose(ROWS, layout!((2,6):(6,1), thread-value -> logical));
    let written_wide = compose(ROWS_WIDE, SPLIT);
    let emitted = layout!(compose(ROWS, SPLIT));
    let emitted_wide = layout!(compose(ROWS_WIDE, SPLIT));
    assert!(narrow(written) && narrow(emitted));
    assert!(!narrow(written_mixed) && !narrow(written_wide) && !narrow(emitted_wide));
    every_index(written, &rows_split);
    every_index(written_mixed, &rows_split);
    every_index(written_wide, &rows_split);
    every_index(emitted, &rows_split);
    every_index(emitted_wide, &rows_split);
    // Through a swizzle: typed as written, and emitted.
    let sw_want = |i: u64| {
        let k = brute(&[2, 8, 8, 32], &[32, 64, 512, 1], i) as u64;
        swizzle(brute(&[64, 64], &[1, 64], k), 3, 6, 3)
    };
    let sw_typed = compose(SW, TV64_32);
    assert!(narrow(sw_typed));
    every_index(sw_typed, &sw_want);
    every_index(compose(SW, TV64), &sw_want);
    let sw_emitted = layout!(compose(SW, TV64));
    let sw_emitted_wide = layout!(compose(SW_WIDE, TV64));
    assert!(narrow(sw_emitted) && !narrow(sw_emitted_wide));
    every_index(sw_emitted, &sw_want);
    every_index(sw_emitted_wide, &sw_want);
}

#[test]
fn restricted_slices_compute_in_the_index_type() {
    // Every slice of the swizzled composite is a constant plus a layout (the slices agree).
    let sw_want = |t: u64, v: u64| {
        let k = brute(&[2, 8, 8, 32], &[32, 64, 512, 1], v * 256 + t) as u64;
        swizzle(brute(&[64, 64], &[1, 64], k), 3, 6, 3)
    };
    for t in 0..256usize {
        let s = layout!(restrict(compose(SW, TV64), thread = t));
        let w = layout!(restrict(compose(SW_WIDE, TV64), thread = t));
        assert!(narrow(s) && !narrow(w));
        for v in 0..16usize {
            let want = sw_want(t as u64, v as u64);
            assert_eq!(i64::from(s.offset(v)), want, "thread {t}, value {v}");
            assert_eq!(i64::from(s.offset_index(v)), want);
            assert_eq!(w.offset(v), want);
        }
    }
    // Slices that do not agree (the split rows): the whole program per offset.
    for t in 0..2usize {
        let s = layout!(restrict(compose(ROWS, SPLIT), thread = t));
        let w = layout!(restrict(compose(ROWS_WIDE, SPLIT), thread = t));
        assert!(narrow(s) && !narrow(w));
        for v in 0..6usize {
            let want = rows_split((t * 6 + v) as u64);
            assert_eq!(i64::from(s.offset(v)), want, "thread {t}, value {v}");
            assert_eq!(w.offset(v), want);
        }
    }
}

#[test]
fn views_read_through_narrow_offsets() {
    let data: Vec<i64> = (0..4096).collect();
    let v = View::new(
        &data[..],
        layout!(cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements, index = i32),
    );
    for m in 0..64usize {
        for k in 0..64usize {
            let want = swizzle(brute(&[64, 64], &[1, 64], (k * 64 + m) as u64), 3, 6, 3);
            assert_eq!(*v.get((k, m)), want);
            assert_eq!(*v.get_unchecked((k, m)), want);
        }
    }
}
