//! SM90 MMA atoms: the warp-level f64 `mma.sync` atoms of `include/cute/atom/mma_traits_sm90.hpp`
//! and warpgroup GMMA atoms (`wgmma`, `_SS` and `_RS`) of
//! `include/cute/atom/mma_traits_sm90_gmma.hpp`.
//!
//! Written from the corpus (`tests/data/cute_corpus.json`, op `mma_atom`): each module's
//! layouts are the case's CuTe text, pasted into `layout!` under `cute`; a broadcast layout's
//! `_DENSE` part is that text with its stride-0 leaves removed. No generator keeps them in step
//! with it: `tests/tests/atoms.rs` compares every constant, and every dense part, with its
//! case's offsets at every coordinate, and `tests/tests/atoms_cpp.rs` with CuTe C++ over the
//! CUTLASS 4.2 headers (they agree everywhere).

/// `SM90_16x8x4_F64F64F64F64_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm90.hpp:47`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64`: f64 throughout.
///
/// M×N×K = 16×8×4, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×4,
/// M×K), B to `n + 8·k` (8×4, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM90_16x8x4_F64F64F64F64_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_16x8x4_f64f64f64f64_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm90.hpp:47`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 2 values -> `m + 16·k` in the 16×4 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),2):((16,1),8)`,
        /// `include/cute/atom/mma_traits_sm90.hpp:47`.
        pub const A = cute ((4,8),2):((16,1),8), thread-value -> logical(16,4);
        /// `BLayout`: 32 threads × 1 value -> `n + 8·k` in the 8×4 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),1):((8,1),0)`, `include/cute/atom/mma_traits_sm90.hpp:47`.
        pub const B = cute ((4,8),1):((8,1),0), thread-value -> logical(8,4);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm90.hpp:47`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM90_16x8x8_F64F64F64F64_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm90.hpp:67`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64`: f64 throughout.
///
/// M×N×K = 16×8×8, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×8,
/// M×K), B to `n + 8·k` (8×8, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM90_16x8x8_F64F64F64F64_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_16x8x8_f64f64f64f64_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm90.hpp:67`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 4 values -> `m + 16·k` in the 16×8 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((16,1),(8,64))`,
        /// `include/cute/atom/mma_traits_sm90.hpp:67`.
        pub const A = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical(16,8);
        /// `BLayout`: 32 threads × 2 values -> `n + 8·k` in the 8×8 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),2):((8,1),32)`,
        /// `include/cute/atom/mma_traits_sm90.hpp:67`.
        pub const B = cute ((4,8),2):((8,1),32), thread-value -> logical(8,8);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm90.hpp:67`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM90_16x8x16_F64F64F64F64_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm90.hpp:87`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64`: f64 throughout.
///
/// M×N×K = 16×8×16, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×16,
/// M×K), B to `n + 8·k` (8×16, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM90_16x8x16_F64F64F64F64_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_16x8x16_f64f64f64f64_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm90.hpp:87`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 8 values -> `m + 16·k` in the 16×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,4)):((16,1),(8,64))`,
        /// `include/cute/atom/mma_traits_sm90.hpp:87`.
        pub const A = cute ((4,8),(2,4)):((16,1),(8,64)), thread-value -> logical(16,16);
        /// `BLayout`: 32 threads × 4 values -> `n + 8·k` in the 8×16 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),4):((8,1),32)`,
        /// `include/cute/atom/mma_traits_sm90.hpp:87`.
        pub const B = cute ((4,8),4):((8,1),32), thread-value -> logical(8,16);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm90.hpp:87`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM90_64x64x16_F32F16F16_SS<K,K>`: the `MMA_Traits` at
/// `include/cute/atom/mma_traits_sm90_gmma.hpp:1129` (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// GMMA `wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16`, A and B K-major in shared memory
/// (`SS`), f32 accumulators in registers.
///
/// M×N×K = 64×64×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 64·k` (64×16, N×K), C to `m + 64·n` (64×64, M×N). `A` and `B` are
/// read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `mma_SM90_64x64x16_F32F16F16_SS_K_K` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_64x64x16_f32f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `128:1`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:1129`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast: every thread reads the whole tile (the thread mode has stride
        /// `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding CuTe's
        /// (thread, value). It is `A_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(64,16)):(0,(1,64))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:1129`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its thread mode removed, 1024 values -> `m + 64·k` in the 64×16
        /// (M×K) tile, in elements. A dense bijection (the identity). CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 1024 values -> `n + 64·k` in the 64×16 (N×K) tile, in elements.
        /// A read-only broadcast: every thread reads the whole tile (the thread mode has stride
        /// `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding CuTe's
        /// (thread, value). It is `B_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(64,16)):(0,(1,64))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:1129`.
        pub const B = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `B`: its thread mode removed, 1024 values -> `n + 64·k` in the 64×16
        /// (N×K) tile, in elements. A dense bijection (the identity). CuTe `(64,16):(1,64)`.
        pub const B_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `CLayout`: 128 threads × 32 values -> `m + 64·n` in the 64×64 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8,4),(2,2,8)):((128,1,16),(64,8,512))`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:1129`.
        pub const C = cute ((4,8,4),(2,2,8)):((128,1,16),(64,8,512)), thread-value -> logical(64,64);
    }
}

