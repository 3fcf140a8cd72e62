// The GEMM kernel template: C = A·Bᵀ in fp16 with fp16 or fp32 accumulators, CuTe's
// `sgemm_sm80` `gemm_tn` design (128×128×64 CTA tiles, a 3-stage shared-memory ring fed by
// 16-byte cp.async, ldmatrix x4 into the MMA fragments one k-block ahead, mma.sync m16n8k16 on
// 2×2 warps), with residue tiles in M, N and K.
//
// Layouts (CuTe's gemm_tn): A is M×K K-major, A(m, k) = A[m·lda + k]; B is N×K K-major,
// B(n, k) = B[n·ldb + k]; C is M×N M-major, C(m, n) = C[m + n·ldc]. Units: elements (halves).
//
// Written by hand, with no index arithmetic beyond loop counters and the stage index: every
// address, predicate, register index and loop bound is a function or constant of
// gpu/gen/gemm.cuh, emitted by the layout algebra (layout-typed/examples/gen_cuda/gemm.rs),
// except the instructions' own register counts (4 per ldmatrix x4; 4 A, 2 B and 2 packed fp16
// accumulator registers per mma.sync m16n8k16),
// and every instruction one of gpu/gemm/instructions.cuh. The same text runs on the GPU and, for
// the tests, on CPU threads (gpu/gemm/host_emulation.hpp).
#pragma once
#include "instructions.cuh"
#include "../gen/gemm.cuh"

// The operands' generated functions, by name.
struct GemmA {
    GEMM_FN static uint32_t k(uint32_t t, uint32_t v, uint32_t tile) { return gemm_a_coord0(t, v, tile); }
    GEMM_FN static uint32_t mn(uint32_t t, uint32_t v, uint32_t tile) { return gemm_a_coord1(t, v, tile); }
    GEMM_FN static bool pred(uint32_t t, uint32_t v, uint32_t kt, uint32_t mnt, uint32_t K, uint32_t MN) {
        return gemm_a(t, v, kt, mnt, K, MN);
    }
    GEMM_FN static int32_t offset(int32_t mn, int32_t k, int32_t ld) { return gemm_a_offset(mn, k, ld); }
};
struct GemmB {
    GEMM_FN static uint32_t k(uint32_t t, uint32_t v, uint32_t tile) { return gemm_b_coord0(t, v, tile); }
    GEMM_FN static uint32_t mn(uint32_t t, uint32_t v, uint32_t tile) { return gemm_b_coord1(t, v, tile); }
    GEMM_FN static bool pred(uint32_t t, uint32_t v, uint32_t kt, uint32_t mnt, uint32_t K, uint32_t MN) {
        return gemm_b(t, v, kt, mnt, K, MN);
    }
    GEMM_FN static int32_t offset(int32_t mn, int32_t k, int32_t ld) { return gemm_b_offset(mn, k, ld); }
};

// fp16 accumulators: two per 32-bit register.
struct GemmAccF16 {
    using reg = uint32_t;
    static constexpr int regs = GEMM_ACC / 2;
    GEMM_FN static void mma(Lane& ln, reg (&acc)[regs], uint32_t ni, uint32_t mi, const uint32_t (&a)[4],
                            const uint32_t (&b)[2]) {
        uint32_t d[2];
        GEMM_UNROLL
        for (uint32_t j = 0; j < 2; ++j) d[j] = acc[gemm_acc_word(ni, mi, j)];
        mma_16816_f16(ln, d, a, b);
        GEMM_UNROLL
        for (uint32_t j = 0; j < 2; ++j) acc[gemm_acc_word(ni, mi, j)] = d[j];
    }
    GEMM_FN static gemm_half_t value(const reg (&acc)[regs], uint32_t v) {
        gemm_half_t h[2];
        unpack_h2(acc[gemm_acc_word_of(v)], h[0], h[1]);
        return h[gemm_acc_half_of(v)];
    }
};
// fp32 accumulators, rounded to fp16 once, in the epilogue.
struct GemmAccF32 {
    using reg = float;
    static constexpr int regs = GEMM_ACC;
    GEMM_FN static void mma(Lane& ln, reg (&acc)[regs], uint32_t ni, uint32_t mi, const uint32_t (&a)[4],
                            const uint32_t (&b)[2]) {
        float d[GEMM_MMA_ACC];
        GEMM_UNROLL
        for (uint32_t j = 0; j < GEMM_MMA_ACC; ++j) d[j] = acc[gemm_acc(ni, mi, j)];
        mma_16816_f32(ln, d, a, b);
        GEMM_UNROLL
        for (uint32_t j = 0; j < GEMM_MMA_ACC; ++j) acc[gemm_acc(ni, mi, j)] = d[j];
    }
    GEMM_FN static gemm_half_t value(const reg (&acc)[regs], uint32_t v) { return to_half(acc[gemm_acc_of(v)]); }
};

