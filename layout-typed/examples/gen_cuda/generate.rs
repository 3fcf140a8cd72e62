//! The CUDA generator: kernels whose every address is code emitted by the algebra.
//!
//! This module is shared by the example's `main.rs` (which writes `gpu/gen/kernels.cu`) and by
//! the CI test `tests/tests/gpu_codegen.rs` (which includes it with `#[path]`, compiles the
//! addressing functions with the system C++ compiler, compares them with the typed API, and runs
//! the kernels on CPU threads). Results and the method: `docs/gpu.md`.
//!
//! **What is declared.** Every layout is a `layout!` item below: the shared-memory tiles with
//! their XOR swizzles, the thread-value layouts of the loads and stores, the tile grids, and the
//! global tiles. A global matrix with a run-time leading dimension `ld` is
//! `({m},{n}):({ld},1)`, `index = i32` (a `Dynamic`, checked on the host: [`typed_addresses`]).
//!
//! **How it is emitted.** By `layout_core::cuda` (see its documentation and `docs/gpu.md`):
//! `per_thread` restricts each thread-value composite to a run-time thread (one layout per
//! thread, or the XOR split of a swizzle, or the composite as written); `LdSplit` keeps `ld` a
//! factor, `G ∘ TV = COL ∘ TV + ld · ROW ∘ TV`, each part emitted in `uint32_t` after the
//! range checks of `uint32_t` and `int32_t`, the parts added in `int32_t` by the address
//! functions (the host checks `(rows - 1)·ld + cols - 1 ≤ INT32_MAX`, `gen_fits_i32`); the
//! vector proofs (`check_vector`, `TileIndex::check_vector`) come before every 128-bit access,
//! which is emitted at `NAME(.., vec = 0)`; `Source` assembles the file. `T_ROW` and `T_COL`
//! below are the typed reference of the two parts (`typed_reference`).

use std::fmt::Write as _;

use layout_typed::core_algebra::cuda::{
    Along, Func, LdSplit, Major, PerThread, Source, check_vector, func, per_thread, tile_index,
};
use layout_typed::core_algebra::{self as lc, Error, IntType, Map};
use layout_typed::prelude::*;

/// Transpose (a): rows and columns of the square fp32 matrix.
pub const T_N: i64 = 16384;
/// Staging copy (b): rows of the fp16 matrix.
pub const S_ROWS: i64 = 16384;
/// Staging copy (b): columns of the fp16 matrix.
pub const S_COLS: i64 = 32768;

