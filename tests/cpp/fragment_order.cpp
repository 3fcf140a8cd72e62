// The register order of CuTe's MMA fragments (`thr_mma.partition_fragment_A/B(sX)`, that is
// `make_fragment_like` of the thread's partition) for shared-memory layouts without a swizzle,
// with a swizzle that slicing at a thread turns into run-time strides, and with one that it
// keeps, over the CUTLASS 4.2 headers, on the host.
//
// Output: one line per (case, operand, thread):
//   CASE A|B t=T : r0 r1 ...     the register of each value of the fragment, in value order
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>

#include <cstdio>

using namespace cute;

alignas(1024) static half_t sbuf[1 << 16];

template <class Layout>
static void registers(char const* name, char const* op, int t, Layout const& l) {
  printf("%s %s t=%d :", name, op, t);
  for (int i = 0; i < size(l); ++i) printf(" %d", int(l(i)));
  printf("\n");
}

// A 2x2-warp SM80 16x8x16 tiled MMA (permutation 32x32x16) over 64x64 tiles of A (M x K) and
// B (N x K) stored in `sa` and `sb`.
template <class SA, class SB>
static void fragments(char const* name, SA const& sa, SB const& sb) {
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{},
                                Tile<_32, _32, _16>{});
  Tensor a = make_tensor(make_smem_ptr(sbuf), sa);
  Tensor b = make_tensor(make_smem_ptr(sbuf), sb);
  for (int t : {0, 37, 127}) {
    auto thr = mma.get_slice(t);
    registers(name, "A", t, thr.partition_fragment_A(a).layout());
    registers(name, "B", t, thr.partition_fragment_B(b).layout());
  }
}

int main() {
  auto shape = make_shape(_64{}, _64{});
  // K-major, no swizzle.
  fragments("kmajor", make_layout(shape, LayoutRight{}), make_layout(shape, LayoutRight{}));
  // K-major, padded rows (72 elements), no swizzle.
  fragments("padded", make_layout(shape, make_stride(_72{}, _1{})), make_layout(shape, make_stride(_72{}, _1{})));
  // M/N-major, no swizzle.
  fragments("mnmajor", make_layout(shape, LayoutLeft{}), make_layout(shape, LayoutLeft{}));
  // Swizzle<3,3,3> over K-major 8x64 atoms (FlashAttention-2's, sgemm_sm80's).
  auto k64 = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{});
  fragments("sw333_k", tile_to_shape(k64, shape), tile_to_shape(k64, shape));
  // Swizzle<2,3,3> over K-major 8x32 atoms.
  auto k32 = composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{});
  fragments("sw233_k", tile_to_shape(k32, shape), tile_to_shape(k32, shape));
  // Swizzle<3,3,3> over M/N-major 64x8 atoms.
  auto mn64 = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{});
  fragments("sw333_mn", tile_to_shape(mn64, shape), tile_to_shape(mn64, shape));
  return 0;
}