/// `SM90_64x128x16_F32F16F16_SS<K,K>`: the `MMA_Traits` at
/// `include/cute/atom/mma_traits_sm90_gmma.hpp:1247` (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// GMMA `wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16`, A and B K-major in shared memory
/// (`SS`), f32 accumulators in registers.
///
/// M×N×K = 64×128×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 128·k` (128×16, N×K), C to `m + 64·n` (64×128, M×N). `A` and `B`
/// are read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `mma_SM90_64x128x16_F32F16F16_SS_K_K` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_64x128x16_f32f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `128:1`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:1247`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast: every thread reads the whole tile (the thread mode has stride
        /// `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding CuTe's
        /// (thread, value). It is `A_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(64,16)):(0,(1,64))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:1247`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its thread mode removed, 1024 values -> `m + 64·k` in the 64×16
        /// (M×K) tile, in elements. A dense bijection (the identity). CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 2048 values -> `n + 128·k` in the 128×16 (N×K) tile, in
        /// elements. A read-only broadcast: every thread reads the whole tile (the thread mode has
        /// stride `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding
        /// CuTe's (thread, value). It is `B_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(128,16)):(0,(1,128))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:1247`.
        pub const B = cute (128,(128,16)):(0,(1,128)), logical -> physical;
        /// The dense part of `B`: its thread mode removed, 2048 values -> `n + 128·k` in the 128×16
        /// (N×K) tile, in elements. A dense bijection (the identity). CuTe `(128,16):(1,128)`.
        pub const B_DENSE = cute (128,16):(1,128), thread-value -> logical(128,16);
        /// `CLayout`: 128 threads × 64 values -> `m + 64·n` in the 64×128 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((4,8,4),(2,2,16)):((128,1,16),(64,8,512))`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:1247`.
        pub const C = cute ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)), thread-value -> logical(64,128);
    }
}

/// `SM90_64x128x16_F32F16F16_RS<K,K>`: the `MMA_Traits` at
/// `include/cute/atom/mma_traits_sm90_gmma.hpp:1277` (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// GMMA `wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16`, A in registers and B K-major in
/// shared memory (`RS`), f32 accumulators in registers.
///
/// M×N×K = 64×128×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 128·k` (128×16, N×K), C to `m + 64·n` (64×128, M×N). `B` is read
/// from shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose
/// dense part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `mma_SM90_64x128x16_F32F16F16_RS_K_K` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_64x128x16_f32f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `128:1`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:1277`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8,4),(2,2,2)):((128,1,16),(64,8,512))`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:1277`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 2048 values -> `n + 128·k` in the 128×16 (N×K) tile, in
        /// elements. A read-only broadcast: every thread reads the whole tile (the thread mode has
        /// stride `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding
        /// CuTe's (thread, value). It is `B_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(128,16)):(0,(1,128))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:1277`.
        pub const B = cute (128,(128,16)):(0,(1,128)), logical -> physical;
        /// The dense part of `B`: its thread mode removed, 2048 values -> `n + 128·k` in the 128×16
        /// (N×K) tile, in elements. A dense bijection (the identity). CuTe `(128,16):(1,128)`.
        pub const B_DENSE = cute (128,16):(1,128), thread-value -> logical(128,16);
        /// `CLayout`: 128 threads × 64 values -> `m + 64·n` in the 64×128 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((4,8,4),(2,2,16)):((128,1,16),(64,8,512))`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:1277`.
        pub const C = cute ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)), thread-value -> logical(64,128);
    }
}

/// `SM90_64x128x32_S32S8S8_SS_TN`: the `MMA_Traits` at
/// `include/cute/atom/mma_traits_sm90_gmma.hpp:2581` (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// GMMA `wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8`, A and B in shared memory (`SS`), s32
/// accumulators in registers.
///
/// M×N×K = 64×128×32, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×32, M×K), B to `n + 128·k` (128×32, N×K), C to `m + 64·n` (64×128, M×N). `A` and `B`
/// are read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `mma_SM90_64x128x32_S32S8S8_SS_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_64x128x32_s32s8s8_ss_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `128:1`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:2581`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 2048 values -> `m + 64·k` in the 64×32 (M×K) tile, in elements.
        /// A read-only broadcast: every thread reads the whole tile (the thread mode has stride
        /// `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding CuTe's
        /// (thread, value). It is `A_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(64,32)):(0,(1,64))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:2581`.
        pub const A = cute (128,(64,32)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its thread mode removed, 2048 values -> `m + 64·k` in the 64×32
        /// (M×K) tile, in elements. A dense bijection (the identity). CuTe `(64,32):(1,64)`.
        pub const A_DENSE = cute (64,32):(1,64), thread-value -> logical(64,32);
        /// `BLayout`: 128 threads × 4096 values -> `n + 128·k` in the 128×32 (N×K) tile, in
        /// elements. A read-only broadcast: every thread reads the whole tile (the thread mode has
        /// stride `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding
        /// CuTe's (thread, value). It is `B_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(128,32)):(0,(1,128))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:2581`.
        pub const B = cute (128,(128,32)):(0,(1,128)), logical -> physical;
        /// The dense part of `B`: its thread mode removed, 4096 values -> `n + 128·k` in the 128×32
        /// (N×K) tile, in elements. A dense bijection (the identity). CuTe `(128,32):(1,128)`.
        pub const B_DENSE = cute (128,32):(1,128), thread-value -> logical(128,32);
        /// `CLayout`: 128 threads × 64 values -> `m + 64·n` in the 64×128 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((4,8,4),(2,2,16)):((128,1,16),(64,8,512))`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:2581`.
        pub const C = cute ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)), thread-value -> logical(64,128);
    }
}

