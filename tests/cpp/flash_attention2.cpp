// The layouts of FlashAttention-2's forward kernel (its `Flash_fwd_kernel_traits<128, 128, 64,
// 4>` for fp16: head dimension 128, 128-row Q blocks, 64-row K/V blocks, 4 warps along M) written
// with the CUTLASS 4.2 headers, on the host, as the FA2 kernel builds them: the swizzled Q, K and V
// shared-memory layouts, the transposed V view, the LDSM copies that feed the two GEMMs, the
// register fragments, the S accumulator reused as the A operand of P·V, and each thread's rows
// for the row reductions.
//
// FlashAttention-2's own sources are not among these headers: the traits below are written with
// CuTe 4.2 exactly as FA2's `kernel_traits.h` writes them (`SmemLayoutAtomQ`, `SmemLayoutQ`,
// `SmemLayoutKV`, `SmemLayoutVtransposed`, `SmemLayoutVtransposedNoSwizzle`, whose fragment is
// `tOrVt`, `TiledMma`, `SmemCopyAtom`, `SmemCopyAtomTransposed`), the tensors as its
// `flash_fwd_kernel.h` partitions them, and the two re-layouts as its `utils.h` writes them
// (`convert_layout_acc_Aregs` for m16n8k16, `convert_layout_acc_rowcol`).
//
// Output lines:
//   NAME : o0 o1 ...          a shared-memory layout's offset at every flat index
//   NAME t=T : o0 o1 ...      a thread's partition (offsets from the tensor's base, or register
//                             indices for a fragment's layout)
//   rows t=T : r0 r1 ...      the S-tile rows of the thread's accumulators, row by row of the
//                             row-column view (what the row max and row sum reduce over)
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>

#include <cstdio>

using namespace cute;

static const int kHeadDim = 128, kBlockM = 128, kBlockN = 64, kNWarps = 4;
alignas(1024) static half_t sbuf[1 << 16];

template <class Tensor>
static void offsets(char const* name, int t, Tensor const& x) {
  if (t < 0) printf("%s :", name); else printf("%s t=%d :", name, t);
  for (int i = 0; i < size(x); ++i) printf(" %ld", long(&x(i) - sbuf));
  printf("\n");
}

template <class Layout>
static void registers(char const* name, int t, Layout const& l) {
  printf("%s t=%d :", name, t);
  for (int i = 0; i < size(l); ++i) printf(" %d", int(l(i)));
  printf("\n");
}

// FA2's convert_layout_acc_Aregs for m16n8k16: ((2,2),MMA_M,MMA_N) -> ((2,2,2),MMA_M,MMA_N/2).
template <class L>
auto acc_to_a_regs(L const& acc) {
  auto l = logical_divide(acc, Shape<X, X, _2>{});
  return make_layout(make_layout(get<0>(l), get<2, 0>(l)), get<1>(l), get<2, 1>(l));
}

// FA2's convert_layout_acc_rowcol: ((2,2),MMA_M,MMA_N) -> ((2,MMA_M),(2,MMA_N)).
template <class L>
auto acc_rowcol(L const& acc) {
  auto l = logical_divide(acc, Shape<_2>{});  // ((2,2),MMA_M,MMA_N)
  return make_layout(make_layout(get<0, 1>(l), get<1>(l)), make_layout(get<0, 0>(l), get<2>(l)));
}

