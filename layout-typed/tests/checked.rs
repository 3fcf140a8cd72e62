//! Checked access and checked construction, in every build profile (`cargo test --release`
//! runs the same assertions: no check here is a debug assertion).
//!
//! * coordinates outside a layout's domain: `try_offset`, `contains` and every `View` access,
//!   over every kind of typed value (a declared layout, nested, swizzled, a composite decided
//!   to be a layout, a composite evaluated as written, a generated algebra result, a
//!   broadcast, run-time leaves) and every coordinate form (flat, per mode, nested, coarse);
//! * run-time leaves of every integer type at the boundaries of `i64`;
//! * `Dynamic::new` over extreme sizes and strides: never a panic, and `Ok` exactly when a
//!   brute-force evaluation (in `i128`) finds every offset in `i64` and no two coordinates at
//!   one offset.
//!
//! Every expected value is computed here from the layout's definition, not by the crate.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use layout_typed::core_algebra::Error;
use layout_typed::prelude::*;
use layout_typed::{Addressable, Coord, IndexType, Writable};

layout! {
    /// 16 rows of 32, row-major.
    const ROWS = (16,32):(32,1), logical -> physical;
    /// 16 rows of 32, column-major.
    const COLS = (16,32):(1,16), logical -> physical;
    /// A nested mode: ((2,4),8):((64,8),1).
    const NESTED = ((2,4),8):((64,8),1), logical -> physical;
    /// CuTe `Swizzle<3,3,3> o (64,64):(64,1)`.
    const SW64 = cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements;
    /// 128 threads × 4 values.
    const TV = (128,4):(4,1), thread-value -> logical;
    /// 32 threads × 16 values, each thread a row of `COLS`'s index.
    const TVT = (32,16):(1,32), thread-value -> logical;
    /// A storage layout whose composite with `TV3` is not a layout.
    const A3 = (3,2):(1,3), logical -> physical;
    /// 2 × 3, thread-value -> logical.
    const TV3 = (2,3):(3,1), thread-value -> logical;
    /// A broadcast: 4 rows share one row of 8.
    const BCAST = (4,8):(_,1), logical -> physical;
}

/// Checks `try_offset`, `contains`, `View::try_set`/`try_get`/`get`/`set` at every coordinate
/// against `want` (the offset, or `None` outside the domain).
fn check_writable<L, C>(l: L, cases: &[(C, Option<i64>)])
where
    L: Layout + Debug,
    L::Codomain: Addressable,
    L::Access: Writable,
    C: Coord<L::Form> + Debug,
{
    let inside = cases.iter().filter(|c| c.1.is_some()).count();
    let outside = cases.len() - inside;
    assert!(
        inside > 0 && outside > 0,
        "{l:?}: {inside} inside, {outside} outside"
    );
    let mut buf = vec![0u32; l.cosize()];
    for (k, (c, want)) in cases.iter().enumerate() {
        let got = l.try_offset(*c).map(|o| o.to_isize() as i64);
        assert_eq!(got, *want, "{l:?} at {c:?}");
        assert_eq!(l.contains(c), want.is_some(), "{l:?} contains {c:?}");
        let before = buf.clone();
        let mut view = View::new(&mut buf, l);
        let mark = u32::try_from(k + 1).unwrap();
        match want {
            Some(o) => {
                assert_eq!(view.try_set(*c, mark), Ok(()), "{l:?} at {c:?}");
                assert_eq!(view.try_get(*c), Some(&mark));
                assert_eq!(*view.get(*c), mark);
                view.set(*c, mark);
                assert_eq!(buf[usize::try_from(*o).unwrap()], mark);
            }
            None => {
                assert_eq!(view.try_set(*c, mark), Err(mark), "{l:?} at {c:?}");
                assert_eq!(view.try_get(*c), None, "{l:?} at {c:?}");
                let r = catch_unwind(AssertUnwindSafe(|| view.set(*c, mark)));
                assert!(r.is_err(), "{l:?}: set at {c:?} did not panic");
                let r = catch_unwind(AssertUnwindSafe(|| *view.get(*c)));
                assert!(r.is_err(), "{l:?}: get at {c:?} did not panic");
                assert_eq!(buf, before, "{l:?}: an access at {c:?} changed the buffer");
            }
        }
    }
}

/// `(r, c)` over `[0, rows + 3) × [0, cols + 8)` with `f(r, c)` inside `rows × cols`.
fn grid(
    rows: usize,
    cols: usize,
    f: impl Fn(usize, usize) -> i64,
) -> Vec<((usize, usize), Option<i64>)> {
    let mut out = Vec::new();
    for r in 0..rows + 3 {
        for c in 0..cols + 8 {
            out.push(((r, c), (r < rows && c < cols).then(|| f(r, c))));
        }
    }
    out
}