// One k tile of an operand, global -> shared stage `stage`: GEMM_COPY_VECS 16-byte cp.async per
// thread; with `Pred`, a vector outside the matrix is zero-filled and not read.
// `sX_t` is the operand's ring at the thread's part of the offset (`gemm_s_copy_t`).
template <class Op, bool Pred>
GEMM_FN void gemm_copy_tile(Lane& ln, uint32_t tid, const gemm_half_t* X, int32_t ld, uint32_t mn_tile,
                            uint32_t k_tile, uint32_t MN, uint32_t K, gemm_half_t* sX_t, uint32_t stage) {
    gemm_half_t* dst = sX_t + gemm_s_stage(stage);
    GEMM_UNROLL
    for (uint32_t i = 0; i < GEMM_COPY_VECS; ++i) {
        const uint32_t v = gemm_copy_value(i);
        const bool ok = !Pred || Op::pred(tid, v, k_tile, mn_tile, K, MN);
        const gemm_half_t* src = X + Op::offset(Op::mn(tid, v, mn_tile), Op::k(tid, v, k_tile), ld);
        cp_async_16(ln, dst + gemm_s_copy_y(i), ok ? src : X, ok);
    }
}

// k-block `kb` of both operands -> registers: ldmatrix x4. `sA`, `sB` are the stage being read;
// `la[kb]`, `lb[kb]` the thread's row offsets of each k-block (`gemm_ldsm_*_t ^ gemm_ldsm_*_x`).
GEMM_FN void gemm_load_fragments(Lane& ln, uint32_t kb, const gemm_half_t* sA, const gemm_half_t* sB,
                                 const uint32_t (&la)[GEMM_KBLOCKS], const uint32_t (&lb)[GEMM_KBLOCKS],
                                 uint32_t (&ra)[GEMM_FRAG_A / 2], uint32_t (&rb)[GEMM_FRAG_B / 2]) {
    GEMM_UNROLL
    for (uint32_t i = 0; i < GEMM_LDSM_A; ++i) {
        uint32_t d[4];
        ldmatrix_x4(ln, d, sA + la[kb] + gemm_ldsm_a_y(i));
        GEMM_UNROLL
        for (uint32_t j = 0; j < 4; ++j) ra[gemm_ldsm_a_reg(kb, i, j)] = d[j];
    }
    GEMM_UNROLL
    for (uint32_t i = 0; i < GEMM_LDSM_B; ++i) {
        uint32_t d[4];
        ldmatrix_x4(ln, d, sB + lb[kb] + gemm_ldsm_b_y(i));
        GEMM_UNROLL
        for (uint32_t j = 0; j < 4; ++j) rb[gemm_ldsm_b_reg(kb, i, j)] = d[j];
    }
}

// The MMAs of k-block `kb`.
template <class Acc>
GEMM_FN void gemm_mma_kblock(Lane& ln, uint32_t kb, const uint32_t (&ra)[GEMM_FRAG_A / 2],
                             const uint32_t (&rb)[GEMM_FRAG_B / 2], typename Acc::reg (&acc)[Acc::regs]) {
    GEMM_UNROLL
    for (uint32_t mi = 0; mi < GEMM_MMA_M; ++mi) {
        GEMM_UNROLL
        for (uint32_t ni = 0; ni < GEMM_MMA_N; ++ni) {
            uint32_t a[4], b[2];
            GEMM_UNROLL
            for (uint32_t j = 0; j < 4; ++j) a[j] = ra[gemm_mma_a_reg(kb, mi, j)];
            GEMM_UNROLL
            for (uint32_t j = 0; j < 2; ++j) b[j] = rb[gemm_mma_b_reg(kb, ni, j)];
            Acc::mma(ln, acc, ni, mi, a, b);
        }
    }
}

// The C tile (bm, bn) of block (y, x) in a CTA order (gpu/gen/gemm.cuh): CuTe's (`Linear`: M
// tile x, N tile y) or the grouped one (GEMM_GROUP M tiles of one N tile, then the next N tile);
// false for a block of the grouped order past the last M tile, which returns.
template <bool Linear>
GEMM_FN bool gemm_cta_tile(uint32_t y, uint32_t x, uint32_t M, uint32_t& bm, uint32_t& bn) {
    bm = Linear ? gemm_linear_m(y, x) : gemm_grouped_m(y, x);
    bn = Linear ? gemm_linear_n(y, x) : gemm_grouped_n(y, x);
    return Linear || gemm_tile_first_m(bm) < M;
}

