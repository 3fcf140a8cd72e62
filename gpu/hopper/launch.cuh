// The Hopper GEMM's kernels and host launchers (nvcc, -arch=sm_90a). C = A·Bᵀ, fp16, CuTe's
// gemm_tn layouts (gpu/hopper/kernel.cuh): A M×K K-major (lda), B N×K K-major (ldb), C M×N
// M-major (ldc), elements.
#pragma once
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "kernel.cuh"
#include "supported.hpp"

template <class Acc>
__global__ void __launch_bounds__(HG_THREADS, 1)
    hg_gemm_kernel(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb,
                   __half* C, uint32_t M, uint32_t N, uint32_t K, uint32_t ldc) {
    extern __shared__ uint8_t hg_smem_raw[];
    // The ring's swizzled stages need 1024-byte alignment.
    uint8_t* smem = hg_smem_raw + ((1024u - (hg_smem_u32(hg_smem_raw) & 1023u)) & 1023u);
    Lane ln;
    hg_gemm_body<Acc>(ln, threadIdx.x, blockIdx.x, smem, &ta, &tb, C, M, N, K, ldc);
}
template __global__ void hg_gemm_kernel<HgAccF32>(const __grid_constant__ CUtensorMap,
                                                  const __grid_constant__ CUtensorMap, __half*,
                                                  uint32_t, uint32_t, uint32_t, uint32_t);
template __global__ void hg_gemm_kernel<HgAccF16>(const __grid_constant__ CUtensorMap,
                                                  const __grid_constant__ CUtensorMap, __half*,
                                                  uint32_t, uint32_t, uint32_t, uint32_t);

// The L2 promotion of the TMA loads: 128 bytes (CU_TENSOR_MAP_L2_PROMOTION_L2_128B). Measured on the
// H200: equal to 256 bytes when rows are 128-byte aligned, and 1.15–1.18× faster when they are not
// (lda = 4104).
#ifndef HG_L2_PROMOTION
#define HG_L2_PROMOTION 2
#endif

// cuTensorMapEncodeTiled through the runtime's driver entry point (no -lcuda).
inline PFN_cuTensorMapEncodeTiled_v12000 hg_encode_fn() {
    static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
    if (fn == nullptr) {
        void* p = nullptr;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault,
                                             &q) == cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    }
    return fn;
}

inline cudaError_t hg_encode(CUtensorMap* map, const __half* ptr, const HgMapFields& f) {
    auto fn = hg_encode_fn();
    if (fn == nullptr) return cudaErrorNotSupported;
    const cuuint64_t dims[2] = {f.dims[0], f.dims[1]};
    const cuuint64_t strides[1] = {f.stride_bytes};
    const cuuint32_t box[2] = {f.box[0], f.box[1]};
    const cuuint32_t elem[2] = {1, 1};
    CUresult r = fn(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<__half*>(ptr), dims, strides,
                    box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE, CUtensorMapSwizzle(f.swizzle),
                    CUtensorMapL2promotion(HG_L2_PROMOTION), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

template <class Acc>
inline cudaError_t hg_gemm_tn(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                              __half* C, int ldc, cudaStream_t stream) {
    if (!hg_gemm_supported(M, N, K, lda, ldb, ldc, A, B, C)) return cudaErrorInvalidValue;
    CUtensorMap ta, tb;
    cudaError_t e = hg_encode(&ta, A, hg_map_a(M, K, lda));
    if (e != cudaSuccess) return e;
    e = hg_encode(&tb, B, hg_map_b(N, K, ldb));
    if (e != cudaSuccess) return e;
    const int smem = HG_SMEM_BYTES + 1024;
    e = cudaFuncSetAttribute(hg_gemm_kernel<Acc>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e != cudaSuccess) return e;
    hg_gemm_kernel<Acc><<<hg_grid_x(M, N), HG_THREADS, smem, stream>>>(ta, tb, C, M, N, K, ldc);
    return cudaGetLastError();
}
inline cudaError_t hg_gemm_tn_f32acc(int M, int N, int K, const __half* A, int lda, const __half* B,
                                     int ldb, __half* C, int ldc, cudaStream_t stream) {
    return hg_gemm_tn<HgAccF32>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}
inline cudaError_t hg_gemm_tn_f16acc(int M, int N, int K, const __half* A, int lda, const __half* B,
                                     int ldb, __half* C, int ldc, cudaStream_t stream) {
    return hg_gemm_tn<HgAccF16>(M, N, K, A, lda, B, ldb, C, ldc, stream);
}
