//! The Hopper GEMM's header `gpu/gen/hopper_gemm.cuh`: the shared-memory rings, the `wgmma`
//! descriptors, the TMA boxes and swizzle, the accumulator fragment and the CTA order of the
//! TMA + `wgmma` kernel (`gpu/hopper/kernel.cuh`), every value read off layouts the algebra
//! builds and proven before it is emitted:
//!
//! - the rings: CuTe's `GMMA::Layout_K_SW128_Atom<half_t>` (`layout_typed::atoms`) tiled to
//!   (BM, BK, STAGES) for A and (BN, BK, STAGES) for B as CuTe's `tile_to_shape` does
//!   (`repeat_modewise`, `repeat`, a regrouping, the atom's swizzle); each stage is stage 0
//!   moved by a multiple of 1024 bytes, checked at every position;
//! - the descriptors: `layout_core::gmma::descriptor` of every operand sub-tile one `wgmma`
//!   reads (A: 64 rows of consumer `wg` × k-block `kb` of stage `s`; B: all BN rows × k-block
//!   `kb`), proven to be one descriptor plus `s·Δs + wg·Δw + kb·Δk` in the start field, and
//!   the start field proven never to carry for any 1024-aligned base that leaves the kernel's
//!   shared memory inside the SM's ([`SMEM_LIMIT`]): the emitted addition is not masked;
//! - the TMA boxes and swizzle: `layout_core::tma::tensor_map` of stage 0 of each ring, for
//!   global shapes with whole tiles, residues in every mode and padded leading dimensions, all
//!   the same;
//! - the accumulators: the C layout of `SM90_64x256x16_F32F16F16_SS`, emitted by
//!   `layout_core::cuda::per_thread_entry` as the row and the column of value `j` of thread
//!   `t`; the f16 atom's C layout proven the same map, and values `2i`, `2i + 1` of a thread
//!   proven to be `(m, n)`, `(m, n + 1)` (the f16 fragment's register `i`);
//! - the grouped CTA order over a 1-D grid and the k tiles: C text, the order proven to cover
//!   every C tile once for every tile grid up to 48 × 48.
//!
//! - the schedule ([`check_schedule`]): enough stages for the ring not to deadlock, and the
//!   `setmaxnreg` budgets the register file can grant.
//!
//! A failed proof is a [`GenError`] naming it: nothing unproven is emitted.

use layout_typed::atoms::{
    gmma_layout_k_sw128_atom_half_t as sw128, sm90_64x256x16_f16f16f16_ss_k_k as wgmma_f16,
    sm90_64x256x16_f32f16f16_ss_k_k as wgmma_f32,
};
use layout_typed::core_algebra::cuda::{self, Func, PerThread, Source};
use layout_typed::core_algebra::gmma::{self, Descriptor, SwizzleMode};
use layout_typed::core_algebra::tma::{TmaSwizzle, tensor_map};
use layout_typed::core_algebra::{
    Annotated, Error, Layout, Map, Space, compose, flatten, group, repeat, repeat_modewise,
};

/// The CTA tile's rows (M): `64 · CONSUMERS`.
pub const BM: i64 = 128;
/// The CTA tile's columns (N): the `wgmma` atom's N. Another N also changes the atoms imported
/// above and the `wgmma_m64n256k16_*` instructions of `gpu/hopper/instructions.cuh` and
/// `host_emulation.hpp` that `gpu/hopper/kernel.cuh` calls.
pub const BN: i64 = 256;
/// The CTA tile's depth (K) per stage: one 128-byte swizzled row of fp16, so one TMA box per
/// operand and stage and k-blocks one stride apart (at 128 the descriptors' proof fails).
pub const BK: i64 = 64;
/// Shared-memory stages of the ring.
pub const STAGES: i64 = 4;
/// Consumer warpgroups: consumer `w` computes rows `[64w, 64w + 64)` of the CTA tile.
pub const CONSUMERS: i64 = 2;
/// The grouped CTA order: M tiles per group.
pub const GROUP: i64 = 8;
/// The shared memory of one SM (bytes): the descriptors' start field is proven not to carry
/// for every 1024-aligned base with `base + HG_SMEM_BYTES` at most this.
pub const SMEM_LIMIT: i64 = 228 * 1024;
/// The most dynamic shared memory one block may ask for on sm_90 (bytes): the launch asks for
/// `HG_SMEM_BYTES + 1024` (the slack that aligns the base to 1024), proven to fit.
pub const BLOCK_SMEM_LIMIT: i64 = 227 * 1024;
/// Bytes of an element (fp16).
const ELEM: i64 = 2;
/// The `wgmma` atom: M×N×K.
const ATOM_M: i64 = 64;
const ATOM_K: i64 = 16;
/// Threads of a warpgroup.
const WARPGROUP: i64 = 128;
/// Bytes of one mbarrier.
const MBARRIER: i64 = 8;
/// The producer warpgroup's registers per thread after `setmaxnreg` (`HG_PRODUCER_REGS` of
/// `gpu/hopper/kernel.cuh`).
pub const PRODUCER_REGS: i64 = 40;
/// The consumer warpgroups' registers per thread after `setmaxnreg` (`HG_CONSUMER_REGS`).
pub const CONSUMER_REGS: i64 = 232;
/// Registers of an SM's register file: the kernel runs one CTA per SM.
const REGISTER_FILE: i64 = 65536;