// One CTA's tile (bm, bn) of C, thread `tid`. `smem` holds 2·GEMM_SMEM halves (A's ring, then
// B's), 16-byte aligned. `Pred` = false only when M, N and K are multiples of the CTA tile.
template <class Acc, bool Pred>
GEMM_FN void gemm_tn_body(Lane& ln, uint32_t tid, uint32_t bm, uint32_t bn, uint32_t M, uint32_t N,
                          uint32_t K, const gemm_half_t* A, int32_t lda, const gemm_half_t* B, int32_t ldb,
                          gemm_half_t* C, int32_t ldc, gemm_half_t* smem) {
    gemm_half_t* sA = smem;
    gemm_half_t* sB = smem + GEMM_SMEM;
    gemm_half_t* sA_t = sA + gemm_s_copy_t(tid);
    gemm_half_t* sB_t = sB + gemm_s_copy_t(tid);
    int k_tile_count = (int)gemm_k_tiles(K);
    uint32_t k_tile_next = 0;
    // Fill all stages but the last.
    GEMM_UNROLL
    for (uint32_t p = 0; p < GEMM_STAGES - 1; ++p) {
        gemm_copy_tile<GemmA, Pred>(ln, tid, A, lda, bm, k_tile_next, M, K, sA_t, p);
        gemm_copy_tile<GemmB, Pred>(ln, tid, B, ldb, bn, k_tile_next, N, K, sB_t, p);
        cp_async_commit(ln);
        --k_tile_count;
        if (k_tile_count > 0) ++k_tile_next;
    }
    typename Acc::reg acc[Acc::regs];
    GEMM_UNROLL
    for (int r = 0; r < Acc::regs; ++r) acc[r] = 0;
    uint32_t ra[GEMM_FRAG_A / 2], rb[GEMM_FRAG_B / 2];
    uint32_t la[GEMM_KBLOCKS], lb[GEMM_KBLOCKS];
    GEMM_UNROLL
    for (uint32_t kb = 0; kb < GEMM_KBLOCKS; ++kb) {
        la[kb] = gemm_ldsm_a_t(tid) ^ gemm_ldsm_a_x(kb);
        lb[kb] = gemm_ldsm_b_t(tid) ^ gemm_ldsm_b_x(kb);
    }
    uint32_t read = 0, write = GEMM_STAGES - 1;
    const gemm_half_t* sA_read = sA + gemm_s_stage(read);
    const gemm_half_t* sB_read = sB + gemm_s_stage(read);
    // The first k-block of the first tile.
    cp_async_wait<GEMM_STAGES - 2>(ln);
    sync_threads(ln);
    gemm_load_fragments(ln, 0, sA_read, sB_read, la, lb, ra, rb);
    while (k_tile_count > -(GEMM_STAGES - 1)) {
        GEMM_UNROLL
        for (uint32_t kb = 0; kb < GEMM_KBLOCKS; ++kb) {
            if (kb == GEMM_KBLOCKS - 1) {
                // The next tile's stage: wait for its copies.
                sA_read = sA + gemm_s_stage(read);
                sB_read = sB + gemm_s_stage(read);
                cp_async_wait<GEMM_STAGES - 2>(ln);
                sync_threads(ln);
            }
            // Registers for the next k-block (the next tile's first after the last).
            gemm_load_fragments(ln, (kb + 1) % GEMM_KBLOCKS, sA_read, sB_read, la, lb, ra, rb);
            if (kb == 0) {
                gemm_copy_tile<GemmA, Pred>(ln, tid, A, lda, bm, k_tile_next, M, K, sA_t, write);
                gemm_copy_tile<GemmB, Pred>(ln, tid, B, ldb, bn, k_tile_next, N, K, sB_t, write);
                cp_async_commit(ln);
                --k_tile_count;
                if (k_tile_count > 0) ++k_tile_next;
                write = read;
                read = (read == GEMM_STAGES - 1) ? 0 : read + 1;
            }
            gemm_mma_kblock<Acc>(ln, kb, ra, rb, acc);
        }
    }
    // The epilogue: every accumulator value to its element of C, predicated.
    GEMM_UNROLL
    for (uint32_t v = 0; v < GEMM_ACC; ++v) {
        if (!Pred || gemm_c(tid, v, bn, bm, N, M)) {
            C[gemm_c_offset(gemm_c_coord1(tid, v, bm), gemm_c_coord0(tid, v, bn), ldc)] = Acc::value(acc, v);
        }
    }
    // Copies still in flight (the ring's empty tail) complete before the thread ends.
    cp_async_wait<0>(ln);
}
