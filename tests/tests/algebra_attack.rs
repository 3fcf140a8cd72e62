//! Slicing, regroupings and items defined by expressions, attacked from their documentation:
//! every offset is compared with a brute-force model written here (a map as its leaves, the
//! full domain walked in flat order with the last leaf fastest, a slice as the coordinates
//! whose fixed leaves carry their values, a regrouping as the same function on the selected
//! coordinates), in `layout!` and, where the text is the same, the expression language at run
//! time. A test marked `#[ignore = "finding: ..."]` reproduces a defect and fails until it is
//! fixed; the others are properties that hold.

use layout_core::expr::evaluate_text;
use layout_core::{Layout as CoreLayout, coalesce};
use layout_tests::brute::{at_run_time, eval, offsets, panic_message, slice};
use layout_tests::expr::digits;
use layout_typed::IndexType;
use layout_typed::prelude::*;

/// `x` with bits `src..src+b` XORed into bits `dst..dst+b`.
fn swz(b: u32, src: u32, dst: u32, x: i64) -> i64 {
    x ^ (((x >> src) & ((1 << b) - 1)) << dst)
}

layout! {
    /// Column-major 8×8 storage: `x = 8r + c` goes to `r + 8c`.
    const SMT = (8,8):(1,8), logical -> physical;
    /// Threads and values with nested entries, a bijection onto the 64 positions.
    const TVN = ((2,4),(2,4)):((32,1),(16,4)), thread-value -> logical;
    /// Nested storage of 48 elements.
    const Q = ((2,3),(2,2),4):((1,2),(6,12),24), logical -> physical;
}
const DEFS: &str = "[SMT = (8,8):(1,8), logical -> physical] \
                    [TVN = ((2,4),(2,4)):((32,1),(16,4)), thread-value -> logical]";
const TVN_SIZES: [i64; 4] = [2, 4, 2, 4];
const TVN_LEAVES: [(i64, i64); 4] = [(2, 32), (4, 1), (2, 16), (4, 4)];
const Q_SIZES: [i64; 5] = [2, 3, 2, 2, 4];
const Q_LEAVES: [(i64, i64); 5] = [(2, 1), (3, 2), (2, 6), (2, 12), (4, 24)];

fn smt(x: i64) -> i64 {
    x / 8 + (x % 8) * 8
}
/// `compose(SMT, TVN)` at flat index `i`.
fn comp(i: i64) -> i64 {
    smt(eval(&TVN_LEAVES, i))
}
/// `compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN)` at flat index `i`.
fn comp_sw(i: i64) -> i64 {
    swz(2, 4, 1, smt(eval(&TVN_LEAVES, i)))
}
fn cs(fixed: [Option<i64>; 4]) -> Vec<i64> {
    slice(&TVN_SIZES, &fixed, &comp)
}
fn cs_sw(fixed: [Option<i64>; 4]) -> Vec<i64> {
    slice(&TVN_SIZES, &fixed, &comp_sw)
}
fn q(fixed: [Option<i64>; 5]) -> Vec<i64> {
    slice(&Q_SIZES, &fixed, &|i| eval(&Q_LEAVES, i))
}

#[test]
fn slices_of_composites_with_nested_entries_equal_enumeration() {
    let (n, x) = (None, Some);
    let cases: Vec<(&str, Vec<i64>, Vec<i64>)> = vec![
        (
            "restrict(compose(SMT, TVN), 0 = (_, 1))",
            offsets(layout!(restrict(compose(SMT, TVN), 0 = (_, 1)))),
            cs([n, x(1), n, n]),
        ),
        (
            "restrict(compose(SMT, TVN), 1 = (1, _))",
            offsets(layout!(restrict(compose(SMT, TVN), 1 = (1, _)))),
            cs([n, n, x(1), n]),
        ),
        (
            "restrict(compose(SMT, TVN), ((1, _), (_, 2)))",
            offsets(layout!(restrict(compose(SMT, TVN), ((1, _), (_, 2))))),
            cs([x(1), n, n, x(2)]),
        ),
        (
            "restrict(compose(SMT, TVN), 0 = 5)",
            offsets(layout!(restrict(compose(SMT, TVN), 0 = 5))),
            cs([x(1), x(1), n, n]),
        ),
        (
            "restrict(compose(SMT, TVN), (_, 6))",
            offsets(layout!(restrict(compose(SMT, TVN), (_, 6)))),
            cs([n, n, x(1), x(2)]),
        ),
        (
            "restrict(restrict(compose(SMT, TVN), 1 = (_, 3)), 0 = (1, _))",
            offsets(layout!(restrict(
                restrict(compose(SMT, TVN), 1 = (_, 3)),
                0 = (1, _)
            ))),
            cs([x(1), n, n, x(3)]),
        ),
    ];
    for (text, got, want) in cases {
        assert_eq!(got, want, "layout!({text})");
        assert_eq!(at_run_time(DEFS, text), want, "{text} at run time");
    }
}

