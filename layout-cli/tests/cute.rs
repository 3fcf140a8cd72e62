//! `layout cute OP ARGS... [--strict] [--json]` end to end: CuTe's operations through the
//! binary against the corpus's pycute values (`tests/data/cute_corpus.json`) and the reviewed
//! verdict table (`tests/data/cute_verdicts.json`), the JSON (spec: Machine-readable output), strict mode, the note that
//! offers the layout CuTe refuses, exit statuses and error columns.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

mod common;
use common::layout;

/// `layout cute OP ARGS... [flags] --json`: the status and the object, checked to have exactly
/// The four fields (spec: Machine-readable output) and nothing on stderr.
fn cute_json(op: &str, args: &[&str], flags: &[&str]) -> (i32, Value) {
    let mut all = vec!["cute", op];
    all.extend_from_slice(args);
    all.extend_from_slice(flags);
    all.push("--json");
    let r = layout(&all);
    let v: Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{all:?}: not JSON ({e}): {}{}", r.stdout, r.stderr));
    assert!(r.stderr.is_empty(), "{all:?}: stderr {}", r.stderr);
    let mut keys: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["errors", "note", "offsets", "result"], "{all:?}");
    (r.status, v)
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_i64().expect("an integer"))
        .collect()
}

fn rules(v: &Value) -> Vec<String> {
    v["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["rule"].as_str().expect("rule").to_string())
        .collect()
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(name)
}

fn corpus() -> Vec<Value> {
    let text = std::fs::read_to_string(data("cute_corpus.json")).expect("the corpus");
    serde_json::from_str(&text).expect("corpus JSON")
}

fn verdicts() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(data("cute_verdicts.json")).expect("the verdicts");
    serde_json::from_str(&text).expect("verdict JSON")
}

fn case<'a>(corpus: &'a [Value], id: &str) -> &'a Value {
    corpus
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("corpus case {id}"))
}

/// The command line of a corpus case: the operation and its arguments in CuTe notation (a
/// swizzle case with an outer layout is a composition of chains).
fn case_command(c: &Value) -> (String, Vec<String>) {
    let inputs = &c["inputs"];
    let text = |k: &str| match &inputs[k] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => panic!("input {k} of {}: {other}", c["id"]),
    };
    let swizzle = |k: &str| {
        let fields: Vec<String> = inputs[k]
            .as_array()
            .expect("swizzle fields")
            .iter()
            .map(ToString::to_string)
            .collect();
        format!("Swizzle<{}>", fields.join(","))
    };
    let op = c["op"].as_str().expect("op").to_string();
    let args = match op.as_str() {
        "layout_eval" | "right_inverse" | "left_inverse" => vec![text("layout")],
        "coalesce" if inputs.get("profile").is_some() => vec![text("layout"), text("profile")],
        "coalesce" => vec![text("layout")],
        "complement" => vec![text("layout"), text("cotarget")],
        "swizzle" => {
            let inner = format!("{} o {}", swizzle("swizzle"), text("layout"));
            match (inputs.get("outer"), inputs.get("outer_swizzle")) {
                (None, _) => vec![swizzle("swizzle"), text("layout")],
                (Some(_), None) => return ("composition".into(), vec![text("outer"), inner]),
                (Some(_), Some(_)) => {
                    let outer = format!("{} o {}", swizzle("outer_swizzle"), text("outer"));
                    return ("composition".into(), vec![outer, inner]);
                }
            }
        }
        _ if inputs.get("B").is_some() => vec![text("A"), text("B")],
        _ => vec![text("A"), text("tiler")],
    };
    (op, args)
}

fn run_case(c: &Value, flags: &[&str]) -> (i32, Value) {
    let (op, args) = case_command(c);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    cute_json(&op, &args, flags)
}

// ---------------------------------------------------------------------------------------------
// values against the corpus's pycute results

