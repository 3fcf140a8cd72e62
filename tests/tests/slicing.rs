//! Slicing with free parts (`_`), tuple values at run time and several run-time values, each
//! compared at every coordinate with a brute-force model written here: the layouts' leaves
//! (size, stride) in order, the full domain walked in flat order (last leaf fastest), the
//! coordinates whose fixed leaves carry their values kept in order (the `k`-th kept one is the
//! slice's flat index `k`). No call into the code under test computes an expected value.
//!
//! Classes: a free part at depth 1 and 2, free and fixed parts mixed in one entry, the
//! whole-domain form `(_, _, k)`, a slice of a slice and a restriction of one, by literal, by
//! run-time value (a whole entry, one part of it, every part of it), several run-time values
//! in one `restrict` and in nested ones, on a layout, a composite and a swizzled composite;
//! each through `layout!` and through the expression language evaluated at run time.

use layout_tests::brute::{at_run_time, eval, offsets, panic_message, slice};
use layout_typed::prelude::*;

/// Whether a value's offsets are computed in 32 bits.
fn narrow<T: Layout>(_: &T) -> bool {
    T::NARROW
}

layout! {
    const Q = ((2,3),(2,2),4):((1,2),(6,12),24), logical -> physical;
}
const QT: &str = "[Q = ((2,3),(2,2),4):((1,2),(6,12),24), logical -> physical]";
const QL: [(i64, i64); 5] = [(2, 1), (3, 2), (2, 6), (2, 12), (4, 24)];
const QS: [i64; 5] = [2, 3, 2, 2, 4];

fn q(fixed: [Option<i64>; 5]) -> Vec<i64> {
    slice(&QS, &fixed, &|i| eval(&QL, i))
}

#[test]
fn free_parts_at_any_depth_by_literal() {
    let (n, x) = (None, Some);
    let cases: Vec<(&str, Vec<i64>, Vec<i64>)> = vec![
        (
            "restrict(Q, 0 = (_, 1))",
            offsets(layout!(restrict(Q, 0 = (_, 1)))),
            q([n, x(1), n, n, n]),
        ),
        (
            "restrict(Q, 0 = (1, _), 2 = 3)",
            offsets(layout!(restrict(Q, 0 = (1, _), 2 = 3))),
            q([x(1), n, n, n, x(3)]),
        ),
        (
            "restrict(Q, (_, (1, _), 2))",
            offsets(layout!(restrict(Q, (_, (1, _), 2)))),
            q([n, n, x(1), n, x(2)]),
        ),
        (
            "restrict(Q, ((_, 2), _, _))",
            offsets(layout!(restrict(Q, ((_, 2), _, _)))),
            q([n, x(2), n, n, n]),
        ),
        (
            "restrict(Q, 1 = (_, 1), 0 = 4)",
            offsets(layout!(restrict(Q, 1 = (_, 1), 0 = 4))),
            q([x(1), x(1), n, x(1), n]),
        ),
        (
            "restrict(Q, 1 = (_, 1), 0 = (1, 1))",
            offsets(layout!(restrict(Q, 1 = (_, 1), 0 = (1, 1)))),
            q([x(1), x(1), n, x(1), n]),
        ),
        (
            "restrict(restrict(Q, 2 = 1), 1 = (0, _))",
            offsets(layout!(restrict(restrict(Q, 2 = 1), 1 = (0, _)))),
            q([n, n, x(0), n, x(1)]),
        ),
        (
            "restrict(restrict(Q, 0 = (_, 2)), 1 = (1, _))",
            offsets(layout!(restrict(restrict(Q, 0 = (_, 2)), 1 = (1, _)))),
            q([n, x(2), x(1), n, n]),
        ),
        (
            "restrict(restrict(Q, 0 = (_, 2)), (1, _, 3))",
            offsets(layout!(restrict(restrict(Q, 0 = (_, 2)), (1, _, 3)))),
            q([x(1), x(2), n, n, x(3)]),
        ),
        (
            "restrict(restrict(Q, 0 = (_, 2)), 0 = 1)",
            offsets(layout!(restrict(restrict(Q, 0 = (_, 2)), 0 = 1))),
            q([x(1), x(2), n, n, n]),
        ),
        (
            "restrict(Q, (_, _, _))",
            offsets(layout!(restrict(Q, (_, _, _)))),
            q([n, n, n, n, n]),
        ),
        (
            "restrict(Q, ((1, 2), (1, 0), 3))",
            offsets(layout!(restrict(Q, ((1, 2), (1, 0), 3)))),
            q([x(1), x(2), x(1), x(0), x(3)]),
        ),
    ];
    for (text, got, want) in cases {
        assert_eq!(got, want, "layout!({text})");
        assert_eq!(at_run_time(QT, text), want, "{text} at run time");
    }
}