/// What stops the generator: an error of the algebra, or one of the generator's own proofs
/// (what it proved, where it failed).
#[derive(Debug)]
pub enum GenError {
    /// An error of the algebra.
    Algebra(Error),
    /// A proof of the generator that failed.
    Check(String),
}

impl From<Error> for GenError {
    fn from(e: Error) -> Self {
        GenError::Algebra(e)
    }
}

impl std::fmt::Display for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenError::Algebra(e) => write!(f, "{e}"),
            GenError::Check(what) => write!(f, "the Hopper GEMM generator's proof failed: {what}"),
        }
    }
}

impl std::error::Error for GenError {}

fn fail(what: String) -> GenError {
    GenError::Check(what)
}

/// `cond`, or the failed proof `what`.
fn prove(cond: bool, what: impl FnOnce() -> String) -> Result<(), GenError> {
    if cond { Ok(()) } else { Err(fail(what())) }
}

fn plain<L: layout_typed::Layout>(l: &L) -> Result<Layout, GenError> {
    l.to_map()?
        .as_layout()
        .cloned()
        .ok_or_else(|| fail("a GMMA atom constant is not a plain layout".into()))
}

/// The ring of one operand: the SW128 K-major atom tiled to (`rows`, BK, STAGES) as CuTe's
/// `tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(rows, BK, STAGES))`: the atom
/// (8×64, M×K; seed `(64,8):(1,64)` over (K, M)) repeated along M (fastest) and K, the stages
/// after, regrouped to the domain `(stage, k, m)` (seed order, `m` fastest), the atom's swizzle
/// over the tiled offsets (it acts inside one 1024-byte atom). Offsets in elements from the
/// ring's start.
///
/// # Errors
/// The algebra's, or a configuration the atom does not tile.
pub fn ring(rows: i64) -> Result<Map, GenError> {
    let Map::Swizzled { swizzle, .. } = layout_typed::Layout::to_map(&sw128::ATOM)? else {
        return Err(fail("the SW128 atom is not a swizzled layout".into()));
    };
    let atom = plain(&sw128::INNER)?;
    let (atom_k, atom_m) = (64, 8);
    prove(
        atom.size() == atom_k * atom_m && rows % atom_m == 0 && BK % atom_k == 0,
        || format!("the 8×64 atom does not tile ({rows}, {BK})"),
    )?;
    let (rk, rm) = (BK / atom_k, rows / atom_m);
    let tile = repeat_modewise(&atom, &Layout::from_cute(&format!("({rm},{rk}):(1,{rm})"))?)?;
    let stages = repeat(&tile, &Layout::from_cute(&format!("{STAGES}:1"))?)?;
    // (stage, ((rk,64),(rm,8))) flattened -> (stage, k, m).
    let flat = flatten(&stages)?;
    let modes = group(&group(&flat, 1, 3)?, 2, 4)?;
    let map: Map = Annotated::new(modes, Space::Logical, Space::Physical)?.into();
    let sizes = map.domain_entry_sizes();
    prove(sizes == [STAGES, BK, rows], || {
        format!("the ring's entries are {sizes:?}, not (stage, k, m) = ({STAGES}, {BK}, {rows})")
    })?;
    Ok(map.swizzle(swizzle)?)
}

/// A ring's stage stride in bytes, proven: every stage is stage 0 moved by `stage · stride` at
/// every position, the stride a multiple of 1024 bytes (the SW128 swizzle's repeat, which TMA
/// and the descriptors need), stage 0 starting at offset 0, and the ring's offsets exactly
/// `[0, STAGES · stride)` (its extent in bytes is `STAGES · stride`).
fn stage_stride(name: &str, ring: &Map) -> Result<i64, GenError> {
    let stage0 = ring.restrict(&[(0, 0)])?;
    let per = stage0.size();
    let stride = if STAGES > 1 {
        ring.restrict(&[(0, 1)])?.offset_range()?.0 - stage0.offset_range()?.0
    } else {
        per
    };
    prove(stage0.offset_range()? == (0, per - 1), || {
        format!("{name}: stage 0's offsets are not [0, {per})")
    })?;
    for s in 0..STAGES {
        let st = ring.restrict(&[(0, s)])?;
        for i in 0..per {
            prove(
                st.eval_index(i)? == stage0.eval_index(i)? + s * stride,
                || {
                    format!(
                        "{name}: stage {s} is not stage 0 moved by {s}·{stride} at position {i}"
                    )
                },
            )?;
        }
    }
    let bytes = stride * ELEM;
    prove(bytes % 1024 == 0, || {
        format!("{name}: the stage stride {bytes} bytes is not a multiple of 1024")
    })?;
    prove(ring.offset_range()? == (0, STAGES * stride - 1), || {
        format!(
            "{name}: the ring's offsets are not [0, {})",
            STAGES * stride
        )
    })?;
    Ok(bytes)
}

