// Run-time addressing with CuTe (4.2.0 headers, host build): every offset of four layouts,
// (c) with static layouts and (d) with the same layouts built from run-time integers.
// The Rust side is bench/benches/addressing.rs; both walk the same coordinates in the
// same loop order and write every offset to a buffer.
//
//   addressing time            ns per offset of every kernel (min over rounds)
//   addressing run KERNEL K    runs KERNEL K times (for callgrind --toggle-collect=KERNEL)
//   addressing dump KERNEL     prints the offsets (the bench cross-checks them against Rust)
#include <cute/layout.hpp>
#include <cute/swizzle.hpp>
#include <cute/swizzle_layout.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace cute;

// Coordinates and run-time integers: int64_t by default, the width of the Rust side (usize
// coordinates, i64 offsets); -DCOORD=int gives CuTe's usual 32-bit int.
#ifndef COORD
#define COORD int64_t
#endif
using coord_t = COORD;
// The offsets' type in the buffer: int64_t by default (the Rust side's 64-bit offsets);
// -DOUT=int stores CuTe's `int` offsets as they are, as the Rust side's (a′) stores `i32`.
#ifndef OUT
#define OUT int64_t
#endif
using out_t = OUT;
static volatile coord_t g_one = 1;  // run-time 1: keeps bounds and integers opaque

// 1. identity-tiled: zipped_divide of a 128x128 row-major tile into 64x32 tiles,
//    ((64,32),(2,4)):((128,1),(8192,32)); coordinates (tile t < 2048, rest r < 8).
template <class L>
__attribute__((noinline)) void tiled_kernel(L const& l, coord_t tiles, coord_t rest, out_t* out) {
  for (coord_t r = 0; r < rest; ++r)
    for (coord_t t = 0; t < tiles; ++t) out[r * tiles + t] = l(t, r);
}
extern "C" __attribute__((noinline)) void cute_static_tiled(out_t* out) {
  auto a = make_layout(make_shape(_128{}, _128{}), make_stride(_128{}, _1{}));
  auto l = zipped_divide(a, make_shape(_64{}, _32{}));
  tiled_kernel(l, 2048 * g_one, 8 * g_one, out);
}
extern "C" __attribute__((noinline)) void cute_dynamic_tiled(out_t* out) {
  coord_t o = g_one;
  auto a = make_layout(make_shape(128 * o, 128 * o), make_stride(128 * o, o));
  auto l = zipped_divide(a, make_shape(64 * o, 32 * o));
  tiled_kernel(l, 2048 * o, 8 * o, out);
}

// 2. TV partition of a 128x128 tile (corpus big_tv_partition_128x128):
//    composition(zipped_divide(A, <64,32>), <layout_tv, _>); coordinates ((thr, val), rest).
template <class L>
__attribute__((noinline)) void partition_kernel(L const& l, coord_t rest, coord_t vals, coord_t thrs, out_t* out) {
  for (coord_t r = 0; r < rest; ++r)
    for (coord_t v = 0; v < vals; ++v)
      for (coord_t t = 0; t < thrs; ++t) out[(r * vals + v) * thrs + t] = l(make_coord(make_coord(t, v), r));
}
extern "C" __attribute__((noinline)) void cute_static_partition(out_t* out) {
  auto a = make_layout(make_shape(make_shape(_64{}, _32{}), make_shape(_2{}, _4{})),
                       make_stride(make_stride(_128{}, _1{}), make_stride(_8192{}, _32{})));
  auto tv = make_layout(make_shape(make_shape(_16{}, _16{}), make_shape(_4{}, _2{})),
                        make_stride(make_stride(_128{}, _4{}), make_stride(_1{}, _64{})));
  auto l = composition(a, make_tile(tv, _));
  partition_kernel(l, 8 * g_one, 8 * g_one, 256 * g_one, out);
}
extern "C" __attribute__((noinline)) void cute_dynamic_partition(out_t* out) {
  coord_t o = g_one;
  auto a = make_layout(make_shape(make_shape(64 * o, 32 * o), make_shape(2 * o, 4 * o)),
                       make_stride(make_stride(128 * o, o), make_stride(8192 * o, 32 * o)));
  auto tv = make_layout(make_shape(make_shape(16 * o, 16 * o), make_shape(4 * o, 2 * o)),
                        make_stride(make_stride(128 * o, 4 * o), make_stride(o, 64 * o)));
  auto l = composition(a, make_tile(tv, _));
  partition_kernel(l, 8 * o, 8 * o, 256 * o, out);
}