/// A few cases of each kind, by id: CuTe's printing and every offset equal pycute's.
#[test]
fn corpus_cases_print_pycutes_result_and_offsets() {
    let corpus = corpus();
    let ids = [
        // composition
        "doc02_composition_ex1",
        "doc02_composition_ex2",
        "tut_composition_transpose",
        // complement
        "tut_complement_4_2_16",
        "doc02_complement_2_2_1_6",
        "doc02_complement_4_6_1_4",
        // divides
        "tut_logical_divide_16_by_4_2",
        "doc02_logical_divide_2d",
        "doc02_zipped_divide",
        "dsl_flat_divide",
        "big_tiled_divide_128x128_by_64x32",
        // products
        "doc02_logical_product_1d_B42",
        "dsl_blocked_product",
        "dsl_raked_product",
        "dsl_zipped_product",
        "dsl_tiled_product",
        "dsl_flat_product",
        // inverses
        "pyt_right_inverse_08",
        "pyt_left_inverse_04",
        "pyt_left_inverse_06",
        // coalesce, by profile too
        "dsl_coalesce_post_conditions",
        "doc02_coalesce_bymode",
    ];
    for id in ids {
        let c = case(&corpus, id);
        let (status, v) = run_case(c, &[]);
        assert_eq!(status, 0, "{id}: {v}");
        assert_eq!(v["result"], c["expected"]["result"], "{id}");
        assert_eq!(ints(&v["offsets"]), ints(&c["expected"]["offsets"]), "{id}");
        assert_eq!(v["errors"], Value::Array(Vec::new()), "{id}");
        assert_eq!(v["note"], Value::Null, "{id}");
    }
}

/// Every CuTe-operation case of the corpus through the binary, against the reviewed verdict
/// table: a result prints pycute's string (where pycute prints one) and pycute's offsets; a
/// diagnostic is exit 1 with the verdict's rule and no result.
#[test]
fn every_corpus_case_matches_its_verdict() {
    let verdicts = verdicts();
    let (mut results, mut diagnostics) = (0, 0);
    for c in corpus() {
        let id = c["id"].as_str().expect("id");
        let Some(verdict) = verdicts.get(id) else {
            continue; // an atom case, not an operation
        };
        let (status, v) = run_case(&c, &[]);
        match verdict.strip_prefix("diagnostic:") {
            None => {
                results += 1;
                assert_eq!(status, 0, "{id}: {v}");
                if let Some(r) = c["expected"]["result"].as_str() {
                    assert_eq!(v["result"].as_str(), Some(r), "{id}");
                }
                if c["expected"]["offsets"].is_array() {
                    assert_eq!(ints(&v["offsets"]), ints(&c["expected"]["offsets"]), "{id}");
                }
            }
            Some(rule) => {
                diagnostics += 1;
                assert_eq!(status, 1, "{id}: {v}");
                assert_eq!(rules(&v), [rule], "{id}");
                assert_eq!(v["result"], Value::Null, "{id}");
                assert_eq!(v["offsets"], Value::Null, "{id}");
            }
        }
    }
    assert_eq!(results + diagnostics, verdicts.len());
    assert!(
        results >= 250 && diagnostics >= 15,
        "{results} {diagnostics}"
    );
}

/// Cases whose pycute result fails CuTe's own postconditions (`postconditions_failed`): never a
/// result, exit 1, the rule of the condition — in JSON and as the one-line text error.
#[test]
fn failed_postconditions_are_rule_violations() {
    let mut seen = BTreeMap::new();
    for c in corpus() {
        let failed = c["expected"]["postconditions_failed"]
            .as_array()
            .is_some_and(|f| !f.is_empty());
        if !failed {
            continue;
        }
        let id = c["id"].as_str().expect("id");
        let want = match c["op"].as_str().expect("op") {
            "composition" => "composition-value",
            "left_inverse" => "left-inverse-value",
            // The non-injective layouts: C++ CuTe refuses them (static_assert).
            "complement" => "complement-overlap",
            op => panic!("{id}: unexpected op {op}"),
        };
        let (status, v) = run_case(&c, &[]);
        assert_eq!(status, 1, "{id}: {v}");
        assert_eq!(rules(&v), [want], "{id}");
        assert_eq!(v["result"], Value::Null, "{id}");
        // Text: one line per error, naming the rule, with its help.
        let (op, args) = case_command(&c);
        let mut all = vec!["cute", op.as_str()];
        all.extend(args.iter().map(String::as_str));
        let r = layout(&all);
        assert_eq!(r.status, 1, "{id}");
        assert!(r.stdout.is_empty(), "{id}: {}", r.stdout);
        let line = r.stderr.lines().next().expect("an error line");
        assert!(
            line.starts_with(&format!("error: [{want}] ")) && line.contains("; help: "),
            "{id}: {line}"
        );
        *seen.entry(want).or_insert(0) += 1;
    }
    assert_eq!(seen.get("composition-value"), Some(&3), "{seen:?}");
    assert_eq!(seen.get("left-inverse-value"), Some(&5), "{seen:?}");
    assert_eq!(seen.get("complement-overlap"), Some(&2), "{seen:?}");
}

