//! Every layout of FlashAttention-2's forward kernel (`Flash_fwd_kernel_traits<128, 128, 64, 4>`
//! for fp16: head dimension 128, 128-row Q blocks, 64-row K/V blocks, 4 warps along M;
//! `SM80_16x8x16_F32F16F16F32_TN` on 4×1 warps with the permutation tile 64×16×16), built by the
//! algebra: the `Swizzle<3,3,3>` shared memory of Q, K and V, the transposed view of V, the
//! `ldmatrix` copies of Q and K (x4, N) and of V transposed (x8, T) with their `retile`, the
//! register fragments in CuTe's register order, the S accumulator reused as the A operand of
//! P·V, and each thread's rows of S for the row max and the row sum.
//!
//! No thread-value layout is written out: each comes from an atom (`layout_typed::atoms`), a
//! constructor (`mma::TiledMma`, `TiledMma::copy_a/b`, `TiledMma::fragment_a/b/c`) or the
//! algebra (`repeat_modewise`, `compose`, a swizzle, `divide_modes` and regroupings). The only
//! layouts written here are the kernel's own choices, as FlashAttention-2 writes them: the
//! shared-memory atom `(8,64):(64,1)` and the row-major transposition of V.
//!
//! `cargo run --example flash_attention2_layouts` prints the shared-memory layouts' offsets and,
//! for every thread, the `ldmatrix` sources, the fragments' registers, `retile_D`, the
//! accumulator, its re-layout as P and the rows of the row reductions.
//! `tests/tests/kernel_examples.rs` compares the output line by line with the same lines printed
//! by CuTe C++ (`tests/cpp/flash_attention2.cpp`).

use layout_typed::atoms::{
    sm75_u16x8_ldsm_t as ldsm_t, sm75_u32x4_ldsm_n as ldsm_n, sm80_16x8x16_f32f16f16f32_tn as hmma,
};
use layout_typed::core_algebra::mma::{CopyAtom, MmaAtom, OperandCopy, TiledMma};
use layout_typed::core_algebra::{
    Annotated, Error, Layout, Map, ModePath, Quantity, Space, Swizzle, SwizzleUnit, compose,
    divide_modes, flatten, group, repeat_modewise, select,
};

/// The kernel's static sizes: head dimension, the Q block's rows, the K/V block's rows, warps.
pub const HEAD_DIM: i64 = 128;
/// Rows of a Q block (M of both GEMMs).
pub const BLOCK_M: i64 = 128;
/// Rows of a K/V block (N of S = Q·Kᵀ, K of O = P·V).
pub const BLOCK_N: i64 = 64;
/// Warps, all along M.
pub const WARPS: i64 = 4;

fn typed<L: layout_typed::Layout>(l: &L) -> Result<Layout, Error> {
    // An atom constant is a plain layout: its map is `Map::Layout`.
    Ok(l.to_map()?
        .as_layout()
        .cloned()
        .expect("an atom constant is a plain layout"))
}

/// `Swizzle<3,3,3>` on element offsets.
pub fn swizzle() -> Result<Swizzle, Error> {
    Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements)
}

/// A shared-memory tile of `rows` × `HEAD_DIM` without its swizzle: CuTe's
/// `tile_to_shape((8,64):(64,1), (rows, 128))`, the atom repeated `rows/8` times along the rows,
/// then twice along the head dimension (`repeat_modewise`; seed order `(k, m)`).
pub fn smem_plain(rows: i64) -> Result<Map, Error> {
    let atom = Layout::from_cute("(8,64):(64,1)")?;
    let repeats = Layout::from_cute(&format!(
        "({},{}):(1,{})",
        rows / 8,
        HEAD_DIM / 64,
        rows / 8
    ))?;
    let l = repeat_modewise(&atom, &repeats)?;
    Ok(Annotated::new(l, Space::Logical, Space::Physical)?
        .with_tiles(Some(vec![HEAD_DIM, rows]), None)?
        .into())
}

/// FlashAttention-2's `SmemLayoutQ` (`rows` = 128) and `SmemLayoutKV` (`rows` = 64): the tile of
/// [`smem_plain`] with `Swizzle<3,3,3>` applied to its offsets.
pub fn smem(rows: i64) -> Result<Map, Error> {
    smem_plain(rows)?.swizzle(swizzle()?)
}

/// The transposition of FlashAttention-2's `SmemLayoutVtransposed`: `make_layout((128, 64),
/// GenRowMajor)`, the (head dimension, key) position `d + 128·n` to V's position `n + 64·d`,
/// `logical -> logical`.
pub fn transpose() -> Result<Map, Error> {
    let l = Layout::from_cute(&format!("({HEAD_DIM},{BLOCK_N}):({BLOCK_N},1)"))?;
    Ok(Annotated::new(l, Space::Logical, Space::Logical)?
        .with_tiles(Some(vec![BLOCK_N, HEAD_DIM]), Some(vec![HEAD_DIM, BLOCK_N]))?
        .into())
}

