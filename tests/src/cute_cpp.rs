//! CuTe C++ as an oracle: programs over the CUTLASS 4.2 headers, compiled on the host with the
//! system C++ compiler and run, their standard output returned to the test.
//!
//! The headers come from the `nvidia-cutlass==4.2.0.0` wheel (CuTe, CUTLASS) and three NVIDIA
//! wheels that hold the CUDA headers CuTe includes even on the host (`cuda_runtime_api.h`,
//! `vector_types.h`, libcu++'s `cuda/std/*`): `nvidia-cuda-runtime-cu12`, `nvidia-cuda-cccl-cu12`
//! and `nvidia-cuda-nvcc-cu12`. `.ci/run` installs all four with `--no-deps` into the ignored
//! virtual environment `.venv-pycute`, where this module finds them; `CUTE_INCLUDE` overrides the
//! search with a list of include folders separated by `:`. No GPU and no CUDA toolkit are used:
//! the programs only build layouts and print them.
//!
//! Without the headers, [`run`] returns `None` after printing why, so `cargo test` passes on a
//! machine without them; under `CI=true` (as `.ci/run` runs these tests a second time) a missing
//! header is a failure, not a skip.
//!
//! Executables are cached under `target/cute-cpp/`, keyed by a hash of the source, the flags and
//! the include folders, so a second test run compiles nothing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::workspace_root;

/// The pinned wheels whose headers [`include_dirs`] looks for, as `pip install` arguments.
pub const WHEELS: [&str; 4] = [
    "nvidia-cutlass==4.2.0.0",
    "nvidia-cuda-runtime-cu12==12.9.79",
    "nvidia-cuda-cccl-cu12==12.9.27",
    "nvidia-cuda-nvcc-cu12==12.9.86",
];

/// Whether `CI` is set to a true value (as `.ci/run` sets it for the runs that must not skip).
#[must_use]
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The include folders: `CUTE_INCLUDE` (separated by `:`), or the four wheels' folders in
/// `.venv-pycute`; `None` when a header CuTe needs is not found in them.
#[must_use]
pub fn include_dirs() -> Option<Vec<PathBuf>> {
    let dirs: Vec<PathBuf> = if let Some(v) = std::env::var_os("CUTE_INCLUDE") {
        std::env::split_paths(&v).collect()
    } else {
        let lib = workspace_root().join(".venv-pycute").join("lib");
        let site = std::fs::read_dir(&lib)
            .ok()?
            .filter_map(Result::ok)
            .map(|e| e.path().join("site-packages"))
            .find(|p| p.join("cutlass_library").is_dir())?;
        vec![
            site.join("cutlass_library/source/include"),
            site.join("nvidia/cuda_runtime/include"),
            site.join("nvidia/cuda_cccl/include"),
            site.join("nvidia/cuda_nvcc/include"),
        ]
    };
    let needed = [
        "cute/tensor.hpp",
        "cuda_runtime_api.h",
        "vector_types.h",
        "cuda/std/utility",
        "crt/host_defines.h",
    ];
    let found = needed
        .iter()
        .all(|h| dirs.iter().any(|d| d.join(h).is_file()));
    found.then_some(dirs)
}

fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The message printed (or, under `CI=true`, panicked with) when the headers are missing.
fn missing(what: &str) -> String {
    format!(
        "{what}: the CUTLASS 4.2 and CUDA headers are not installed (run `python3 -m venv \
         .venv-pycute && .venv-pycute/bin/pip install --no-deps {}`, or set CUTE_INCLUDE)",
        WHEELS.join(" ")
    )
}

/// Compiles `source` (C++17, `-O1`) against the CuTe headers and runs it; its standard output.
///
/// `name` names the cached executable and the messages. Returns `None` (after printing
/// `SKIPPED: ...`) when the headers are missing outside CI.
///
/// # Panics
/// Under `CI=true` when the headers are missing; when the program does not compile, or exits
/// with a failure (with the compiler's or the program's output).
#[must_use]
pub fn run(name: &str, source: &str) -> Option<String> {
    let Some(dirs) = include_dirs() else {
        let msg = missing(name);
        assert!(!ci(), "{msg}; under CI=true this is a failure, not a skip");
        println!("SKIPPED: {msg}");
        return None;
    };
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".to_string());
    let flags = ["-std=c++17", "-O1", "-w"];
    let mut h = fnv(source.as_bytes(), 0xcbf2_9ce4_8422_2325);
    h = fnv(cxx.as_bytes(), h);
    for f in flags {
        h = fnv(f.as_bytes(), h);
    }
    for d in &dirs {
        h = fnv(d.as_os_str().as_encoded_bytes(), h);
    }
    let cache = workspace_root().join("target").join("cute-cpp");
    std::fs::create_dir_all(&cache).expect("create target/cute-cpp");
    let exe = cache.join(format!("{name}-{h:016x}"));
    if !exe.is_file() {
        compile(&cxx, &flags, &dirs, source, &exe, name);
    }
    let out = Command::new(&exe)
        .output()
        .unwrap_or_else(|e| panic!("{name}: cannot run {}: {e}", exe.display()));
    assert!(
        out.status.success(),
        "{name}: the CuTe program failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("the CuTe program prints UTF-8"))
}

fn compile(cxx: &str, flags: &[&str], dirs: &[PathBuf], source: &str, exe: &Path, name: &str) {
    // Compile to a temporary name and rename, so a concurrent test never runs a partial file:
    // the name is unique to this process and call (tests of one binary run on several threads).
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let tmp = exe.with_extension(format!("tmp{}-{call}", std::process::id()));
    let src = tmp.with_extension(format!("tmp{}-{call}.cpp", std::process::id()));
    std::fs::write(&src, source).expect("write the C++ source");
    let mut cmd = Command::new(cxx);
    cmd.args(flags);
    for d in dirs {
        cmd.arg("-I").arg(d);
    }
    cmd.arg("-o").arg(&tmp).arg(&src);
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{name}: cannot run the C++ compiler `{cxx}`: {e}"));
    assert!(
        out.status.success(),
        "{name}: the CuTe program does not compile ({}):\n{}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::rename(&tmp, exe).expect("move the executable into place");
}