/// Flat indices over `[0, size + 40)` with `f(i)` below `size`.
fn flat(size: usize, f: impl Fn(usize) -> i64) -> Vec<(usize, Option<i64>)> {
    (0..size + 40)
        .map(|i| (i, (i < size).then(|| f(i))))
        .collect()
}

fn as_i64(v: usize) -> i64 {
    i64::try_from(v).unwrap()
}

#[test]
fn the_issue_example_store_at_column_40_panics_and_writes_nothing() {
    let mut buf = vec![0.0f32; 512];
    let mut v = View::new(&mut buf, ROWS);
    let r = catch_unwind(AssertUnwindSafe(|| v.set((1usize, 40usize), 1.0)));
    assert!(r.is_err());
    assert!(
        buf.iter().all(|&x| x == 0.0),
        "column 40 of row 1 reached row 2"
    );
    assert_eq!(ROWS.try_offset((1usize, 40usize)), None);
}

#[test]
fn declared_layouts_every_coordinate_form() {
    check_writable(ROWS, &grid(16, 32, |r, c| as_i64(32 * r + c)));
    check_writable(ROWS, &flat(512, as_i64));
    check_writable(COLS, &grid(16, 32, |r, c| as_i64(r + 16 * c)));
    check_writable(COLS, &flat(512, |i| as_i64(i / 32 + 16 * (i % 32))));
    // Nested: natural ((a, b), c), coarse (ab, c), flat.
    let mut natural = Vec::new();
    let mut coarse = Vec::new();
    for a in 0..4 {
        for b in 0..7 {
            for c in 0..11 {
                let inside = a < 2 && b < 4 && c < 8;
                natural.push((((a, b), c), inside.then(|| as_i64(64 * a + 8 * b + c))));
            }
        }
    }
    for ab in 0..12 {
        for c in 0..11 {
            let inside = ab < 8 && c < 8;
            coarse.push((
                (ab, c),
                inside.then(|| as_i64(64 * (ab / 4) + 8 * (ab % 4) + c)),
            ));
        }
    }
    check_writable(NESTED, &natural);
    check_writable(NESTED, &coarse);
    check_writable(
        NESTED,
        &flat(64, |i| as_i64(64 * (i / 32) + 8 * (i / 8 % 4) + i % 8)),
    );
}

fn swizzle333(x: usize) -> i64 {
    as_i64(x ^ (((x >> 6) & 7) << 3))
}

#[test]
fn swizzled_layouts() {
    // Seed order (k, m): k the slow mode of stride 64 in CuTe's (64,64):(64,1).
    check_writable(SW64, &grid(64, 64, |k, m| swizzle333(64 * m + k)));
    check_writable(SW64, &flat(4096, |i| swizzle333(64 * (i % 64) + i / 64)));
}

#[test]
fn composites_decided_and_as_written() {
    // COLS ∘ TV: a layout (decided); position p = 4t + v of the 16 × 32 tile.
    let addr = compose(COLS, TV);
    let cols = |p: usize| as_i64(p / 32 + 16 * (p % 32));
    check_writable(addr, &grid(128, 4, |t, v| cols(4 * t + v)));
    check_writable(addr, &flat(512, cols));
    // COLS ∘ TVT: a layout (decided), (t, v) -> v + 16 t.
    let addr = compose(COLS, TVT);
    check_writable(addr, &grid(32, 16, |t, v| as_i64(v + 16 * t)));
    // A3 ∘ TV3 is not a layout: evaluated as written.
    let a3 = |x: usize| as_i64(x / 2 + 3 * (x % 2));
    let odd = compose(A3, TV3);
    check_writable(odd, &grid(2, 3, |c0, c1| a3(3 * c0 + c1)));
    check_writable(odd, &flat(6, a3));
    // The same composite as `layout!` evaluates it: a generated type.
    let generated = layout!(compose(A3, TV3));
    check_writable(generated, &grid(2, 3, |c0, c1| a3(3 * c0 + c1)));
    check_writable(generated, &flat(6, a3));
}

#[test]
fn the_composite_of_a3_and_tv3_is_not_a_layout() {
    fn linear<L: Layout>(_: L) -> bool {
        L::LINEAR.is_some()
    }
    assert!(!linear(compose(A3, TV3)));
    assert!(linear(compose(COLS, TVT)));
    assert!(linear(compose(ROWS, TV)));
    // p = 4t + v splits t at 8 in COLS's index: not one stride per leaf.
    assert!(!linear(compose(COLS, TV)));
}

