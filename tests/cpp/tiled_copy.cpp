// Tiled copies, their partitions and max_common_vector, printed by CuTe (CUTLASS 4.2) for
// tests/tests/tiled_copy.rs. Every line is `NAME THREAD: v0 v1 ...` (offsets or coordinates,
// in the order of CuTe's flat index of the thread's partition) or `NAME: value`.
#include <cstdio>
#include <vector>
#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm80.hpp>

using namespace cute;

// Coordinates of every thread's values over the copy's tile (an identity tensor).
template <class TiledCopy>
void print_tv(char const* name, TiledCopy const& copy) {
  auto tile = make_identity_tensor(product_each(shape(typename TiledCopy::Tiler_MN{})));
  for (int t = 0; t < int(size(copy)); ++t) {
    auto part = copy.get_slice(t).partition_S(tile);
    printf("%s %d:", name, t);
    for (int i = 0; i < int(size(part)); ++i) {
      auto c = part(i);
      printf(" %d,%d", int(get<0>(c)), int(get<1>(c)));
    }
    printf("\n");
  }
}

// Offsets of every thread's partition of a tensor (source or destination side).
template <class TiledCopy, class Tensor, class T>
void print_part(char const* name, TiledCopy const& copy, Tensor const& tensor, T const* base, bool dst) {
  for (int t = 0; t < int(size(copy)); ++t) {
    auto thr = copy.get_slice(t);
    printf("%s %d:", name, t);
    if (dst) {
      auto part = thr.partition_D(tensor);
      for (int i = 0; i < int(size(part)); ++i) printf(" %d", int(&part(i) - base));
    } else {
      auto part = thr.partition_S(tensor);
      for (int i = 0; i < int(size(part)); ++i) printf(" %d", int(&part(i) - base));
    }
    printf("\n");
  }
  if (dst) {
    print("%s shape: ", name); print(shape(copy.get_slice(0).partition_D(tensor))); print("\n");
  } else {
    print("%s shape: ", name); print(shape(copy.get_slice(0).partition_S(tensor))); print("\n");
  }
}

// Coordinates of every thread's partition of an identity tensor of the given shape.
template <class TiledCopy, class Shape>
void print_idpart(char const* name, TiledCopy const& copy, Shape const& shape) {
  auto id = make_identity_tensor(shape);
  for (int t = 0; t < int(size(copy)); ++t) {
    auto part = copy.get_slice(t).partition_S(id);
    printf("%s %d:", name, t);
    for (int i = 0; i < int(size(part)); ++i) {
      auto c = part(i);
      printf(" %d,%d", int(get<0>(c)), int(get<1>(c)));
    }
    printf("\n");
  }
}

template <class A, class B>
void mcv(char const* name, A const& a, B const& b) {
  printf("mcv %s: %d\n", name, int(decltype(max_common_vector(a, b))::value));
}

