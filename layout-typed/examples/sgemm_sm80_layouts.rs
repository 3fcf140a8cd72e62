//! Every layout of CuTe's tutorial kernel `sgemm_sm80` (its `gemm_tn` in fp16: 128×128×64 CTA
//! tiles, 3 pipeline stages, `SM80_16x8x16_F16F16F16F16_TN` on 2×2 warps, 128-bit `cp.async`
//! copies, `ldmatrix` x4 into the MMA fragments, `Swizzle<3,3,3>` shared memory), built by the
//! algebra, for a problem whose M, N and K leave residue tiles (M = 300, N = 260, K = 200, with
//! run-time leading dimensions), with every access predicated.
//!
//! No thread-value layout is written out: each comes from an atom (`layout_typed::atoms`), a
//! constructor (`copy::TiledCopy`, `mma::TiledMma`, `TiledMma::copy_a/b`) or the algebra
//! (`repeat_modewise`, `repeat`, a swizzle, `residue::ceil_divide`). The only layouts written here
//! are what the kernel chooses: the matrices' strides, the thread and value arrangement of the
//! global-memory copy, and the shared-memory atom — as the CuTe kernel writes them.
//!
//! `cargo run --example sgemm_sm80_layouts` prints, for every thread, the offsets of each of the
//! kernel's partitions in CuTe's value order: the global-memory tiles of A, B and C (the first and
//! the last, residue, tile of each mode; `-` where the predicate is false), every stage of the
//! shared-memory copies, the `ldmatrix` sources, the register fragments and `retile`, and each
//! predicated coordinate with its predicate. `tests/tests/kernel_examples.rs` compares the output
//! line by line with the same lines printed by CuTe C++ (`tests/cpp/sgemm_sm80.cpp`).

use layout_typed::atoms::{sm75_u32x4_ldsm_n as ldsm, sm80_16x8x16_f16f16f16f16_tn as hmma};
use layout_typed::core_algebra::copy::TiledCopy;
use layout_typed::core_algebra::mma::{CopyAtom, MmaAtom, OperandCopy, TiledMma};
use layout_typed::core_algebra::residue::{Partition, ceil_divide};
use layout_typed::core_algebra::{
    Annotated, Error, Layout, Map, Space, Swizzle, SwizzleUnit, flatten, group, repeat,
    repeat_modewise,
};

/// The problem: residues in every mode (M = 2·128 + 44, N = 2·128 + 4, K = 3·64 + 8), leading
/// dimensions larger than the extents. These are run-time values.
const M: i64 = 300;
const N: i64 = 260;
const K: i64 = 200;
const LDA: i64 = 208;
const LDB: i64 = 216;
const LDC: i64 = 304;

/// The CTA tile and the pipeline (the kernel's static choices).
const BM: i64 = 128;
const BN: i64 = 128;
const BK: i64 = 64;
const STAGES: i64 = 3;

fn layout(cute: &str) -> Result<Layout, Error> {
    Layout::from_cute(cute)
}

fn typed<L: layout_typed::Layout>(l: &L) -> Result<Layout, Error> {
    // An atom constant is a plain layout: its map is `Map::Layout`.
    Ok(l.to_map()?
        .as_layout()
        .cloned()
        .expect("an atom constant is a plain layout"))
}

/// The shared memory of A (or B): CuTe's `tile_to_shape(Swizzle<3,3,3> o (8,(8,8)):(8,(1,64)),
/// (128, 64, 3))`. In seed order the atom is `((8,8),8):((64,1),8)` over (K, M); 16 copies of it
/// along M (`repeat_modewise`), 3 stages after them (`repeat`), regrouped to the tensor's three
/// modes `(stage, k, m)`, the swizzle last.
pub fn smem() -> Result<Map, Error> {
    let atom = layout("(8,(8,8)):(8,(1,64))")?;
    let tile = repeat_modewise(&atom, &"(1,16):(16,1)".parse()?)?;
    let stages = repeat(&tile, &Layout::from_cute(&format!("{STAGES}:1"))?)?;
    // (stage, ((1,(8,8)),(16,8))) -> (stage, k, m): the tensor's three modes at the top.
    let flat = flatten(&stages)?;
    let modes = group(&group(&flat, 1, 4)?, 2, 4)?;
    Map::from(Annotated::new(modes, Space::Logical, Space::Physical)?).swizzle(Swizzle::from_cute(
        3,
        3,
        3,
        SwizzleUnit::Elements,
    )?)
}

