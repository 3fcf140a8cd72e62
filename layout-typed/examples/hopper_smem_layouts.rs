//! The shared-memory side of a Hopper GEMM, as CuTe's tutorial `hopper/wgmma_tma_sm90.cu`
//! (`gemm_tn`: 128×128×64 CTA tiles, 4 pipeline stages, `SM90_64x64x16_F16F16F16_SS<K,K>` on
//! one warpgroup, TMA loads) builds it, in fp16, for a problem whose M, N and K leave residue
//! tiles (M = 300, N = 260, K = 200, C's leading dimension 304).
//!
//! No thread-value layout is written out: the shared memory is the GMMA atom
//! `GMMA::Layout_K_SW128_Atom<half_t>` (`layout_typed::atoms`) tiled to (128, 64, 4) by the
//! algebra (CuTe's `tile_to_shape`: `repeat_modewise`, `repeat`, a regrouping, the atom's
//! swizzle); the tiled MMA comes from the `wgmma` atom (`mma::MmaAtom`, `mma::TiledMma`), whose
//! A and B the whole warpgroup reads from shared memory: `partition_a` is a read-only broadcast
//! of the storage, the same offsets for all 128 threads; the C tiles come from
//! `residue::ceil_divide` and the MMA's C layout, predicated; the TMA box of each (m, k) tile
//! starts at the tile's origin (`ResidueTiles::origin`). The only layouts written here are the
//! kernel's choices: the matrices' strides.
//!
//! `cargo run --example hopper_smem_layouts` prints the shared memory's offset at every flat
//! index (CuTe's order: m, k, stage), each thread's `wgmma` view of A over every stage (`same`
//! where it equals thread 0's), each thread's accumulator partition of the first and the last
//! (residue) C tile of each mode (`-` where the predicate is false) with its coordinates and
//! predicates, and the TMA box origins of A's first and last tiles. `tests/tests/kernel_examples.rs`
//! compares the output line by line with the same lines printed by CuTe C++
//! (`tests/cpp/hopper_smem.cpp`).

use layout_typed::atoms::{
    gmma_layout_k_sw128_atom_half_t as sw128, sm90_64x64x16_f16f16f16_ss_k_k as gmma,
};
use layout_typed::core_algebra::mma::{MmaAtom, TiledMma};
use layout_typed::core_algebra::residue::{Partition, ceil_divide};
use layout_typed::core_algebra::{
    Annotated, Error, Layout, Map, Space, flatten, group, repeat, repeat_modewise,
};

/// The problem: residues in every mode (M = 2·128 + 44, N = 2·128 + 4, K = 3·64 + 8), C's
/// leading dimension larger than M. Run-time values.
const M: i64 = 300;
const N: i64 = 260;
const K: i64 = 200;
const LDA: i64 = 208;
const LDC: i64 = 304;

/// The CTA tile and the pipeline (the kernel's static choices).
const BM: i64 = 128;
const BN: i64 = 128;
const BK: i64 = 64;
const STAGES: i64 = 4;

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

/// The shared memory of A (B's is the same, BN = BM): CuTe's
/// `tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(128, 64, 4))`. The atom is
/// 8×64 (M×K) K-major, `(64,8):(1,64)` in seed order over (K, M), under the 128-byte swizzle;
/// 16 copies of it along M (`repeat_modewise`), the 4 stages after them (`repeat`), regrouped
/// to the tensor's three modes `(stage, k, m)`, the atom's swizzle last (it acts on offset bits
/// inside one 1024-byte atom, so over the tiled offsets it is the atom's own).
///
/// # Errors
/// None for this atom; any rule of the algebra otherwise.
pub fn smem() -> Result<Map, Error> {
    let Map::Swizzled { swizzle, .. } = layout_typed::Layout::to_map(&sw128::ATOM)? else {
        unreachable!("the SW128 atom is a swizzled layout");
    };
    let atom = typed(&sw128::INNER)?;
    let tile = repeat_modewise(&atom, &"(1,16):(16,1)".parse()?)?;
    let stages = repeat(&tile, &layout(&format!("{STAGES}:1"))?)?;
    // (stage, ((1,64),(16,8))) -> (stage, k, m): the tensor's three modes at the top.
    let flat = flatten(&stages)?;
    let modes = group(&group(&flat, 1, 3)?, 2, 4)?;
    Map::from(Annotated::new(modes, Space::Logical, Space::Physical)?).swizzle(swizzle)
}

