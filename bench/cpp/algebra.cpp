// The layout algebra at run time with CuTe (4.2.0 headers, host build, -O3): every integer of
// every operand is a run-time value, as in a code generator that builds layouts on the fly.
// Prints `name ops_per_second` (fastest of 31 rounds). The Rust side is
// bench/benches/runtime_algebra.rs; bench/pycute_algebra.py is the pycute reference.
#include <cute/layout.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>

using namespace cute;

static volatile int g_one = 1;

template <class T>
inline void keep(T const& x) {
  asm volatile("" : : "r"(&x) : "memory");
}

template <class F>
void measure(const char* name, F f) {
  int iters = 20000;
  double best = 1e30;
  for (int round = 0; round < 31; ++round) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) f();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, s / iters);
  }
  std::printf("%s %.0f\n", name, 1.0 / best);
}

int main() {
  // CuTe's documented composition (6,2):(8,2) o (4,3):(3,1).
  measure("compose_small", [] {
    int o = g_one;
    auto a = make_layout(make_shape(6 * o, 2 * o), make_stride(8 * o, 2 * o));
    auto b = make_layout(make_shape(4 * o, 3 * o), make_stride(3 * o, o));
    auto c = composition(a, b);
    keep(c);
  });
  // The 128x128 partition (corpus big_tv_partition_128x128).
  measure("compose_partition", [] {
    int o = g_one;
    auto a = make_layout(make_shape(make_shape(64 * o, 32 * o), make_shape(2 * o, 4 * o)),
                         make_stride(make_stride(128 * o, o), make_stride(8192 * o, 32 * o)));
    auto tv = make_layout(make_shape(make_shape(16 * o, 16 * o), make_shape(4 * o, 2 * o)),
                          make_stride(make_stride(128 * o, 4 * o), make_stride(o, 64 * o)));
    auto c = composition(a, make_tile(tv, _));
    keep(c);
  });
  // zipped_divide of a 128x128 row-major tile by 64x32.
  measure("divide", [] {
    int o = g_one;
    auto a = make_layout(make_shape(128 * o, 128 * o), make_stride(128 * o, o));
    auto d = zipped_divide(a, make_shape(64 * o, 32 * o));
    keep(d);
  });
  // The closest CuTe has to deciding a composite: compose, then coalesce the result.
  measure("decide_small", [] {
    int o = g_one;
    auto a = make_layout(make_shape(6 * o, 2 * o), make_stride(8 * o, 2 * o));
    auto b = make_layout(make_shape(4 * o, 3 * o), make_stride(3 * o, o));
    auto c = coalesce(composition(a, b));
    keep(c);
  });
  measure("decide_partition", [] {
    int o = g_one;
    auto a = make_layout(make_shape(make_shape(64 * o, 32 * o), make_shape(2 * o, 4 * o)),
                         make_stride(make_stride(128 * o, o), make_stride(8192 * o, 32 * o)));
    auto tv = make_layout(make_shape(make_shape(16 * o, 16 * o), make_shape(4 * o, 2 * o)),
                          make_stride(make_stride(128 * o, 4 * o), make_stride(o, 64 * o)));
    auto c = coalesce(composition(a, make_tile(tv, _)));
    keep(c);
  });
  // inverse: right_inverse drops every run-time stride (it returns _1:_0) and left_inverse
  // static_asserts static strides, so CuTe has no inverse of a run-time layout.
  std::printf("inverse_sm80 n/a\ninverse_partition n/a\n");
  return 0;
}