#[test]
fn slices_of_swizzled_composites_equal_enumeration() {
    let (n, x) = (None, Some);
    let cases: Vec<(&str, Vec<i64>, Vec<i64>)> = vec![
        (
            "restrict(compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN), 0 = (_, 1))",
            offsets(layout!(restrict(
                compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN),
                0 = (_, 1)
            ))),
            cs_sw([n, x(1), n, n]),
        ),
        (
            "restrict(compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN), ((1, _), (_, 2)))",
            offsets(layout!(restrict(
                compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN),
                ((1, _), (_, 2))
            ))),
            cs_sw([x(1), n, n, x(2)]),
        ),
        (
            "restrict(compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN), 1 = 7)",
            offsets(layout!(restrict(
                compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN),
                1 = 7
            ))),
            cs_sw([n, n, x(1), x(3)]),
        ),
    ];
    for (text, got, want) in cases {
        assert_eq!(got, want, "layout!({text})");
        assert_eq!(at_run_time(DEFS, text), want, "{text} at run time");
    }
}

#[test]
fn run_time_parts_of_composites_equal_enumeration() {
    let (n, x) = (None, Some);
    for a in 0..2usize {
        for b in 0..4usize {
            let (ai, bi) = (a as i64, b as i64);
            assert_eq!(
                offsets(layout!(restrict(compose(SMT, TVN), 0 = (_, b)))),
                cs([n, x(bi), n, n])
            );
            assert_eq!(
                offsets(layout!(restrict(compose(SMT, TVN), 0 = (a, _), 1 = (_, b)))),
                cs([x(ai), n, n, x(bi)])
            );
            assert_eq!(
                offsets(layout!(restrict(compose(SMT, TVN), 1 = (a, b)))),
                cs([n, n, x(ai), x(bi)])
            );
            assert_eq!(
                offsets(layout!(restrict(
                    compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN),
                    0 = (a, _),
                    1 = (_, b)
                ))),
                cs_sw([x(ai), n, n, x(bi)])
            );
            assert_eq!(
                offsets(layout!(restrict(
                    compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN),
                    (b, (a, _))
                ))),
                cs_sw([x(bi / 4), x(bi % 4), x(ai), n])
            );
        }
    }
}

#[test]
fn run_time_restrictions_then_static_slices_equal_enumeration() {
    let (n, x) = (None, Some);
    for t in 0..2usize {
        for u in 0..2usize {
            let (ti, ui) = (t as i64, u as i64);
            // Entry 0 by a run-time value, then entry 1 (now position 0) split statically.
            assert_eq!(
                offsets(layout!(restrict(restrict(Q, 0 = t), 0 = (_, 1)))),
                q([x(0), x(ti), n, x(1), n])
            );
            // A run-time value on the last entry, then the first split.
            assert_eq!(
                offsets(layout!(restrict(restrict(Q, 2 = t), 0 = (_, 1)))),
                q([n, x(1), n, n, x(ti)])
            );
            // A run-time part of a split entry, then another entry split.
            assert_eq!(
                offsets(layout!(restrict(restrict(Q, 1 = (t, _)), 0 = (1, _)))),
                q([x(1), n, x(ti), n, n])
            );
            // Two run-time parts in two nested restrictions, the second in the whole-domain form.
            assert_eq!(
                offsets(layout!(restrict(restrict(Q, 0 = (t, _)), (_, (u, _), 1)))),
                q([x(ti), n, x(ui), n, x(1)])
            );
            // The whole-domain form with a run-time element, then a static one.
            assert_eq!(
                offsets(layout!(restrict(restrict(Q, (_, u, _)), 0 = (t, 2)))),
                q([x(ti), x(2), x(ui / 2), x(ui % 2), n])
            );
        }
    }
}

/// Runs `f`, which must panic, and returns its message; `layout!`'s range check.
fn out_of_range(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    panic_message(f)
}

#[test]
fn run_time_parts_outside_their_sub_shape_panic_for_every_integer_type() {
    // Entry 0 of Q is (2,3): its first part has 2 positions, its second 3.
    assert_eq!(
        out_of_range(|| {
            let a = 2usize;
            let _ = layout!(restrict(Q, 0 = (a, _)));
        }),
        "restrict: the run-time value 2 is outside its entry [0, 2)"
    );
    assert_eq!(
        out_of_range(|| {
            let a = -1i8;
            let _ = layout!(restrict(Q, 0 = (_, a)));
        }),
        "restrict: the run-time value -1 is outside its entry [0, 3)"
    );
    assert_eq!(
        out_of_range(|| {
            let a = (1u128 << 64) + 1;
            let _ = layout!(restrict(Q, 0 = (_, a)));
        }),
        "restrict: the run-time value 18446744073709551617 is outside its entry [0, 3)"
    );
    assert_eq!(
        out_of_range(|| {
            let a = i128::MIN;
            let _ = layout!(restrict(Q, (_, (1, a), 0)));
        }),
        format!(
            "restrict: the run-time value {} is outside its entry [0, 2)",
            i128::MIN
        )
    );
    assert_eq!(
        out_of_range(|| {
            let (t, p) = (1u64, u64::MAX);
            let _ = layout!(restrict(Q, 0 = t, 2 = p));
        }),
        format!(
            "restrict: the run-time value {} is outside its entry [0, 4)",
            u64::MAX
        )
    );
    // In range at the edge of each sub-shape: no panic, the right offsets.
    let (a, b) = (1u8, 2i16);
    assert_eq!(
        offsets(layout!(restrict(Q, 0 = (a, b)))),
        q([Some(1), Some(2), None, None, None])
    );
}