/// The tiled MMA: CuTe's `make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,
/// GMMA::Major::K>{})` (one warpgroup) over the 128×128×64 CTA tile. A and B are broadcasts
/// over the warpgroup's 128 threads.
///
/// # Errors
/// None for this atom.
pub fn tiled_mma() -> Result<TiledMma, Error> {
    let atom = MmaAtom::new(
        [64, 64, 16],
        typed(&gmma::A)?,
        typed(&gmma::B)?,
        typed(&gmma::C)?,
    )?;
    TiledMma::new(atom, [1, 1, 1], [BM, BN, BK])
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

/// Every flat index of a map, as numbers.
fn offsets(map: &Map) -> Result<Vec<i64>, Error> {
    (0..map.size()).map(|i| map.eval_index(i)).collect()
}

fn text(v: &[i64]) -> impl Iterator<Item = String> + '_ {
    v.iter().map(ToString::to_string)
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

/// One thread's `wgmma` view of A over every stage, from the per-stage partitions of
/// [`operand_views`]: CuTe's `thr_mma.partition_A(sA)`, `(MMA, MMA_M, MMA_K, PIPE)` with the
/// stage slowest, as offsets in elements.
///
/// # Errors
/// Any rule of the algebra that a layout breaks (none for this kernel).
pub fn operand_view(views: &[Map], t: i64) -> Result<Vec<i64>, Error> {
    let mut all = Vec::new();
    for view in views {
        all.extend(offsets(&view.restrict_named(&[("thread", t)])?)?);
    }
    Ok(all)
}

/// CuTe's `thr_mma.partition_A(sA)` for every thread at once, one map per stage: the domain
/// `(value, thread)`.
///
/// # Errors
/// Any rule of the algebra that a layout breaks (none for this kernel).
pub fn operand_views(mma: &TiledMma, smem: &Map) -> Result<Vec<Map>, Error> {
    (0..STAGES)
        .map(|p| mma.partition_a(&smem.restrict(&[(0, p)])?))
        .collect()
}

/// The kernel's layouts, printed as `tests/cpp/hopper_smem.cpp` prints CuTe's.
///
/// # Errors
/// Any rule of the algebra that a layout breaks (none for this kernel).
pub fn layouts() -> Result<String, Error> {
    let mut out = String::new();
    let s = smem()?;
    let mma = tiled_mma()?;

    // The shared memory at every flat index of CuTe's (m, k, stage).
    line(&mut out, "sA", text(&offsets(&s)?));

    // The wgmma operand view: the same for every thread of the warpgroup.
    let views = operand_views(&mma, &s)?;
    let first = operand_view(&views, 0)?;

    line(&mut out, "tCsA t=0", text(&first));
    for t in 1..mma.threads() {
        let v = operand_view(&views, t)?;
        if v == first {
            out.push_str(&format!("tCsA t={t} : same\n"));
        } else {
            line(&mut out, &format!("tCsA t={t}"), text(&v));
        }
    }

    // C (M-major, leading dimension LDC) and A (K-major) in CuTe order; the CTA tiles,
    // residues included, in seed order: (N, M) and (K, M).
    let m_c = layout(&format!("({M},{N}):(1,{LDC})"))?;
    let m_a = layout(&format!("({M},{K}):({LDA},1)"))?;
    let tiles_c = ceil_divide(&m_c, &[BN, BM])?;
    let tiles_a = ceil_divide(&m_a, &[BK, BM])?;
    let tv_c = mma
        .c()?
        .as_layout()
        .cloned()
        .expect("the tiled MMA's C layout is a plain layout");
    let part_c = tiles_c.partition(&tv_c)?;
    let last = |g: i64| g.saturating_sub(1);
    let grid_m = [0, last(tiles_c.grid()[1])];
    let grid_n = [0, last(tiles_c.grid()[0])];
    let grid_k = [0, last(tiles_a.grid()[0])];
    for &bm in &grid_m {
        for &bn in &grid_n {
            for t in 0..mma.threads() {
                let (gc, cc) = predicated(&part_c, &[bn, bm], t)?;
                line(&mut out, &format!("tCgC t={t} bm={bm} bn={bn}"), gc);
                line(&mut out, &format!("tCpC t={t} bm={bm} bn={bn}"), cc);
            }
            if bn == 0 {
                // The TMA box of tile (m, k) of A starts at the tile's origin.
                for &k in &grid_k {
                    let o = tiles_a.origin(&[k, bm])?;
                    out.push_str(&format!("boxA bm={bm} k={k} : {},{}\n", o[1], o[0]));
                }
            }
        }
    }
    Ok(out)
}

fn main() -> Result<(), Error> {
    print!("{}", layouts()?);
    Ok(())
}
