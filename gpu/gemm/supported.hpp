// Whether the generated GEMM covers a problem: the host-side check of gpu/gemm/launch.cuh, in a
// header of its own so that host C++ (the tests) compiles it without CUDA. The refused problems
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
    // Every offset the kernels form, in int32_t: the last row's vectors, padding included.
    const long long tiles_k = gemm_k_tiles(K);
    const long long last_a = ((long long)M - 1) * lda + tiles_k * GEMM_BK - 1;
    const long long last_b = ((long long)N - 1) * ldb + tiles_k * GEMM_BK - 1;
    const long long last_c = ((long long)N - 1) * ldc + M - 1;
    return last_a <= INT32_MAX && last_b <= INT32_MAX && last_c <= INT32_MAX;
}
