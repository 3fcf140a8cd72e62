// Baselines written with CuTe (CUTLASS 4.2.0, headers from the PyPI wheel nvidia-cutlass==4.2.0.0,
// never committed: gpu/run.sh expects them under gpu/.cutlass/include).
#pragma once
#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

// (a) 32×32 fp32 transpose, 256 threads: local_tile, local_partition, Swizzle<5,0,5> smem, copy.
__device__ __forceinline__ void cute_transpose_tile(const float* in, float* out, int M, int N,
                                                    int ld_in, int ld_out, int by, int bx) {
    using namespace cute;
    __shared__ float smem[1024];
    // A is M×N row-major; B = Aᵀ (N×M row-major) seen in A's coordinates: (i, j) -> j·ld_out + i.
    Tensor A = make_tensor(make_gmem_ptr(in), make_shape(M, N), make_stride(ld_in, Int<1>{}));
    Tensor B = make_tensor(make_gmem_ptr(out), make_shape(M, N), make_stride(Int<1>{}, ld_out));
    auto tile = Shape<_32, _32>{};
    Tensor gA = local_tile(A, tile, make_coord(by, bx));
    Tensor gB = local_tile(B, tile, make_coord(by, bx));
    auto sl = composition(Swizzle<5, 0, 5>{}, Layout<Shape<_32, _32>, Stride<_32, _1>>{});
    Tensor sA = make_tensor(make_smem_ptr(smem), sl);
    auto t_load = Layout<Shape<_8, _32>, Stride<_32, _1>>{};   // thread t -> (t/32, t%32)
    auto t_store = Layout<Shape<_32, _8>, Stride<_1, _32>>{};  // thread t -> (t%32, t/32)
    copy(local_partition(gA, t_load, threadIdx.x), local_partition(sA, t_load, threadIdx.x));
    __syncthreads();
    copy(local_partition(sA, t_store, threadIdx.x), local_partition(gB, t_store, threadIdx.x));
}

extern "C" __global__ void __launch_bounds__(256)
cute_transpose(const float* in, float* out, int M, int N, int ld_in, int ld_out) {
    cute_transpose_tile(in, out, M, N, ld_in, ld_out, blockIdx.y, blockIdx.x);
}

// The same with the tiles visited in the generated kernel's 2-level raster order: block index
// 512y + x walks 32×32 tiles before the next square (assumes the 512×512 grid of (a)).
extern "C" __global__ void __launch_bounds__(256)
cute_transpose_r(const float* in, float* out, int M, int N, int ld_in, int ld_out) {
    int y = blockIdx.y, x = blockIdx.x;
    cute_transpose_tile(in, out, M, N, ld_in, ld_out, 32 * (y / 32) + 16 * (y % 2) + x / 32,
                        32 * ((y / 2) % 16) + x % 32);
}

// (b) 128×64 fp16 tile: global -> GMMA K-major 128B-swizzled smem (Layout_K_SW128_Atom) -> global,
// 128 threads, 128-bit copy atoms, the same two thread-value partitions as the generated kernel.
extern "C" __global__ void __launch_bounds__(128)
cute_stage(const cute::half_t* in, cute::half_t* out, int M, int N, int ld_in, int ld_out) {
    using namespace cute;
    __shared__ __align__(128) half_t smem[128 * 64];
    Tensor A = make_tensor(make_gmem_ptr(in), make_shape(M, N), make_stride(ld_in, Int<1>{}));
    Tensor B = make_tensor(make_gmem_ptr(out), make_shape(M, N), make_stride(ld_out, Int<1>{}));
    auto tile = Shape<_128, _64>{};
    Tensor gA = local_tile(A, tile, make_coord(blockIdx.y, blockIdx.x));
    Tensor gB = local_tile(B, tile, make_coord(blockIdx.y, blockIdx.x));
    auto sl = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, tile);
    Tensor s = make_tensor(make_smem_ptr(smem), sl);
    using Atom = Copy_Atom<UniversalCopy<uint128_t>, half_t>;
    // in: thread t -> rows t/8 + 16v, columns 8(t%8)..+8
    auto copy_in = make_tiled_copy(Atom{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                                   Layout<Shape<_1, _8>>{});
    // out: thread t -> rows 8(t/8) + v, columns 8(t%8)..+8
    auto copy_out = make_tiled_copy(Atom{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                                    Layout<Shape<_8, _8>, Stride<_8, _1>>{});
    auto thr_in = copy_in.get_slice(threadIdx.x);
    Tensor tg = thr_in.partition_S(gA);
    Tensor ts = thr_in.partition_D(s);
    Tensor r = make_fragment_like(tg);
    copy(copy_in, tg, r);
    copy(copy_in, r, ts);
    __syncthreads();
    auto thr_out = copy_out.get_slice(threadIdx.x);
    Tensor ts2 = thr_out.partition_S(s);
    Tensor tg2 = thr_out.partition_D(gB);
    Tensor r2 = make_fragment_like(ts2);
    copy(copy_out, ts2, r2);
    copy(copy_out, r2, tg2);
}
