//! The Hopper GEMM's generated header `gpu/gen/hopper_gemm.cuh`, checked without a GPU: the
//! committed file is exactly what the generator writes, and its functions, compiled as plain
//! C++17 with the system compiler, are checked against rules written here from the PTX ISA and
//! CUDA's documentation, independent of the generator and of `layout_core`:
//!
//! - at every stage, consumer warpgroup, k-block and element of each `wgmma` operand sub-tile,
//!   the byte address that the descriptor makes `wgmma` read (the PTX ISA's K-major canonical
//!   layout under the 128-byte swizzle) is the address where the TMA load of that stage wrote
//!   the element (the tensor map's rule: the box row-major, dimension 0 fastest, then the
//!   128-byte swizzle), at two shared-memory bases: what TMA writes is what `wgmma` reads;
//! - the accumulator fragment at every thread and value against the PTX ISA's m64nNk16 D
//!   fragment, a bijection onto the 64×256 tile;
//! - the grouped CTA order covers every C tile exactly once, residues included; the k tiles.

#[path = "../../layout-typed/examples/gen_cuda/hopper.rs"]
#[allow(dead_code)]
mod hopper;

use std::fmt::Write as _;

use layout_tests::host_cpp::{self, root};

#[test]
fn committed_header_is_what_the_generator_writes() {
    let committed = std::fs::read_to_string(root().join("gpu/gen/hopper_gemm.cuh"))
        .expect("gpu/gen/hopper_gemm.cuh");
    let fresh = hopper::header().expect("generation");
    assert!(
        committed == fresh,
        "gpu/gen/hopper_gemm.cuh is stale: run `cargo run -p layout-typed --example gen_cuda`"
    );
}

/// The interface's configuration (the kernel's design), as the header must define it.
const BM: u64 = 128;
const BN: u64 = 256;
const BK: u64 = 64;
const STAGES: u64 = 4;
const CONSUMERS: u64 = 2;
const KBLOCKS: u64 = BK / 16;
const ACC: u64 = 64 * BN / 128;
const GROUP: u64 = 8;
/// Two shared-memory bases: 0 and the largest 1024-aligned one that leaves the header's
/// 196672 bytes inside an SM's 228 KiB.
const BASES: [u64; 2] = [0, 35 * 1024];

/// The C++ program: the header (with `HG_FN` as `gpu/hopper/instructions.cuh` defines it on the
/// host), then `main` around `body`.
fn program(body: &str) -> String {
    format!(
        "#include <cstdint>\n#include <cstdio>\n#define HG_FN inline\n\
         #include \"gpu/gen/hopper_gemm.cuh\"\nint main() {{\n{body}\nreturn 0;\n}}\n"
    )
}

/// `body` after the header, compiled as C++17 (every warning an error) and run: its lines.
fn run_cpp(name: &str, body: &str) -> Vec<String> {
    host_cpp::run(
        name,
        &program(body),
        &["-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror"],
    )
    .lines()
    .map(str::to_string)
    .collect()
}

fn numbers(line: &str) -> Vec<u64> {
    line.split_whitespace()
        .map(|x| x.parse().expect("integer"))
        .collect()
}

/// The 128-byte swizzle of a shared-memory byte address: the 16-byte chunk bits [4, 7) XOR
/// the bits [7, 10) (the PTX ISA's and CUDA's `SWIZZLE_128B`).
fn swizzle128(addr: u64) -> u64 {
    addr ^ (((addr >> 7) & 7) << 4)
}

/// The byte address `wgmma` reads for element (`row`, `k`) (16-bit elements) of the operand
/// that `desc` describes, by the PTX ISA: the start address, LBO and SBO in 16-byte units in
/// bits 0–13, 16–29, 32–45, the base offset in 49–51 (0 here), the layout type in 62–63 (1: the
/// 128-byte swizzle), every other bit 0. The K-major 128-byte-swizzle canonical layout
/// `((8,m),(T,2k)):((8T,SBO),(1,T))`, `T` = 8 elements (16 bytes): row `r0 + 8·r1` and column
/// `c0 + T·c1` at `2·(8T·r0 + c0 + T·c1)` bytes plus `SBO·r1`; then the swizzle of the address.
fn wgmma_address(desc: u64, row: u64, k: u64) -> u64 {
    let start = (desc & 0x3fff) << 4;
    let sbo = ((desc >> 32) & 0x3fff) << 4;
    assert_eq!((desc >> 49) & 7, 0, "base offset of {desc:#x}");
    assert_eq!(
        desc >> 62,
        1,
        "layout type of {desc:#x}: not the 128-byte swizzle"
    );
    let reserved: u64 = (0b11 << 14) | (0b11 << 30) | (0b111 << 46) | (0x3ff << 52);
    assert_eq!(desc & reserved, 0, "reserved bits of {desc:#x}");
    let t = 8;
    let (r0, r1, c0, c1) = (row % 8, row / 8, k % t, k / t);
    assert!(c1 < 2, "k {k} past the 16 elements of one wgmma");
    swizzle128(start + 2 * (8 * t * r0 + c0 + t * c1) + sbo * r1)
}

