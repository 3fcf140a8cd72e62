//! Diagnostics of `layout!(compose(P, Q))` of two identifiers that the grammar reads as no
//! operand (`_4`, a CuTe static integer; `cute`, which starts a layout): the macro reports its
//! own rule ("expected a layout", at the identifier). A shortcut that fetched both operands'
//! definitions without the macro's first expansion called them as definition macros instead,
//! and rustc reported "cannot find macro `_4` in this scope"; these snapshots keep the macro's
//! report.

#[rustversion::all(stable, since(1.95), before(1.96))]
#[test]
fn identifiers_that_are_no_operand_get_the_macros_rule() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui_operands/*.rs");
}
