//! The GEMM's address functions: every global and shared-memory address, predicate, and
//! register index that `gpu/gemm/kernel.cuh` uses, emitted from the layouts of CuTe's
//! `sgemm_sm80` `gemm_tn` kernel as the algebra builds them (`sgemm_sm80_layouts.rs`: the
//! 128-bit `cp.async` tiled copy, the `Swizzle<3,3,3>` 3-stage shared memory, the tiled MMA
//! `SM80_16x8x16` on 2×2 warps with the 32×32×16 permutation, the `ldmatrix` x4 operand copies
//! and the register fragments), with residue tiles in M, N and K and run-time leading
//! dimensions.
//!
//! Every function is either a program that `layout_core::emit` decided from a map, rendered in
//! `uint32_t` after the range check of `int32_t` (`layout_core::cuda::func`), or a residue
//! coordinate program (`residue::Partition::to_c`, range-checked in `uint32_t`); `gemm_k_tiles`
//! and the `gemm_*_offset` functions (whose `int32_t` range the host checks) are C text written
//! here. Where the kernel combines two functions (a thread's part and the
//! rest, XOR for the swizzled shared memory; a stage's offset added), the generator checks the
//! combination against the algebra's map at every coordinate before it emits it; where the
//! kernel moves 16-byte vectors it checks at every coordinate that the vector's elements are
//! contiguous and aligned. A failed check is an error naming the function: nothing unproven is
//! emitted.

use layout_typed::core_algebra::cuda::{self, Along, Func, Major, Part, Source};
use layout_typed::core_algebra::mma::TiledMma;
use layout_typed::core_algebra::residue::{Partition, ceil_divide};
use layout_typed::core_algebra::{
    self as lc, Annotated, Error, IntType, Layout, Map, Space, Tree, compose,
};

#[path = "../sgemm_sm80_layouts.rs"]
#[allow(dead_code)]
pub mod sgemm;

/// The CTA tile (M, N, K) and the pipeline depth: CuTe's `gemm_tn` configuration. The layouts
/// come from `sgemm_sm80_layouts.rs`, which has its own copies of these four constants: change
/// both (docs/gpu.md, "Changing the configuration").
pub const BM: i64 = 128;
/// See [`BM`].
pub const BN: i64 = 128;
/// See [`BM`].
pub const BK: i64 = 64;
/// Shared-memory stages.
pub const STAGES: i64 = 3;
/// The largest M, N and K the functions are range-checked for (the host refuses larger).
pub const MAX_EXTENT: i64 = 1 << 16;
/// The grouped CTA order: `GROUP` M tiles of one N tile, then the next N tile (see
/// [`raster`]).
pub const GROUP: i64 = 8;

/// What the generator writes: the functions (for the CI test) and the header.
#[derive(Clone, Debug)]
pub struct Gemm {
    /// Every emitted layout program, in order (`layout_core::cuda::func`).
    pub funcs: Vec<Func>,
    /// The residue partitions' emitted C (coordinates and predicates), in order.
    pub residue_c: String,
    /// The header: `layout_core::cuda::Source`.
    pub source: Source,
}

/// Appends a formatted line of C to the header.
macro_rules! cline {
    ($g:expr, $($t:tt)*) => {
        $g.c(&format!("{}\n", format_args!($($t)*)))
    };
}

/// What stops the generator: an error of the algebra, or one of the generator's own checks
/// (what it checked, where).
#[derive(Debug)]
pub enum GenError {
    /// An error of the algebra.
    Algebra(Error),
    /// A check of the generator that failed.
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
            GenError::Check(what) => write!(f, "the GEMM generator's check failed: {what}"),
        }
    }
}

impl std::error::Error for GenError {}

fn fail(what: &str) -> GenError {
    GenError::Check(what.to_string())
}

