//! The compile-fail suite: every rule of the `layout!` macro and of the typed API is rejected
//! with a message that names the rule and the numbers, points at the offending token and
//! suggests the fix. Snapshots depend on rustc's wording, so the runner is gated on the
//! compiler version; re-bless with `TRYBUILD=overwrite cargo test -p layout-ui-tests`.

#[rustversion::all(stable, since(1.95), before(1.96))]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/macro/*.rs");
    t.compile_fail("ui/compose/*.rs");
    t.compile_fail("ui/view/*.rs");
    t.compile_fail("ui/algebra/*.rs");
    t.compile_fail("ui/runtime/*.rs");
    t.compile_fail("ui/bypass/*.rs");
    // Built and run (`cargo build`): valid input never fails in const evaluation.
    t.pass("pass/*.rs");
}

/// Every case file has its snapshot, and there are at least 20 of them.
#[test]
fn every_case_has_a_snapshot() {
    let mut cases = 0;
    for family in ["macro", "compose", "view", "runtime", "algebra", "bypass"] {
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
