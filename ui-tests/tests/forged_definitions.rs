//! A definition written by hand in an expression (`[PATH = DEFINITION]`, as a definition macro
//! hands one on) that is not the named item's own is refused at the item's path, never
//! evaluated in its place.

#[rustversion::all(stable, since(1.95), before(1.96))]
#[test]
fn a_definition_other_than_the_items_is_refused() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui_definitions/*.rs");
}