// ---------------------------------------------------------------------------------------------
// The examples (spec: Postconditions)

#[test]
fn documented_composition_in_cute_order() {
    let (status, v) = cute_json("composition", &["(6,2):(8,2)", "(4,3):(3,1)"], &[]);
    assert_eq!(status, 0);
    assert_eq!(v["result"], "((2,2),3):((24,2),8)");
    assert_eq!(
        ints(&v["offsets"]),
        [0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42]
    );
    // Text: the result, its size and a table of index, CuTe coordinate and offset.
    let r = layout(&["cute", "composition", "(6,2):(8,2)", "(4,3):(3,1)"]);
    assert_eq!(r.status, 0);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "result  ((2,2),3):((24,2),8)");
    assert_eq!(lines[1], "size    12");
    assert_eq!(lines[2], "index  coordinate  offset");
    assert_eq!(lines[3], "    0  ((0,0),0)   0");
    assert_eq!(lines[4], "    1  ((1,0),0)   24");
    assert_eq!(lines[14], "   11  ((1,1),2)   42");
    assert_eq!(lines.len(), 15);
}

#[test]
fn seed_section_1_complement_is_diagnosed_and_strict_names_the_admissibility_condition() {
    // CuTe returns 4:6 here, which does not cover [0, 24): a postcondition, never a result.
    let (status, v) = cute_json("complement", &["(2,2):(1,3)", "24"], &[]);
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["complement-coverage"]);
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["offsets"], Value::Null);
    assert_eq!(v["note"], Value::Null);
    let help = v["errors"][0]["help"].as_str().expect("help");
    assert!(help.contains("divisib"), "{help}");
    // Strict (spec: Strict mode): N_0·d_0 | d_1 fails at mode 1 (2 does not divide 3), before computing.
    let (status, v) = cute_json("complement", &["(2,2):(1,3)", "24"], &["--strict"]);
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["complement-stride-divides"]);
    assert_eq!(v["errors"][0]["mode"], serde_json::json!([1]));
    let message = v["errors"][0]["message"].as_str().expect("message");
    assert!(message.contains("2 does not divide 3"), "{message}");
    assert_eq!(v["result"], Value::Null);
    // A legitimate use whose divisibility fails still works, unless strict.
    let (status, v) = cute_json("complement", &["4:2", "7"], &[]);
    assert_eq!((status, &v["result"]), (0, &Value::from("2:1")));
    assert_eq!(ints(&v["offsets"]), [0, 1]);
    let (status, v) = cute_json("complement", &["4:2", "7"], &["--strict"]);
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["complement-cotarget-divides"]);
    // Strict mode changes nothing where the conditions hold.
    let (status, v) = cute_json("complement", &["4:2", "16"], &["--strict"]);
    assert_eq!((status, &v["result"]), (0, &Value::from("(2,2):(1,8)")));
    // Text: the rule, the numbers and the help on one line of stderr.
    let r = layout(&["cute", "complement", "(2,2):(1,3)", "24", "--strict"]);
    assert_eq!(r.status, 1);
    assert!(r.stdout.is_empty());
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", r.stderr);
    assert!(
        lines[0].starts_with("error: [complement-stride-divides] complement: strict mode"),
        "{}",
        lines[0]
    );
}

