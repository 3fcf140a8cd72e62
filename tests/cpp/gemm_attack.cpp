// The generated GEMM (gpu/gemm/kernel.cuh over gpu/gen/gemm.cuh) on CPU threads through the
// host emulation (gpu/gemm/host_emulation.hpp), over the class of problem shapes: one k tile
// (fewer than the stages), as many as the stages minus one, as the stages, more; K below one
// vector's multiple of the tile; M or N of 1, one below, at and one past a tile; leading
// dimensions at their minimum and padded; the kernel the launcher picks (with predicates
// unless M, N and K are multiples of the tile) and, for whole tiles, the predicated one too.
//
// Built with AddressSanitizer and UndefinedBehaviorSanitizer by the test: A, B and C are
// allocated to exactly their last element ((rows - 1)·ld + row length), so a read or write
// past a matrix, or a signed overflow in an address function, stops the program.
//
// Inputs are small integers (-2..2): both accumulator types are exact, so every element must
// equal the naive product bit for bit. The padding columns of A and B (k in [K, ld)) hold NaN,
// which poisons any product it enters; C starts as NaN (an element never written shows) and
// its padding rows (m in [M, ldc)) hold a sentinel that must survive.
//
// Prints one line per run: "ACC PRED M N K lda ldb ldc wrong clobbered".
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>
#define __host__
#define __device__
#define __forceinline__ inline
#include "gpu/gemm/kernel.cuh"

struct Problem {
    int M, N, K, lda, ldb, ldc;
};

template <class Acc, bool Pred>
static void run(const char* acc, const Problem& p) {
    const size_t na = (size_t)(p.M - 1) * p.lda + p.K;
    const size_t nb = (size_t)(p.N - 1) * p.ldb + p.K;
    const size_t nc = (size_t)(p.N - 1) * p.ldc + p.M;
    std::vector<gemm_half_t> A(na), B(nb), C(nc);
    unsigned x = 2463534242u ^ (unsigned)(p.M * 31 + p.N * 17 + p.K * 7 + p.lda + p.ldb * 3);
    auto next = [&] {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        return (int)(x % 5) - 2;
    };
    const gemm_half_t nan = (gemm_half_t)std::numeric_limits<float>::quiet_NaN();
    for (size_t i = 0; i < na; ++i) A[i] = (int)(i % p.lda) < p.K ? (gemm_half_t)next() : nan;
    for (size_t i = 0; i < nb; ++i) B[i] = (int)(i % p.ldb) < p.K ? (gemm_half_t)next() : nan;
    const gemm_half_t sentinel = (gemm_half_t)-7776.0f;
    for (size_t i = 0; i < nc; ++i) C[i] = (int)(i % p.ldc) < p.M ? nan : sentinel;
    const int gx = (p.M + GEMM_BM - 1) / GEMM_BM, gy = (p.N + GEMM_BN - 1) / GEMM_BN;
    run_grid(gx, gy, GEMM_THREADS, 2 * GEMM_SMEM * sizeof(gemm_half_t),
             [&](Lane& ln, gemm_half_t* smem, int bx, int by, int tid) {
                 gemm_tn_body<Acc, Pred>(ln, tid, bx, by, p.M, p.N, p.K, A.data(), p.lda, B.data(),
                                         p.ldb, C.data(), p.ldc, smem);
             });
    long wrong = 0, clobbered = 0;
    for (size_t i = 0; i < nc; ++i) {
        const int m = (int)(i % p.ldc), n = (int)(i / p.ldc);
        const float c = (float)C[i];
        if (m >= p.M) {
            clobbered += !(c == (float)sentinel);
            continue;
        }
        long s = 0;
        for (int k = 0; k < p.K; ++k)
            s += (long)(float)A[(size_t)m * p.lda + k] * (long)(float)B[(size_t)n * p.ldb + k];
        wrong += !(c == (float)s);
    }
    printf("%s %d %d %d %d %d %d %d %ld %ld\n", acc, (int)Pred, p.M, p.N, p.K, p.lda, p.ldb, p.ldc,
           wrong, clobbered);
    fflush(stdout);
}

template <bool Pred>
static void both(const Problem& p) {
    run<GemmAccF16, Pred>("f16", p);
    run<GemmAccF32, Pred>("f32", p);
}

int main() {
    try {
        // The launcher's choice: whole tiles without predicates, any residue with them.
        const Problem problems[] = {
            {1, 1, 8, 8, 8, 1},           // one element, one vector of K
            {1, 129, 24, 24, 32, 1},      // M of 1, N one past a tile
            {129, 1, 40, 48, 40, 129},    // N of 1
            {127, 127, 56, 56, 56, 127},  // one below a tile; K below one tile
            {128, 120, 64, 64, 64, 128},  // one k tile, residue N only
            {120, 128, 128, 136, 128, 128},  // two k tiles (the stages minus one)
            {128, 128, 136, 136, 144, 128},  // residue K only: 2 + 1 k tiles
            {130, 7, 192, 200, 192, 136},   // three k tiles (the stages)
            {9, 200, 328, 328, 336, 16},    // six k tiles, residue K of 8
            {200, 136, 72, 80, 72, 208},    // a 2x2 grid, residues in M, N and K
        };
        for (const auto& p : problems) {
            const bool whole = p.M % GEMM_BM == 0 && p.N % GEMM_BN == 0 && p.K % GEMM_BK == 0;
            if (whole)
                both<false>(p);
            else
                both<true>(p);
        }
        // Whole tiles: the kernel without predicates (one, two, three and four k tiles) and the
        // predicated kernel on the same problem.
        const Problem whole[] = {
            {128, 128, 64, 64, 64, 128},
            {128, 256, 128, 128, 136, 128},
            {256, 128, 192, 200, 192, 264},
            {128, 128, 256, 256, 256, 128},
        };
        for (const auto& p : whole) {
            both<false>(p);
            both<true>(p);
        }
    } catch (const std::exception& e) {
        printf("error: %s\n", e.what());
        return 1;
    }
    return 0;
}