// 3. swizzled 64x64 shared-memory tile: Swizzle<3,3,3> o (64,64):(64,1); coordinates (m, k).
template <class L>
__attribute__((noinline)) void swizzled_kernel(L const& l, coord_t rows, coord_t cols, out_t* out) {
  for (coord_t m = 0; m < rows; ++m)
    for (coord_t k = 0; k < cols; ++k) out[m * cols + k] = l(m, k);
}
extern "C" __attribute__((noinline)) void cute_static_swizzled(out_t* out) {
  auto l = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));
  swizzled_kernel(l, 64 * g_one, 64 * g_one, out);
}
extern "C" __attribute__((noinline)) void cute_dynamic_swizzled(out_t* out) {
  coord_t o = g_one;
  auto l = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(64 * o, 64 * o), make_stride(64 * o, o)));
  swizzled_kernel(l, 64 * o, 64 * o, out);
}

// 4. restricted slice: the swizzled tile read through a 256-thread x 16-value partition
//    ((32,8),(8,2)):((1,512),(64,32)), sliced per thread (slice_and_offset((t, _), C)), then every value.
template <class L>
__attribute__((noinline)) void slice_kernel(L const& l, coord_t thrs, coord_t vals, out_t* out) {
  for (coord_t t = 0; t < thrs; ++t) {
    auto [s, off] = slice_and_offset(make_coord(t, _), l);
    for (coord_t v = 0; v < vals; ++v) out[t * vals + v] = off + s(v);
  }
}
extern "C" __attribute__((noinline)) void cute_static_slice(out_t* out) {
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));
  auto tv = make_layout(make_shape(make_shape(_32{}, _8{}), make_shape(_8{}, _2{})),
                        make_stride(make_stride(_1{}, _512{}), make_stride(_64{}, _32{})));
  slice_kernel(composition(sw, tv), 256 * g_one, 16 * g_one, out);
}
extern "C" __attribute__((noinline)) void cute_dynamic_slice(out_t* out) {
  coord_t o = g_one;
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(64 * o, 64 * o), make_stride(64 * o, o)));
  auto tv = make_layout(make_shape(make_shape(32 * o, 8 * o), make_shape(8 * o, 2 * o)),
                        make_stride(make_stride(o, 512 * o), make_stride(64 * o, 32 * o)));
  // CuTe cannot slice a swizzled layout with run-time integers (to_mixed_bits needs static
  // pow2 strides), so the run-time version evaluates the composite at (t, v).
  auto l = composition(sw, tv);
  coord_t thrs = 256 * o, vals = 16 * o;
  for (coord_t t = 0; t < thrs; ++t)
    for (coord_t v = 0; v < vals; ++v) out[t * vals + v] = l(t, v);
}

struct Kernel {
  const char* name;
  void (*f)(out_t*);
  int n;
};
static const Kernel kernels[] = {
    {"cute_static_tiled", cute_static_tiled, 16384},     {"cute_dynamic_tiled", cute_dynamic_tiled, 16384},
    {"cute_static_partition", cute_static_partition, 16384}, {"cute_dynamic_partition", cute_dynamic_partition, 16384},
    {"cute_static_swizzled", cute_static_swizzled, 4096}, {"cute_dynamic_swizzled", cute_dynamic_swizzled, 4096},
    {"cute_static_slice", cute_static_slice, 4096},       {"cute_dynamic_slice", cute_dynamic_slice, 4096},
};

int main(int argc, char** argv) {
  std::vector<out_t> out(16384);
  std::string mode = argc > 1 ? argv[1] : "time";
  for (auto const& k : kernels) {
    if (mode != "time" && (argc < 3 || std::strcmp(argv[2], k.name) != 0)) continue;
    if (mode == "run") {
      int calls = argc > 3 ? std::atoi(argv[3]) : 1;
      for (int i = 0; i < calls; ++i) k.f(out.data());
    } else if (mode == "dump") {
      k.f(out.data());
      for (int i = 0; i < k.n; ++i) std::printf("%lld\n", (long long)out[i]);
    } else {
      // Fastest of 51 rounds of `calls` calls each: a busy machine disturbs the minimum least.
      int calls = 2000000 / k.n;
      double best = 1e30;
      for (int round = 0; round < 51; ++round) {
        auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) {
          k.f(out.data());
          asm volatile("" : : "r"(out.data()) : "memory");
        }
        double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        best = std::min(best, ns / calls / k.n);
      }
      std::printf("%s %.4f\n", k.name, best);
    }
  }
  return 0;
}
