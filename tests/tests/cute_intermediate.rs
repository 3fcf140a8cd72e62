//! A CuTe divide or product is refused only when its own result is wrong, never because the
//! complement inside it fails one of `test_complement`'s checks (1)–(4) while the operation
//! itself is right; such a failure is a note of the result.
//!
//! Over every small layout `A` (rank 1 and 2) and tile or tiler `B` (rank 1 and 2), through
//! every form (logical, zipped, tiled, flat; by mode; blocked and raked), an evaluator written
//! here (pycute's complement, CuTe's extended evaluation) decides:
//!
//! * the complement's checks, from its own values;
//! * a divide's partition: `T = (B, complement(B, size(A)))` reaches every `x < size(A)` exactly
//!   once;
//! * a product's disjoint copies: `R = (A, complement(A, size(A)·cosize(B)) ∘ B)` takes
//!   `|A(·)|·|B(·)|` distinct values;
//!
//! and the operation must return its value at every coordinate, with the failed check as a note,
//! exactly when the checks fail and the operation holds, and the complement's diagnostic when
//! both fail. Every such result also prints exactly as NVIDIA's pycute's (through
//! `tests/pycute/driver.py`, when `.venv-pycute` is there; under `CI=true` it must be).

use std::path::PathBuf;
use std::process::Command;

use layout_core::cute::{Cute, CuteLayout, CuteOp};
use layout_tests::{cute_complement_checks, cute_eval_extended};
use serde_json::{Value as Json, json};

type Leaves = Vec<(i64, i64)>;

const RULES: [&str; 4] = [
    "complement-coverage",
    "complement-bound",
    "complement-ordered",
    "complement-disjoint",
];

fn text(l: &[(i64, i64)]) -> String {
    match l {
        [(n, d)] => format!("{n}:{d}"),
        _ => {
            let s: Vec<String> = l.iter().map(|m| m.0.to_string()).collect();
            let d: Vec<String> = l.iter().map(|m| m.1.to_string()).collect();
            format!("({}):({})", s.join(","), d.join(","))
        }
    }
}

fn size(l: &[(i64, i64)]) -> i64 {
    l.iter().map(|m| m.0).product()
}

fn eval(l: &[(i64, i64)], i: i64) -> i64 {
    cute_eval_extended(l, i)
}

fn distinct(mut v: Vec<i64>) -> usize {
    v.sort_unstable();
    v.dedup();
    v.len()
}

/// pycute's `coalesce` of a flat layout: size-1 modes dropped, a mode merged into the previous
/// one when `size·stride` of that one is its stride (CuTe's extended domain depends on it).
fn coalesce(l: &[(i64, i64)]) -> Leaves {
    let mut out: Leaves = vec![(1, 0)];
    for &(n, d) in l {
        let last = out.len() - 1;
        let (pn, pd) = out[last];
        if n == 1 {
            continue;
        } else if pn == 1 {
            out[last] = (n, d);
        } else if pn * pd == d {
            out[last].0 = pn * n;
        } else {
            out.push((n, d));
        }
    }
    out
}

/// pycute's complement, coalesced as pycute does; `None` where CuTe refuses.
fn complement(l: &[(i64, i64)], cotarget: i64) -> Option<Leaves> {
    let mut modes: Vec<(i64, i64)> = l
        .iter()
        .filter(|&&(n, d)| n != 1 && d != 0)
        .map(|&(n, d)| (d, n))
        .collect();
    modes.sort_unstable();
    let mut out = Vec::new();
    let mut current = 1;
    for (d, n) in modes {
        if d < current {
            return None;
        }
        out.push((d / current, current));
        current = n * d;
    }
    out.push(((cotarget + current - 1) / current, current));
    Some(coalesce(&out))
}

/// The complement's failed checks (1)–(4) by rule name.
fn failed_checks(l: &[(i64, i64)], cotarget: i64, r: &[(i64, i64)]) -> Vec<&'static str> {
    let checks = cute_complement_checks(l, r, cotarget);
    RULES
        .iter()
        .zip(checks)
        .filter(|(_, f)| *f)
        .map(|(r, _)| *r)
        .collect()
}

