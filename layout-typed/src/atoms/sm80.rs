//! SM80 warp-level MMA atoms (`mma.sync`), from `include/cute/atom/mma_traits_sm80.hpp`.
//!
//! Written from the corpus (`tests/data/cute_corpus.json`, op `mma_atom`): each module's
//! layouts are the case's CuTe text, pasted into `layout!` under `cute`. No generator keeps them
//! in step with it: `tests/tests/atoms.rs` compares every constant with its case's offsets at
//! every coordinate, and `tests/tests/atoms_cpp.rs` with CuTe C++ over the CUTLASS 4.2 headers
//! (they agree everywhere).

/// `SM80_16x8x8_F16F16F16F16_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm80.hpp:63`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16`: f16 inputs, f16 accumulators.
///
/// M×N×K = 16×8×8, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×8,
/// M×K), B to `n + 8·k` (8×8, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x8_F16F16F16F16_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x8_f16f16f16f16_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:63`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 4 values -> `m + 16·k` in the 16×8 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:63`.
        pub const A = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
        /// `BLayout`: 32 threads × 2 values -> `n + 8·k` in the 8×8 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),2):((16,1),8)`,
        /// `include/cute/atom/mma_traits_sm80.hpp:63`.
        pub const B = cute ((4,8),2):((16,1),8), thread-value -> logical(8,8);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:63`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_16x8x8_F32F16F16F32_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm80.hpp:99`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32`: f16 inputs, f32 accumulators.
///
/// M×N×K = 16×8×8, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×8,
/// M×K), B to `n + 8·k` (8×8, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x8_F32F16F16F32_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x8_f32f16f16f32_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:99`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 4 values -> `m + 16·k` in the 16×8 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:99`.
        pub const A = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
        /// `BLayout`: 32 threads × 2 values -> `n + 8·k` in the 8×8 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),2):((16,1),8)`,
        /// `include/cute/atom/mma_traits_sm80.hpp:99`.
        pub const B = cute ((4,8),2):((16,1),8), thread-value -> logical(8,8);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:99`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_16x8x16_F32F16F16F32_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm80.hpp:109`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`: f16 inputs, f32 accumulators.
///
/// M×N×K = 16×8×16, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×16,
/// M×K), B to `n + 8·k` (8×16, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x16_F32F16F16F32_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x16_f32f16f16f32_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:109`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 8 values -> `m + 16·k` in the 16×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2,2)):((32,1),(16,8,128))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:109`.
        pub const A = cute ((4,8),(2,2,2)):((32,1),(16,8,128)), thread-value -> logical(16,16);
        /// `BLayout`: 32 threads × 4 values -> `n + 8·k` in the 8×16 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((16,1),(8,64))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:109`.
        pub const B = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical(8,16);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:109`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_16x8x16_F32BF16BF16F32_TN`: the `MMA_Traits` at
/// `include/cute/atom/mma_traits_sm80.hpp:133` (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`: bf16 inputs, f32 accumulators.
///
/// M×N×K = 16×8×16, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×16,
/// M×K), B to `n + 8·k` (8×16, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x16_F32BF16BF16F32_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x16_f32bf16bf16f32_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:133`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 8 values -> `m + 16·k` in the 16×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2,2)):((32,1),(16,8,128))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:133`.
        pub const A = cute ((4,8),(2,2,2)):((32,1),(16,8,128)), thread-value -> logical(16,16);
        /// `BLayout`: 32 threads × 4 values -> `n + 8·k` in the 8×16 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((16,1),(8,64))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:133`.
        pub const B = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical(8,16);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:133`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_16x8x4_F32TF32TF32F32_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm80.hpp:147`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32`: tf32 inputs, f32 accumulators.
///
/// M×N×K = 16×8×4, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×4,
/// M×K), B to `n + 8·k` (8×4, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x4_F32TF32TF32F32_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x4_f32tf32tf32f32_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:147`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 2 values -> `m + 16·k` in the 16×4 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),2):((16,1),8)`,
        /// `include/cute/atom/mma_traits_sm80.hpp:147`.
        pub const A = cute ((4,8),2):((16,1),8), thread-value -> logical(16,4);
        /// `BLayout`: 32 threads × 1 value -> `n + 8·k` in the 8×4 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),1):((8,1),0)`,
        /// `include/cute/atom/mma_traits_sm80.hpp:147`.
        pub const B = cute ((4,8),1):((8,1),0), thread-value -> logical(8,4);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:147`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_16x8x8_F32TF32TF32F32_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm80.hpp:163`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`: tf32 inputs, f32 accumulators.
///
/// M×N×K = 16×8×8, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×8,
/// M×K), B to `n + 8·k` (8×8, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x8_F32TF32TF32F32_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x8_f32tf32tf32f32_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:163`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 4 values -> `m + 16·k` in the 16×8 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((16,1),(8,64))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:163`.
        pub const A = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical(16,8);
        /// `BLayout`: 32 threads × 2 values -> `n + 8·k` in the 8×8 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),2):((8,1),32)`,
        /// `include/cute/atom/mma_traits_sm80.hpp:163`.
        pub const B = cute ((4,8),2):((8,1),32), thread-value -> logical(8,8);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:163`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_8x8x4_F64F64F64F64_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm80.hpp:184`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64`: f64 throughout.
///
/// M×N×K = 8×8×4, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 8·k` (8×4,
/// M×K), B to `n + 8·k` (8×4, N×K), C to `m + 8·n` (8×8, M×N).
///
/// Tested against the corpus case `mma_SM80_8x8x4_F64F64F64F64_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_8x8x4_f64f64f64f64_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:184`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 1 value -> `m + 8·k` in the 8×4 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),1):((8,1),0)`,
        /// `include/cute/atom/mma_traits_sm80.hpp:184`.
        pub const A = cute ((4,8),1):((8,1),0), thread-value -> logical(8,4);
        /// `BLayout`: 32 threads × 1 value -> `n + 8·k` in the 8×4 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),1):((8,1),0)`,
        /// `include/cute/atom/mma_traits_sm80.hpp:184`.
        pub const B = cute ((4,8),1):((8,1),0), thread-value -> logical(8,4);
        /// `CLayout`: 32 threads × 2 values -> `m + 8·n` in the 8×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),2):((16,1),8)`,
        /// `include/cute/atom/mma_traits_sm80.hpp:184`.
        pub const C = cute ((4,8),2):((16,1),8), thread-value -> logical(8,8);
    }
}