/// `f` on the flat indices of a regrouped domain: `pick(k)` is the original flat index.
fn regrouped(size: i64, f: &dyn Fn(i64) -> i64, pick: &dyn Fn(i64) -> i64) -> Vec<i64> {
    (0..size).map(|k| f(pick(k))).collect()
}

#[test]
fn regroupings_of_composites_with_nested_entries_equal_enumeration() {
    let id = |i: i64| i;
    let cases: Vec<(&str, Vec<i64>, Vec<i64>)> = vec![
        (
            "group(compose(SMT, TVN), 0, 2)",
            offsets(layout!(group(compose(SMT, TVN), 0, 2))),
            regrouped(64, &comp, &id),
        ),
        (
            "flatten(compose(SMT, TVN))",
            offsets(layout!(flatten(compose(SMT, TVN)))),
            regrouped(64, &comp, &id),
        ),
        (
            "coalesce(compose(SMT, TVN))",
            offsets(layout!(coalesce(compose(SMT, TVN)))),
            regrouped(64, &comp, &id),
        ),
        (
            "permute(compose(SMT, TVN), (1, 0))",
            offsets(layout!(permute(compose(SMT, TVN), (1, 0)))),
            regrouped(64, &comp, &|k| (k % 8) * 8 + k / 8),
        ),
        (
            "select(compose(SMT, TVN), (1, 0))",
            offsets(layout!(select(compose(SMT, TVN), (1, 0)))),
            regrouped(64, &comp, &|k| (k % 8) * 8 + k / 8),
        ),
        (
            "permute(flatten(compose(SMT, TVN)), (3, 1, 2, 0))",
            offsets(layout!(permute(flatten(compose(SMT, TVN)), (3, 1, 2, 0)))),
            // New leaves (4,4,2,2) from old leaves 3, 1, 2, 0 of (2,4,2,4).
            regrouped(64, &comp, &|k| {
                let d = digits(k, &[4, 4, 2, 2]);
                d[3] * 32 + d[1] * 8 + d[2] * 4 + d[0]
            }),
        ),
        (
            "permute(compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN), (1, 0))",
            offsets(layout!(permute(
                compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN),
                (1, 0)
            ))),
            regrouped(64, &comp_sw, &|k| (k % 8) * 8 + k / 8),
        ),
        (
            "coalesce(compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN))",
            offsets(layout!(coalesce(compose(
                swizzle(SMT, b = 2, src = 4, dst = 1),
                TVN
            )))),
            regrouped(64, &comp_sw, &id),
        ),
    ];
    for (text, got, want) in cases {
        assert_eq!(got, want, "layout!({text})");
        assert_eq!(at_run_time(DEFS, text), want, "{text} at run time");
    }
}

#[test]
fn coalesce_keeps_the_function_at_the_edges_of_i64() {
    // Each layout's offsets fit i64; coalesce has no precondition and must keep the function.
    for text in [
        "(2,2):(-9223372036854775808,4611686018427387904)",
        "(2,2):(-4611686018427387904,-2305843009213693952)",
        "(3,2):(_,_)",
        "(2,3,4):(_,_,1)",
        "(2,1,3):(3,_,1)",
        "(2,4):(-4,-1)",
        "(1,1):(5,7)",
        "(2,(1,3)):(3,(9,1))",
    ] {
        let l: CoreLayout = text.parse().unwrap();
        let c = coalesce(&l).unwrap_or_else(|e| panic!("coalesce({text}): {e}"));
        for i in 0..l.size() {
            assert_eq!(
                c.eval_index(i).ok(),
                l.eval_index(i).ok(),
                "coalesce({text}) at {i}"
            );
        }
    }
}

