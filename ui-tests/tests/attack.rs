//! Valid input that `layout!` refuses while compiling: each case in `attack/` builds and runs
//! once the defect it reproduces is fixed.

#[test]
#[ignore = "finding: spurious compile errors for valid run-time operands (see attack/*.rs)"]
fn valid_run_time_operands_compile() {
    let t = trybuild::TestCases::new();
    t.pass("attack/*.rs");
}
