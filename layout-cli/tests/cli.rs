//! The `layout` binary end to end: values of every `--json` field (spec: Machine-readable output), exit statuses,
//! one-line errors with columns, SVG snapshots that parse as XML.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::path::PathBuf;

use serde_json::Value;

mod common;
use common::layout;

fn json(args: &[&str]) -> (i32, Value) {
    let r = layout(args);
    let v = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}{}", r.stdout, r.stderr));
    assert!(r.stderr.is_empty(), "{args:?}: stderr {}", r.stderr);
    (r.status, v)
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_i64().expect("an integer"))
        .collect()
}

/// The object's field names, sorted (the binary prints the documented order; a parsed map sorts; spec: Machine-readable output).
fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

fn assert_fields(v: &Value, expected: &[&str]) {
    let mut e = expected.to_vec();
    e.sort_unstable();
    assert_eq!(keys(v), e);
}

/// The one error line of a failed command.
fn error_line(args: &[&str], status: i32) -> String {
    let r = layout(args);
    assert_eq!(r.status, status, "{args:?}: {}{}", r.stdout, r.stderr);
    assert!(r.stdout.is_empty(), "{args:?}: stdout {}", r.stdout);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {}", r.stderr);
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    lines[0].to_string()
}

// ---------------------------------------------------------------------------------------------
// check

#[test]
fn check_json_fields_and_values() {
    let (status, v) = json(&[
        "check",
        "(16,32):(32,1)",
        "--space",
        "logical->physical",
        "--json",
    ]);
    assert_eq!(status, 0);
    assert_fields(
        &v,
        &[
            "ok",
            "layout",
            "cute",
            "space",
            "size",
            "cosize",
            "dense_bijection",
            "alias_free",
            "broadcast",
            "errors",
        ],
    );
    assert_eq!(v["ok"], true);
    assert_eq!(v["layout"], "(16,32):(32,1)");
    assert_eq!(v["cute"], "(32,16):(1,32)");
    assert_eq!(v["space"], "logical->physical");
    assert_eq!(
        (v["size"].as_i64(), v["cosize"].as_i64()),
        (Some(512), Some(512))
    );
    assert_eq!(v["dense_bijection"], true);
    assert_eq!(v["alias_free"], true);
    assert_eq!(v["broadcast"], false);
    assert_eq!(v["errors"], Value::Array(vec![]));

    // Padded rows: alias-free, not dense; as a thread-value -> logical layout it fails Lemma 1.
    let (status, v) = json(&["check", "(4,8):(9,1)", "--json"]);
    assert_eq!(
        (status, &v["ok"], v["cosize"].as_i64()),
        (0, &Value::Bool(true), Some(35))
    );
    assert_eq!(
        (&v["dense_bijection"], &v["alias_free"]),
        (&Value::Bool(false), &Value::Bool(true))
    );
    let (status, v) = json(&["check", "(4,8):(9,1)", "--space", "tv->logical", "--json"]);
    assert_eq!(status, 1);
    assert_eq!(v["ok"], false);
    assert_eq!(v["space"], "thread-value->logical");
    let e = &v["errors"][0];
    assert_eq!(e["rule"], "not-dense");
    assert_eq!(ints(&e["mode"]), [0]);
    assert_eq!(
        e["message"],
        "not a dense bijection (Lemma 1): sorted by stride, mode 0 should have stride 8 but has 9 (column 8)"
    );
    assert!(e["help"].as_str().unwrap().starts_with("stride 8 here"));
}

#[test]
fn check_aliasing_broadcast_and_cute() {
    let (status, v) = json(&["check", "(4,8):(4,1)", "--json"]);
    assert_eq!(status, 1);
    assert_eq!(
        (&v["alias_free"], v["cosize"].as_i64()),
        (&Value::Bool(false), Some(20))
    );
    assert_eq!(v["errors"][0]["rule"], "aliasing");
    assert_eq!(
        v["errors"][0]["message"],
        "not alias-free: flat indices 4 and 8 both reach offset 4 (mode 1 and mode 0 collide) (column 10)"
    );

    let (status, v) = json(&["check", "(4,2):(_,1)", "--json"]);
    assert_eq!(
        (status, &v["broadcast"], &v["ok"]),
        (0, &Value::Bool(true), &Value::Bool(true))
    );
    assert_eq!(
        (v["layout"].as_str(), v["cute"].as_str()),
        (Some("(4,2):(_,1)"), Some("(2,4):(1,0)"))
    );

    // CuTe order: the SM80 C fragment, and the same with a corrupted stride.
    let sm80 = "((4,8),(2,2)):((32,1),(16,8))";
    let (status, v) = json(&[
        "check",
        "--cute",
        sm80,
        "--space",
        "thread-value->logical",
        "--json",
    ]);
    assert_eq!(status, 0);
    assert_eq!(
        (v["layout"].as_str(), v["cute"].as_str()),
        (Some(sm80), Some(sm80))
    );
    assert_eq!(
        (v["size"].as_i64(), v["dense_bijection"].as_bool()),
        (Some(128), Some(true))
    );
    let bad = "((4,8),(2,2)):((32,1),(12,8))";
    let (status, v) = json(&["check", "--cute", bad, "--space", "tv->logical", "--json"]);
    assert_eq!(status, 1);
    // The mode path and column are CuTe's: value mode, first leaf, the `12`.
    assert_eq!(ints(&v["errors"][0]["mode"]), [1, 0]);
    assert_eq!(
        v["errors"][0]["message"],
        "not a dense bijection (Lemma 1): sorted by stride, mode (1,0) should have stride 16 but has 12 (column 24)"
    );
}

#[test]
fn check_collects_every_error() {
    // Two zero strides and a forbidden annotation, all reported, each with its column.
    let (status, v) = json(&[
        "check",
        "(4,(8,2)):(0,(0,1))",
        "--space",
        "physical->logical",
        "--json",
    ]);
    assert_eq!(status, 1);
    let errors = v["errors"].as_array().unwrap();
    let rules: Vec<&str> = errors.iter().map(|e| e["rule"].as_str().unwrap()).collect();
    assert_eq!(rules, ["forbidden-spaces", "zero-stride", "zero-stride"]);
    assert_eq!(
        errors[1]["message"],
        "zero stride in mode 0 of size 4 (column 12)"
    );
    assert_eq!(
        errors[2]["message"],
        "zero stride in mode (1,0) of size 8 (column 15)"
    );
    assert_eq!(ints(&errors[2]["mode"]), [1, 0]);
    assert_eq!(
        (v["layout"].as_str(), v["cosize"].is_null()),
        (Some("(4,(8,2)):(0,(0,1))"), true)
    );
}

