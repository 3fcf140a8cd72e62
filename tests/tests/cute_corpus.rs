//! Every CuTe-operation case of `data/cute_corpus.json` through `layout_core::cute`, against the
//! committed verdict table `data/cute_verdicts.json` (case id → `"result"` or
//! `"diagnostic:<rule>"`).
//!
//! The table was derived once from each case's pycute, C++ and `postconditions_failed` fields
//! ([`layout_tests::derive_cute_verdict`]) and then reviewed by hand; [`REVIEWED`] lists every
//! verdict the review changed, with the reason, and `table_is_the_reviewed_derivation` keeps the
//! table, the derivation and the review in agreement.

use std::collections::BTreeMap;

use layout_core::cute::{Cute, CuteLayout, CuteOp, Value};
use layout_tests::{
    CUTE_OPS, cute_case_args, cute_case_op, cute_eval_extended, derive_cute_verdict, load,
};

/// Verdicts the hand review changed: `(case id, verdict, why)`.
const REVIEWED: &[(&str, &str, &str)] = &[
    (
        "cpp_left_inverse_16",
        "diagnostic:left-inverse-domain",
        "pycute's 65440:128 sends L(1) = 65536 to 8388608, which is not a coordinate of \
         (128,160):(65536,1) (size 20480): R(L(i)) = i fails for every i > 0. The corpus's check \
         evaluated L past its size (CuTe's extended domain) and so passed it. C++ CuTe's \
         (65536,128):(128,1) is a true left inverse.",
    ),
    (
        "cpp_left_inverse_17",
        "diagnostic:left-inverse-domain",
        "as cpp_left_inverse_16: pycute's 480:384 sends L(1) = 65536 to 25165824, outside \
         (128,3,160)'s 61440 coordinates; C++'s (512,128,128):(384,128,1) is correct.",
    ),
];

fn table() -> BTreeMap<String, String> {
    let path = layout_tests::data_dir().join("cute_verdicts.json");
    let text = std::fs::read_to_string(&path).expect("verdict table");
    serde_json::from_str(&text).expect("verdict table JSON")
}

fn cute_cases() -> Vec<serde_json::Value> {
    load("cute_corpus.json")
        .into_iter()
        .filter(|c| CUTE_OPS.contains(&c["op"].as_str().unwrap_or("")))
        .collect()
}

fn id(case: &serde_json::Value) -> String {
    case["id"].as_str().expect("case id").to_string()
}

/// Prints the derivation as JSON (the table before review):
/// `cargo test -p layout-tests --test cute_corpus -- --ignored --nocapture derive`.
#[test]
#[ignore = "prints the derived verdict table; run by hand"]
fn derive() {
    let derived: BTreeMap<String, String> = cute_cases()
        .iter()
        .map(|c| (id(c), derive_cute_verdict(c)))
        .collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&derived).expect("serialise")
    );
}

#[test]
fn table_is_the_reviewed_derivation() {
    let table = table();
    let cases = cute_cases();
    assert_eq!(
        table.len(),
        cases.len(),
        "one verdict per CuTe-operation case of the corpus"
    );
    for case in &cases {
        let id = id(case);
        let derived = derive_cute_verdict(case);
        let reviewed = REVIEWED.iter().find(|r| r.0 == id);
        let expected = reviewed.map_or(derived.as_str(), |r| r.1);
        assert_eq!(
            table.get(&id).map(String::as_str),
            Some(expected),
            "verdict of {id}"
        );
        if let Some(r) = reviewed {
            assert_ne!(
                r.1, derived,
                "{id}: a review entry must change the derivation"
            );
        }
    }
}

/// Where pycute and C++ CuTe disagree and the verdict is a result: the result's own
/// postcondition, by the independent evaluator of the test crate (`R(i) == A(B(i))`;
/// `L(R(i)) == i`; `R(L(i))` a coordinate of `L` with `L(R(L(i))) == L(i)`), or `None` for an
/// operation whose result is compared with pycute's only.
fn independent_check(op: CuteOp, args: &[&str], r: &CuteLayout) -> Option<bool> {
    let leaves = |t: &str| t.parse::<CuteLayout>().ok().map(|l| (l.size(), l.leaves()));
    let rv = r.leaves();
    match op {
        CuteOp::Composition => {
            let ((_, a), (nb, b)) = (leaves(args[0])?, leaves(args[1])?);
            Some((0..nb).all(|i| {
                cute_eval_extended(&rv, i) == cute_eval_extended(&a, cute_eval_extended(&b, i))
            }))
        }
        CuteOp::RightInverse => {
            let (n, l) = leaves(args[0])?;
            Some((0..r.size()).all(|i| {
                let x = cute_eval_extended(&rv, i);
                (0..n).contains(&x) && cute_eval_extended(&l, x) == i
            }))
        }
        CuteOp::LeftInverse => {
            let (n, l) = leaves(args[0])?;
            Some((0..n).all(|i| {
                let y = cute_eval_extended(&l, i);
                let x = cute_eval_extended(&rv, y);
                (0..n).contains(&x) && cute_eval_extended(&l, x) == y
            }))
        }
        _ => None,
    }
}

fn offsets_of(v: &Value) -> Vec<i64> {
    v.offsets().expect("offsets")
}

