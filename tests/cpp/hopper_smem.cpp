// The shared-memory side of CuTe's Hopper tutorial GEMM (`hopper/wgmma_tma_sm90.cu`, `gemm_tn`)
// with the CUTLASS 4.2 headers, on the host: the SW128 K-major fp16 atom tiled to (128, 64, 4)
// (4 stages), the wgmma operand view of one warpgroup (SM90_64x64x16_F16F16F16_SS, K-major),
// the accumulator partition of the first and last (residue) C tiles, predicated, and the TMA
// box origins of the first and last (residue) tiles.
//
// Output lines:
//   sA : o0 o1 ...                        the smem layout's offset at every flat index
//   tCsA t=T : same|o0 o1 ...             a thread's wgmma operand view (every stage); `same`
//                                         when equal to thread 0's (the operand is a broadcast)
//   tCgC t=T bm=I bn=J : o0 o1 ...        the accumulator partition of a C tile (`-` where the
//                                         predicate is false)
//   tCpC t=T bm=I bn=J : m,n,p ...        its coordinates (make_identity_tensor partitioned
//                                         the same way) and predicates (elem_less)
//   boxA bm=I k=K : m,k                   the TMA box origin (coordinate of the tile's first element)
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

#include <cstdio>
#include <vector>

using namespace cute;

static const int M = 300, N = 260, K = 200;
static const int ldC = 304;
alignas(1024) static half_t sbuf[1 << 16];
static half_t gbuf[1 << 20];

template <class Tensor>
static std::vector<long> offs(Tensor const& x, half_t const* base) {
  std::vector<long> v;
  for (int i = 0; i < size(x); ++i) v.push_back(long(&x(i) - base));
  return v;
}

static void line(char const* head, std::vector<long> const& v) {
  printf("%s :", head);
  for (long o : v) printf(" %ld", o);
  printf("\n");
}

int main() {
  auto bM = Int<128>{};
  auto bN = Int<128>{};
  auto bK = Int<64>{};
  auto bP = Int<4>{};
  auto cta_tiler = make_shape(bM, bN, bK);
  auto sA_layout = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(bM, bK, bP));
  TiledMMA mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});

  Tensor sA = make_tensor(make_smem_ptr(sbuf), sA_layout);  // (BLK_M,BLK_K,PIPE)
  line("sA", offs(sA, sbuf));

  std::vector<long> first;
  for (int t = 0; t < int(size(mma)); ++t) {
    ThrMMA thr_mma = mma.get_thread_slice(t);
    Tensor tCsA = thr_mma.partition_A(sA);  // (MMA,MMA_M,MMA_K,PIPE)
    std::vector<long> v = offs(tCsA, sbuf);
    char head[64];
    snprintf(head, sizeof head, "tCsA t=%d", t);
    if (t == 0) { first = v; line(head, v); }
    else if (v == first) printf("%s : same\n", head);
    else line(head, v);
  }

  Tensor mC = make_tensor(make_gmem_ptr(gbuf), make_shape(M, N), make_stride(Int<1>{}, ldC));
  Tensor cA = make_identity_tensor(make_shape(M, K));
  int const tiles_m[] = {0, int(ceil_div(M, 128)) - 1};
  int const tiles_n[] = {0, int(ceil_div(N, 128)) - 1};
  int const tiles_k[] = {0, int(ceil_div(K, 64)) - 1};
  for (int bm : tiles_m) for (int bn : tiles_n) {
    auto cta_coord = make_coord(bm, bn, _);
    Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});
    Tensor cC = local_tile(make_identity_tensor(make_shape(M, N)), cta_tiler, cta_coord,
                           Step<_1, _1, X>{});
    for (int t = 0; t < int(size(mma)); ++t) {
      ThrMMA thr_mma = mma.get_thread_slice(t);
      Tensor tCgC = thr_mma.partition_C(gC);
      Tensor tCcC = thr_mma.partition_C(cC);
      printf("tCgC t=%d bm=%d bn=%d :", t, bm, bn);
      for (int i = 0; i < size(tCgC); ++i) {
        if (elem_less(tCcC(i), make_shape(M, N))) printf(" %ld", long(&tCgC(i) - gbuf));
        else printf(" -");
      }
      printf("\ntCpC t=%d bm=%d bn=%d :", t, bm, bn);
      for (int i = 0; i < size(tCcC); ++i) {
        auto c = tCcC(i);
        printf(" %d,%d,%d", int(get<0>(c)), int(get<1>(c)), int(elem_less(c, make_shape(M, N))));
      }
      printf("\n");
    }
    if (bn == 0) {
      Tensor gcA = local_tile(cA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
      for (int k : tiles_k) {
        auto c = gcA(0, 0, k);
        printf("boxA bm=%d k=%d : %d,%d\n", bm, k, int(get<0>(c)), int(get<1>(c)));
      }
    }
  }
  return 0;
}