/// The 128-bit `cp.async` copy of a 128×64 K-major tile: CuTe's `make_tiled_copy(Copy_Atom<
/// SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>, Layout<Shape<_16,_8>,Stride<_8,_1>>,
/// Layout<Shape<_1,_8>>)`, 8 halves per vector.
pub fn gmem_copy() -> Result<TiledCopy, Error> {
    TiledCopy::new(&layout("(16,8):(8,1)")?, &layout("(1,8):(1,1)")?, 8)
}

/// The tiled MMA: CuTe's `make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{},
/// Tile<_32,_32,_16>{})` over the 128×128×64 CTA tile.
pub fn tiled_mma() -> Result<TiledMma, Error> {
    let atom = MmaAtom::new(
        [16, 8, 16],
        typed(&hmma::A)?,
        typed(&hmma::B)?,
        typed(&hmma::C)?,
    )?;
    TiledMma::new(atom, [2, 2, 1], [BM, BN, BK])?.with_permutation([32, 32, 16])
}

/// `Copy_Atom<SM75_U32x4_LDSM_N, half_t>` in 16-bit elements.
pub fn ldsm_atom() -> Result<CopyAtom, Error> {
    CopyAtom::new(typed(&ldsm::SRC_B16)?, typed(&ldsm::DST_B16)?)
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

/// One thread's predicated offsets and coordinates in a residue tile (seed tile index `tile`):
/// `-` where the predicate is false; coordinates printed in CuTe's order (reversed).
fn predicated(
    p: &Partition<'_>,
    tile: &[i64],
    t: i64,
) -> Result<(Vec<String>, Vec<String>), Error> {
    let mut offs = Vec::new();
    let mut coords = Vec::new();
    for v in 0..p.values() {
        offs.push(
            p.offset(tile, t, v)?
                .map_or_else(|| "-".to_string(), |o| o.to_string()),
        );
        let g = p.global(tile, t, v)?;
        let pred = p.predicate(tile, t, v)?;
        let cute: Vec<String> = g.iter().rev().map(ToString::to_string).collect();
        coords.push(format!("{},{}", cute.join(","), i64::from(pred)));
    }
    Ok((offs, coords))
}

/// A register fragment (value -> register) as a map into the registers, for `retile_d`.
fn registers(l: &Layout) -> Result<Map, Error> {
    Ok(Annotated::new(l.clone(), Space::Logical, Space::Physical)?.into())
}

/// The kernel's layouts, printed as `tests/cpp/sgemm_sm80.cpp` prints CuTe's.
///
/// # Errors
/// Any rule of the algebra that a layout breaks (none for this kernel).
pub fn layouts() -> Result<String, Error> {
    let mut out = String::new();
    // The matrices (run-time sizes and leading dimensions): A is M×K K-major, B N×K K-major,
    // C M×N M-major, in CuTe order.
    let m_a = layout(&format!("({M},{K}):({LDA},1)"))?;
    let m_b = layout(&format!("({N},{K}):({LDB},1)"))?;
    let m_c = layout(&format!("({M},{N}):(1,{LDC})"))?;
    // CTA tiles, residues included (seed order: (K, M), (K, N), (N, M)).
    let tiles_a = ceil_divide(&m_a, &[BK, BM])?;
    let tiles_b = ceil_divide(&m_b, &[BK, BN])?;
    let tiles_c = ceil_divide(&m_c, &[BN, BM])?;

    let copy = gmem_copy()?;
    let mma = tiled_mma()?;
    let ldsm = ldsm_atom()?;
    let (copy_a, copy_b): (OperandCopy, OperandCopy) = (mma.copy_a(&ldsm)?, mma.copy_b(&ldsm)?);
    let s = smem()?;
    // The predicated partitions of the CTA tiles: the copy's and the MMA's thread-value layouts
    // over the whole CTA tile.
    let tv_a = copy.tv_over(&[BK, BM])?;
    let tv_b = copy.tv_over(&[BK, BN])?;
    let tv_c = mma
        .c()?
        .as_layout()
        .cloned()
        .expect("the tiled MMA's C layout is a plain layout");
    let (part_a, part_b, part_c) = (
        tiles_a.partition(&tv_a)?,
        tiles_b.partition(&tv_b)?,
        tiles_c.partition(&tv_c)?,
    );
    // Every thread's copies into shared memory, each stage: entries (stage, rest_k, rest_m,
    // value, thread). B's shared memory and copy are A's (BN = BM), as in the CuTe kernel.
    let s_copy = copy.partition(&s)?;
    let grid_m = [0, tiles_a.grid()[1].saturating_sub(1)];
    let grid_n = [0, tiles_b.grid()[1].saturating_sub(1)];
    let grid_k = [0, tiles_a.grid()[0].saturating_sub(1)];

    // The register fragments of A and B (the same for every thread), from one stage.
    let stage0 = s.restrict(&[(0, 0)])?;
    let (frag_a, frag_b) = (mma.fragment_a(&stage0)?, mma.fragment_b(&stage0)?);
    for t in 0..mma.threads() {
        for p in 0..STAGES {
            let slice = format!(" p={p}");
            let thread_stage = s_copy.restrict(&[(0, p), (4, t)])?;
            let stage = s.restrict(&[(0, p)])?;
            let xs_a = copy_a
                .partition_s(&stage)?
                .restrict_named(&[("thread", t)])?;
            let xs_b = copy_b
                .partition_s(&stage)?
                .restrict_named(&[("thread", t)])?;
            line(
                &mut out,
                &format!("tAsA t={t}{slice}"),
                offsets(&thread_stage)?,
            );
            line(
                &mut out,
                &format!("tBsB t={t}{slice}"),
                offsets(&thread_stage)?,
            );
            line(&mut out, &format!("tXsA t={t}{slice}"), offsets(&xs_a)?);
            line(&mut out, &format!("tXsB t={t}{slice}"), offsets(&xs_b)?);
        }
        // The register fragments, in CuTe's register order (`partition_fragment_A/B`, CuTe's
        // `make_fragment_like`), and the ldmatrix copies' view of them (`retile_D`).
        let line_of = |l: &Layout| -> Result<Vec<String>, Error> {
            (0..l.size())
                .map(|i| l.eval_index(i).map(|r| r.to_string()))
                .collect()
        };
        line(&mut out, &format!("tCrA t={t}"), line_of(&frag_a)?);
        line(&mut out, &format!("tCrB t={t}"), line_of(&frag_b)?);
        line(
            &mut out,
            &format!("tXrA t={t}"),
            offsets(&copy_a.retile_d(&registers(&frag_a)?)?)?,
        );
        line(
            &mut out,
            &format!("tXrB t={t}"),
            offsets(&copy_b.retile_d(&registers(&frag_b)?)?)?,
        );

        for &bm in &grid_m {
            for &bn in &grid_n {
                for &k in &grid_k {
                    let slice = format!(" bm={bm} bn={bn} k={k}");
                    let (ga, ca) = predicated(&part_a, &[k, bm], t)?;
                    let (gb, cb) = predicated(&part_b, &[k, bn], t)?;
                    line(&mut out, &format!("tAgA t={t}{slice}"), ga);
                    line(&mut out, &format!("tBgB t={t}{slice}"), gb);
                    line(&mut out, &format!("tApA t={t}{slice}"), ca);
                    line(&mut out, &format!("tBpB t={t}{slice}"), cb);
                }
                let (gc, cc) = predicated(&part_c, &[bn, bm], t)?;
                line(&mut out, &format!("tCgC t={t} bm={bm} bn={bn}"), gc);
                line(&mut out, &format!("tCpC t={t} bm={bm} bn={bn}"), cc);
            }
        }
    }
    Ok(out)
}

fn main() -> Result<(), Error> {
    print!("{}", layouts()?);
    Ok(())
}
