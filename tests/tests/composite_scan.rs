//! (spec: Reference results): over every `g : [0,n) → [0,k)` with `g(0) = 0`,
//! `n ∈ {2,3,4,6,8,9,12}`, `k = 5` if `n ≤ 4` else 3, the scan of Theorem 1
//! (`layout_core::scan`) and a brute-force oracle that tries every chain of divisors
//! ([`ChainOracle`], sharing no code with the scan) accept the same functions with the same
//! chain, shape and strides; on the others both put the rejection at the same `t`. The totals
//! come from the `theorem1_enumeration` case, and every `scan_enumeration_accepted` case must be
//! among the accepted with its chain.

use std::collections::HashMap;
use std::sync::OnceLock;

use layout_core::{Chain, scan};
use layout_tests::{ChainOracle, chain_value, int, ints, seed_cases};
use serde_json::Value;

/// What the enumeration found.
struct Enumeration {
    /// `(n, functions, accepted)` in the order of the case's `ns`.
    per_n: Vec<(i64, i64, i64)>,
    /// Every accepted function with the scan's answer.
    accepted: HashMap<Vec<i64>, Chain>,
}

/// The case's `k` rule, `"A if n <= B else C"`, as `(A, B, C)`.
fn k_rule(v: &Value) -> (i64, i64, i64) {
    let text = v.as_str().unwrap_or_else(|| panic!("k is not a rule: {v}"));
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        [a, "if", "n", "<=", b, "else", c] => (
            a.parse().expect("k"),
            b.parse().expect("bound"),
            c.parse().expect("k"),
        ),
        _ => panic!("unexpected k rule {text:?}"),
    }
}

/// One `[[n, count], ...]` list of the case as pairs.
fn pairs(v: &Value) -> Vec<(i64, i64)> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|p| {
            let p = ints(p).expect("a pair");
            assert_eq!(p.len(), 2, "{v}");
            (p[0], p[1])
        })
        .collect()
}

/// Compares the scan with the oracle on one function; returns the scan's chain if it accepts.
fn compare(oracle: &ChainOracle, g: &[i64]) -> Option<Chain> {
    let verdict = oracle.check(g);
    assert!(
        verdict.minimal_in_all(),
        "g = {g:?}: the minimal accepting chain {:?} is not in every accepting chain {:?}",
        verdict.minimal(),
        verdict.accepting
    );
    match scan(g) {
        Ok(c) => {
            let minimal = verdict
                .minimal()
                .unwrap_or_else(|| panic!("g = {g:?}: the scan accepts {c:?}, the oracle not"));
            assert_eq!(&c.chain(), minimal, "g = {g:?}: chains differ");
            assert_eq!(c.shape, oracle.shape(minimal), "g = {g:?}: shapes differ");
            assert_eq!(
                c.strides,
                oracle.strides(minimal, g),
                "g = {g:?}: strides differ"
            );
            let recorded: Vec<i64> = c.recorded().iter().map(|r| r.0).collect();
            assert!(
                recorded.iter().all(|t| c.chain().contains(t)),
                "g = {g:?}: R = {recorded:?} is not in the chain {:?}",
                c.chain()
            );
            for (t, &x) in g.iter().enumerate() {
                let t = i64::try_from(t).expect("small");
                assert_eq!(
                    chain_value(t, &c.chain(), &c.shape, &c.strides),
                    x,
                    "g = {g:?}"
                );
            }
            Some(c)
        }
        Err(t) => {
            assert!(
                verdict.accepting.is_empty(),
                "g = {g:?}: the scan rejects at {t}, the oracle accepts {:?}",
                verdict.accepting
            );
            assert_eq!(
                verdict.reject_at,
                Some(t),
                "g = {g:?}: the scan rejects at {t}"
            );
            None
        }
    }
}

/// Runs the whole enumeration once (shared by the tests of this file).
fn enumeration() -> &'static Enumeration {
    static RESULT: OnceLock<Enumeration> = OnceLock::new();
    RESULT.get_or_init(|| {
        let cases = seed_cases("theorem1_enumeration");
        assert_eq!(cases.len(), 1);
        let case = &cases[0];
        let (k_small, bound, k_large) = k_rule(&case["k"]);
        let mut per_n = Vec::new();
        let mut accepted = HashMap::new();
        for n in ints(&case["ns"]).expect("ns") {
            let k = if n <= bound { k_small } else { k_large };
            let oracle = ChainOracle::new(usize::try_from(n).expect("n"));
            let mut g = vec![0i64; oracle.n()];
            let (mut functions, mut hits) = (0i64, 0i64);
            loop {
                functions += 1;
                if let Some(c) = compare(&oracle, &g) {
                    hits += 1;
                    accepted.insert(g.clone(), c);
                }
                // Next g: an odometer over g(1..n), last point fastest.
                let Some(i) = (1..g.len()).rev().find(|&i| g[i] + 1 < k) else {
                    break;
                };
                g[i] += 1;
                for x in &mut g[i + 1..] {
                    *x = 0;
                }
            }
            per_n.push((n, functions, hits));
        }
        Enumeration { per_n, accepted }
    })
}

#[test]
fn scan_and_oracle_agree_on_every_small_function() {
    let cases = seed_cases("theorem1_enumeration");
    let case = &cases[0];
    let e = enumeration();
    for (n, functions, hits) in &e.per_n {
        println!("n = {n:2}: {functions:6} functions, {hits:2} accepted");
    }
    let functions: Vec<(i64, i64)> = e.per_n.iter().map(|&(n, f, _)| (n, f)).collect();
    let hits: Vec<(i64, i64)> = e.per_n.iter().map(|&(n, _, a)| (n, a)).collect();
    assert_eq!(functions, pairs(&case["functions_per_n"]));
    assert_eq!(hits, pairs(&case["accepted_per_n"]));
    let total: i64 = functions.iter().map(|p| p.1).sum();
    let accepted: i64 = hits.iter().map(|p| p.1).sum();
    println!("total: {total} functions, {accepted} accepted");
    assert_eq!(total, int(&case["total_functions"]));
    assert_eq!(accepted, int(&case["accepted"]));
    assert_eq!(e.accepted.len() as i64, accepted);
}

#[test]
fn every_listed_accepted_function_is_accepted_with_its_chain() {
    let cases = seed_cases("scan_enumeration_accepted");
    assert!(!cases.is_empty());
    let e = enumeration();
    for c in &cases {
        let g = ints(&c["g"]).expect("g");
        assert_eq!(c["accept"], Value::Bool(true), "{c}");
        let found = e
            .accepted
            .get(&g)
            .unwrap_or_else(|| panic!("g = {g:?} is not among the accepted"));
        assert_eq!(Some(found.chain().to_vec()), ints(&c["chain"]), "g = {g:?}");
        assert_eq!(Some(found.shape.to_vec()), ints(&c["shape"]), "g = {g:?}");
        assert_eq!(
            Some(found.strides.to_vec()),
            ints(&c["strides"]),
            "g = {g:?}"
        );
    }
}