impl Gemm {
    /// Decides and emits `map` (`layout_core::emit`, by top-level entry) as the function
    /// `name` of `names` (`layout_core::cuda::func`: range-checked in `int32_t`, rendered in
    /// `uint32_t`) and adds it to the header.
    fn emit(&mut self, name: &str, doc: &str, map: &Map, names: &[&str]) -> Result<(), GenError> {
        self.add(cuda::func(name, doc, lc::emit(map, true)?.program, names)?);
        Ok(())
    }

    /// Adds an emitted function to the header.
    fn add(&mut self, mut f: Func) {
        // A coordinate the function does not read (a broadcast mode) is marked used, so that the
        // header compiles under `-Wunused-parameter`.
        if let Some(open) = f.c.find("{\n") {
            let body = f.c[open..].to_string();
            let unused: String = f
                .program
                .names
                .iter()
                .filter(|n| !reads_name(&body, n))
                .map(|n| format!("    (void){n};\n"))
                .collect();
            f.c.insert_str(open + 2, &unused);
        }
        self.source.add_func(&f);
        self.funcs.push(f);
    }

    /// Adds C text (constants, the residue functions) to the header as it is.
    fn c(&mut self, text: &str) {
        self.source.add_c(text);
    }
}

/// Whether the C text `body` reads the identifier `name` (as a whole word).
fn reads_name(body: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    body.match_indices(name).any(|(i, _)| {
        let before = body[..i].chars().next_back().is_none_or(|c| !ident(c));
        let after = body[i + name.len()..]
            .chars()
            .next()
            .is_none_or(|c| !ident(c));
        before && after
    })
}

fn flat(sizes: &[i64], c: &[i64]) -> i64 {
    sizes.iter().zip(c).fold(0, |a, (n, x)| a * n + x)
}

/// `map` restricted at every top-level entry except those in `keep` (to 0).
fn keep(map: &Map, keep: &[usize]) -> Result<Map, GenError> {
    let n = map.domain_entry_sizes().len();
    let fixed: Vec<(usize, i64)> = (0..n)
        .filter(|e| !keep.contains(e))
        .map(|e| (e, 0))
        .collect();
    if fixed.is_empty() {
        Ok(map.clone())
    } else {
        Ok(map.restrict(&fixed)?)
    }
}

/// `layout_core::cuda::split`, its functions added to the header.
fn split(
    g: &mut Gemm,
    name: &str,
    doc: &str,
    map: &Map,
    parts: &[(Part, &str)],
) -> Result<(), GenError> {
    for f in cuda::split(name, doc, map, parts)?.funcs() {
        g.add(f.clone());
    }
    Ok(())
}

/// The 16-bit elements of a register fragment, read as 32-bit registers: `h ↦ h / 2`, a
/// layout with a broadcast mode (two halves share a register).
fn words(halves: i64) -> Result<Map, GenError> {
    Ok(Annotated::new(
        Layout::from_cute(&format!("(2,{}):(0,1)", halves / 2))?,
        Space::Logical,
        Space::Physical,
    )?
    .into())
}

/// `fragment ∘ values`, read as 32-bit registers: `values` is a thread-value -> logical layout
/// whose last top-level entry (size 2) is the pair of values one register holds; checked at
/// every coordinate (the pair's values are the low and high half of one register), then that
/// entry is fixed to 0.
fn word_map(name: &str, fragment: &Layout, values: &Layout) -> Result<Map, GenError> {
    let frag: Map = Annotated::new(fragment.clone(), Space::Logical, Space::Logical)?.into();
    let vals: Map = Annotated::new(values.clone(), Space::ThreadValue, Space::Logical)?.into();
    let halves = compose(&frag, &vals)?;
    let sizes = halves.domain_entry_sizes();
    if sizes.last() != Some(&2) {
        return Err(fail(&format!(
            "{name}: the last entry of {sizes:?} is not a pair"
        )));
    }
    for i in (0..halves.size()).step_by(2) {
        let (lo, hi) = (halves.eval_index(i)?, halves.eval_index(i + 1)?);
        if lo % 2 != 0 || hi != lo + 1 {
            return Err(fail(&format!(
                "{name}: values {i}, {} are in registers {lo}, {hi}: not one 32-bit register",
                i + 1
            )));
        }
    }
    let w = compose(&words(fragment.size())?, &halves)?;
    Ok(w.restrict(&[(sizes.len() - 1, 0)])?)
}