layout! {
    // ---- (a) 32×32 fp32 transpose, 256 threads ------------------------------------------
    /// The shared tile: row-major, XOR-swizzled (CuTe `Swizzle<5,0,5>`): word `c` of row `r`
    /// is stored at `32r + (c ^ r)`, so a warp reading a column touches 32 different banks.
    pub const T_SMEM = (32,32):(32,1), logical -> physical, Swizzle<5,0,5> over elements, index = i32;
    /// Load: thread `t`, value `v` reads tile element `(t/32 + 8v, t%32)`: a warp reads one
    /// 128-byte row segment of the input.
    pub const T_LOAD = (thread: 256, value: 4):(1,256), thread-value -> logical;
    /// Store: thread `t`, value `v` takes tile element `(t%32, t/32 + 8v)`: a warp writes one
    /// 128-byte row segment of the output (a column of the input tile).
    pub const T_STORE = (thread: (8,32), value: 4):((1,32),8), thread-value -> logical;
    /// Load with 128-bit vectors: thread `t` reads elements `(t/8, 4(t%8) + e)`, `e < 4`.
    pub const T_LOAD4 = (thread: (32,8), vec: 4):((32,4),1), thread-value -> logical;
    /// Store with 128-bit vectors: thread `t` writes input elements `(4(t%8) + e, t/8)`.
    pub const T_STORE4 = (thread: (32,8), vec: 4):((1,128),32), thread-value -> logical;
    /// The row index of a 32×32 tile: the coefficient of a run-time row stride.
    pub const T_ROW = (32,32):(1,_), logical -> physical, index = i32;
    /// The column index of a 32×32 tile: the coefficient of a run-time column stride.
    pub const T_COL = (32,32):(_,1), logical -> physical, index = i32;
    /// First row of tile `(by, bx)` of the 16384×16384 matrix.
    pub const T_GRID_ROW = (512,512):(32,_), logical -> physical, index = i32;
    /// First column of tile `(by, bx)`.
    pub const T_GRID_COL = (512,512):(_,32), logical -> physical, index = i32;
    /// First row of the tile of block `(y, x)` in a 2-level raster order: the block index
    /// `512y + x` walks 32×32 tiles (a 1024×1024 square of the matrix) before the next square.
    /// `y = (16,16,2)`, `x = (16,32)`: tile `(32·y0 + 16·y2 + x0, 32·y1 + x1)`.
    pub const T_RGRID_ROW = ((16,16,2),(16,32)):((1024,_,512),(32,_)), logical -> physical, index = i32;
    /// First column of the tile of block `(y, x)` in that order.
    pub const T_RGRID_COL = ((16,16,2),(16,32)):((_,1024,_),(_,32)), logical -> physical, index = i32;

    // ---- (b) 128×64 fp16 staging copy, 128 threads --------------------------------------
    /// The shared tile: row-major 128-byte rows, the GMMA 128-byte swizzle (16-byte chunk `k`
    /// of row `r` at chunk `k ^ (r % 8)`): CuTe's `Swizzle<3,4,3>` on byte addresses, which is
    /// `Swizzle<3,3,3>` on these 16-bit elements.
    pub const S_SMEM = (128,64):(64,1), logical -> physical,
        Swizzle<3,4,3> over bytes of 16-bit elements, index = i32;
    /// In: thread `t`, value `v` moves the 8 elements `(t/8 + 16v, 8(t%8) + e)`.
    pub const S_IN = (thread: (16,8), value: 8, vec: 8):((64,8),1024,1), thread-value -> logical;
    /// Out: thread `t`, value `v` moves the 8 elements `(8(t/8) + v, 8(t%8) + e)`, so each
    /// thread reads back vectors that other threads (and warps) wrote.
    pub const S_OUT = (thread: (16,8), value: 8, vec: 8):((512,8),64,1), thread-value -> logical;
    /// The row index of a 128×64 tile: the coefficient of a run-time row stride.
    pub const S_ROW = (128,64):(1,_), logical -> physical, index = i32;
    /// The column index of a 128×64 tile.
    pub const S_COL = (128,64):(_,1), logical -> physical, index = i32;
    /// First row of tile `(by, bx)` of the 16384×32768 matrix.
    pub const S_GRID_ROW = (128,512):(128,_), logical -> physical, index = i32;
    /// First column of tile `(by, bx)`.
    pub const S_GRID_COL = (128,512):(_,64), logical -> physical, index = i32;
}

/// Everything the `.cu` file holds.
#[derive(Clone, Debug)]
pub struct Generated {
    /// Every emitted function, in the file's order.
    funcs: Vec<Func>,
    /// The file.
    pub source: Source,
}

impl Generated {
    /// Every emitted function, in the file's order.
    #[must_use]
    pub fn funcs(&self) -> Vec<&Func> {
        self.funcs.iter().collect()
    }
}

/// What the file's header says below its `@generated` line.
const NOTES: &str =
    "Do not edit: every address below is `layout_core::emit` output for the `layout!` items of
generate.rs, in uint32_t (every value range-checked for uint32_t and int32_t at generation
time), restricted to one thread as `layout!(restrict(.., thread = t))` does (or XOR-split,
see generate.rs). The offsets of a global tile are `COL ∘ TV + ld · ROW ∘ TV` with the
leading dimension `ld` at run time, added in int32_t: the host must check that
(rows-1)·ld + cols-1 fits int32_t (gen_fits_i32) and, for the 16-byte accesses, that ld
is a multiple of the vector (gen_vector_ok) and the pointers 16-byte aligned.";

