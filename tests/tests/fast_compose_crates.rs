//! `compose(P, Q)` of two identifiers naming another crate's items under a renamed
//! `layout-typed` (`fixtures/operand_crates/user/src/bin/fast_compose.rs`), compared with a
//! brute-force composition of the declared layouts.

use std::path::Path;
use std::process::Command;

/// The flat layout `(n_k):(d_k)` at every flat index, last mode fastest.
fn brute(modes: &[(i64, i64)]) -> Vec<i64> {
    let n: i64 = modes.iter().map(|m| m.0).product();
    (0..n)
        .map(|mut i| {
            let mut v = 0;
            for &(s, d) in modes.iter().rev() {
                v += (i % s) * d;
                i /= s;
            }
            v
        })
        .collect()
}

/// `(x ∘ y)(i) = x(y(i))`.
fn compose(x: &[i64], y: &[i64]) -> Vec<i64> {
    y.iter().map(|&i| x[i as usize]).collect()
}

fn line(name: &str, v: &[i64]) -> String {
    let v: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("{name} {}", v.join(","))
}

#[test]
fn fast_compose_of_another_crates_items() {
    let a = brute(&[(2, 1), (3, 2)]);
    let b = brute(&[(3, 1), (2, 3)]);
    let store = brute(&[(2, 8), (3, 1)]);
    // `swizzle(STORE) ∘ b::P`, bit 3 of the offset into bit 0.
    let sw: Vec<i64> = compose(&store, &b)
        .iter()
        .map(|&x| x ^ ((x >> 3) & 1))
        .collect();
    // The operands differ, so a swapped or repeated operand changes the values.
    assert_ne!(compose(&a, &b), compose(&a, &a));
    let expected = [
        line("a.b", &compose(&a, &b)),
        line("b.a", &compose(&b, &a)),
        line("a.a", &compose(&a, &a)),
        line("store.a", &compose(&store, &a)),
        line("sp.b", &compose(&compose(&store, &a), &b)),
        line("sw.id", &sw),
        line("fwd", &compose(&b, &a)),
        line("local", &compose(&a, &b)),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["run", "--quiet", "--offline", "--bin", "fast_compose"])
        .arg("--manifest-path")
        .arg(root.join("fixtures/operand_crates/user/Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("operand_crates"),
        )
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the fixture builds and runs:\n{stderr}"
    );
    assert!(!stderr.contains("warning"), "no warnings:\n{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(got, expected);
}
