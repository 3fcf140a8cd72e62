// Residue tiles and predication in CuTe: local_tile over make_identity_tensor with ceil_div
// tile counts, partitioned by a tiled copy (partition_S) or by local_partition, and
// elem_less(coord, shape). For every case it prints the CTA-level thread-value layout over
// one tile (CuTe's own algebra), then, for the first and last tile of each mode, one line per
// thread: the global coordinate and the predicate of each of its values.
//
// Output:
//   case NAME EXTENT0 EXTENT1 TILE0 TILE1 THREADS VALUES
//   tv LAYOUT
//   t TILE_COORD0 TILE_COORD1 THREAD  x0 x1 p  x0 x1 p ...
#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cstdio>

using namespace cute;

template <class Shape, class Tile, class TV, class Part>
void run(char const* name, Shape shape, Tile tile, TV tv, int threads, Part part) {
  auto id = make_identity_tensor(shape);
  int grid0 = ceil_div(int(size<0>(shape)), int(size<0>(tile)));
  int grid1 = ceil_div(int(size<1>(shape)), int(size<1>(tile)));
  printf("case %s %d %d %d %d %d %d\n", name, int(size<0>(shape)), int(size<1>(shape)),
         int(size<0>(tile)), int(size<1>(tile)), threads, int(size<1>(tv)));
  printf("tv ");
  print(tv);
  printf("\n");
  int firsts0[2] = {0, grid0 - 1};
  int firsts1[2] = {0, grid1 - 1};
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 2; ++b) {
      auto g = local_tile(id, tile, make_coord(firsts0[a], firsts1[b]));
      for (int t = 0; t < threads; ++t) {
        auto p = part(g, t);
        printf("t %d %d %d", firsts0[a], firsts1[b], t);
        for (int v = 0; v < int(size(p)); ++v) {
          auto c = p(v);
          printf("  %d %d %d", int(get<0>(c)), int(get<1>(c)), int(elem_less(c, shape)));
        }
        printf("\n");
      }
    }
  }
}

int main() {
  // The hgemm's gmem -> smem copy: 128 threads (16,8):(8,1), 8 halves (128 bits) each.
  auto copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
                              Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                              Layout<Shape<_1, _8>>{});
  auto tile_mk = make_shape(Int<128>{}, Int<64>{});
  auto frg = decltype(copy)::tidfrg_S(make_layout(tile_mk));
  auto copy_tv = group<1, decltype(rank(frg))::value>(frg);
  auto by_copy = [&](auto g, int t) { return copy.get_thread_slice(t).partition_S(g); };
  // A: (M, K) = (300, 200); B: (N, K) = (260, 200); tiles (128, 64).
  run("A", make_shape(300, 200), tile_mk, copy_tv, 128, by_copy);
  run("B", make_shape(260, 200), tile_mk, copy_tv, 128, by_copy);
  // C: (M, N) = (300, 260), tiles (128, 128), local_partition over (16,8) threads.
  auto tile_mn = make_shape(Int<128>{}, Int<128>{});
  auto thr = make_layout(make_shape(Int<16>{}, Int<8>{}));
  auto part_tv = zipped_divide(make_layout(tile_mn), make_shape(Int<16>{}, Int<8>{}));
  auto by_thread = [&](auto g, int t) { return local_partition(g, thr, t); };
  run("C", make_shape(300, 260), tile_mn, part_tv, 128, by_thread);
  // A residue in both modes smaller than the copy's 16 x 64 tile: (M, K) = (37, 70).
  run("small", make_shape(37, 70), tile_mk, copy_tv, 128, by_copy);
  return 0;
}
