// The generated GEMM (gpu/gemm/kernel.cuh over gpu/gen/gemm.cuh) run on CPU threads through the
// host emulation of its instructions (gpu/gemm/host_emulation.hpp), against a naive GEMM.
//
// Inputs are small integers (-2..2), so that every partial sum is an integer below 2048 and both
// accumulator types are exact: the result must equal the naive product bit for bit. C is filled
// with a sentinel first; every element of the M×N result is compared, and the padding rows of C
// (m in [M, ldc)) must keep the sentinel. Each problem runs as the launcher runs it (admission
// check, grid, CTA order), in both CTA orders. Prints one line per run: "NAME M N K bad untouched".
#include <cstdio>
#include <cstdlib>
#include <vector>
#define __host__
#define __device__
#define __forceinline__ inline
#include "gpu/gemm/kernel.cuh"
#include "gpu/gemm/supported.hpp"

struct Problem {
    const char* name;
    int M, N, K, lda, ldb, ldc;
};

// The problem through the launcher's path: its admission check, its grid for the CTA order, each
// block's tile (`gemm_cta_tile`, blocks past the last M tile returning), then the kernel body.
template <class Acc, bool Pred, bool Linear>
static void run(const Problem& p) {
    std::vector<gemm_half_t> A((size_t)p.M * p.lda), B((size_t)p.N * p.ldb), C((size_t)p.ldc * p.N);
    unsigned x = 12345u + (unsigned)(p.M * 7 + p.N * 13 + p.K);
    auto next = [&] { x = x * 1103515245u + 12345u; return (int)((x >> 16) % 5) - 2; };
    // Padding columns of A and B hold values that must never be read as data.
    for (int m = 0; m < p.M; ++m)
        for (int k = 0; k < p.lda; ++k) A[(size_t)m * p.lda + k] = (gemm_half_t)(k < p.K ? next() : 1000);
    for (int n = 0; n < p.N; ++n)
        for (int k = 0; k < p.ldb; ++k) B[(size_t)n * p.ldb + k] = (gemm_half_t)(k < p.K ? next() : 1000);
    const gemm_half_t sentinel = (gemm_half_t)-7777.0f;
    for (auto& c : C) c = sentinel;
    if (!gen_gemm_supported(p.M, p.N, p.K, A.data(), p.lda, B.data(), p.ldb, p.ldc)) {
        printf("%s refused\n", p.name);
        return;
    }
    unsigned gx, gy;
    gen_gemm_grid(Linear, p.M, p.N, gx, gy);
    run_grid((int)gx, (int)gy, GEMM_THREADS, 2 * GEMM_SMEM * sizeof(gemm_half_t),
             [&](Lane& ln, gemm_half_t* smem, int x, int y, int tid) {
                 uint32_t bm, bn;
                 if (!gemm_cta_tile<Linear>(y, x, p.M, bm, bn)) return;
                 gemm_tn_body<Acc, Pred>(ln, tid, bm, bn, p.M, p.N, p.K, A.data(), p.lda, B.data(),
                                         p.ldb, C.data(), p.ldc, smem);
             });
    long bad = 0, untouched = 0;
    for (int n = 0; n < p.N; ++n)
        for (int m = 0; m < p.ldc; ++m) {
            const gemm_half_t c = C[(size_t)n * p.ldc + m];
            if (m >= p.M) {
                untouched += c == sentinel;
                continue;
            }
            long s = 0;
            for (int k = 0; k < p.K; ++k)
                s += (long)(float)A[(size_t)m * p.lda + k] * (long)(float)B[(size_t)n * p.ldb + k];
            bad += (float)c != (float)s;
        }
    printf("%s %d %d %d %ld %ld\n", p.name, p.M, p.N, p.K, bad, untouched);
}

int main() {
    try {
        // Residue tiles in M, N and K, padded leading dimensions (multiples of 8).
        const Problem odd = {"residue", 137, 201, 200, 200, 208, 139};
        run<GemmAccF16, true, false>(odd);  // the grouped CTA order
        run<GemmAccF32, true, true>(odd);   // CuTe's
        // Whole tiles: the kernel without predicates, two k tiles more than the stages.
        const Problem whole = {"whole", 128, 256, 320, 328, 320, 136};
        run<GemmAccF16, false, true>(whole);
        run<GemmAccF32, false, false>(whole);
    } catch (const std::exception& e) {
        printf("error: %s\n", e.what());
        return 1;
    }
    return 0;
}
