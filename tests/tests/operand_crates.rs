//! Operands of `layout!` algebra expressions from another crate, through a renamed
//! `layout-typed` dependency: `tests/fixtures/operand_crates/user` (which depends on
//! `layout-typed` as `lt`) composes items of `tests/fixtures/operand_crates/dep` named `P` in two
//! modules, by module path, `use … as`, a root re-export of an item of a private module, and next
//! to a local item of the same name; a `pub` item in a function body builds without a warning.
//! Items of `dep` defined by expressions over its own items (a decided layout and a generated
//! composite) are values, operands of `user`'s expressions and items, and types of a `static`;
//! an item that a `macro_rules!` of `dep` defines in `user` names `dep`'s items by `$crate`.
//! The fixture prints each result's offsets; they are compared with values computed here from
//! the layouts' formulas.

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
fn operands_from_another_crate_under_a_renamed_dependency() {
    let a = brute(&[(2, 1), (3, 2)]);
    let b = brute(&[(3, 1), (2, 3)]);
    let store = brute(&[(2, 8), (3, 1)]);
    let id: Vec<i64> = (0..6).collect();
    // `x ↦ x XOR ((x >> 3) & 1)` after `STORE ∘ b::P`.
    let sw: Vec<i64> = compose(&store, &b)
        .iter()
        .map(|&x| x ^ ((x >> 3) & 1))
        .collect();
    // The same-named items differ, so a wrong resolution changes the values.
    assert_ne!(compose(&a, &b), compose(&a, &a));
    assert_ne!(compose(&b, &a), compose(&b, &b));
    let expected = [
        line("a.b", &compose(&a, &b)),
        line("b.a", &compose(&b, &a)),
        line("use-as", &compose(&a, &b)),
        line("local", &compose(&a, &b)),
        line("re-export", &compose(&store, &compose(&a, &b))),
        line("renamed-literal", &compose(&store, &id)),
        "in-a-body 6".to_owned(),
        line("item", &compose(&store, &a)),
        line("item-operand", &compose(&compose(&store, &a), &b)),
        line("generated-item", &sw),
        // Row 1 of `b::P`'s domain (3, 2): flat indices 2 and 3.
        line("generated-operand", &sw[2..4]),
        line("item-of-items", &compose(&compose(&store, &a), &b)),
        line("as-types", &sw),
        line("macro-item", &compose(&store, &a)),
        line("macro-item-operand", &compose(&compose(&store, &a), &b)),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["run", "--quiet", "--offline", "--manifest-path"])
        .arg(root.join("fixtures/operand_crates/user/Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("operand_crates"),
        )
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the fixture builds and runs:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(got, expected);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("warning"),
        "the expansions build without warnings:\n{stderr}"
    );
}
