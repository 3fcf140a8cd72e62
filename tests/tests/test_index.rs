//! `tests/README.md` maps features to test files: every integration test file of this crate is
//! in its table, and every file the table names exists.

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn the_feature_table_names_every_test_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("tests/README.md");
    let table: String = readme
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| feature"))
        .collect::<Vec<_>>()
        .join("\n");
    // Every `…rs` (or `…/`) between backquotes in the table.
    let named: BTreeSet<&str> = table
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.ends_with(".rs") || s.ends_with('/'))
        .collect();
    let mut files = BTreeSet::new();
    for entry in std::fs::read_dir(root.join("tests")).expect("tests/tests") {
        let name = entry
            .expect("entry")
            .file_name()
            .into_string()
            .expect("name");
        if name.ends_with(".rs") {
            files.insert(name);
        }
    }
    for f in &files {
        assert!(
            named.contains(f.as_str()),
            "tests/tests/{f} is not in tests/README.md"
        );
    }
    for n in &named {
        let path = if n.contains('/') {
            root.join("..").join(n)
        } else {
            root.join("tests").join(n)
        };
        assert!(
            path.exists(),
            "tests/README.md names {n}, which does not exist"
        );
    }
    assert!(files.len() >= 40, "only {} test files found", files.len());
}

/// Every test file that compares with CuTe C++ (`cute_cpp::run`, which skips without the
/// headers outside CI) is run again by `.ci/run` with `CI=true`, where a skip is a failure.
#[test]
fn ci_runs_every_cute_cpp_test_without_skipping() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ci = std::fs::read_to_string(root.join("../.ci/run")).expect(".ci/run");
    let line = ci
        .lines()
        .find(|l| l.starts_with("CI=true cargo test -p layout-tests --test atoms_cpp"))
        .expect("the CI=true line of the CuTe C++ tests in .ci/run");
    let named: BTreeSet<&str> = line
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "--test")
        .map(|w| w[1])
        .collect();
    let mut found = 0;
    for entry in std::fs::read_dir(root.join("tests")).expect("tests/tests") {
        let path = entry.expect("entry").path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a test file");
        // Spelled in two parts, so that this file does not name itself.
        if text.contains(concat!("cute_cpp", "::run(")) {
            found += 1;
            assert!(
                named.contains(stem),
                "tests/tests/{stem}.rs calls cute_cpp::run but .ci/run does not run it with CI=true"
            );
        }
    }
    assert!(found >= 5, "only {found} files call cute_cpp::run");
}
