// Whether the generated GEMM covers a problem, and the grid it launches: the host side of
// gpu/gemm/launch.cuh, in a header of its own so that host C++ (the tests) compiles it without
// CUDA. The refused problems
// are listed at the top of launch.cuh.
#pragma once
#include <cstdint>
#include "../gen/gemm.cuh"

// Whether the generated functions cover this problem (see the top of gpu/gemm/launch.cuh).
static inline bool gen_gemm_supported(int M, int N, int K, const void* A, int lda, const void* B,
                                      int ldb, int ldc) {
    auto in = [](long long x) { return x >= 1 && x <= GEMM_MAX_EXTENT; };
    if (!in(M) || !in(N) || !in(K) || K % GEMM_VEC) return false;
    if (lda < K || ldb < K || ldc < M || lda % GEMM_VEC || ldb % GEMM_VEC) return false;
    if (reinterpret_cast<uintptr_t>(A) % 16 || reinterpret_cast<uintptr_t>(B) % 16) return false;
    // Every offset the kernels form, in int32_t. The copies form the offset of every vector of
    // every tile before the predicate selects it: the rows of A and B up to M and N rounded up
    // to the CTA tile, k up to K rounded up to the k tile. C's offsets are formed under the
    // predicate only: its last element.
    const long long tiles_k = gemm_k_tiles(K);
    const long long rows_a = ((long long)M + GEMM_BM - 1) / GEMM_BM * GEMM_BM;
    const long long rows_b = ((long long)N + GEMM_BN - 1) / GEMM_BN * GEMM_BN;
    const long long last_a = (rows_a - 1) * lda + tiles_k * GEMM_BK - 1;
    const long long last_b = (rows_b - 1) * ldb + tiles_k * GEMM_BK - 1;
    const long long last_c = ((long long)N - 1) * ldc + M - 1;
    return last_a <= INT32_MAX && last_b <= INT32_MAX && last_c <= INT32_MAX;
}

// The grid a CTA order launches (gemm_cta_tile, gpu/gemm/kernel.cuh): (x, y) = (M tiles, N tiles)
// in CuTe's order (`linear`), (GEMM_GROUP·N tiles, ⌈M tiles / GEMM_GROUP⌉) in the grouped one.
static inline void gen_gemm_grid(bool linear, int M, int N, unsigned& gx, unsigned& gy) {
    const unsigned tiles_m = ((unsigned)M + GEMM_BM - 1) / GEMM_BM, tiles_n = ((unsigned)N + GEMM_BN - 1) / GEMM_BN;
    gx = linear ? tiles_m : GEMM_GROUP * tiles_n;
    gy = linear ? tiles_n : (tiles_m + GEMM_GROUP - 1) / GEMM_GROUP;
}
