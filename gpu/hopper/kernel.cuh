// The Hopper GEMM kernel template: C = A·Bᵀ in fp16 with fp32 or fp16 accumulators, on TMA
// loads into a ring of shared-memory stages completed on mbarriers, feeding warpgroup MMAs
// (wgmma) that read both operands from shared memory through descriptors.
//
// Layouts (CuTe's gemm_tn): A is M×K K-major, A(m, k) = A[m·lda + k]; B is N×K K-major,
// B(n, k) = B[n·ldb + k]; C is M×N M-major, C(m, n) = C[m + n·ldc]. Units: elements (halves),
// bytes for shared memory.
//
// Design: HG_THREADS = 3 warpgroups per CTA tile of HG_BM×HG_BN. Warpgroup 0 is the producer:
// one thread issues, per k tile, a TMA load of A's box and one of B's into stage `kt % HG_STAGES`
// on the stage's `full` mbarrier. Warpgroups 1 and 2 are the consumers: consumer w computes rows
// [64·w, 64·w + 64) of the tile with HG_KBLOCKS wgmma m64n256k16 per k tile, and releases a stage
// on its `empty` mbarrier once the wgmmas that read it have completed. Residue tiles need no code:
// the TMA writes zeros for box elements outside the matrices, and the epilogue stores only
// elements inside C.
//
// Written by hand, with no index arithmetic beyond loop counters, the stage/parity of the ring,
// the tiles' origins (kt·HG_BK, bm·HG_BM, bn·HG_BN, 64·w) and the epilogue's m + n·ldc: every
// shared-memory offset, descriptor, box, fragment index and the CTA order is a function or
// constant of gpu/gen/hopper_gemm.cuh, emitted by the layout algebra, and every instruction one
// of gpu/hopper/instructions.cuh.
//
// Mode order: the header's functions take arguments in the order used here; a TMA box and its
// coordinates are in CUDA's order, K first (tma_load_2d(.., k, m, ..): CuTe's (m, k) reversed),
// and hg_acc_m(t, j) takes the thread first, as CuTe's (thread, value). The same text runs on the GPU and, for the
// tests, on CPU threads (gpu/hopper/host_emulation.hpp).
#pragma once
#include "instructions.cuh"
#include "../gen/hopper_gemm.cuh"

// Register budgets after the split (per thread): the producer gives registers to the consumers.
#define HG_PRODUCER_REGS 40
#define HG_CONSUMER_REGS 232

// fp32 accumulators, rounded to fp16 once, in the epilogue.
struct HgAccF32 {
    using reg = float;
    static constexpr int regs = HG_ACC;
    HG_DEV static void mma(Lane& ln, reg (&acc)[regs], uint64_t da, uint64_t db) {
        wgmma_m64n256k16_f32(ln, acc, da, db, true);
    }
    HG_DEV static hg_half_t value(const reg (&acc)[regs], uint32_t j) { return hg_to_half(acc[j]); }
};
// fp16 accumulators: values 2i and 2i + 1 in register i, low half first.
struct HgAccF16 {
    using reg = uint32_t;
    static constexpr int regs = HG_ACC / 2;
    HG_DEV static void mma(Lane& ln, reg (&acc)[regs], uint64_t da, uint64_t db) {
        wgmma_m64n256k16_f16(ln, acc, da, db, true);
    }
    HG_DEV static hg_half_t value(const reg (&acc)[regs], uint32_t j) {
        return hg_half_of(acc[j / 2], j % 2);
    }
};

// One CTA, thread `tid` of HG_THREADS, block `x` of the 1-D grid (hg_grid_x). `smem` is the
// dynamic shared memory aligned to 1024 bytes, HG_SMEM_BYTES long. `ta`, `tb` are A's and B's
// tensor maps (boxes HG_TMA_*_BOX*, swizzle HG_TMA_SWIZZLE). Needs K ≥ 1.
template <class Acc>
HG_DEV void hg_gemm_body(Lane& ln, uint32_t tid, uint32_t x, uint8_t* smem, const HgTensorMap* ta,
                        const HgTensorMap* tb, hg_half_t* C, uint32_t M, uint32_t N, uint32_t K,
                        uint32_t ldc) {
    uint64_t* full = reinterpret_cast<uint64_t*>(smem + HG_SMEM_BAR);
    uint64_t* empty = full + HG_STAGES;
    const uint32_t wg = tid / 128u;
    const uint32_t t = tid % 128u;
    if (tid == 0) {
        for (uint32_t s = 0; s < HG_STAGES; ++s) {
            mbar_init(ln, &full[s], 1);
            // One arrival per consumer warp.
            mbar_init(ln, &empty[s], 4 * HG_CONSUMERS);
        }
        fence_mbar_init(ln);
    }
    sync_threads(ln);
    const uint32_t bm = hg_cta_m(x, M, N);
    const uint32_t bn = hg_cta_n(x, M, N);
    const uint32_t k_tiles = hg_k_tiles(K);
    if (wg == 0) {
        setmaxnreg_dec<HG_PRODUCER_REGS>(ln);
        if (t == 0) {
            for (uint32_t kt = 0; kt < k_tiles; ++kt) {
                const uint32_t s = kt % HG_STAGES;
                // The ring's first pass finds every stage free (parity 1 of a fresh barrier).
                mbar_wait(ln, &empty[s], ((kt / HG_STAGES) & 1u) ^ 1u);
                mbar_arrive_expect_tx(ln, &full[s], HG_STAGE_TX);
                // The boxes' first elements (k, m) and (k, n): CUDA's order, K innermost.
                tma_load_2d(ln, smem + hg_s_a(s), ta, int32_t(kt * HG_BK), int32_t(bm * HG_BM), &full[s]);
                tma_load_2d(ln, smem + hg_s_b(s), tb, int32_t(kt * HG_BK), int32_t(bn * HG_BN), &full[s]);
            }
        }
        return;
    }
    setmaxnreg_inc<HG_CONSUMER_REGS>(ln);
    const uint32_t w = wg - 1u;
    const uint32_t base = hg_smem_u32(smem);
    typename Acc::reg acc[Acc::regs];
    HG_UNROLL
    for (int i = 0; i < Acc::regs; ++i) acc[i] = 0;
    for (uint32_t kt = 0; kt < k_tiles; ++kt) {
        const uint32_t s = kt % HG_STAGES;
        mbar_wait(ln, &full[s], (kt / HG_STAGES) & 1u);
        wgmma_fence_operands(ln, acc);
        wgmma_fence(ln);
        HG_UNROLL
        for (uint32_t kb = 0; kb < HG_KBLOCKS; ++kb) {
            Acc::mma(ln, acc, hg_desc_a(base, s, w, kb), hg_desc_b(base, s, kb));
        }
        wgmma_commit(ln);
        wgmma_fence_operands(ln, acc);
        // The group of the previous k tile has completed: its stage is free.
        wgmma_wait<1>(ln);
        wgmma_fence_operands(ln, acc);
        if (kt > 0 && t % 32u == 0) mbar_arrive(ln, &empty[(kt - 1u) % HG_STAGES]);
    }
    wgmma_wait<0>(ln);
    wgmma_fence_operands(ln, acc);
    const uint32_t m0 = bm * HG_BM + 64u * w;
    const uint32_t n0 = bn * HG_BN;
    HG_UNROLL
    for (uint32_t j = 0; j < HG_ACC; ++j) {
        const uint32_t m = m0 + hg_acc_m(t, j);
        const uint32_t n = n0 + hg_acc_n(t, j);
        if (m < M && n < N) C[size_t(m) + size_t(n) * ldc] = Acc::value(acc, j);
    }
}