#[test]
fn tuple_values_at_run_time() {
    let (n, x) = (None, Some);
    for a in 0..2usize {
        for b in 0..3usize {
            let (ai, bi) = (a as i64, b as i64);
            assert_eq!(
                offsets(layout!(restrict(Q, 0 = (a, b)))),
                q([x(ai), x(bi), n, n, n]),
                "(a, b) = ({a}, {b})"
            );
            assert_eq!(
                offsets(layout!(restrict(Q, 0 = (a, _)))),
                q([x(ai), n, n, n, n])
            );
            assert_eq!(
                offsets(layout!(restrict(Q, 0 = (_, b), 2 = 1))),
                q([n, x(bi), n, n, x(1)])
            );
            assert_eq!(
                offsets(layout!(restrict(Q, 1 = (a, _), 0 = (_, b)))),
                q([n, x(bi), x(ai), n, n])
            );
            assert_eq!(
                offsets(layout!(restrict(Q, (_, (a, 1), b + 1)))),
                q([n, n, x(ai), x(1), x(bi + 1)])
            );
            assert_eq!(
                offsets(layout!(restrict(restrict(Q, 2 = 3), 0 = (1, b)))),
                q([x(1), x(bi), n, n, x(3)])
            );
            assert_eq!(
                offsets(layout!(restrict(restrict(Q, 0 = (a, _)), 1 = (_, a)))),
                q([x(ai), n, n, x(ai), n])
            );
        }
    }
    // Each part is checked against its own sub-shape when the value is built.
    assert_eq!(
        panic_message(|| {
            let (a, b) = (1usize, 3usize);
            let _ = layout!(restrict(Q, 0 = (a, b)));
        }),
        "restrict: the run-time value 3 is outside its entry [0, 3)"
    );
    assert_eq!(
        panic_message(|| {
            let a = -1i32;
            let _ = layout!(restrict(Q, (_, (1, a), 0)));
        }),
        "restrict: the run-time value -1 is outside its entry [0, 2)"
    );
}

layout! {
    const STAGED = (3,(16,32)):(512,(1,16)), logical -> physical;
    const TV = (thread: 128, value: 4, stage: 3):(4,1,512), thread-value -> logical;
}
const ST: [(i64, i64); 3] = [(3, 512), (16, 1), (32, 16)];
const TVL: [(i64, i64); 3] = [(128, 4), (4, 1), (3, 512)];

/// `STAGED(TV(i))` with thread `t` and stage `p` fixed, the values in order; after `sw`.
fn partition(t: i64, p: i64, sw: &dyn Fn(i64) -> i64) -> Vec<i64> {
    slice(&[128, 4, 3], &[Some(t), None, Some(p)], &|i| {
        sw(eval(&ST, eval(&TVL, i)))
    })
}

