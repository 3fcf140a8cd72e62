// The GEMM launcher's problem check (gpu/gemm/supported.hpp) beside the offsets the kernel
// template forms. Reads problems, one a line: "M N K lda ldb ldc a_misalign b_misalign" (bytes
// added to a 16-byte aligned address of A and B), and prints for each
// "supported max_a max_b max_c": whether the launcher takes it, and the largest offset (64-bit)
// that the copies form for A and B (every thread's every vector in the last tile of each
// mode, where the coordinates are largest: residue tiles included, predicated or not, since the
// kernel forms the offset before it selects by the predicate) and that the epilogue forms for
// C (under its predicate). For a supported problem it then evaluates those offsets as the
// kernel does, in int32_t: built with -fsanitize=signed-integer-overflow, an overflow stops the
// program.
#include <cstdio>
#define __host__
#define __device__
#define __forceinline__ inline
#include "gpu/gemm/kernel.cuh"
#include "gpu/gemm/supported.hpp"

// Keeps the int32_t evaluations (and their overflow checks) from being optimised away.
static volatile int32_t sink;

template <class Op>
static long long max_copy_offset(int MN, int K, int ld, bool supported, int BMN) {
    const uint32_t mt = (uint32_t)((MN + BMN - 1) / BMN - 1), kt = gemm_k_tiles((uint32_t)K) - 1;
    long long most = -1;
    for (uint32_t t = 0; t < GEMM_THREADS; ++t)
        for (uint32_t i = 0; i < GEMM_COPY_VECS; ++i) {
            const uint32_t v = gemm_copy_value(i);
            const long long off = (long long)Op::mn(t, v, mt) * ld + Op::k(t, v, kt);
            if (off > most) most = off;
            // As gemm_copy_tile forms it.
            if (supported) sink = Op::offset(Op::mn(t, v, mt), Op::k(t, v, kt), ld);
        }
    return most;
}

static long long max_c_offset(int M, int N, int ldc, bool supported) {
    const uint32_t nt = (uint32_t)((N + GEMM_BN - 1) / GEMM_BN - 1), mt = (uint32_t)((M + GEMM_BM - 1) / GEMM_BM - 1);
    long long most = -1;
    for (uint32_t t = 0; t < GEMM_THREADS; ++t)
        for (uint32_t v = 0; v < GEMM_ACC; ++v) {
            if (!gemm_c(t, v, nt, mt, (uint32_t)N, (uint32_t)M)) continue;
            const long long off = gemm_c_coord1(t, v, mt) + (long long)gemm_c_coord0(t, v, nt) * ldc;
            if (off > most) most = off;
            if (supported) sink = gemm_c_offset(gemm_c_coord1(t, v, mt), gemm_c_coord0(t, v, nt), ldc);
        }
    return most;
}

int main() {
    alignas(16) static char base[64];
    int M, N, K, lda, ldb, ldc, ma, mb;
    while (scanf("%d %d %d %d %d %d %d %d", &M, &N, &K, &lda, &ldb, &ldc, &ma, &mb) == 8) {
        const bool ok = gen_gemm_supported(M, N, K, base + ma, lda, base + 32 + mb, ldb, ldc);
        // Only problems the kernel could be launched on (extents in range, K a multiple of
        // the vector) have offsets to report.
        const bool formed = M >= 1 && N >= 1 && K >= 8 && M <= GEMM_MAX_EXTENT &&
                            N <= GEMM_MAX_EXTENT && K <= GEMM_MAX_EXTENT && K % GEMM_VEC == 0;
        if (!formed) {
            printf("%d -1 -1 -1\n", (int)ok);
        } else {
            const long long a = max_copy_offset<GemmA>(M, K, lda, ok, GEMM_BM);
            const long long b = max_copy_offset<GemmB>(N, K, ldb, ok, GEMM_BN);
            const long long c = max_c_offset(M, N, ldc, ok);
            printf("%d %lld %lld %lld\n", (int)ok, a, b, c);
        }
        fflush(stdout);
    }
    return 0;
}