/// The host checks of the global layouts, at the end of the addressing part.
const HOST_CHECKS: &str = "// The run-time check of the global layouts `({m},{n}):({ld},1), index = i32`.
static inline bool gen_fits_i32(int64_t rows, int64_t cols, int64_t ld) {
    return rows >= 1 && cols >= 1 && ld >= cols && (rows - 1) * ld + (cols - 1) <= (int64_t)INT32_MAX;
}
// 16-byte accesses stay aligned when ld is a multiple of the vector's elements.
static inline bool gen_vector_ok(int64_t ld, int64_t elements) { return ld % elements == 0; }
";

/// Runs the algebra (`layout_core::cuda`): composes, restricts, decides, emits, proves the
/// vectors, and assembles the file.
///
/// # Errors
/// Any error of the algebra (none for these layouts), among them a vector access that is not
/// proven contiguous and aligned (`Error::VectorAligned`, `Error::VectorAlong`).
#[allow(clippy::too_many_lines)]
pub fn generate() -> Result<Generated, Error> {
    let tl = ["thread", "value"];
    let tv4 = ["thread", "vec"];
    let sv = ["thread", "value", "vec"];
    let (t_tile, s_tile) = ([32, 32], [128, 64]);

    // (a) scalar transpose
    let t_smem_load = per_thread(
        "t_smem_load",
        "T_SMEM ∘ T_LOAD",
        &compose(T_SMEM, T_LOAD).to_map()?,
        &tl,
    )?;
    let t_smem_store = per_thread(
        "t_smem_store",
        "T_SMEM ∘ T_STORE",
        &compose(T_SMEM, T_STORE).to_map()?,
        &tl,
    )?;
    // The input row-major, the output its transpose: column-major in the input's coordinates.
    let t_load = LdSplit::new(
        "t_load",
        ["T_ROW ∘ T_LOAD", "T_COL ∘ T_LOAD"],
        &T_LOAD.to_map()?,
        t_tile,
        Major::Row,
        &tl,
    )?;
    let t_store = LdSplit::new(
        "t_store",
        ["T_ROW ∘ T_STORE", "T_COL ∘ T_STORE"],
        &T_STORE.to_map()?,
        t_tile,
        Major::Column,
        &tl,
    )?;
    // (a) with 128-bit global accesses, proven contiguous and aligned for every ld that is a
    // multiple of 4
    tile_index(&T_LOAD4.to_map()?, t_tile)?.check_vector(Major::Row, 4)?;
    let t4_load = LdSplit::new(
        "t4_load",
        ["T_ROW ∘ T_LOAD4", "T_COL ∘ T_LOAD4"],
        &T_LOAD4.to_map()?,
        t_tile,
        Major::Row,
        &tv4,
    )?;
    tile_index(&T_STORE4.to_map()?, t_tile)?.check_vector(Major::Column, 4)?;
    let t4_store = LdSplit::new(
        "t4_store",
        ["T_ROW ∘ T_STORE4", "T_COL ∘ T_STORE4"],
        &T_STORE4.to_map()?,
        t_tile,
        Major::Column,
        &tv4,
    )?;
    let t4_smem_load = per_thread(
        "t4_smem_load",
        "T_SMEM ∘ T_LOAD4",
        &compose(T_SMEM, T_LOAD4).to_map()?,
        &tv4,
    )?;
    let t4_smem_store = per_thread(
        "t4_smem_store",
        "T_SMEM ∘ T_STORE4",
        &compose(T_SMEM, T_STORE4).to_map()?,
        &tv4,
    )?;
    // (b) staging copy: every access a vector of 8 halves, in shared and in global memory
    let mut staging = Vec::new();
    for (tag, tv, m_smem, m_tv) in [
        (
            "in",
            "S_IN",
            compose(S_SMEM, S_IN).to_map()?,
            S_IN.to_map()?,
        ),
        (
            "out",
            "S_OUT",
            compose(S_SMEM, S_OUT).to_map()?,
            S_OUT.to_map()?,
        ),
    ] {
        check_vector(&m_smem, 8, Along::Contiguous)?;
        tile_index(&m_tv, s_tile)?.check_vector(Major::Row, 8)?;
        staging.push((
            per_thread(
                &format!("s_smem_{tag}"),
                &format!("S_SMEM ∘ {tv}"),
                &m_smem,
                &sv,
            )?,
            LdSplit::new(
                &format!("s_{tag}"),
                [&format!("S_ROW ∘ {tv}"), &format!("S_COL ∘ {tv}")],
                &m_tv,
                s_tile,
                Major::Row,
                &sv,
            )?,
        ));
    }
    let grid_fn = |name: &str, doc: &str, m: Map| -> Result<Func, Error> {
        func(name, doc, lc::emit(&m, true)?.program, &["by", "bx"])
    };
    let grid = [
        grid_fn(
            "t_grid_row",
            "T_GRID_ROW: first row of tile (by, bx)",
            T_GRID_ROW.to_map()?,
        )?,
        grid_fn(
            "t_grid_col",
            "T_GRID_COL: first column of tile (by, bx)",
            T_GRID_COL.to_map()?,
        )?,
        grid_fn(
            "t_rgrid_row",
            "T_RGRID_ROW: first row of block (by, bx)'s tile, 2-level raster",
            T_RGRID_ROW.to_map()?,
        )?,
        grid_fn(
            "t_rgrid_col",
            "T_RGRID_COL: first column of block (by, bx)'s tile, 2-level raster",
            T_RGRID_COL.to_map()?,
        )?,
        grid_fn(
            "s_grid_row",
            "S_GRID_ROW: first row of tile (by, bx)",
            S_GRID_ROW.to_map()?,
        )?,
        grid_fn(
            "s_grid_col",
            "S_GRID_COL: first column of tile (by, bx)",
            S_GRID_COL.to_map()?,
        )?,
    ];

    let mut src = Source::new(
        "`cargo run -p layout-typed --example gen_cuda` (layout-typed/examples/gen_cuda/).",
        NOTES,
    );
    let mut funcs: Vec<Func> = Vec::new();
    let mut add = |src: &mut Source, fs: Vec<&Func>| {
        for f in fs {
            src.add_func(f);
            funcs.push(f.clone());
        }
    };
    add(&mut src, t_smem_load.funcs());
    add(&mut src, t_smem_store.funcs());
    for split in [&t_load, &t_store, &t4_load, &t4_store] {
        add(&mut src, split.funcs());
    }
    add(&mut src, t4_smem_load.funcs());
    add(&mut src, t4_smem_store.funcs());
    for (smem, split) in &staging {
        add(&mut src, smem.funcs());
        add(&mut src, split.funcs());
    }
    add(&mut src, grid.iter().collect());

    // The address functions the kernels call: the tile's origin + the thread's element, `ld`
    // run-time.
    let ty = IntType::I32;
    let tvp = "uint32_t by, uint32_t bx, uint32_t thread, uint32_t value, int32_t ld";
    for (g, sfx, what) in [
        ("t_grid", "", ""),
        ("t_rgrid", "_r", ", tiles in the 2-level raster order"),
    ] {
        src.add_address(
            &format!("t_in{sfx}"),
            &format!(
                "(a) input element of (block, thread, value): G_in = T_COL + ld·T_ROW at the tile's origin + the thread's element{what}"
            ),
            ty,
            tvp,
            &format!(
                "((int32_t){g}_col(by, bx) + ld * (int32_t){g}_row(by, bx))\n        + {}",
                t_load.call("thread", &["value"], "ld", "int32_t")
            ),
        )?;
        src.add_address(
            &format!("t_out{sfx}"),
            &format!(
                "(a) output element: the transpose in the input's coordinates, T_ROW + ld·T_COL{what}"
            ),
            ty,
            tvp,
            &format!(
                "((int32_t){g}_row(by, bx) + ld * (int32_t){g}_col(by, bx))\n        + {}",
                t_store.call("thread", &["value"], "ld", "int32_t")
            ),
        )?;
    }
    let tv4p = "uint32_t by, uint32_t bx, uint32_t thread, uint32_t vec, int32_t ld";
    src.add_address(
        "t4_in",
        "(a, 128-bit) input element of (block, thread, vec)",
        ty,
        tv4p,
        &format!(
            "((int32_t)t_grid_col(by, bx) + ld * (int32_t)t_grid_row(by, bx))\n        + {}",
            t4_load.call("thread", &["vec"], "ld", "int32_t")
        ),
    )?;
    src.add_address(
        "t4_out",
        "(a, 128-bit) output element of (block, thread, vec)",
        ty,
        tv4p,
        &format!(
            "((int32_t)t_grid_row(by, bx) + ld * (int32_t)t_grid_col(by, bx))\n        + {}",
            t4_store.call("thread", &["vec"], "ld", "int32_t")
        ),
    )?;
    let svp = "uint32_t by, uint32_t bx, uint32_t thread, uint32_t value, uint32_t vec, int32_t ld";
    for (tag, (_, split)) in ["in", "out"].into_iter().zip(&staging) {
        src.add_address(
            &format!("s_{tag}"),
            &format!(
                "(b) global element of (block, thread, value, vec), S_{} side",
                tag.to_uppercase()
            ),
            ty,
            svp,
            &format!(
                "((int32_t)s_grid_col(by, bx) + ld * (int32_t)s_grid_row(by, bx))\n        + {}",
                split.call("thread", &["value", "vec"], "ld", "int32_t")
            ),
        )?;
    }
    src.add_c(HOST_CHECKS);
    let smem = |p: &PerThread, rest: &[&str]| p.call("t", rest, "uint32_t");

    let mut k = String::new();
    let _ = write!(
        k,
        r#"// (a) 32×32 fp32 transpose, 256 threads, scalar accesses (CuTe's partition).
extern "C" __global__ void __launch_bounds__(256)
gen_transpose(const float* in, float* out, int32_t ld_in, int32_t ld_out) {{
    __shared__ float smem[1024];
    const uint32_t t = (uint32_t)threadIdx.x, by = (uint32_t)blockIdx.y, bx = (uint32_t)blockIdx.x;
#pragma unroll
    for (uint32_t v = 0; v < 4; ++v) {{
        smem[{sl}] = in[t_in(by, bx, t, v, ld_in)];
    }}
    __syncthreads();
#pragma unroll
    for (uint32_t v = 0; v < 4; ++v) {{
        out[t_out(by, bx, t, v, ld_out)] = smem[{ss}];
    }}
}}

// (a) the scalar transpose with the tiles visited in the 2-level raster order (T_RGRID_*).
extern "C" __global__ void __launch_bounds__(256)
gen_transpose_r(const float* in, float* out, int32_t ld_in, int32_t ld_out) {{
    __shared__ float smem[1024];
    const uint32_t t = (uint32_t)threadIdx.x, by = (uint32_t)blockIdx.y, bx = (uint32_t)blockIdx.x;
#pragma unroll
    for (uint32_t v = 0; v < 4; ++v) {{
        smem[{sl}] = in[t_in_r(by, bx, t, v, ld_in)];
    }}
    __syncthreads();
#pragma unroll
    for (uint32_t v = 0; v < 4; ++v) {{
        out[t_out_r(by, bx, t, v, ld_out)] = smem[{ss}];
    }}
}}

// (a) the same transpose with 128-bit global accesses (T_LOAD4 / T_STORE4, proven contiguous).
extern "C" __global__ void __launch_bounds__(256)
gen_transpose_v4(const float* in, float* out, int32_t ld_in, int32_t ld_out) {{
    __shared__ float smem[1024];
    const uint32_t t = (uint32_t)threadIdx.x, by = (uint32_t)blockIdx.y, bx = (uint32_t)blockIdx.x;
    const float4 x = *reinterpret_cast<const float4*>(in + t4_in(by, bx, t, 0, ld_in));
    smem[{l0}] = x.x;
    smem[{l1}] = x.y;
    smem[{l2}] = x.z;
    smem[{l3}] = x.w;
    __syncthreads();
    float4 y;
    y.x = smem[{s0}];
    y.y = smem[{s1}];
    y.z = smem[{s2}];
    y.w = smem[{s3}];
    *reinterpret_cast<float4*>(out + t4_out(by, bx, t, 0, ld_out)) = y;
}}

// (b) 128×64 fp16 tile: global -> GMMA 128B-swizzled shared memory -> global, 128 threads,
// every access 16 bytes (8 halves, proven contiguous and aligned). 8 blocks per SM asked for:
// that lets ptxas keep all 8 loads of a thread in flight before the first store.
extern "C" __global__ void __launch_bounds__(128, 8)
gen_stage(const uint16_t* in, uint16_t* out, int32_t ld_in, int32_t ld_out) {{
    __shared__ __align__(128) uint16_t smem[8192];
    const uint32_t t = (uint32_t)threadIdx.x, by = (uint32_t)blockIdx.y, bx = (uint32_t)blockIdx.x;
    uint4 r[8];
#pragma unroll
    for (uint32_t v = 0; v < 8; ++v) {{
        r[v] = *reinterpret_cast<const uint4*>(in + s_in(by, bx, t, v, 0, ld_in));
    }}
#pragma unroll
    for (uint32_t v = 0; v < 8; ++v) {{
        *reinterpret_cast<uint4*>(smem + {sin}) = r[v];
    }}
    __syncthreads();
#pragma unroll
    for (uint32_t v = 0; v < 8; ++v) {{
        r[v] = *reinterpret_cast<const uint4*>(smem + {sout});
    }}
#pragma unroll
    for (uint32_t v = 0; v < 8; ++v) {{
        *reinterpret_cast<uint4*>(out + s_out(by, bx, t, v, 0, ld_out)) = r[v];
    }}
}}
"#,
        sl = smem(&t_smem_load, &["v"]),
        ss = smem(&t_smem_store, &["v"]),
        l0 = smem(&t4_smem_load, &["0"]),
        l1 = smem(&t4_smem_load, &["1"]),
        l2 = smem(&t4_smem_load, &["2"]),
        l3 = smem(&t4_smem_load, &["3"]),
        s0 = smem(&t4_smem_store, &["0"]),
        s1 = smem(&t4_smem_store, &["1"]),
        s2 = smem(&t4_smem_store, &["2"]),
        s3 = smem(&t4_smem_store, &["3"]),
        sin = smem(&staging[0].0, &["v", "0"]),
        sout = smem(&staging[1].0, &["v", "0"]),
    );

    src.add_kernels(&k);
    Ok(Generated { funcs, source: src })
}

