//! The rank-0 layout `()` (CuTe's scalar layout `():()`, size 1, offset 0) reads everywhere:
//! both notations' parsers and printers (round trip, also nested as `((),4)`), every CuTe
//! operation (values checked by an evaluator written here; printed results against pycute's
//! where pycute has one), and `layout!` in both orders.

use layout_core::Layout;
use layout_core::cute::{Cute, CuteLayout, CuteOp};
use layout_typed::Layout as _;
use layout_typed::layout;

/// `shape:stride` texts with rank-0 parts, and their values at every integral index (CuTe order,
/// first mode fastest), written out.
const SCALARS: &[(&str, &[i64])] = &[
    ("():()", &[0]),
    ("((),4):((),1)", &[0, 1, 2, 3]),
    ("(3,()):(2,())", &[0, 2, 4]),
    ("((2,()),((),3)):((5,()),((),1))", &[0, 5, 1, 6, 2, 7]),
];

#[test]
fn both_notations_read_and_print_the_scalar_layout() {
    for &(text, values) in SCALARS {
        // CuTe order, CuTe's layer.
        let c: CuteLayout = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(c.to_string(), text);
        assert_eq!(c.offsets().expect("offsets"), values, "{text}");
        assert_eq!(c.to_string().parse::<CuteLayout>().expect("round trip"), c);
        // CuTe order, the algebra.
        let l = Layout::from_cute(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(l.to_cute().to_string(), text);
        assert_eq!(l.size(), values.len() as i64);
        // Seed order: the same text reversed reads, prints, and round-trips.
        let seed = l.to_string();
        let back: Layout = seed.parse().unwrap_or_else(|e| panic!("{seed}: {e}"));
        assert_eq!(back, l, "{seed}");
    }
    let scalar: Layout = "():()".parse().expect("seed notation");
    assert_eq!(scalar.to_string(), "():()");
    assert_eq!((scalar.size(), scalar.eval_index(0)), (1, Ok(0)));
}

/// An operation, its arguments, our printed result, pycute's (if it has one), the values.
type Case = (
    CuteOp,
    &'static [&'static str],
    &'static str,
    Option<&'static str>,
    &'static [i64],
);

/// Every CuTe operation on a rank-0 operand: its values, by the definition (`A ∘ B` is
/// `A(B(i))`, the complement of `()` in `n` is `[0, n)`, a product with `()` is the other
/// operand's copies, a divide by `()` is the layout itself), and pycute's printed result where
/// pycute has one (nvidia-cutlass 4.2: composition and divide by `()` raise there).
#[test]
fn cute_operations_take_the_scalar_layout() {
    let cases: &[Case] = &[
        (CuteOp::LayoutEval, &["():()"], "():()", Some("():()"), &[0]),
        (CuteOp::Coalesce, &["():()"], "1:0", Some("1:0"), &[0]),
        (
            CuteOp::Coalesce,
            &["((),4):((),1)"],
            "4:1",
            None,
            &[0, 1, 2, 3],
        ),
        (
            CuteOp::Complement,
            &["():()", "4"],
            "4:1",
            Some("4:1"),
            &[0, 1, 2, 3],
        ),
        (
            CuteOp::Composition,
            &["():()", "4:1"],
            "4:0",
            Some("4:0"),
            &[0, 0, 0, 0],
        ),
        (CuteOp::Composition, &["8:3", "():()"], "():()", None, &[0]),
        (
            CuteOp::LogicalProduct,
            &["():()", "4:1"],
            "((),4):((),1)",
            Some("((),4):((),1)"),
            &[0, 1, 2, 3],
        ),
        (
            CuteOp::LogicalProduct,
            &["4:2", "():()"],
            "(4,()):(2,())",
            None,
            &[0, 2, 4, 6],
        ),
        (
            CuteOp::LogicalDivide,
            &["4:2", "():()"],
            "((),4):((),2)",
            None,
            &[0, 2, 4, 6],
        ),
        (
            CuteOp::ZippedDivide,
            &["4:2", "():()"],
            "((),4):((),2)",
            None,
            &[0, 2, 4, 6],
        ),
        (CuteOp::RightInverse, &["():()"], "1:0", Some("1:0"), &[0]),
        (CuteOp::LeftInverse, &["():()"], "1:0", Some("1:0"), &[0]),
        (
            CuteOp::Swizzle,
            &["Swizzle<1,0,1>", "():()"],
            "Sw<1,0,1> o ():()",
            None,
            &[0],
        ),
    ];
    for &(op, args, ours, pycute, values) in cases {
        let what = format!("{}({})", op.name(), args.join(", "));
        let v = Cute::new()
            .apply(op, args)
            .unwrap_or_else(|d| panic!("{what}: {d}"));
        assert_eq!(v.to_string(), ours, "{what}");
        if let Some(p) = pycute {
            // pycute prints tuples with spaces after commas.
            assert_eq!(format!("{v:#}").replace(' ', ""), p, "{what}: pycute");
        }
        assert_eq!(v.offsets().expect("offsets"), values, "{what}");
    }
}

layout! {
    /// CuTe's scalar layout, pasted in CuTe order.
    const SCALAR = cute ():(), logical -> physical;
    /// In seed order.
    const SEED_SCALAR = ():(), logical -> logical;
    /// A rank-0 mode beside a real one.
    const WITH_SCALAR = cute ((),4):((),3), logical -> physical;
}

#[test]
fn layout_macro_reads_the_scalar_layout() {
    assert_eq!(SCALAR.offset_index(0), 0);
    // Its coordinate is `()`, or the integer 0.
    assert_eq!(SCALAR.offset(()), 0);
    assert_eq!(SCALAR.offset(0usize), 0);
    assert_eq!(SEED_SCALAR.offset_index(0), 0);
    assert_eq!(
        <SCALAR as layout_typed::Layout>::SIZE,
        1,
        "the scalar layout has one position"
    );
    assert_eq!(format!("{SCALAR:#}"), "():()");
    assert_eq!(format!("{SEED_SCALAR}"), "():()");
    let offsets: Vec<i64> = (0..4).map(|i| WITH_SCALAR.offset_index(i)).collect();
    assert_eq!(offsets, [0, 3, 6, 9]);
    assert_eq!(format!("{WITH_SCALAR:#}"), "((),4):((),3)");
}

/// The tiler of no modes reads as `()` and `<>`, and prints as `<>`, which reads back.
#[test]
fn the_empty_tiler_reads_back() {
    let t: layout_core::cute::Tiler = "()".parse().expect("the scalar tiler");
    assert_eq!(t, layout_core::cute::Tiler::Modes(Vec::new()));
    let printed = t.to_string();
    assert_eq!(printed, "<>");
    assert_eq!(printed.parse::<layout_core::cute::Tiler>(), Ok(t));
}