/// `SM80_16x8x16_S32S8S8S32_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm80.hpp:244`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32`: s8 inputs, s32 accumulators.
///
/// M×N×K = 16×8×16, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×16,
/// M×K), B to `n + 8·k` (8×16, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x16_S32S8S8S32_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x16_s32s8s8s32_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:244`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 8 values -> `m + 16·k` in the 16×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(4,2)):((64,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:244`.
        pub const A = cute ((4,8),(4,2)):((64,1),(16,8)), thread-value -> logical(16,16);
        /// `BLayout`: 32 threads × 4 values -> `n + 8·k` in the 8×16 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),4):((32,1),8)`,
        /// `include/cute/atom/mma_traits_sm80.hpp:244`.
        pub const B = cute ((4,8),4):((32,1),8), thread-value -> logical(8,16);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:244`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_16x8x32_S32S8S8S32_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm80.hpp:264`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32`: s8 inputs, s32 accumulators.
///
/// M×N×K = 16×8×32, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×32,
/// M×K), B to `n + 8·k` (8×32, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x32_S32S8S8S32_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x32_s32s8s8s32_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:264`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 16 values -> `m + 16·k` in the 16×32 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(4,2,2)):((64,1),(16,8,256))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:264`.
        pub const A = cute ((4,8),(4,2,2)):((64,1),(16,8,256)), thread-value -> logical(16,32);
        /// `BLayout`: 32 threads × 8 values -> `n + 8·k` in the 8×32 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(4,2)):((32,1),(8,128))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:264`.
        pub const B = cute ((4,8),(4,2)):((32,1),(8,128)), thread-value -> logical(8,32);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:264`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_16x8x64_S32S4S4S32_TN`: the `MMA_Traits` at `include/cute/atom/mma_traits_sm80.hpp:470`
/// (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32`: s4 inputs, s32 accumulators.
///
/// M×N×K = 16×8×64, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×64,
/// M×K), B to `n + 8·k` (8×64, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x64_S32S4S4S32_TN` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x64_s32s4s4s32_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:470`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 32 values -> `m + 16·k` in the 16×64 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(8,2,2)):((128,1),(16,8,512))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:470`.
        pub const A = cute ((4,8),(8,2,2)):((128,1),(16,8,512)), thread-value -> logical(16,64);
        /// `BLayout`: 32 threads × 16 values -> `n + 8·k` in the 8×64 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(8,2)):((64,1),(8,256))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:470`.
        pub const B = cute ((4,8),(8,2)):((64,1),(8,256)), thread-value -> logical(8,64);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:470`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_16x8x256_S32U1U1S32_TN_XORPOPC`: the `MMA_Traits` at
/// `include/cute/atom/mma_traits_sm80.hpp:624` (NVIDIA/cutlass@7107b05, v4.7.0).
///
/// PTX `mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc`: 1-bit inputs, s32 accumulators.
///
/// M×N×K = 16×8×256, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k`
/// (16×256, M×K), B to `n + 8·k` (8×256, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Tested against the corpus case `mma_SM80_16x8x256_S32U1U1S32_TN_XORPOPC` at every coordinate
/// (`tests/tests/atoms.rs`).
pub mod sm80_16x8x256_s32u1u1s32_tn_xorpopc {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `32:1`,
        /// `include/cute/atom/mma_traits_sm80.hpp:624`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 128 values -> `m + 16·k` in the 16×256 (M×K) tile, in elements.
        /// A dense bijection. CuTe `((4,8),(32,2,2)):((512,1),(16,8,2048))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:624`.
        pub const A = cute ((4,8),(32,2,2)):((512,1),(16,8,2048)), thread-value -> logical(16,256);
        /// `BLayout`: 32 threads × 64 values -> `n + 8·k` in the 8×256 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(32,2)):((256,1),(8,1024))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:624`.
        pub const B = cute ((4,8),(32,2)):((256,1),(8,1024)), thread-value -> logical(8,256);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((4,8),(2,2)):((32,1),(16,8))`,
        /// `include/cute/atom/mma_traits_sm80.hpp:624`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}
