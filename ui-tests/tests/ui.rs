//! The compile-fail suite: every rule of the `layout!` macro and of the typed API is rejected
//! with a message that names the rule and the numbers, points at the offending token and
//! suggests the fix. Snapshots depend on rustc's wording: they belong to Rust 1.95 stable, and
//! on any other compiler the suite fails (it never skips) with a message saying so; re-bless
//! with `TRYBUILD=overwrite cargo test -p layout-ui-tests`.

#[rustversion::all(stable, since(1.95), before(1.96))]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/macro/*.rs");
    t.compile_fail("ui/compose/*.rs");
    t.compile_fail("ui/view/*.rs");
    t.compile_fail("ui/tensor/*.rs");
    t.compile_fail("ui/algebra/*.rs");
    t.compile_fail("ui/runtime/*.rs");
    t.compile_fail("ui/bypass/*.rs");
    t.compile_fail("ui/operand/*.rs");
    // Built and run (`cargo build`): valid input never fails in const evaluation.
    t.pass("pass/*.rs");
}

/// On another compiler the snapshots cannot match rustc's wording, and a suite that silently
/// ran nothing would look green: fail and say what to do.
#[rustversion::not(all(stable, since(1.95), before(1.96)))]
#[test]
fn ui() {
    panic!(
        "the compile-fail snapshots (ui-tests/ui/**/*.stderr) belong to Rust 1.95 stable and this \
         compiler is another one: run the suite with 1.95 (`cargo +1.95 test -p layout-ui-tests`), \
         or move the project to this compiler and regenerate them with \
         `TRYBUILD=overwrite cargo test -p layout-ui-tests`, then review the diff and regenerate \
         docs/diagnostics.md (`UPDATE_GALLERY=1 cargo test -p layout-ui-tests --test gallery`)"
    );
}

/// Every case file has its snapshot, and there are at least 20 of them.
#[test]
fn every_case_has_a_snapshot() {
    let mut cases = 0;
    for family in [
        "macro", "compose", "view", "runtime", "algebra", "bypass", "operand",
    ] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("ui")
            .join(family);
        for entry in std::fs::read_dir(&dir).expect("ui family folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                cases += 1;
                assert!(
                    path.with_extension("stderr").exists(),
                    "{} has no .stderr",
                    path.display()
                );
            }
        }
    }
    assert!(cases >= 20, "only {cases} compile-fail cases");
}
