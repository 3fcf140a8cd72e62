// Every atom of `layout_typed::atoms`, printed from the CUTLASS 4.2 headers for
// `tests/tests/atoms_cpp.rs`: its names, CuTe's text of each layout, and the value of each layout
// at every integral coordinate (computed by CuTe, not read back from the text).
//
// Line format (one record per line, fields separated by one space):
//   atom KIND MODULE NAME   KIND is mma, copy or smem; MODULE the Rust module; NAME CuTe's name
//   header PATH             the header that defines the traits or the atom
//   shape M N K             an MMA atom's Shape_MNK
//   value TYPE BITS         a copy atom's value type for Copy_Atom<OP, TYPE>
//   swizzle B M S BITS      a smem atom's Swizzle<B,M,S> and the element width it is used with
//   text KEY TEXT           CuTe's print() of layout KEY
//   offsets KEY N V0 ... VN-1   layout KEY at the integral coordinates 0..N
//   end
#include <cstdio>

#include <cute/tensor.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

using namespace cute;

template <class L>
void layout_record(char const* key, L const& l) {
  printf("text %s ", key);
  print(l);
  printf("\noffsets %s %d", key, int(size(l)));
  for (int i = 0; i < int(size(l)); ++i) {
    printf(" %d", int(l(i)));
  }
  printf("\n");
}

template <class Op>
void mma(char const* module, char const* name, char const* header) {
  using T = MMA_Traits<Op>;
  printf("atom mma %s %s\nheader %s\n", module, name, header);
  typename T::Shape_MNK mnk{};
  printf("shape %d %d %d\n", int(size<0>(mnk)), int(size<1>(mnk)), int(size<2>(mnk)));
  layout_record("ThrID", typename T::ThrID{});
  layout_record("ALayout", typename T::ALayout{});
  layout_record("BLayout", typename T::BLayout{});
  layout_record("CLayout", typename T::CLayout{});
  printf("end\n");
}

template <class Op, class V>
void copy(char const* module, char const* name, char const* header, char const* vname) {
  using T = Copy_Traits<Op>;
  using A = Copy_Atom<Op, V>;
  printf("atom copy %s %s\nheader %s\n", module, name, header);
  layout_record("ThrID", typename T::ThrID{});
  layout_record("SrcLayout", typename T::SrcLayout{});
  layout_record("DstLayout", typename T::DstLayout{});
  layout_record("RefLayout", typename T::RefLayout{});
  printf("value %s %d\n", vname, int(sizeof_bits<V>::value));
  layout_record("ValLayoutSrc", typename A::ValLayoutSrc{});
  layout_record("ValLayoutDst", typename A::ValLayoutDst{});
  layout_record("ValLayoutRef", typename A::ValLayoutRef{});
  printf("end\n");
}

// A shared-memory atom for elements of type V: the element offset of every coordinate, read from
// a tensor over a shared-memory pointer (where CuTe applies the swizzle), 1024-byte aligned.
template <class V, class Atom>
void smem(char const* module, char const* name, char const* header) {
  Atom atom{};
  auto sw = atom.layout_a();
  auto inner = atom.layout_b();
  printf("atom smem %s %s\nheader %s\n", module, name, header);
  printf("swizzle %d %d %d %d\n", int(decltype(sw)::num_bits), int(decltype(sw)::num_base),
         int(decltype(sw)::num_shft), int(sizeof_bits<V>::value));
  printf("text Atom ");
  print(atom);
  printf("\n");
  layout_record("Inner", inner);
  alignas(4096) static V buf[8192];
  auto t = make_tensor(make_smem_ptr(buf), atom);
  printf("offsets Atom %d", int(size(atom)));
  for (int i = 0; i < int(size(atom)); ++i) {
    printf(" %d", int(&t(i) - buf));
  }
  printf("\nend\n");
}