/// A layout's leaves regrouped to the top-level entries `(e0, e1, (rest..), pair)`: the first
/// two leaves, the leaves between, and the last leaf (a value's pair bit).
fn with_pair(l: &Layout) -> Result<Layout, GenError> {
    let flat = lc::flatten(l)?;
    let n = flat.rank();
    Ok(lc::group(&flat, 2, n - 1)?)
}

/// A slice value leaving every leaf of `t` free.
fn free(t: &Tree<i64>) -> Tree<Option<i64>> {
    match t {
        Tree::Leaf(_) => Tree::Leaf(None),
        Tree::Tuple(v) => Tree::Tuple(v.iter().map(free).collect()),
    }
}

/// The flat (value, thread) map of an operand copy's source, regrouped to the entries
/// `(k-block, rest, thread)` with the element inside the thread's vector fixed to 0.
fn ldsm_rows(m: &Map) -> Result<Map, GenError> {
    // value (kblock, rest, (vector)), thread: fix the vector.
    let entries = m.domain_entries();
    let Tree::Tuple(v) = &entries[0] else {
        return Err(fail("ldmatrix source: value entry not a tuple"));
    };
    let mut value: Vec<Tree<Option<i64>>> = v.iter().map(free).collect();
    let n = value.len();
    value[n - 1] = zero(&v[n - 1]);
    Ok(m.slice(&Tree::Tuple(vec![Tree::Tuple(value), Tree::Leaf(None)]))?)
}

/// A slice value fixing every leaf of `t` to 0.
fn zero(t: &Tree<i64>) -> Tree<Option<i64>> {
    match t {
        Tree::Leaf(_) => Tree::Leaf(Some(0)),
        Tree::Tuple(v) => Tree::Tuple(v.iter().map(zero).collect()),
    }
}

/// An offset function `row·ld + col` (or `row + col·ld`) derived from the tensor's layout:
/// the layout is built at two leading dimensions and each mode's stride compared; the one that
/// follows `ld` is its coefficient.
fn offset_fn(
    g: &mut Gemm,
    name: &str,
    cute: impl Fn(i64) -> String,
    names: [&str; 2],
) -> Result<(), GenError> {
    let (l1, l2) = (
        Layout::from_cute(&cute(MAX_EXTENT))?,
        Layout::from_cute(&cute(MAX_EXTENT + 8))?,
    );
    // CuTe order: mode 0 first.
    let mut terms = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let mut c = [0i64; 2];
        c[i] = 1;
        let at = |l: &Layout| l.eval(&Tree::Tuple(vec![Tree::Leaf(c[1]), Tree::Leaf(c[0])]));
        let (s1, s2) = (at(&l1)?, at(&l2)?);
        terms.push(match (s1, s2) {
            (1, 1) => (*n).to_string(),
            (a, b) if a == MAX_EXTENT && b == MAX_EXTENT + 8 => format!("{n} * ld"),
            _ => {
                return Err(fail(&format!(
                    "{name}: stride {s1} of mode {i} is neither 1 nor ld"
                )));
            }
        });
    }
    cline!(
        g,
        "// The offset of element ({}, {}) of a tensor with leading dimension `ld` (elements).\n\
         __host__ __device__ __forceinline__ int32_t {name}(int32_t {}, int32_t {}, int32_t ld) {{\n    return {};\n}}\n",
        names[0],
        names[1],
        names[0],
        names[1],
        terms.join(" + ")
    );
    Ok(())
}