int main() {
  using SmemLayoutAtomQ = decltype(composition(
      Swizzle<3, 3, 3>{}, Layout<Shape<_8, Int<64>>, Stride<Int<64>, _1>>{}));
  using SmemLayoutQ = decltype(tile_to_shape(SmemLayoutAtomQ{}, Shape<Int<kBlockM>, Int<kHeadDim>>{}));
  using SmemLayoutKV = decltype(tile_to_shape(SmemLayoutAtomQ{}, Shape<Int<kBlockN>, Int<kHeadDim>>{}));
  using SmemLayoutVtransposed = decltype(composition(
      SmemLayoutKV{}, make_layout(Shape<Int<kHeadDim>, Int<kBlockN>>{}, GenRowMajor{})));
  using SmemLayoutVtransposedNoSwizzle = decltype(get_nonswizzle_portion(SmemLayoutVtransposed{}));
  using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<Int<kNWarps>, _1, _1>>,
                            Tile<Int<16 * kNWarps>, _16, _16>>;
  using SmemCopyAtom = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
  using SmemCopyAtomTransposed = Copy_Atom<SM75_U16x8_LDSM_T, half_t>;

  Tensor sQ = make_tensor(make_smem_ptr(sbuf), SmemLayoutQ{});
  Tensor sK = make_tensor(make_smem_ptr(sbuf), SmemLayoutKV{});
  Tensor sVt = make_tensor(make_smem_ptr(sbuf), SmemLayoutVtransposed{});
  Tensor sVtNoSwizzle = make_tensor(make_smem_ptr(sbuf), SmemLayoutVtransposedNoSwizzle{});
  offsets("sQ", -1, sQ);
  offsets("sK", -1, sK);
  offsets("sVt", -1, sVt);

  TiledMma tiled_mma;
  auto smem_tiled_copy_Q = make_tiled_copy_A(SmemCopyAtom{}, tiled_mma);
  auto smem_tiled_copy_K = make_tiled_copy_B(SmemCopyAtom{}, tiled_mma);
  auto smem_tiled_copy_V = make_tiled_copy_B(SmemCopyAtomTransposed{}, tiled_mma);
  Tensor cS = make_identity_tensor(Shape<Int<kBlockM>, Int<kBlockN>>{});
  for (int t = 0; t < int(size(tiled_mma)); ++t) {
    auto thr_mma = tiled_mma.get_thread_slice(t);
    offsets("tSsQ", t, smem_tiled_copy_Q.get_thread_slice(t).partition_S(sQ));
    offsets("tSsK", t, smem_tiled_copy_K.get_thread_slice(t).partition_S(sK));
    offsets("tOsVt", t, smem_tiled_copy_V.get_thread_slice(t).partition_S(sVt));
    Tensor tSrQ = thr_mma.partition_fragment_A(sQ);
    Tensor tSrK = thr_mma.partition_fragment_B(sK);
    Tensor tOrVt = thr_mma.partition_fragment_B(sVtNoSwizzle);  // as FA2: the fragment of V unswizzled
    registers("tSrQ", t, tSrQ.layout());
    registers("tSrK", t, tSrK.layout());
    registers("tOrVt", t, tOrVt.layout());
    registers("tSsQr", t, smem_tiled_copy_Q.get_thread_slice(t).retile_D(tSrQ).layout());
    registers("tOrVtr", t, smem_tiled_copy_V.get_thread_slice(t).retile_D(tOrVt).layout());
    Tensor acc_s = partition_fragment_C(tiled_mma, Shape<Int<kBlockM>, Int<kBlockN>>{});
    registers("acc_s", t, acc_s.layout());
    registers("tOrP", t, acc_to_a_regs(acc_s.layout()));
    // The rows each accumulator lies in (S-tile coordinates), in the row-column view's order.
    Tensor tScS = thr_mma.partition_C(cS);  // (MMA,MMA_M,MMA_N) coordinates
    Tensor rc = make_tensor(tScS.data(), acc_rowcol(tScS.layout()));
    printf("rows t=%d :", t);
    for (int r = 0; r < size<0>(rc); ++r) {
      int row = int(get<0>(rc(r, 0)));
      for (int c = 1; c < size<1>(rc); ++c)
        if (int(get<0>(rc(r, c))) != row) { printf(" MIXED\n"); return 1; }
      printf(" %d", row);
    }
    printf("\n");
  }
  return 0;
}