#[test]
fn refused_composition_offers_the_layout() {
    // pycute asserts and C++ static_asserts, but the composite is the layout 2:160.
    let (status, v) = cute_json("composition", &["(64,2):(1,128)", "2:96"], &[]);
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["composition-stride-divisibility"]);
    assert_eq!(v["result"], Value::Null);
    let note = v["note"].as_str().expect("a note");
    assert!(note.contains("CuTe refuses"), "{note}");
    assert!(note.contains("is a layout: 2:160"), "{note}");
    // Strict mode rejects the operands first (the prefix 64 does not divide 96), and still
    // offers the layout.
    let (status, v) = cute_json("composition", &["(64,2):(1,128)", "2:96"], &["--strict"]);
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["composition-prefix-divides"]);
    assert!(v["note"].as_str().expect("a note").contains("2:160"));
    // Text: the error line, then the note.
    let r = layout(&["cute", "composition", "(64,2):(1,128)", "2:96"]);
    assert_eq!(r.status, 1);
    assert!(r.stdout.is_empty());
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stderr);
    assert!(lines[0].starts_with("error: [composition-stride-divisibility] "));
    assert!(
        lines[1].starts_with("note: CuTe refuses this, but the map asked for is a layout: 2:160")
    );
    // Where C++ CuTe answers and pycute refuses, the same.
    let (status, v) = cute_json("composition", &["(8,8):(8,1)", "2:3"], &[]);
    assert_eq!(status, 1);
    assert!(v["note"].as_str().expect("a note").contains(": 2:24 "));
}

#[test]
fn tilers_swizzles_and_strict_divides() {
    let (status, v) = cute_json("logical_divide", &["(12,32):(32,1)", "<4,8>"], &[]);
    assert_eq!(status, 0);
    assert_eq!(v["result"], "((4,3),(8,4)):((32,128),(1,8))");
    let offsets = ints(&v["offsets"]);
    assert_eq!(offsets.len(), 384);
    assert_eq!(&offsets[..4], [0, 32, 64, 96]);
    // Tile 5 does not divide 12: CuTe still answers (and passes its postconditions); strict
    // mode requires k | n.
    let (status, _) = cute_json("logical_divide", &["(12,32):(32,1)", "<5,8>"], &[]);
    assert_eq!(status, 0);
    let (status, v) = cute_json(
        "logical_divide",
        &["(12,32):(32,1)", "<5,8>"],
        &["--strict"],
    );
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["divide-tile-divides"]);
    assert_eq!(v["errors"][0]["mode"], serde_json::json!([0]));
    // The operation's name may be written with hyphens.
    let (status, v) = cute_json("zipped-divide", &["(128,128):(128,1)", "<64:1,32:1>"], &[]);
    assert_eq!(status, 0);
    assert_eq!(v["result"], "((64,32),(2,4)):((128,1),(8192,32))");
    // A swizzle after a layout, and a composed layout as an operand.
    let (status, v) = cute_json("swizzle", &["Swizzle<1,0,1>", "(2,2):(2,1)"], &[]);
    assert_eq!(
        (status, &v["result"]),
        (0, &Value::from("Sw<1,0,1> o (2,2):(2,1)"))
    );
    assert_eq!(ints(&v["offsets"]), [0, 3, 1, 2]);
    let (status, v) = cute_json("composition", &["Swizzle<1,0,1> o (2,2):(2,1)", "4:1"], &[]);
    assert_eq!(
        (status, &v["result"]),
        (0, &Value::from("Sw<1,0,1> o (2,2):(2,1)"))
    );
}

#[test]
fn results_too_large_to_list_say_so() {
    // 1024·1025 coordinates: more than `eval` lists; the result, no offsets, a note.
    let (status, v) = cute_json("coalesce", &["(1024,1025):(1,1024)"], &[]);
    assert_eq!(status, 0);
    assert_eq!(v["result"], "1049600:1");
    assert_eq!(v["offsets"], Value::Null);
    assert!(
        v["note"]
            .as_str()
            .expect("a note")
            .contains("1049600 coordinates")
    );
    let r = layout(&["cute", "coalesce", "(1024,1025):(1,1024)"]);
    assert_eq!(r.status, 0);
    assert_eq!(r.stdout.lines().count(), 3, "{}", r.stdout);
}