/// `compose(L, TV)` over (thread, x) with `x` one integer: the typed value of `NAME` (also
/// through the run-time restriction `layout!(restrict(.., thread = t))`, asserted equal), of
/// `NAME_x` (the restriction to thread 0) or `NAME_v` (that minus its value at 0).
macro_rules! two {
    ($l:ident, $tv:ident, $suffix:expr, $c:expr) => {{
        let c: &[usize] = $c;
        if $suffix.is_empty() {
            let (t, x) = (c[0], c[1]);
            let whole = i64::from(compose($l, $tv).offset((t, x)));
            let slice = layout!(restrict(compose($l, $tv), thread = t));
            assert_eq!(
                i64::from(slice.offset(x)),
                whole,
                "restricted at thread {t}"
            );
            whole
        } else {
            let slice = layout!(restrict(compose($l, $tv), thread = 0));
            let at = i64::from(slice.offset(c[0]));
            if $suffix == "_v" {
                at - i64::from(slice.offset(0usize))
            } else {
                at
            }
        }
    }};
}

/// As `two!`, with `x = (value, vec)`.
macro_rules! three {
    ($l:ident, $tv:ident, $suffix:expr, $c:expr) => {{
        let c: &[usize] = $c;
        if $suffix.is_empty() {
            let (t, v, e) = (c[0], c[1], c[2]);
            let whole = i64::from(compose($l, $tv).offset((t, v, e)));
            let slice = layout!(restrict(compose($l, $tv), thread = t));
            assert_eq!(
                i64::from(slice.offset((v, e))),
                whole,
                "restricted at thread {t}"
            );
            whole
        } else {
            let slice = layout!(restrict(compose($l, $tv), thread = 0));
            let at = i64::from(slice.offset((c[0], c[1])));
            if $suffix == "_v" {
                at - i64::from(slice.offset((0usize, 0usize)))
            } else {
                at
            }
        }
    }};
}

