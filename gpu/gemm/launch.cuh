// The GEMM's host entry points, as gpu/gemm_bench.cu calls them (CuTe's gemm_tn convention):
//   A is M×K, A(m, k) = A[m·lda + k] (K-major); B is N×K, B(n, k) = B[n·ldb + k] (K-major);
//   C is M×N column-major, C(m, n) = C[m + n·ldc]; C = A·Bᵀ (alpha 1, beta 0), any M, N, K ≥ 1.
// `_f16acc` accumulates in fp16, `_f32acc` in fp32; both write fp16. Every kernel's name starts
// with `gen_gemm` (gpu/gemm.sh finds them in the SASS by that prefix).
//
// PLACEHOLDER: a plain 16×16 shared-memory tiled kernel, correct at every size and slow, so that
// the benchmark builds and checks before the generated kernel replaces this file.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

template <class Acc>
__device__ __forceinline__ void gen_gemm_placeholder(int M, int N, int K, const __half* A, int lda,
                                                     const __half* B, int ldb, __half* C, int ldc) {
    __shared__ __half sa[16][17], sb[16][17];
    int tm = threadIdx.x % 16, tn = threadIdx.x / 16;
    int m = blockIdx.x * 16 + tm, n = blockIdx.y * 16 + tn;
    Acc acc = Acc(0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        // thread (tm, tn) loads A(block m + tn, k0 + tm) and B(block n + tn, k0 + tm)
        int am = blockIdx.x * 16 + tn, bn = blockIdx.y * 16 + tn, k = k0 + tm;
        sa[tn][tm] = am < M && k < K ? A[(size_t)am * lda + k] : __float2half(0.0f);
        sb[tn][tm] = bn < N && k < K ? B[(size_t)bn * ldb + k] : __float2half(0.0f);
        __syncthreads();
        // 16 products summed in fp32, then added to the accumulator: one rounding per 16 k, as
        // mma.sync m16n8k16 rounds an fp16 accumulator
        float part = 0.0f;
        for (int kk = 0; kk < 16; ++kk)
            part = fmaf(__half2float(sa[tm][kk]), __half2float(sb[tn][kk]), part);
        acc = Acc(float(acc) + part);
        __syncthreads();
    }
    if (m < M && n < N) C[m + (size_t)n * ldc] = __half(acc);
}

extern "C" __global__ void __launch_bounds__(256)
gen_gemm_tn_f16acc_kernel(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                          __half* C, int ldc) {
    gen_gemm_placeholder<__half>(M, N, K, A, lda, B, ldb, C, ldc);
}
extern "C" __global__ void __launch_bounds__(256)
gen_gemm_tn_f32acc_kernel(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                          __half* C, int ldc) {
    gen_gemm_placeholder<float>(M, N, K, A, lda, B, ldb, C, ldc);
}

inline cudaError_t gen_gemm_tn_f16acc(int M, int N, int K, const __half* A, int lda,
                                      const __half* B, int ldb, __half* C, int ldc,
                                      cudaStream_t s) {
    gen_gemm_tn_f16acc_kernel<<<dim3((M + 15) / 16, (N + 15) / 16), 256, 0, s>>>(M, N, K, A, lda,
                                                                                B, ldb, C, ldc);
    return cudaGetLastError();
}
inline cudaError_t gen_gemm_tn_f32acc(int M, int N, int K, const __half* A, int lda,
                                      const __half* B, int ldb, __half* C, int ldc,
                                      cudaStream_t s) {
    gen_gemm_tn_f32acc_kernel<<<dim3((M + 15) / 16, (N + 15) / 16), 256, 0, s>>>(M, N, K, A, lda,
                                                                                B, ldb, C, ldc);
    return cudaGetLastError();
}
