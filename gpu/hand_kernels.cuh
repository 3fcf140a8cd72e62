// Hand-written baselines: index arithmetic as one writes it without a layout library.
#pragma once
#include <stdint.h>

// (a) The classic padded-tile transpose (32×33 floats, no swizzle), 256 threads as 32×8.
extern "C" __global__ void __launch_bounds__(256)
hand_transpose(const float* in, float* out, int ld_in, int ld_out) {
    __shared__ float tile[32][33];
    int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    int x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
    for (int j = 0; j < 32; j += 8) tile[ty + j][tx] = in[(y + j) * ld_in + x];
    __syncthreads();
    x = blockIdx.y * 32 + tx;
    y = blockIdx.x * 32 + ty;
    for (int j = 0; j < 32; j += 8) out[(y + j) * ld_out + x] = tile[tx][ty + j];
}

// (b) 128×64 fp16 tile through a hand-swizzled (16-byte chunk k of row r at k ^ (r % 8)) tile.
extern "C" __global__ void __launch_bounds__(128)
hand_stage(const uint16_t* in, uint16_t* out, int ld_in, int ld_out) {
    __shared__ __align__(128) uint16_t smem[128 * 64];
    int t = threadIdx.x, row0 = blockIdx.y * 128, col0 = blockIdx.x * 64;
    int k = t % 8;
    uint4 r[8];
    for (int v = 0; v < 8; ++v) {
        int row = t / 8 + 16 * v;
        r[v] = *reinterpret_cast<const uint4*>(in + (row0 + row) * ld_in + col0 + 8 * k);
    }
    for (int v = 0; v < 8; ++v) {
        int row = t / 8 + 16 * v;
        *reinterpret_cast<uint4*>(smem + row * 64 + 8 * (k ^ (row % 8))) = r[v];
    }
    __syncthreads();
    for (int v = 0; v < 8; ++v) {
        int row = 8 * (t / 8) + v;
        r[v] = *reinterpret_cast<const uint4*>(smem + row * 64 + 8 * (k ^ (row % 8)));
    }
    for (int v = 0; v < 8; ++v) {
        int row = 8 * (t / 8) + v;
        *reinterpret_cast<uint4*>(out + (row0 + row) * ld_out + col0 + 8 * k) = r[v];
    }
}
