// The Hopper GEMM's entry points (gpu/hopper/launch.cuh) for gpu/gemm_bench.cu, in a translation
// unit of their own: gpu/hopper/ and gpu/gemm/ each define their instruction layer with the same
// names (`Lane`, ...), so the two GEMMs are not included into one unit. The functions forward.
#include "hopper/launch.cuh"

bool bench_hg_gemm_supported(int M, int N, int K, int lda, int ldb, int ldc, const void* A, const void* B,
                             const void* C) {
    return hg_gemm_supported(M, N, K, lda, ldb, ldc, A, B, C);
}
cudaError_t bench_hg_gemm_tn_f16acc(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                                    __half* C, int ldc, cudaStream_t s) {
    return hg_gemm_tn_f16acc(M, N, K, A, lda, B, ldb, C, ldc, s);
}
cudaError_t bench_hg_gemm_tn_f32acc(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                                    __half* C, int ldc, cudaStream_t s) {
    return hg_gemm_tn_f32acc(M, N, K, A, lda, B, ldb, C, ldc, s);
}