/// The operand sub-tiles of one stage of a ring (`rows` × BK): the stage's `(k, m)` map composed
/// with the division into `(tile: (16, sub_rows), rest: (kb, block))`, `rest` at top-level entry
/// 1; restricting it to `kb · blocks + block` leaves the sub-tile of k-block `kb` and row block
/// `block`, its domain `(16, sub_rows)` (seed `(K, MN)`), offsets from the ring's start.
fn sub_tiles(ring: &Map, stage: i64, rows: i64, sub_rows: i64) -> Result<Map, GenError> {
    let st = ring.restrict(&[(0, stage)])?;
    let (kbs, blocks) = (BK / ATOM_K, rows / sub_rows);
    // (k', m') -> k·rows + m with k = 16·kb + k', m = sub_rows·block + m'.
    // Seed order: (tile: (k', m'), rest: (kb, block)), the last mode fastest.
    let divide: Layout = format!(
        "(({ATOM_K},{sub_rows}),({kbs},{blocks})):(({rows},1),({},{sub_rows}))",
        ATOM_K * rows
    )
    .parse()?;
    let right: Map = Annotated::new(divide, Space::Logical, Space::Logical)?.into();
    Ok(compose(&st, &right)?)
}

/// The descriptor of sub-tile (`kb`, `block`) of `stage`, the ring at `ring_start` bytes from a
/// base at shared-memory address `base`.
fn sub_descriptor(
    ring: &Map,
    rows: i64,
    sub_rows: i64,
    (stage, block, kb): (i64, i64, i64),
    start: i64,
) -> Result<Descriptor, GenError> {
    let blocks = rows / sub_rows;
    let tile = sub_tiles(ring, stage, rows, sub_rows)?.restrict(&[(1, kb * blocks + block)])?;
    let start = u32::try_from(start).map_err(|_| fail(format!("start {start} past u32")))?;
    Ok(gmma::descriptor(&tile, ELEM, gmma::Major::K, start)?)
}

/// The descriptors of one operand: every (stage, block, kb) at base 0, proven to be the
/// descriptor of (0, 0, 0) plus `stage·Δs + block·Δb + kb·Δk` bytes in the start field (every
/// other field equal), and at every 1024-aligned base up to `max_base` plus `base` more
/// (recomputed by `descriptor` at the smallest nonzero and the largest base), the start field
/// never past its 14 bits. Returns the 64-bit descriptor at base 0 of (0, 0, 0) and (Δs, Δb,
/// Δk) in 16-byte units.
fn descriptors(
    name: &str,
    ring: &Map,
    ring_start: i64,
    rows: i64,
    sub_rows: i64,
    max_base: i64,
) -> Result<(u64, [i64; 3]), GenError> {
    let blocks = rows / sub_rows;
    let kbs = BK / ATOM_K;
    let at =
        |c: (i64, i64, i64), base: i64| sub_descriptor(ring, rows, sub_rows, c, base + ring_start);
    let d0 = at((0, 0, 0), 0)?;
    let delta = |d: Descriptor| i64::from(d.start) - i64::from(d0.start);
    let deltas = [
        if STAGES > 1 {
            delta(at((1, 0, 0), 0)?)
        } else {
            0
        },
        if blocks > 1 {
            delta(at((0, 1, 0), 0)?)
        } else {
            0
        },
        if kbs > 1 { delta(at((0, 0, 1), 0)?) } else { 0 },
    ];
    prove(deltas.iter().all(|d| d % 16 == 0), || {
        format!("{name}: the start deltas {deltas:?} are not multiples of 16 bytes")
    })?;
    let bits0 = d0.encode()?;
    let field = i64::from(d0.start) >> 4;
    let mut largest = 0;
    let bases: Vec<i64> = [0, 1024, max_base]
        .into_iter()
        .filter(|&b| b <= max_base)
        .collect();
    for s in 0..STAGES {
        for b in 0..blocks {
            for kb in 0..kbs {
                let add = s * deltas[0] + b * deltas[1] + kb * deltas[2];
                largest = largest.max(add);
                for &base in &bases {
                    let d = at((s, b, kb), base)?;
                    let want = Descriptor {
                        start: d0.start + u32::try_from(base + add).unwrap_or(u32::MAX),
                        ..d0
                    };
                    prove(d == want, || {
                        format!(
                            "{name}: the descriptor of stage {s}, block {b}, k-block {kb} at base {base} is {d:?}, not the first one plus {base} + {add} bytes"
                        )
                    })?;
                    let formula = bits0 + u64::try_from((base + add) >> 4).unwrap_or(u64::MAX);
                    prove(d.encode()? == formula, || {
                        format!(
                            "{name}: the encoded descriptor of stage {s}, block {b}, k-block {kb} at base {base} is not the first one's plus the start"
                        )
                    })?;
                }
            }
        }
    }
    // No carry out of the start field: at every aligned base, the largest start fits 14 bits.
    let mut base = 0;
    while base <= max_base {
        let top = field + ((base + largest) >> 4);
        prove(top < 1 << 14, || {
            format!("{name}: the start field {top} at base {base} carries out of 14 bits")
        })?;
        base += 1024;
    }
    Ok((bits0, deltas.map(|d| d >> 4)))
}