// ---------------------------------------------------------------------------------------------
// bad input: exit statuses, columns, never a panic

#[test]
fn unreadable_arguments_point_at_their_column() {
    // Argument 2 misses its `)` at column 11: exit 2.
    let (status, v) = cute_json("composition", &["(6,2):(8,2)", "(4,3):(3,1"], &[]);
    assert_eq!(status, 2);
    assert_eq!(rules(&v), ["syntax"]);
    assert_eq!(
        v["errors"][0]["message"],
        "syntax error at column 11: expected `,` or `)` (in argument 2)"
    );
    assert_eq!(v["result"], Value::Null);
    let r = layout(&["cute", "composition", "(6,2):(8,2", "(4,3):(3,1)"]);
    assert_eq!(r.status, 2);
    assert!(r.stdout.is_empty());
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(
            "error: syntax error at column 11: expected `,` or `)` (in argument 1); help: "
        ),
        "{}",
        r.stderr
    );
    // Columns count characters of the argument as typed, in tilers and cotargets too.
    let (status, v) = cute_json("logical_divide", &["(12,32):(32,1)", "<4,,8>"], &[]);
    assert_eq!(status, 2);
    let message = v["errors"][0]["message"].as_str().expect("message");
    assert!(
        message.contains("column 4: ") && message.ends_with("(in argument 2)"),
        "{message}"
    );
    let (status, v) = cute_json("complement", &["4:2", "1x"], &[]);
    assert_eq!(status, 2);
    let message = v["errors"][0]["message"].as_str().expect("message");
    assert!(
        message.contains("column 2: ") && message.ends_with("(in argument 2)"),
        "{message}"
    );
    let (status, v) = cute_json("complement", &["4:2", "99999999999999999999"], &[]);
    assert_eq!(status, 2);
    let message = v["errors"][0]["message"].as_str().expect("message");
    assert!(
        message.contains("column 1 ") && message.ends_with("(in argument 2)"),
        "{message}"
    );
}

#[test]
fn unknown_operations_and_wrong_arity_are_unreadable() {
    let (status, v) = cute_json("compositon", &["4:1", "4:1"], &[]);
    assert_eq!(status, 2);
    assert_eq!(rules(&v), ["unknown-operation"]);
    assert_eq!(
        v["errors"][0]["message"],
        "unknown CuTe operation (column 1 of the operation)"
    );
    assert_eq!(v["errors"][0]["span"]["text"], "compositon");
    let help = v["errors"][0]["help"].as_str().expect("help");
    assert!(help.starts_with("did you mean `composition`?"), "{help}");
    assert!(help.contains("raked_product"), "{help}");
    let (status, v) = cute_json("complement", &["4:2"], &[]);
    assert_eq!(status, 2);
    assert_eq!(rules(&v), ["cute-arguments"]);
    assert_eq!(
        v["errors"][0]["message"],
        "complement takes 2 arguments, but 1 was given"
    );
    let (status, v) = cute_json("coalesce", &["4:2", "(1,1)", "3"], &[]);
    assert_eq!(status, 2);
    assert_eq!(
        v["errors"][0]["message"],
        "coalesce takes 1 or 2 arguments, but 3 were given"
    );
    let r = layout(&["cute", "right_inverse"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .starts_with("error: right_inverse takes 1 argument, but 0 were given; help: write `right_inverse LAYOUT`"),
        "{}",
        r.stderr
    );
}

#[test]
fn layouts_that_break_a_rule_are_exit_1() {
    // Readable but not a layout: a profile mismatch names the argument.
    let (status, v) = cute_json("complement", &["(2,2):(1)", "4"], &[]);
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["profile-mismatch"]);
    let message = v["errors"][0]["message"].as_str().expect("message");
    assert!(message.ends_with("(in argument 1)"), "{message}");
    // A negative cotarget is read (not taken for an option) and refused.
    let (status, v) = cute_json("complement", &["4:2", "-3"], &[]);
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["complement-cotarget"]);
    // A tiler with more modes than the layout.
    let (status, v) = cute_json("logical_divide", &["8:1", "<2,2>"], &[]);
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["tiler-rank"]);
}