/// The byte address where a TMA load into `dst` writes box element (`x1`, `x0`) (dimension 0,
/// `x0`, innermost) of a box `box0` elements wide, 16-bit elements, under the 128-byte
/// swizzle: the box row-major, then the swizzle of the address (`dst` 1024-aligned, as the
/// 128-byte swizzle needs).
fn tma_address(dst: u64, box0: u64, x1: u64, x0: u64) -> u64 {
    assert_eq!(dst % 1024, 0, "TMA destination {dst} not 1024-aligned");
    assert!(x0 < box0, "element {x0} outside the box's {box0}");
    swizzle128(dst + 2 * (x1 * box0 + x0))
}

/// The constants, the stage starts and every descriptor at two bases: what TMA writes (A's
/// global element `(bm·BM + 64·wg + m, kt·BK + 16·kb + k)` is box element `(64·wg + m, 16·kb +
/// k)` of k tile `kt`'s load into stage `s`; B's `(bn·BN + n, kt·BK + 16·kb + k)` likewise) is
/// what the descriptors make `wgmma` read, at every element.
#[test]
fn what_tma_writes_is_what_wgmma_reads() {
    let mut body = String::from(
        "printf(\"%d %d %d %d %d %d %d %d %d\\n\", HG_BM, HG_BN, HG_BK, HG_STAGES, HG_CONSUMERS, \
         HG_THREADS, HG_KBLOCKS, HG_ACC, HG_GROUP);\n\
         printf(\"%d %d %d %d %d\\n\", HG_SMEM_A, HG_SMEM_B, HG_SMEM_BAR, HG_SMEM_BYTES, HG_STAGE_TX);\n\
         printf(\"%d %d %d %d %d\\n\", HG_TMA_A_BOX0, HG_TMA_A_BOX1, HG_TMA_B_BOX0, HG_TMA_B_BOX1, \
         HG_TMA_SWIZZLE);\n\
         for (uint32_t s = 0; s < HG_STAGES; ++s) printf(\"%u %u\\n\", hg_s_a(s), hg_s_b(s));\n",
    );
    for base in BASES {
        let _ = writeln!(
            body,
            "for (uint32_t s = 0; s < HG_STAGES; ++s) for (uint32_t wg = 0; wg < HG_CONSUMERS; ++wg) \
             for (uint32_t kb = 0; kb < HG_KBLOCKS; ++kb) \
             printf(\"%llu\\n\", (unsigned long long)hg_desc_a({base}u, s, wg, kb));\n\
             for (uint32_t s = 0; s < HG_STAGES; ++s) for (uint32_t kb = 0; kb < HG_KBLOCKS; ++kb) \
             printf(\"%llu\\n\", (unsigned long long)hg_desc_b({base}u, s, kb));"
        );
    }
    let lines = run_cpp("hopper-smem", &body);
    assert_eq!(
        numbers(&lines[0]),
        [
            BM,
            BN,
            BK,
            STAGES,
            CONSUMERS,
            128 * (1 + CONSUMERS),
            KBLOCKS,
            ACC,
            GROUP
        ]
    );
    // The rings: A's (BM·BK halves per stage) at 0, B's after it, the 2·STAGES mbarriers after
    // B's; one stage's two boxes are what expect_tx counts.
    let (a_stage, b_stage) = (BM * BK * 2, BN * BK * 2);
    let smem_b = STAGES * a_stage;
    let bar = smem_b + STAGES * b_stage;
    assert_eq!(
        numbers(&lines[1]),
        [0, smem_b, bar, bar + 2 * STAGES * 8, a_stage + b_stage]
    );
    // Boxes: (K, M) and (K, N), CU_TENSOR_MAP_SWIZZLE_128B = 3.
    assert_eq!(numbers(&lines[2]), [BK, BM, BK, BN, 3]);
    let starts: Vec<Vec<u64>> = lines[3..3 + STAGES as usize]
        .iter()
        .map(|l| numbers(l))
        .collect();
    for (s, st) in starts.iter().enumerate() {
        // Each stage's box inside its ring, after the previous stage's.
        let s = s as u64;
        assert_eq!(st[0], s * a_stage, "A's stage {s}");
        assert_eq!(st[1], smem_b + s * b_stage, "B's stage {s}");
    }
    let mut at = 3 + STAGES as usize;
    let mut checked = 0usize;
    for base in BASES {
        for s in 0..STAGES {
            for wg in 0..CONSUMERS {
                for kb in 0..KBLOCKS {
                    let desc = numbers(&lines[at])[0];
                    at += 1;
                    let dst = base + starts[s as usize][0];
                    for m in 0..64 {
                        for k in 0..16 {
                            assert_eq!(
                                wgmma_address(desc, m, k),
                                tma_address(dst, BK, 64 * wg + m, 16 * kb + k),
                                "A at base {base}, stage {s}, consumer {wg}, k-block {kb}, element ({m}, {k}): descriptor {desc:#x}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        for s in 0..STAGES {
            for kb in 0..KBLOCKS {
                let desc = numbers(&lines[at])[0];
                at += 1;
                let dst = base + starts[s as usize][1];
                for n in 0..BN {
                    for k in 0..16 {
                        assert_eq!(
                            wgmma_address(desc, n, k),
                            tma_address(dst, BK, n, 16 * kb + k),
                            "B at base {base}, stage {s}, k-block {kb}, element ({n}, {k}): descriptor {desc:#x}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(at, lines.len());
    assert_eq!(
        checked,
        2 * (STAGES * KBLOCKS * (CONSUMERS * 64 + BN) * 16) as usize
    );
}

/// The accumulators: value `j` of thread `t` against the PTX ISA's m64nNk16 D fragment (row
/// `16·(t/32) + (t%32)/4 + 8·((j/2)%2)`, column `8·(j/4) + 2·(t%4) + j%2`), every element of
/// the 64×256 tile once.
#[test]
fn accumulators_are_the_ptx_d_fragment() {
    let lines = run_cpp(
        "hopper-acc",
        "for (uint32_t t = 0; t < 128; ++t) for (uint32_t j = 0; j < HG_ACC; ++j) \
         printf(\"%u %u\\n\", hg_acc_m(t, j), hg_acc_n(t, j));",
    );
    assert_eq!(lines.len() as u64, 128 * ACC);
    let mut seen = vec![0u32; (64 * BN) as usize];
    for t in 0..128u64 {
        for j in 0..ACC {
            let got = numbers(&lines[(t * ACC + j) as usize]);
            let row = 16 * (t / 32) + (t % 32) / 4 + 8 * ((j / 2) % 2);
            let col = 8 * (j / 4) + 2 * (t % 4) + j % 2;
            assert_eq!(got, [row, col], "thread {t} value {j}");
            seen[(row * BN + col) as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&c| c == 1), "not a bijection onto 64×256");
}

/// The grid and the CTA order for problems of whole tiles, residues in M and N, one group and
/// many, a last group of fewer than `GROUP` M tiles: every C tile once, each block in the
/// group of its position (`GROUP` M tiles of one N tile, then the next N tile); the k tiles.
#[test]
fn the_cta_order_covers_each_c_tile_once() {
    let cases: [(u64, u64); 9] = [
        (1, 1),
        (128, 256),
        (300, 260),
        (1024, 1024),
        (1025, 257),
        (8 * 128 * 3 + 5, 7 * 256),
        (13 * 128, 5 * 256 - 3),
        (4096, 4096),
        (8192 + 64, 8192 - 100),
    ];
    let ks: [u64; 8] = [0, 1, 63, 64, 65, 200, 4096, u64::from(u32::MAX)];
    let mut body = String::new();
    for (m, n) in cases {
        let _ = writeln!(
            body,
            "{{ const uint32_t g = hg_grid_x({m}u, {n}u); printf(\"%u\\n\", g);\n\
             for (uint32_t x = 0; x < g; ++x) printf(\"%u %u\\n\", hg_cta_m(x, {m}u, {n}u), hg_cta_n(x, {m}u, {n}u)); }}"
        );
    }
    for k in ks {
        let _ = writeln!(body, "printf(\"%u\\n\", hg_k_tiles({k}u));");
    }
    let lines = run_cpp("hopper-order", &body);
    let mut at = 0;
    for (m, n) in cases {
        let (tm, tn) = (m.div_ceil(BM), n.div_ceil(BN));
        let grid = numbers(&lines[at])[0];
        at += 1;
        assert_eq!(grid, tm * tn, "{m}×{n}: the grid");
        let mut seen = vec![0u32; (tm * tn) as usize];
        for x in 0..grid {
            let v = numbers(&lines[at]);
            at += 1;
            let (bm, bn) = (v[0], v[1]);
            assert!(
                bm < tm && bn < tn,
                "{m}×{n}: block {x} takes tile ({bm}, {bn})"
            );
            assert_eq!(bm / GROUP, x / (GROUP * tn), "{m}×{n}: block {x}'s group");
            seen[(bm + tm * bn) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c == 1), "{m}×{n}: {seen:?}");
    }
    for k in ks {
        assert_eq!(numbers(&lines[at])[0], k.div_ceil(BK), "k tiles of {k}");
        at += 1;
    }
    assert_eq!(at, lines.len());
}
