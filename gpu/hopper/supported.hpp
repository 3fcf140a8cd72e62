// What the Hopper GEMM launcher admits, and the tensor maps it builds: plain C++ (the host tests
// include it with the host emulation).
//
// Admitted: 1 ≤ M, N, K ≤ 65536 (so every CTA coordinate and box coordinate fits in int32_t),
// lda ≥ K and ldb ≥ K multiples of 8 (TMA: strides multiples of 16 bytes), ldc ≥ M, A and B
// 16-byte aligned (TMA), and every offset the epilogue forms, m + n·ldc, below 2^63.
#pragma once
#include <cstdint>

// The fields of a 2-D tiled tensor map over a K-major matrix of `rows` rows (M or N) and `K`
// columns with leading dimension `ld` (elements): CUDA's order, K innermost.
struct HgMapFields {
    uint64_t dims[2];       // elements: K, rows
    uint64_t stride_bytes;  // bytes between rows
    uint32_t box[2];        // elements: the box, K first
    int swizzle;            // CUtensorMapSwizzle
};

inline HgMapFields hg_map_a(uint32_t M, uint32_t K, uint32_t lda) {
    return {{K, M}, uint64_t(lda) * 2u, {HG_TMA_A_BOX0, HG_TMA_A_BOX1}, HG_TMA_SWIZZLE};
}
inline HgMapFields hg_map_b(uint32_t N, uint32_t K, uint32_t ldb) {
    return {{K, N}, uint64_t(ldb) * 2u, {HG_TMA_B_BOX0, HG_TMA_B_BOX1}, HG_TMA_SWIZZLE};
}

inline bool hg_gemm_supported(long long M, long long N, long long K, long long lda, long long ldb,
                              long long ldc, const void* A, const void* B, const void* C) {
    const long long limit = 65536;
    if (M < 1 || N < 1 || K < 1 || M > limit || N > limit || K > limit) return false;
    if (lda < K || ldb < K || ldc < M || lda % 8 != 0 || ldb % 8 != 0) return false;
    if (lda > (1LL << 31) || ldb > (1LL << 31) || ldc > (1LL << 31)) return false;
    if (reinterpret_cast<uintptr_t>(A) % 16 != 0 || reinterpret_cast<uintptr_t>(B) % 16 != 0) return false;
    if (C == nullptr) return false;
    return true;
}