int main() {
  // sgemm_sm80's gmem -> smem copy of A: 128-bit cp.async of 8 halves.
  auto cp_async = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{},
                                  Layout<Shape<_16,_8>, Stride<_8,_1>>{},
                                  Layout<Shape<_1,_8>>{});
  print_tv("tv_cp_async", cp_async);

  // The gmem tile: K-major A of M x K with a run-time leading dimension, block (1, _), k-tile 2.
  int M = 384, K = 256, ldA = 264;
  std::vector<half_t> gbuf(M * ldA);
  auto mA = make_tensor(make_gmem_ptr(gbuf.data()), make_shape(M, K), make_stride(ldA, Int<1>{}));
  auto gA = local_tile(mA, make_shape(Int<128>{}, Int<64>{}), make_coord(1, _));
  print_part("gmem_S", cp_async, gA(_, _, 2), gbuf.data(), false);

  // The swizzled 3-stage smem, partition_D.
  auto atom = composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{});
  auto sA_layout = tile_to_shape(atom, make_shape(Int<128>{}, Int<64>{}, Int<3>{}));
  std::vector<half_t> sbuf(cosize(sA_layout));
  auto sA = make_tensor(make_smem_ptr(sbuf.data()), sA_layout);
  print_part("smem_D", cp_async, sA, sbuf.data(), true);
  // The same smem without the swizzle.
  auto plain_layout = tile_to_shape(Layout<Shape<_8,_64>, Stride<_64,_1>>{},
                                    make_shape(Int<128>{}, Int<64>{}, Int<3>{}));
  auto sP = make_tensor(make_smem_ptr(sbuf.data()), plain_layout);
  print_part("plain_D", cp_async, sP, sbuf.data(), true);

  // sgemm_sm80's K-major smem atom, unswizzled and swizzled, one 128x64 stage.
  auto katom = Layout<Shape<_8,Shape<_8,_8>>, Stride<_8,Stride<_1,_64>>>{};
  auto sK = make_tensor(make_smem_ptr(sbuf.data()), tile_to_shape(katom, make_shape(Int<128>{}, Int<64>{})));
  print_part("kmajor_D", cp_async, sK, sbuf.data(), true);
  auto sKs = make_tensor(make_smem_ptr(sbuf.data()),
                         tile_to_shape(composition(Swizzle<3,3,3>{}, katom), make_shape(Int<128>{}, Int<64>{})));
  print_part("kmajor_sw_D", cp_async, sKs, sbuf.data(), true);

  // UniversalCopy<uint32_t> of floats, a column-major thread layout, 4 values along M.
  auto universal = make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{},
                                   Layout<Shape<_32,_8>>{},
                                   Layout<Shape<_4,_1>>{});
  print_tv("tv_universal", universal);
  int Mu = 256, Ku = 16, ldu = 260;
  std::vector<float> ubuf(Ku * ldu);
  auto mU = make_tensor(make_gmem_ptr(ubuf.data()), make_shape(Mu, Ku), make_stride(Int<1>{}, ldu));
  print_part("universal_S", universal, mU, ubuf.data(), false);

  // UniversalCopy<uint64_t> of halves (4 per vector), values raked along both modes.
  auto raked = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{},
                               Layout<Shape<_4,_8>, Stride<_1,_4>>{},
                               Layout<Shape<_2,_4>, Stride<_4,_1>>{});
  print_tv("tv_raked", raked);
  auto sR = make_tensor(make_smem_ptr(sbuf.data()), Layout<Shape<_16,_64>, Stride<_64,_1>>{});
  print_part("raked_D", raked, sR, sbuf.data(), true);

  // CuTe's default value layout Layout<_1>, and a value layout of rank 1: both padded.
  auto dflt = make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{},
                              Layout<Shape<_32,_4>, Stride<_4,_1>>{});
  print_tv("tv_default", dflt);
  auto rank1 = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{},
                               Layout<Shape<_8,_4>, Stride<_4,_1>>{}, Layout<_4>{});
  print_tv("tv_rank1", rank1);
  print_idpart("part_rank1", rank1, make_shape(Int<64>{}, Int<8>{}));

  // max_common_vector.
  mcv("row_col", Layout<Shape<_8,_64>, Stride<_64,_1>>{}, Layout<Shape<_8,_64>, Stride<_1,_8>>{});
  mcv("row_row", Layout<Shape<_8,_64>, Stride<_64,_1>>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{});
  mcv("col_col", Layout<Shape<_8,_64>, Stride<_1,_8>>{}, Layout<Shape<_8,_64>, Stride<_1,_8>>{});
  mcv("padded", Layout<Shape<_8,_64>, Stride<_72,_1>>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{});
  mcv("nested", Layout<Shape<_8,Shape<_8,_8>>, Stride<_8,Stride<_1,_64>>>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{});
  mcv("nested_self", Layout<Shape<_8,Shape<_8,_8>>, Stride<_8,Stride<_1,_64>>>{}, Layout<Shape<_8,Shape<_8,_8>>, Stride<_8,Stride<_1,_64>>>{});
  mcv("bcast_a", Layout<Shape<_4,_8>, Stride<_0,_1>>{}, Layout<Shape<_4,_8>, Stride<_8,_1>>{});
  mcv("bcast_b", Layout<Shape<_4,_8>, Stride<_8,_1>>{}, Layout<Shape<_4,_8>, Stride<_0,_1>>{});
  mcv("bcast_both", Layout<Shape<_4,_8>, Stride<_0,_1>>{}, Layout<Shape<_4,_8>, Stride<_0,_1>>{});
  mcv("bcast_fast", Layout<Shape<_4,_8>, Stride<_1,_0>>{}, Layout<Shape<_4,_8>, Stride<_1,_0>>{});
  mcv("sw_plain", composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}), Layout<Shape<_8,_64>, Stride<_64,_1>>{});
  mcv("plain_sw", Layout<Shape<_8,_64>, Stride<_64,_1>>{}, composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}));
  mcv("sw_sw", composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}), composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}));
  mcv("sw_sw2", composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}), composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{}));
  mcv("sw_col", composition(Swizzle<2,2,3>{}, Layout<Shape<_8,_32>, Stride<_1,_8>>{}), Layout<Shape<_8,_32>, Stride<_1,_8>>{});
  // RANDOM_CASES
  // RANDOM_COPIES
  return 0;
}