/// The TMA tensor map of one stage of a ring, for several global shapes (`rows` the ring's
/// M or N): (MN extent, K, leading dimension) with whole tiles, residues in MN and K, and a
/// leading dimension past K; all must give the same box and swizzle. Returns the box (CUDA
/// order: K, then MN) and the swizzle.
fn tma(name: &str, ring: &Map, rows: i64) -> Result<([i64; 2], TmaSwizzle), GenError> {
    let stage0 = ring.restrict(&[(0, 0)])?;
    let shapes = [
        (2 * rows, 2 * BK, 2 * BK),
        (2 * rows + 44, 3 * BK + 8, 3 * BK + 16),
        (4096, 4096, 4096),
        (rows + 1, BK + 8, 8192),
        (7, 8, 8),
    ];
    let mut found: Option<([i64; 2], TmaSwizzle)> = None;
    for (mn, k, ld) in shapes {
        // CuTe (MN, K):(ld, 1): seed (K, MN):(1, ld).
        let global = Layout::from_cute(&format!("({mn},{k}):({ld},1)"))?;
        let t = tensor_map(&global, &stage0, ELEM)?;
        prove(
            t.global_dims == [k, mn] && t.global_strides == [ld * ELEM] && t.modes == [0, 1],
            || {
                format!(
                    "{name}: the tensor map of ({mn}, {k}) ld {ld} has dims {:?}",
                    t.global_dims
                )
            },
        )?;
        let got = ([t.box_dims[0], t.box_dims[1]], t.swizzle);
        prove(found.is_none_or(|f| f == got), || {
            format!(
                "{name}: the box or swizzle of ({mn}, {k}) ld {ld} differs: {got:?} vs {found:?}"
            )
        })?;
        found = Some(got);
    }
    let (b, sw) = found.ok_or_else(|| fail(format!("{name}: no tensor map")))?;
    prove(b == [BK, rows], || {
        format!("{name}: the box {b:?} is not the stage ({BK}, {rows})")
    })?;
    Ok((b, sw))
}

/// `CUtensorMapSwizzle`'s value of a swizzle.
fn cu_swizzle(s: TmaSwizzle) -> u32 {
    match s {
        TmaSwizzle::None => 0,
        TmaSwizzle::B32 => 1,
        TmaSwizzle::B64 => 2,
        TmaSwizzle::B128 => 3,
    }
}

/// A function's text with the interface's qualifier `HG_FN`, after a comment with its doc,
/// cost and `(div, mod)` counts.
fn hg_fn(f: &Func) -> Result<String, GenError> {
    const QUALIFIERS: &str = "__host__ __device__ __forceinline__ ";
    let body = f.c.strip_prefix(QUALIFIERS).ok_or_else(|| {
        fail(format!(
            "{}: not a function of layout_core::cuda::func",
            f.name
        ))
    })?;
    Ok(format!(
        "// {}: cost {} (div, mod) = {:?}\nHG_FN {}",
        f.doc,
        f.program.cost(),
        f.program.div_mod(),
        body.trim_end()
    ))
}

/// An annotated logical -> physical map of a CuTe layout.
fn map_of(cute: &str) -> Result<Map, GenError> {
    Ok(Annotated::new(Layout::from_cute(cute)?, Space::Logical, Space::Physical)?.into())
}