/// Items whose operands have the same last names as items of the modules that use them.
mod row {
    use layout_typed::prelude::*;
    layout! {
        /// Row-major 16×32 storage.
        pub const SM = (16,32):(32,1), logical -> physical;
        /// Its 4×8 tiles.
        pub const D = divide(SM, (4, 8));
        /// Tile 5 of them.
        pub const E = restrict(D, rest = 5);
    }
}
mod col {
    use layout_typed::prelude::*;
    layout! {
        /// Column-major 16×32 storage, under the same name as `row::SM`.
        pub const SM = (16,32):(1,16), logical -> physical;
        /// An item of the same name as `row::D`, over this module's `SM`.
        pub const D = divide(SM, (4, 8));
    }
    pub use super::row::E as RowE;
    /// `row::D` used here, where `SM` and `D` are this module's.
    pub fn row_tile(r: usize) -> Vec<i64> {
        super::offsets(layout!(restrict(super::row::D, rest = r)))
    }
    pub fn own_tile(r: usize) -> Vec<i64> {
        super::offsets(layout!(restrict(D, rest = r)))
    }
}
/// An item named as its operand's item, through a `use` rename.
mod renamed {
    use super::col::SM as X;
    use layout_typed::prelude::*;
    layout! {
        /// `divide` of the column-major storage, named `SM`.
        pub const SM = divide(X, (4, 8));
        /// An item of it.
        pub const T3 = restrict(SM, rest = 3);
    }
}

/// Tile `r` (of a 4×8 grid of 4×8 tiles) of a 16×32 storage with strides `(s0, s1)`, in the
/// tile's row-major order.
fn tile(r: i64, s0: i64, s1: i64) -> Vec<i64> {
    let (tr, tc) = (r / 4, r % 4);
    (0..32)
        .map(|k| (4 * tr + k / 8) * s0 + (8 * tc + k % 8) * s1)
        .collect()
}

#[test]
fn items_compute_with_their_own_operands_wherever_they_are_used() {
    for r in [0usize, 5, 15] {
        assert_eq!(
            col::row_tile(r),
            tile(r as i64, 32, 1),
            "row::D in col, tile {r}"
        );
        assert_eq!(col::own_tile(r), tile(r as i64, 1, 16), "col::D, tile {r}");
    }
    assert_eq!(offsets(row::E), tile(5, 32, 1));
    assert_eq!(offsets(col::RowE), tile(5, 32, 1));
    assert_eq!(offsets(layout!(col::RowE)), tile(5, 32, 1));
    assert_eq!(
        offsets(layout!(restrict(renamed::SM, rest = 3))),
        tile(3, 1, 16)
    );
    assert_eq!(offsets(renamed::T3), tile(3, 1, 16));
    assert_eq!(offsets(layout!(renamed::T3)), tile(3, 1, 16));
    {
        // A glob import of `row` beside this block's own `SM`: `D` is still row-major.
        use row::*;
        layout! { const SM = (16,32):(1,16), logical -> physical; }
        let _ = SM;
        assert_eq!(offsets(layout!(restrict(D, rest = 6))), tile(6, 32, 1));
        assert_eq!(offsets(layout!(E)), tile(5, 32, 1));
    }
}

layout! {
    /// A swizzled storage of 33 stages of 256 elements.
    const SW33 = 8448:1, logical -> physical;
    /// 128 threads × 2 values × 33 stages: 4224 (thread, stage) pairs, past 4096.
    const TV33 = (thread: 128, value: 2, stage: 33):(2, 1, 256), thread-value -> logical;
    /// 32 stages: exactly 4096 pairs.
    const SW32 = 8192:1, logical -> physical;
    const TV32 = (thread: 128, value: 2, stage: 32):(2, 1, 256), thread-value -> logical;
}

#[test]
fn several_run_time_values_around_the_combination_limit_equal_enumeration() {
    for (t, p) in [(0usize, 0usize), (5, 1), (127, 31), (64, 17)] {
        let want: Vec<i64> = (0..2)
            .map(|v| swz(2, 4, 0, 256 * p as i64 + 2 * t as i64 + v))
            .collect();
        let frag = layout!(restrict(
            compose(swizzle(SW32, b = 2, src = 4, dst = 0), TV32),
            thread = t,
            stage = p
        ));
        assert_eq!(offsets(frag), want, "4096 pairs, (t, p) = ({t}, {p})");
        let frag = layout!(restrict(
            compose(swizzle(SW33, b = 2, src = 4, dst = 0), TV33),
            thread = t,
            stage = p
        ));
        assert_eq!(offsets(frag), want, "4224 pairs, (t, p) = ({t}, {p})");
        let nested = layout!(restrict(
            restrict(
                compose(swizzle(SW33, b = 2, src = 4, dst = 0), TV33),
                stage = p
            ),
            thread = t
        ));
        assert_eq!(offsets(nested), want, "nested, (t, p) = ({t}, {p})");
    }
    let p = 32usize;
    let want: Vec<i64> = (0..2).map(|v| swz(2, 4, 0, 256 * 32 + 2 * 3 + v)).collect();
    let frag = layout!(restrict(
        compose(swizzle(SW33, b = 2, src = 4, dst = 0), TV33),
        thread = 3,
        stage = p
    ));
    assert_eq!(offsets(frag), want);
}

