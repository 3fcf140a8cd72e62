// The GEMM kernels and their host launchers (CUDA only): C = A·Bᵀ, fp16 in and out, with fp16
// (`gen_gemm_tn_f16acc`) or fp32 (`gen_gemm_tn_f32acc`) accumulators; the kernels are
// `gen_gemm_k_*` (`_pred`: with residue tiles). Layouts as CuTe's
// gemm_tn: A(m, k) = A[m·lda + k], B(n, k) = B[n·ldb + k], C(m, n) = C[m + n·ldc].
//
// The host refuses (cudaErrorInvalidValue) what the generated functions were not proven for:
// an extent outside [1, GEMM_MAX_EXTENT]; K not a multiple of the 16-byte vector (GEMM_VEC
// halves: a vector's predicate is its first element's, so a vector must not straddle K); a
// leading dimension below its matrix's row length, or lda or ldb not a multiple of the vector
// (C is written one element at a time: ldc may be any value >= M); A or B not
// 16-byte aligned; an offset past INT32_MAX (the address functions compute in int32_t), counting
// the rows and k columns of the residue tiles, whose offsets the copies form before they predicate
// (gen_gemm_supported, gpu/gemm/supported.hpp).
#pragma once
#include <cuda_runtime.h>
#include "kernel.cuh"
#include "supported.hpp"

// The CTA orders (gpu/gen/gemm.cuh): CuTe's (`Linear`: M tile blockIdx.x, N tile blockIdx.y)
// and the grouped one (GEMM_GROUP M tiles of one N tile, then the next N tile; blocks past the
// last M tile return).
template <class Acc, bool Pred, bool Linear>
__device__ __forceinline__ void gen_gemm_tn_device(int M, int N, int K, const gemm_half_t* A, int lda,
                                                   const gemm_half_t* B, int ldb, gemm_half_t* C, int ldc) {
    extern __shared__ uint4 gemm_smem[];
    uint32_t bm, bn;
    if (!gemm_cta_tile<Linear>(blockIdx.y, blockIdx.x, M, bm, bn)) return;
    Lane ln;
    gemm_tn_body<Acc, Pred>(ln, threadIdx.x, bm, bn, M, N, K, A, lda, B, ldb, C, ldc,
                            reinterpret_cast<gemm_half_t*>(gemm_smem));
}

#define GEN_GEMM_KERNEL(NAME, ACC, PRED, LINEAR)                                                  \
    extern "C" __global__ void __launch_bounds__(GEMM_THREADS)                                    \
        NAME(int M, int N, int K, const gemm_half_t* A, int lda, const gemm_half_t* B, int ldb,   \
             gemm_half_t* C, int ldc) {                                                           \
        gen_gemm_tn_device<ACC, PRED, LINEAR>(M, N, K, A, lda, B, ldb, C, ldc);                   \
    }
GEN_GEMM_KERNEL(gen_gemm_k_f16acc, GemmAccF16, false, false)
GEN_GEMM_KERNEL(gen_gemm_k_f16acc_pred, GemmAccF16, true, false)
GEN_GEMM_KERNEL(gen_gemm_k_f32acc, GemmAccF32, false, false)
GEN_GEMM_KERNEL(gen_gemm_k_f32acc_pred, GemmAccF32, true, false)
GEN_GEMM_KERNEL(gen_gemm_k_f16acc_linear, GemmAccF16, false, true)
GEN_GEMM_KERNEL(gen_gemm_k_f16acc_linear_pred, GemmAccF16, true, true)
GEN_GEMM_KERNEL(gen_gemm_k_f32acc_linear, GemmAccF32, false, true)
GEN_GEMM_KERNEL(gen_gemm_k_f32acc_linear_pred, GemmAccF32, true, true)
#undef GEN_GEMM_KERNEL

typedef void (*GenGemmKernel)(int, int, int, const gemm_half_t*, int, const gemm_half_t*, int, gemm_half_t*, int);

static inline cudaError_t gen_gemm_launch(bool f32acc, bool linear, int M, int N, int K, const __half* A,
                                          int lda, const __half* B, int ldb, __half* C, int ldc,
                                          cudaStream_t s) {
    if (!gen_gemm_supported(M, N, K, A, lda, B, ldb, ldc)) return cudaErrorInvalidValue;
    const bool full = M % GEMM_BM == 0 && N % GEMM_BN == 0 && K % GEMM_BK == 0;
    static const GenGemmKernel kernels[8] = {
        gen_gemm_k_f16acc_pred,        gen_gemm_k_f16acc,        gen_gemm_k_f32acc_pred,
        gen_gemm_k_f32acc,             gen_gemm_k_f16acc_linear_pred, gen_gemm_k_f16acc_linear,
        gen_gemm_k_f32acc_linear_pred, gen_gemm_k_f32acc_linear};
    const int which = 4 * linear + 2 * f32acc + full;
    const GenGemmKernel k = kernels[which];
    const int smem = 2 * GEMM_SMEM * (int)sizeof(gemm_half_t);
    // More than 48 KiB of dynamic shared memory, and all of L1 as shared memory, as CuTe's
    // launcher sets it (the copies go through L1: cp.async.ca). Set at every launch: the
    // attributes are per device, and a cache of them would race between host threads.
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e == cudaSuccess) e = cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
    if (e != cudaSuccess) return e;
    unsigned gx, gy;
    gen_gemm_grid(linear, M, N, gx, gy);
    k<<<dim3(gx, gy), GEMM_THREADS, smem, s>>>(M, N, K, A, lda, B, ldb, C, ldc);
    return cudaGetLastError();
}

// C = A·Bᵀ with fp16 accumulators (CuTe's tutorial kernel's), the grouped CTA order.
static inline cudaError_t gen_gemm_tn_f16acc(int M, int N, int K, const __half* A, int lda, const __half* B,
                                             int ldb, __half* C, int ldc, cudaStream_t s) {
    return gen_gemm_launch(false, false, M, N, K, A, lda, B, ldb, C, ldc, s);
}
// The same with fp32 accumulators.
static inline cudaError_t gen_gemm_tn_f32acc(int M, int N, int K, const __half* A, int lda, const __half* B,
                                             int ldb, __half* C, int ldc, cudaStream_t s) {
    return gen_gemm_launch(true, false, M, N, K, A, lda, B, ldb, C, ldc, s);
}
// fp16 accumulators in CuTe's CTA order: CuTe's kernel's design in every respect.
static inline cudaError_t gen_gemm_tn_f16acc_linear(int M, int N, int K, const __half* A, int lda,
                                                    const __half* B, int ldb, __half* C, int ldc,
                                                    cudaStream_t s) {
    return gen_gemm_launch(false, true, M, N, K, A, lda, B, ldb, C, ldc, s);
}
// fp32 accumulators in CuTe's CTA order.
static inline cudaError_t gen_gemm_tn_f32acc_linear(int M, int N, int K, const __half* A, int lda,
                                                    const __half* B, int ldb, __half* C, int ldc,
                                                    cudaStream_t s) {
    return gen_gemm_launch(true, true, M, N, K, A, lda, B, ldb, C, ldc, s);
}