/// The accumulators: the row (`m`) and the column (`n`) of value `j` of thread `t` in the
/// consumer's 64×BN tile, from the C layout of the f32 `wgmma` atom (domain `(value, thread)`,
/// into `m + 64·n`), emitted with the thread first. Proves: the f16 atom's C layout is the
/// same map, values `2i` and `2i + 1` of a thread are `(m, n)` and `(m, n + 1)`, and the map
/// is a bijection onto the 64×BN tile. Returns the two functions and the values per thread.
fn accumulators() -> Result<(Func, Func, i64), GenError> {
    let c32 = layout_typed::Layout::to_map(&wgmma_f32::C)?;
    let c16 = layout_typed::Layout::to_map(&wgmma_f16::C)?;
    prove(
        c32.size() == ATOM_M * BN && c16.size() == c32.size(),
        || {
            format!(
                "the C layouts' sizes {} and {} are not 64·{BN}",
                c32.size(),
                c16.size()
            )
        },
    )?;
    for i in 0..c32.size() {
        prove(c32.eval_index(i)? == c16.eval_index(i)?, || {
            format!("the f16 and f32 wgmma C layouts differ at index {i}")
        })?;
    }
    let sizes = c32.domain_entry_sizes();
    prove(sizes.len() == 2 && sizes[1] == WARPGROUP, || {
        format!("the C layout's entries {sizes:?} are not (value, 128 threads)")
    })?;
    let values = sizes[0];
    // The tile (M, N) = (64, BN), CuTe order: index m + 64·n.
    let m_of = compose(&map_of(&format!("({ATOM_M},{BN}):(1,0)"))?, &c32)?;
    let n_of = compose(&map_of(&format!("({ATOM_M},{BN}):(0,1)"))?, &c32)?;
    let mut seen = vec![false; usize::try_from(c32.size()).unwrap_or(0)];
    for t in 0..WARPGROUP {
        for j in 0..values {
            // Seed (value, thread): flat index j·128 + t, CuTe's t + 128·j.
            let i = j * WARPGROUP + t;
            let (m, n) = (m_of.eval_index(i)?, n_of.eval_index(i)?);
            prove(c32.eval_index(i)? == m + ATOM_M * n, || {
                format!("thread {t} value {j}: the row and column do not give the C offset")
            })?;
            let slot = usize::try_from(m + ATOM_M * n).unwrap_or(usize::MAX);
            prove(slot < seen.len() && !seen[slot], || {
                format!("thread {t} value {j}: ({m}, {n}) is outside the tile or taken twice")
            })?;
            seen[slot] = true;
            if j % 2 == 1 {
                let (pm, pn) = (
                    m_of.eval_index(i - WARPGROUP)?,
                    n_of.eval_index(i - WARPGROUP)?,
                );
                prove((m, n) == (pm, pn + 1), || {
                    format!(
                        "thread {t}: values {} and {j} are ({pm}, {pn}) and ({m}, {n}), not one f16x2 register's pair",
                        j - 1
                    )
                })?;
            }
        }
    }
    let full = |name: &str, doc: &str, map: &Map| -> Result<Func, GenError> {
        match cuda::per_thread_entry(name, doc, map, 1, &["t", "j"])? {
            PerThread::Uniform { full, .. }
            | PerThread::Xor { full, .. }
            | PerThread::Written { full } => Ok(full),
        }
    };
    let fm = full(
        "hg_acc_m",
        "The row m of value j of consumer thread t in the wgmma m64n256k16 D fragment",
        &m_of,
    )?;
    let fn_ = full(
        "hg_acc_n",
        "The column n of value j of consumer thread t in the wgmma m64n256k16 D fragment",
        &n_of,
    )?;
    Ok((fm, fn_, values))
}

/// The grouped CTA order over a 1-D grid of `tm · tn` blocks (`tm`, `tn` the M and N tiles):
/// block `x` is in group `y = x / (GROUP·tn)` of the M tiles `[GROUP·y, GROUP·y + size)`,
/// `size = min(GROUP, tm − GROUP·y)`; inside it, position `r = x % (GROUP·tn)` takes M tile
/// `GROUP·y + r % size` and N tile `r / size`: `size` M tiles of one N tile, then the next N
/// tile. The model of the emitted C text.
fn cta(x: i64, tm: i64, tn: i64) -> (i64, i64) {
    let per = GROUP * tn;
    let (y, r) = (x / per, x % per);
    let first = GROUP * y;
    let size = GROUP.min(tm - first);
    (first + r % size, r / size)
}