#[test]
fn coordinates_of_slices_reach_the_offsets_of_their_flat_indices() {
    let (n, x) = (None, Some);
    // Free parts [(2,3), 2, 4]: a coordinate ((a, b), c, d).
    let s = layout!(restrict(Q, 1 = (_, 1)));
    let want = q([n, n, n, x(1), n]);
    for (i, &w) in want.iter().enumerate() {
        let (a, b, c, d) = (i / 24, i / 8 % 3, i / 4 % 2, i % 4);
        assert_eq!(s.offset(((a, b), c, d)).to_isize() as i64, w, "at {i}");
    }
    // One free part, a tuple: the domain is that part, (2,2).
    let s = layout!(restrict(Q, 0 = 4, 2 = 1));
    let want = q([x(1), x(1), n, n, x(1)]);
    for (i, &w) in want.iter().enumerate() {
        assert_eq!(s.offset((i / 2, i % 2)).to_isize() as i64, w, "at {i}");
    }
    // The same with run-time values.
    for t in 0..2usize {
        let s = layout!(restrict(Q, 0 = 4, 2 = t));
        let want = q([x(1), x(1), n, n, x(t as i64)]);
        for (i, &w) in want.iter().enumerate() {
            assert_eq!(
                s.offset((i / 2, i % 2)).to_isize() as i64,
                w,
                "t = {t}, at {i}"
            );
        }
        let s = layout!(restrict(Q, 1 = (t, _)));
        let want = q([n, n, x(t as i64), n, n]);
        for (i, &w) in want.iter().enumerate() {
            let (a, b, c, d) = (i / 24, i / 8 % 3, i / 4 % 2, i % 4);
            assert_eq!(
                s.offset(((a, b), c, d)).to_isize() as i64,
                w,
                "t = {t}, at {i}"
            );
        }
    }
}

/// A `select` that drops modes of a composite whose coarsest layout refines a kept mode (the
/// 4 of TVN is (2,2) there) is the composite with the dropped modes fixed at 0: the kept modes'
/// shapes stay the map's, so later indices name the map's leaves; a further regrouping of that
/// restriction is refused rather than indexing refined leaves.
#[test]
fn select_of_a_composite_keeps_the_shapes_of_the_modes_it_keeps() {
    // select(compose(SMT, TVN), 1) keeps entry 1 of TVN, (2,4), with entry 0 fixed at 0.
    let kept: Vec<i64> = (0..8).map(comp).collect();
    assert_eq!(offsets(layout!(select(compose(SMT, TVN), 1))), kept);
    assert_eq!(at_run_time(DEFS, "select(compose(SMT, TVN), 1)"), kept);
    assert_eq!(
        layout!(select(compose(SMT, TVN), 1))
            .to_map()
            .unwrap()
            .domain_shape(),
        layout_core::Tree::Tuple(vec![layout_core::Tree::Leaf(2), layout_core::Tree::Leaf(4)]),
        "the kept mode's shape"
    );
    let nested = evaluate_text(&format!(
        "{DEFS} select(flatten(select(compose(SMT, TVN), 1)), 1)"
    ));
    assert!(
        matches!(
            nested,
            Err(layout_core::Error::NotALayout {
                why: layout_core::NotLayoutReason::Restricted,
                ..
            })
        ),
        "{nested:?}"
    );
}

#[test]
fn the_whole_domain_form_takes_a_bare_integer_for_a_domain_of_one_entry() {
    const V: &str = "[V = 8:3, logical -> physical]";
    assert_eq!(at_run_time(V, "restrict(V, (5))"), vec![15]);
    assert_eq!(
        at_run_time(V, "restrict(V, _)"),
        (0..8).map(|i| 3 * i).collect::<Vec<_>>()
    );
    // With run-time values allowed (as in `layout!`), `restrict(V, t)` parses too.
    let opts = layout_core::expr::Options {
        runtime: true,
        ..layout_core::expr::Options::default()
    };
    for text in ["restrict(V, (t))", "restrict(V, t)", "restrict(V, 5)"] {
        if let Err(e) = layout_core::expr::parse_expr(text, &opts) {
            panic!("{text}: {}", e.error);
        }
    }
    assert_eq!(at_run_time(V, "restrict(V, 5)"), vec![15]);
    const QD: &str = "[Q = ((2,3),(2,2),4):((1,2),(6,12),24), logical -> physical]";
    // One free entry, (2,2):(6,12), left by the inner restriction: flat index 1 of it is
    // (0, 1), last leaf fastest, as entry 0's flat index 1 of (2,3):(1,2) is.
    assert_eq!(
        at_run_time(QD, "restrict(restrict(Q, 0 = 1, 2 = 2), 1)"),
        vec![2 + 12 + 48]
    );
}

layout! {
    /// Named threads and values over the 64 positions of `SMT`.
    const TVNAMED = (thread: (2,4), value: (2,4)):((32,1),(16,4)), thread-value -> logical;
    /// A regrouped swizzled composite as an item: (value, thread).
    const PERM = permute(compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVNAMED), (1, 0));
    /// A flattened composite as an item.
    const FLAT = flatten(compose(SMT, TVNAMED));
}