/// What the evaluator expects of one call.
#[derive(Debug)]
enum Expect {
    /// No complement check fails (not this test's class).
    Plain,
    /// A check fails and the operation holds: these values (logical form), a note.
    Noted(Vec<i64>),
    /// A check fails and the operation does not hold: one of these rules.
    Refused(Vec<&'static str>),
}

fn divide(a: &[(i64, i64)], b: &[(i64, i64)]) -> Option<Expect> {
    let n = size(a);
    let rest = complement(b, n)?;
    let failed = failed_checks(b, n, &rest);
    if failed.is_empty() {
        return Some(Expect::Plain);
    }
    let t: Leaves = b.iter().chain(&rest).copied().collect();
    let tv: Vec<i64> = (0..size(&t)).map(|i| eval(&t, i)).collect();
    let injective = distinct(tv.clone()) == tv.len();
    let covers = (0..n).all(|x| tv.contains(&x));
    Some(if injective && covers {
        Expect::Noted(tv.iter().map(|&x| eval(a, x)).collect())
    } else {
        Expect::Refused(failed)
    })
}

fn product(a: &[(i64, i64)], b: &[(i64, i64)]) -> Option<Expect> {
    let cosize = eval(b, size(b) - 1) + 1;
    let cotarget = size(a) * cosize;
    if cotarget < 1 {
        return None;
    }
    let rest = complement(a, cotarget)?;
    let failed = failed_checks(a, cotarget, &rest);
    if failed.is_empty() {
        return Some(Expect::Plain);
    }
    let mut values = Vec::new();
    for j in 0..size(b) {
        for i in 0..size(a) {
            values.push(eval(a, i) + eval(&rest, eval(b, j)));
        }
    }
    let ia = distinct((0..size(a)).map(|i| eval(a, i)).collect());
    let ib = distinct((0..size(b)).map(|j| eval(b, j)).collect());
    Some(if distinct(values.clone()) == ia * ib {
        Expect::Noted(values)
    } else {
        Expect::Refused(failed)
    })
}

/// Every layout of rank 1 and 2 with these sizes and strides (the second mode of size > 1).
fn layouts(sizes: &[i64], strides: &[i64]) -> Vec<Leaves> {
    let mut out = Vec::new();
    for &n in sizes {
        for &d in strides {
            out.push(vec![(n, d)]);
            for &m in sizes.iter().filter(|&&m| m > 1) {
                for &e in strides.iter().filter(|&&e| e > 0) {
                    out.push(vec![(n, d), (m, e)]);
                }
            }
        }
    }
    out
}

/// Every form of the operation over `a` and `b`: `(op, A, tiler)`, also by mode.
fn forms(divide: bool, a: &[(i64, i64)], b: &str) -> Vec<(CuteOp, String, String)> {
    let ops: &[CuteOp] = if divide {
        &[
            CuteOp::LogicalDivide,
            CuteOp::ZippedDivide,
            CuteOp::TiledDivide,
            CuteOp::FlatDivide,
        ]
    } else {
        &[
            CuteOp::LogicalProduct,
            CuteOp::ZippedProduct,
            CuteOp::TiledProduct,
            CuteOp::FlatProduct,
        ]
    };
    let mut out = Vec::new();
    for &op in ops {
        out.push((op, text(a), b.to_string()));
        if let [(n, d)] = a {
            // By mode: the same call on the first mode of a rank-2 `A`, the second mode kept.
            out.push((op, format!("({n},7):({d},11)"), format!("<{b},_>")));
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    noted: usize,
    refused: usize,
    by_op: std::collections::BTreeMap<&'static str, usize>,
    /// The noted calls for pycute: the op, the arguments as the driver reads them, and our
    /// result as pycute prints it.
    for_pycute: Vec<(&'static str, Vec<Json>, String)>,
}

/// A CuTe-order text `(n,m):(d,e)` or `n:d` as the driver's `{"shape", "stride"}`.
fn layout_json(text: &str) -> Json {
    let (shape, stride) = text.split_once(':').expect("shape:stride");
    let tree = |t: &str| -> Json {
        match t.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            Some(inner) => Json::Array(
                inner
                    .split(',')
                    .map(|x| json!(x.parse::<i64>().expect("an integer")))
                    .collect(),
            ),
            None => json!(t.parse::<i64>().expect("an integer")),
        }
    };
    json!({"shape": tree(shape), "stride": tree(stride)})
}

/// A tiler text: a layout, or `<layout,_>`.
fn tiler_json(text: &str) -> Json {
    match text.strip_prefix('<').and_then(|t| t.strip_suffix(",_>")) {
        Some(first) => json!([layout_json(first), null]),
        None => layout_json(text),
    }
}

fn check(
    op: CuteOp,
    a: &str,
    t: &str,
    expect: &Expect,
    tally: &mut Tally,
    failures: &mut Vec<String>,
) {
    if matches!(expect, Expect::Plain) {
        return;
    }
    let what = format!("{}({a}, {t})", op.name());
    let got = Cute::new().apply_noted(op, &[a, t]);
    match (expect, got) {
        (Expect::Plain, _) => {}
        (Expect::Noted(values), Ok((v, notes))) => {
            let rules: Vec<&str> = notes.iter().map(|e| e.rule()).collect();
            if rules.is_empty() || !rules.iter().all(|r| RULES.contains(r)) {
                failures.push(format!("{what}: expected a complement note, got {rules:?}"));
            }
            let is_logical = matches!(op, CuteOp::LogicalDivide | CuteOp::LogicalProduct);
            if is_logical && !t.starts_with('<') {
                let l = v.as_layout().expect("a layout");
                let ours: Vec<i64> = (0..l.size())
                    .map(|i| l.eval_index(i).expect("in range"))
                    .collect();
                if &ours != values {
                    failures.push(format!("{what}: {v} gives {ours:?}, expected {values:?}"));
                }
            }
            tally.noted += 1;
            *tally.by_op.entry(op.name()).or_default() += 1;
            let second = if matches!(op, CuteOp::BlockedProduct | CuteOp::RakedProduct) {
                layout_json(t)
            } else {
                tiler_json(t)
            };
            tally
                .for_pycute
                .push((op.name(), vec![layout_json(a), second], format!("{v:#}")));
        }
        (Expect::Noted(_), Err(d)) => {
            // A composition CuTe refuses or gets wrong is its own diagnostic, not this class.
            if !d.rule().starts_with("composition-") {
                failures.push(format!("{what}: refused with {d}, but the operation holds"));
            }
        }
        (Expect::Refused(rules), Err(d)) => {
            if rules.contains(&d.rule()) || d.rule().starts_with("composition-") {
                tally.refused += 1;
            } else {
                failures.push(format!("{what}: {d}, expected one of {rules:?}"));
            }
        }
        (Expect::Refused(rules), Ok((v, _))) => {
            failures.push(format!("{what}: returned {v}, but it is wrong ({rules:?})"));
        }
    }
}

#[test]
fn intermediate_checks_only_note_a_right_result() {
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    let all = layouts(&[2, 3, 4], &[0, 1, 2, 3, 6]);
    let tiles = layouts(&[1, 2, 3], &[1, 2, 3]);
    for a in &all {
        for b in &tiles {
            let (at, bt) = (text(a), text(b));
            if let Some(e) = divide(a, b) {
                for (op, x, t) in forms(true, a, &bt) {
                    check(op, &x, &t, &e, &mut tally, &mut failures);
                }
            }
            if let Some(e) = product(a, b) {
                for (op, x, t) in forms(false, a, &bt) {
                    check(op, &x, &t, &e, &mut tally, &mut failures);
                }
                // Blocked and raked products pad to the same rank first: rank 2 here.
                if a.len() == 2 && b.len() == 2 {
                    for op in [CuteOp::BlockedProduct, CuteOp::RakedProduct] {
                        check(op, &at, &bt, &e, &mut tally, &mut failures);
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    println!(
        "noted {} (per op {:?}), refused {}",
        tally.noted, tally.by_op, tally.refused
    );
    // The class is exercised by every form, and wrong results are still refused.
    for op in [
        "logical_divide",
        "zipped_divide",
        "tiled_divide",
        "flat_divide",
        "logical_product",
        "zipped_product",
        "tiled_product",
        "flat_product",
        "blocked_product",
        "raked_product",
    ] {
        assert!(
            tally.by_op.get(op).is_some_and(|&n| n >= 5),
            "too few noted {op}: {:?}",
            tally.by_op
        );
    }
    assert!(tally.refused >= 20, "too few refusals: {}", tally.refused);
    agrees_with_pycute(&tally.for_pycute);
}

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Every noted result prints as pycute's: the same formula, so the same layout.
fn agrees_with_pycute(calls: &[(&'static str, Vec<Json>, String)]) {
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv-pycute/bin/python");
    let has_pycute = Command::new(&python)
        .args(["-c", "import pycute"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_pycute {
        assert!(
            !ci(),
            "no .venv-pycute with pycute: under CI=true this is a failure"
        );
        println!("SKIPPED the pycute comparison: no .venv-pycute");
        return;
    }
    let input = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cute_intermediate_calls.jsonl");
    let lines: Vec<String> = calls
        .iter()
        .enumerate()
        .map(|(i, (op, args, _))| json!({"id": i, "op": op, "args": args}).to_string())
        .collect();
    std::fs::write(&input, lines.join("\n") + "\n").expect("write the calls");
    let driver = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("pycute/driver.py");
    let out = Command::new(&python)
        .arg(&driver)
        .arg(&input)
        .output()
        .expect("run the driver");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let answers: Vec<Json> = stdout
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(answers.len(), calls.len());
    for ((op, args, ours), ans) in calls.iter().zip(&answers) {
        assert_eq!(
            ans["result"].as_str(),
            Some(ours.as_str()),
            "{op}({args:?}): pycute {ans}"
        );
    }
    println!("{} noted results print as pycute's", calls.len());
}

/// The example: the complement inside `logical_product((2,2):(1,3), 3:1)` reaches only
/// `[0, 11)` of `[0, 12)`, yet the three copies at 0, 6 and 12 are disjoint; the divide of
/// `24:1` by `(2,2):(1,3)` leaves 2, 5, … out of every tile and stays refused.
#[test]
fn the_product_example() {
    let (v, notes) = Cute::new()
        .apply_noted(CuteOp::LogicalProduct, &["(2,2):(1,3)", "3:1"])
        .expect("a right product");
    assert_eq!(v.to_string(), "((2,2),3):((1,3),6)");
    assert_eq!(
        notes.iter().map(|e| e.rule()).collect::<Vec<_>>(),
        ["complement-coverage"]
    );
    let l: CuteLayout = "(2,2):(1,3)".parse().expect("layout");
    let t = "24:1".parse::<CuteLayout>().expect("layout");
    let d = Cute::new()
        .logical_divide(&t, &l.into())
        .expect_err("a divide that leaves offsets out");
    assert_eq!(d.rule(), "complement-coverage");
}

/// A complement too large to check inside a product that is small: the product is checked by
/// its own postconditions, and the complement's check limit is a note.
#[test]
fn a_complement_too_large_to_check_does_not_refuse_a_small_product() {
    let far = 1i64 << 25;
    let b = format!("2:{far}");
    let (v, notes) = Cute::new()
        .apply_noted(CuteOp::LogicalProduct, &["2:1", &b])
        .expect("a right product");
    // complement(2:1, 2·(far + 1)) = (far + 1):2, so the copies are at 0 and 2·far.
    let l = v.as_layout().expect("a layout");
    let values: Vec<i64> = (0..l.size())
        .map(|i| l.eval_index(i).expect("in range"))
        .collect();
    assert_eq!(values, [0, 1, 2 * far, 2 * far + 1]);
    assert_eq!(
        notes.iter().map(|e| e.rule()).collect::<Vec<_>>(),
        ["cute-check-limit"]
    );
}
