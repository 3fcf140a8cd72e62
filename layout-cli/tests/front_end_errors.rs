//! The command's own errors (option values, CuTe operation names and argument counts) are rules
//! of the core's table: the same rule name, the core's message (then the place in the command
//! line) and the core's help, for every option, every CuTe operation and both ends of each
//! operation's argument count.

mod common;

use layout_core::cute::{CuteOp, arity};
use layout_core::{CliOption, Error};
use serde_json::Value;

use common::layout;

/// The first error of a `--json` run that exits with status 2 (unreadable input).
fn first_error(args: &[&str]) -> Value {
    let r = layout(args);
    assert_eq!(r.status, 2, "{args:?}: {}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}{}", r.stdout, r.stderr));
    v["errors"][0].clone()
}

/// The error reported is `e` as the table words it, located at `column` when given.
fn assert_reports(args: &[&str], e: Error, column: Option<&str>) {
    let got = first_error(args);
    assert_eq!(got["rule"], e.rule(), "{args:?}");
    let message = got["message"].as_str().expect("a message");
    let want = match column {
        Some(c) => format!("{e} ({c})"),
        None => e.to_string(),
    };
    assert_eq!(message, want, "{args:?}");
    let help = e.help().map(|h| h.to_string());
    assert_eq!(got["help"].as_str(), help.as_deref(), "{args:?}");
}

#[test]
fn option_values_read_the_table() {
    let name = Error::OptionValue {
        option: CliOption::Name,
    };
    for bad in ["2x", "", "a-b", "é"] {
        assert_reports(
            &["emit", "8:1", "--name", bad, "--json"],
            name,
            Some("column 1 of --name"),
        );
    }
    let space = Error::OptionValue {
        option: CliOption::Space,
    };
    // No arrow, an unknown domain, an unknown codomain: the column of the unreadable part.
    for (bad, col) in [
        ("logical=>physical", 1),
        ("logcal->physical", 1),
        (" logical->phys", 11),
        ("logical -> phys", 12),
    ] {
        assert_reports(
            &["check", "(4,8):(8,1)", "--space", bad, "--json"],
            space,
            Some(&format!("column {col} of --space")),
        );
    }
    let tile = Error::OptionValue {
        option: CliOption::Tile,
    };
    for (bad, col) in [("4,x", 3), ("0,8", 1), ("(16, -2)", 6), ("16x", 4)] {
        assert_reports(
            &[
                "draw",
                "[(4,8):(8,1), thread-value -> logical]",
                "--tile",
                bad,
                "--json",
            ],
            tile,
            Some(&format!("column {col} of --tile")),
        );
    }
    // The literal text of one of them, so that the table's wording is pinned here too.
    assert_eq!(
        first_error(&["emit", "8:1", "--name", "2x", "--json"])["message"],
        "not a function name (column 1 of --name)"
    );
}

#[test]
fn cute_operation_names_and_argument_counts_read_the_table() {
    for (bad, closest) in [
        ("compositon", Some(CuteOp::Composition)),
        ("logical-divde", Some(CuteOp::LogicalDivide)),
        ("transpose", None),
    ] {
        let e = Error::UnknownCuteOperation { closest };
        assert_reports(
            &["cute", bad, "4:1", "--json"],
            e,
            Some("column 1 of the operation"),
        );
        let got = first_error(&["cute", bad, "4:1", "--json"]);
        assert_eq!(got["span"]["text"], bad);
    }
    let layouts = ["4:1", "4:1", "4:1", "4:1"];
    for op in CuteOp::ALL {
        let (lo, hi) = arity(op);
        for n in [lo.wrapping_sub(1), hi + 1] {
            if n > layouts.len() {
                continue;
            }
            let mut args = vec!["cute", op.name()];
            args.extend(&layouts[..n]);
            args.push("--json");
            let e = Error::CuteArguments {
                op,
                expected: lo,
                most: hi,
                found: n,
            };
            assert_reports(&args, e, None);
        }
    }
    // The wording of each form, written out.
    let message = |args: &[&str]| first_error(args)["message"].as_str().unwrap().to_string();
    assert_eq!(
        message(&["cute", "coalesce", "4:2", "(1,1)", "3", "--json"]),
        "coalesce takes 1 or 2 arguments, but 3 were given"
    );
    assert_eq!(
        message(&["cute", "complement", "4:2", "--json"]),
        "complement takes 2 arguments, but 1 was given"
    );
    assert_eq!(
        first_error(&["cute", "logical_product", "--json"])["help"],
        "write `logical_product LAYOUT TILER` (a layout, `_` or `<t0,t1,…>`)"
    );
}