fn coalesced(l: &CuteLayout) -> String {
    Cute::new().coalesce(l).expect("coalesce").to_string()
}

#[test]
fn every_case_matches_its_verdict() {
    let table = table();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut exact = 0usize;
    let mut layouts = 0usize;
    let mut differently_printed = Vec::new();
    let mut suggestions = Vec::new();
    let mut failures = Vec::new();
    let mut checked_disagreements = 0usize;
    for case in cute_cases() {
        let id = id(&case);
        let op: CuteOp = cute_case_op(&case).parse().expect("known op");
        let args = cute_case_args(&case);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let verdict = table[&id].as_str();
        *counts.entry(verdict.to_string()).or_default() += 1;
        let ours = Cute::new().apply(op, &args);
        match (verdict.strip_prefix("diagnostic:"), &ours) {
            (None, Ok(v)) => {
                let expected = &case["expected"];
                // Offsets are recorded up to 16384 coordinates; above, equality after
                // coalescing (below) is equality as functions, and a sample is compared too.
                match layout_tests::ints(&expected["offsets"]) {
                    Some(want) if offsets_of(v) != want => {
                        failures.push(format!("{id}: offsets differ from pycute's ({v})"));
                        continue;
                    }
                    Some(_) => {}
                    None => {
                        let theirs: CuteLayout = expected["result"]
                            .as_str()
                            .expect("result")
                            .parse()
                            .expect("pycute's result");
                        let ours = v.as_layout().expect("a layout");
                        for i in layout_tests::sample_indices(theirs.size(), 4096) {
                            assert_eq!(
                                ours.eval_index(i).expect("in range"),
                                theirs.eval_index(i).expect("in range"),
                                "{id} at {i}"
                            );
                        }
                    }
                }
                let disagree = case["cpp"]["vs_pycute"]
                    .as_str()
                    .is_some_and(|x| x != "identical");
                if let (true, Some(l)) = (disagree, v.as_layout()) {
                    match independent_check(op, &args, l) {
                        Some(true) => checked_disagreements += 1,
                        Some(false) => failures.push(format!("{id}: {l} fails its postcondition")),
                        None => {}
                    }
                }
                if let (Some(l), Some(text)) = (v.as_layout(), expected["result"].as_str()) {
                    layouts += 1;
                    let theirs: CuteLayout = text.parse().expect("pycute's result");
                    if coalesced(l) != coalesced(&theirs) {
                        failures.push(format!(
                            "{id}: coalesced {} vs pycute's {}",
                            coalesced(l),
                            coalesced(&theirs)
                        ));
                    } else if l.to_string() == text {
                        exact += 1;
                    } else {
                        differently_printed.push(format!("{id}: {l} vs pycute's {text}"));
                    }
                }
            }
            (Some(rule), Err(d)) => {
                if d.rule() != rule {
                    failures.push(format!(
                        "{id}: diagnostic {} ({d}), table says {rule}",
                        d.rule()
                    ));
                    continue;
                }
                // Where C++ CuTe's answer is right, a suggestion must be that function.
                let cpp = &case["cpp"];
                if let Some(s) = d.suggestion() {
                    let cpp_ok = cpp["postconditions_failed"]
                        .as_array()
                        .is_some_and(Vec::is_empty);
                    let cpp_offsets = layout_tests::ints(&cpp["offsets"]);
                    if cpp_ok && let Some(o) = cpp_offsets {
                        assert_eq!(s.offsets().expect("offsets"), o, "{id}: suggestion vs C++");
                    }
                    suggestions.push(format!("{id}: {s}"));
                }
            }
            (None, Err(d)) => failures.push(format!("{id}: expected a result, got {d}")),
            (Some(rule), Ok(v)) => failures.push(format!("{id}: expected {rule}, got {v}")),
        }
    }
    println!("verdicts: {counts:?}");
    println!("layout results printed exactly as pycute: {exact} of {layouts}");
    println!(
        "results where pycute and C++ disagree, re-checked independently: {checked_disagreements}"
    );
    for d in &differently_printed {
        println!("  same after coalescing: {d}");
    }
    for s in &suggestions {
        println!("  suggestion: {s}");
    }
    assert!(
        failures.is_empty(),
        "{} cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The same cases in strict mode: a verdict of `result` may become a strict diagnostic, never a
/// different result; a diagnostic stays a diagnostic.
#[test]
fn strict_mode_never_changes_a_result() {
    let table = table();
    let mut strict_errors: BTreeMap<&'static str, usize> = BTreeMap::new();
    for case in cute_cases() {
        let id = id(&case);
        let op: CuteOp = cute_case_op(&case).parse().expect("known op");
        let args = cute_case_args(&case);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let relaxed = Cute::new().apply(op, &args);
        match Cute::strict().apply(op, &args) {
            Ok(v) => assert_eq!(Ok(&v), relaxed.as_ref(), "{id}"),
            Err(d) => {
                *strict_errors.entry(d.rule()).or_default() += 1;
                if table[&id] != "result" {
                    assert!(relaxed.is_err(), "{id}");
                }
            }
        }
    }
    println!("strict-mode diagnostics by rule: {strict_errors:?}");
}
