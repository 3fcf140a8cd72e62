//! The host emulation of the Hopper GEMM's instructions (`gpu/hopper/host_emulation.hpp`, which
//! `gpu/hopper/instructions.cuh` includes when it is not compiled by nvcc) runs CUDA threads as
//! CPU threads. `tests/cpp/hopper_emulation.cpp` is compiled with the system C++ compiler and
//! run; it checks the emulation against computations of its own, written from the PTX ISA and
//! the CUDA driver's documentation: TMA boxes under every swizzle mode, inside, across and
//! before the tensor's edges, at destinations on and off the swizzle's repeat boundary (the
//! swizzle follows the shared-memory address), against the swizzle written per 16-byte chunk;
//! the driver's rules for a tiled tensor map; mbarrier phases step by step (the fresh barrier's
//! parity, arrivals, transaction bytes, a wait across threads); wgmma m64n256k16 with f32 and f16
//! accumulators over operands placed by the canonical K-major layouts of every swizzle mode and
//! the interleaved one, through descriptors encoded field by field, against the naive product
//! through the PTX ISA's D fragment; the asynchrony (poisoned registers until the wait,
//! chaining, `wait<1>`, the f16 rounding per wgmma); a small TMA + wgmma kernel; and the errors
//! a faulty kernel must get, each naming the CTA and the thread.

use std::sync::OnceLock;

use layout_tests::host_cpp;

/// The program's stdout (compiled and run once for every test).
fn output() -> &'static str {
    static OUT: OnceLock<String> = OnceLock::new();
    OUT.get_or_init(|| {
        host_cpp::run(
            "hopper-emulation",
            include_str!("../cpp/hopper_emulation.cpp"),
            &[
                "-std=c++20",
                "-O2",
                "-pthread",
                "-Wall",
                "-Wextra",
                "-Werror",
            ],
        )
    })
}

