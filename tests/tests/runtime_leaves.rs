//! Run-time leaves (spec: Run-time leaves): `{expr}` sizes and strides. What depends on them is checked when
//! the value is built and comes back as a `Result`; the static part is checked while compiling
//! (`ui-tests/ui/runtime/`). Expected offsets come from `layout_core` evaluating the same layout
//! written with the values in text.

use layout_typed::core_algebra::Error;
use layout_typed::prelude::*;

layout! {
    pub const TV = (64,4):(4,1), thread-value -> logical;
}

fn core(text: &str) -> layout_typed::core_algebra::Layout {
    text.parse().expect("layout")
}

#[test]
fn leading_dimension_and_problem_size_at_run_time() {
    for (m, ld) in [(16usize, 16i64), (16, 40), (3, 17), (1, 5)] {
        let g = layout!(({m}, 16):({ld}, 1), logical -> physical).expect("alias-free");
        let expected = core(&format!("({m},16):({ld},1)"));
        assert_eq!(g.size(), expected.size() as usize);
        assert_eq!(g.cosize() as i64, expected.cosize().expect("non-negative"));
        for i in 0..g.size() {
            assert_eq!(
                g.offset(i),
                expected.eval_index(i as i64).expect("in range")
            );
            assert_eq!(
                g.offset((i / 16, i % 16)),
                expected.eval_index(i as i64).expect("in range")
            );
        }
        assert_eq!(g.to_layout().expect("valid"), expected);
    }
}

#[test]
fn a_bad_run_time_leading_dimension_is_an_err() {
    let (m, ld) = (16usize, 8i64);
    let e = layout!(({m}, 16):({ld}, 1), logical -> physical).err();
    assert!(matches!(e, Some(Error::Aliasing { .. })), "{e:?}");
    // The same check as the run-time algebra, with the same witness.
    let expected = layout_typed::core_algebra::check_alias_free(&core("(16,16):(8,1)")).err();
    assert_eq!(e, expected);
}

#[test]
fn dense_bijections_are_checked_at_run_time() {
    let n = 8usize;
    let ok = layout!(({n}, 4):(4, 1), logical -> logical).expect("dense");
    assert_eq!(ok.size(), 32);
    let d = 3i64;
    let e = layout!(({n}, 4):({d}, 1), logical -> thread-value).err();
    assert_eq!(
        e,
        layout_typed::core_algebra::check_dense_bijection(&core("(8,4):(3,1)")).err()
    );
}

#[test]
fn cute_order_with_run_time_leaves() {
    let (m, ld) = (12usize, 20i64);
    let c = layout!(cute (16, {m}):(1, {ld}), logical -> physical).expect("alias-free");
    let expected = layout_typed::core_algebra::Layout::from_cute(&format!("(16,{m}):(1,{ld})"))
        .expect("layout");
    for i in 0..c.size() {
        assert_eq!(
            c.offset(i),
            expected.eval_index(i as i64).expect("in range")
        );
    }
}

#[test]
fn composition_checks_sizes_at_run_time() {
    let ld = 24i64;
    let g = layout!(({16}, 16):({ld}, 1), logical -> physical).expect("alias-free");
    let addr = try_compose(g, TV).expect("256 positions");
    let expected = core("(16,16):(24,1)");
    for t in 0..64usize {
        for v in 0..4usize {
            let flat = (t * 4 + v) as i64;
            assert_eq!(
                addr.offset((t, v)),
                expected.eval_index(flat).expect("in range")
            );
        }
    }
    let small = layout!(({8}, 16):({ld}, 1), logical -> physical).expect("alias-free");
    assert_eq!(
        try_compose(small, TV).err(),
        Some(Error::SizeMismatch {
            left: 128,
            right: 256
        })
    );
}

#[test]
fn the_index_type_range_is_checked_at_run_time() {
    let ld = 1i64 << 31;
    let e = layout!(({4}, 16):({ld}, 1), logical -> physical, index = i32).err();
    let (min, max) = core(&format!("(4,16):({ld},1)")).span();
    assert_eq!(
        e,
        Some(Error::IndexTypeRange {
            min,
            max,
            type_min: i64::from(i32::MIN),
            type_max: i64::from(i32::MAX)
        })
    );
}

/// A run-time leaf is a block as Rust reads one: statements before its value (`{ let m = ..;
/// m }`) in a size, a stride, both, a nested mode and in CuTe order, each equal at every index
/// to the layout written with the values; a leaf of one expression reads as before.
#[test]
fn run_time_leaves_with_statements() {
    let (m, ld) = (3usize, 20i64);
    let check = |offsets: Vec<i64>, text: &str, cute: bool| {
        let l = if cute {
            layout_typed::core_algebra::Layout::from_cute(text).expect("layout")
        } else {
            core(text)
        };
        let want: Vec<i64> = (0..l.size())
            .map(|i| l.eval_index(i).expect("in range"))
            .collect();
        assert_eq!(offsets, want, "{text}");
    };
    let all = |size: usize, f: &dyn Fn(usize) -> i64| (0..size).map(f).collect::<Vec<_>>();
    let a =
        layout!(({ let r = (m, 0); r.0 }, 16):({ let s = (ld, 0); s.0 }, 1), logical -> physical)
            .expect("alias-free");
    check(all(a.size(), &|i| a.offset(i)), "(3,16):(20,1)", false);
    let b = layout!(({ let r = (m * 2, 0); r.0 }, 16):({ ld }, 1), logical -> physical)
        .expect("alias-free");
    check(all(b.size(), &|i| b.offset(i)), "(6,16):(20,1)", false);
    let c = layout!((4, ({ let r = (m, 0); r.0 }, 2)):(1, ({ let s = (8i64, 0); s.0 }, 4)), logical -> physical)
        .expect("alias-free");
    check(
        all(c.size(), &|i| c.offset(i)),
        "(4,(3,2)):(1,(8,4))",
        false,
    );
    let d =
        layout!(cute (16, { let r = (m, 0); r.0 }):(1, { let s = (ld, 0); let t = (s.0, 1); t.0 }), logical -> physical)
            .expect("alias-free");
    check(all(d.size(), &|i| d.offset(i)), "(16,3):(1,20)", true);
}
