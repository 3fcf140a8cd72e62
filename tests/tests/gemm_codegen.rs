//! The generated GEMM, checked without a GPU: the committed `gpu/gen/gemm.cuh` is exactly what
//! the generator writes, and its functions, compiled as plain C++ with the system compiler and
//! combined as the kernel template (`gpu/gemm/kernel.cuh`) combines them, equal the algebra's
//! layouts at every thread, value, stage and k-block: the global offsets and predicates against
//! `residue::ceil_divide` of the run-time matrices (residue tiles in M, N and K, padded leading
//! dimensions), the shared-memory offsets against the tiled copy's and the `ldmatrix` copies'
//! partitions of the swizzled ring, and the register indices against the fragments and
//! `retile_D`.

#[path = "../../layout-typed/examples/gen_cuda/gemm.rs"]
#[allow(dead_code)]
mod gemm;

use std::fmt::Write as _;

use layout_tests::host_cpp::{self, root};

use layout_typed::core_algebra::residue::ceil_divide;
use layout_typed::core_algebra::{Annotated, Layout, Map, Space, compose};

#[test]
fn committed_header_is_what_the_generator_writes() {
    let committed =
        std::fs::read_to_string(root().join("gpu/gen/gemm.cuh")).expect("gpu/gen/gemm.cuh");
    let fresh = gemm::header().expect("generation");
    assert!(
        committed == fresh,
        "gpu/gen/gemm.cuh is stale: run `cargo run -p layout-typed --example gen_cuda`"
    );
}

/// The C++ program: the generated header (or `header`), then `main` around `body`.
fn program(header: &str, body: &str) -> String {
    format!(
        "#include <cstdint>\n#include <cstdio>\n#define __host__\n#define __device__\n\
         #define __forceinline__ inline\n#include \"{header}\"\nint main() {{\n{body}\nreturn 0;\n}}\n"
    )
}

const FLAGS: &[&str] = &["-std=c++17", "-O1", "-Wall"];

/// `body` after the generated header, compiled as C++ and run: the integers it prints.
fn run_cpp(name: &str, body: &str) -> Vec<i64> {
    host_cpp::run(name, &program("gpu/gen/gemm.cuh", body), FLAGS)
        .lines()
        .map(|l| l.parse().expect("integer"))
        .collect()
}

/// Problems with residues in every mode and padded leading dimensions (multiples of 8), and the
/// tiles compared: the first and the last (residue) tile of each mode.
const PROBLEMS: [[i64; 6]; 2] = [
    // M, N, K, lda, ldb, ldc
    [300, 260, 200, 208, 216, 304],
    [256, 128, 64, 64, 72, 256],
];

