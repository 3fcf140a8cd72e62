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