/// `SmemLayoutVtransposed`: `composition(sV, transpose)`, V read as a 128×64 (head dimension ×
/// key) tile.
pub fn smem_vt() -> Result<Map, Error> {
    compose(&smem(BLOCK_N)?, &transpose()?)
}

/// `SmemLayoutVtransposedNoSwizzle`: [`smem_vt`] without its swizzle, the storage whose
/// fragment FlashAttention-2 takes for `tOrVt`.
pub fn smem_vt_plain() -> Result<Map, Error> {
    compose(&smem_plain(BLOCK_N)?, &transpose()?)
}

/// The MMA atom `SM80_16x8x16_F32F16F16F32_TN`.
pub fn atom() -> Result<MmaAtom, Error> {
    MmaAtom::new(
        [16, 8, 16],
        typed(&hmma::A)?,
        typed(&hmma::B)?,
        typed(&hmma::C)?,
    )
}

/// The tiled MMA `TiledMMA<MMA_Atom<..>, Layout<Shape<_4,_1,_1>>, Tile<_64,_16,_16>>` over the
/// CTA tile `[M, N, K]` of one GEMM: S = Q·Kᵀ is `[128, 64, 128]`, O = P·V is `[128, 128, 64]`.
pub fn tiled_mma(tile: [i64; 3]) -> Result<TiledMma, Error> {
    TiledMma::new(atom()?, [WARPS, 1, 1], tile)?.with_permutation([16 * WARPS, 16, 16])
}

/// `Copy_Atom<SM75_U32x4_LDSM_N, half_t>`.
pub fn ldsm_n_atom() -> Result<CopyAtom, Error> {
    CopyAtom::new(typed(&ldsm_n::SRC_B16)?, typed(&ldsm_n::DST_B16)?)
}

/// `Copy_Atom<SM75_U16x8_LDSM_T, half_t>`.
pub fn ldsm_t_atom() -> Result<CopyAtom, Error> {
    CopyAtom::new(typed(&ldsm_t::SRC_B16)?, typed(&ldsm_t::DST_B16)?)
}

/// FlashAttention-2's `convert_layout_acc_Aregs` for the m16n8k16 atom: the accumulator's
/// fragment `((2,2), MMA_M, MMA_N)` (CuTe order) as the A operand's `((2,2,2), MMA_M, MMA_N/2)`:
/// `MMA_N` divided by 2 and the tile of 2 moved into the value mode. In seed order the leaves
/// of `divide_modes` are `(N rest, N tile, 1, M, 1, v, v)`; `select` keeps
/// `(N rest, M, N tile, v, v)`, the two `group`s nest the value mode.
pub fn acc_to_a_regs(acc: &Layout) -> Result<Layout, Error> {
    let leaves = flatten(&divide_modes(acc, &[2, acc_mode(acc, 1)?, 4])?)?;
    group(&group(&select(&leaves, &[0, 3, 1, 5, 6])?, 3, 5)?, 2, 4)
}

/// FlashAttention-2's `convert_layout_acc_rowcol`: `((2,2), MMA_M, MMA_N)` (CuTe order) as
/// `((2, MMA_M), (2, MMA_N))`, rows first. In seed order the flattened leaves are
/// `(N, M, v1, v0)`: columns `(N, v0)`, rows `(M, v1)` (the rows' entry last, fastest).
pub fn acc_rowcol(acc: &Layout) -> Result<Layout, Error> {
    let leaves = flatten(acc)?;
    group(&group(&select(&leaves, &[0, 3, 1, 2])?, 2, 4)?, 0, 2)
}

/// The size of a top-level mode of a layout.
fn acc_mode(l: &Layout, i: usize) -> Result<i64, Error> {
    match l.shape() {
        layout_typed::core_algebra::Tree::Tuple(v) => Ok(v
            .get(i)
            .map(|m| m.leaves().into_iter().product())
            .expect("a top-level mode of the fragment")),
        layout_typed::core_algebra::Tree::Leaf(n) => Ok(*n),
    }
}

/// A checked result, or the overflow error.
fn checked(x: Option<i64>) -> Result<i64, Error> {
    x.ok_or(Error::Overflow {
        mode: ModePath::ROOT,
        what: Quantity::Positions,
    })
}

fn line(out: &mut String, head: &str, values: impl IntoIterator<Item = String>) {
    out.push_str(head);
    out.push_str(" :");
    for v in values {
        out.push(' ');
        out.push_str(&v);
    }
    out.push('\n');
}

/// Every flat index of a map, as text.
fn offsets(map: &Map) -> Result<Vec<String>, Error> {
    (0..map.size())
        .map(|i| map.eval_index(i).map(|o| o.to_string()))
        .collect()
}

