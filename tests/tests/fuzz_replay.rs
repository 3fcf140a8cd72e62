//! Replays the fuzz corpora (`fuzz/corpus/<target>/*`, minimised) through the same checks as
//! the fuzz targets (`fuzz/src/checks/`, included here), so every input the campaign kept is
//! checked again on stable by `cargo test`. The front end of `layout!` is compiled from the
//! macro crate's own modules, as in the fuzz crate.
//!
//! The inputs in `fuzz/artifacts-found/` reached defects the campaign found (now fixed); each
//! is replayed below with every guard of `fuzz/src/checks/known.rs` off, beside a test that
//! builds the same case by hand. A defect found later is stepped around there, and its test
//! ignored, until its fix lands.

// `text` asks `proc_macro` whether a compiler runs it (here, never).
extern crate proc_macro;

#[path = "../../layout-macros/src/algebra.rs"]
#[allow(dead_code, unused_imports)]
mod algebra;
#[path = "../../layout-macros/src/expand.rs"]
#[allow(dead_code, unused_imports)]
mod expand;
#[path = "../../layout-macros/src/frame.rs"]
#[allow(dead_code, unused_imports)]
mod frame;
#[path = "../../layout-macros/src/runtime.rs"]
#[allow(dead_code, unused_imports)]
mod runtime;
#[path = "../../layout-macros/src/text.rs"]
#[allow(dead_code, unused_imports)]
mod text;
#[path = "../../layout-macros/src/valid.rs"]
#[allow(dead_code, unused_imports)]
mod valid;

#[path = "../../fuzz/src/checks/mod.rs"]
#[allow(dead_code)]
mod checks;

use std::path::{Path, PathBuf};

/// Corpus inputs that reach a defect being fixed elsewhere: `(target, file name)`, skipped
/// until the fix is merged. Empty: the guards in `known.rs` keep the corpora clear of them.
const SKIP: &[(&str, &str)] = &[];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn run(target: &str, check: checks::Check, file: &Path) {
    let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    if let Err(e) = std::panic::catch_unwind(|| check(&data)) {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_default();
        panic!("fuzz target {target}, input {}: {msg}", file.display());
    }
}

#[test]
fn corpora_replay() {
    // The checks recurse as deep as the inputs nest: run them with the main thread's stack
    // size, not the test threads' 2 MiB.
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(replay_all)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn replay_all() {
    let mut counts = Vec::new();
    for &(target, check) in checks::TARGETS {
        let files = inputs(&fuzz_dir().join("corpus").join(target));
        let mut n = 0usize;
        for f in &files {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if SKIP.contains(&(target, name)) {
                continue;
            }
            run(target, check, f);
            n += 1;
        }
        // Each corpus holds the inputs that reached new coverage: hundreds at least.
        assert!(n >= 100, "fuzz/corpus/{target}: {n} inputs");
        counts.push((target, n));
    }
    println!("replayed: {counts:?}");
}

fn found(target: &str, name: &str) {
    let check = checks::TARGETS
        .iter()
        .find(|(t, _)| *t == target)
        .expect("a target")
        .1;
    let file = fuzz_dir().join("artifacts-found").join(name);
    checks::known::exposing(|| run(target, check, &file));
}

#[test]
fn found_right_nested_decide() {
    found("algebra", "algebra-right-nested-decide");
}

#[test]
fn found_restrict_through_swizzle() {
    found("emit", "emit-restrict-through-swizzle");
}

/// Aborts the test binary (a stack overflow is not a panic) until fixed.
#[test]
fn found_deep_attribute() {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| found("macro_front", "macro-front-deep-attribute"))
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

#[test]
fn found_alias_walk_overflow() {
    found("algebra", "algebra-alias-walk-overflow");
}

// The same defects written out with the API.

/// `P ∘ ((T1 ∘ T2) ∘ I)` nested to the right: every emitted program must evaluate as
/// `P(T1(T2(I(i))))` at every coordinate of `I`'s domain, which has one coordinate.
#[test]
fn right_nested_decide_by_hand() {
    use layout_core::{Annotated, Map, Space, compose, decide, emit, layout_form};
    let map = |t: &str, d, c| -> Map {
        Annotated::new(t.parse().expect("a layout"), d, c)
            .expect("valid")
            .into()
    };
    let p = map("4:1", Space::Logical, Space::Physical);
    let t1 = map("(2,2):(1,2)", Space::Logical, Space::Logical);
    let t2 = map("(2,2):(2,1)", Space::Logical, Space::Logical);
    let i = map("4:1", Space::ThreadValue, Space::Logical);
    let m = compose(
        &p,
        &compose(&compose(&t1, &t2).expect("t1 o t2"), &i).expect("o i"),
    )
    .expect("p o ..");
    // Brute force: T2 (2,2):(2,1) then T1 (2,2):(1,2) then P the identity.
    let t2v = |x: i64| (x / 2) * 2 + (x % 2);
    let t1v = |x: i64| (x / 2) + (x % 2) * 2;
    let d = decide(&m, false).expect("decided");
    let program = layout_form(&d).expect("a layout");
    assert_eq!(program.sizes, vec![4], "one coordinate of size 4");
    for c in 0..4 {
        assert_eq!(program.eval(&[c]), Ok(t1v(t2v(c))), "layout form at {c}");
        assert_eq!(
            emit(&m, false).expect("emitted").program.eval(&[c]),
            Ok(t1v(t2v(c)))
        );
    }
}

/// Restricting a restriction counts the remaining entries of the original domain (spec: Restriction):
/// with or without a swizzle in between, entry 0 of `restrict(L, 0 = 1)` on
/// `L = (8,(2,4))` is the whole `(2,4)`.
#[test]
fn restrict_through_swizzle_by_hand() {
    use layout_core::{Annotated, Map, Space, Swizzle};
    let l: Map = Annotated::new(
        "(8,(2,4)):(8,(4,1))".parse().expect("a layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("valid")
    .into();
    let once = l.restrict(&[(0, 1)]).expect("restricted");
    let plain = once.restrict(&[(0, 1)]).expect("restricted twice");
    assert_eq!(plain.size(), 1, "the whole (2,4) entry fixed");
    let sw = Swizzle::new(1, 4, 0).expect("a swizzle");
    let swizzled = once.swizzle(sw).expect("swizzled");
    let through = swizzled
        .restrict(&[(0, 1)])
        .expect("restricted through the swizzle");
    assert_eq!(
        through.size(),
        plain.size(),
        "same entry numbering through a swizzle"
    );
}

/// The exact alias check never panics: offsets of `(6,2,2):(-11,2^62,-16)` fit `i64`.
#[test]
fn alias_walk_overflow_by_hand() {
    let l: layout_core::Layout = "(6,2,2):(-11,4611686018427387904,-16)"
        .parse()
        .expect("a layout");
    // Brute force: the three modes' offsets are distinct (2^62 apart, then 11·a + 16·c with
    // a < 6, c < 2, all distinct).
    assert_eq!(layout_core::is_alias_free(&l), Ok(true));
}