/// The typed API's value of the emitted function `name` at its coordinates `c`, computed by the
/// `layout!` values (the macro's own code, not the emitted C): the CI test's reference. `None`
/// for an unknown name.
#[must_use]
pub fn typed_reference(name: &str, c: &[usize]) -> Option<i64> {
    let (base, suffix) = match name.len().checked_sub(2).map(|n| name.split_at(n)) {
        Some((b, s @ ("_v" | "_x"))) => (b, s),
        _ => (name, ""),
    };
    Some(match base {
        "t_smem_load" => two!(T_SMEM, T_LOAD, suffix, c),
        "t_smem_store" => two!(T_SMEM, T_STORE, suffix, c),
        "t_load_row" => two!(T_ROW, T_LOAD, suffix, c),
        "t_load_col" => two!(T_COL, T_LOAD, suffix, c),
        "t_store_row" => two!(T_ROW, T_STORE, suffix, c),
        "t_store_col" => two!(T_COL, T_STORE, suffix, c),
        "t4_load_row" => two!(T_ROW, T_LOAD4, suffix, c),
        "t4_load_col" => two!(T_COL, T_LOAD4, suffix, c),
        "t4_store_row" => two!(T_ROW, T_STORE4, suffix, c),
        "t4_store_col" => two!(T_COL, T_STORE4, suffix, c),
        "t4_smem_load" => two!(T_SMEM, T_LOAD4, suffix, c),
        "t4_smem_store" => two!(T_SMEM, T_STORE4, suffix, c),
        "s_smem_in" => three!(S_SMEM, S_IN, suffix, c),
        "s_in_row" => three!(S_ROW, S_IN, suffix, c),
        "s_in_col" => three!(S_COL, S_IN, suffix, c),
        "s_smem_out" => three!(S_SMEM, S_OUT, suffix, c),
        "s_out_row" => three!(S_ROW, S_OUT, suffix, c),
        "s_out_col" => three!(S_COL, S_OUT, suffix, c),
        "t_grid_row" => i64::from(T_GRID_ROW.offset((c[0], c[1]))),
        "t_grid_col" => i64::from(T_GRID_COL.offset((c[0], c[1]))),
        "t_rgrid_row" => i64::from(T_RGRID_ROW.offset((c[0], c[1]))),
        "t_rgrid_col" => i64::from(T_RGRID_COL.offset((c[0], c[1]))),
        "s_grid_row" => i64::from(S_GRID_ROW.offset((c[0], c[1]))),
        "s_grid_col" => i64::from(S_GRID_COL.offset((c[0], c[1]))),
        _ => return None,
    })
}

