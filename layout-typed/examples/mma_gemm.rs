//! A 512×512×512 GEMM on the CPU, addressed only through checked layouts of the real CUTLASS
//! atom `SM80_16x8x16_F32F16F16F32_TN` (include/cute/atom/mma_traits_sm80.hpp).
//!
//! Each warp of 32 lanes owns one 16×8 tile of C. For every 16-wide step of K, each lane loads
//! its A and B fragment values from global memory through `compose(storage, tv)`, the tensor
//! core is simulated on the fragments, and at the end each lane stores its C values through
//! `compose(storage_c, tv_c)`. The result is checked against a naive GEMM; inputs are small
//! integers, so every sum is exact in f32 (fp16 inputs of the real atom hold them exactly too).
//!
//! Run: `cargo run --release -p layout-typed --example mma_gemm`

// An example, exempt from the checked-arithmetic lints of the library: its sizes are
// constants, and an overflow would panic in the run.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::time::Instant;

use layout_typed::prelude::*;
use layout_typed::{Coord, LogicalSpace, Size, Tile2};

/// Rows of A and C.
pub const M: usize = 512;
/// Columns of C.
pub const N: usize = 512;
/// The reduction length.
pub const K: usize = 512;

layout! {
    // The atom's thread-value layouts, pasted in CuTe order from mma_traits_sm80.hpp. Each maps
    // (thread, value) to CuTe's column-major index of the atom's tile: m + 16·k for A (16×16),
    // n + 8·k for B (8×16), m + 16·n for C (16×8). `logical(M, K)` records that tile in CuTe
    // order, so a storage layout over a transposed tile fails to compile.
    /// A fragment: 32 lanes × 8 values over the 16×16 (M×K) tile.
    pub const TV_A = cute ((4,8),(2,2,2)):((32,1),(16,8,128)), thread-value -> logical(16,16);
    /// B fragment: 32 lanes × 4 values over the 8×16 (N×K) tile.
    pub const TV_B = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical(8,16);
    /// C fragment: 32 lanes × 4 values over the 16×8 (M×N) tile.
    pub const TV_C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);

    // Global storage of one atom tile, written over the same logical index as the atom.
    /// A is M×K row-major (K contiguous, "T"): element (m, k) at m·K + k.
    pub const GA = cute (16,16):(512,1), logical(16,16) -> physical;
    /// B is N×K row-major (K contiguous, "N" for the K×N operand): element (n, k) at n·K + k.
    pub const GB = cute (8,16):(512,1), logical(8,16) -> physical;
    /// C is M×N column-major: element (m, n) at m + n·M.
    pub const GC = cute (16,8):(1,512), logical(16,8) -> physical;

    // Where each atom tile starts, in seed order (last mode fastest).
    /// (m-tile, k-tile) -> offset of A's tile.
    pub const TILES_A = (32,32):(8192,16), logical -> physical;
    /// (n-tile, k-tile) -> offset of B's tile.
    pub const TILES_B = (64,32):(4096,16), logical -> physical;
    /// (m-tile, n-tile) -> offset of C's tile.
    pub const TILES_C = (32,64):(16,4096), logical -> physical;

    // The tensor core's view of the tiles: (k, m) -> m + 16·k, etc. (seed order).
    /// A tile position of (k, m).
    pub const POS_A = (16,16):(16,1), logical -> logical;
    /// B tile position of (k, n).
    pub const POS_B = (16,8):(8,1), logical -> logical;
    /// C tile position of (n, m).
    pub const POS_C = (8,16):(16,1), logical -> logical;
}

/// One warp's registers: per lane, its values of a fragment.
type Frag<const V: usize> = [[f32; V]; 32];

/// The thread-value layouts a kernel *declares* for the atom: (value, lane) in seed order ->
/// the atom tile's column-major index. The kernel loads and stores through them; the tensor core
/// ([`mma`]) works with the real ones. Generic so that a test can declare a corrupted atom and
/// watch the verification fail.
pub trait Atom: Copy {
    /// A's TV layout (16×16 tile, 32 lanes × 8 values).
    type A: Layout<Codomain = LogicalSpace, Size = Size<256>, CodomainTile = Tile2<16, 16>>;
    /// B's TV layout (8×16 tile, 32 lanes × 4 values).
    type B: Layout<Codomain = LogicalSpace, Size = Size<128>, CodomainTile = Tile2<16, 8>>;
    /// C's TV layout (16×8 tile, 32 lanes × 4 values).
    type C: Layout<Codomain = LogicalSpace, Size = Size<128>, CodomainTile = Tile2<8, 16>>;
    /// The three layouts.
    fn layouts(self) -> (Self::A, Self::B, Self::C);
}

/// The real atom.
#[derive(Clone, Copy)]
pub struct Sm80;
impl Atom for Sm80 {
    type A = TV_A;
    type B = TV_B;
    type C = TV_C;
    fn layouts(self) -> (TV_A, TV_B, TV_C) {
        (TV_A, TV_B, TV_C)
    }
}

/// The tensor core: D = A·Bᵀ + C on one 16×8×16 atom, given every lane's fragments. This is
/// the hardware, so it always uses the real atom's layouts (`TV_A`, `TV_B`, `TV_C`): fragments
/// loaded through a different declaration land in the wrong places of the tile.
fn mma(a: &Frag<8>, b: &Frag<4>, c: &mut Frag<4>) {
    let (mut ta, mut tb, mut tc) = ([0f32; 256], [0f32; 128], [0f32; 128]);
    for lane in 0..32 {
        for v in 0..8 {
            ta[TV_A.offset((v, lane)) as usize] = a[lane][v];
        }
        for v in 0..4 {
            tb[TV_B.offset((v, lane)) as usize] = b[lane][v];
            tc[TV_C.offset((v, lane)) as usize] = c[lane][v];
        }
    }
    let mut td = [0f32; 128];
    for m in 0..16 {
        for n in 0..8 {
            let mut acc = tc[POS_C.offset((n, m)) as usize];
            for k in 0..16 {
                acc += ta[POS_A.offset((k, m)) as usize] * tb[POS_B.offset((k, n)) as usize];
            }
            td[POS_C.offset((n, m)) as usize] = acc;
        }
    }
    for lane in 0..32 {
        for v in 0..4 {
            c[lane][v] = td[TV_C.offset((v, lane)) as usize];
        }
    }
}