/// Every flat index of a layout, as text.
fn values(l: &Layout) -> Result<Vec<String>, Error> {
    (0..l.size())
        .map(|i| l.eval_index(i).map(|o| o.to_string()))
        .collect()
}

fn registers(l: &Layout) -> Result<Map, Error> {
    Ok(Annotated::new(l.clone(), Space::Logical, Space::Physical)?.into())
}

/// The kernel's layouts, printed as `tests/cpp/flash_attention2.cpp` prints CuTe's.
///
/// # Errors
/// Any rule of the algebra that a layout breaks (none for this kernel).
pub fn layouts() -> Result<String, Error> {
    let mut out = String::new();
    let (s_q, s_k, s_vt) = (smem(BLOCK_M)?, smem(BLOCK_N)?, smem_vt()?);
    line(&mut out, "sQ", offsets(&s_q)?);
    line(&mut out, "sK", offsets(&s_k)?);
    line(&mut out, "sVt", offsets(&s_vt)?);

    // S = Q·Kᵀ over (M, N, K) = (128, 64, 128); O = P·V over (128, 128, 64).
    let mma_s = tiled_mma([BLOCK_M, BLOCK_N, HEAD_DIM])?;
    let mma_o = tiled_mma([BLOCK_M, HEAD_DIM, BLOCK_N])?;
    let (copy_q, copy_k, copy_v): (OperandCopy, OperandCopy, OperandCopy) = (
        mma_s.copy_a(&ldsm_n_atom()?)?,
        mma_s.copy_b(&ldsm_n_atom()?)?,
        mma_o.copy_b(&ldsm_t_atom()?)?,
    );
    let (ts_q, ts_k, to_vt) = (
        copy_q.partition_s(&s_q)?,
        copy_k.partition_s(&s_k)?,
        copy_v.partition_s(&s_vt)?,
    );
    // The register fragments (the same for every thread) and the copies' view of them.
    let (r_q, r_k, r_vt) = (
        mma_s.fragment_a(&s_q)?,
        mma_s.fragment_b(&s_k)?,
        mma_o.fragment_b(&smem_vt_plain()?)?,
    );
    let r_qr = copy_q.retile_d(&registers(&r_q)?)?;
    let r_vtr = copy_v.retile_d(&registers(&r_vt)?)?;
    // The S accumulator, its re-layout as the A operand of P·V, and its row-column view.
    let acc = mma_s.fragment_c()?;
    let p = acc_to_a_regs(&acc)?;
    let rowcol = acc_rowcol(&acc)?;
    let c = mma_s.c()?;
    let threads = mma_s.threads();
    let row_count = match rowcol.shape() {
        layout_typed::core_algebra::Tree::Tuple(v) if v.len() == 2 => {
            v[1].leaves().into_iter().product::<i64>()
        }
        _ => unreachable!("the row-column view has two modes"),
    };
    let col_count = checked(rowcol.size().checked_div(row_count))?;

    for t in 0..threads {
        let thread = |m: &Map| m.restrict_named(&[("thread", t)]);
        line(&mut out, &format!("tSsQ t={t}"), offsets(&thread(&ts_q)?)?);
        line(&mut out, &format!("tSsK t={t}"), offsets(&thread(&ts_k)?)?);
        line(
            &mut out,
            &format!("tOsVt t={t}"),
            offsets(&thread(&to_vt)?)?,
        );
        line(&mut out, &format!("tSrQ t={t}"), values(&r_q)?);
        line(&mut out, &format!("tSrK t={t}"), values(&r_k)?);
        line(&mut out, &format!("tOrVt t={t}"), values(&r_vt)?);
        line(&mut out, &format!("tSsQr t={t}"), offsets(&r_qr)?);
        line(&mut out, &format!("tOrVtr t={t}"), offsets(&r_vtr)?);
        line(&mut out, &format!("acc_s t={t}"), values(&acc)?);
        line(&mut out, &format!("tOrP t={t}"), values(&p)?);
        // Each row of the row-column view: the S row (M coordinate) of its accumulators.
        let mut rows = Vec::new();
        for r in 0..row_count {
            let mut row = None;
            for col in 0..col_count {
                let reg = rowcol.eval_index(checked(
                    col.checked_mul(row_count).and_then(|x| x.checked_add(r)),
                )?)?;
                let pos = c.eval_index(checked(
                    reg.checked_mul(threads).and_then(|x| x.checked_add(t)),
                )?)?;
                let m = checked(pos.checked_rem(BLOCK_M))?;
                if row.is_some_and(|x| x != m) {
                    rows.push("MIXED".to_string());
                    break;
                }
                row = Some(m);
            }
            rows.extend(row.map(|m| m.to_string()));
        }
        line(&mut out, &format!("rows t={t}"), rows);
    }
    Ok(out)
}

fn main() -> Result<(), Error> {
    print!("{}", layouts()?);
    Ok(())
}