#[test]
fn mutated_inputs_never_panic() {
    let cases: &[(&str, &[&str])] = &[
        ("composition", &["(6,2):(8,2)", "(4,3):(3,1)"]),
        ("complement", &["(2,2):(1,3)", "24"]),
        ("logical_divide", &["(12,32):(32,1)", "<4,8>"]),
        ("blocked_product", &["(2,5):(5,1)", "(3,4):(1,3)"]),
        ("swizzle", &["Swizzle<3,4,3>", "(8,64):(64,1)"]),
        ("composition", &["Swizzle<1,0,1> o (2,2):(2,1)", "4:1"]),
        ("coalesce", &["(2,(1,6)):(1,(6,2))", "(1,1)"]),
    ];
    let mut runs = 0;
    for (op, args) in cases {
        for which in 0..args.len() {
            let text = args[which];
            let mut mutants: Vec<String> = (0..text.len())
                .filter(|&k| text.is_char_boundary(k))
                .map(|k| text[..k].to_string())
                .collect();
            mutants.push(format!("{text})"));
            mutants.push(text.replace('1', "0"));
            mutants.push(text.replace(',', "-"));
            mutants.push(text.replace('2', "9223372036854775807"));
            mutants.push(format!("é{text}"));
            for m in mutants {
                let mut all: Vec<&str> = args.to_vec();
                all[which] = &m;
                let mut cmd = vec!["cute", *op, "--"];
                cmd.extend(all.iter().copied());
                let r = layout(&cmd);
                runs += 1;
                assert!(
                    matches!(r.status, 0..=2),
                    "{cmd:?}: status {}: {}",
                    r.status,
                    r.stderr
                );
                assert!(!r.stderr.contains("panicked"), "{cmd:?}: {}", r.stderr);
                if r.status != 0 {
                    let first = r.stderr.lines().next().unwrap_or("");
                    assert!(first.starts_with("error: "), "{cmd:?}: {}", r.stderr);
                }
            }
        }
    }
    assert!(runs > 150, "{runs}");
}

#[test]
fn a_right_product_whose_complement_fails_a_check_is_a_result_with_a_note() {
    // complement((2,2):(1,3), 12) = 2:6 reaches only [0, 11) of [0, 12), but the three copies
    // of (2,2):(1,3) at 0, 6 and 12 are disjoint: CuTe's product is right.
    let (status, v) = cute_json("logical_product", &["(2,2):(1,3)", "3:1"], &[]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["result"], "((2,2),3):((1,3),6)");
    assert_eq!(
        ints(&v["offsets"]),
        [0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16]
    );
    let note = v["note"].as_str().expect("a note");
    assert!(note.contains("check (1)"), "{note}");
    // The divide of 24:1 by the same tile leaves 2, 5, … out of every tile: still refused.
    let (status, v) = cute_json("logical_divide", &["24:1", "(2,2):(1,3)"], &[]);
    assert_eq!(status, 1);
    assert_eq!(rules(&v), ["complement-coverage"]);
}

#[test]
fn the_scalar_layout_reads() {
    for (op, args, result, offsets) in [
        ("layout_eval", &["():()"][..], "():()", &[0][..]),
        ("coalesce", &["((),4):((),1)"][..], "4:1", &[0, 1, 2, 3][..]),
        ("complement", &["():()", "3"][..], "3:1", &[0, 1, 2][..]),
        (
            "logical_product",
            &["():()", "2:5"][..],
            "((),2):((),5)",
            &[0, 5][..],
        ),
        (
            "logical_divide",
            &["2:5", "():()"][..],
            "((),2):((),5)",
            &[0, 5][..],
        ),
    ] {
        let (status, v) = cute_json(op, args, &[]);
        assert_eq!(status, 0, "{op} {args:?}: {v}");
        assert_eq!(v["result"], result, "{op} {args:?}");
        assert_eq!(ints(&v["offsets"]), offsets, "{op} {args:?}");
    }
}
