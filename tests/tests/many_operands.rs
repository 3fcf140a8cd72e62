//! Algebra expressions with many distinct named operands, at the compiler's default
//! `recursion_limit` (128). The operands' definitions are fetched by one chain of macro calls,
//! each nested in the one before: the depth of the expansion grows with the number of distinct
//! operands, and with the levels each link adds. The test writes a crate (under the test's
//! temporary directory, pinned by the workspace's `Cargo.lock`) that composes `n` distinct
//! items in a balanced tree of `compose` (10 levels deep at most, far below the core's
//! nesting limit), builds and runs it, and compares the printed offsets with a brute-force
//! composition of the declared layouts.

use std::path::Path;
use std::process::Command;

/// `(2,2):(1,2)` (`(r, c) ↦ r + 2c`, a transpose of the 4 elements) for odd `k`, and the
/// identity `(2,2):(2,1)` for even `k`, as flat maps.
fn item(k: usize) -> [i64; 4] {
    if k % 2 == 1 {
        [0, 2, 1, 3]
    } else {
        [0, 1, 2, 3]
    }
}

fn decl(k: usize) -> &'static str {
    if k % 2 == 1 {
        "(2,2):(1,2), logical -> logical"
    } else {
        "(2,2):(2,1), logical -> logical"
    }
}

/// `compose` of the items `lo..hi` as a balanced tree, and its flat map.
fn tree(lo: usize, hi: usize) -> (String, [i64; 4]) {
    if hi - lo == 1 {
        return (format!("I{lo}"), item(lo));
    }
    let mid = lo + (hi - lo) / 2;
    let (a, x) = tree(lo, mid);
    let (b, y) = tree(mid, hi);
    let mut v = [0; 4];
    for (i, w) in v.iter_mut().enumerate() {
        *w = x[y[i] as usize];
    }
    (format!("compose({a}, {b})"), v)
}

/// Builds and runs a crate composing `n` distinct items; its offsets, or the build's errors.
fn run(n: usize) -> Result<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("many_operands_{n}"));
    std::fs::create_dir_all(dir.join("src")).expect("a directory");
    let typed = root.join("../layout-typed");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"many-operands-{n}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[workspace]\n\n[dependencies]\n\
             layout-typed = {{ path = {:?} }}\n",
            typed.display().to_string()
        ),
    )
    .expect("a manifest");
    std::fs::copy(root.join("../Cargo.lock"), dir.join("Cargo.lock")).expect("the lock file");
    let items: String = (0..n)
        .map(|k| format!("        pub const I{k} = {};\n", decl(k)))
        .collect();
    let (expr, _) = tree(0, n);
    std::fs::write(
        dir.join("src/main.rs"),
        format!(
            "mod ops {{\n    layout_typed::layout! {{\n{items}    }}\n}}\nuse ops::*;\n\
             use layout_typed::{{IndexType, Layout}};\n\
             fn main() {{\n    let v = layout_typed::layout!({expr});\n    \
             let o: Vec<String> = (0..4).map(|i| v.offset_index(i).to_isize().to_string()).collect();\n    \
             println!(\"{{}}\", o.join(\",\"));\n}}\n"
        ),
    )
    .expect("the source");
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["run", "--quiet", "--offline", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("many_operands"),
        )
        .output()
        .expect("cargo runs");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn expected(n: usize) -> String {
    let (_, v) = tree(0, n);
    v.map(|x| x.to_string()).join(",")
}

/// 42 distinct operands (21 transposes: the composite is a transpose): inside the default limit.
#[test]
fn forty_two_distinct_operands() {
    let n = 42;
    assert_eq!(expected(n), "0,2,1,3");
    assert_eq!(run(n), Ok(expected(n)));
}

/// 101 distinct operands: each operand's definition macro calls the next link itself, one
/// nested expansion per operand, so an expression stays below the default `recursion_limit`
/// of 128 up to about 124 distinct operands. A shared definition macro called by each item's
/// (two nested expansions per operand) reached the limit at 62, with "recursion limit reached
/// while expanding" and no word of `layout!` about it.
#[test]
fn a_hundred_and_one_distinct_operands() {
    let n = 101;
    assert_eq!(run(n), Ok(expected(n)));
}
