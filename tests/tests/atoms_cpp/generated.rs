//! The generated atoms' constants, for `atoms_cpp.rs`; written with
//! `layout-typed/src/atoms/generated.rs` by `UPDATE_ATOMS=1`. Do not edit.

use super::*;

pub(crate) fn checks() -> Vec<ModuleChecks> {
    atom_checks! {
        sm80_16x8x16_f16f16f16f16_tn {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout",
            C = "CLayout",
        }
        sm80_16x8x8_f32bf16bf16f32_tn {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout",
            C = "CLayout",
        }
        sm90_64x8x16_f16f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x8x16_f16f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x8x16_f32f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x8x16_f32f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x16x16_f16f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x16x16_f16f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x16x16_f32f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x16x16_f32f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x32x16_f16f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x32x16_f16f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x32x16_f32f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x32x16_f32f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x64x16_f16f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x64x16_f16f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x64x16_f32f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x128x16_f16f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x128x16_f16f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x256x16_f16f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x256x16_f16f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x256x16_f32f16f16_ss_k_k {
            THR = "ThrID",
            A = "ALayout" / A_DENSE,
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm90_64x256x16_f32f16f16_rs_k_k {
            THR = "ThrID",
            A = "ALayout",
            B = "BLayout" / B_DENSE,
            C = "CLayout",
        }
        sm75_u32x1_ldsm_n {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc" / SRC_B16_DENSE,
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        sm75_u32x4_ldsm_n {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        sm90_u32x4_stsm_n {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        sm90_u16x2_stsm_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst" / DST_B16_DENSE,
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        sm80_cp_async_cachealways_uint32_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        sm80_cp_async_cachealways_uint64_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        sm80_cp_async_cachealways_uint128_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        sm80_cp_async_cacheglobal_uint128_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        universalcopy_uint8_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B8 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B8 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B8 = "ValLayoutRef",
        }
        universalcopy_uint16_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        universalcopy_uint32_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        universalcopy_uint64_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        universalcopy_uint128_t {
            THR = "ThrID",
            SRC_BITS = "SrcLayout",
            SRC_B16 = "ValLayoutSrc",
            DST_BITS = "DstLayout",
            DST_B16 = "ValLayoutDst",
            REF_BITS = "RefLayout",
            REF_B16 = "ValLayoutRef",
        }
        gmma_layout_k_inter_atom_uint8_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_inter_atom_half_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_inter_atom_float {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_sw32_atom_uint8_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_sw32_atom_half_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_sw32_atom_float {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_sw64_atom_uint8_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_sw64_atom_half_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_sw64_atom_float {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_sw128_atom_uint8_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_sw128_atom_half_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_k_sw128_atom_float {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_inter_atom_uint8_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_inter_atom_half_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_inter_atom_float {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_sw32_atom_uint8_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_sw32_atom_half_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_sw32_atom_float {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_sw64_atom_uint8_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_sw64_atom_half_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_sw64_atom_float {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_sw128_atom_uint8_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_sw128_atom_half_t {
            ATOM = "Atom",
            INNER = "Inner",
        }
        gmma_layout_mn_sw128_atom_float {
            ATOM = "Atom",
            INNER = "Inner",
        }
    }
}