#[test]
fn regrouped_composites_restricted_by_name_and_by_run_time_values_equal_enumeration() {
    let (n, x) = (None, Some);
    for t in 0..8usize {
        let ti = t as i64;
        // Thread t: entry 0 of TVNAMED fixed, whatever position `permute` gave it.
        let want = cs_sw([x(ti / 4), x(ti % 4), n, n]);
        assert_eq!(
            offsets(layout!(restrict(PERM, thread = t))),
            want,
            "PERM, thread {t}"
        );
        assert_eq!(
            offsets(layout!(restrict(
                permute(
                    compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVNAMED),
                    (1, 0)
                ),
                thread = t
            ))),
            want,
            "inline, thread {t}"
        );
        assert_eq!(
            offsets(layout!(restrict(PERM, 1 = t))),
            want,
            "PERM, position 1 = {t}"
        );
        // Value t: position 0 after the permutation.
        let want = cs_sw([n, n, x(ti / 4), x(ti % 4)]);
        assert_eq!(
            offsets(layout!(restrict(PERM, value = t))),
            want,
            "PERM, value {t}"
        );
        assert_eq!(
            offsets(layout!(restrict(PERM, (t, _)))),
            want,
            "PERM, (t, _)"
        );
    }
    for a in 0..2usize {
        for b in 0..4usize {
            let (ai, bi) = (a as i64, b as i64);
            // The leaves of FLAT are the four leaves (2,4,2,4).
            assert_eq!(
                offsets(layout!(restrict(FLAT, (a, _, _, b)))),
                cs([x(ai), n, n, x(bi)]),
                "FLAT, ({a}, _, _, {b})"
            );
            assert_eq!(
                offsets(layout!(restrict(FLAT, 1 = b, 2 = a))),
                cs([n, x(bi), x(ai), n]),
                "FLAT, 1 = {b}, 2 = {a}"
            );
            assert_eq!(
                offsets(layout!(restrict(
                    group(
                        permute(compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN), (1, 0)),
                        0,
                        2
                    ),
                    0 = 8 * b + a
                ))),
                cs_sw([x(ai / 4), x(ai % 4), x(bi / 4), x(bi % 4)]),
                "grouped, ({a}, {b})"
            );
        }
    }
}

