//! The host emulation of the GEMM's instructions (`gpu/gemm/host_emulation.hpp`, which
//! `gpu/gemm/instructions.cuh` includes when it is not compiled by nvcc) runs CUDA threads as
//! CPU threads. `tests/cpp/ptx_emulation.cpp` is compiled with the system C++ compiler and run;
//! it checks the emulation against computations of its own: `mma.sync` m16n8k16 (f16 and f32
//! accumulators) on fragments loaded by the PTX ISA's ownership written a second time, against
//! the naive product; the rounding of f16 accumulators once per mma; `ldmatrix_x4` over
//! scattered rows, element by element; the late completion of `cp.async` seen through the
//! poison (groups, uncommitted copies, zero-fill that never reads its source); fresh poisoned
//! shared memory per CTA; a small GEMM through every instruction with residue tiles; and the
//! errors a faulty kernel must get (misaligned or out-of-range addresses, diverging lanes,
//! pending copies, deadlocks), each naming the CTA and the thread.

use std::sync::OnceLock;

use layout_tests::host_cpp;

/// The program's stdout (compiled and run once for both tests).
fn output() -> &'static str {
    static OUT: OnceLock<String> = OnceLock::new();
    OUT.get_or_init(run_program)
}

/// Compiles and runs the program; its stdout.
fn run_program() -> String {
    host_cpp::run(
        "ptx-emulation",
        include_str!("../cpp/ptx_emulation.cpp"),
        &[
            "-std=c++20",
            "-O2",
            "-pthread",
            "-Wall",
            "-Wextra",
            "-Werror",
        ],
    )
}

#[test]
fn emulated_instructions_match_independent_computations() {
    let out = output();
    println!("{out}");
    // Every check, with at least this many elements compared.
    let expected = [
        ("mma_f16", 2048),
        ("mma_f32", 2048),
        ("mma_f16_rounding", 128),
        ("mma_f32_exact", 128),
        ("ldmatrix_x4", 1024),
        ("cp_async", 640),
        ("smem_poison", 12384),
        ("small_gemm_f32", 5000),
        ("small_gemm_f16", 5000),
    ];
    for (name, at_least) in expected {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().take(2).eq(["check", name]))
            .unwrap_or_else(|| panic!("no check {name} in:\n{out}"));
        let fields: Vec<i64> = line
            .split_whitespace()
            .skip(2)
            .map(|f| f.parse().expect("integer"))
            .collect();
        assert_eq!(fields.len(), 2, "{line}");
        assert_eq!(fields[0], 0, "{name}: {} of {} wrong", fields[0], fields[1]);
        assert!(fields[1] >= at_least, "{name}: only {} compared", fields[1]);
    }
    assert_eq!(
        out.lines().filter(|l| l.starts_with("check ")).count(),
        expected.len(),
        "a check this test does not know:\n{out}"
    );
}

#[test]
fn faulty_kernels_are_reported_with_their_cta_and_thread() {
    let out = output();
    // The report of each faulty kernel contains all of these.
    let expected: [(&str, &[&str]); 13] = [
        (
            "misaligned_ldmatrix",
            &[
                "CTA (1, 0) thread 5 (warp 0, lane 5)",
                "ldmatrix_x4 row address is not 16-byte aligned",
                "byte offset 88",
            ],
        ),
        (
            "outside_smem",
            &["ldmatrix_x4 row address is not in the CTA's shared memory"],
        ),
        (
            "cp_async_outside_smem",
            &[
                "thread 3 ",
                "cp_async_16 destination is not in the CTA's shared memory",
            ],
        ),
        (
            "cp_async_misaligned_source",
            &["thread 9 ", "cp_async_16 source is not 16-byte aligned"],
        ),
        (
            "cp_async_pending",
            &[
                "thread 12 ",
                "returned with pending cp.async copies (1 copies; committed groups not waited for: 1; copies not committed: 0)",
            ],
        ),
        ("diverged", &["lane 7 ", "did not execute", "mma_16816_f32"]),
        (
            "lane_returned",
            &[
                "lane 30 of the warp did not execute ldmatrix_x4",
                "executed none",
            ],
        ),
        (
            "partial_warp",
            &["warp 1", "ldmatrix_x4 in a warp of 16 threads"],
        ),
        (
            "body_throws",
            &["thread 40 (warp 1, lane 8): kernel failure"],
        ),
        (
            "deadlock",
            &[
                "CTA (0, 0): no progress",
                "16 of 32 threads wait at sync_threads",
                "16 of 32 lanes of warp 0 wait",
            ],
        ),
        ("too_many_threads", &["1056 threads (1 to 1024 threads"]),
        (
            "too_much_smem",
            &["232464 bytes of shared memory per CTA, more than the 232448"],
        ),
        ("correct", &["none"]),
    ];
    for (name, parts) in expected {
        let prefix = format!("report {name} ");
        let line = out
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no report {name} in:\n{out}"));
        for part in parts {
            assert!(line.contains(part), "{name}: `{part}` not in `{line}`");
        }
        if name != "correct" {
            assert!(!line.ends_with(" none"), "{name}: no error reported");
        }
    }
}