#[test]
fn check_text_verdict() {
    let r = layout(&["check", "(4,8):(4,1)"]);
    assert_eq!(r.status, 1);
    assert!(
        r.stdout.contains("error    [aliasing] not alias-free"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("help     make each stride exceed"),
        "{}",
        r.stdout
    );
    let r = layout(&["check", "(16,32):(32,1)"]);
    assert_eq!(r.status, 0);
    assert!(
        r.stdout
            .contains("ok       alias-free: a valid `logical -> physical` layout")
    );
}

// ---------------------------------------------------------------------------------------------
// eval

#[test]
fn eval_offsets_in_both_notations() {
    let (status, v) = json(&["eval", "(2,3):(3,1)", "--json"]);
    assert_eq!(status, 0);
    assert_fields(&v, &["layout", "size", "offsets"]);
    assert_eq!(v["layout"], "(2,3):(3,1)");
    assert_eq!(v["size"], 6);
    assert_eq!(ints(&v["offsets"]), [0, 1, 2, 3, 4, 5]);
    // CuTe (2,3):(3,1) is seed (3,2):(1,3): first mode fastest.
    let (_, v) = json(&["eval", "--cute", "(2,3):(3,1)", "--json"]);
    assert_eq!(v["layout"], "(2,3):(3,1)");
    assert_eq!(ints(&v["offsets"]), [0, 3, 1, 4, 2, 5]);
    let r = layout(&["eval", "(2,3):(3,1)"]);
    assert!(
        r.stdout
            .contains("    4  (1,1)            (1,1)            4"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("    5  (1,2)            (2,1)            5"),
        "{}",
        r.stdout
    );
}

#[test]
fn eval_matches_every_corpus_layout() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/cute_corpus.json");
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut n = 0;
    for c in corpus
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["op"] == "layout_eval")
    {
        let text = c["inputs"]["layout"].as_str().unwrap();
        let (status, v) = json(&["eval", "--cute", text, "--json"]);
        assert_eq!(status, 0, "{text}");
        assert_eq!(v["offsets"], c["expected"]["offsets"], "{text}");
        assert_eq!(
            v["size"].as_i64(),
            Some(ints(&c["expected"]["offsets"]).len() as i64)
        );
        n += 1;
    }
    assert!(n >= 20, "{n} cases");
}

// ---------------------------------------------------------------------------------------------
// explain

#[test]
fn explain_cute_composition() {
    // (spec: Reference results): CuTe's documented composition, decided to a layout; both forms cost 2.
    let expr =
        "compose([(2,6):(2,8), logical -> physical], [(3,4):(1,3), thread-value -> logical])";
    let (status, v) = json(&["explain", expr, "--json"]);
    assert_eq!(status, 0);
    assert_fields(
        &v,
        &[
            "result",
            "cute",
            "is_layout",
            "coarsest",
            "reason",
            "emitted",
            "cost",
            "written_cost",
            "size",
            "values",
            "errors",
        ],
    );
    assert_eq!(v["result"], "(3,(2,2)):(8,(2,24))");
    assert_eq!(v["cute"], "((2,2),3):((24,2),8)");
    assert_eq!(v["is_layout"], true);
    assert_eq!(v["coarsest"], "(3,(2,2)):(8,(2,24))");
    assert!(v["reason"].is_null());
    assert_eq!(v["emitted"], "result = 8*c0 + 2*(c1 // 2) + 24*(c1 % 2)");
    assert_eq!(
        (v["cost"].as_i64(), v["written_cost"].as_i64()),
        (Some(2), Some(2))
    );
    assert_eq!(v["size"], 12);
    assert_eq!(
        ints(&v["values"]),
        [0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42]
    );
    // The same in CuTe order, and with the default spaces of bare operands.
    let (_, c) = json(&[
        "explain",
        "--cute",
        "compose((6,2):(8,2), (4,3):(3,1))",
        "--json",
    ]);
    assert_eq!(
        (c["result"].as_str(), c["cute"].as_str()),
        (Some("((2,2),3):((24,2),8)"), Some("((2,2),3):((24,2),8)"))
    );
    assert_eq!(c["values"], v["values"]);
    let (_, b) = json(&["explain", "compose((2,6):(2,8), (3,4):(1,3))", "--json"]);
    assert_eq!(b["values"], v["values"]);
}

#[test]
fn explain_seed_restrictions_and_non_layouts() {
    // (spec: Restriction): 3 - b, and 64 + r + 8·v.
    let (_, v) = json(&[
        "explain",
        "restrict(swizzle([(2,2):(2,1), logical -> physical], b = 1, src = 1, dst = 0), 0 = 1)",
        "--json",
    ]);
    assert_eq!(
        (v["is_layout"].as_bool(), v["result"].is_null()),
        (Some(true), true)
    );
    assert_eq!(v["emitted"], "result = 3 - c0");
    assert_eq!(v["coarsest"], "2:-1");
    assert_eq!(ints(&v["values"]), [3, 2]);
    assert_eq!(v["cost"], 0);
    let (_, v) = json(&["explain", "restrict((4,8,4):(32,1,8), 0 = 2)", "--json"]);
    assert_eq!(v["emitted"], "result = 64 + c0 + 8*c1");
    assert_eq!(v["size"], 32);
    assert_eq!(ints(&v["values"])[..5], [64, 72, 80, 88, 65]);
    // By name, on a composite: thread 5 reads offsets 20..24.
    let (_, v) = json(&[
        "explain",
        "restrict(compose((16,32):(32,1), (thread: 128, value: 4):(4,1)), thread = 5)",
        "--json",
    ]);
    assert_eq!(ints(&v["values"]), [20, 21, 22, 23]);
    // A swizzle that mixes two coordinates is not a layout: the XOR is emitted as written.
    let (_, v) = json(&[
        "explain",
        "swizzle((2,2):(2,1), b = 1, src = 1, dst = 0)",
        "--json",
    ]);
    assert_eq!(
        (
            v["is_layout"].as_bool(),
            v["result"].is_null(),
            v["coarsest"].is_null()
        ),
        (Some(false), true, true)
    );
    assert_eq!(
        v["reason"],
        "Theorem 1: not separable at the coordinate [1, 1], where f(c) differs from the sum of f along each coordinate"
    );
    assert_eq!(
        v["emitted"],
        "t0 = 2*c0 + c1\nresult = (t0 ^ (((t0 >> 1) & 1) << 0))"
    );
    assert_eq!(ints(&v["values"]), [0, 1, 3, 2]);
}

