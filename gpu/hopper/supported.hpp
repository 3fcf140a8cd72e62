// What the Hopper GEMM launcher admits, and the tensor maps it builds: plain C++ (the host tests
// include it with the host emulation).
//
// Admitted: 1 ≤ M, N, K ≤ 65536 (so every CTA coordinate and box coordinate fits in int32_t),
// lda ≥ K and ldb ≥ K multiples of 8 (TMA: strides multiples of 16 bytes), ldc ≥ M, every
// leading dimension at most 2^31 − 1 (the launcher's `int`), A and B non-null and 16-byte
// aligned (TMA), C non-null and 2-byte aligned, C's elements ((N − 1)·ldc + M from C) disjoint
// from A's ((M − 1)·lda + K) and B's ((N − 1)·ldb + K): the kernel writes C while other CTAs
// still load A and B. Every offset the epilogue forms, m + n·ldc, is then below 2^63.
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
    if (lda > INT32_MAX || ldb > INT32_MAX || ldc > INT32_MAX) return false;
    if (A == nullptr || B == nullptr || C == nullptr) return false;
    const uintptr_t a = reinterpret_cast<uintptr_t>(A), b = reinterpret_cast<uintptr_t>(B),
                    c = reinterpret_cast<uintptr_t>(C);
    if (a % 16 != 0 || b % 16 != 0 || c % 2 != 0) return false;
    // Byte extents (below 2^49 under the limits above), compared without wrapping.
    const unsigned long long ea = 2ULL * ((unsigned long long)(M - 1) * lda + K),
                             eb = 2ULL * ((unsigned long long)(N - 1) * ldb + K),
                             ec = 2ULL * ((unsigned long long)(N - 1) * ldc + M);
    if (c > UINTPTR_MAX - ec) return false;
    auto overlaps = [&](uintptr_t p, unsigned long long e) { return c >= p ? c - p < e : p - c < ec; };
    if (overlaps(a, ea) || overlaps(b, eb)) return false;
    return true;
}