#[test]
fn global_offsets_and_predicates_equal_the_residue_tiles_of_the_run_time_matrices() {
    let copy = gemm::sgemm::gmem_copy().expect("copy");
    let mma = gemm::sgemm::tiled_mma().expect("mma");
    let threads = mma.threads();
    let mut body = String::new();
    let mut expected: Vec<(String, i64)> = Vec::new();
    for [m, n, k, lda, ldb, ldc] in PROBLEMS {
        // CuTe order (M, K):(lda, 1) etc., as the kernel's matrices.
        let a = Layout::from_cute(&format!("({m},{k}):({lda},1)")).expect("A");
        let b = Layout::from_cute(&format!("({n},{k}):({ldb},1)")).expect("B");
        let c = Layout::from_cute(&format!("({m},{n}):(1,{ldc})")).expect("C");
        let (ta, tb, tc) = (
            ceil_divide(&a, &[gemm::BK, gemm::BM]).expect("A tiles"),
            ceil_divide(&b, &[gemm::BK, gemm::BN]).expect("B tiles"),
            ceil_divide(&c, &[gemm::BN, gemm::BM]).expect("C tiles"),
        );
        let tv_a = copy.tv_over(&[gemm::BK, gemm::BM]).expect("tv");
        let tv_b = copy.tv_over(&[gemm::BK, gemm::BN]).expect("tv");
        let tv_c = mma.c().expect("c").as_layout().cloned().expect("layout");
        let (pa, pb, pc) = (
            ta.partition(&tv_a).expect("pa"),
            tb.partition(&tv_b).expect("pb"),
            tc.partition(&tv_c).expect("pc"),
        );
        for (op, part, tiles, mn, ld) in [("a", &pa, &ta, m, lda), ("b", &pb, &tb, n, ldb)] {
            let g = tiles.grid().to_vec();
            for kt in [0, g[0] - 1] {
                for mt in [0, g[1] - 1] {
                    let _ = writeln!(
                        body,
                        "for (uint32_t t = 0; t < {threads}u; ++t) for (uint32_t i = 0; i < GEMM_COPY_VECS; ++i) {{\n\
                         uint32_t v = gemm_copy_value(i);\n\
                         int ok = gemm_{op}(t, v, {kt}u, {mt}u, {k}u, {mn}u);\n\
                         printf(\"%d\\n\", ok);\n\
                         if (ok) printf(\"%d\\n\", gemm_{op}_offset(gemm_{op}_coord1(t, v, {mt}u), gemm_{op}_coord0(t, v, {kt}u), {ld}));\n}}"
                    );
                    for t in 0..threads {
                        for i in 0..8 {
                            let v = i * copy.vector();
                            let off = part.offset(&[kt, mt], t, v).expect("offset");
                            expected.push((
                                format!("{op} pred t{t} i{i} tile ({kt},{mt})"),
                                i64::from(off.is_some()),
                            ));
                            if let Some(o) = off {
                                expected
                                    .push((format!("{op} offset t{t} i{i} tile ({kt},{mt})"), o));
                            }
                        }
                    }
                }
            }
        }
        let g = tc.grid().to_vec();
        for nt in [0, g[0] - 1] {
            for mt in [0, g[1] - 1] {
                let _ = writeln!(
                    body,
                    "for (uint32_t t = 0; t < {threads}u; ++t) for (uint32_t v = 0; v < GEMM_ACC; ++v) {{\n\
                     int ok = gemm_c(t, v, {nt}u, {mt}u, {n}u, {m}u);\n\
                     printf(\"%d\\n\", ok);\n\
                     if (ok) printf(\"%d\\n\", gemm_c_offset(gemm_c_coord1(t, v, {mt}u), gemm_c_coord0(t, v, {nt}u), {ldc}));\n}}"
                );
                for t in 0..threads {
                    for v in 0..pc.values() {
                        let off = pc.offset(&[nt, mt], t, v).expect("offset");
                        expected.push((
                            format!("c pred t{t} v{v} tile ({nt},{mt})"),
                            i64::from(off.is_some()),
                        ));
                        if let Some(o) = off {
                            expected.push((format!("c offset t{t} v{v} tile ({nt},{mt})"), o));
                        }
                    }
                }
            }
        }
    }
    let got = run_cpp("global", &body);
    assert_eq!(got.len(), expected.len(), "one value per check");
    for ((what, want), got) in expected.iter().zip(&got) {
        assert_eq!(got, want, "{what}");
    }
}

