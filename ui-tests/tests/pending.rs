//! Valid programs that do not compile yet (known bugs, each named in its `ignore` reason): built
//! and run by trybuild like the `pass/` cases. Run with `cargo test -p layout-ui-tests --test
//! pending -- --ignored`; a case that passes belongs in `pass/`.

#[rustversion::all(stable, since(1.95), before(1.96))]
#[test]
#[ignore = "bug: `r.offset(i)` on a `&Static` is ambiguous (E0034) with `Layout` and a user's trait with `offset(&self)` in scope, since the inherent `offset` takes `self`"]
fn offset_through_a_reference_with_two_traits() {
    let t = trybuild::TestCases::new();
    t.pass("pending/offset_through_a_reference_with_two_traits.rs");
}

#[rustversion::all(stable, since(1.95), before(1.96))]
#[test]
#[ignore = "bug: a string literal after `=` inside any bracketed group is read back as text, so `index = \"u32\"` in a literal operand is accepted as `index = u32` (the snapshot is the rejection before the change)"]
fn string_literal_outside_a_definition() {
    let t = trybuild::TestCases::new();
    t.compile_fail("pending/string_literal_index_type.rs");
}

#[rustversion::all(stable, since(1.95), before(1.96))]
#[test]
#[ignore = "bug: one file of `pub` items `include!`d in two modules: the exported definition macros' names collide (E0428), their hash inputs being equal"]
fn items_included_twice() {
    let t = trybuild::TestCases::new();
    t.pass("pending/include_twice.rs");
}