/// `SM90_64x128x32_S32S8S8_RS_TN`: the `MMA_Traits` at
/// `include/cute/atom/mma_traits_sm90_gmma.hpp:2971` (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// GMMA `wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8`, A in registers and B in shared memory
/// (`RS`), s32 accumulators in registers.
///
/// M×N×K = 64×128×32, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×32, M×K), B to `n + 128·k` (128×32, N×K), C to `m + 64·n` (64×128, M×N). `B` is read
/// from shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose
/// dense part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `mma_SM90_64x128x32_S32S8S8_RS_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_64x128x32_s32s8s8_rs_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `128:1`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:2971`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 16 values -> `m + 64·k` in the 64×32 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:2971`.
        pub const A = cute ((4,8,4),(4,2,2)):((256,1,16),(64,8,1024)), thread-value -> logical(64,32);
        /// `BLayout`: 128 threads × 4096 values -> `n + 128·k` in the 128×32 (N×K) tile, in
        /// elements. A read-only broadcast: every thread reads the whole tile (the thread mode has
        /// stride `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding
        /// CuTe's (thread, value). It is `B_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(128,32)):(0,(1,128))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:2971`.
        pub const B = cute (128,(128,32)):(0,(1,128)), logical -> physical;
        /// The dense part of `B`: its thread mode removed, 4096 values -> `n + 128·k` in the 128×32
        /// (N×K) tile, in elements. A dense bijection (the identity). CuTe `(128,32):(1,128)`.
        pub const B_DENSE = cute (128,32):(1,128), thread-value -> logical(128,32);
        /// `CLayout`: 128 threads × 64 values -> `m + 64·n` in the 64×128 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((4,8,4),(2,2,16)):((128,1,16),(64,8,512))`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:2971`.
        pub const C = cute ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)), thread-value -> logical(64,128);
    }
}

/// `SM90_64x128x32_F32E4M3E4M3_SS_TN`: the `MMA_Traits` at
/// `include/cute/atom/mma_traits_sm90_gmma.hpp:6075` (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// GMMA `wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3`, A and B in shared memory (`SS`),
/// f32 accumulators in registers.
///
/// M×N×K = 64×128×32, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×32, M×K), B to `n + 128·k` (128×32, N×K), C to `m + 64·n` (64×128, M×N). `A` and `B`
/// are read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Tested against the corpus case `mma_SM90_64x128x32_F32E4M3E4M3_SS_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm90_64x128x32_f32e4m3e4m3_ss_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `128:1`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:6075`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 2048 values -> `m + 64·k` in the 64×32 (M×K) tile, in elements.
        /// A read-only broadcast: every thread reads the whole tile (the thread mode has stride
        /// `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding CuTe's
        /// (thread, value). It is `A_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(64,32)):(0,(1,64))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:6075`.
        pub const A = cute (128,(64,32)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its thread mode removed, 2048 values -> `m + 64·k` in the 64×32
        /// (M×K) tile, in elements. A dense bijection (the identity). CuTe `(64,32):(1,64)`.
        pub const A_DENSE = cute (64,32):(1,64), thread-value -> logical(64,32);
        /// `BLayout`: 128 threads × 4096 values -> `n + 128·k` in the 128×32 (N×K) tile, in
        /// elements. A read-only broadcast: every thread reads the whole tile (the thread mode has
        /// stride `_`, CuTe `0`), so it is annotated `logical -> physical`, its domain holding
        /// CuTe's (thread, value). It is `B_DENSE` broadcast over 128 threads. CuTe
        /// `(128,(128,32)):(0,(1,128))`, `include/cute/atom/mma_traits_sm90_gmma.hpp:6075`.
        pub const B = cute (128,(128,32)):(0,(1,128)), logical -> physical;
        /// The dense part of `B`: its thread mode removed, 4096 values -> `n + 128·k` in the 128×32
        /// (N×K) tile, in elements. A dense bijection (the identity). CuTe `(128,32):(1,128)`.
        pub const B_DENSE = cute (128,32):(1,128), thread-value -> logical(128,32);
        /// `CLayout`: 128 threads × 64 values -> `m + 64·n` in the 64×128 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((4,8,4),(2,2,16)):((128,1,16),(64,8,512))`,
        /// `include/cute/atom/mma_traits_sm90_gmma.hpp:6075`.
        pub const C = cute ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)), thread-value -> logical(64,128);
    }
}
