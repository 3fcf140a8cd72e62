// Residue tiles of tensors with size-1 modes (stride 0 and others), printed by CuTe (CUTLASS
// 4.2): local_tile of the tensor and of make_identity_tensor over ceil_div, and for every
// predicated position (elem_less) its offset from the tensor's pointer.
#include <cute/tensor.hpp>
#include <cstdio>

using namespace cute;

static float buf[1];

template <class L, class T>
void tiles(const char* name, L l, T tile) {
  auto t = make_tensor(make_gmem_ptr(buf), l);
  auto id = make_identity_tensor(shape(l));
  auto grid = ceil_div(shape(l), tile);
  for (int i = 0; i < int(get<0>(grid)); ++i) {
    for (int j = 0; j < int(get<1>(grid)); ++j) {
      auto g = local_tile(t, tile, make_coord(i, j));
      auto c = local_tile(id, tile, make_coord(i, j));
      for (int k = 0; k < int(size(g)); ++k) {
        if (elem_less(c(k), shape(l))) {
          printf("%s %d %d %d %ld\n", name, i, j, k, long(&g(k) - buf));
        }
      }
    }
  }
}

int main() {
  tiles("m1_s0", make_layout(make_shape(_7{}, _1{}), make_stride(_1{}, _0{})), make_shape(_4{}, _4{}));
  tiles("n1_s0", make_layout(make_shape(_1{}, _7{}), make_stride(_0{}, _1{})), make_shape(_2{}, _4{}));
  tiles("both1", make_layout(make_shape(_1{}, _1{}), make_stride(_0{}, _0{})), make_shape(_8{}, _2{}));
  tiles("m1_s5", make_layout(make_shape(_1{}, _7{}), make_stride(_5{}, _1{})), make_shape(_4{}, _3{}));
  tiles("dyn", make_layout(make_shape(13, 1), make_stride(3, 0)), make_shape(_8{}, _4{}));
  return 0;
}