#[test]
fn explain_operations() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "divide((8,6):(6,1), (2,3))",
            "(tile:(2,3),rest:(4,2)):((6,1),(12,3))",
            "((2,4),(3,2)):((3,12),(1,6))",
        ),
        (
            "divide_modes((8,6):(6,1), (2,3))",
            "((4,2),(2,3)):((12,6),(3,1))",
            "((3,2),(2,4)):((1,3),(6,12))",
        ),
        (
            "repeat((2,3):(4,1), (3):(1))",
            "(3,(2,3)):(7,(4,1))",
            "((3,2),3):((1,4),7)",
        ),
        (
            "interleave((2,3):(3,1), (2):(1))",
            "((2,3),2):((6,2),1)",
            "(2,(3,2)):(1,(2,6))",
        ),
        (
            "broadcast((2,3):(3,1), (4))",
            "(4,(2,3)):(_,(3,1))",
            "((3,2),4):((1,3),0)",
        ),
        ("inverse((4,8):(1,4))", "(8,4):(1,8)", "(4,8):(8,1)"),
        (
            "inverse([(thread: 32, value: 4):(1, 32), thread-value -> logical])",
            "(value:4,thread:32):(1,4)",
            "(32,4):(4,1)",
        ),
    ];
    for (expr, seed, cute) in cases {
        let (status, v) = json(&["explain", expr, "--json"]);
        assert_eq!(status, 0, "{expr}");
        assert_eq!(
            (v["result"].as_str(), v["cute"].as_str()),
            (Some(*seed), Some(*cute)),
            "{expr}"
        );
        assert_eq!(v["is_layout"], true, "{expr}");
    }
    // Under --cute, tiles and restrict positions count in CuTe order too: entry 0 is CuTe's
    // first (fastest) mode.
    let (_, v) = json(&[
        "explain",
        "--cute",
        "restrict((8,4,4):(1,32,8), 0 = 2)",
        "--json",
    ]);
    assert_eq!(ints(&v["values"])[..5], [2, 34, 66, 98, 10]);
    let (_, v) = json(&["explain", "--cute", "divide((6,8):(1,6), (3,2))", "--json"]);
    // This crate's divide, printed in CuTe order (CuTe's zipped_divide has the groups swapped).
    assert_eq!(v["result"], "((2,4),(3,2)):((3,12),(1,6))");
    let line = error_line(
        &[
            "explain",
            &format!("{}8:1{}", "inverse(".repeat(80), ")".repeat(80)),
        ],
        2,
    );
    // 64 nested operations are read (as in `layout!`); the 65th `inverse(` is too deep.
    assert!(
        line.starts_with("error: operations nest deeper than 64 levels (column 521)"),
        "{line}"
    );
    let (_, v) = json(&["explain", "divide((8,6):(6,1), (2,3))", "--json"]);
    // divide(L, S)(t, r) = L(r·k + t): flat index 1 is tile 0, rest (0,1) = offset 3.
    assert_eq!(ints(&v["values"])[..4], [0, 3, 12, 15]);
}

/// `group`, `flatten`, `select`, `permute` and `coalesce`: the result in both notations and the
/// value at every flat index, against the layout's values enumerated here (select fixes the other
/// modes at 0); CuTe order for indices under `--cute`; errors at the index that causes them.
#[test]
fn explain_regroupings() {
    // (2,3,4):(1,8,2) at (a, b, c) is a + 8b + 2c.
    let l = |a: i64, b: i64, c: i64| a + 8 * b + 2 * c;
    let all: Vec<i64> = (0..24).map(|i| l(i / 12, i / 4 % 3, i % 4)).collect();
    let cases: Vec<(&str, &str, &str, Vec<i64>)> = vec![
        (
            "group((2,3,4):(1,8,2), 1, 3)",
            "(2,(3,4)):(1,(8,2))",
            "((4,3),2):((2,8),1)",
            all.clone(),
        ),
        (
            "flatten(((2,3),4):((1,8),2))",
            "(2,3,4):(1,8,2)",
            "(4,3,2):(2,8,1)",
            all.clone(),
        ),
        (
            "select((2,3,4):(1,8,2), (2, 0))",
            "(4,2):(2,1)",
            "(2,4):(1,2)",
            (0..8).map(|i| l(i % 2, 0, i / 2)).collect(),
        ),
        (
            "permute((2,3,4):(1,8,2), (1, 2, 0))",
            "(3,4,2):(8,2,1)",
            "(2,4,3):(1,2,8)",
            (0..24).map(|i| l(i % 2, i / 8, i / 2 % 4)).collect(),
        ),
        (
            "coalesce((2,3,4):(1,8,2))",
            "(2,12):(1,2)",
            "(12,2):(2,1)",
            all.clone(),
        ),
    ];
    for (expr, seed, cute, values) in cases {
        let (status, v) = json(&["explain", expr, "--json"]);
        assert_eq!(status, 0, "{expr}");
        assert_eq!(
            (v["result"].as_str(), v["cute"].as_str()),
            (Some(seed), Some(cute)),
            "{expr}"
        );
        assert_eq!(ints(&v["values"]), values, "{expr}");
    }
    // Under --cute, CuTe's select<0,2> and group<0,2> of (4,3,2):(2,8,1).
    let (_, v) = json(&[
        "explain",
        "--cute",
        "select((4,3,2):(2,8,1), (0, 2))",
        "--json",
    ]);
    assert_eq!(v["result"], "(4,2):(2,1)");
    let (_, v) = json(&[
        "explain",
        "--cute",
        "group((4,3,2):(2,8,1), 0, 2)",
        "--json",
    ]);
    assert_eq!(v["result"], "((4,3),2):((2,8),1)");
    let line = error_line(&["explain", "permute((2,3,4):(1,8,2), (2, 0, 2))"], 1);
    assert!(
        line.starts_with("error: mode 2 is listed twice (column 33)"),
        "{line}"
    );
    let line = error_line(&["explain", "group((2,3,4):(1,8,2), 1, 4)"], 1);
    assert!(
        line.starts_with(
            "error: group: [1, 4) is not a non-empty range of the layout's 3 top-level modes (column 27)"
        ),
        "{line}"
    );
}

// ---------------------------------------------------------------------------------------------
// emit

#[test]
fn emit_languages_and_index_types() {
    let expr =
        "compose([(2,6):(2,8), logical -> physical], [(3,4):(1,3), thread-value -> logical])";
    let r = layout(&[
        "emit", expr, "--lang", "rust", "--index", "i32", "--name", "addr",
    ]);
    assert_eq!(r.status, 0);
    assert_eq!(
        r.stdout,
        "#[inline(always)]\n#[allow(unused_parens, clippy::all)]\npub fn addr(c0: i32, c1: i32) -> i32 {\n    8*c0 + 2*(c1 / 2) + 24*(c1 % 2)\n}\n"
    );
    let r = layout(&[
        "emit", expr, "--lang", "c", "--index", "u32", "--name", "addr",
    ]);
    assert_eq!(
        r.stdout,
        "static inline uint32_t addr(uint32_t c0, uint32_t c1) {\n    return ((uint32_t)8)*c0 + ((uint32_t)2)*(c1 / 2) + ((uint32_t)24)*(c1 % 2);\n}\n"
    );
    // Named modes name the parameters.
    let r = layout(&[
        "emit",
        "compose((16,32):(32,1), (thread: 128, value: 4):(4,1))",
        "--lang",
        "cuda",
        "--index",
        "i32",
    ]);
    assert_eq!(
        r.stdout,
        "__host__ __device__ __forceinline__ int32_t offset(int32_t thread, int32_t value) {\n    return ((int32_t)4)*thread + value;\n}\n"
    );
    let (status, v) = json(&[
        "emit",
        "swizzle((8,64):(64,1), b = 3, src = 7, dst = 4)",
        "--index",
        "usize",
        "--json",
    ]);
    assert_eq!(status, 0);
    assert_eq!(
        (v["form"].as_str(), v["cost"].as_i64(), v["index"].as_str()),
        (Some("written"), Some(0), Some("usize"))
    );
    assert!(
        v["code"]
            .as_str()
            .unwrap()
            .contains("(t0 ^ (((t0 >> 7) & 7) << 4))")
    );
}

#[test]
fn emit_range_errors_exit_1() {
    let line = error_line(&["emit", "(2,2):(2147483648,1)", "--index", "i32"], 1);
    assert_eq!(
        line,
        "error: offsets [0, 2147483649] do not fit the index type's range [-2147483648, 2147483647]; help: pick a wider index type, e.g. `index = i64`"
    );
    assert_eq!(
        layout(&["emit", "(2,2):(2147483648,1)", "--index", "u32"]).status,
        0
    );
    let (status, v) = json(&["emit", "(2,2):(2147483648,1)", "--index", "i32", "--json"]);
    assert_eq!(
        (status, v["errors"][0]["rule"].as_str()),
        (1, Some("index-type-range"))
    );
    assert_eq!(
        error_line(&["emit", "8:1", "--name", "2x"], 2),
        "error: not a function name (column 1 of --name); help: give --name an identifier: a letter or `_`, then letters, digits or `_`"
    );
}

