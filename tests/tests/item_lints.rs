//! The attributes an item carries (the type alias's `allow(non_camel_case_types)` only for a
//! name that is not plainly camel case, the re-export's `allow(unused_imports)` only when it is
//! not `pub`): `tests/fixtures/lint_crates/strict`, a library and a binary that deny every
//! warning, `missing_docs`, `unreachable_pub`, `unused`, `unused_qualifications`,
//! `unused_results` and more, declare items of every visibility, used and unused, at the root,
//! in private modules, in a function body, through a `macro_rules!` (twice in one module, and in
//! two modules), under exclusive `cfg`s, with camel-case, raw, non-ASCII and underscored names,
//! and a child module that glob-imports its parent's items of the same names. It must build
//! without a warning, and print the offsets computed here from the declared texts.

use std::path::Path;
use std::process::Command;

/// The flat layout `shape:stride` (flat tuples; last leaf fastest) at every flat index.
fn lay(text: &str) -> Vec<i64> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (s, d) = t.split_once(':').expect("shape:stride");
    let nums = |x: &str| -> Vec<i64> {
        x.split(['(', ')', ','])
            .filter(|p| !p.is_empty())
            .map(|p| p.parse().expect("an integer"))
            .collect()
    };
    let (sizes, strides) = (nums(s), nums(d));
    let n: i64 = sizes.iter().product();
    (0..n)
        .map(|mut i| {
            let mut v = 0;
            for (s, d) in sizes.iter().zip(&strides).rev() {
                v += (i % s) * d;
                i /= s;
            }
            v
        })
        .collect()
}

/// `(x ∘ y)(i) = x(y(i))`.
fn comp(x: &[i64], y: &[i64]) -> Vec<i64> {
    y.iter().map(|&i| x[i as usize]).collect()
}

fn line(name: &str, v: &[i64]) -> String {
    let v: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("{name} {}", v.join(","))
}

#[test]
fn items_of_every_visibility_build_without_a_warning_under_denied_lints() {
    let row = lay("(4,8):(8,1)");
    let col = lay("(4,8):(1,4)");
    let b = lay("(8,4):(1,8)");
    let expected = [
        line("pub-a", &row),
        line("alg", &comp(&row, &b)),
        line("alt", &col),
        line("bin", &comp(&col, &b)),
        line("bin-priv", &comp(&row, &b)),
        line("cross", &comp(&row, &b)),
        // `compose(M, identity)` at flat 9, `M = (4,8):(1,4)`.
        format!("body {}", col[9]),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["run", "--quiet", "--offline", "--manifest-path"])
        .arg(root.join("fixtures/lint_crates/strict/Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("lint_crates"),
        )
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the fixture builds and runs under its denied lints:\n{stderr}"
    );
    assert!(
        !stderr.contains("warning"),
        "the expansions build without warnings:\n{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(got, expected);
}