#[test]
fn shared_memory_offsets_and_registers_equal_the_partitions() {
    let copy = gemm::sgemm::gmem_copy().expect("copy");
    let mma = gemm::sgemm::tiled_mma().expect("mma");
    let ldsm = gemm::sgemm::ldsm_atom().expect("ldsm");
    let s = gemm::sgemm::smem().expect("smem");
    let threads = mma.threads();
    let mut body = String::new();
    let mut expected: Vec<(String, i64)> = Vec::new();
    // cp.async destinations: stage + thread + vector, as gemm_copy_tile forms them.
    let s_copy = copy.partition(&s).expect("partition");
    let sizes = s_copy.domain_entry_sizes();
    let _ = writeln!(
        body,
        "for (uint32_t p = 0; p < GEMM_STAGES; ++p) for (uint32_t i = 0; i < GEMM_COPY_VECS; ++i) \
         for (uint32_t t = 0; t < {threads}u; ++t) printf(\"%u\\n\", gemm_s_stage(p) + gemm_s_copy_t(t) + gemm_s_copy_y(i));"
    );
    for p in 0..gemm::STAGES {
        for i in 0..sizes[2] {
            for t in 0..threads {
                // Entries (stage, rest_k, rest_m, value, thread), seed order (last fastest).
                let flat = (((p * sizes[1]) * sizes[2] + i) * sizes[3]) * sizes[4] + t;
                expected.push((
                    format!("copy dst p{p} i{i} t{t}"),
                    s_copy.eval_index(flat).expect("eval"),
                ));
            }
        }
    }
    // ldmatrix rows: stage + (thread ^ k-block) + copy, as gemm_load_fragments forms them.
    for (op, oc) in [
        ("a", mma.copy_a(&ldsm).expect("A")),
        ("b", mma.copy_b(&ldsm).expect("B")),
    ] {
        let _ = writeln!(
            body,
            "for (uint32_t p = 0; p < GEMM_STAGES; ++p) for (uint32_t kb = 0; kb < GEMM_KBLOCKS; ++kb) \
             for (uint32_t i = 0; i < GEMM_LDSM_{u}; ++i) for (uint32_t t = 0; t < {threads}u; ++t) \
             printf(\"%u\\n\", gemm_s_stage(p) + (gemm_ldsm_{op}_t(t) ^ gemm_ldsm_{op}_x(kb)) + gemm_ldsm_{op}_y(i));",
            u = op.to_uppercase()
        );
        for p in 0..gemm::STAGES {
            let part = oc
                .partition_s(&s.restrict(&[(0, p)]).expect("stage"))
                .expect("partition");
            let per_thread = part.size() / threads;
            // Value (kb, i, 8 elements of the row), thread; the row's first element.
            let calls = per_thread / 8;
            let per_kb = calls / 4;
            for kb in 0..4 {
                for i in 0..per_kb {
                    for t in 0..threads {
                        let value = (kb * per_kb + i) * 8;
                        expected.push((
                            format!("ldsm {op} p{p} kb{kb} i{i} t{t}"),
                            part.eval_index(value * threads + t).expect("eval"),
                        ));
                    }
                }
            }
        }
        // Registers: ldmatrix register j of copy (kb, i) holds the fragment's values
        // retile(kb, i, 2j) and (.., 2j + 1), in 32-bit register gemm_ldsm_*_reg.
        let stage0 = s.restrict(&[(0, 0)]).expect("stage");
        let frag = if op == "a" {
            mma.fragment_a(&stage0)
        } else {
            mma.fragment_b(&stage0)
        }
        .expect("fragment");
        let frag_map: Map = Annotated::new(frag.clone(), Space::Logical, Space::Physical)
            .expect("frag")
            .into();
        let halves = compose(&frag_map, &as_logical(oc.retile())).expect("retile_d");
        let _ = writeln!(
            body,
            "for (uint32_t kb = 0; kb < GEMM_KBLOCKS; ++kb) for (uint32_t i = 0; i < GEMM_LDSM_{u}; ++i) \
             for (uint32_t j = 0; j < 4; ++j) printf(\"%u\\n\", gemm_ldsm_{op}_reg(kb, i, j));",
            u = op.to_uppercase()
        );
        for idx in 0..halves.size() / 2 {
            let lo = halves.eval_index(2 * idx).expect("lo");
            assert_eq!(
                halves.eval_index(2 * idx + 1).expect("hi"),
                lo + 1,
                "a register's pair"
            );
            expected.push((format!("ldsm {op} register {idx}"), lo / 2));
        }
        // The MMA's operand registers: fragment value (kb, i, atom value 2j).
        let atom_values = if op == "a" { 8 } else { 4 };
        let rest = frag.size() / atom_values / 4;
        let _ = writeln!(
            body,
            "for (uint32_t kb = 0; kb < GEMM_KBLOCKS; ++kb) for (uint32_t i = 0; i < {rest}u; ++i) \
             for (uint32_t j = 0; j < {}u; ++j) printf(\"%u\\n\", gemm_mma_{op}_reg(kb, i, j));",
            atom_values / 2
        );
        for kb in 0..4 {
            for i in 0..rest {
                for j in 0..atom_values / 2 {
                    let value = (kb * rest + i) * atom_values + 2 * j;
                    expected.push((
                        format!("mma {op} kb{kb} i{i} j{j}"),
                        frag.eval_index(value).expect("frag") / 2,
                    ));
                }
            }
        }
    }
    // Accumulators: value (n, m, j) of the C partition in register fragment_c(value).
    let frag_c = mma.fragment_c().expect("fragment C");
    let _ = writeln!(
        body,
        "for (uint32_t v = 0; v < GEMM_ACC; ++v) printf(\"%u %u %u\\n\", gemm_acc_of(v), gemm_acc_word_of(v), gemm_acc_half_of(v));\n\
         for (uint32_t ni = 0; ni < GEMM_MMA_N; ++ni) for (uint32_t mi = 0; mi < GEMM_MMA_M; ++mi) for (uint32_t j = 0; j < GEMM_MMA_ACC; ++j) \
         printf(\"%u\\n\", gemm_acc(ni, mi, j));"
    );
    let _ = &mut body;
    let mut acc_expected = Vec::new();
    for v in 0..frag_c.size() {
        let r = frag_c.eval_index(v).expect("c");
        acc_expected.push(format!("{r} {} {}", r / 2, r % 2));
    }
    for v in 0..frag_c.size() {
        acc_expected.push(frag_c.eval_index(v).expect("c").to_string());
    }
    // The accumulator lines are checked as text (three numbers per value).
    let src_values = run_cpp_text("shared", &body);
    let (numbers, acc_lines) = src_values.split_at(src_values.len() - acc_expected.len());
    let got: Vec<i64> = numbers
        .iter()
        .map(|l| l.parse().expect("integer"))
        .collect();
    assert_eq!(got.len(), expected.len(), "one value per check");
    for ((what, want), got) in expected.iter().zip(&got) {
        assert_eq!(got, want, "{what}");
    }
    assert_eq!(acc_lines, &acc_expected[..], "accumulator registers");
}

