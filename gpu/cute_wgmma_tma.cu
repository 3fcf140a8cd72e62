// CuTe's Hopper tutorial GEMM with TMA, exactly as the nvidia-cutlass==4.2.0.0 wheel ships it
// (examples/cute/tutorial/hopper/wgmma_tma_sm90.cu: gemm_tn, SM90_64x64x16_F16F16F16_SS with
// K-major operands, 128×128×64 tiles, GMMA::Layout_K_SW128_Atom tiled to a 3-stage ring, one TMA
// load of A and one of B per stage on a transaction mbarrier, 2×1 thread-block clusters, 128
// threads), included unchanged into its own translation unit and its own namespace: the three
// tutorials define the same global names (`gemm_tn<half_t, ...>` of each has the same mangled
// name, and the linker would keep one of them). Its `main` is renamed and never called. Needs
// sm_90a (wgmma, TMA).
//
// Two of CuTe's configurable macros are set before the include: CUTE_CHECK_LAST (by default
// cudaDeviceSynchronize after every launch, which would time the host's round trip too, and
// exit() on an error) checks nothing, and CUTE_CHECK_ERROR (exit() on an error) passes the status
// on: the error, if any, stays for cudaGetLastError below, as for every other row of the benchmark.
// The tensor maps are encoded by cuTensorMapEncodeTiled through cudaGetDriverEntryPointByVersion
// (cutlass/cuda_host_adapter.hpp), so this file needs no -lcuda. The tutorial launches on stream 0
// (its `stream` argument is not passed to the cluster launch).
#define CUTE_CHECK_LAST() ((void)0)
#define CUTE_CHECK_ERROR(e) ((void)(e))
// The tutorial's own includes first, at global scope (so that its #include lines below find them
// done); cute::device_init (a non-inline function of helper_cuda.hpp) renamed per unit.
#define device_init cute_wgmma_tma_sm90_device_init
#include <cstdlib>
#include <cstdio>
#include <cassert>
#include <thrust/host_vector.h>
#include <thrust/device_vector.h>
#include <cute/tensor.hpp>
#include "cutlass/cluster_launch.hpp"
#include "cutlass/arch/barrier.h"
#include "cutlass/pipeline/sm90_pipeline.hpp"
#include "cutlass/util/print_error.hpp"
#include "cutlass/util/GPU_Clock.hpp"
#include "cutlass/util/helper_cuda.hpp"
#include "cutlass/arch/mma_sm90.h"
#include "cutlass/device_kernel.h"
#undef device_init
#define main tutorial_main
namespace cute_wgmma_tma_sm90 {
#include "examples/cute/tutorial/hopper/wgmma_tma_sm90.cu"
}  // namespace cute_wgmma_tma_sm90
#undef main

#include <cstdint>

#include "cute_hopper.h"

// No residue handling: the epilogue stores whole 128×128 tiles unpredicated, and the grid's M
// extent is rounded up to the 2-CTA cluster, so M must be a multiple of 256 (an odd count of M
// tiles would store a tile past M); whole 64-deep k-tiles; TMA needs 16-byte aligned A and B and
// row strides that are multiples of 16 bytes.
bool cute_wgmma_tma_tn_supported(int M, int N, int K, int lda, int ldb, int ldc, const void* A, const void* B) {
    return M > 0 && N > 0 && K > 0 && M % 256 == 0 && N % 128 == 0 && K % 64 == 0 && lda % 8 == 0 &&
           ldb % 8 == 0 && lda >= K && ldb >= K && ldc >= M && reinterpret_cast<uintptr_t>(A) % 16 == 0 &&
           reinterpret_cast<uintptr_t>(B) % 16 == 0;
}

cudaError_t cute_wgmma_tma_tn(int M, int N, int K, const __half* A, int lda, const __half* B, int ldb,
                              __half* C, int ldc, cudaStream_t s) {
    if (!cute_wgmma_tma_tn_supported(M, N, K, lda, ldb, ldc, A, B)) return cudaErrorInvalidValue;
    cute::half_t alpha = cute::half_t(1.0f), beta = cute::half_t(0.0f);
    // The tutorial's own types (as its main: TA = TB = TC = TI = cute::half_t).
    cute_wgmma_tma_sm90::gemm_tn(M, N, K, alpha, reinterpret_cast<const cute::half_t*>(A), lda,
            reinterpret_cast<const cute::half_t*>(B), ldb, beta, reinterpret_cast<cute::half_t*>(C), ldc, s);
    return cudaGetLastError();
}
