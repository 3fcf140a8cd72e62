//! Diagnostics of `layout!(compose(P, Q))` of two identifiers, the form `layout!`'s
//! `macro_rules!` routes past the procedural macro's first expansion. An identifier that the
//! grammar reads as no operand (`_4`, a CuTe static integer; `cute`, which starts a layout)
//! was reported by the macro with its rule ("expected a layout", at the identifier); the fast
//! rule calls it as the operand's definition macro instead, and rustc reports "cannot find
//! macro `_4` in this scope". The snapshots are the macro's own report, which
//! `layout_typed::__private::layout_impl!` (the procedural macro without the fast rule) gives
//! for the same input.

#[rustversion::all(stable, since(1.95), before(1.96))]
#[test]
#[ignore = "defect: `compose(_4, B)` and `compose(B, cute)` are reported as missing macros, not \
            with the macro's rule"]
fn fast_rule_reports_what_the_macro_reports() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui_pending/*.rs");
}