#[test]
fn broadcast_reads_are_checked() {
    let mut buf: Vec<u32> = (0..8).collect();
    let v = View::new(&mut buf, BCAST);
    for (c, want) in grid(4, 8, |_, c| as_i64(c)) {
        assert_eq!(BCAST.try_offset(c), want, "{c:?}");
        assert_eq!(v.try_get(c).map(|x| i64::from(*x)), want, "{c:?}");
        if want.is_none() {
            assert!(
                catch_unwind(AssertUnwindSafe(|| *v.get(c))).is_err(),
                "{c:?}"
            );
        }
    }
}

#[test]
fn static_leaves_beside_run_time_ones_keep_their_sign() {
    let n: u8 = 8;
    let g = layout!((4, {n}):(-8, 1), logical -> physical).unwrap();
    for r in 0..4usize {
        for c in 0..8usize {
            assert_eq!(g.offset((r, c)), -8 * as_i64(r) + as_i64(c));
        }
    }
}

#[test]
fn run_time_leaves_are_checked_coordinates() {
    for (m, ld) in [(3i64, 8i64), (5, 11), (1, 9)] {
        let g = layout!(({m}, 8):({ld}, 1), logical -> physical).unwrap();
        let rows = usize::try_from(m).unwrap();
        for (c, want) in grid(rows, 8, |r, c| as_i64(r) * ld + as_i64(c)) {
            assert_eq!(g.try_offset(c), want, "{m}x8 ld {ld} at {c:?}");
            assert_eq!(g.contains(&c), want.is_some());
        }
        for (i, want) in flat(rows * 8, |i| as_i64(i / 8) * ld + as_i64(i % 8)) {
            assert_eq!(g.try_offset(i), want, "{m}x8 ld {ld} at {i}");
        }
    }
}

/// A candidate leaf value by sign and magnitude, so that values outside `i128` are included.
#[derive(Clone, Copy, Debug)]
struct Value {
    negative: bool,
    magnitude: u128,
}

fn candidates() -> Vec<Value> {
    let m = |negative: bool, magnitude: u128| Value {
        negative,
        magnitude,
    };
    let i64max = u128::from(i64::MAX.unsigned_abs());
    let i64min = u128::from(i64::MIN.unsigned_abs());
    let mut out = vec![
        m(false, 0),
        m(false, 1),
        m(true, 1),
        m(false, 64),
        m(true, 64),
        m(false, i64max),
        m(false, i64max + 1),
        m(true, i64min),
        m(true, i64min + 1),
        m(false, u128::MAX),
        m(false, u128::MAX >> 1),
        m(true, (u128::MAX >> 1) + 1),
    ];
    for bits in [7u32, 8, 15, 16, 31, 32, 63, 64, 127] {
        out.push(m(false, (1u128 << bits) - 1));
        out.push(m(false, 1u128 << bits));
        out.push(m(true, 1u128 << bits));
        out.push(m(true, (1u128 << bits) + 1));
    }
    out
}

/// Whether the candidate fits `i64` (independently of the crate).
fn fits_i64(v: Value) -> Option<i64> {
    let i64max = u128::from(i64::MAX.unsigned_abs());
    if v.negative {
        (v.magnitude <= i64max + 1).then(|| {
            if v.magnitude == i64max + 1 {
                i64::MIN
            } else {
                -i64::try_from(v.magnitude).unwrap()
            }
        })
    } else {
        (v.magnitude <= i64max).then(|| i64::try_from(v.magnitude).unwrap())
    }
}