#[test]
fn emulated_instructions_match_independent_computations() {
    let out = output();
    println!("{out}");
    assert!(!out.contains("error:"), "{out}");
    // Every check, with at least this many values compared.
    let expected = [
        ("tma_none", 7200),
        ("tma_swizzle_32b", 8640),
        ("tma_swizzle_64b", 23040),
        ("tma_swizzle_128b", 61440),
        ("tma_poisoned_until_wait", 100_320),
        ("tma_fresh_barrier_parity_1", 240),
        ("make_tensor_map", 19),
        ("mbarrier_phases", 18),
        ("wgmma_128b", 65536),
        ("wgmma_128b_padded_sbo", 65536),
        ("wgmma_64b", 32768),
        ("wgmma_32b", 16384),
        ("wgmma_interleave", 16384),
        ("wgmma_interleave_k_outer", 16384),
        ("wgmma_registers_poisoned_until_wait", 16385),
        ("wgmma_chained", 16384),
        ("wgmma_wait_1", 32768),
        ("wgmma_f16_rounding", 16384),
        ("tiny_gemm", 16385),
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
    // The report of each kernel contains all of these.
    let expected: [(&str, &[&str]); 23] = [
        ("tiny_gemm", &["none"]),
        // The consumers never wait: the wgmmas read the poison, the loads never land.
        (
            "no_wait",
            &[
                "CTA 0: 2 TMA loads still in flight when the CTA ended",
                "elements wrong: 16384",
            ],
        ),
        // A wait on parity 1 of a fresh barrier passes at once.
        (
            "wrong_parity",
            &["2 TMA loads still in flight", "elements wrong: 16384"],
        ),
        (
            "late_wait",
            &["shared memory read by a wgmma changed between its issue and the wgmma_wait"],
        ),
        // expect_tx covers A only: the phase completes without B.
        (
            "short_expect",
            &["1 TMA loads still in flight", "elements wrong: 16384"],
        ),
        ("refill", &["shared memory read by a wgmma changed"]),
        (
            "no_fence",
            &["wgmma_m64n256k16_f32 with no wgmma_fence since its accumulator registers"],
        ),
        (
            "divergent",
            &["of the warpgroup executed wgmma_m64n256k16_f32 #2 with other operands"],
        ),
        (
            "early_return",
            &["returned with wgmma in flight (4 wgmma; committed groups not waited for: 1"],
        ),
        (
            "unfenced_init",
            &[
                "thread 0 ",
                "tma_load_2d on an mbarrier whose initialisation no fence_mbar_init followed",
            ],
        ),
        (
            "misaligned_tma",
            &["tma_load_2d destination is not 128-byte aligned (shared address 1088)"],
        ),
        (
            "tma_over_barrier",
            &["tma_load_2d destination overlaps the mbarrier at shared address 1536"],
        ),
        (
            "tma_outside_smem",
            &["tma_load_2d destination is not in the CTA's shared memory (byte offset 1152"],
        ),
        (
            "too_many_arrivals",
            &["mbar_arrive: more arrivals than the count (1) in phase 0"],
        ),
        (
            "uninitialised_barrier",
            &["mbar_arrive on an mbarrier that was never initialised (shared address 1032)"],
        ),
        (
            "double_init",
            &["mbar_init on an mbarrier already initialised"],
        ),
        (
            "deadlock",
            &[
                "CTA 0: no progress",
                "mbarrier at 1024: phase 0, 1 arrivals and 0 transaction bytes missing",
            ],
        ),
        (
            "setmaxnreg_divergent",
            &["did not execute setmaxnreg_", "(found: setmaxnreg_"],
        ),
        ("setmaxnreg_uniform", &["none"]),
        (
            "wgmma_partial_warpgroup",
            &["wgmma_m64n256k16_f32 in a warpgroup of 96 threads"],
        ),
        (
            "wgmma_base_offset",
            &["the A descriptor has a non-zero base offset"],
        ),
        (
            "wgmma_start_row",
            &[
                "descriptor starts on row 1 of its 128-byte swizzle pattern",
                "with base offset 0",
            ],
        ),
        (
            "wgmma_outside_smem",
            &[
                "a wgmma's B operand is not in the CTA's shared memory (shared address ",
                "the dynamic shared memory spans [1024, 9216))",
            ],
        ),
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
        if !parts.contains(&"none") {
            assert!(
                !line.starts_with(&format!("{prefix}none")),
                "{name}: no error reported"
            );
        }
    }
    assert_eq!(
        out.lines().filter(|l| l.starts_with("report ")).count(),
        expected.len(),
        "a report this test does not know:\n{out}"
    );
}

/// The Hopper GEMM's kernel template (`gpu/hopper/kernel.cuh`) with the generated functions, on
/// CPU threads through the launcher's path (admission, tensor maps from `hg_map_a`/`hg_map_b`,
/// the grid, the kernel's own alignment of a dynamic shared memory that starts off the 1024-byte
/// boundary): a problem with residue tiles in M, N and K (200 × 300 × 136, padded leading
/// dimensions, four CTAs in the grouped order) and one of whole tiles whose six k tiles wrap the
/// ring of four stages, fp32 and fp16 accumulators; extents of one with a K of one vector; nine
/// M tiles, past the grouped order's group of eight. Every element equals a naive GEMM (small
/// integers: exact for both), the padding of C stays untouched.
#[test]
fn the_hopper_gemm_runs_on_cpu_threads_and_equals_a_naive_gemm() {
    let text = host_cpp::run(
        "hopper-gemm-emulated",
        include_str!("../cpp/hopper_gemm_emulated.cpp"),
        &[
            "-std=c++20",
            "-O2",
            "-pthread",
            "-Wall",
            "-Wextra",
            "-Werror",
        ],
    );
    let lines: Vec<&str> = text.lines().collect();
    // NAME ACC M N K bad untouched: (ldc - M)·N padding elements keep the sentinel.
    assert_eq!(
        lines,
        [
            "residue f32 200 300 136 0 2400",
            "residue f16 200 300 136 0 2400",
            "whole f32 128 256 384 0 2048",
            "whole f16 128 256 384 0 2048",
            "one f32 1 1 8 0 0",
            "tall f16 1100 40 24 0 0",
        ]
    );
}
