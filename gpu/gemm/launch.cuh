// The GEMM kernels and their host launchers (CUDA only): C = A·Bᵀ, fp16 in and out, with fp16
// (`gen_gemm_tn_f16acc`) or fp32 (`gen_gemm_tn_f32acc`) accumulators; the kernels are
// `gen_gemm_k_*` (`_pred`: with residue tiles). Layouts as CuTe's
// gemm_tn: A(m, k) = A[m·lda + k], B(n, k) = B[n·ldb + k], C(m, n) = C[m + n·ldc].
//
// The host refuses (cudaErrorInvalidValue) what the generated functions were not proven for:
// an extent outside [1, GEMM_MAX_EXTENT]; K not a multiple of the 16-byte vector (GEMM_VEC
// halves: a vector's predicate is its first element's, so a vector must not straddle K); a
// leading dimension below its matrix's row length or not a multiple of the vector; A or B not
// 16-byte aligned; an offset past INT32_MAX (the address functions compute in int32_t), counting
// the rows and k columns of the residue tiles, whose offsets the copies form before they predicate.
#pragma once
#include <cuda_runtime.h>
#include "kernel.cuh"
#include "supported.hpp"

template <class Acc, bool Pred>
__device__ __forceinline__ void gen_gemm_tn_device(int M, int N, int K, const gemm_half_t* A, int lda,
                                                   const gemm_half_t* B, int ldb, gemm_half_t* C, int ldc) {
    extern __shared__ uint4 gemm_smem[];
    Lane ln;
    gemm_tn_body<Acc, Pred>(ln, threadIdx.x, blockIdx.x, blockIdx.y, M, N, K, A, lda, B, ldb, C, ldc,
                            reinterpret_cast<gemm_half_t*>(gemm_smem));
}

#define GEN_GEMM_KERNEL(NAME, ACC, PRED)                                                          \
    extern "C" __global__ void __launch_bounds__(GEMM_THREADS)                                    \
        NAME(int M, int N, int K, const gemm_half_t* A, int lda, const gemm_half_t* B, int ldb, gemm_half_t* C,   \
             int ldc) {                                                                           \
        gen_gemm_tn_device<ACC, PRED>(M, N, K, A, lda, B, ldb, C, ldc);                           \
    }
GEN_GEMM_KERNEL(gen_gemm_k_f16acc, GemmAccF16, false)
GEN_GEMM_KERNEL(gen_gemm_k_f16acc_pred, GemmAccF16, true)
GEN_GEMM_KERNEL(gen_gemm_k_f32acc, GemmAccF32, false)
GEN_GEMM_KERNEL(gen_gemm_k_f32acc_pred, GemmAccF32, true)
#undef GEN_GEMM_KERNEL

static inline cudaError_t gen_gemm_launch(bool f32acc, int M, int N, int K, const __half* A, int lda,
                                          const __half* B, int ldb, __half* C, int ldc,
                                          cudaStream_t s) {
    if (!gen_gemm_supported(M, N, K, A, lda, B, ldb, ldc)) return cudaErrorInvalidValue;
    const bool full = M % GEMM_BM == 0 && N % GEMM_BN == 0 && K % GEMM_BK == 0;
    void (*k)(int, int, int, const gemm_half_t*, int, const gemm_half_t*, int, gemm_half_t*, int) =
        f32acc ? (full ? gen_gemm_k_f32acc : gen_gemm_k_f32acc_pred)
               : (full ? gen_gemm_k_f16acc : gen_gemm_k_f16acc_pred);
    const int smem = 2 * GEMM_SMEM * (int)sizeof(gemm_half_t);
    // Once per kernel: more than 48 KiB of dynamic shared memory, and all of L1 as shared
    // memory, as CuTe's launcher sets it (the copies go through L1: cp.async.ca).
    static bool ready[4] = {false, false, false, false};
    bool& r = ready[2 * f32acc + full];
    if (!r) {
        cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
        if (e == cudaSuccess) e = cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
        if (e != cudaSuccess) return e;
        r = true;
    }
    dim3 grid((M + GEMM_BM - 1) / GEMM_BM, (N + GEMM_BN - 1) / GEMM_BN);
    k<<<grid, GEMM_THREADS, smem, s>>>(M, N, K, A, lda, B, ldb, C, ldc);
    return cudaGetLastError();
}

static inline cudaError_t gen_gemm_tn_f16acc(int M, int N, int K, const __half* A, int lda,
                                                    const __half* B, int ldb, __half* C, int ldc,
                                                    cudaStream_t s) {
    return gen_gemm_launch(false, M, N, K, A, lda, B, ldb, C, ldc, s);
}
static inline cudaError_t gen_gemm_tn_f32acc(int M, int N, int K, const __half* A, int lda,
                                                    const __half* B, int ldb, __half* C, int ldc,
                                                    cudaStream_t s) {
    return gen_gemm_launch(true, M, N, K, A, lda, B, ldb, C, ldc, s);
}
