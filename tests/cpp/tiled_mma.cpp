// Prints CuTe's tiled MMA partitions and the ldmatrix copies that feed it, for
// tests/tests/tiled_mma.rs. Every number is an offset CuTe computes: a tensor over a
// counting iterator returns the offset of its layout at each coordinate.
#include <cstdio>
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cstring>

using namespace cute;

template <class T>
auto counting(T const& layout) {
  return make_tensor(counting_iterator<int>(0), layout);
}

// One line per thread: `TAG CONFIG THREAD : offset(v) for every value v`.
template <class Tensor>
void line(char const* tag, char const* cfg, int t, Tensor const& t_part) {
  printf("%s %s %d :", tag, cfg, t);
  for (int v = 0; v < size(t_part); ++v) {
    printf(" %d", int(t_part(v)));
  }
  printf("\n");
}

// The storage of each operand over its CTA tile: padded, so that every offset is distinct
// from a tile index. C: M×N column-major; A: M×K K-major; B: N×K column-major.
template <class MMA, class M, class N, class K>
void partitions(char const* cfg, MMA const& mma, M m, N n, K k) {
  auto sC = make_layout(make_shape(m, n), make_stride(Int<1>{}, m + Int<3>{}));
  auto sA = make_layout(make_shape(m, k), make_stride(k + Int<2>{}, Int<1>{}));
  auto sB = make_layout(make_shape(n, k), make_stride(Int<1>{}, n + Int<5>{}));
  // The atom: `ATOM CONFIG M N K` and its ALayout, BLayout, CLayout in CuTe text.
  using T = MMA;
  auto mnk = typename T::AtomShape_MNK{};
  printf("ATOM %s %d %d %d ", cfg, int(size<0>(mnk)), int(size<1>(mnk)), int(size<2>(mnk)));
  print(typename T::AtomLayoutA_TV{}); printf(" ");
  print(typename T::AtomLayoutB_TV{}); printf(" ");
  print(typename T::AtomLayoutC_TV{}); printf("\n");
  printf("# %s threads %d\n", cfg, int(size(mma)));
  for (int t = 0; t < int(size(mma)); ++t) {
    auto thr = mma.get_slice(t);
    line("C", cfg, t, thr.partition_C(counting(sC)));
    line("A", cfg, t, thr.partition_A(counting(sA)));
    line("B", cfg, t, thr.partition_B(counting(sB)));
  }
}

// `make_tiled_copy_A/B(atom, mma)`: `CATOM CONFIG KIND src dst` (the atom in elements), then
// per thread `S<op><kind>` the offsets of `partition_S(smem)`, and `R<op><kind>` the offsets of
// `retile_D` of the register fragment (thread 0; the same for every thread).
template <class MMA, class Atom, class Smem>
void copies(char const* cfg, char const* kind, MMA const& mma, Atom const& copy_atom, Smem const& smem) {
  printf("CATOM %s %s ", cfg, kind);
  print(typename Atom::ValLayoutSrc{}); printf(" ");
  print(typename Atom::ValLayoutDst{}); printf("\n");
  auto copy_a = make_tiled_copy_A(copy_atom, mma);
  auto copy_b = make_tiled_copy_B(copy_atom, mma);
  auto smem_t = make_tensor(make_smem_ptr((half_t*)nullptr), smem);
  // The fragments, compact in their fragment order (FrgV, RestM|N, RestK), so that an
  // offset is the fragment's value index.
  auto frag_a = make_layout(shape(mma.get_slice(0).partition_fragment_A(smem_t)));
  auto frag_b = make_layout(shape(mma.get_slice(0).partition_fragment_B(smem_t)));
  char tag[8];
  for (int t = 0; t < int(size(copy_a)); ++t) {
    snprintf(tag, sizeof tag, "SA%s", kind);
    line(tag, cfg, t, copy_a.get_slice(t).partition_S(counting(smem)));
    snprintf(tag, sizeof tag, "SB%s", kind);
    line(tag, cfg, t, copy_b.get_slice(t).partition_S(counting(smem)));
  }
  snprintf(tag, sizeof tag, "RA%s", kind);
  line(tag, cfg, 0, copy_a.get_slice(0).retile_D(counting(frag_a)));
  snprintf(tag, sizeof tag, "RB%s", kind);
  line(tag, cfg, 0, copy_b.get_slice(0).retile_D(counting(frag_b)));
}

int main() {
  {
    // sgemm_sm80's hgemm (gemm_tn): 2×2 warps, Tile<_32,_32,_16>, CTA 128×128×64.
    auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{},
                              Tile<_32, _32, _16>{});
    partitions("hgemm", mma, Int<128>{}, Int<128>{}, Int<64>{});

    // The swizzled shared memory of sgemm_sm80 (one stage), 128×64 (K-major) for A and for B.
    auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{});
    auto sK = tile_to_shape(atom, make_shape(Int<128>{}, Int<64>{}));
    copies("hgemm", "N", mma, Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, sK);
    // The 3-stage buffer: partition_S of the whole buffer, stage 2 (`tXsA(_, _, _, 2)`).
    auto sK3 = tile_to_shape(atom, make_shape(Int<128>{}, Int<64>{}, Int<3>{}));
    auto copy_a = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
    for (int t = 0; t < int(size(copy_a)); ++t) {
      line("SAN3", "hgemm", t, copy_a.get_slice(t).partition_S(counting(sK3))(_, _, _, 2));
    }
    // The same MMA with a permutation tile of 32 along K: two k-blocks per copy tile.
    auto mma_k32 = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{},
                                  Tile<_32, _32, _32>{});
    partitions("k32", mma_k32, Int<128>{}, Int<128>{}, Int<64>{});
    copies("k32", "N", mma_k32, Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, sK);
    // M- (N-) major shared memory, read by the transposing ldmatrix.
    auto atom_t = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{});
    auto sMN = tile_to_shape(atom_t, make_shape(Int<128>{}, Int<64>{}));
    copies("hgemm", "T", mma, Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, sMN);
  }
  {
    // Value repeats in every mode: 16x8x8, 4×1 warps, CTA 128×32×32.
    auto mma = make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_4, _1>>{});
    partitions("m4x1", mma, Int<128>{}, Int<32>{}, Int<32>{});
  }
  {
    // 16x8x8, 1×2 warps, CTA 32×32×16.
    auto mma = make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_1, _2>>{});
    partitions("m1x2", mma, Int<32>{}, Int<32>{}, Int<16>{});
  }
  {
    // FlashAttention-2's S = Q·K^T: 4 warps along M, Tile<_64,_16,_16>, CTA 64×64×64 (f32 accumulators).
    auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_4, _1, _1>>{},
                              Tile<_64, _16, _16>{});
    partitions("fa2", mma, Int<64>{}, Int<64>{}, Int<64>{});
    // Q and K through ldmatrix x4 from K-major smem, V through the transposing x8 from
    // N-major smem (FA2's smem_tiled_copy_Q/K/V), each 64×64.
    auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{});
    auto sK = tile_to_shape(atom, make_shape(Int<64>{}, Int<64>{}));
    copies("fa2", "N", mma, Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, sK);
    auto atom_t = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{});
    auto sMN = tile_to_shape(atom_t, make_shape(Int<64>{}, Int<64>{}));
    copies("fa2", "T", mma, Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, sMN);
  }
  return 0;
}