macro_rules! leaf_type {
    ($count:ident; $($t:ty),*) => {$(
        for v in candidates() {
            // The candidate as a `$t`, when it is one.
            let x: Option<$t> = if v.negative {
                i128::try_from(v.magnitude)
                    .ok()
                    .map(|m| -m)
                    .or((v.magnitude == 1u128 << 127).then_some(i128::MIN))
                    .and_then(|w| <$t>::try_from(w).ok())
            } else {
                <$t>::try_from(v.magnitude).ok()
            };
            let Some(x) = x else { continue };
            $count += 1;
            let stride = layout!((2, 4):({x}, 1), logical -> physical);
            let size = layout!(({x}, 4):(4, 1), logical -> physical);
            match fits_i64(v) {
                Some(w) => {
                    let want_stride = layout!((2, 4):({w}, 1), logical -> physical);
                    let want_size = layout!(({w}, 4):(4, 1), logical -> physical);
                    assert_eq!(format!("{stride:?}"), format!("{want_stride:?}"), "{} {v:?}", stringify!($t));
                    assert_eq!(format!("{size:?}"), format!("{want_size:?}"), "{} {v:?}", stringify!($t));
                    if w == 64 {
                        assert_eq!(stride.unwrap().offset((1usize, 3usize)), 67);
                        assert_eq!(size.unwrap().size(), 256);
                    }
                }
                None => {
                    let want = |stride| Error::LeafOutOfRange {
                        leaf: 0,
                        stride,
                        negative: v.negative,
                        magnitude: v.magnitude,
                    };
                    assert_eq!(stride.map(|_| ()), Err(want(true)), "{} {v:?}", stringify!($t));
                    assert_eq!(size.map(|_| ()), Err(want(false)), "{} {v:?}", stringify!($t));
                }
            }
        }
    )*};
}

#[test]
fn run_time_leaves_of_every_integer_type_at_the_boundaries() {
    let mut count = 0usize;
    leaf_type!(count; i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
    assert!(count > 150, "only {count} values");
}

#[test]
fn the_issue_example_u64_above_i64_max_is_an_error() {
    let ld: u64 = 1 << 63;
    let g = layout!((8, 64):({ld}, 1), logical -> physical);
    assert_eq!(
        g.map(|_| ()),
        Err(Error::LeafOutOfRange {
            leaf: 0,
            stride: true,
            negative: false,
            magnitude: 1 << 63
        })
    );
}

/// Offsets of a 3-mode layout in `i128`, or `None` past the enumeration used here.
fn brute_offsets(sizes: [i64; 3], strides: [i64; 3]) -> Option<Vec<i128>> {
    if sizes.iter().any(|&s| !(1..=6).contains(&s)) {
        return None;
    }
    let mut out = Vec::new();
    for a in 0..sizes[0] {
        for b in 0..sizes[1] {
            for c in 0..sizes[2] {
                out.push(
                    i128::from(a) * i128::from(strides[0])
                        + i128::from(b) * i128::from(strides[1])
                        + i128::from(c) * i128::from(strides[2]),
                );
            }
        }
    }
    Some(out)
}

#[test]
fn dynamic_new_never_panics_and_agrees_with_brute_force() {
    let extremes = [
        1i64,
        2,
        3,
        -1,
        -3,
        7,
        1 << 61,
        (1 << 62) - 1,
        1 << 62,
        (1 << 62) + 1,
        (1 << 61) * 3,
        i64::MAX / 3,
        i64::MAX / 2,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
        -(1 << 62),
        -(1 << 61) * 3,
    ];
    let sizes = [1i64, 2, 3, 4, 5, 1 << 31, i64::MAX, 0, -1, i64::MIN];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut pick = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % u64::try_from(n).unwrap()).unwrap()
    };
    let (mut ok, mut err, mut compared) = (0, 0, 0);
    for _ in 0..6000 {
        let s = [sizes[pick(sizes.len())], sizes[pick(5)], sizes[pick(5)]];
        let d = [
            extremes[pick(extremes.len())],
            extremes[pick(extremes.len())],
            extremes[pick(extremes.len())],
        ];
        let (s0, s1, s2, d0, d1, d2) = (s[0], s[1], s[2], d[0], d[1], d[2]);
        let got =
            catch_unwind(|| layout!(({s0}, {s1}, {s2}):({d0}, {d1}, {d2}), logical -> physical));
        let got = got.unwrap_or_else(|_| panic!("Dynamic::new panicked at {s:?}:{d:?}"));
        if got.is_ok() {
            ok += 1;
        } else {
            err += 1;
        }
        if let Some(offsets) = brute_offsets(s, d) {
            compared += 1;
            let fits = offsets.iter().all(|&o| i64::try_from(o).is_ok());
            let mut sorted = offsets.clone();
            sorted.sort_unstable();
            let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
            let zero = s.iter().zip(&d).any(|(&n, &x)| n > 1 && x == 0);
            assert_eq!(
                got.is_ok(),
                fits && distinct && !zero,
                "{s:?}:{d:?} gave {got:?}"
            );
            if let Ok(g) = got {
                for (i, o) in offsets.iter().enumerate() {
                    assert_eq!(i128::from(g.offset(i)), *o, "{s:?}:{d:?} at {i}");
                }
            }
        }
    }
    assert!(
        ok > 300 && err > 300 && compared > 2000,
        "{ok} ok, {err} err, {compared} compared"
    );
}
