// The layouts of CuTe's tutorial kernel `sgemm_sm80.cu` (`gemm_tn`, the fp16 configuration:
// 128x128x64 CTA tiles, 3 stages, SM80_16x8x16_F16F16F16F16_TN on 2x2 warps, 128-bit cp.async,
// LDSM x4, Swizzle<3,3,3>), with the CUTLASS 4.2 headers, on the host: every thread's partitions
// as the kernel builds them, printed as offsets (elements from the tensor's base) and, for the
// predication of residue tiles, as coordinates of CuTe's identity tensors with `elem_less`.
//
// Output: one line per (tensor, thread, slice):
//   NAME t=T [bm=I] [bn=J] [k=K] [p=P] : v0 v1 ...      offsets in CuTe's flat value order;
//                                                        `-` where the predicate is false
//   NAME t=T ... : m,n,P m,n,P ...                        coordinates and the predicate (0/1)
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>

#include <cstdio>
#include <vector>

using namespace cute;

// The problem: residues in every mode (M = 2*128 + 44, N = 2*128 + 4, K = 3*64 + 8), leading
// dimensions larger than the extents.
static const int M = 300, N = 260, K = 200;
static const int ldA = 208, ldB = 216, ldC = 304;

alignas(1024) static half_t gbuf[1 << 20];
alignas(1024) static half_t sbuf[1 << 16];

template <class T>
static long off(T const& x, half_t const* base) { return long(&x - base); }

template <class Tensor>
static void offsets(char const* name, int t, char const* slice, Tensor const& x, half_t const* base) {
  printf("%s t=%d%s :", name, t, slice);
  for (int i = 0; i < size(x); ++i) printf(" %ld", off(x(i), base));
  printf("\n");
}

// A residue tile's offsets: CuTe computes one for every value; a predicated kernel reads only
// those whose coordinate (of the identity tensor partitioned alike) is `elem_less` the shape.
template <class Tensor, class Coords, class Shape>
static void predicated(char const* name, int t, char const* slice, Tensor const& x,
                       half_t const* base, Coords const& c, Shape const& s) {
  printf("%s t=%d%s :", name, t, slice);
  for (int i = 0; i < size(x); ++i) {
    if (elem_less(c(i), s)) printf(" %ld", off(x(i), base));
    else printf(" -");
  }
  printf("\n");
}

// A register fragment: its layout's values (register indices).
template <class Layout>
static void registers(char const* name, int t, char const* slice, Layout const& l) {
  printf("%s t=%d%s :", name, t, slice);
  for (int i = 0; i < size(l); ++i) printf(" %d", int(l(i)));
  printf("\n");
}

template <class Coords, class Shape>
static void predicates(char const* name, int t, char const* slice, Coords const& c, Shape const& s) {
  printf("%s t=%d%s :", name, t, slice);
  for (int i = 0; i < size(c); ++i) {
    auto x = c(i);
    printf(" %d,%d,%d", int(get<0>(x)), int(get<1>(x)), int(elem_less(x, s)));
  }
  printf("\n");
}