/// The CTA order's proof: for every tile grid up to 48 × 48 (M tiles up to `2·GROUP + 1` if
/// that is more: two whole groups and a short one), the `tm · tn` blocks take every C tile
/// exactly once.
fn prove_cta_order() -> Result<(), GenError> {
    for tm in 1..=48.max(2 * GROUP + 1) {
        for tn in 1..=48 {
            let mut seen = vec![0u8; usize::try_from(tm * tn).unwrap_or(0)];
            for x in 0..tm * tn {
                let (m, n) = cta(x, tm, tn);
                prove((0..tm).contains(&m) && (0..tn).contains(&n), || {
                    format!("CTA order {tm}×{tn}: block {x} takes tile ({m}, {n}), outside")
                })?;
                seen[usize::try_from(m + tm * n).unwrap_or(0)] += 1;
            }
            prove(seen.iter().all(|&c| c == 1), || {
                format!("CTA order {tm}×{tn}: a tile is not taken exactly once")
            })?;
        }
    }
    Ok(())
}

/// The kernel's schedule, which no layout proof covers: `stages` of the ring, `group` M tiles
/// per group of the CTA order, `consumers` warpgroups, the registers per thread the producer
/// and the consumers move to with `setmaxnreg`.
///
/// - At least 2 stages: a consumer releases the stage of k tile `kt − 1` only after waiting
///   for k tile `kt` (one wgmma group stays in flight), so with one stage the producer waits for
///   a release that needs its own next load: a deadlock from the second k tile on.
/// - At least one M tile per group.
/// - The registers: `__launch_bounds__(threads, 1)` gives each thread `r0 = ⌊65536 / threads⌋`
///   rounded down to a multiple of 8 (at most 248) at entry; `setmaxnreg.dec` may only lower a
///   budget and `.inc` only raise it (producer ≤ r0 ≤ consumer), and `.inc` waits until the
///   registers the producer released cover the consumers' increase: otherwise the consumers
///   wait forever.
///
/// # Errors
/// The first requirement broken, named.
pub fn check_schedule(
    stages: i64,
    group: i64,
    consumers: i64,
    producer_regs: i64,
    consumer_regs: i64,
) -> Result<(), GenError> {
    prove(stages >= 2, || {
        format!(
            "STAGES = {stages}: a consumer releases a stage one k tile late, so the producer \
             needs at least 2 stages not to wait for its own next load"
        )
    })?;
    prove(group >= 1, || {
        format!("GROUP = {group}: a group needs an M tile")
    })?;
    prove(consumers >= 1, || format!("CONSUMERS = {consumers}"))?;
    let threads = WARPGROUP * (1 + consumers);
    let entry = (REGISTER_FILE / threads / 8 * 8).min(248);
    prove(producer_regs <= entry && entry <= consumer_regs, || {
        format!(
            "setmaxnreg: {threads} threads enter with {entry} registers each, which the \
                 producer's {producer_regs} must not exceed and the consumers' {consumer_regs} \
                 must not be below"
        )
    })?;
    let released = WARPGROUP * (entry - producer_regs);
    let wanted = WARPGROUP * consumers * (consumer_regs - entry);
    prove(wanted <= released, || {
        format!(
            "setmaxnreg: the consumers' {consumers} warpgroups need {wanted} more registers \
             than the {threads} threads' {entry} each, the producer releases {released}: \
             setmaxnreg.inc waits forever"
        )
    })
}