/// Under `--cute`, emitted coordinates are numbered in CuTe's order (first mode first): the
/// Python rendering, per leaf and per top-level mode, at every CuTe coordinate equals the sum
/// of coordinate times stride over CuTe's own leaves (a mode's index first-leaf-fastest).
#[test]
fn cute_emits_coordinates_in_cute_order() {
    // (CuTe layout, its leaves' sizes, their strides, leaves per top-level mode)
    type Case<'a> = (&'a str, &'a [i64], &'a [i64], &'a [usize]);
    let cases: [Case<'_>; 5] = [
        ("(4,8):(8,1)", &[4, 8], &[8, 1], &[1, 1]),
        ("(4,8):(1,4)", &[4, 8], &[1, 4], &[1, 1]),
        ("(2,3,4):(12,1,3)", &[2, 3, 4], &[12, 1, 3], &[1, 1, 1]),
        ("((2,2),4):((1,8),2)", &[2, 2, 4], &[1, 8, 2], &[2, 1]),
        ("(3,(2,4)):(8,(1,24))", &[3, 2, 4], &[8, 1, 24], &[1, 2]),
    ];
    let mut script = String::new();
    let mut runs = 0;
    for (cute, sizes, strides, groups) in cases {
        for by_mode in [false, true] {
            let mut args = vec!["emit", "--cute", cute, "--lang", "python"];
            if by_mode {
                args.push("--by-mode");
            }
            let r = layout(&args);
            assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
            // Parameters: one per leaf, or one per top-level mode (sizes multiplied).
            let params: Vec<i64> = if by_mode {
                let mut out = Vec::new();
                let mut leaf = 0;
                for &g in groups {
                    out.push(sizes[leaf..leaf + g].iter().product());
                    leaf += g;
                }
                out
            } else {
                sizes.to_vec()
            };
            let names: Vec<String> = (0..params.len()).map(|i| format!("c{i}")).collect();
            script.push_str(&format!("def f{runs}({}):\n", names.join(", ")));
            for line in r.stdout.lines() {
                script.push_str(&format!("    {line}\n"));
            }
            script.push_str("    return result\n");
            // Brute force: every coordinate, each parameter split into its leaves
            // first-leaf-fastest (CuTe's colexicographic order).
            script.push_str(&format!(
                "for c in itertools.product(*[range(n) for n in {params:?}]):\n    \
                 leaves = []\n    \
                 for x, g in zip(c, {g:?}):\n        \
                 for n in {sizes:?}[len(leaves):len(leaves) + g]:\n            \
                 leaves.append(x % n); x //= n\n    \
                 want = sum(a * b for a, b in zip(leaves, {strides:?}))\n    \
                 assert f{runs}(*c) == want, ({cute:?}, {by_mode:?}, c, f{runs}(*c), want)\n",
                g = if by_mode {
                    groups.to_vec()
                } else {
                    vec![1; sizes.len()]
                },
            ));
            runs += 1;
        }
    }
    let dir = std::env::temp_dir().join(format!("layout-cute-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let file = dir.join("order.py");
    std::fs::write(&file, format!("import itertools\n{script}print('ok')\n")).expect("write");
    let out = std::process::Command::new("python3")
        .arg(&file)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}\n{script}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(runs, 10);
    // The reported example, in Rust.
    let r = layout(&["emit", "--cute", "(4,8):(8,1)", "--lang", "rust"]);
    assert!(
        r.stdout.contains("offset(c0: i64, c1: i64)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("c1 + 8*c0"), "{}", r.stdout);
    // `explain --cute --json` shows the same numbering.
    let (_, v) = json(&["explain", "--cute", "(4,8):(8,1)", "--json"]);
    assert_eq!(v["emitted"].as_str(), Some("result = c1 + 8*c0"));
}

/// A name given to two top-level modes is refused wherever a layout is read, so `restrict` by
/// name never picks one of them silently.
#[test]
fn repeated_mode_names_are_refused() {
    for args in [
        vec!["explain", "restrict((a: 2, a: 3):(3,1), a = 1)", "--json"],
        vec!["check", "(a: 2, b: 4, a: 3):(12,3,1)", "--json"],
        vec!["emit", "(a: 2, a: 3):(3,1)", "--json"],
        vec!["eval", "(a: (2,2), a: 3):((6,3),1)", "--json"],
    ] {
        let (status, v) = json(&args);
        assert_eq!(status, 1, "{args:?}: {v}");
        assert_eq!(
            v["errors"][0]["rule"].as_str(),
            Some("mode-names"),
            "{args:?}: {v}"
        );
    }
}

/// Past the enumeration limit (2^24 positions) the range check is exact for a layout or a
/// restriction of one (its extremes are at corners of the domain, computed here).
#[test]
fn emit_past_the_enumeration_limit() {
    type Case<'a> = (&'a [i64], &'a [i64], Option<(usize, i64)>);
    let cases: [Case<'_>; 7] = [
        (&[4097, 4096], &[4096, 1], None),
        (&[4096, 4096], &[4096, 1], None),
        (&[65536, 65536], &[65536, 1], None),
        (&[8192, 8192], &[-8192, 1], None),
        (&[3, 5000, 5000], &[1, 3, 15000], None),
        (&[4097, 4096, 2], &[4096, 1, 1 << 31], Some((2, 1))),
        (&[2, 4097, 4096], &[-(1 << 40), -4096, 1], Some((0, 1))),
    ];
    let types = [
        ("i32", i64::from(i32::MIN), i64::from(i32::MAX)),
        ("i64", i64::MIN, i64::MAX),
        ("u32", 0, i64::from(u32::MAX)),
        ("usize", 0, i64::MAX),
    ];
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    for (sizes, strides, fixed) in cases {
        let text = format!("({}):({})", list(sizes), list(strides));
        let expr = match fixed {
            Some((m, v)) => format!("restrict({text}, {m} = {v})"),
            None => text,
        };
        // Every corner of the free modes, the fixed mode at its value.
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for corner in 0..1u32 << sizes.len() {
            let offset: i64 = (0..sizes.len())
                .map(|m| {
                    let c = match fixed {
                        Some((f, v)) if f == m => v,
                        _ if corner >> m & 1 == 1 => sizes[m] - 1,
                        _ => 0,
                    };
                    c * strides[m]
                })
                .sum();
            lo = lo.min(offset);
            hi = hi.max(offset);
        }
        for (index, tmin, tmax) in types {
            let args = ["emit", expr.as_str(), "--index", index, "--lang", "c"];
            if lo >= tmin && hi <= tmax {
                let r = layout(&args);
                assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
                assert!(r.stdout.contains(" offset("), "{args:?}: {}", r.stdout);
            } else {
                let line = error_line(&args, 1);
                let want = format!(
                    "error: offsets [{lo}, {hi}] do not fit the index type's range [{tmin}, {tmax}]"
                );
                assert!(line.starts_with(&want), "{args:?}: {line}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// errors

#[test]
fn errors_point_at_columns() {
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["check", "(16,32):(32,1"],
            2,
            "error: expected `,` or `)` (column 14)",
        ),
        (
            &["check", "(16,32):(32;1)"],
            2,
            "error: expected `,` or `)` (column 12)",
        ),
        (
            &["eval", "(2,3):(3,x)"],
            2,
            "error: expected an integer, `_` or `(` (column 10)",
        ),
        (
            &["eval", "(2,3)"],
            2,
            "error: expected `:` between shape and stride (column 6)",
        ),
        (
            &["eval", "(_,3):(1,2)"],
            2,
            "error: expected a positive size (column 2)",
        ),
        (
            &["eval", "(2,3):(3,1) x"],
            2,
            "error: expected the end of the layout (column 13)",
        ),
        (
            &["eval", "(2,99999999999999999999):(3,1)"],
            2,
            "error: integer at column 4 does not fit in i64",
        ),
        (
            &["eval", "(2,3):(0,1)"],
            1,
            "error: zero stride in mode 0 of size 2 (column 8)",
        ),
        (
            &["eval", "(2,(3,4)):((1,2),3)"],
            1,
            "error: shape and stride differ in profile at mode 0: the shape has 1 entry there, the stride 2 (column 13)",
        ),
        (
            &["explain", "frobnicate(8:1)"],
            2,
            "error: unknown operation (column 1); help: the operations are `compose`, `divide`",
        ),
        (
            &["explain", "divide((8,6):(6,1), (3,3))"],
            1,
            "error: divide: tile entry 3 does not divide the size 8 of mode 0 (column 22)",
        ),
        (
            &["explain", "compose((4,6):(6,1), (3,4):(1,3))"],
            1,
            "error: size mismatch: right 12 vs left 24 (column 22)",
        ),
        // The right operand of `compose` is `thread-value -> logical` by default: it must be dense.
        (
            &["explain", "compose((3,4):(1,3), (2,6):(2,8))"],
            1,
            "error: not a dense bijection (Lemma 1): sorted by stride, mode 0 should have stride 1 but has 2 (column 29)",
        ),
        (
            &["explain", "restrict([(4,8):(1,4), tv -> logical], 0 = 1)"],
            1,
            "error: restriction is allowed only for maps into physical, but this map's codomain is logical (column 10)",
        ),
        (
            &["explain", "restrict((4,8):(8,1), 0 = 9)"],
            1,
            "error: coordinate 9 outside [0, 4) at mode 0 (column 23)",
        ),
        (
            &["explain", "restrict((4,8):(8,1), warp = 1)"],
            1,
            "error: restriction by a name that no top-level mode of the domain carries (column 23)",
        ),
        (
            &["explain", "[(4,8):(8,1), physical -> logical]"],
            1,
            "error: forbidden annotation `physical -> logical` (column 15)",
        ),
        (
            &["explain", "[(4,8):(8,1), logical -> phys]"],
            2,
            "error: expected a space: `logical`, `thread-value` (or `tv`) or `physical` (column 26)",
        ),
        (
            &["explain", "swizzle((4,8):(8,1), b = 2, src = 1, dst = 0)"],
            1,
            "error: swizzle fields overlap: source bits [1, 3) and destination bits [0, 2) share a bit (column 1)",
        ),
        (
            &["explain", "swizzle((4,8):(8,1), b = 2, src = 3)"],
            2,
            "error: expected all three swizzle fields `b`, `src` and `dst` (column 1)",
        ),
        (
            &["explain", "inverse((4,8):(1,8))"],
            1,
            "error: not a dense bijection (Lemma 1): sorted by stride, mode 1 should have stride 4 but has 8 (column 18)",
        ),
        (
            &["conflicts", "(32,32):(32,1)", "--tv", "(32,32):(32,1"],
            2,
            "error: expected `,` or `)` (column 14 of --tv)",
        ),
        (
            &["check", "(4,8):(8,1)", "--space", "logical=>physical"],
            2,
            "error: cannot read the spaces (column 1 of --space)",
        ),
    ];
    for (args, status, prefix) in cases {
        let line = error_line(args, *status);
        assert!(
            line.starts_with(prefix),
            "{args:?}:\n  got  {line}\n  want {prefix}"
        );
    }
}

#[test]
fn garbage_never_panics() {
    // Truncations and single-byte corruptions of valid inputs: always a one-line error or a
    // result, never a panic, and only the statuses (spec: Machine-readable output).
    let seeds = [
        "compose([(2,6):(2,8), logical -> physical], [(3,4):(1,3), thread-value -> logical])",
        "restrict(swizzle([(2,2):(2,1), logical -> physical], b = 1, src = 1, dst = 0), 0 = 1)",
        "repeat(divide((thread:8,6):(6,1), (2,3)), (3):(1))",
        "[cute (8,16):(1,64), logical -> physical, Swizzle<3,3,3> over elements]",
    ];
    let junk = [
        b'(', b')', b',', b':', b'_', b'-', b'9', b'[', b']', b'x', b' ', b'=',
    ];
    let mut inputs = Vec::new();
    for s in seeds {
        for cut in (0..s.len()).step_by(5) {
            inputs.push(s[..cut].to_string());
        }
        for (k, i) in (0..s.len()).step_by(7).enumerate() {
            let mut b = s.as_bytes().to_vec();
            b[i] = junk[k % junk.len()];
            inputs.push(String::from_utf8(b).unwrap());
        }
    }
    inputs.push("é(2,3):(3,1)".into());
    inputs.push("(2,3):(3,1)→".into());
    for input in &inputs {
        let r = layout(&["explain", input]);
        assert!(matches!(r.status, 0..=2), "{input}: status {}", r.status);
        assert!(!r.stderr.contains("panicked"), "{input}: {}", r.stderr);
        if r.status != 0 {
            assert_eq!(r.stderr.lines().count(), 1, "{input}: {}", r.stderr);
            assert!(r.stderr.starts_with("error: "), "{input}: {}", r.stderr);
        }
    }
}

#[test]
fn json_errors_of_unreadable_input() {
    let (status, v) = json(&["check", "(16,32):(32,1", "--json"]);
    assert_eq!(status, 2);
    assert_fields(&v, &["ok", "errors"]);
    assert_eq!(v["errors"][0]["rule"], "syntax");
    assert_eq!(v["errors"][0]["message"], "expected `,` or `)` (column 14)");
    let (status, v) = json(&["explain", "compose(8:1", "--json"]);
    assert_eq!((status, keys(&v)), (2, vec!["errors"]));
}

// ---------------------------------------------------------------------------------------------
// conflicts

#[test]
fn conflicts_column_read_and_swizzle() {
    let (status, v) = json(&[
        "conflicts",
        "(32,32):(32,1)",
        "--tv",
        "(32,32):(32,1)",
        "--json",
    ]);
    assert_eq!(status, 0);
    assert_eq!(
        (
            v["ways"].as_i64(),
            v["wavefronts"].as_i64(),
            v["ideal"].as_i64()
        ),
        (Some(32), Some(1024), Some(32))
    );
    assert_eq!(v["conflict_free"], false);
    let first = &v["instructions"][0];
    assert_eq!(
        (first["value"].as_i64(), first["ways"].as_i64()),
        (Some(0), Some(32))
    );
    let banks = ints(&first["phases"][0]["banks"]);
    assert_eq!((banks[0], banks[1..].iter().sum::<i64>()), (32, 0));
    for smem in [
        "[(32,32):(32,1), logical -> physical, Swizzle<5,0,5> over elements]",
        "swizzle((32,32):(32,1), b = 5, src = 5, dst = 0)",
    ] {
        let (_, v) = json(&["conflicts", smem, "--tv", "(32,32):(32,1)", "--json"]);
        assert_eq!(
            (
                v["ways"].as_i64(),
                v["wavefronts"].as_i64(),
                v["ideal"].as_i64()
            ),
            (Some(1), Some(32), Some(32)),
            "{smem}"
        );
        assert_eq!(v["conflict_free"], true);
        assert_eq!(
            ints(&v["instructions"][5]["phases"][0]["banks"]),
            vec![1; 32]
        );
    }
    let r = layout(&["conflicts", "(32,32):(32,1)", "--tv", "(32,32):(32,1)"]);
    assert!(
        r.stdout.ends_with(
            "total    32-way bank conflict: 1024 wavefronts where 32 would do (32.00x)\n"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn conflicts_ldmatrix_rows() {
    // CuTe's SM75_U32x2_LDSM_N source in 16-bit elements: 16 row addresses of 8 halves (threads
    // 16..31 repeat 0..15), over 16 rows of 128 bytes; Swizzle<3,3,3> (GMMA SW128 for half).
    let tv = "((16,2),8):((8,0),1)";
    let run = |smem: &str| {
        json(&[
            "conflicts",
            "--cute",
            smem,
            "--tv",
            tv,
            "--bits",
            "16",
            "--vector",
            "8",
            "--json",
        ])
        .1
    };
    let plain = run("(8,16):(1,64)");
    assert_eq!(
        (
            plain["ways"].as_i64(),
            plain["wavefronts"].as_i64(),
            plain["ideal"].as_i64()
        ),
        (Some(8), Some(16), Some(2))
    );
    assert_eq!(
        (
            plain["access_bytes"].as_i64(),
            plain["lanes_per_phase"].as_i64()
        ),
        (Some(16), Some(8))
    );
    let phases = plain["instructions"][0]["phases"].as_array().unwrap();
    let active: Vec<i64> = phases
        .iter()
        .map(|p| p["active"].as_i64().unwrap())
        .collect();
    assert_eq!(active, [8, 8, 0, 0]);
    let sw = run("[(8,16):(1,64), logical -> physical, Swizzle<3,3,3> over elements]");
    assert_eq!(
        (
            sw["ways"].as_i64(),
            sw["wavefronts"].as_i64(),
            sw["conflict_free"].as_bool()
        ),
        (Some(1), Some(2), Some(true))
    );
    // A vector that the layout does not keep contiguous is refused, pointing at --tv.
    let line = error_line(
        &[
            "conflicts",
            "--cute",
            "(16,8):(64,1)",
            "--tv",
            tv,
            "--bits",
            "16",
            "--vector",
            "8",
        ],
        1,
    );
    assert!(line.starts_with("error: thread 0: the vector from value 0 (offset 0) is not contiguous and aligned in memory (column 1 of --tv)"), "{line}");
}

// ---------------------------------------------------------------------------------------------
// draw

fn snapshot(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing snapshot {name}: run with UPDATE_SNAPSHOTS=1"));
    assert_eq!(
        actual, expected,
        "snapshot {name} differs (UPDATE_SNAPSHOTS=1 re-blesses)"
    );
}

fn svg_of(args: &[&str]) -> String {
    let r = layout(args);
    assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

/// Parses the SVG and returns the number of cells and their texts in document order.
fn parse_svg(svg: &str) -> (usize, Vec<String>) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let w: f64 = root.attribute("width").unwrap().parse().unwrap();
    let h: f64 = root.attribute("height").unwrap().parse().unwrap();
    assert!(w > 0.0 && h > 0.0);
    let cells = root
        .children()
        .filter(|n| n.has_tag_name("rect") && n.attribute("stroke").is_some())
        .count();
    let texts = root
        .children()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    (cells, texts)
}

#[test]
fn draw_offsets_grid() {
    let svg = svg_of(&["draw", "(4,8):(8,1)"]);
    snapshot("rowmajor_4x8.svg", &svg);
    let (cells, texts) = parse_svg(&svg);
    assert_eq!(cells, 32);
    assert_eq!(texts[0], "(4,8):(8,1)  (logical -> physical)");
    // Column labels 0..8, then per row its label and 8 offsets.
    assert_eq!(texts[1..9], ["0", "1", "2", "3", "4", "5", "6", "7"]);
    assert_eq!(texts[9..12], ["0", "0", "1"]);
    assert_eq!(texts[texts.len() - 1], "31");
    // A column-major layout: the offset at row 1, column 0 is 1.
    let (_, v) = json(&["draw", "(4,8):(1,4)", "--json"]);
    assert_eq!(
        (v["kind"].as_str(), v["rows"].as_i64(), v["cols"].as_i64()),
        (Some("values"), Some(4), Some(8))
    );
    assert_eq!(ints(&v["grid"][1])[..3], [1, 5, 9]);
}

#[test]
fn a_restriction_leaving_one_tuple_entry_has_one_entry() {
    // The free entry (3,4,5) is the domain's one entry: drawn as one row of its 60 positions,
    // and one coordinate by mode.
    let r = "restrict([(2,(3,4,5)):(60,(20,5,1)), logical -> physical], 0 = 1)";
    let (status, v) = json(&["draw", r, "--json"]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(
        (v["rows"].as_i64(), v["cols"].as_i64()),
        (Some(1), Some(60))
    );
    assert_eq!(ints(&v["grid"][0]), (60..120).collect::<Vec<i64>>());
    let out = layout(&["emit", r, "--by-mode", "--lang", "python"]);
    assert_eq!(out.stdout, "result = 60 + c0\n");
    // Two entries left: two coordinates, two columns.
    let r = "restrict([(2,(3,4),5):(60,(20,5),1), logical -> physical], 0 = 1)";
    let (_, v) = json(&["draw", r, "--json"]);
    assert_eq!(
        (v["rows"].as_i64(), v["cols"].as_i64()),
        (Some(12), Some(5))
    );
    let out = layout(&["emit", r, "--by-mode", "--lang", "python"]);
    assert_eq!(out.stdout, "result = 60 + 5*c0 + c1\n");
}

#[test]
fn draw_thread_value_tile() {
    // CuTe's SM80 16x8 C fragment, drawn as CuTe's print_latex does: row m, column n.
    let tv = "[cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8)]";
    let svg = svg_of(&["draw", "--cute", tv]);
    snapshot("sm80_c_fragment.svg", &svg);
    let (cells, texts) = parse_svg(&svg);
    assert_eq!(cells, 128);
    assert!(texts.iter().any(|t| t == "T31"));
    let (_, v) = json(&["draw", "--cute", tv, "--json"]);
    assert_eq!(
        (v["kind"].as_str(), v["rows"].as_i64(), v["cols"].as_i64()),
        (Some("thread-value"), Some(16), Some(8))
    );
    assert_eq!(ints(&v["grid"][0]), [0, 0, 1, 1, 2, 2, 3, 3]);
    assert_eq!(ints(&v["values"][0]), [0, 1, 0, 1, 0, 1, 0, 1]);
    assert_eq!(ints(&v["grid"][8]), [0, 0, 1, 1, 2, 2, 3, 3]);
    assert_eq!(ints(&v["values"][8]), [2, 3, 2, 3, 2, 3, 2, 3]);
    let r = layout(&["draw", "--cute", tv, "--text"]);
    assert!(
        r.stdout.contains(" 0  |  T0V0 |  T0V1 |  T1V0 |"),
        "{}",
        r.stdout
    );
    // Without a tile there is nothing to draw over.
    let line = error_line(&["draw", "[(128,4):(4,1), thread-value -> logical]"], 1);
    assert!(
        line.contains("a thread-value layout is drawn over its 2-D logical tile"),
        "{line}"
    );
    let (_, v) = json(&[
        "draw",
        "[(128,4):(4,1), thread-value -> logical]",
        "--tile",
        "16,32",
        "--json",
    ]);
    assert_eq!(ints(&v["grid"][0])[..5], [0, 0, 0, 0, 1]);
    assert_eq!(ints(&v["values"][0])[..5], [0, 1, 2, 3, 0]);
}

#[test]
fn draw_swizzle_before_and_after() {
    let smem = "[(8,8):(8,1), logical -> physical, Swizzle<3,0,3> over elements]";
    let svg = svg_of(&["draw", smem]);
    snapshot("swizzle_8x8.svg", &svg);
    let (cells, texts) = parse_svg(&svg);
    assert_eq!(cells, 128);
    assert!(texts.iter().any(|t| t == "after the swizzle"));
    let (_, v) = json(&["draw", smem, "--json"]);
    assert_eq!(v["kind"], "swizzle");
    assert_eq!(ints(&v["before"][1]), [8, 9, 10, 11, 12, 13, 14, 15]);
    assert_eq!(ints(&v["grid"][1]), [9, 8, 11, 10, 13, 12, 15, 14]);
    let text = layout(&["draw", smem, "--text"]).stdout;
    snapshot("swizzle_8x8.txt", &text);
}

#[test]
fn draw_writes_files() {
    let dir = std::env::temp_dir().join(format!("layout-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("grid.svg");
    let r = layout(&["draw", "(2,4):(4,1)", "-o", out.to_str().unwrap()]);
    assert_eq!((r.status, r.stdout.as_str()), (0, ""));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_eq!(parse_svg(&svg).0, 8);
    let r = layout(&[
        "draw",
        "(2,4):(4,1)",
        "-o",
        dir.join("no/such/dir.svg").to_str().unwrap(),
    ]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .starts_with("error: cannot write the output file (")
            && r.stderr.contains("no/such/dir.svg: "),
        "{}",
        r.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let line = error_line(&["draw", "(2,2,2):(4,2,1)"], 1);
    assert!(line.contains("one or two top-level modes"), "{line}");
}

/// A CuTe swizzle in an expression or a bracketed operand names its unit; over bytes it is
/// converted exactly (every byte of every element lands where CuTe's byte swizzle sends it), and
/// without a unit it is refused with both fixes.
#[test]
fn cute_swizzles_name_their_unit() {
    // CuTe's Swizzle<3,4,3> on a byte address, written out.
    let byte_swizzle = |x: i64| x ^ (((x >> 7) & 7) << 4);
    for (bits, per_row) in [(16i64, 64i64), (32, 32), (8, 128)] {
        let w = bits / 8;
        for expr in [
            format!(
                "[(8,{per_row}):({per_row},1), logical -> physical, Swizzle<3,4,3> over bytes of {bits}-bit elements]"
            ),
            format!(
                "swizzle((8,{per_row}):({per_row},1), Swizzle<3,4,3> over bytes of {bits}-bit elements)"
            ),
        ] {
            let (status, v) = json(&["explain", &expr, "--json"]);
            assert_eq!(status, 0, "{expr}: {v}");
            let values = ints(&v["values"]);
            assert_eq!(values.len() as i64, 8 * per_row);
            for (e, &got) in values.iter().enumerate() {
                let e = e as i64;
                for j in 0..w {
                    assert_eq!(
                        got * w + j,
                        byte_swizzle(e * w + j),
                        "{expr} at {e}, byte {j}"
                    );
                }
            }
        }
    }
    let line = error_line(
        &[
            "explain",
            "[(8,64):(64,1), logical -> physical, Swizzle<3,4,3>]",
        ],
        2,
    );
    assert!(
        line.contains("`over elements` or `over bytes of N-bit elements`"),
        "{line}"
    );
    assert!(
        line.contains("`Swizzle<3,4,3> over bytes of 16-bit elements`"),
        "{line}"
    );
    assert!(line.contains("`Swizzle<3,3,3> over elements`"), "{line}");
    let line = error_line(
        &[
            "explain",
            "swizzle((8,8):(8,1), Swizzle<1,2,3> over bytes of 64-bit elements)",
        ],
        1,
    );
    assert!(
        line.contains("[swizzle-unit]") || line.contains("moves bytes inside an element"),
        "{line}"
    );
}

#[test]
fn the_scalar_layout_reads_in_both_orders() {
    for flags in [&[][..], &["--cute"][..]] {
        let mut args = vec!["eval", "():()"];
        args.extend_from_slice(flags);
        args.push("--json");
        let (status, v) = json(&args);
        assert_eq!(status, 0, "{v}");
        assert_eq!(v["layout"], "():()");
        assert_eq!(ints(&v["offsets"]), [0]);
    }
    let (status, v) = json(&["check", "():()", "--space", "logical->physical", "--json"]);
    assert_eq!((status, v["ok"].as_bool()), (0, Some(true)), "{v}");
    assert_eq!(
        (v["size"].as_i64(), v["cosize"].as_i64()),
        (Some(1), Some(1))
    );
}

/// A layout printed in seed notation (`((2,2),8):((1,2),4)`, `_` strides) evaluated at every
/// flat index by enumeration (last leaf fastest).
fn printed_layout_values(text: &str) -> Vec<i64> {
    let (shape, stride) = text.split_once(':').expect("shape:stride");
    let leaves = |t: &str| -> Vec<i64> {
        t.split(|c: char| "(),".contains(c))
            .filter(|x| !x.is_empty())
            .map(|x| {
                if x == "_" {
                    0
                } else {
                    x.parse().expect("an integer")
                }
            })
            .collect()
    };
    let (n, d) = (leaves(shape), leaves(stride));
    assert_eq!(n.len(), d.len(), "{text}");
    let size: i64 = n.iter().product();
    (0..size)
        .map(|mut i| {
            let mut off = 0;
            for (n, d) in n.iter().zip(&d).rev() {
                off += (i % n) * d;
                i /= n;
            }
            off
        })
        .collect()
}

#[test]
fn explain_result_agrees_with_theorem_1_on_nested_composites() {
    // Left- and right-nested composites, decided per leaf and per top-level mode: the result
    // line exists exactly when Theorem 1 says "layout", and it is the map itself.
    let storage = ["(4,8):(8,1)", "32:1", "(2,16):(16,1)"];
    let middle = [
        "[(8,4):(4,1), logical -> logical]",
        "[(2,2,8):(1,2,4), logical -> logical]",
        "[(4,8):(8,1), logical -> logical]",
    ];
    let right = [
        "[((2,2),8):((1,2),4), tv -> logical]",
        "[(thread: 4, value: 8):(8,1), tv -> logical]",
        "[(2,(4,4)):(16,(1,4)), tv -> logical]",
    ];
    let mut checked = 0;
    for l in storage {
        for m in middle {
            for r in right {
                for e in [
                    format!("compose({l}, compose({m}, {r}))"),
                    format!("compose(compose({l}, {m}), {r})"),
                ] {
                    for by_mode in [false, true] {
                        let mut args = vec!["explain", e.as_str(), "--json"];
                        if by_mode {
                            args.push("--by-mode");
                        }
                        let (status, v) = json(&args);
                        assert_eq!(status, 0, "{e}");
                        let is_layout = v["is_layout"].as_bool().expect("bool");
                        assert_eq!(v["result"].is_string(), is_layout, "{e} {by_mode}");
                        if let Some(result) = v["result"].as_str() {
                            assert_eq!(printed_layout_values(result), ints(&v["values"]), "{e}");
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 3 * 3 * 3 * 2 * 2);
}

#[test]
fn definitions_name_operands_as_in_the_macro() {
    // `--def` gives the operands of `layout!`'s algebra; every path form is a key.
    let defs = [
        "--def",
        "crate::smem::SMEM = (16,32):(32,1), logical(16,32) -> physical",
        "--def",
        "TV = (thread: 128, value: 4):(4,1), thread-value -> logical",
    ];
    let mut args = vec!["explain", "compose(crate::smem::SMEM, TV)", "--json"];
    args.extend(defs);
    let (status, v) = json(&args);
    assert_eq!(status, 0);
    let literal = "compose([(16,32):(32,1), logical(16,32) -> physical], [(thread: 128, value: 4):(4,1), thread-value -> logical])";
    let (_, w) = json(&["explain", literal, "--json"]);
    assert_eq!(v["values"], w["values"]);
    assert_eq!(ints(&v["values"])[..3], [0, 1, 2]);
    // An unknown operand, at its last segment; a definition's error in its own argument.
    let line = error_line(&["explain", "compose(crate::other::SMEM, TV)"], 1);
    assert!(
        line.starts_with("error: unknown layout: no definition of this name (column 23)"),
        "{line}"
    );
    let line = error_line(
        &[
            "explain",
            "A",
            "--def",
            "A = (4,8):(0,1), logical -> physical",
        ],
        1,
    );
    assert!(
        line.starts_with("error: zero stride in mode 0 of size 4 (column 12 of --def)"),
        "{line}"
    );
    // Run-time values exist only in `layout!`.
    let line = error_line(
        &[
            "explain",
            "restrict((thread: 4, value: 8):(8,1), thread = t)",
        ],
        1,
    );
    assert!(
        line.starts_with("error: a run-time value is not allowed here (column 48)"),
        "{line}"
    );
}

#[test]
fn cute_order_divide_errors_number_modes_in_cute_order() {
    // CuTe (6,8):(1,6) is seed (8,6):(6,1); its CuTe mode 0 (size 6) is not divided by 4.
    let (status, v) = json(&["explain", "--cute", "divide((6,8):(1,6), (4,4))", "--json"]);
    assert_eq!(status, 1);
    let e = &v["errors"][0];
    assert_eq!(e["rule"], "not-divisible");
    assert_eq!(e["mode"], serde_json::json!([0]));
    let message = e["message"].as_str().expect("message");
    assert!(
        message
            .starts_with("divide: tile entry 4 does not divide the size 6 of mode 0 (column 22)"),
        "{message}"
    );
    // The same layout in seed order: mode 1.
    let (_, v) = json(&["explain", "divide((8,6):(6,1), (4,4))", "--json"]);
    assert_eq!(v["errors"][0]["mode"], serde_json::json!([1]));
}

#[test]
fn the_cli_reads_what_the_macro_reads() {
    // A coordinate as a `restrict` value: entry 1 of shape (2,4) at (1,3), whose stride part
    // is 1·4 + 3·1; entry 0 (stride 8) stays free.
    let (status, v) = json(&[
        "explain",
        "restrict((4,(2,4)):(8,(4,1)), 1 = (1,3))",
        "--json",
    ]);
    assert_eq!(status, 0);
    let want: Vec<i64> = (0..4).map(|i| 8 * i + 4 + 3).collect();
    assert_eq!(ints(&v["values"]), want);
    // CuTe's static integers `_N` in CuTe order.
    for args in [
        &[
            "check",
            "--cute",
            "(_4,_8):(_1,_4)",
            "--space",
            "tv->logical",
        ][..],
        &["check", "cute (_4,_8):(_1,_4)", "--space", "tv->logical"][..],
    ] {
        let r = layout(args);
        assert_eq!(r.status, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    }
    // Tile shapes go through the operations (`divide` of a tile equal to its sizes).
    let r = layout(&[
        "explain",
        "divide([(8,8):(8,1), logical(8,8) -> physical], (4,2))",
    ]);
    assert_eq!(r.status, 0);
    assert!(
        r.stdout
            .starts_with("map        a layout: logical[4, 2, 2, 4] -> physical\n"),
        "{}",
        r.stdout
    );
}

#[test]
fn errors_of_expressions_carry_their_span_and_notes() {
    // The span is a byte range of the argument the error is in, with its text; an aliasing
    // error's note points at the colliding mode's stride.
    let text = "[(4,8):(4,1), logical -> physical]";
    let (status, v) = json(&["explain", text, "--json"]);
    assert_eq!(status, 1);
    let e = &v["errors"][0];
    assert_eq!(e["rule"], "aliasing");
    assert_eq!(e["span"]["argument"], "");
    let (start, end) = (
        e["span"]["start"].as_u64().expect("start") as usize,
        e["span"]["end"].as_u64().expect("end") as usize,
    );
    assert_eq!((start, end), (10, 11));
    assert_eq!(e["span"]["text"], &text[start..end]);
    let notes = e["notes"].as_array().expect("notes");
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["message"], "the colliding mode's stride is here");
    assert_eq!(notes[0]["span"]["text"], "4");
    assert_eq!(notes[0]["span"]["start"], 8);
    // In a definition: the argument is `--def`, the span counts in it.
    let def = "P = (4,8,2):(0,1,0), logical -> physical";
    let (_, v) = json(&["explain", "P", "--def", def, "--json"]);
    let spans: Vec<(&str, &str, u64)> = v["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            (
                e["span"]["argument"].as_str().expect("argument"),
                e["span"]["text"].as_str().expect("text"),
                e["span"]["start"].as_u64().expect("start"),
            )
        })
        .collect();
    assert_eq!(spans, [("--def", "0", 13), ("--def", "0", 17)]);
    // A syntax error at the end of the argument: an empty span there.
    let (_, v) = json(&["explain", "compose([8:1, logical -> physical]", "--json"]);
    let e = &v["errors"][0];
    assert_eq!(e["rule"], "syntax");
    assert_eq!(e["span"]["start"], e["span"]["end"]);
    assert_eq!(e["span"]["text"], "");
    // Errors outside the expression language (a flag's value) have none.
    let (_, v) = json(&["emit", "(2,2):(2147483648,1)", "--index", "i32", "--json"]);
    assert!(v["errors"][0].get("span").is_none(), "{v}");
}
