// CuTe's tutorial HGEMM, exactly as the nvidia-cutlass==4.2.0.0 wheel ships it
// (examples/cute/tutorial/sgemm_sm80.cu: gemm_tn, SM80_16x8x16_F16F16F16F16_TN, 128×128×64 tiles,
// 3-stage cp.async ring, 2×2 warps, ldmatrix x4, Swizzle<3,3,3>), included unchanged into its own
// translation unit (its `using namespace cute` would make `half_t` ambiguous beside ours); its
// `main` is renamed and never called. gpu/fetch_cute.sh puts the file under gpu/.cutlass/.
#define main cute_tutorial_main
#include "examples/cute/tutorial/sgemm_sm80.cu"
#undef main

#include "cute_gemm.h"

// The tutorial has no residue handling (no predicates): whole 128×128 tiles of C, whole 64-deep
// k-tiles, 16-byte aligned rows of A and B (cp.async of 8 halves).
bool cute_gemm_tn_supported(int M, int N, int K, int lda, int ldb, int ldc) {
    return M > 0 && N > 0 && K > 0 && M % 128 == 0 && N % 128 == 0 && K % 64 == 0 &&
           lda % 8 == 0 && ldb % 8 == 0 && lda >= K && ldb >= K && ldc >= M;
}

cudaError_t cute_gemm_tn(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                         __half* C, int ldc, cudaStream_t s) {
    if (!cute_gemm_tn_supported(M, N, K, lda, ldb, ldc)) return cudaErrorInvalidValue;
    cute::half_t alpha = cute::half_t(1.0f), beta = cute::half_t(0.0f);
    // The tutorial's own fp16 overload (cute::half_t pointers): the 128×128×64 HGEMM.
    gemm_tn(M, N, K, alpha, reinterpret_cast<const cute::half_t*>(A), lda,
            reinterpret_cast<const cute::half_t*>(B), ldb, beta, reinterpret_cast<cute::half_t*>(C),
            ldc, s);
    return cudaGetLastError();
}
