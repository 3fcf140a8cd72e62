// The per-mode products of CuTe (`blocked_product`, `raked_product`) and `tile_to_shape` of a
// GMMA shared-memory atom, printed from the CUTLASS 4.2 headers for
// `tests/tests/modewise_products.rs`: the value of each layout at every integral coordinate
// (computed by CuTe, not read back from its text).
//
// Line format: `KEY N V0 ... VN-1`, the layout KEY at the integral coordinates 0..N.
#include <cstdio>

#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

using namespace cute;

template <class L>
void offsets(char const* key, L const& l) {
  printf("%s %d", key, int(size(l)));
  for (int i = 0; i < int(size(l)); ++i) {
    printf(" %d", int(l(i)));
  }
  printf("\n");
}

int main() {
  // Case 0: the 3x2 column-major tile, 2x2 copies column-major.
  auto l0 = make_layout(make_shape(_3{}, _2{}), make_stride(_1{}, _3{}));
  auto a0 = make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _2{}));
  offsets("blocked0", blocked_product(l0, a0));
  offsets("raked0", raked_product(l0, a0));
  // Case 1: a nested mode, copies row-major.
  auto l1 = make_layout(make_shape(make_shape(_2{}, _2{}), _4{}), make_stride(make_stride(_1{}, _8{}), _2{}));
  auto a1 = make_layout(make_shape(_3{}, _2{}), make_stride(_2{}, _1{}));
  offsets("blocked1", blocked_product(l1, a1));
  offsets("raked1", raked_product(l1, a1));
  // Case 2: three modes, one of them not repeated.
  auto l2 = make_layout(make_shape(_2{}, _4{}, _2{}), make_stride(_4{}, _1{}, _8{}));
  auto a2 = make_layout(make_shape(_3{}, _1{}, _2{}), make_stride(_2{}, _6{}, _1{}));
  offsets("blocked2", blocked_product(l2, a2));
  offsets("raked2", raked_product(l2, a2));

  // A Hopper kernel's shared memory for A: the 128-byte swizzled K-major fp16 atom tiled to
  // 128x64, 4 stages; the element offsets of a tensor over an aligned shared-memory pointer
  // (where CuTe applies the swizzle), and the same without the swizzle.
  using Atom = GMMA::Layout_K_SW128_Atom<half_t>;
  auto shape = make_shape(Int<128>{}, Int<64>{}, Int<4>{});
  auto smem = tile_to_shape(Atom{}, shape);
  alignas(4096) static half_t buf[128 * 64 * 4];
  auto t = make_tensor(make_smem_ptr(buf), smem);
  printf("sA %d", int(size(smem)));
  for (int i = 0; i < int(size(smem)); ++i) {
    printf(" %d", int(&t(i) - buf));
  }
  printf("\n");
  offsets("sA_inner", tile_to_shape(Atom{}.layout_b(), shape));
  return 0;
}