/// The CTA orders: the map from a block `(y, x)` (CUDA's `blockIdx`, x fastest) to the C tile
/// `(m, n)` it computes, as two layouts each (one per tile coordinate; `_` where the block
/// coordinate does not move it), and the first row of an M tile (the residue tiles' origin),
/// with which a block past the last M tile returns.
///
/// - `linear` (CuTe's kernel): `m = x`, `n = y`.
/// - `grouped`: `x = (n, g)` with `g < GROUP` fastest, `m = GROUP·y + g`, `n = x / GROUP`:
///   consecutive blocks take `GROUP` M tiles of one N tile, so a wave of resident blocks
///   reads `GROUP` tiles of A and many of B instead of every tile of A.
fn raster(g: &mut Gemm, tiles_c: &lc::residue::ResidueTiles) -> Result<(), GenError> {
    let tiles = MAX_EXTENT / BM.min(BN);
    let map = |cute: &str| -> Result<Map, GenError> {
        Ok(Annotated::new(Layout::from_cute(cute)?, Space::Logical, Space::Physical)?.into())
    };
    // CuTe order: mode 0 is x (fastest), mode 1 is y.
    g.emit(
        "gemm_linear_m",
        "CuTe's CTA order: the M tile of block (y, x)",
        &map(&format!("({tiles},{tiles}):(1,0)"))?,
        &["y", "x"],
    )?;
    g.emit(
        "gemm_linear_n",
        "CuTe's CTA order: the N tile of block (y, x)",
        &map(&format!("({tiles},{tiles}):(0,1)"))?,
        &["y", "x"],
    )?;
    // Every y the launcher can give: ⌈tiles / GROUP⌉.
    let groups = (tiles + GROUP - 1) / GROUP;
    g.emit(
        "gemm_grouped_m",
        &format!("The grouped CTA order ({GROUP} M tiles of one N tile, then the next N tile): the M tile of block (y, x)"),
        &map(&format!("(({GROUP},{tiles}),{groups}):((1,0),{GROUP})"))?,
        &["y", "x"],
    )?;
    g.emit(
        "gemm_grouped_n",
        "The grouped CTA order: the N tile of block (y, x)",
        &map(&format!("(({GROUP},{tiles}),{groups}):((0,1),0)"))?,
        &["y", "x"],
    )?;
    // The first row of M tile `tile`: the residue tiles' origin, checked at every tile.
    let grid = tiles_c.grid().to_vec();
    let first = map(&format!("{}:{}", grid[1], tiles_c.tile()[1]))?;
    for t in 0..grid[1] {
        if tiles_c.origin(&[0, t])?[1] != first.eval_index(t)? {
            return Err(fail(
                "the first row of an M tile differs from the residue tiles' origin",
            ));
        }
    }
    g.emit(
        "gemm_tile_first_m",
        "The first row of M tile `tile`",
        &first,
        &["tile"],
    )?;
    cline!(g, "#define GEMM_GROUP {GROUP}\n");
    Ok(())
}

/// The residue coordinates and predicate of a copy or MMA partition, emitted.
fn residue(g: &mut Gemm, name: &str, doc: &str, p: &Partition<'_>) -> Result<(), GenError> {
    // Range-checked in `int32_t` too (the text is discarded): the kernel converts coordinates
    // to `int32_t` offsets.
    p.to_c(name, IntType::I32, true)?;
    let c = p.to_c(name, IntType::U32, true)?;
    cline!(g, "// {doc}\n{c}");
    g.residue_c.push_str(&c);
    Ok(())
}

