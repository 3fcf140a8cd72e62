//! Input that `layout!` handles wrongly while compiling: each valid case in `attack/` builds and
//! runs, and each invalid case in `attack_fail/` is a `layout!` error at its token, once the
//! defect it reproduces is fixed (then bless the `.stderr` snapshots).

#[test]
#[ignore = "finding: spurious compile errors for valid run-time operands (see attack/*.rs)"]
fn valid_run_time_operands_compile() {
    let t = trybuild::TestCases::new();
    t.pass("attack/*.rs");
}

#[test]
#[ignore = "finding: static rules of run-time values not refused while compiling, or with rustc's message (see attack_fail/*.rs)"]
fn static_rules_of_run_time_values_are_layout_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("attack_fail/*.rs");
}