int main() {
  // gemm_tn's definitions, verbatim in substance.
  auto prob_shape = make_shape(M, N, K);
  auto dA = make_stride(ldA, Int<1>{});
  auto dB = make_stride(ldB, Int<1>{});
  auto dC = make_stride(Int<1>{}, ldC);
  auto bM = Int<128>{};
  auto bN = Int<128>{};
  auto bK = Int<64>{};
  auto cta_tiler = make_shape(bM, bN, bK);
  auto bP = Int<3>{};
  auto swizzle_atom = composition(Swizzle<3, 3, 3>{},
                                  Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  auto sA_layout = tile_to_shape(swizzle_atom, make_shape(bM, bK, bP));
  auto sB_layout = tile_to_shape(swizzle_atom, make_shape(bN, bK, bP));
  TiledCopy copy_a = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                     Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  TiledCopy copy_b = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                     Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{},
                                Tile<_32, _32, _16>{});
  Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_a;
  Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_b;

  // gemm_device's tensors, with the same base for A, B and C (offsets are from that base).
  Tensor mA = make_tensor(make_gmem_ptr(gbuf), select<0, 2>(prob_shape), dA);  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(gbuf), select<1, 2>(prob_shape), dB);  // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(gbuf), select<0, 1>(prob_shape), dC);  // (M,N)
  Tensor cA = make_identity_tensor(shape(mA));
  Tensor cB = make_identity_tensor(shape(mB));
  Tensor cC = make_identity_tensor(shape(mC));
  Tensor sA = make_tensor(make_smem_ptr(sbuf), sA_layout);  // (BLK_M,BLK_K,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(sbuf), sB_layout);  // (BLK_N,BLK_K,PIPE)

  // The first and the last (residue) tile of each mode.
  int const tiles_m[] = {0, int(ceil_div(M, 128)) - 1};
  int const tiles_n[] = {0, int(ceil_div(N, 128)) - 1};
  int const tiles_k[] = {0, int(ceil_div(K, 64)) - 1};
  char slice[64];

  for (int t = 0; t < int(size(mma)); ++t) {
    ThrCopy thr_copy_a = copy_a.get_slice(t);
    ThrCopy thr_copy_b = copy_b.get_slice(t);
    ThrMMA thr_mma = mma.get_slice(t);
    TiledCopy s2r_copy_a = make_tiled_copy_A(s2r_atom_a, mma);
    TiledCopy s2r_copy_b = make_tiled_copy_B(s2r_atom_b, mma);
    ThrCopy s2r_thr_copy_a = s2r_copy_a.get_slice(t);
    ThrCopy s2r_thr_copy_b = s2r_copy_b.get_slice(t);

    // Shared memory, every stage.
    Tensor tAsA = thr_copy_a.partition_D(sA);      // (CPY,CPY_M,CPY_K,PIPE)
    Tensor tBsB = thr_copy_b.partition_D(sB);      // (CPY,CPY_N,CPY_K,PIPE)
    Tensor tXsA = s2r_thr_copy_a.partition_S(sA);  // (CPY,MMA_M,MMA_K,PIPE)
    Tensor tXsB = s2r_thr_copy_b.partition_S(sB);  // (CPY,MMA_N,MMA_K,PIPE)
    for (int p = 0; p < int(bP); ++p) {
      snprintf(slice, sizeof slice, " p=%d", p);
      offsets("tAsA", t, slice, tAsA(_, _, _, p), sbuf);
      offsets("tBsB", t, slice, tBsB(_, _, _, p), sbuf);
      offsets("tXsA", t, slice, tXsA(_, _, _, p), sbuf);
      offsets("tXsB", t, slice, tXsB(_, _, _, p), sbuf);
    }
    // Registers: the MMA fragments and the LDSM copies' view of them.
    Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K)
    Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));  // (MMA,MMA_N,MMA_K)
    Tensor tXrA = s2r_thr_copy_a.retile_D(tCrA);              // (CPY,MMA_M,MMA_K)
    Tensor tXrB = s2r_thr_copy_b.retile_D(tCrB);              // (CPY,MMA_N,MMA_K)
    registers("tCrA", t, "", tCrA.layout());
    registers("tCrB", t, "", tCrB.layout());
    registers("tXrA", t, "", tXrA.layout());
    registers("tXrB", t, "", tXrB.layout());

    // Global memory: the first and last tile of each mode, with their predicates.
    for (int bm : tiles_m) for (int bn : tiles_n) {
      auto cta_coord = make_coord(bm, bn, _);
      Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
      Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
      Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)
      Tensor gcA = local_tile(cA, cta_tiler, cta_coord, Step<_1, X, _1>{});
      Tensor gcB = local_tile(cB, cta_tiler, cta_coord, Step<X, _1, _1>{});
      Tensor gcC = local_tile(cC, cta_tiler, cta_coord, Step<_1, _1, X>{});
      Tensor tAgA = thr_copy_a.partition_S(gA);   // (CPY,CPY_M,CPY_K,k)
      Tensor tBgB = thr_copy_b.partition_S(gB);   // (CPY,CPY_N,CPY_K,k)
      Tensor tAcA = thr_copy_a.partition_S(gcA);
      Tensor tBcB = thr_copy_b.partition_S(gcB);
      Tensor tCgC = thr_mma.partition_C(gC);      // (MMA,MMA_M,MMA_N)
      Tensor tCcC = thr_mma.partition_C(gcC);
      for (int k : tiles_k) {
        snprintf(slice, sizeof slice, " bm=%d bn=%d k=%d", bm, bn, k);
        predicated("tAgA", t, slice, tAgA(_, _, _, k), gbuf, tAcA(_, _, _, k), shape(mA));
        predicated("tBgB", t, slice, tBgB(_, _, _, k), gbuf, tBcB(_, _, _, k), shape(mB));
        predicates("tApA", t, slice, tAcA(_, _, _, k), shape(mA));
        predicates("tBpB", t, slice, tBcB(_, _, _, k), shape(mB));
      }
      snprintf(slice, sizeof slice, " bm=%d bn=%d", bm, bn);
      predicated("tCgC", t, slice, tCgC, gbuf, tCcC, shape(mC));
      predicates("tCpC", t, slice, tCcC, shape(mC));
    }
  }
  return 0;
}