/// Runs the algebra and writes every function.
///
/// # Errors
/// Any error of the algebra, or a check of the generator that fails (named on stderr).
#[allow(clippy::too_many_lines)]
pub fn generate() -> Result<Gemm, GenError> {
    let mut g = Gemm {
        funcs: Vec::new(),
        residue_c: String::new(),
        source: Source::new(
            "`cargo run -p layout-typed --example gen_cuda` (layout-typed/examples/gen_cuda/gemm.rs): never edit by hand.",
            "The address, predicate and register-index functions of the GEMM kernel\n\
             (gpu/gemm/kernel.cuh), emitted by the layout algebra. Units: elements (halves) and\n\
             32-bit registers. The host checks what gpu/gemm/launch.cuh's gen_gemm_supported says.",
        ),
    };
    let copy = sgemm::gmem_copy()?;
    let mma: TiledMma = sgemm::tiled_mma()?;
    let ldsm = sgemm::ldsm_atom()?;
    let s = sgemm::smem()?;
    let (copy_a, copy_b) = (mma.copy_a(&ldsm)?, mma.copy_b(&ldsm)?);
    let threads = mma.threads();
    // B's ring, copy and tiles are A's (CuTe's kernel builds both rings from one atom and both
    // copies alike): that needs BN = BM.
    if BN != BM {
        return Err(fail(
            "B's shared-memory ring is A's layout, which needs BN = BM",
        ));
    }
    let stage0 = s.restrict(&[(0, 0)])?;
    let (frag_a, frag_b, frag_c) = (
        mma.fragment_a(&stage0)?,
        mma.fragment_b(&stage0)?,
        mma.fragment_c()?,
    );
    // The ring's extent: its largest offset + 1 (B's ring starts there), read off the
    // layout's exact offset range.
    let (lo, hi) = s.offset_range()?;
    if lo != 0 {
        return Err(fail(&format!("the ring's offsets start at {lo}, not 0")));
    }
    let smem_halves = hi + 1;
    cline!(
        g,
        "#define GEMM_BM {BM}\n#define GEMM_BN {BN}\n#define GEMM_BK {BK}\n#define GEMM_STAGES {STAGES}\n\
         #define GEMM_THREADS {threads}\n#define GEMM_MAX_EXTENT {MAX_EXTENT}\n\
         // Shared memory of one operand, every stage (halves).\n#define GEMM_SMEM {}\n\
         // Register fragments per thread (halves): A, B; accumulators (values).\n\
         #define GEMM_FRAG_A {}\n#define GEMM_FRAG_B {}\n#define GEMM_ACC {}\n",
        smem_halves,
        frag_a.size(),
        frag_b.size(),
        frag_c.size()
    );

    // ---- global memory -> shared memory: the 128-bit cp.async copy -----------------------
    // The tensors at the largest extents (the coordinate programs do not depend on them; the
    // range checks cover this grid). A: M×K K-major, B: N×K K-major, C: M×N M-major.
    let e = MAX_EXTENT;
    let m_a = Layout::from_cute(&format!("({e},{e}):({e},1)"))?;
    let m_c = Layout::from_cute(&format!("({e},{e}):(1,{e})"))?;
    let tiles_a = ceil_divide(&m_a, &[BK, BM])?;
    let tiles_b = ceil_divide(&m_a, &[BK, BN])?;
    let tiles_c = ceil_divide(&m_c, &[BN, BM])?;
    let tv_a = copy.tv_over(&[BK, BM])?;
    let tv_b = copy.tv_over(&[BK, BN])?;
    let part_a = tiles_a.partition(&tv_a)?;
    let part_b = tiles_b.partition(&tv_b)?;
    let tv_c = mma
        .c()?
        .as_layout()
        .cloned()
        .ok_or_else(|| fail("C: not a layout"))?;
    let part_c = tiles_c.partition(&tv_c)?;
    let vecs = copy.vector();
    let copy_values = tv_a.size() / threads;
    cline!(
        g,
        "// The global-memory copy: values per thread and elements per vector (16 bytes).\n\
         #define GEMM_COPY_VALUES {copy_values}\n#define GEMM_VEC {vecs}\n"
    );
    // The first value of each vector: the copy's value entry with the vector's element at 0.
    let first: Map = Annotated::new(
        Layout::from_cute(&format!("{}:{vecs}", copy_values / vecs))?,
        Space::Logical,
        Space::Physical,
    )?
    .into();
    g.emit(
        "gemm_copy_value",
        "The value index of the first element of a thread's copy vector `i`",
        &first,
        &["i"],
    )?;
    cline!(
        g,
        "// Vectors per thread and k tile.\n#define GEMM_COPY_VECS {}\n\
         // The k tiles of a K extent (residue included).\n\
         __host__ __device__ __forceinline__ uint32_t gemm_k_tiles(uint32_t k) {{ return (k + {}) / {BK}; }}\n",
        copy_values / vecs,
        BK - 1
    );
    residue(
        &mut g,
        "gemm_a",
        "A's copy: the global (k, m) coordinate of thread `thread`'s value `value` in tile (tile0 = k tile, tile1 = m tile), and its predicate",
        &part_a,
    )?;
    residue(
        &mut g,
        "gemm_b",
        "B's copy: the global (k, n) coordinate and predicate, as A's",
        &part_b,
    )?;
    residue(
        &mut g,
        "gemm_c",
        "C's partition by the tiled MMA: the global (n, m) coordinate of thread `thread`'s accumulator value `value` in tile (tile0 = n tile, tile1 = m tile), and its predicate",
        &part_c,
    )?;
    raster(&mut g, &tiles_c)?;
    offset_fn(
        &mut g,
        "gemm_a_offset",
        |ld| format!("({e},{e}):({ld},1)"),
        ["m", "k"],
    )?;
    offset_fn(
        &mut g,
        "gemm_b_offset",
        |ld| format!("({e},{e}):({ld},1)"),
        ["n", "k"],
    )?;
    offset_fn(
        &mut g,
        "gemm_c_offset",
        |ld| format!("({e},{e}):(1,{ld})"),
        ["m", "n"],
    )?;
    // The global side of each vector: the copy's thread-value layout over the tile (seed
    // order (k, m), position k·M + m), read as the tile's (k, m): in the K-major matrix the
    // offset is k + ld·m (`Major::Column` in seed order), and along each vector the coefficient
    // of `ld` (m) is constant and k contiguous and aligned, so that with `ld` a multiple of the
    // vector (checked by the host) the 16 bytes are one aligned access.
    for tv in [&tv_a, &tv_b] {
        let tvm: Map = Annotated::new(tv.clone(), Space::ThreadValue, Space::Logical)?.into();
        let mn = tv.size() / BK;
        cuda::tile_index(&tvm, [BK, mn])?.check_vector_entry(Major::Column, 0, vecs)?;
    }

    // The shared-memory side: entries (stage, rest_k, rest_m, value, thread).
    let s_copy = copy.partition(&s)?;
    let sizes = s_copy.domain_entry_sizes();
    if sizes.len() != 5 || sizes[1] != 1 || sizes[3] != vecs || sizes[2] * sizes[3] != copy_values {
        return Err(fail(&format!("shared copy: entries {sizes:?}")));
    }
    // Pairs with the global side: the same tile position at every (thread, value).
    for t in 0..threads {
        for v in 0..copy_values {
            let pos = part_a.coord(t, v)?;
            // The tile position (k, m) of stage 0: flat index k·BM + m.
            let want = s.eval_index(pos[0] * BM + pos[1])?;
            let got = s_copy.eval_index(flat(&sizes, &[0, 0, v / vecs, v % vecs, t]))?;
            if want != got {
                return Err(fail(&format!(
                    "shared copy and global copy differ at thread {t} value {v}: {got} vs {want}"
                )));
            }
        }
    }
    cuda::check_vector_entry(&s_copy, 3, vecs, Along::Contiguous)?;
    let stage = keep(&s_copy, &[0])?;
    g.emit(
        "gemm_s_stage",
        "The offset of shared-memory stage `stage` (halves)",
        &stage,
        &["stage"],
    )?;
    // (stage, rest_m, thread) with rest_k = 0 and the vector's first element: every stage is
    // stage 0 moved by `gemm_s_stage`, checked; stage 0 split.
    let s_vec = s_copy.restrict(&[(1, 0), (3, 0)])?;
    let s_vec0 = s_vec.restrict(&[(0, 0)])?;
    for i in 0..s_vec.size() {
        let per = s_vec0.size();
        if s_vec.eval_index(i)? != stage.eval_index(i / per)? + s_vec0.eval_index(i % per)? {
            return Err(fail("shared copy: a stage is not stage 0 moved"));
        }
    }
    split(
        &mut g,
        "gemm_s_copy",
        "The shared-memory offset (halves) of thread `thread`'s copy vector `i`, stage 0",
        &s_vec0,
        &[(Part::Add, "i")],
    )?;

    // ---- shared memory -> registers: ldmatrix x4 ----------------------------------------
    for (op, oc, frag) in [("a", &copy_a, &frag_a), ("b", &copy_b, &frag_b)] {
        // Every stage: (value (kblock, rest, vector), thread) per stage, the stage added.
        let per_stage: Vec<Map> = (0..STAGES)
            .map(|p| oc.partition_s(&s.restrict(&[(0, p)])?))
            .collect::<Result<_, _>>()?;
        let rows0 = ldsm_rows(&per_stage[0])?;
        let rs = rows0.domain_entry_sizes();
        if rs.len() != 3 {
            return Err(fail(&format!("ldmatrix {op}: entries {rs:?}")));
        }
        cline!(
            g,
            "// ldmatrix x4 copies of {} per k-block.\n#define GEMM_LDSM_{} {}\n",
            op.to_uppercase(),
            op.to_uppercase(),
            rs[1]
        );
        if op == "a" {
            cline!(
                g,
                "// k-blocks per k tile.\n#define GEMM_KBLOCKS {}\n",
                rs[0]
            );
        }
        for (p, m) in per_stage.iter().enumerate() {
            // Each lane's row: 8 contiguous, 16-byte-aligned halves.
            cuda::check_vector_entry(m, 0, 8, Along::Contiguous)?;
            let rows = ldsm_rows(m)?;
            for i in 0..rows.size() {
                if rows.eval_index(i)? != rows0.eval_index(i)? + stage.eval_index(p as i64)? {
                    return Err(fail(&format!(
                        "ldmatrix {op}: stage {p} is not stage 0 moved"
                    )));
                }
            }
        }
        split(
            &mut g,
            &format!("gemm_ldsm_{op}"),
            &format!(
                "The shared-memory row (halves) that thread `thread` gives ldmatrix x4 for {} at \
                 k-block `kb`, copy `i`, stage 0",
                op.to_uppercase()
            ),
            &rows0,
            &[(Part::Xor, "kb"), (Part::Add, "i")],
        )?;
        // The destination registers: ldmatrix register j of copy (kb, i) -> fragment register.
        let retile = oc
            .retile()
            .as_layout()
            .cloned()
            .ok_or_else(|| fail("retile: not a layout"))?;
        let regs = word_map(&format!("gemm_ldsm_{op}_reg"), frag, &with_pair(&retile)?)?;
        g.emit(
            &format!("gemm_ldsm_{op}_reg"),
            &format!("The 32-bit register of {}'s fragment that ldmatrix register `j` of copy (kb, i) fills", op.to_uppercase()),
            &regs,
            &["kb", "i", "j"],
        )?;
        // The MMA's operand registers: fragment value (kblock, rest, atom value).
        let frag_values = fragment_values(&if op == "a" { mma.a()? } else { mma.b()? }, true)?;
        let mregs = word_map(&format!("gemm_mma_{op}_reg"), frag, &frag_values)?;
        g.emit(
            &format!("gemm_mma_{op}_reg"),
            &format!("The 32-bit register of {}'s fragment that is operand register `j` of the MMA at k-block `kb`, {} `i`", op.to_uppercase(), if op == "a" { "m" } else { "n" }),
            &mregs,
            &["kb", "i", "j"],
        )?;
    }

    // ---- the accumulators --------------------------------------------------------------
    // C value (rest_n, rest_m, atom value) -> register (fragment_c); for f16 accumulators two
    // values share a 32-bit register.
    let c_values = fragment_values(&mma.c()?, false)?;
    let cv = c_values.shape().leaves();
    cline!(
        g,
        "// MMA atoms per warp along N and M, accumulator values per atom.\n\
         #define GEMM_MMA_N {}\n#define GEMM_MMA_M {}\n#define GEMM_MMA_ACC {}\n",
        cv[0],
        cv[1],
        cv[2]
    );
    let c_regs: Map = compose(
        &Annotated::new(frag_c.clone(), Space::Logical, Space::Physical)?.into(),
        &Annotated::new(c_values.clone(), Space::ThreadValue, Space::Logical)?.into(),
    )?;
    g.emit(
        "gemm_acc",
        "The fp32 accumulator register of value `j` of the MMA at (n `ni`, m `mi`)",
        &c_regs,
        &["ni", "mi", "j"],
    )?;
    let c_words = word_map("gemm_acc_word", &frag_c, &fragment_values(&mma.c()?, true)?)?;
    g.emit(
        "gemm_acc_word",
        "The packed f16x2 accumulator register `j` of the MMA at (n `ni`, m `mi`)",
        &c_words,
        &["ni", "mi", "j"],
    )?;
    let c_all: Map = Annotated::new(
        lc::group(&frag_c, 0, frag_c.rank())?,
        Space::Logical,
        Space::Physical,
    )?
    .into();
    let c_half: Map = compose(
        &Annotated::new(
            Layout::from_cute(&format!("(2,{}):(1,0)", frag_c.size() / 2))?,
            Space::Logical,
            Space::Physical,
        )?
        .into(),
        &Annotated::new(
            lc::group(&frag_c, 0, frag_c.rank())?,
            Space::Logical,
            Space::Logical,
        )?
        .into(),
    )?;
    let c_word = compose(
        &words(frag_c.size())?,
        &Annotated::new(
            lc::group(&frag_c, 0, frag_c.rank())?,
            Space::Logical,
            Space::Logical,
        )?
        .into(),
    )?;
    g.emit(
        "gemm_acc_word_of",
        "The packed f16x2 accumulator register of C partition value `value`",
        &c_word,
        &["value"],
    )?;
    g.emit(
        "gemm_acc_half_of",
        "Which half (0 low, 1 high) of that register holds C partition value `value`",
        &c_half,
        &["value"],
    )?;
    g.emit(
        "gemm_acc_of",
        "The accumulator (value) register of C partition value `value`",
        &c_all,
        &["value"],
    )?;
    Ok(g)
}