/// The GEMM through the composed layouts: every global read and write is an `offset`.
pub fn gemm_by_layouts<T: Atom>(atom: T, a: &[f32], b: &[f32], c: &mut [f32])
where
    (usize, usize): Coord<<T::A as Layout>::Form>
        + Coord<<T::B as Layout>::Form>
        + Coord<<T::C as Layout>::Form>,
{
    let (tv_a, tv_b, tv_c) = atom.layouts();
    let addr_a = compose(GA, tv_a); // thread-value -> physical
    let addr_b = compose(GB, tv_b);
    let addr_c = compose(GC, tv_c);
    for mt in 0..M / 16 {
        for nt in 0..N / 8 {
            // One warp per C tile.
            let mut acc: Frag<4> = [[0.0; 4]; 32];
            for kt in 0..K / 16 {
                let (base_a, base_b) = (TILES_A.offset((mt, kt)), TILES_B.offset((nt, kt)));
                let mut fa: Frag<8> = [[0.0; 8]; 32];
                let mut fb: Frag<4> = [[0.0; 4]; 32];
                for lane in 0..32 {
                    for v in 0..8 {
                        fa[lane][v] = a[(base_a + addr_a.offset((v, lane))) as usize];
                    }
                    for v in 0..4 {
                        fb[lane][v] = b[(base_b + addr_b.offset((v, lane))) as usize];
                    }
                }
                mma(&fa, &fb, &mut acc);
            }
            let base_c = TILES_C.offset((mt, nt));
            for (lane, values) in acc.iter().enumerate() {
                for (v, x) in values.iter().enumerate() {
                    c[(base_c + addr_c.offset((v, lane))) as usize] = *x;
                }
            }
        }
    }
}

/// The reference: C(m, n) = Σ_k A(m, k)·B(n, k), with the storage orders written by hand.
pub fn gemm_naive(a: &[f32], b: &[f32], c: &mut [f32]) {
    for m in 0..M {
        for n in 0..N {
            let mut acc = 0f32;
            for k in 0..K {
                acc += a[m * K + k] * b[n * K + k];
            }
            c[m + n * M] = acc;
        }
    }
}

/// A (M×K) and B (N×K) filled with small integers in [-4, 3]: products and sums of 512 terms
/// stay exact in f32 (and in the fp16 inputs of the real atom).
pub fn inputs() -> (Vec<f32>, Vec<f32>) {
    let small = |i: usize, seed: u64| {
        let h = ((i as u64) ^ (seed << 40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 61) as f32) - 4.0
    };
    (
        (0..M * K).map(|i| small(i, 1)).collect(),
        (0..N * K).map(|i| small(i, 2)).collect(),
    )
}

fn describe<L: Layout>(name: &str, l: L) {
    let verdict = match l.to_map() {
        Ok(map) if map.codomain() == layout_typed::core_algebra::Space::Physical => {
            "alias-free".to_string()
        }
        Ok(_) => "dense bijection (Lemma 1)".to_string(),
        Err(e) => format!("REJECTED at run time: {e}"),
    };
    println!(
        "  {name:<8} seed {:<36} cute {:<36} {verdict}",
        l.notation().to_string(),
        l.cute().to_string()
    );
}

fn main() {
    println!("SM80_16x8x16_F32F16F16F32_TN, {M}x{N}x{K} GEMM addressed through checked layouts\n");
    describe("TV_A", TV_A);
    describe("TV_B", TV_B);
    describe("TV_C", TV_C);
    describe("GA", GA);
    describe("GB", GB);
    describe("GC", GC);
    describe("TILES_A", TILES_A);
    describe("TILES_B", TILES_B);
    describe("TILES_C", TILES_C);
    for (name, map) in [
        ("GA∘TV_A", compose(GA, TV_A).to_map()),
        ("GB∘TV_B", compose(GB, TV_B).to_map()),
        ("GC∘TV_C", compose(GC, TV_C).to_map()),
    ] {
        match map {
            Ok(m) => println!(
                "  {name:<8} {} -> {}, {} coordinates",
                m.domain(),
                m.codomain(),
                m.size()
            ),
            Err(e) => println!("  {name:<8} REJECTED: {e}"),
        }
    }

    let (a, b) = inputs();
    let mut c = vec![f32::NAN; M * N];
    let mut reference = vec![0f32; M * N];

    let t = Instant::now();
    gemm_by_layouts(Sm80, &a, &b, &mut c);
    let t_layout = t.elapsed();
    let t = Instant::now();
    gemm_naive(&a, &b, &mut reference);
    let t_naive = t.elapsed();

    let wrong = c.iter().zip(&reference).filter(|(x, y)| x != y).count();
    println!(
        "\nGEMM through the layouts: {:.3} s; naive GEMM: {:.3} s",
        t_layout.as_secs_f64(),
        t_naive.as_secs_f64()
    );
    if wrong == 0 {
        println!(
            "verified: all {} elements of C equal the naive GEMM exactly",
            M * N
        );
    } else {
        println!("MISMATCH: {wrong} of {} elements differ", M * N);
        std::process::exit(1);
    }
}