#[test]
fn several_run_time_values_on_a_composite() {
    let id = |x: i64| x;
    // The swizzle b = 2, src = 4, dst = 0, written here.
    let sw = |x: i64| x ^ ((x >> 4) & 3);
    for t in (0..128usize).step_by(7).chain([127]) {
        for p in 0..3usize {
            let want = partition(t as i64, p as i64, &id);
            let nested = layout!(restrict(
                restrict(compose(STAGED, TV), thread = t),
                stage = p
            ));
            assert_eq!(offsets(nested), want, "nested, t = {t}, p = {p}");
            let one = layout!(restrict(compose(STAGED, TV), thread = t, stage = p));
            assert_eq!(offsets(one), want, "one call");
            let whole = layout!(restrict(compose(STAGED, TV), (t, _, p)));
            assert_eq!(offsets(whole), want, "whole domain");
            let mixed = layout!(restrict(
                restrict(compose(STAGED, TV), stage = p),
                thread = t
            ));
            assert_eq!(offsets(mixed), want, "stage first");
            let want = partition(t as i64, p as i64, &sw);
            let swizzled = layout!(swizzle(
                restrict(compose(STAGED, TV), thread = t, stage = p),
                b = 2,
                src = 4,
                dst = 0
            ));
            assert_eq!(offsets(swizzled), want, "swizzled, t = {t}, p = {p}");
            let inside = layout!(restrict(
                compose(swizzle(STAGED, b = 2, src = 4, dst = 0), TV),
                thread = t,
                stage = p
            ));
            assert_eq!(offsets(inside), want, "swizzled storage");
        }
    }
    assert_eq!(
        panic_message(|| {
            let (t, p) = (5usize, 3u8);
            let _ = layout!(restrict(compose(STAGED, TV), thread = t, stage = p));
        }),
        "restrict: the run-time value 3 is outside its entry [0, 3)"
    );
    // A static stage and a run-time thread, and the other way round.
    let stat = "[STAGED = (3,(16,32)):(512,(1,16)), logical -> physical] \
                [TV = (thread: 128, value: 4, stage: 3):(4,1,512), thread-value -> logical]";
    for t in [0usize, 9, 127] {
        let a = layout!(restrict(compose(STAGED, TV), thread = t, stage = 2));
        assert_eq!(offsets(a), partition(t as i64, 2, &id));
        let text = format!("restrict(compose(STAGED, TV), ({t}, _, 2))");
        assert_eq!(at_run_time(stat, &text), partition(t as i64, 2, &id));
    }
}

layout! {
    const DEEP = (40,(16,16)):(256,(1,16)), logical -> physical;
    const TV40 = (thread: 128, value: 2, stage: 40):(2,1,256), thread-value -> logical;
}

/// Past the number of combinations decided one by one (4096): 128 threads × 40 stages of a
/// swizzled composite run the composite as written, with both values substituted.
#[test]
fn several_run_time_values_past_the_slice_limit() {
    let sw = |x: i64| x ^ ((x >> 5) & 7);
    let st = [(40, 256), (16, 1), (16, 16)];
    let tv = [(128, 2), (2, 1), (40, 256)];
    for (t, p) in [(0usize, 0usize), (1, 39), (77, 13), (127, 39), (64, 20)] {
        let want = slice(
            &[128, 2, 40],
            &[Some(t as i64), None, Some(p as i64)],
            &|i| sw(eval(&st, eval(&tv, i))),
        );
        let frag = layout!(restrict(
            compose(swizzle(DEEP, b = 3, src = 5, dst = 0), TV40),
            thread = t,
            stage = p
        ));
        assert_eq!(offsets(frag), want, "t = {t}, p = {p}");
        // The value's map is the same slice, at run time.
        let m = frag.to_map().unwrap();
        let got: Vec<i64> = (0..m.size()).map(|i| m.eval_index(i).unwrap()).collect();
        assert_eq!(got, want);
        let frag = layout!(restrict(compose(DEEP, TV40), (t, _, p)));
        let want = slice(
            &[128, 2, 40],
            &[Some(t as i64), None, Some(p as i64)],
            &|i| eval(&st, eval(&tv, i)),
        );
        assert_eq!(offsets(frag), want);
        let m = frag.to_map().unwrap();
        let got: Vec<i64> = (0..m.size()).map(|i| m.eval_index(i).unwrap()).collect();
        assert_eq!(got, want);
    }
}