/// The text of `gpu/gen/hopper_gemm.cuh`.
///
/// # Errors
/// Any error of the algebra, or a proof of the generator that fails (named).
#[allow(clippy::too_many_lines)]
pub fn header() -> Result<String, GenError> {
    check_schedule(STAGES, GROUP, CONSUMERS, PRODUCER_REGS, CONSUMER_REGS)?;
    prove(CONSUMERS * ATOM_M == BM, || {
        format!("{CONSUMERS} consumers of {ATOM_M} rows do not cover BM = {BM}")
    })?;
    prove(BK % ATOM_K == 0, || {
        format!("BK = {BK} is not a multiple of {ATOM_K}")
    })?;
    let (ring_a, ring_b) = (ring(BM)?, ring(BN)?);
    let (stride_a, stride_b) = (
        stage_stride("A's ring", &ring_a)?,
        stage_stride("B's ring", &ring_b)?,
    );
    let smem_a = 0;
    let smem_b = smem_a + STAGES * stride_a;
    let smem_bar = smem_b + STAGES * stride_b;
    let smem_bytes = smem_bar + 2 * STAGES * MBARRIER;
    prove(smem_b % 1024 == 0 && smem_bar % MBARRIER == 0, || {
        format!(
            "B's ring at {smem_b} is not 1024-aligned or the mbarriers at {smem_bar} not 8-aligned"
        )
    })?;
    prove(smem_bytes <= SMEM_LIMIT, || {
        format!("{smem_bytes} bytes of shared memory past the SM's {SMEM_LIMIT}")
    })?;
    prove(smem_bytes + 1024 <= BLOCK_SMEM_LIMIT, || {
        format!(
            "{smem_bytes} bytes of shared memory and 1024 of alignment slack past a block's {BLOCK_SMEM_LIMIT}"
        )
    })?;
    // The largest 1024-aligned base that leaves the whole buffer inside the SM's memory.
    let max_base = (SMEM_LIMIT - smem_bytes) / 1024 * 1024;
    let (desc_a, da) = descriptors("A", &ring_a, smem_a, BM, ATOM_M, max_base)?;
    let (desc_b, db) = descriptors("B", &ring_b, smem_b, BN, BN, max_base)?;
    let mode = SwizzleMode::B128;
    let (fa, fb) = (Descriptor::from_u64(desc_a), Descriptor::from_u64(desc_b));
    prove(
        fa.swizzle == mode
            && fb.swizzle == mode
            && (fa.leading_byte_offset, fa.stride_byte_offset)
                == (fb.leading_byte_offset, fb.stride_byte_offset),
        || format!("the descriptors {fa:?} and {fb:?} differ in more than the start"),
    )?;
    let (box_a, sw_a) = tma("A", &ring_a, BM)?;
    let (box_b, sw_b) = tma("B", &ring_b, BN)?;
    prove(sw_a == sw_b && sw_a == TmaSwizzle::B128, || {
        format!("the TMA swizzles {sw_a:?} and {sw_b:?} are not both the 128-byte swizzle")
    })?;
    let stage_tx = (box_a[0] * box_a[1] + box_b[0] * box_b[1]) * ELEM;
    prove(stage_tx == stride_a + stride_b, || {
        format!(
            "one stage's TMA bytes {stage_tx} are not the stages' {}",
            stride_a + stride_b
        )
    })?;
    let (acc_m, acc_n, acc) = accumulators()?;
    prove(acc == ATOM_M * BN / WARPGROUP, || {
        format!("{acc} accumulator values per thread")
    })?;
    prove_cta_order()?;

    let mut src = Source::new(
        "`cargo run -p layout-typed --example gen_cuda` (layout-typed/examples/gen_cuda/hopper.rs): never edit by hand.",
        "The shared-memory layout, wgmma descriptors, TMA boxes, accumulator fragment and CTA\n\
         order of the Hopper GEMM (gpu/hopper/kernel.cuh), read off layouts the algebra builds\n\
         and proven by the generator. Units: elements unless \"bytes\". HG_FN is defined by\n\
         gpu/hopper/instructions.cuh before this header is included.",
    );
    let mut c = String::new();
    let mut line = |s: &str| {
        c.push_str(s);
        c.push('\n');
    };
    line(
        "#ifndef HG_FN\n#error \"define HG_FN (gpu/hopper/instructions.cuh) before including hopper_gemm.cuh\"\n#endif",
    );
    line(&format!(
        "#define HG_BM {BM}\n#define HG_BN {BN}\n#define HG_BK {BK}\n#define HG_STAGES {STAGES}\n\
         #define HG_CONSUMERS {CONSUMERS}          // consumer warpgroups\n\
         #define HG_THREADS {}          // 128 * (1 + HG_CONSUMERS)\n\
         #define HG_KBLOCKS {}            // wgmma k-blocks ({ATOM_K}) per k tile\n\
         #define HG_ACC {acc}              // accumulator values per consumer thread (64·BN/128)\n\
         #define HG_GROUP {GROUP}              // grouped CTA order: M tiles per group",
        WARPGROUP * (1 + CONSUMERS),
        BK / ATOM_K
    ));
    line(&format!(
        "// Shared memory from the 1024-aligned base (bytes): each operand's ring is the GMMA atom\n\
         // Layout_K_SW128_Atom<half_t> tiled to (rows, BK, STAGES); every stage starts 1024-aligned.\n\
         #define HG_SMEM_A {smem_a}             // A's ring\n\
         #define HG_SMEM_B {smem_b}         // B's ring\n\
         #define HG_SMEM_BAR {smem_bar}      // full[STAGES], then empty[STAGES], 8 bytes each\n\
         #define HG_SMEM_BYTES {smem_bytes}    // bytes used from the aligned base\n\
         #define HG_STAGE_TX {stage_tx}       // bytes one stage's two TMA loads write (expect_tx)"
    ));
    line(&format!(
        "// The TMA boxes (CUDA order: K innermost, then M or N) and the swizzle (CUtensorMapSwizzle)\n\
         // of tensor_map(one stage of each ring), the same for every global shape checked.\n\
         #define HG_TMA_A_BOX0 {}\n#define HG_TMA_A_BOX1 {}\n#define HG_TMA_B_BOX0 {}\n#define HG_TMA_B_BOX1 {}\n\
         #define HG_TMA_SWIZZLE {}        // 3 = CU_TENSOR_MAP_SWIZZLE_128B\n",
        box_a[0],
        box_a[1],
        box_b[0],
        box_b[1],
        cu_swizzle(sw_a)
    ));
    line(&format!(
        "// A's stage start from the base (bytes): the TMA destination of stage `stage`.\n\
         HG_FN uint32_t hg_s_a(uint32_t stage) {{ return {smem_a}u + {stride_a}u * stage; }}\n\
         // B's stage start from the base (bytes).\n\
         HG_FN uint32_t hg_s_b(uint32_t stage) {{ return {smem_b}u + {stride_b}u * stage; }}\n"
    ));
    line(&format!(
        "// wgmma shared-memory descriptors (64-bit, PTX \"matrix descriptor\": K-major, {mode},\n\
         // LBO {lbo}, SBO {sbo}), layout_core::gmma::descriptor of each sub-tile: the first one plus the\n\
         // sub-tile's start in the 14-bit start field (16-byte units). `base` is the shared-window\n\
         // address of the 1024-aligned dynamic shared memory (bytes): for every such base with\n\
         // base + HG_SMEM_BYTES <= {SMEM_LIMIT} the generator proved that the field never carries, so the\n\
         // addition is not masked.\n\
         // A's 64×16 sub-tile: rows [64·wg, 64·wg + 64) of stage `stage`, k-block `kb`.\n\
         HG_FN uint64_t hg_desc_a(uint32_t base, uint32_t stage, uint32_t wg, uint32_t kb) {{\n    \
         return 0x{desc_a:016x}ull + (uint64_t)((base >> 4) + {}u * stage + {}u * wg + {}u * kb);\n}}\n\
         // B's {BN}×16 sub-tile: every row of stage `stage`, k-block `kb`.\n\
         HG_FN uint64_t hg_desc_b(uint32_t base, uint32_t stage, uint32_t kb) {{\n    \
         return 0x{desc_b:016x}ull + (uint64_t)((base >> 4) + {}u * stage + {}u * kb);\n}}\n",
        da[0],
        da[1],
        da[2],
        db[0],
        db[2],
        lbo = Descriptor::from_u64(desc_a).leading_byte_offset,
        sbo = Descriptor::from_u64(desc_a).stride_byte_offset,
    ));
    line(
        "// The wgmma m64n256k16 D fragment: value j (0..HG_ACC) of thread t (0..127 of the consumer\n\
         // warpgroup) is the element (hg_acc_m, hg_acc_n) of the warpgroup's 64×256 tile. The f16 D\n\
         // fragment packs values 2i, 2i+1 in register i (low half first): the generator proved that\n\
         // they are (m, n) and (m, n + 1), the f16 atom's C layout the f32 atom's.",
    );
    line(&hg_fn(&acc_m)?);
    line(&hg_fn(&acc_n)?);
    line(&format!(
        "// The grouped CTA order over a 1-D grid of hg_grid_x(M, N) blocks (blockIdx.x = x): groups of\n\
         // HG_GROUP M tiles (the last one smaller), each taking its M tiles of one N tile, then the next\n\
         // N tile; every C tile exactly once (proven for every tile grid up to 48×48).\n\
         HG_FN uint32_t hg_grid_x(uint32_t M, uint32_t N) {{\n    \
         return (M / {BM}u + (M % {BM}u != 0)) * (N / {BN}u + (N % {BN}u != 0));\n}}\n\
         // The CTA's M tile (units of BM).\n\
         HG_FN uint32_t hg_cta_m(uint32_t x, uint32_t M, uint32_t N) {{\n    \
         const uint32_t tm = M / {BM}u + (M % {BM}u != 0), tn = N / {BN}u + (N % {BN}u != 0);\n    \
         const uint32_t first = {GROUP}u * (x / ({GROUP}u * tn)), rest = tm - first;\n    \
         const uint32_t size = rest < {GROUP}u ? rest : {GROUP}u;\n    \
         return first + (x % ({GROUP}u * tn)) % size;\n}}\n\
         // The CTA's N tile (units of BN).\n\
         HG_FN uint32_t hg_cta_n(uint32_t x, uint32_t M, uint32_t N) {{\n    \
         const uint32_t tm = M / {BM}u + (M % {BM}u != 0), tn = N / {BN}u + (N % {BN}u != 0);\n    \
         const uint32_t first = {GROUP}u * (x / ({GROUP}u * tn)), rest = tm - first;\n    \
         const uint32_t size = rest < {GROUP}u ? rest : {GROUP}u;\n    \
         return (x % ({GROUP}u * tn)) / size;\n}}\n\
         // The k tiles of K: ceil(K / BK), residue included.\n\
         HG_FN uint32_t hg_k_tiles(uint32_t K) {{ return K / {BK}u + (K % {BK}u != 0); }}"
    ));
    src.add_c(&c);
    Ok(src.text())
}
