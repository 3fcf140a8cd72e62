// The instructions the GEMM kernel template uses, one per-thread function each, with the same
// signatures on the GPU (inline PTX) and on the host (gpu/gemm/host_emulation.hpp: CPU threads as
// CUDA threads, the warp-collective instructions exchanged through a per-warp barrier). The
// template (gpu/gemm/kernel.cuh) calls nothing else; every address and fragment index it passes
// comes from the generated functions (gpu/gen/gemm.cuh).
//
// Units: pointers are typed (`gemm_half_t`); `cp_async_16` moves 16 bytes (8 halves).
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#define GEMM_FN __device__ __forceinline__
// Loops over registers are unrolled, so that every register index is a constant.
#define GEMM_UNROLL _Pragma("unroll")
using gemm_half_t = __half;
// Nothing per thread on the GPU: the hardware is the warp.
struct Lane {};

GEMM_FN uint32_t smem_u32(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
// cp.async.ca (through L1, as CuTe's SM80_CP_ASYNC_CACHEALWAYS; 16 bytes); when `pred` is false the 16 bytes are zero-filled and
// `src` is not read (src-size 0).
GEMM_FN void cp_async_16(Lane&, gemm_half_t* dst, const gemm_half_t* src, bool pred) {
#ifdef GEMM_CP_ASYNC_CG
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_u32(dst)),
                 "l"(src), "r"(pred ? 16 : 0));
#else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_u32(dst)),
                 "l"(src), "r"(pred ? 16 : 0));
#endif
}
GEMM_FN void cp_async_commit(Lane&) { asm volatile("cp.async.commit_group;\n" ::); }
// Waits until at most N of this thread's committed groups are pending.
template <int N>
GEMM_FN void cp_async_wait(Lane&) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
GEMM_FN void sync_threads(Lane&) { __syncthreads(); }
// ldmatrix.sync.aligned.m8n8.x4.shared.b16: lane l gives the address of row l % 8 of matrix
// l / 8 (8 halves, 16-byte aligned); d[j] gets elements (l / 4, 2 (l % 4) .. +1) of matrix j.
GEMM_FN void ldmatrix_x4(Lane&, uint32_t (&d)[4], const gemm_half_t* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(smem_u32(row)));
}
// mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16: d = a·b + d (fragments as the PTX ISA
// defines them for this shape).
GEMM_FN void mma_16816_f16(Lane&, uint32_t (&d)[2], const uint32_t (&a)[4],
                           const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, "
        "{%0, %1};\n"
        : "+r"(d[0]), "+r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
// The same with fp32 accumulators.
GEMM_FN void mma_16816_f32(Lane&, float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
// The two halves of a packed f16x2 register (low half first).
GEMM_FN void unpack_h2(uint32_t r, gemm_half_t& lo, gemm_half_t& hi) {
    __half2 h = *reinterpret_cast<__half2*>(&r);
    lo = __low2half(h);
    hi = __high2half(h);
}
GEMM_FN gemm_half_t to_half(float x) { return __float2half_rn(x); }
#else
#define GEMM_UNROLL
#include "host_emulation.hpp"
#endif