/// The map of a value with several run-time values and of a tuple of them is the slice.
#[test]
fn the_map_of_a_run_time_slice_is_the_slice() {
    let (n, x) = (None, Some);
    for (a, b) in [(0usize, 0usize), (1, 2), (0, 1)] {
        let v = layout!(restrict(Q, 0 = (a, _), 1 = (_, b % 2)));
        let m = v.to_map().unwrap();
        let got: Vec<i64> = (0..m.size()).map(|i| m.eval_index(i).unwrap()).collect();
        assert_eq!(got, q([x(a as i64), n, n, x((b % 2) as i64), n]));
        assert_eq!(offsets(v), got);
    }
}

layout! {
    const TVN = (thread: (4,32), value: 4, stage: 3):((128,4),1,512), thread-value -> logical;
    const TILED = (4,(2,8)):(16,(8,1)), logical(4,16) -> physical;
}

/// A part of a composite's tuple entry fixed at run time (the warp of a `(4,32)` thread entry)
/// next to a whole entry, and a slice of a layout with a logical tile (the tile follows the
/// free entries: the slice still composes with a right operand of that tile).
#[test]
fn parts_of_composite_entries_and_tiled_domains() {
    let st = [(3, 512), (16, 1), (32, 16)];
    let tv = [(4, 128), (32, 4), (4, 1), (3, 512)];
    for w in 0..4usize {
        for p in 0..3usize {
            let want = slice(
                &[4, 32, 4, 3],
                &[Some(w as i64), None, None, Some(p as i64)],
                &|i| eval(&st, eval(&tv, i)),
            );
            let got = layout!(restrict(compose(STAGED, TVN), thread = (w, _), stage = p));
            assert_eq!(offsets(got), want, "w = {w}, p = {p}");
            let got = layout!(restrict(compose(STAGED, TVN), ((w, _), _, p)));
            assert_eq!(offsets(got), want);
        }
    }
    let tl = [(4, 16), (2, 8), (8, 1)];
    for b in 0..8usize {
        let want = slice(&[4, 2, 8], &[None, None, Some(b as i64)], &|i| eval(&tl, i));
        let s = layout!(restrict(TILED, 1 = (_, b)));
        assert_eq!(offsets(s), want);
        let m = s.to_map().unwrap();
        assert_eq!(m.domain_tile_shape(), Some(vec![4, 2]));
    }
    let s = layout!(restrict(TILED, 1 = (_, 3)));
    assert_eq!(
        offsets(s),
        slice(&[4, 2, 8], &[None, None, Some(3)], &|i| eval(&tl, i))
    );
}

layout! {
    const STAGED32 = (3,(16,32)):(512,(1,16)), logical -> physical, index = i32;
}

/// The whole-domain form after a run-time value covers the entries still free, and a 32-bit
/// index type computes the slices of several run-time values in 32 bits where they fit.
#[test]
fn whole_domain_after_a_run_time_value_and_narrow_indices() {
    let id = |x: i64| x;
    for (t, p) in [(0usize, 0usize), (33, 1), (127, 2)] {
        let want = partition(t as i64, p as i64, &id);
        let a = layout!(restrict(restrict(compose(STAGED, TV), thread = t), (_, p)));
        assert_eq!(offsets(a), want, "t = {t}, p = {p}");
        let b = layout!(restrict(compose(STAGED32, TV), thread = t, stage = p));
        let got: Vec<i64> = (0..4).map(|v| i64::from(b.offset_index(v))).collect();
        assert_eq!(got, want);
        assert!(narrow(&b), "computed in i32");
    }
}