#define MMA80(OP, MOD) mma<OP>(MOD, #OP, "include/cute/atom/mma_traits_sm80.hpp")
#define GMMA_N(N)                                                                              \
  mma<SM90_64x##N##x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>>(                          \
      "sm90_64x" #N "x16_f16f16f16_ss_k_k", "SM90_64x" #N "x16_F16F16F16_SS<K,K>", GMMA_H);    \
  mma<SM90_64x##N##x16_F16F16F16_RS<GMMA::Major::K, GMMA::Major::K>>(                          \
      "sm90_64x" #N "x16_f16f16f16_rs_k_k", "SM90_64x" #N "x16_F16F16F16_RS<K,K>", GMMA_H);    \
  mma<SM90_64x##N##x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>>(                          \
      "sm90_64x" #N "x16_f32f16f16_ss_k_k", "SM90_64x" #N "x16_F32F16F16_SS<K,K>", GMMA_H);    \
  mma<SM90_64x##N##x16_F32F16F16_RS<GMMA::Major::K, GMMA::Major::K>>(                          \
      "sm90_64x" #N "x16_f32f16f16_rs_k_k", "SM90_64x" #N "x16_F32F16F16_RS<K,K>", GMMA_H)
#define GMMA_H "include/cute/atom/mma_traits_sm90_gmma.hpp"
#define LDSM(OP, MOD) copy<OP, half_t>(MOD, #OP, "include/cute/atom/copy_traits_sm75.hpp", "half_t")
#define STSM(OP, MOD) copy<OP, half_t>(MOD, #OP, "include/cute/atom/copy_traits_sm90.hpp", "half_t")
#define CP_ASYNC(OP, S, MOD)                                                                   \
  copy<OP<S>, half_t>(MOD, #OP "<" #S ">", "include/cute/atom/copy_traits_sm80.hpp", "half_t")
#define UNIVERSAL(S, V, MOD)                                                                   \
  copy<UniversalCopy<S>, V>(MOD, "UniversalCopy<" #S ">", "include/cute/atom/copy_traits.hpp", #V)
#define SMEM_T(MAJOR, KIND, V)                                                                 \
  smem<V, GMMA::Layout_##MAJOR##_##KIND##_Atom<V>>(                                            \
      "gmma_layout_" #MAJOR "_" #KIND "_atom_" #V, "GMMA::Layout_" #MAJOR "_" #KIND "_Atom<" #V ">", \
      GMMA_H)
#define SMEM(MAJOR, KIND)                                                                      \
  SMEM_T(MAJOR, KIND, uint8_t);                                                                \
  SMEM_T(MAJOR, KIND, half_t);                                                                 \
  SMEM_T(MAJOR, KIND, float)

int main() {
  // SM80 mma.sync.
  MMA80(SM80_16x8x8_F16F16F16F16_TN, "sm80_16x8x8_f16f16f16f16_tn");
  MMA80(SM80_16x8x16_F16F16F16F16_TN, "sm80_16x8x16_f16f16f16f16_tn");
  MMA80(SM80_16x8x8_F32F16F16F32_TN, "sm80_16x8x8_f32f16f16f32_tn");
  MMA80(SM80_16x8x16_F32F16F16F32_TN, "sm80_16x8x16_f32f16f16f32_tn");
  MMA80(SM80_16x8x8_F32BF16BF16F32_TN, "sm80_16x8x8_f32bf16bf16f32_tn");
  MMA80(SM80_16x8x16_F32BF16BF16F32_TN, "sm80_16x8x16_f32bf16bf16f32_tn");
  MMA80(SM80_16x8x4_F32TF32TF32F32_TN, "sm80_16x8x4_f32tf32tf32f32_tn");
  MMA80(SM80_16x8x8_F32TF32TF32F32_TN, "sm80_16x8x8_f32tf32tf32f32_tn");
  MMA80(SM80_16x8x16_S32S8S8S32_TN, "sm80_16x8x16_s32s8s8s32_tn");
  MMA80(SM80_16x8x32_S32S8S8S32_TN, "sm80_16x8x32_s32s8s8s32_tn");
  // The other atoms declared from the corpus, compared with these headers too.
  MMA80(SM80_8x8x4_F64F64F64F64_TN, "sm80_8x8x4_f64f64f64f64_tn");
  MMA80(SM80_16x8x64_S32S4S4S32_TN, "sm80_16x8x64_s32s4s4s32_tn");
  MMA80(SM80_16x8x256_S32U1U1S32_TN_XORPOPC, "sm80_16x8x256_s32u1u1s32_tn_xorpopc");
  mma<SM90_16x8x4_F64F64F64F64_TN>("sm90_16x8x4_f64f64f64f64_tn", "SM90_16x8x4_F64F64F64F64_TN",
                                   "include/cute/atom/mma_traits_sm90.hpp");
  mma<SM90_16x8x8_F64F64F64F64_TN>("sm90_16x8x8_f64f64f64f64_tn", "SM90_16x8x8_F64F64F64F64_TN",
                                   "include/cute/atom/mma_traits_sm90.hpp");
  mma<SM90_16x8x16_F64F64F64F64_TN>("sm90_16x8x16_f64f64f64f64_tn",
                                    "SM90_16x8x16_F64F64F64F64_TN",
                                    "include/cute/atom/mma_traits_sm90.hpp");
  mma<SM90_64x128x32_S32S8S8_SS_TN>("sm90_64x128x32_s32s8s8_ss_tn", "SM90_64x128x32_S32S8S8_SS_TN",
                                    GMMA_H);
  mma<SM90_64x128x32_S32S8S8_RS_TN>("sm90_64x128x32_s32s8s8_rs_tn", "SM90_64x128x32_S32S8S8_RS_TN",
                                    GMMA_H);
  mma<SM90_64x128x32_F32E4M3E4M3_SS_TN<>>("sm90_64x128x32_f32e4m3e4m3_ss_tn",
                                          "SM90_64x128x32_F32E4M3E4M3_SS_TN", GMMA_H);
  // SM90 GMMA, 64xNx16, f16 inputs, A and B K-major.
  GMMA_N(8);
  GMMA_N(16);
  GMMA_N(32);
  GMMA_N(64);
  GMMA_N(128);
  GMMA_N(256);
  // ldmatrix and stmatrix.
  LDSM(SM75_U32x1_LDSM_N, "sm75_u32x1_ldsm_n");
  LDSM(SM75_U32x2_LDSM_N, "sm75_u32x2_ldsm_n");
  LDSM(SM75_U32x4_LDSM_N, "sm75_u32x4_ldsm_n");
  LDSM(SM75_U16x2_LDSM_T, "sm75_u16x2_ldsm_t");
  LDSM(SM75_U16x4_LDSM_T, "sm75_u16x4_ldsm_t");
  LDSM(SM75_U16x8_LDSM_T, "sm75_u16x8_ldsm_t");
  STSM(SM90_U32x1_STSM_N, "sm90_u32x1_stsm_n");
  STSM(SM90_U32x2_STSM_N, "sm90_u32x2_stsm_n");
  STSM(SM90_U32x4_STSM_N, "sm90_u32x4_stsm_n");
  STSM(SM90_U16x2_STSM_T, "sm90_u16x2_stsm_t");
  STSM(SM90_U16x4_STSM_T, "sm90_u16x4_stsm_t");
  STSM(SM90_U16x8_STSM_T, "sm90_u16x8_stsm_t");
  // cp.async and the universal copy.
  CP_ASYNC(SM80_CP_ASYNC_CACHEALWAYS, uint32_t, "sm80_cp_async_cachealways_uint32_t");
  CP_ASYNC(SM80_CP_ASYNC_CACHEALWAYS, uint64_t, "sm80_cp_async_cachealways_uint64_t");
  CP_ASYNC(SM80_CP_ASYNC_CACHEALWAYS, uint128_t, "sm80_cp_async_cachealways_uint128_t");
  CP_ASYNC(SM80_CP_ASYNC_CACHEGLOBAL, uint128_t, "sm80_cp_async_cacheglobal_uint128_t");
  UNIVERSAL(uint8_t, uint8_t, "universalcopy_uint8_t");
  UNIVERSAL(uint16_t, half_t, "universalcopy_uint16_t");
  UNIVERSAL(uint32_t, half_t, "universalcopy_uint32_t");
  UNIVERSAL(uint64_t, half_t, "universalcopy_uint64_t");
  UNIVERSAL(uint128_t, half_t, "universalcopy_uint128_t");
  // GMMA shared-memory atoms.
  SMEM(K, INTER);
  SMEM(K, SW32);
  SMEM(K, SW64);
  SMEM(K, SW128);
  SMEM(MN, INTER);
  SMEM(MN, SW32);
  SMEM(MN, SW64);
  SMEM(MN, SW128);
  return 0;
}
