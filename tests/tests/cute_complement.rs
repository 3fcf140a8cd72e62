//! (spec: Postconditions), reproduced: CuTe's complement on every static rank-2 layout `(N0,N1):(d0,d1)`
//! with `N0, N1 ∈ {2,3,4}`, `d0 ∈ {1,2}`, `d1 ∈ {1..16}`, at `M ∈ {12,24,48}` (864 inputs).
//!
//! The expectations come from an oracle written here from the definitions (CuTe's formula and
//! the checks (1)–(4) of CuTe's `test_complement`, by brute force): every input whose CuTe
//! complement violates a postcondition gets that diagnostic from `layout_core::cute`, every
//! input C++ CuTe refuses gets the refusal, and every other input gets CuTe's result. The seed
//! counts 40 violations of check (1); strict mode rejects exactly the inputs that violate a
//! divisibility condition (spec: Strict mode).

use layout_core::cute::{Cute, CuteLayout};
use layout_tests::{cute_complement_checks, cute_complement_oracle, cute_flat_eval};

const RULES: [&str; 4] = [
    "complement-coverage",
    "complement-bound",
    "complement-ordered",
    "complement-disjoint",
];

/// The two conditions of (spec: Strict mode) on a flat layout sorted by stride: `N_{i-1}·d_{i-1} | d_i` and
/// `N_α·d_α | M`. The rule of the first that fails.
fn seed_condition(modes: &[(i64, i64)], m: i64) -> Option<&'static str> {
    let mut sorted: Vec<(i64, i64)> = modes.iter().map(|&(n, d)| (d, n)).collect();
    sorted.sort_unstable();
    for w in sorted.windows(2) {
        let ((d0, n0), (d1, _)) = (w[0], w[1]);
        if d1 % (n0 * d0) != 0 {
            return Some("complement-stride-divides");
        }
    }
    let (d, n) = sorted[sorted.len() - 1];
    (m % (n * d) != 0).then_some("complement-cotarget-divides")
}

#[test]
fn seed_section_1_complement_sweep() {
    let (mut total, mut strict_errors, mut refused, mut results) = (0, 0, 0, 0);
    let mut violations = [0usize; 4];
    let mut violating = 0;
    let mut legitimate_despite_seed = 0;
    for n0 in 2..=4i64 {
        for n1 in 2..=4i64 {
            for d0 in 1..=2i64 {
                for d1 in 1..=16i64 {
                    for m in [12i64, 24, 48] {
                        total += 1;
                        let modes = [(n0, d0), (n1, d1)];
                        let text = format!("({n0},{n1}):({d0},{d1})");
                        let l: CuteLayout = text.parse().expect("layout");
                        let ours = Cute::new().complement(&l, m);

                        // Strict mode: exactly the seed's divisibility conditions.
                        let seed = seed_condition(&modes, m);
                        match (Cute::strict().complement(&l, m), seed) {
                            (Err(d), Some(rule)) => {
                                strict_errors += 1;
                                assert_eq!(d.rule(), rule, "{text} in {m}");
                            }
                            (Ok(r), None) => {
                                assert_eq!(Ok(&r), ours.as_ref(), "{text} in {m}");
                            }
                            (s, seed) => panic!("{text} in {m}: strict {s:?}, seed {seed:?}"),
                        }

                        // CuTe's formula, from the oracle.
                        let Some(cute) = cute_complement_oracle(&modes, m) else {
                            refused += 1;
                            let d = ours.expect_err("C++ CuTe refuses");
                            assert_eq!(d.rule(), "complement-overlap", "{text} in {m}");
                            continue;
                        };
                        let checks = cute_complement_checks(&modes, &cute, m);
                        if let Some(first) = checks.iter().position(|&c| c) {
                            violating += 1;
                            for (k, &c) in checks.iter().enumerate() {
                                violations[k] += usize::from(c);
                            }
                            let d = ours.expect_err("a postcondition fails");
                            assert_eq!(d.rule(), RULES[first], "{text} in {m}: {d}");
                            assert!(seed.is_some(), "{text} in {m}: seed conditions hold");
                        } else {
                            results += 1;
                            legitimate_despite_seed += usize::from(seed.is_some());
                            let r = ours.unwrap_or_else(|d| panic!("{text} in {m}: {d}"));
                            let size: i64 = cute.iter().map(|&(n, _)| n).product();
                            assert_eq!(r.size(), size, "{text} in {m}");
                            for i in 0..size {
                                assert_eq!(
                                    r.eval_index(i).expect("in range"),
                                    cute_flat_eval(&cute, i),
                                    "{text} in {m} at {i}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    println!("complement sweep (spec: Postconditions): {total} inputs");
    println!("  violate a divisibility condition (strict-mode errors): {strict_errors}");
    println!("  C++ CuTe refuses (a quotient of 0, 'Non-injective Layout'): {refused}");
    println!(
        "  CuTe returns a complement violating its own postconditions: {violating} \
         (check (1): {}, (2): {}, (3): {}, (4): {}) -> a diagnostic here",
        violations[0], violations[1], violations[2], violations[3]
    );
    println!(
        "  CuTe's result, returned unchanged: {results} ({legitimate_despite_seed} of them \
         although a seed condition fails)"
    );
    assert_eq!(total, 864);
    assert_eq!(
        violations[0], 40,
        "the seed counts 40 violations of check (1)"
    );
    assert_eq!(
        (strict_errors, refused, violating, violations[1], results),
        (778, 180, 47, 7, 637)
    );
}