/// The address functions the kernels call, with their coordinates after `(by, bx)`: name,
/// sizes, and the matrix (rows, columns) they address.
pub const ADDRESSES: [(&str, &[i64], (i64, i64)); 8] = [
    ("t_in", &[256, 4], (T_N, T_N)),
    ("t_out", &[256, 4], (T_N, T_N)),
    ("t_in_r", &[256, 4], (T_N, T_N)),
    ("t_out_r", &[256, 4], (T_N, T_N)),
    ("t4_in", &[256, 4], (T_N, T_N)),
    ("t4_out", &[256, 4], (T_N, T_N)),
    ("s_in", &[128, 8, 8], (S_ROWS, S_COLS)),
    ("s_out", &[128, 8, 8], (S_ROWS, S_COLS)),
];

/// The typed API's offsets of address function `name` (see [`ADDRESSES`]) with run-time `ld`
/// at tile `(by, bx)`, at every coordinate after `(by, bx)` (last fastest): the global layout
/// `({m},{n}):({ld},1)` (its transpose for the output of (a)) at the tile's first element, plus
/// `try_compose` of the tile, with run-time `ld`, and the thread-value layout.
///
/// # Errors
/// When `ld` makes the layouts alias or overflow `i32`.
///
/// # Panics
/// For an unknown name.
pub fn typed_addresses(name: &str, ld: i64, by: usize, bx: usize) -> Result<Vec<i64>, Error> {
    // The whole matrices (the transposed output in the input's coordinates) and one tile.
    let g_in = || layout!(({T_N},{T_N}):({ld},1), logical -> physical, index = i32);
    let g_out = || layout!(({T_N},{T_N}):(1,{ld}), logical -> physical, index = i32);
    let tile_in = || layout!((32,32):({ld},1), logical -> physical, index = i32);
    let tile_out = || layout!((32,32):(1,{ld}), logical -> physical, index = i32);
    let t_origin = (32 * by, 32 * bx);
    let r_origin = (
        T_RGRID_ROW.offset((by, bx)) as usize,
        T_RGRID_COL.offset((by, bx)) as usize,
    );
    let two = |origin: i32, f: &dyn Fn(usize, usize) -> i32, n: usize, m: usize| {
        let mut out = Vec::with_capacity(n * m);
        for t in 0..n {
            for x in 0..m {
                out.push(i64::from(origin) + i64::from(f(t, x)));
            }
        }
        out
    };
    Ok(match name {
        "t_in" => {
            let a = try_compose(tile_in()?, T_LOAD)?;
            two(g_in()?.offset(t_origin), &|t, v| a.offset((t, v)), 256, 4)
        }
        "t_out" => {
            let a = try_compose(tile_out()?, T_STORE)?;
            two(g_out()?.offset(t_origin), &|t, v| a.offset((t, v)), 256, 4)
        }
        "t_in_r" => {
            let a = try_compose(tile_in()?, T_LOAD)?;
            two(g_in()?.offset(r_origin), &|t, v| a.offset((t, v)), 256, 4)
        }
        "t_out_r" => {
            let a = try_compose(tile_out()?, T_STORE)?;
            two(
                g_out()?.offset((r_origin.0, r_origin.1)),
                &|t, v| a.offset((t, v)),
                256,
                4,
            )
        }
        "t4_in" => {
            let a = try_compose(tile_in()?, T_LOAD4)?;
            two(g_in()?.offset(t_origin), &|t, e| a.offset((t, e)), 256, 4)
        }
        "t4_out" => {
            let a = try_compose(tile_out()?, T_STORE4)?;
            two(g_out()?.offset(t_origin), &|t, e| a.offset((t, e)), 256, 4)
        }
        "s_in" | "s_out" => {
            let g_s = layout!(({S_ROWS},{S_COLS}):({ld},1), logical -> physical, index = i32)?;
            let tile_s = layout!((128,64):({ld},1), logical -> physical, index = i32)?;
            let origin = i64::from(g_s.offset((128 * by, 64 * bx)));
            let (a_in, a_out) = (try_compose(tile_s, S_IN)?, try_compose(tile_s, S_OUT)?);
            let mut out = Vec::with_capacity(8192);
            for t in 0..128 {
                for v in 0..8 {
                    for e in 0..8 {
                        let off = if name == "s_in" {
                            a_in.offset((t, v, e))
                        } else {
                            a_out.offset((t, v, e))
                        };
                        out.push(origin + i64::from(off));
                    }
                }
            }
            out
        }
        _ => panic!("unknown address function {name}"),
    })
}

/// The marker lines around the addressing functions (the CI test compiles what lies between).
#[allow(unused_imports)] // read by the CI test, not by `main.rs`
pub use lc::cuda::{BEGIN, END};

/// The addressing functions alone: every emitted function, then the address functions and the
/// host checks.
#[must_use]
pub fn addressing(g: &Generated) -> String {
    g.source.addressing().to_string()
}

/// The whole `.cu` file.
///
/// # Errors
/// As [`generate`].
pub fn cuda_source() -> Result<String, Error> {
    Ok(generate()?.source.text())
}
