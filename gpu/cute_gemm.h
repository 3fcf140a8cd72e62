// CuTe's tutorial HGEMM (gpu/cute_gemm.cu), in the convention of gpu/gemm/launch.cuh:
// A M×K K-major (lda), B N×K K-major (ldb), C M×N column-major (ldc), C = A·Bᵀ, fp16 accumulate.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// Whether the tutorial kernel computes this problem (it has no residue handling).
bool cute_gemm_tn_supported(int M, int N, int K, int lda, int ldb, int ldc);
// Launches it on `s`; cudaErrorInvalidValue where it is not supported.
cudaError_t cute_gemm_tn(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                         __half* C, int ldc, cudaStream_t s);
