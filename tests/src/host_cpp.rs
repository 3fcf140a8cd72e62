//! C++ programs compiled with the system compiler (`CXX`, else `c++`) and run: the tests that
//! check emitted C, the GEMM's generated functions and its kernel template on CPU threads.
//!
//! Each call builds in a temporary folder of its own (process id and a counter), so tests
//! running in parallel never share a file, and removes it afterwards.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The repository's root (the folder above `tests/`).
#[must_use]
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// Compiles `source` (C++ text) with `flags` (and `-I` the repository's root) and runs it.
/// Returns its stdout.
///
/// # Panics
/// When the compiler fails (its stderr in the message), or the program exits unsuccessfully
/// (its stdout and stderr in the message).
#[must_use]
pub fn run(name: &str, source: &str, flags: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!(
        "layout-{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cpp = dir.join("main.cpp");
    std::fs::write(&cpp, source).expect("write");
    let out = run_file(&dir, &cpp, flags);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// As [`run`], for the C++ file at `path` (from the repository's root).
///
/// # Panics
/// As [`run`].
#[must_use]
pub fn run_path(name: &str, path: &str, flags: &[&str]) -> String {
    let source = std::fs::read_to_string(root().join(path)).expect("read the C++ file");
    run(name, &source, flags)
}

fn run_file(dir: &Path, cpp: &Path, flags: &[&str]) -> String {
    let exe = dir.join("main");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    let out = Command::new(&cxx)
        .args(flags)
        .arg("-I")
        .arg(root())
        .arg("-o")
        .arg(&exe)
        .arg(cpp)
        .output()
        .expect("run the system C++ compiler");
    assert!(
        out.status.success(),
        "{cxx} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run");
    let stdout = String::from_utf8(run.stdout).expect("utf-8");
    assert!(
        run.status.success(),
        "the program failed ({}):\n{stdout}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    stdout
}
