// CuTe's Hopper tutorial GEMMs (gpu/cute_wgmma_tma.cu, gpu/cute_wgmma.cu), in the convention of
// gpu/gemm/launch.cuh: A M×K K-major (lda), B N×K K-major (ldb), C M×N column-major (ldc),
// C = A·Bᵀ, fp16 in, fp16 out, fp16 accumulate (the tutorials' SM90_64x64x16_F16F16F16_SS).
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// wgmma_tma_sm90.cu `gemm_tn`: TMA loads on mbarriers, 128×128×64 tiles, 3 stages, 2×1 clusters.
bool cute_wgmma_tma_tn_supported(int M, int N, int K, int lda, int ldb, int ldc, const void* A, const void* B);
cudaError_t cute_wgmma_tma_tn(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                              __half* C, int ldc, cudaStream_t s);
// wgmma_sm90.cu `gemm_tn`: cp.async loads, 128×128×64 tiles, 3 stages, no clusters.
bool cute_wgmma_tn_supported(int M, int N, int K, int lda, int ldb, int ldc, const void* A, const void* B);
cudaError_t cute_wgmma_tn(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                          __half* C, int ldc, cudaStream_t s);