fn as_logical(m: &Map) -> Map {
    m.clone()
}

fn run_cpp_text(name: &str, body: &str) -> Vec<String> {
    run_cpp_text_with(name, "gpu/gen/gemm.cuh", body)
}

/// As `run_cpp_text`, including `header` (a path from the repository's root) instead.
fn run_cpp_text_with(name: &str, header: &str, body: &str) -> Vec<String> {
    host_cpp::run(name, &program(header, body), FLAGS)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The kernel template itself, with the generated functions, on CPU threads: every CUDA thread
/// a thread, `cp.async` completing late, `ldmatrix` and `mma.sync` exchanged across the warp by
/// the PTX fragment ownership (`gpu/gemm/host_emulation.hpp`). A problem with residue tiles in
/// M, N and K (137 × 201 × 200, padded leading dimensions; the predicated kernel) and one of
/// whole tiles (the kernel without predicates), fp16 and fp32 accumulators, every element
/// equal to a naive GEMM (small integers: exact), the padding of C untouched.
#[test]
fn the_gemm_runs_on_cpu_threads_and_equals_a_naive_gemm() {
    let text = host_cpp::run_path(
        "gemm-emulated",
        "tests/cpp/gemm_emulated.cpp",
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
    // NAME M N K bad untouched: (ldc - M)·N padding elements keep the sentinel.
    assert_eq!(
        lines,
        [
            "residue 137 201 200 0 402",
            "residue 137 201 200 0 402",
            "whole 128 256 320 0 2048",
            "whole 128 256 320 0 2048",
        ]
    );
}

/// The CTA orders: over the grid the launcher launches (`gen_gemm_grid`: CuTe's order M tiles ×
/// N tiles, the grouped order `GROUP`·N tiles × ⌈M tiles / GROUP⌉), every C tile is computed by
/// exactly one block, and every other block finds its M tile past the matrix
/// (`gemm_tile_first_m ≥ M`), for grids that are and are not multiples of the group.
#[test]
fn every_cta_order_covers_each_c_tile_once() {
    let cases: [(i64, i64); 4] = [(1, 1), (8, 3), (13, 5), (32, 32)];
    // The launcher's grid (`gen_gemm_grid`, gpu/gemm/supported.hpp), then each block's tile and
    // whether it lives (`gemm_tile_first_m < M`), as `gemm_cta_tile` decides.
    let mut body = String::new();
    for (m, n) in cases {
        let (rows, cols) = (m * gemm::BM - 5, n * gemm::BN - 3);
        for (order, linear) in [("linear", true), ("grouped", false)] {
            let _ = writeln!(
                body,
                "{{ unsigned gx, gy; gen_gemm_grid({linear}, {rows}, {cols}, gx, gy); printf(\"%u %u\\n\", gx, gy);\n\
                 for (uint32_t y = 0; y < gy; ++y) for (uint32_t x = 0; x < gx; ++x) \
                 printf(\"%u %u %d\\n\", gemm_{order}_m(y, x), gemm_{order}_n(y, x), \
                 gemm_tile_first_m(gemm_{order}_m(y, x)) < {rows}u); }}"
            );
        }
    }
    let lines = run_cpp_text_with("raster", "gpu/gemm/supported.hpp", &body);
    let mut at = 0;
    let ints =
        |line: &str| -> Vec<i64> { line.split(' ').map(|x| x.parse().expect("int")).collect() };
    for (m, n) in cases {
        for order in ["linear", "grouped"] {
            let grid = ints(&lines[at]);
            at += 1;
            let blocks = usize::try_from(grid[0] * grid[1]).expect("blocks");
            let mut seen = vec![0; usize::try_from(m * n).expect("tiles")];
            for line in &lines[at..at + blocks] {
                let v = ints(line);
                let (bm, bn, live) = (v[0], v[1], v[2]);
                assert_eq!(
                    live == 1,
                    bm < m,
                    "{order} {m}x{n}: block of tile ({bm}, {bn})"
                );
                if live == 1 {
                    assert!(bn < n, "{order} {m}x{n}: N tile {bn}");
                    seen[usize::try_from(bm + m * bn).expect("index")] += 1;
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "{order} {m}x{n}: {seen:?}");
            at += blocks;
        }
    }
    assert_eq!(at, lines.len());
}