/// The identity over a fragment's values, with the top-level sub-entries of the value entry of
/// `tv` (a thread-value map: A `(kblock, rest_m, atom value)`, B `(kblock, rest_n, atom
/// value)`, C `(rest_n, rest_m, atom value)`) as its entries; with `pair`, the atom value split
/// into `(atom value / 2, 2)`, the pair its own last entry.
fn fragment_values(tv: &Map, pair: bool) -> Result<Layout, GenError> {
    let entries = tv.domain_entries();
    let Tree::Tuple(parts) = &entries[0] else {
        return Err(fail("a fragment's value entry is not a tuple"));
    };
    let mut sizes: Vec<i64> = parts
        .iter()
        .map(|t| t.leaves().into_iter().product())
        .collect();
    if pair {
        // The atom's values as (pair index, pair): two values per 32-bit register.
        let last = sizes.len() - 1;
        sizes[last] /= 2;
        sizes.push(2);
    }
    // Seed order, last fastest: strides are the products of the sizes after each entry.
    let mut strides = vec![1i64; sizes.len()];
    for i in (0..sizes.len() - 1).rev() {
        strides[i] = strides[i + 1] * sizes[i + 1];
    }
    let text = |v: &[i64]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    Ok(format!("({}):({})", text(&sizes), text(&strides)).parse::<Layout>()?)
}

/// The text of `gpu/gen/gemm.cuh`.
///
/// # Errors
/// As [`generate`].
pub fn header() -> Result<String, GenError> {
    Ok(generate()?.source.text())
}