/// The first error of an expression evaluated at run time.
fn run_time_error(defs: &str, expr: &str) -> String {
    match evaluate_text(&format!("{defs} {expr}")) {
        Ok(_) => panic!("{expr}: accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_entry_listed_twice_is_named_as_such() {
    const QD: &str = "[Q = ((2,3),(2,2),4):((1,2),(6,12),24), logical -> physical]";
    for expr in [
        "restrict(Q, 0 = 1, 0 = 2)",
        "restrict(Q, 0 = _, 0 = 2)",
        "restrict(Q, 1 = (_, 1), 1 = (1, _))",
    ] {
        let msg = run_time_error(QD, expr);
        assert!(
            !msg.contains("but the domain has 3 free entries"),
            "{expr}: entry 0 is one of the 3 free entries, yet: {msg}"
        );
        assert!(msg.contains("twice"), "{expr}: {msg}");
    }
    let q: layout_core::Map = layout_core::Annotated::new(
        "((2,3),(2,2),4):((1,2),(6,12),24)".parse().unwrap(),
        layout_core::Space::Logical,
        layout_core::Space::Physical,
    )
    .unwrap()
    .into();
    let msg = q.restrict(&[(0, 1), (0, 2)]).unwrap_err().to_string();
    assert!(msg.contains("twice"), "Map::restrict: {msg}");
}

#[test]
fn a_refused_select_of_a_composite_of_a_restriction_gives_the_reason() {
    const QV: &str = "[Q = ((2,3),(2,2),4):((1,2),(6,12),24), logical -> physical] \
                      [V = (2,4,4):(1,8,2), thread-value -> logical]";
    // The composite is 2 + 24a + (2,2):(1,6) on b + (2,2):(12,48) on c: separable.
    let c = at_run_time(QV, "compose(restrict(Q, 0 = (_, 1)), V)");
    for i in 0..32i64 {
        let (a, b, cc) = (i / 16, i / 4 % 4, i % 4);
        let want = 2 + 24 * a + (b / 2) + 6 * (b % 2) + 12 * (cc / 2) + 48 * (cc % 2);
        assert_eq!(c[i as usize], want, "at {i}");
    }
    let msg = run_time_error(QV, "select(compose(restrict(Q, 0 = (_, 1)), V), (2, 0))");
    assert!(!msg.contains("not separable"), "{msg}");
}

// `coalesce` of a run-time operand: which leaves merge depends on the run-time strides, so
// it is refused while compiling (`Error::RuntimeCoalesce`,
// ui-tests/ui/runtime/coalesce_runtime_operand.rs) instead of typed from a stand-in whose
// leaves all merge.

/// Items of items: a chain where each item names the one before twice, and a chain of 60.
mod chains {
    use layout_typed::prelude::*;
    layout! {
        /// The transpose of 8×8 positions.
        pub const P0 = (8,8):(1,8), logical -> logical;
        pub const P1 = compose(P0, P0);
        pub const P2 = compose(P1, P1);
        pub const P3 = compose(P2, P2);
        pub const P4 = compose(P3, P3);
        pub const P5 = compose(P4, P4);
        pub const P6 = compose(P5, P5);
        pub const P7 = compose(P6, P6);
        pub const P8 = compose(P7, P7);
        pub const P9 = compose(P8, P8);
        pub const P10 = compose(P9, P9);
        pub const L1 = compose(P0, P0);
        pub const L2 = compose(L1, P0);
        pub const L3 = compose(L2, P0);
        pub const L4 = compose(L3, P0);
        pub const L5 = compose(L4, P0);
        pub const L6 = compose(L5, P0);
        pub const L7 = compose(L6, P0);
        pub const L8 = compose(L7, P0);
        pub const L9 = compose(L8, P0);
        pub const L10 = compose(L9, P0);
        pub const L11 = compose(L10, P0);
        pub const L12 = compose(L11, P0);
        pub const L13 = compose(L12, P0);
        pub const L14 = compose(L13, P0);
        pub const L15 = compose(L14, P0);
        pub const L16 = compose(L15, P0);
        pub const L17 = compose(L16, P0);
        pub const L18 = compose(L17, P0);
        pub const L19 = compose(L18, P0);
        pub const L20 = compose(L19, P0);
        pub const L21 = compose(L20, P0);
        pub const L22 = compose(L21, P0);
        pub const L23 = compose(L22, P0);
        pub const L24 = compose(L23, P0);
        pub const L25 = compose(L24, P0);
        pub const L26 = compose(L25, P0);
        pub const L27 = compose(L26, P0);
        pub const L28 = compose(L27, P0);
        pub const L29 = compose(L28, P0);
        pub const L30 = compose(L29, P0);
        pub const L31 = compose(L30, P0);
        pub const L32 = compose(L31, P0);
        pub const L33 = compose(L32, P0);
        pub const L34 = compose(L33, P0);
        pub const L35 = compose(L34, P0);
        pub const L36 = compose(L35, P0);
        pub const L37 = compose(L36, P0);
        pub const L38 = compose(L37, P0);
        pub const L39 = compose(L38, P0);
        pub const L40 = compose(L39, P0);
        pub const L41 = compose(L40, P0);
        pub const L42 = compose(L41, P0);
        pub const L43 = compose(L42, P0);
        pub const L44 = compose(L43, P0);
        pub const L45 = compose(L44, P0);
        pub const L46 = compose(L45, P0);
        pub const L47 = compose(L46, P0);
        pub const L48 = compose(L47, P0);
        pub const L49 = compose(L48, P0);
        pub const L50 = compose(L49, P0);
        pub const L51 = compose(L50, P0);
        pub const L52 = compose(L51, P0);
        pub const L53 = compose(L52, P0);
        pub const L54 = compose(L53, P0);
        pub const L55 = compose(L54, P0);
        pub const L56 = compose(L55, P0);
        pub const L57 = compose(L56, P0);
        pub const L58 = compose(L57, P0);
        pub const L59 = compose(L58, P0);
        pub const L60 = compose(L59, P0);
        /// Row-major storage.
        pub const S = (8,8):(8,1), logical -> physical;
    }
}

#[test]
fn chains_of_items_compute_the_composite_of_their_operands() {
    // P0 is its own inverse: P_n is the identity for n >= 1, L_n is P0 for n even.
    let row_major: Vec<i64> = (0..64).collect();
    let transposed: Vec<i64> = (0..64).map(|i| (i % 8) * 8 + i / 8).collect();
    assert_eq!(offsets(layout!(compose(chains::S, chains::P10))), row_major);
    assert_eq!(
        offsets(layout!(compose(chains::S, chains::L60))),
        transposed
    );
    assert_eq!(offsets(layout!(compose(chains::S, chains::L59))), row_major);
}

/// A counter: each call returns the next integer from 0.
fn counter() -> impl Fn() -> usize {
    let calls = std::cell::Cell::new(0usize);
    move || {
        let c = calls.get();
        calls.set(c + 1);
        c
    }
}

#[test]
fn run_time_values_are_evaluated_once_each() {
    let calls = std::cell::Cell::new(0usize);
    let one = |v: usize| {
        calls.set(calls.get() + 1);
        v
    };
    let _ = layout!(restrict(Q, 2 = one(3), 0 = one(1)));
    assert_eq!(calls.get(), 2);
    let _ = layout!(restrict(Q, 1 = (one(1), _), 0 = (_, one(2))));
    assert_eq!(calls.get(), 4);
    let _ = layout!(restrict(Q, (one(1), _, one(2))));
    assert_eq!(calls.get(), 6);
    let _ = layout!(restrict(restrict(Q, 2 = one(1)), 0 = (one(1), _)));
    assert_eq!(calls.get(), 8);
}

#[test]
fn run_time_values_are_evaluated_in_the_order_written() {
    let (n, x) = (None, Some);
    // With a run-time operand the values are taken in the order written: `rest` first (tile
    // (0, 0) of an 8×8 matrix cut in 2×2 tiles), then row 1 of it.
    let next = counter();
    let k = 8usize;
    let d = layout!(restrict(
        divide([(8, {k}):(8, 1), logical -> physical], (2, 2)),
        rest = next(),
        tile = (next(), _)
    ))
    .unwrap();
    assert_eq!(
        (0..2).map(|i| d.offset(i).to_isize()).collect::<Vec<_>>(),
        [8, 9]
    );
    // Entry 2 written first: it takes the first value, 0; entry 0 the second, 1.
    let next = counter();
    let s = layout!(restrict(Q, 2 = next(), 0 = next()));
    assert_eq!(
        offsets(s),
        q([x(0), x(1), n, n, x(0)]),
        "2 = next(), 0 = next()"
    );
    let next = counter();
    let s = layout!(restrict(Q, 1 = (next(), _), 0 = (_, next())));
    assert_eq!(
        offsets(s),
        q([n, x(1), x(0), n, n]),
        "1 = (next(), _), 0 = (_, next())"
    );
    let next = counter();
    let s = layout!(restrict(restrict(Q, 2 = next()), 0 = next()));
    assert_eq!(offsets(s), q([x(0), x(1), n, n, x(0)]), "nested");
}

#[test]
fn selected_and_grouped_modes_keep_their_shapes() {
    let s = layout!(select(Q, 0));
    for a in 0..2usize {
        for b in 0..3usize {
            assert_eq!(s.offset((a, b)).to_isize(), (a + 2 * b) as isize);
            assert_eq!(s.offset_index(a * 3 + b).to_isize(), (a + 2 * b) as isize);
        }
    }
    let r = layout!(restrict(select(Q, 0), 0 = (1, _)));
    for b in 0..3usize {
        assert_eq!(r.offset_index(b).to_isize(), (1 + 2 * b) as isize);
    }
    let r = layout!(restrict(select(Q, 0), (_, 2)));
    for a in 0..2usize {
        assert_eq!(r.offset_index(a).to_isize(), (a + 4) as isize);
    }
    // One mode of everything: the whole-domain value is that mode's.
    let r = layout!(restrict(group(Q, 0, 3), (_, 1, _)));
    let want = q([None, None, Some(0), Some(1), None]);
    for (i, w) in want.iter().enumerate() {
        assert_eq!(r.offset_index(i).to_isize() as i64, *w, "at {i}");
    }
}

/// Items of every new form: slices, regroupings of composites and of swizzled composites, and
/// slices of those items.
mod forms {
    use super::{Q, SMT, TVN};
    use layout_typed::prelude::*;
    layout! {
        pub const S1 = restrict(Q, 0 = (_, 1));
        pub const S3 = restrict(compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN), ((1, _), _));
        pub const F1 = flatten(compose(swizzle(SMT, b = 2, src = 4, dst = 1), TVN));
        pub const P1 = permute(compose(SMT, TVN), (1, 0));
        pub const R3 = restrict(S3, 1 = (1, _));
    }
}

struct Forms {
    s1: forms::S1,
    s3: forms::S3,
    f1: forms::F1,
    p1: forms::P1,
    r3: forms::R3,
}
static FORMS: Forms = Forms {
    s1: forms::S1,
    s3: forms::S3,
    f1: forms::F1,
    p1: forms::P1,
    r3: forms::R3,
};

#[test]
fn items_of_slices_and_regroupings_equal_enumeration() {
    let (n, x) = (None, Some);
    assert_eq!(offsets(FORMS.s1), q([n, x(1), n, n, n]));
    assert_eq!(offsets(FORMS.s3), cs_sw([x(1), n, n, n]));
    assert_eq!(offsets(FORMS.r3), cs_sw([x(1), n, x(1), n]));
    assert_eq!(offsets(FORMS.f1), (0..64).map(comp_sw).collect::<Vec<_>>());
    assert_eq!(
        offsets(FORMS.p1),
        (0..64)
            .map(|k| comp((k % 8) * 8 + k / 8))
            .collect::<Vec<_>>()
    );
    for t in 0..4usize {
        let ti = t as i64;
        assert_eq!(
            offsets(layout!(restrict(forms::F1, 1 = t))),
            cs_sw([n, x(ti), n, n])
        );
        assert_eq!(
            offsets(layout!(restrict(forms::S3, 1 = (t % 2, _)))),
            cs_sw([x(1), n, x(ti % 2), n])
        );
        assert_eq!(
            offsets(layout!(restrict(forms::P1, (_, (t % 2, _))))),
            // P1's entries are (entry 1, entry 0) of TVN; entry 0's first leaf fixed.
            slice(&[2, 4, 2, 4], &[n, n, x(ti % 2), n], &|k| {
                let d = digits(k, &[2, 4, 2, 4]);
                comp(d[2] * 32 + d[3] * 8 + d[0] * 4 + d[1])
            })
        );
    }
}
