//! A string literal is read as a declaration's text only where a definition macro hands one on,
//! `[PATH = "TEXT"]` (the whole bracket a path, `=` and the literal). Anywhere else it stays a
//! literal, which the grammar refuses at its token: `index = "u32"` in a literal operand is no
//! index type.

#[rustversion::all(stable, since(1.95), before(1.96))]
#[test]
fn string_literals_outside_a_definition_stay_literals() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui_literals/*.rs");
}
