//! Offsets computed in 32 bits (`index = i32` / `u32`) against a brute-force evaluator of the
//! declared `shape:stride` text (in `i128`, written here), as `offset_index`, `offset` and
//! `try_offset` of flat indices and, for nested layouts, every coarser coordinate form, at the
//! edges of the range proof: offsets at the limits, partial sums of opposite signs, size-1 modes
//! with strides past 32 bits, broadcasts and sizes past `u32`, swizzle fields and masks at the
//! width of the type, composites (typed, emitted, nested, swizzled, padded), run-time
//! restrictions at the last thread, run-time leaves and views. Each case also states whether it
//! computes in 32 bits (`Layout::NARROW`): what cannot be proved computes in `isize`, with the
//! same offsets.

use layout_typed::prelude::*;

fn narrow<L: Layout>(_: L) -> bool {
    L::NARROW
}

/// Splits `text` at its top-level `sep`.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0usize, Vec::new());
    for (k, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&text[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// The leaves of a `shape:stride` text in seed order (`_` is a broadcast): sizes, strides.
fn leaves(text: &str) -> (Vec<u128>, Vec<i128>) {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let parts = split_top(&t, ':');
    assert_eq!(parts.len(), 2, "{text}");
    let nums = |x: &str| -> Vec<String> {
        x.split(['(', ')', ','])
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
    };
    let sizes: Vec<u128> = nums(parts[0])
        .iter()
        .map(|v| v.parse().expect("size"))
        .collect();
    let strides: Vec<i128> = nums(parts[1])
        .iter()
        .map(|v| {
            if v == "_" {
                0
            } else {
                v.parse().expect("stride")
            }
        })
        .collect();
    assert_eq!(sizes.len(), strides.len(), "{text}");
    (sizes, strides)
}

/// `Σ cⱼ·dⱼ` at flat index `i` (last leaf fastest), in `i128`.
fn brute(text: &str, i: u128) -> i128 {
    let (sizes, strides) = leaves(text);
    let (mut rest, mut acc) = (i, 0i128);
    for (n, d) in sizes.iter().zip(&strides).rev() {
        acc += (rest % n) as i128 * d;
        rest /= n;
    }
    assert_eq!(rest, 0, "flat index {i} outside {text}");
    acc
}

/// The number of coordinates of a `shape:stride` text.
fn size_of(text: &str) -> u128 {
    leaves(text).0.iter().product()
}

/// `x ^ (((x >> src) & (2^b − 1)) << dst)` in `i128`.
fn swizzle(x: i128, b: u32, src: u32, dst: u32) -> i128 {
    x ^ (((x >> src) & ((1i128 << b) - 1)) << dst)
}

/// An offset of any index type, exactly.
fn wide<I: TryInto<i128>>(v: I) -> i128 {
    v.try_into().unwrap_or_else(|_| panic!("index fits i128"))
}

/// Flat indices to try: all of a small domain, else both ends and each power of two ± 1.
fn samples(size: u128) -> Vec<u128> {
    if size <= 1 << 12 {
        return (0..size).collect();
    }
    let mut v: Vec<u128> = (0..256).chain(size - 256..size).collect();
    for k in 0..100 {
        for d in [-1i128, 0, 1] {
            let p = (1i128 << k) + d;
            if p >= 0 && (p as u128) < size {
                v.push(p as u128);
            }
        }
    }
    v
}

/// Every sampled flat index of `l`, as `offset_index`, `offset` and `try_offset`, against `want`.
fn against<L: Layout>(l: L, want: &dyn Fn(u128) -> i128)
where
    L::Index: TryInto<i128>,
{
    for i in samples(L::SIZE as u128) {
        let w = want(i);
        let at = format!("{} at flat index {i}", l.notation());
        assert_eq!(wide(l.offset_index(i as usize)), w, "offset_index: {at}");
        assert_eq!(wide(l.offset(i as usize)), w, "offset: {at}");
        assert_eq!(
            l.try_offset(i as usize).map(wide),
            Some(w),
            "try_offset: {at}"
        );
    }
}

/// `layout!` a `shape:stride` (options after it) with each index type given, and check every
/// one against `brute`; evaluates to the `NARROW` of each, in order.
macro_rules! attack {
    ($l:tt $o:tt ; $($idx:ident),+) => {
        [$(attack!(@one $l $o $idx)),+]
    };
    (@one [$($t:tt)*] [$($o:tt)*] $idx:ident) => {{
        let l = layout!($($t)*, logical -> physical $($o)*, index = $idx);
        against(l, &|i| attack!(@want [$($t)*] [$($o)*] i));
        narrow(l)
    }};
    (@want [$($t:tt)*] [] $i:ident) => {
        brute(stringify!($($t)*), $i)
    };
    (@want [$($t:tt)*] [, swizzle(b = $b:literal, src = $s:literal, dst = $d:literal)] $i:ident) => {
        swizzle(brute(stringify!($($t)*), $i), $b, $s, $d)
    };
}

#[test]
fn the_evaluator_is_right() {
    assert_eq!(
        leaves("(2,(3,4)):(12,(_,-1))"),
        (vec![2, 3, 4], vec![12, 0, -1])
    );
    assert_eq!(brute("(2,3):(3,1)", 5), 5);
    assert_eq!(brute("(2,(3,4)):(12,(_,-1))", 23), 12 - 3);
    assert_eq!(swizzle(32, 1, 5, 2), 36);
}

#[test]
fn partial_sums_of_opposite_signs() {
    // +big then −big (and the reverse): every offset fits i32, the terms reach both limits.
    assert_eq!(
        attack!([(2,2):(2147483647,-2147483646)] []; i32, i64),
        [true, false]
    );
    assert_eq!(
        attack!([(2,2):(-2147483648,2147483647)] []; i32, i64),
        [true, false]
    );
    assert_eq!(
        attack!([(2,2,2):(2147483647,-1073741824,-536870912)] []; i32, i64),
        [true, false]
    );
    // Broadcasts among them.
    assert_eq!(
        attack!([(2,3,2):(-2147483648,_,2147483647)] []; i32, i64),
        [true, false]
    );
    // u32: the top of the range from three terms.
    assert_eq!(
        attack!([(2,2,1073741824):(2147483648,1073741824,1)] []; u32, usize),
        [true, false]
    );
}

#[test]
fn size_one_modes_with_strides_past_32_bits() {
    // A size-1 mode contributes nothing whatever its stride.
    assert_eq!(
        attack!([(1,4):(99999999999,1)] []; i32, u32, i64),
        [true, true, false]
    );
    assert_eq!(
        attack!([(4,1,(1,3)):(3,-99999999999,(4294967296,-1))] []; i32, i64),
        [true, false]
    );
    assert_eq!(
        attack!([(1,4294967296,1,4):(5000000000,_,-7,1)] []; i32, u32, i64),
        [true, true, false]
    );
}

#[test]
fn sizes_at_and_past_u32() {
    // 2^32 offsets: the largest flat index is u32::MAX.
    assert_eq!(attack!([4294967296:1] []; u32, usize), [true, false]);
    assert_eq!(
        attack!([(65536,65536):(65536,1)] []; u32, usize),
        [true, false]
    );
    // 2^31 coordinates of stride −1: the last coordinate is i32::MAX.
    assert_eq!(attack!([2147483648:-1] []; i32, i64), [true, false]);
    // Past u32 with a broadcast: flat indices past u32, coordinates within i32.
    assert_eq!(attack!([(2147483648,4):(-1,_)] []; i32, i64), [true, false]);
    assert_eq!(attack!([(4,2147483648):(_,-1)] []; i32, i64), [true, false]);
    assert_eq!(
        attack!([(3,1431655765):(_,1)] []; i32, u32, i64),
        [true, true, false]
    );
}

#[test]
fn swizzles_at_the_width_of_the_type() {
    // Fields that are always 0 although they lie at or past bit 31: narrow where every shift
    // stays below the width and the field below the sign bit, else computed wide.
    assert_eq!(
        attack!([64:1] [, swizzle(b = 1, src = 31, dst = 0)]; i32, u32, i64),
        [true, true, false]
    );
    // The widest field: a mask of 31 bits.
    assert_eq!(
        attack!([64:1] [, swizzle(b = 31, src = 31, dst = 0)]; i32, u32, i64),
        [true, true, false]
    );
    assert_eq!(
        attack!([(2,64):(1073741824,1)] [, swizzle(b = 30, src = 30, dst = 0)]; i32, u32, i64),
        [true, true, false]
    );
    assert_eq!(
        attack!([(2,64):(1073741824,1)] [, swizzle(b = 30, src = 31, dst = 0)]; i32, u32, i64),
        [true, true, false]
    );
    assert_eq!(
        attack!([64:1] [, swizzle(b = 1, src = 32, dst = 0)]; i32, u32, i64),
        [false, false, false]
    );
    assert_eq!(
        attack!([64:1] [, swizzle(b = 2, src = 31, dst = 0)]; i32, u32, i64),
        [true, true, false]
    );
    assert_eq!(
        attack!([64:1] [, swizzle(b = 1, src = 0, dst = 31)]; u32, i64),
        [true, false]
    );
    assert_eq!(
        attack!([64:1] [, swizzle(b = 1, src = 8, dst = 31)]; i32, u32, i64),
        [false, true, false]
    );
    assert_eq!(
        attack!([64:1] [, swizzle(b = 1, src = 8, dst = 32)]; i32, u32, i64),
        [false, false, false]
    );
    assert_eq!(
        attack!([64:1] [, swizzle(b = 2, src = 8, dst = 31)]; i32, u32, i64),
        [false, false, false]
    );
    assert_eq!(
        attack!([(2,64):(1073741824,1)] [, swizzle(b = 3, src = 0, dst = 27)]; i32, u32, i64),
        [true, true, false]
    );
    assert_eq!(
        attack!([(2,64):(1073741824,1)] [, swizzle(b = 1, src = 30, dst = 0)]; i32, u32, i64),
        [true, true, false]
    );
    assert_eq!(
        attack!([(2,64):(1073741824,1)] [, swizzle(b = 2, src = 30, dst = 0)]; i32, u32, i64),
        [true, true, false]
    );
    assert_eq!(
        attack!([(2,64):(1073741824,1)] [, swizzle(b = 3, src = 0, dst = 28)]; i32, u32, i64),
        [true, true, false]
    );
    assert_eq!(
        attack!([(4,64):(1073741824,1)] [, swizzle(b = 2, src = 30, dst = 0)]; u32, i64),
        [true, false]
    );
    assert_eq!(
        attack!([(4,64):(1073741824,1)] [, swizzle(b = 2, src = 0, dst = 30)]; u32, i64),
        [true, false]
    );
}

#[test]
fn run_time_leaves_with_a_32_bit_index() {
    // Offsets that fit i32 at run time: exact; offsets that do not: an error, never a wrap.
    for (n, ld) in [
        (2usize, 1073741823i64),
        (2, 2147483646),
        (3, 1073741823),
        (2, -2147483647),
    ] {
        let text = format!("({n},2):({ld},1)");
        match layout!(({n}, 2):({ld}, 1), logical -> physical, index = i32) {
            Ok(l) => {
                for i in 0..l.size() {
                    let w = brute(&text, i as u128);
                    assert!(i32::try_from(w).is_ok(), "{text} accepted, offset {w}");
                    assert_eq!(i128::from(l.offset(i)), w, "{text} at {i}");
                    assert_eq!(i128::from(l.offset((i / 2, i % 2))), w, "{text} at {i}");
                }
            }
            Err(e) => {
                let fits = (0..size_of(&text)).all(|i| i32::try_from(brute(&text, i)).is_ok());
                assert!(!fits, "{text} refused although it fits: {e:?}");
            }
        }
    }
    for (n, ld) in [
        (2usize, 2147483647i64),
        (2, 4294967295),
        (2, 2147483648),
        (3, 2147483647),
    ] {
        let text = format!("({n},2):({ld},1)");
        match layout!(({n}, 2):({ld}, 1), logical -> physical, index = u32) {
            Ok(l) => {
                for i in 0..l.size() {
                    let w = brute(&text, i as u128);
                    assert!(u32::try_from(w).is_ok(), "{text} accepted, offset {w}");
                    assert_eq!(i128::from(l.offset(i)), w, "{text} at {i}");
                }
            }
            Err(e) => {
                let fits = (0..size_of(&text)).all(|i| u32::try_from(brute(&text, i)).is_ok());
                assert!(!fits, "{text} refused although it fits: {e:?}");
            }
        }
    }
}

layout! {
    /// Rows of 4 at the i32 limits, read through `SPLIT` (a composite that is not a layout).
    const ROWS = (3,4):(-1073741823,536870911), logical -> physical, index = i32;
    const ROWS_U = (3,4):(2147483646,1), logical -> physical, index = u32;
    const SPLIT = (thread: 2, value: 6):(6,1), thread-value -> logical, index = i32;
    const SPLIT_U = (thread: 2, value: 6):(6,1), thread-value -> logical, index = u32;
    const SPLIT_WIDE = (thread: 2, value: 6):(6,1), thread-value -> logical;
    /// A padded, swizzled tile read by 128 threads × 4 values.
    const PAD = (16,32):(33,1), logical -> physical, swizzle(b = 2, src = 5, dst = 0), index = i32;
    const PAD_U = (16,32):(33,1), logical -> physical, swizzle(b = 2, src = 5, dst = 0), index = u32;
    const TVP = (thread: 128, value: 4):(4,1), thread-value -> logical;
    const TVP32 = (thread: 128, value: 4):(4,1), thread-value -> logical, index = i32;
    /// 2^32 positions: a left operand whose flat indices pass i32 and a right operand onto them.
    const HALF = (2,2147483648):(_,-1), logical -> physical, index = i32;
    const ONTO = (thread: 2, value: 2147483648):(1,2), thread-value -> logical, index = u32;
}

/// `left ∘ right` at flat index `i`: `right` gives the flat index of `left`.
fn through(left: &str, right: &str, i: u128) -> i128 {
    let k = brute(right, i);
    brute(left, u128::try_from(k).expect("a flat index"))
}

#[test]
fn composites_as_written_at_the_limits() {
    let (rows, rows_u, split) = (
        "(3,4):(-1073741823,536870911)",
        "(3,4):(2147483646,1)",
        "(2,6):(6,1)",
    );
    let want = |i| through(rows, split, i);
    let want_u = |i| through(rows_u, split, i);
    let typed = compose(ROWS, SPLIT);
    let typed_mixed = compose(ROWS, SPLIT_U);
    let typed_wide = compose(ROWS, SPLIT_WIDE);
    assert!(narrow(typed));
    against(typed, &want);
    against(typed_mixed, &want);
    against(typed_wide, &want);
    assert!(narrow(typed_mixed) && narrow(layout!(compose(ROWS, SPLIT))));
    assert!(narrow(layout!(compose(ROWS_U, SPLIT))) && !narrow(typed_wide));
    against(layout!(compose(ROWS, SPLIT)), &want);
    against(layout!(compose(ROWS, SPLIT_WIDE)), &want);
    let typed_u = compose(ROWS_U, SPLIT_U);
    assert!(narrow(typed_u));
    against(typed_u, &want_u);
    against(compose(ROWS_U, SPLIT), &want_u);
    against(layout!(compose(ROWS_U, SPLIT)), &want_u);
    for t in 0..2usize {
        let s = layout!(restrict(compose(ROWS, SPLIT), thread = t));
        let s_u = layout!(restrict(compose(ROWS_U, SPLIT_WIDE), thread = t));
        assert!(narrow(s) && narrow(s_u));
        for v in 0..6usize {
            let i = (t * 6 + v) as u128;
            assert_eq!(i128::from(s.offset(v)), want(i), "thread {t}, value {v}");
            assert_eq!(i128::from(s.offset_index(v)), want(i));
            assert_eq!(i128::from(s_u.offset(v)), want_u(i));
            assert_eq!(i128::from(s_u.offset_index(v)), want_u(i));
        }
    }
}

#[test]
fn swizzled_padded_tiles_through_threads() {
    let want = |i| swizzle(through("(16,32):(33,1)", "(128,4):(4,1)", i), 2, 5, 0);
    against(
        layout!((16,32):(33,1), logical -> physical, swizzle(b = 2, src = 5, dst = 0), index = i32),
        &|i| swizzle(brute("(16,32):(33,1)", i), 2, 5, 0),
    );
    let typed = compose(PAD, TVP32);
    assert!(narrow(typed));
    against(typed, &want);
    against(compose(PAD, TVP), &want);
    against(compose(PAD_U, TVP32), &want);
    assert!(narrow(layout!(compose(PAD, TVP))) && narrow(layout!(compose(PAD_U, TVP))));
    assert!(narrow(compose(PAD_U, TVP32)) && !narrow(compose(PAD, TVP)));
    against(layout!(compose(PAD, TVP)), &want);
    against(layout!(compose(PAD_U, TVP)), &want);
    for t in [0usize, 1, 126, 127] {
        let s = layout!(restrict(compose(PAD, TVP), thread = t));
        let s_u = layout!(restrict(compose(PAD_U, TVP), thread = t));
        assert!(narrow(s) && narrow(s_u));
        for v in 0..4usize {
            let w = want((t * 4 + v) as u128);
            assert_eq!(i128::from(s.offset(v)), w, "thread {t}, value {v}");
            assert_eq!(i128::from(s.offset_index(v)), w);
            assert_eq!(i128::from(s_u.offset(v)), w);
        }
    }
}

#[test]
fn a_left_operand_past_i32_through_a_u32_right_operand() {
    let (half, onto) = ("(2,2147483648):(_,-1)", "(2,2147483648):(1,2)");
    let typed = compose(HALF, ONTO);
    assert!(narrow(typed));
    against(typed, &|i| through(half, onto, i));
    for (t, v) in [
        (0usize, 0usize),
        (1, 0),
        (0, 1073741824),
        (1, 2147483647),
        (0, 2147483647),
    ] {
        let w = through(half, onto, (t * 2147483648 + v) as u128);
        assert_eq!(i128::from(typed.offset((t, v))), w, "({t}, {v})");
    }
}

#[test]
fn coarse_coordinates_of_modes_past_u32() {
    // An entry of 2^34 positions indexed by one integer (unflattened within the entry), next to
    // entries indexed per leaf; offsets within i32.
    let text = "((4294967296,4),(2,3)):((_,-268435456),(1073741823,-1))";
    let l = layout!(((4294967296,4),(2,3)):((_,-268435456),(1073741823,-1)), logical -> physical, index = i32);
    let w = layout!(((4294967296,4),(2,3)):((_,-268435456),(1073741823,-1)), logical -> physical);
    assert!(narrow(l) && !narrow(w));
    against(l, &|i| brute(text, i));
    for a in [0usize, 1, 2147483647, 2147483648, 4294967294, 4294967295] {
        for b in 0..4usize {
            for c in 0..2usize {
                for d in 0..3usize {
                    let i = (((a * 4 + b) * 2 + c) * 3 + d) as u128;
                    let want = brute(text, i);
                    assert_eq!(i128::from(l.offset(((a, b), (c, d)))), want);
                    assert_eq!(i128::from(l.offset((a * 4 + b, (c, d)))), want);
                    assert_eq!(i128::from(l.offset(((a, b), c * 3 + d))), want);
                    assert_eq!(i128::from(l.offset((a * 4 + b, c * 3 + d))), want);
                    assert_eq!(i128::from(w.offset((a * 4 + b, c * 3 + d))), want);
                }
            }
        }
    }
}

#[test]
fn views_read_every_element_through_a_32_bit_swizzle() {
    // Every element of the buffer once (the swizzle is a bijection), through a 32-bit offset.
    let data: Vec<u8> = (0..=255u8).collect();
    let l =
        layout!((16,16):(1,16), logical -> physical, swizzle(b = 4, src = 0, dst = 4), index = u32);
    assert!(narrow(l));
    let v = View::new(&data[..], l);
    for r in 0..16usize {
        for c in 0..16usize {
            let want = swizzle(brute("(16,16):(1,16)", (r * 16 + c) as u128), 4, 0, 4);
            assert_eq!(i128::from(*v.get((r, c))), want);
        }
    }
}

layout! {
    /// Swizzled rows at the top of each type, read through `SPLIT`.
    const ROWS_SW = (3,4):(536870912,1), logical -> physical, swizzle(b = 2, src = 0, dst = 29), index = i32;
    const ROWS_SW_U = (3,4):(1073741824,1), logical -> physical, swizzle(b = 2, src = 0, dst = 30), index = u32;
}

#[test]
fn swizzled_composites_at_the_top_of_the_type() {
    let want = |i| swizzle(through("(3,4):(536870912,1)", "(2,6):(6,1)", i), 2, 0, 29);
    let want_u = |i| swizzle(through("(3,4):(1073741824,1)", "(2,6):(6,1)", i), 2, 0, 30);
    assert!(narrow(compose(ROWS_SW, SPLIT)) && narrow(compose(ROWS_SW_U, SPLIT_U)));
    against(compose(ROWS_SW, SPLIT), &want);
    against(compose(ROWS_SW, SPLIT_WIDE), &want);
    assert!(narrow(layout!(compose(ROWS_SW, SPLIT))));
    assert!(narrow(layout!(compose(ROWS_SW_U, SPLIT_WIDE))));
    against(layout!(compose(ROWS_SW, SPLIT)), &want);
    against(compose(ROWS_SW_U, SPLIT_U), &want_u);
    against(layout!(compose(ROWS_SW_U, SPLIT_WIDE)), &want_u);
    for t in 0..2usize {
        let s = layout!(restrict(compose(ROWS_SW, SPLIT), thread = t));
        let s_u = layout!(restrict(compose(ROWS_SW_U, SPLIT), thread = t));
        assert!(narrow(s) && narrow(s_u));
        for v in 0..6usize {
            let i = (t * 6 + v) as u128;
            assert_eq!(i128::from(s.offset(v)), want(i), "thread {t}, value {v}");
            assert_eq!(i128::from(s.offset_index(v)), want(i));
            assert_eq!(
                i128::from(s_u.offset(v)),
                want_u(i),
                "thread {t}, value {v}"
            );
            assert_eq!(i128::from(s_u.offset_index(v)), want_u(i));
        }
    }
}

#[test]
fn run_time_rows_at_the_limits() {
    // A slice is the row's base plus the row: both halves and their sum at the limits.
    let text = "(2,2):(2147483647,-2147483646)";
    for r in 0..2usize {
        let s = layout!(restrict([(2,2):(2147483647,-2147483646), logical -> physical, index = i32], 0 = r));
        assert!(narrow(s));
        for c in 0..2usize {
            let w = brute(text, (r * 2 + c) as u128);
            assert_eq!(i128::from(s.offset(c)), w, "row {r}, column {c}");
            assert_eq!(i128::from(s.offset_index(c)), w);
        }
    }
    // Swizzled after the slice: the field crosses the base.
    let (text, text_u) = ("(2,64):(1073741824,1)", "(4,64):(1073741824,1)");
    for r in 0..4usize {
        let a = layout!(swizzle(restrict([(4,64):(1073741824,1), logical -> physical, index = u32], 0 = r), b = 2, src = 30, dst = 0));
        let b = layout!(swizzle(restrict([(4,64):(1073741824,1), logical -> physical, index = u32], 0 = r), b = 2, src = 0, dst = 30));
        assert!(narrow(a) && narrow(b));
        for c in 0..64usize {
            let x = brute(text_u, (r * 64 + c) as u128);
            assert_eq!(
                i128::from(a.offset(c)),
                swizzle(x, 2, 30, 0),
                "row {r}, column {c}"
            );
            assert_eq!(
                i128::from(b.offset(c)),
                swizzle(x, 2, 0, 30),
                "row {r}, column {c}"
            );
            assert_eq!(i128::from(b.offset_index(c)), swizzle(x, 2, 0, 30));
        }
    }
    for r in 0..2usize {
        let a = layout!(swizzle(restrict([(2,64):(1073741824,1), logical -> physical, index = i32], 0 = r), b = 1, src = 30, dst = 0));
        let b = layout!(swizzle(restrict([(2,64):(1073741824,1), logical -> physical, index = i32], 0 = r), b = 1, src = 0, dst = 30));
        assert!(narrow(a) && narrow(b));
        for c in 0..64usize {
            let x = brute(text, (r * 64 + c) as u128);
            assert_eq!(
                i128::from(a.offset(c)),
                swizzle(x, 1, 30, 0),
                "row {r}, column {c}"
            );
            assert_eq!(
                i128::from(b.offset(c)),
                swizzle(x, 1, 0, 30),
                "row {r}, column {c}"
            );
        }
    }
}

layout! {
    const SMALL_ROWS = (3,4):(8,1), logical -> physical, index = i32;
    /// Logical positions of `ROWS` permuted: a left operand that is itself a composite.
    const PERM = (4,3):(1,4), logical -> logical;
}

#[test]
fn what_cannot_be_proved_in_an_emitted_program_computes_wide() {
    // Swizzle fields past the width (always 0 here): the program computes in `isize`.
    let rows_split = |i| through("(3,4):(8,1)", "(2,6):(6,1)", i);
    let a = layout!(swizzle(
        compose(SMALL_ROWS, SPLIT),
        b = 1,
        src = 8,
        dst = 31
    ));
    let b = layout!(swizzle(
        compose(SMALL_ROWS, SPLIT),
        b = 1,
        src = 40,
        dst = 0
    ));
    let c = layout!(swizzle(compose(ROWS_U, SPLIT), b = 1, src = 40, dst = 0));
    let d = layout!(swizzle(compose(ROWS_U, SPLIT), b = 2, src = 32, dst = 0));
    assert!(!narrow(a) && !narrow(b) && !narrow(c) && !narrow(d));
    against(a, &rows_split);
    against(b, &rows_split);
    let want_u = |i| through("(3,4):(2147483646,1)", "(2,6):(6,1)", i);
    against(c, &want_u);
    against(d, &want_u);
    // A mask of 31 bits.
    let f = layout!(swizzle(
        compose(SMALL_ROWS, SPLIT),
        b = 31,
        src = 31,
        dst = 0
    ));
    assert!(narrow(f));
    against(f, &rows_split);
    // The same fields within the width: narrow.
    let e = layout!(swizzle(
        compose(SMALL_ROWS, SPLIT),
        b = 1,
        src = 3,
        dst = 30
    ));
    assert!(narrow(e));
    against(e, &|i| swizzle(rows_split(i), 1, 3, 30));
}

#[test]
fn composites_of_composites_at_the_limits() {
    // `(ROWS ∘ PERM) ∘ SPLIT`: the inner composite is a layout, the outer is not.
    let perm = |k: u128| brute("(4,3):(1,4)", k) as u128;
    let want = |i| {
        brute(
            "(3,4):(-1073741823,536870911)",
            perm(brute("(2,6):(6,1)", i) as u128),
        )
    };
    let inner = compose(ROWS, PERM);
    let outer = compose(inner, SPLIT);
    assert!(narrow(inner) && narrow(outer));
    against(inner, &|k| brute("(3,4):(-1073741823,536870911)", perm(k)));
    against(outer, &want);
    against(compose(compose(ROWS, PERM), SPLIT_U), &want);
    let emitted = layout!(compose(compose(ROWS, PERM), SPLIT));
    assert!(narrow(emitted));
    against(emitted, &want);
}
