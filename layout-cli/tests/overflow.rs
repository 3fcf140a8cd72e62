//! The `layout` binary on sizes and strides near the ends of `i64`: every command exits with a
//! status (spec: Machine-readable output) (0, 1 or 2) and a one-line error, never a panic; where a value is
//! defined (`eval`'s offsets and cosize) it is checked against values computed here in i128.

mod common;

use common::layout;

const P62: i64 = 1 << 62;

fn extreme_layouts() -> Vec<String> {
    let (max, min) = (i64::MAX, i64::MIN);
    vec![
        format!("2:{max}"),
        format!("2:-{max}"),
        format!("2:{min}"),
        format!("(2,2):({P62},1)"),
        format!("(2,2,3):({P62},-{},1)", P62 - 1),
        format!("(3,3):({P62},1)"),
        format!("({P62},2):(1,{P62})"),
        "(2147483648,4294967296):(4294967296,1)".into(),
        format!("{max}:1"),
        format!("(2,2):({min},{max})"),
        format!("(4,{}):({},1)", P62 / 4, P62 / 4),
    ]
}

fn assert_clean(args: &[&str]) -> common::Run {
    let r = layout(args);
    assert!(matches!(r.status, 0..=2), "{args:?}: status {}", r.status);
    assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
    if r.status == 2 {
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
    }
    r
}

#[test]
fn every_command_survives_extreme_layouts() {
    for l in extreme_layouts() {
        let l = l.as_str();
        let phys = format!("[{l}, logical -> physical]");
        for args in [
            vec!["check", l],
            vec!["check", l, "--json"],
            vec!["check", l, "--space", "logical->logical"],
            vec!["eval", l, "--json"],
            vec!["explain", l],
            vec!["emit", l, "--index", "i32"],
            vec!["emit", l, "--lang", "c"],
            vec!["draw", l, "--text"],
            vec!["draw", l, "--text", "--tile", "4294967296,4294967296"],
            vec!["conflicts", l, "--tv", l],
            vec!["cute", "coalesce", l],
            vec!["cute", "complement", l, "9223372036854775807"],
            vec!["cute", "right_inverse", l],
            vec!["cute", "composition", l, l],
        ] {
            assert_clean(&args);
        }
        for e in [
            format!("divide({phys}, (2))"),
            format!("swizzle({phys}, b = 3, src = 59, dst = 0)"),
            format!("restrict({phys}, 0 = 1)"),
            format!("repeat({l}, {l})"),
            format!("inverse({l})"),
            format!("broadcast({l}, 9223372036854775807)"),
        ] {
            assert_clean(&["explain", &e]);
            assert_clean(&["emit", &e]);
        }
    }
}

/// `eval` prints every offset and `explain` the cosize: for a layout reaching i64::MAX the
/// cosize is 2^63, which does not fit i64 but is printed exactly.
#[test]
fn offsets_and_cosize_at_the_top_of_the_range() {
    let l = format!("2:{}", i64::MAX);
    let r = assert_clean(&["eval", &l]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stdout.contains(&i64::MAX.to_string()), "{}", r.stdout);
    let r = assert_clean(&["explain", &l]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let cosize = (i128::from(i64::MAX) + 1).to_string();
    assert!(r.stdout.contains(&cosize), "{}", r.stdout);
}
