//! Atoms generated from CuTe C++ over the CUTLASS 4.2 headers: the printout of
//! `tests/cpp/atoms.cpp`, written out by `tests/tests/atoms_cpp.rs`
//! (`UPDATE_ATOMS=1 cargo test -p layout-tests --test atoms_cpp`), which fails when this
//! file differs from what it would write. Do not edit.

/// `SM80_16x8x16_F16F16F16F16_TN`: the `MMA_Traits` of `include/cute/atom/mma_traits_sm80.hpp`
/// (CUTLASS 4.2).
///
/// M×N×K = 16×8×16, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×16,
/// M×K), B to `n + 8·k` (8×16, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm80_16x8x16_f16f16f16f16_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `_32:_1`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 8 values -> `m + 16·k` in the 16×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))`.
        pub const A = cute ((4,8),(2,2,2)):((32,1),(16,8,128)), thread-value -> logical(16,16);
        /// `BLayout`: 32 threads × 4 values -> `n + 8·k` in the 8×16 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8),(_2,_2)):((_16,_1),(_8,_64))`.
        pub const B = cute ((4,8),(2,2)):((16,1),(8,64)), thread-value -> logical(8,16);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8),(_2,_2)):((_32,_1),(_16,_8))`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM80_16x8x8_F32BF16BF16F32_TN`: the `MMA_Traits` of `include/cute/atom/mma_traits_sm80.hpp`
/// (CUTLASS 4.2).
///
/// M×N×K = 16×8×8, 32 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in its tile, in elements: A to `m + 16·k` (16×8,
/// M×K), B to `n + 8·k` (8×8, N×K), C to `m + 16·n` (16×8, M×N).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm80_16x8x8_f32bf16bf16f32_tn {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `_32:_1`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `ALayout`: 32 threads × 4 values -> `m + 16·k` in the 16×8 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8),(_2,_2)):((_32,_1),(_16,_8))`.
        pub const A = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
        /// `BLayout`: 32 threads × 2 values -> `n + 8·k` in the 8×8 (N×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8),_2):((_16,_1),_8)`.
        pub const B = cute ((4,8),2):((16,1),8), thread-value -> logical(8,8);
        /// `CLayout`: 32 threads × 4 values -> `m + 16·n` in the 16×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8),(_2,_2)):((_32,_1),(_16,_8))`.
        pub const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    }
}

/// `SM90_64x8x16_F16F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×8×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m + 64·k`
/// (64×16, M×K), B to `n + 8·k` (8×16, N×K), C to `m + 64·n` (64×8, M×N). `A` and `B` are read from
/// shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense
/// part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x8x16_f16f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 128 values -> `n + 8·k` in the 8×16 (N×K) tile, in elements. A
        /// read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_8,_16)):(_0,(_1,_8))`.
        pub const B = cute (128,(8,16)):(0,(1,8)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 128 values -> `n + 8·k` in the 8×16
        /// (N×K) tile, in elements. A dense bijection. CuTe `(8,16):(1,8)`.
        pub const B_DENSE = cute (8,16):(1,8), thread-value -> logical(8,16);
        /// `CLayout`: 128 threads × 4 values -> `m + 64·n` in the 64×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_1)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,1)):((128,1,16),(64,8,512)), thread-value -> logical(64,8);
    }
}

/// `SM90_64x8x16_F16F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×8×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m + 64·k`
/// (64×16, M×K), B to `n + 8·k` (8×16, N×K), C to `m + 64·n` (64×8, M×N). `B` is read from shared
/// memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense part is
/// `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x8x16_f16f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 128 values -> `n + 8·k` in the 8×16 (N×K) tile, in elements. A
        /// read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_8,_16)):(_0,(_1,_8))`.
        pub const B = cute (128,(8,16)):(0,(1,8)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 128 values -> `n + 8·k` in the 8×16
        /// (N×K) tile, in elements. A dense bijection. CuTe `(8,16):(1,8)`.
        pub const B_DENSE = cute (8,16):(1,8), thread-value -> logical(8,16);
        /// `CLayout`: 128 threads × 4 values -> `m + 64·n` in the 64×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_1)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,1)):((128,1,16),(64,8,512)), thread-value -> logical(64,8);
    }
}

/// `SM90_64x8x16_F32F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×8×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m + 64·k`
/// (64×16, M×K), B to `n + 8·k` (8×16, N×K), C to `m + 64·n` (64×8, M×N). `A` and `B` are read from
/// shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense
/// part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x8x16_f32f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 128 values -> `n + 8·k` in the 8×16 (N×K) tile, in elements. A
        /// read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_8,_16)):(_0,(_1,_8))`.
        pub const B = cute (128,(8,16)):(0,(1,8)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 128 values -> `n + 8·k` in the 8×16
        /// (N×K) tile, in elements. A dense bijection. CuTe `(8,16):(1,8)`.
        pub const B_DENSE = cute (8,16):(1,8), thread-value -> logical(8,16);
        /// `CLayout`: 128 threads × 4 values -> `m + 64·n` in the 64×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_1)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,1)):((128,1,16),(64,8,512)), thread-value -> logical(64,8);
    }
}

/// `SM90_64x8x16_F32F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×8×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m + 64·k`
/// (64×16, M×K), B to `n + 8·k` (8×16, N×K), C to `m + 64·n` (64×8, M×N). `B` is read from shared
/// memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense part is
/// `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x8x16_f32f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 128 values -> `n + 8·k` in the 8×16 (N×K) tile, in elements. A
        /// read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_8,_16)):(_0,(_1,_8))`.
        pub const B = cute (128,(8,16)):(0,(1,8)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 128 values -> `n + 8·k` in the 8×16
        /// (N×K) tile, in elements. A dense bijection. CuTe `(8,16):(1,8)`.
        pub const B_DENSE = cute (8,16):(1,8), thread-value -> logical(8,16);
        /// `CLayout`: 128 threads × 4 values -> `m + 64·n` in the 64×8 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_1)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,1)):((128,1,16),(64,8,512)), thread-value -> logical(64,8);
    }
}

/// `SM90_64x16x16_F16F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×16×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 16·k` (16×16, N×K), C to `m + 64·n` (64×16, M×N). `A` and `B` are
/// read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x16x16_f16f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 256 values -> `n + 16·k` in the 16×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_16,_16)):(_0,(_1,_16))`.
        pub const B = cute (128,(16,16)):(0,(1,16)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 256 values -> `n + 16·k` in the
        /// 16×16 (N×K) tile, in elements. A dense bijection. CuTe `(16,16):(1,16)`.
        pub const B_DENSE = cute (16,16):(1,16), thread-value -> logical(16,16);
        /// `CLayout`: 128 threads × 8 values -> `m + 64·n` in the 64×16 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
    }
}

/// `SM90_64x16x16_F16F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×16×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 16·k` (16×16, N×K), C to `m + 64·n` (64×16, M×N). `B` is read from
/// shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense
/// part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x16x16_f16f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 256 values -> `n + 16·k` in the 16×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_16,_16)):(_0,(_1,_16))`.
        pub const B = cute (128,(16,16)):(0,(1,16)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 256 values -> `n + 16·k` in the
        /// 16×16 (N×K) tile, in elements. A dense bijection. CuTe `(16,16):(1,16)`.
        pub const B_DENSE = cute (16,16):(1,16), thread-value -> logical(16,16);
        /// `CLayout`: 128 threads × 8 values -> `m + 64·n` in the 64×16 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
    }
}

/// `SM90_64x16x16_F32F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×16×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 16·k` (16×16, N×K), C to `m + 64·n` (64×16, M×N). `A` and `B` are
/// read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x16x16_f32f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 256 values -> `n + 16·k` in the 16×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_16,_16)):(_0,(_1,_16))`.
        pub const B = cute (128,(16,16)):(0,(1,16)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 256 values -> `n + 16·k` in the
        /// 16×16 (N×K) tile, in elements. A dense bijection. CuTe `(16,16):(1,16)`.
        pub const B_DENSE = cute (16,16):(1,16), thread-value -> logical(16,16);
        /// `CLayout`: 128 threads × 8 values -> `m + 64·n` in the 64×16 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
    }
}

/// `SM90_64x16x16_F32F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×16×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 16·k` (16×16, N×K), C to `m + 64·n` (64×16, M×N). `B` is read from
/// shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense
/// part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x16x16_f32f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 256 values -> `n + 16·k` in the 16×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_16,_16)):(_0,(_1,_16))`.
        pub const B = cute (128,(16,16)):(0,(1,16)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 256 values -> `n + 16·k` in the
        /// 16×16 (N×K) tile, in elements. A dense bijection. CuTe `(16,16):(1,16)`.
        pub const B_DENSE = cute (16,16):(1,16), thread-value -> logical(16,16);
        /// `CLayout`: 128 threads × 8 values -> `m + 64·n` in the 64×16 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
    }
}

/// `SM90_64x32x16_F16F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×32×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 32·k` (32×16, N×K), C to `m + 64·n` (64×32, M×N). `A` and `B` are
/// read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x32x16_f16f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 512 values -> `n + 32·k` in the 32×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_32,_16)):(_0,(_1,_32))`.
        pub const B = cute (128,(32,16)):(0,(1,32)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 512 values -> `n + 32·k` in the
        /// 32×16 (N×K) tile, in elements. A dense bijection. CuTe `(32,16):(1,32)`.
        pub const B_DENSE = cute (32,16):(1,32), thread-value -> logical(32,16);
        /// `CLayout`: 128 threads × 16 values -> `m + 64·n` in the 64×32 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_4)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,4)):((128,1,16),(64,8,512)), thread-value -> logical(64,32);
    }
}

/// `SM90_64x32x16_F16F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×32×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 32·k` (32×16, N×K), C to `m + 64·n` (64×32, M×N). `B` is read from
/// shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense
/// part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x32x16_f16f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 512 values -> `n + 32·k` in the 32×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_32,_16)):(_0,(_1,_32))`.
        pub const B = cute (128,(32,16)):(0,(1,32)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 512 values -> `n + 32·k` in the
        /// 32×16 (N×K) tile, in elements. A dense bijection. CuTe `(32,16):(1,32)`.
        pub const B_DENSE = cute (32,16):(1,32), thread-value -> logical(32,16);
        /// `CLayout`: 128 threads × 16 values -> `m + 64·n` in the 64×32 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_4)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,4)):((128,1,16),(64,8,512)), thread-value -> logical(64,32);
    }
}

/// `SM90_64x32x16_F32F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×32×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 32·k` (32×16, N×K), C to `m + 64·n` (64×32, M×N). `A` and `B` are
/// read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x32x16_f32f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 512 values -> `n + 32·k` in the 32×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_32,_16)):(_0,(_1,_32))`.
        pub const B = cute (128,(32,16)):(0,(1,32)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 512 values -> `n + 32·k` in the
        /// 32×16 (N×K) tile, in elements. A dense bijection. CuTe `(32,16):(1,32)`.
        pub const B_DENSE = cute (32,16):(1,32), thread-value -> logical(32,16);
        /// `CLayout`: 128 threads × 16 values -> `m + 64·n` in the 64×32 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_4)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,4)):((128,1,16),(64,8,512)), thread-value -> logical(64,32);
    }
}

/// `SM90_64x32x16_F32F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×32×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 32·k` (32×16, N×K), C to `m + 64·n` (64×32, M×N). `B` is read from
/// shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense
/// part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x32x16_f32f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 512 values -> `n + 32·k` in the 32×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_32,_16)):(_0,(_1,_32))`.
        pub const B = cute (128,(32,16)):(0,(1,32)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 512 values -> `n + 32·k` in the
        /// 32×16 (N×K) tile, in elements. A dense bijection. CuTe `(32,16):(1,32)`.
        pub const B_DENSE = cute (32,16):(1,32), thread-value -> logical(32,16);
        /// `CLayout`: 128 threads × 16 values -> `m + 64·n` in the 64×32 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_4)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,4)):((128,1,16),(64,8,512)), thread-value -> logical(64,32);
    }
}

/// `SM90_64x64x16_F16F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×64×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 64·k` (64×16, N×K), C to `m + 64·n` (64×64, M×N). `A` and `B` are
/// read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x64x16_f16f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 1024 values -> `n + 64·k` in the 64×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const B = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 1024 values -> `n + 64·k` in the
        /// 64×16 (N×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const B_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `CLayout`: 128 threads × 32 values -> `m + 64·n` in the 64×64 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,8)):((128,1,16),(64,8,512)), thread-value -> logical(64,64);
    }
}

/// `SM90_64x64x16_F16F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×64×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 64·k` (64×16, N×K), C to `m + 64·n` (64×64, M×N). `B` is read from
/// shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense
/// part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x64x16_f16f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 1024 values -> `n + 64·k` in the 64×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const B = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 1024 values -> `n + 64·k` in the
        /// 64×16 (N×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const B_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `CLayout`: 128 threads × 32 values -> `m + 64·n` in the 64×64 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,8)):((128,1,16),(64,8,512)), thread-value -> logical(64,64);
    }
}

/// `SM90_64x64x16_F32F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×64×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 64·k` (64×16, N×K), C to `m + 64·n` (64×64, M×N). `B` is read from
/// shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose dense
/// part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x64x16_f32f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 1024 values -> `n + 64·k` in the 64×16 (N×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `B_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const B = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 1024 values -> `n + 64·k` in the
        /// 64×16 (N×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const B_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `CLayout`: 128 threads × 32 values -> `m + 64·n` in the 64×64 (M×N) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,8)):((128,1,16),(64,8,512)), thread-value -> logical(64,64);
    }
}

/// `SM90_64x128x16_F16F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×128×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 128·k` (128×16, N×K), C to `m + 64·n` (64×128, M×N). `A` and `B`
/// are read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x128x16_f16f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 2048 values -> `n + 128·k` in the 128×16 (N×K) tile, in
        /// elements. A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's
        /// mode order. Its dense part is `B_DENSE`. CuTe `(_128,(_128,_16)):(_0,(_1,_128))`.
        pub const B = cute (128,(128,16)):(0,(1,128)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 2048 values -> `n + 128·k` in the
        /// 128×16 (N×K) tile, in elements. A dense bijection. CuTe `(128,16):(1,128)`.
        pub const B_DENSE = cute (128,16):(1,128), thread-value -> logical(128,16);
        /// `CLayout`: 128 threads × 64 values -> `m + 64·n` in the 64×128 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((_4,_8,_4),(_2,_2,_16)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)), thread-value -> logical(64,128);
    }
}

/// `SM90_64x128x16_F16F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×128×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 128·k` (128×16, N×K), C to `m + 64·n` (64×128, M×N). `B` is read
/// from shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose
/// dense part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x128x16_f16f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 2048 values -> `n + 128·k` in the 128×16 (N×K) tile, in
        /// elements. A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's
        /// mode order. Its dense part is `B_DENSE`. CuTe `(_128,(_128,_16)):(_0,(_1,_128))`.
        pub const B = cute (128,(128,16)):(0,(1,128)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 2048 values -> `n + 128·k` in the
        /// 128×16 (N×K) tile, in elements. A dense bijection. CuTe `(128,16):(1,128)`.
        pub const B_DENSE = cute (128,16):(1,128), thread-value -> logical(128,16);
        /// `CLayout`: 128 threads × 64 values -> `m + 64·n` in the 64×128 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((_4,_8,_4),(_2,_2,_16)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)), thread-value -> logical(64,128);
    }
}

/// `SM90_64x256x16_F16F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×256×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 256·k` (256×16, N×K), C to `m + 64·n` (64×256, M×N). `A` and `B`
/// are read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x256x16_f16f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 4096 values -> `n + 256·k` in the 256×16 (N×K) tile, in
        /// elements. A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's
        /// mode order. Its dense part is `B_DENSE`. CuTe `(_128,(_256,_16)):(_0,(_1,_256))`.
        pub const B = cute (128,(256,16)):(0,(1,256)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 4096 values -> `n + 256·k` in the
        /// 256×16 (N×K) tile, in elements. A dense bijection. CuTe `(256,16):(1,256)`.
        pub const B_DENSE = cute (256,16):(1,256), thread-value -> logical(256,16);
        /// `CLayout`: 128 threads × 128 values -> `m + 64·n` in the 64×256 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((_4,_8,_4),(_2,_2,_32)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,32)):((128,1,16),(64,8,512)), thread-value -> logical(64,256);
    }
}

/// `SM90_64x256x16_F16F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×256×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 256·k` (256×16, N×K), C to `m + 64·n` (64×256, M×N). `B` is read
/// from shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose
/// dense part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x256x16_f16f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 4096 values -> `n + 256·k` in the 256×16 (N×K) tile, in
        /// elements. A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's
        /// mode order. Its dense part is `B_DENSE`. CuTe `(_128,(_256,_16)):(_0,(_1,_256))`.
        pub const B = cute (128,(256,16)):(0,(1,256)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 4096 values -> `n + 256·k` in the
        /// 256×16 (N×K) tile, in elements. A dense bijection. CuTe `(256,16):(1,256)`.
        pub const B_DENSE = cute (256,16):(1,256), thread-value -> logical(256,16);
        /// `CLayout`: 128 threads × 128 values -> `m + 64·n` in the 64×256 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((_4,_8,_4),(_2,_2,_32)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,32)):((128,1,16),(64,8,512)), thread-value -> logical(64,256);
    }
}

/// `SM90_64x256x16_F32F16F16_SS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×256×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 256·k` (256×16, N×K), C to `m + 64·n` (64×256, M×N). `A` and `B`
/// are read from shared memory by the whole warpgroup: a read-only broadcast over the thread mode,
/// whose dense part is `A_DENSE` and `B_DENSE` (see [the module
/// docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x256x16_f32f16f16_ss_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 1024 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements.
        /// A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is annotated
        /// `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's mode order.
        /// Its dense part is `A_DENSE`. CuTe `(_128,(_64,_16)):(_0,(_1,_64))`.
        pub const A = cute (128,(64,16)):(0,(1,64)), logical -> physical;
        /// The dense part of `A`: its broadcast leaves removed, 1024 values -> `m + 64·k` in the
        /// 64×16 (M×K) tile, in elements. A dense bijection. CuTe `(64,16):(1,64)`.
        pub const A_DENSE = cute (64,16):(1,64), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 4096 values -> `n + 256·k` in the 256×16 (N×K) tile, in
        /// elements. A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's
        /// mode order. Its dense part is `B_DENSE`. CuTe `(_128,(_256,_16)):(_0,(_1,_256))`.
        pub const B = cute (128,(256,16)):(0,(1,256)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 4096 values -> `n + 256·k` in the
        /// 256×16 (N×K) tile, in elements. A dense bijection. CuTe `(256,16):(1,256)`.
        pub const B_DENSE = cute (256,16):(1,256), thread-value -> logical(256,16);
        /// `CLayout`: 128 threads × 128 values -> `m + 64·n` in the 64×256 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((_4,_8,_4),(_2,_2,_32)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,32)):((128,1,16),(64,8,512)), thread-value -> logical(64,256);
    }
}

/// `SM90_64x256x16_F32F16F16_RS<K,K>`: the `MMA_Traits` of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2).
///
/// M×N×K = 64×256×16, 128 threads. Each layout maps CuTe's (thread, value) (seed coordinates
/// `(value, thread)`, flat index `t + 128·v`) to a position in its tile, in elements: A to `m +
/// 64·k` (64×16, M×K), B to `n + 256·k` (256×16, N×K), C to `m + 64·n` (64×256, M×N). `B` is read
/// from shared memory by the whole warpgroup: a read-only broadcast over the thread mode, whose
/// dense part is `B_DENSE` (see [the module docs](crate::atoms#dense-bijections-and-broadcasts)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_64x256x16_f32f16f16_rs_k_k {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 128 threads (the identity). CuTe `_128:_1`.
        pub const THR = cute 128:1, thread-value -> thread-value;
        /// `ALayout`: 128 threads × 8 values -> `m + 64·k` in the 64×16 (M×K) tile, in elements. A
        /// dense bijection. CuTe `((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))`.
        pub const A = cute ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)), thread-value -> logical(64,16);
        /// `BLayout`: 128 threads × 4096 values -> `n + 256·k` in the 256×16 (N×K) tile, in
        /// elements. A read-only broadcast (a leaf of size 128 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's
        /// mode order. Its dense part is `B_DENSE`. CuTe `(_128,(_256,_16)):(_0,(_1,_256))`.
        pub const B = cute (128,(256,16)):(0,(1,256)), logical -> physical;
        /// The dense part of `B`: its broadcast leaves removed, 4096 values -> `n + 256·k` in the
        /// 256×16 (N×K) tile, in elements. A dense bijection. CuTe `(256,16):(1,256)`.
        pub const B_DENSE = cute (256,16):(1,256), thread-value -> logical(256,16);
        /// `CLayout`: 128 threads × 128 values -> `m + 64·n` in the 64×256 (M×N) tile, in elements.
        /// A dense bijection. CuTe `((_4,_8,_4),(_2,_2,_32)):((_128,_1,_16),(_64,_8,_512))`.
        pub const C = cute ((4,8,4),(2,2,32)):((128,1,16),(64,8,512)), thread-value -> logical(64,256);
    }
}

/// `SM75_U32x1_LDSM_N`: the `Copy_Traits` of `include/cute/atom/copy_traits_sm75.hpp` (CUTLASS
/// 4.2).
///
/// 32 threads, 32 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in the copied block: the `_BITS` layouts to a bit
/// (the `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<SM75_U32x1_LDSM_N, half_t>` gives them (`ValLayoutSrc`, `ValLayoutDst`,
/// `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm75_u32x1_ldsm_n {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `_32:_1`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 128 bits -> a bit of the block. A read-only broadcast
        /// (a leaf of size 4 has stride `_`, CuTe `0`), so it is annotated `logical -> physical`,
        /// its domain holding CuTe's (thread, value) in CuTe's mode order. CuTe
        /// `((_8,_4),_128):((_128,_0),_1)`.
        pub const SRC_BITS = cute ((8,4),128):((128,0),1), logical -> physical;
        /// `ValLayoutSrc`, in 16-bit elements: 32 threads × 8 elements -> a 16-bit element of the
        /// block. A read-only broadcast (a leaf of size 4 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's
        /// mode order. Its dense part is `SRC_B16_DENSE`. CuTe `((_8,_4),_8):((_8,_0),_1)`.
        pub const SRC_B16 = cute ((8,4),8):((8,0),1), logical -> physical;
        /// The dense part of `SRC_B16`: its broadcast leaves removed, 8 threads × 8 elements -> a
        /// 16-bit element of the block. A dense bijection. CuTe `(8,8):(8,1)`.
        pub const SRC_B16_DENSE = cute (8,8):(8,1), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_32,_32):(_32,_1)`.
        pub const DST_BITS = cute (32,32):(32,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 32 threads × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_32,_2):(_2,_1)`.
        pub const DST_B16 = cute (32,2):(2,1), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_32,_32):(_32,_1)`.
        pub const REF_BITS = cute (32,32):(32,1), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 32 threads × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_32,_2):(_2,_1)`.
        pub const REF_B16 = cute (32,2):(2,1), thread-value -> logical;
    }
}

/// `SM75_U32x4_LDSM_N`: the `Copy_Traits` of `include/cute/atom/copy_traits_sm75.hpp` (CUTLASS
/// 4.2).
///
/// 32 threads, 128 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in the copied block: the `_BITS` layouts to a bit
/// (the `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<SM75_U32x4_LDSM_N, half_t>` gives them (`ValLayoutSrc`, `ValLayoutDst`,
/// `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm75_u32x4_ldsm_n {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `_32:_1`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 128 bits -> a bit of the block. A dense bijection.
        /// CuTe `(_32,_128):(_128,_1)`.
        pub const SRC_BITS = cute (32,128):(128,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 32 threads × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_32,_8):(_8,_1)`.
        pub const SRC_B16 = cute (32,8):(8,1), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 128 bits -> a bit of the block. A dense bijection.
        /// CuTe `(_32,(_32,_4)):(_32,(_1,_1024))`.
        pub const DST_BITS = cute (32,(32,4)):(32,(1,1024)), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 32 threads × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_32,(_2,_4)):(_2,(_1,_64))`.
        pub const DST_B16 = cute (32,(2,4)):(2,(1,64)), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 128 bits -> a bit of the block. A dense bijection.
        /// CuTe `(_32,(_32,_4)):(_32,(_1,_1024))`.
        pub const REF_BITS = cute (32,(32,4)):(32,(1,1024)), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 32 threads × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_32,(_2,_4)):(_2,(_1,_64))`.
        pub const REF_B16 = cute (32,(2,4)):(2,(1,64)), thread-value -> logical;
    }
}

/// `SM90_U32x4_STSM_N`: the `Copy_Traits` of `include/cute/atom/copy_traits_sm90.hpp` (CUTLASS
/// 4.2).
///
/// 32 threads, 128 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in the copied block: the `_BITS` layouts to a bit
/// (the `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<SM90_U32x4_STSM_N, half_t>` gives them (`ValLayoutSrc`, `ValLayoutDst`,
/// `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_u32x4_stsm_n {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `_32:_1`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 128 bits -> a bit of the block. A dense bijection.
        /// CuTe `(_32,(_32,_4)):(_32,(_1,_1024))`.
        pub const SRC_BITS = cute (32,(32,4)):(32,(1,1024)), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 32 threads × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_32,(_2,_4)):(_2,(_1,_64))`.
        pub const SRC_B16 = cute (32,(2,4)):(2,(1,64)), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 128 bits -> a bit of the block. A dense bijection.
        /// CuTe `(_32,_128):(_128,_1)`.
        pub const DST_BITS = cute (32,128):(128,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 32 threads × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_32,_8):(_8,_1)`.
        pub const DST_B16 = cute (32,8):(8,1), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 128 bits -> a bit of the block. A dense bijection.
        /// CuTe `(_32,(_32,_4)):(_32,(_1,_1024))`.
        pub const REF_BITS = cute (32,(32,4)):(32,(1,1024)), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 32 threads × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_32,(_2,_4)):(_2,(_1,_64))`.
        pub const REF_B16 = cute (32,(2,4)):(2,(1,64)), thread-value -> logical;
    }
}

/// `SM90_U16x2_STSM_T`: the `Copy_Traits` of `include/cute/atom/copy_traits_sm90.hpp` (CUTLASS
/// 4.2).
///
/// 32 threads, 32 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `t + 32·v`) to a position in the copied block: the `_BITS` layouts to a bit
/// (the `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<SM90_U16x2_STSM_T, half_t>` gives them (`ValLayoutSrc`, `ValLayoutDst`,
/// `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm90_u16x2_stsm_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 32 threads (the identity). CuTe `_32:_1`.
        pub const THR = cute 32:1, thread-value -> thread-value;
        /// `SrcLayout` in bits: 32 threads × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `((_4,_8),(_16,_2)):((_256,_16),(_1,_128))`.
        pub const SRC_BITS = cute ((4,8),(16,2)):((256,16),(1,128)), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 32 threads × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `((_4,_8),(_1,_2)):((_16,_1),(_1,_8))`.
        pub const SRC_B16 = cute ((4,8),(1,2)):((16,1),(1,8)), thread-value -> logical;
        /// `DstLayout` in bits: 32 threads × 128 bits -> a bit of the block. A read-only broadcast
        /// (a leaf of size 4 has stride `_`, CuTe `0`), so it is annotated `logical -> physical`,
        /// its domain holding CuTe's (thread, value) in CuTe's mode order. CuTe
        /// `((_8,_4),_128):((_128,_0),_1)`.
        pub const DST_BITS = cute ((8,4),128):((128,0),1), logical -> physical;
        /// `ValLayoutDst`, in 16-bit elements: 32 threads × 8 elements -> a 16-bit element of the
        /// block. A read-only broadcast (a leaf of size 4 has stride `_`, CuTe `0`), so it is
        /// annotated `logical -> physical`, its domain holding CuTe's (thread, value) in CuTe's
        /// mode order. Its dense part is `DST_B16_DENSE`. CuTe `((_8,_4),_8):((_8,_0),_1)`.
        pub const DST_B16 = cute ((8,4),8):((8,0),1), logical -> physical;
        /// The dense part of `DST_B16`: its broadcast leaves removed, 8 threads × 8 elements -> a
        /// 16-bit element of the block. A dense bijection. CuTe `(8,8):(8,1)`.
        pub const DST_B16_DENSE = cute (8,8):(8,1), thread-value -> logical;
        /// `RefLayout` in bits: 32 threads × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `((_4,_8),(_16,_2)):((_256,_16),(_1,_128))`.
        pub const REF_BITS = cute ((4,8),(16,2)):((256,16),(1,128)), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 32 threads × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `((_4,_8),(_1,_2)):((_16,_1),(_1,_8))`.
        pub const REF_B16 = cute ((4,8),(1,2)):((16,1),(1,8)), thread-value -> logical;
    }
}

/// `SM80_CP_ASYNC_CACHEALWAYS<uint32_t>`: the `Copy_Traits` of
/// `include/cute/atom/copy_traits_sm80.hpp` (CUTLASS 4.2).
///
/// 1 thread, 32 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `v`) to a position in the copied block: the `_BITS` layouts to a bit (the
/// `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint32_t>, half_t>` gives them (`ValLayoutSrc`,
/// `ValLayoutDst`, `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm80_cp_async_cachealways_uint32_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 1 thread (the identity). CuTe `_1:_0`.
        pub const THR = cute 1:0, thread-value -> thread-value;
        /// `SrcLayout` in bits: 1 thread × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_32):(_0,_1)`.
        pub const SRC_BITS = cute (1,32):(0,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 1 thread × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_2):(_0,_1)`.
        pub const SRC_B16 = cute (1,2):(0,1), thread-value -> logical;
        /// `DstLayout` in bits: 1 thread × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_32):(_0,_1)`.
        pub const DST_BITS = cute (1,32):(0,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 1 thread × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_2):(_0,_1)`.
        pub const DST_B16 = cute (1,2):(0,1), thread-value -> logical;
        /// `RefLayout` in bits: 1 thread × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_32):(_0,_1)`.
        pub const REF_BITS = cute (1,32):(0,1), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 1 thread × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_2):(_0,_1)`.
        pub const REF_B16 = cute (1,2):(0,1), thread-value -> logical;
    }
}

/// `SM80_CP_ASYNC_CACHEALWAYS<uint64_t>`: the `Copy_Traits` of
/// `include/cute/atom/copy_traits_sm80.hpp` (CUTLASS 4.2).
///
/// 1 thread, 64 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `v`) to a position in the copied block: the `_BITS` layouts to a bit (the
/// `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>, half_t>` gives them (`ValLayoutSrc`,
/// `ValLayoutDst`, `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm80_cp_async_cachealways_uint64_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 1 thread (the identity). CuTe `_1:_0`.
        pub const THR = cute 1:0, thread-value -> thread-value;
        /// `SrcLayout` in bits: 1 thread × 64 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_64):(_0,_1)`.
        pub const SRC_BITS = cute (1,64):(0,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 1 thread × 4 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_4):(_0,_1)`.
        pub const SRC_B16 = cute (1,4):(0,1), thread-value -> logical;
        /// `DstLayout` in bits: 1 thread × 64 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_64):(_0,_1)`.
        pub const DST_BITS = cute (1,64):(0,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 1 thread × 4 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_4):(_0,_1)`.
        pub const DST_B16 = cute (1,4):(0,1), thread-value -> logical;
        /// `RefLayout` in bits: 1 thread × 64 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_64):(_0,_1)`.
        pub const REF_BITS = cute (1,64):(0,1), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 1 thread × 4 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_4):(_0,_1)`.
        pub const REF_B16 = cute (1,4):(0,1), thread-value -> logical;
    }
}

/// `SM80_CP_ASYNC_CACHEALWAYS<uint128_t>`: the `Copy_Traits` of
/// `include/cute/atom/copy_traits_sm80.hpp` (CUTLASS 4.2).
///
/// 1 thread, 128 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `v`) to a position in the copied block: the `_BITS` layouts to a bit (the
/// `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>` gives them (`ValLayoutSrc`,
/// `ValLayoutDst`, `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm80_cp_async_cachealways_uint128_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 1 thread (the identity). CuTe `_1:_0`.
        pub const THR = cute 1:0, thread-value -> thread-value;
        /// `SrcLayout` in bits: 1 thread × 128 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_128):(_0,_1)`.
        pub const SRC_BITS = cute (1,128):(0,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 1 thread × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_8):(_0,_1)`.
        pub const SRC_B16 = cute (1,8):(0,1), thread-value -> logical;
        /// `DstLayout` in bits: 1 thread × 128 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_128):(_0,_1)`.
        pub const DST_BITS = cute (1,128):(0,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 1 thread × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_8):(_0,_1)`.
        pub const DST_B16 = cute (1,8):(0,1), thread-value -> logical;
        /// `RefLayout` in bits: 1 thread × 128 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_128):(_0,_1)`.
        pub const REF_BITS = cute (1,128):(0,1), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 1 thread × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_8):(_0,_1)`.
        pub const REF_B16 = cute (1,8):(0,1), thread-value -> logical;
    }
}

/// `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>`: the `Copy_Traits` of
/// `include/cute/atom/copy_traits_sm80.hpp` (CUTLASS 4.2).
///
/// 1 thread, 128 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `v`) to a position in the copied block: the `_BITS` layouts to a bit (the
/// `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>` gives them (`ValLayoutSrc`,
/// `ValLayoutDst`, `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod sm80_cp_async_cacheglobal_uint128_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 1 thread (the identity). CuTe `_1:_0`.
        pub const THR = cute 1:0, thread-value -> thread-value;
        /// `SrcLayout` in bits: 1 thread × 128 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_128):(_0,_1)`.
        pub const SRC_BITS = cute (1,128):(0,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 1 thread × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_8):(_0,_1)`.
        pub const SRC_B16 = cute (1,8):(0,1), thread-value -> logical;
        /// `DstLayout` in bits: 1 thread × 128 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_128):(_0,_1)`.
        pub const DST_BITS = cute (1,128):(0,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 1 thread × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_8):(_0,_1)`.
        pub const DST_B16 = cute (1,8):(0,1), thread-value -> logical;
        /// `RefLayout` in bits: 1 thread × 128 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_128):(_0,_1)`.
        pub const REF_BITS = cute (1,128):(0,1), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 1 thread × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_8):(_0,_1)`.
        pub const REF_B16 = cute (1,8):(0,1), thread-value -> logical;
    }
}

/// `UniversalCopy<uint8_t>`: the `Copy_Traits` of `include/cute/atom/copy_traits.hpp` (CUTLASS
/// 4.2).
///
/// 1 thread, 8 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `v`) to a position in the copied block: the `_BITS` layouts to a bit (the
/// `Copy_Traits` unit), the `_B8` layouts to a 8-bit element, as `Copy_Atom<UniversalCopy<uint8_t>,
/// uint8_t>` gives them (`ValLayoutSrc`, `ValLayoutDst`, `ValLayoutRef`; `bits_to_elements(_, 8)`
/// of the bits, see [the module docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod universalcopy_uint8_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 1 thread (the identity). CuTe `_1:_0`.
        pub const THR = cute 1:0, thread-value -> thread-value;
        /// `SrcLayout` in bits: 1 thread × 8 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_8):(_0,_1)`.
        pub const SRC_BITS = cute (1,8):(0,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 8-bit elements: 1 thread × 1 element -> a 8-bit element of the block.
        /// A dense bijection. CuTe `(_1,_1):(_0,_1)`.
        pub const SRC_B8 = cute (1,1):(0,1), thread-value -> logical;
        /// `DstLayout` in bits: 1 thread × 8 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_8):(_0,_1)`.
        pub const DST_BITS = cute (1,8):(0,1), thread-value -> logical;
        /// `ValLayoutDst`, in 8-bit elements: 1 thread × 1 element -> a 8-bit element of the block.
        /// A dense bijection. CuTe `(_1,_1):(_0,_1)`.
        pub const DST_B8 = cute (1,1):(0,1), thread-value -> logical;
        /// `RefLayout` in bits: 1 thread × 8 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_8):(_0,_1)`.
        pub const REF_BITS = cute (1,8):(0,1), thread-value -> logical;
        /// `ValLayoutRef`, in 8-bit elements: 1 thread × 1 element -> a 8-bit element of the block.
        /// A dense bijection. CuTe `(_1,_1):(_0,_1)`.
        pub const REF_B8 = cute (1,1):(0,1), thread-value -> logical;
    }
}

/// `UniversalCopy<uint16_t>`: the `Copy_Traits` of `include/cute/atom/copy_traits.hpp` (CUTLASS
/// 4.2).
///
/// 1 thread, 16 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `v`) to a position in the copied block: the `_BITS` layouts to a bit (the
/// `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<UniversalCopy<uint16_t>, half_t>` gives them (`ValLayoutSrc`, `ValLayoutDst`,
/// `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod universalcopy_uint16_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 1 thread (the identity). CuTe `_1:_0`.
        pub const THR = cute 1:0, thread-value -> thread-value;
        /// `SrcLayout` in bits: 1 thread × 16 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_16):(_0,_1)`.
        pub const SRC_BITS = cute (1,16):(0,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 1 thread × 1 element -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_1):(_0,_1)`.
        pub const SRC_B16 = cute (1,1):(0,1), thread-value -> logical;
        /// `DstLayout` in bits: 1 thread × 16 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_16):(_0,_1)`.
        pub const DST_BITS = cute (1,16):(0,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 1 thread × 1 element -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_1):(_0,_1)`.
        pub const DST_B16 = cute (1,1):(0,1), thread-value -> logical;
        /// `RefLayout` in bits: 1 thread × 16 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_16):(_0,_1)`.
        pub const REF_BITS = cute (1,16):(0,1), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 1 thread × 1 element -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_1):(_0,_1)`.
        pub const REF_B16 = cute (1,1):(0,1), thread-value -> logical;
    }
}

/// `UniversalCopy<uint32_t>`: the `Copy_Traits` of `include/cute/atom/copy_traits.hpp` (CUTLASS
/// 4.2).
///
/// 1 thread, 32 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `v`) to a position in the copied block: the `_BITS` layouts to a bit (the
/// `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<UniversalCopy<uint32_t>, half_t>` gives them (`ValLayoutSrc`, `ValLayoutDst`,
/// `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod universalcopy_uint32_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 1 thread (the identity). CuTe `_1:_0`.
        pub const THR = cute 1:0, thread-value -> thread-value;
        /// `SrcLayout` in bits: 1 thread × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_32):(_0,_1)`.
        pub const SRC_BITS = cute (1,32):(0,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 1 thread × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_2):(_0,_1)`.
        pub const SRC_B16 = cute (1,2):(0,1), thread-value -> logical;
        /// `DstLayout` in bits: 1 thread × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_32):(_0,_1)`.
        pub const DST_BITS = cute (1,32):(0,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 1 thread × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_2):(_0,_1)`.
        pub const DST_B16 = cute (1,2):(0,1), thread-value -> logical;
        /// `RefLayout` in bits: 1 thread × 32 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_32):(_0,_1)`.
        pub const REF_BITS = cute (1,32):(0,1), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 1 thread × 2 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_2):(_0,_1)`.
        pub const REF_B16 = cute (1,2):(0,1), thread-value -> logical;
    }
}

/// `UniversalCopy<uint64_t>`: the `Copy_Traits` of `include/cute/atom/copy_traits.hpp` (CUTLASS
/// 4.2).
///
/// 1 thread, 64 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `v`) to a position in the copied block: the `_BITS` layouts to a bit (the
/// `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<UniversalCopy<uint64_t>, half_t>` gives them (`ValLayoutSrc`, `ValLayoutDst`,
/// `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod universalcopy_uint64_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 1 thread (the identity). CuTe `_1:_0`.
        pub const THR = cute 1:0, thread-value -> thread-value;
        /// `SrcLayout` in bits: 1 thread × 64 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_64):(_0,_1)`.
        pub const SRC_BITS = cute (1,64):(0,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 1 thread × 4 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_4):(_0,_1)`.
        pub const SRC_B16 = cute (1,4):(0,1), thread-value -> logical;
        /// `DstLayout` in bits: 1 thread × 64 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_64):(_0,_1)`.
        pub const DST_BITS = cute (1,64):(0,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 1 thread × 4 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_4):(_0,_1)`.
        pub const DST_B16 = cute (1,4):(0,1), thread-value -> logical;
        /// `RefLayout` in bits: 1 thread × 64 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_64):(_0,_1)`.
        pub const REF_BITS = cute (1,64):(0,1), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 1 thread × 4 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_4):(_0,_1)`.
        pub const REF_B16 = cute (1,4):(0,1), thread-value -> logical;
    }
}

/// `UniversalCopy<uint128_t>`: the `Copy_Traits` of `include/cute/atom/copy_traits.hpp` (CUTLASS
/// 4.2).
///
/// 1 thread, 128 bits each. Each layout maps CuTe's (thread, value) (seed coordinates `(value,
/// thread)`, flat index `v`) to a position in the copied block: the `_BITS` layouts to a bit (the
/// `Copy_Traits` unit), the `_B16` layouts to a 16-bit element, as
/// `Copy_Atom<UniversalCopy<uint128_t>, half_t>` gives them (`ValLayoutSrc`, `ValLayoutDst`,
/// `ValLayoutRef`; `bits_to_elements(_, 16)` of the bits, see [the module
/// docs](crate::atoms#bits-to-elements)).
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod universalcopy_uint128_t {
    use crate::layout;

    layout! {
        /// `ThrID`: logical thread -> lane, 1 thread (the identity). CuTe `_1:_0`.
        pub const THR = cute 1:0, thread-value -> thread-value;
        /// `SrcLayout` in bits: 1 thread × 128 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_128):(_0,_1)`.
        pub const SRC_BITS = cute (1,128):(0,1), thread-value -> logical;
        /// `ValLayoutSrc`, in 16-bit elements: 1 thread × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_8):(_0,_1)`.
        pub const SRC_B16 = cute (1,8):(0,1), thread-value -> logical;
        /// `DstLayout` in bits: 1 thread × 128 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_128):(_0,_1)`.
        pub const DST_BITS = cute (1,128):(0,1), thread-value -> logical;
        /// `ValLayoutDst`, in 16-bit elements: 1 thread × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_8):(_0,_1)`.
        pub const DST_B16 = cute (1,8):(0,1), thread-value -> logical;
        /// `RefLayout` in bits: 1 thread × 128 bits -> a bit of the block. A dense bijection. CuTe
        /// `(_1,_128):(_0,_1)`.
        pub const REF_BITS = cute (1,128):(0,1), thread-value -> logical;
        /// `ValLayoutRef`, in 16-bit elements: 1 thread × 8 elements -> a 16-bit element of the
        /// block. A dense bijection. CuTe `(_1,_8):(_0,_1)`.
        pub const REF_B16 = cute (1,8):(0,1), thread-value -> logical;
    }
}

/// `GMMA::Layout_K_INTER_Atom<uint8_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 8-bit elements (the atom depends
/// on the width only: `uint8_t`, `int8_t`, `float_e4m3_t`, `float_e5m2_t`).
///
/// `ATOM` maps a position of the 8×16 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<0,4,3>` over byte addresses after `(_8,_16):(_16,_1)` (`B = 0`: no swizzle, the
/// interleaved atom). CuTe prints it `Sw<0,4,3> o smem_ptr[8b](unset) o (_8,_16):(_16,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_inter_atom_uint8_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×16 (MN×K) tile -> offset of a 8-bit element, unswizzled. A
        /// bijection onto `0..128`.
        pub const ATOM = cute (8,16):(16,1), logical(8,16) -> physical;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×16 (MN×K) tile ->
        /// offset of a 8-bit element. CuTe `(_8,_16):(_16,_1)`.
        pub const INNER = cute (8,16):(16,1), logical(8,16) -> physical;
    }
}

/// `GMMA::Layout_K_INTER_Atom<half_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 16-bit elements (the atom
/// depends on the width only: `half_t`, `bfloat16_t`, `uint16_t`).
///
/// `ATOM` maps a position of the 8×8 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<0,4,3>` over byte addresses after `(_8,_8):(_8,_1)` (`B = 0`: no swizzle, the
/// interleaved atom). CuTe prints it `Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_8,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_inter_atom_half_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×8 (MN×K) tile -> offset of a 16-bit element, unswizzled. A
        /// bijection onto `0..64`.
        pub const ATOM = cute (8,8):(8,1), logical(8,8) -> physical;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×8 (MN×K) tile ->
        /// offset of a 16-bit element. CuTe `(_8,_8):(_8,_1)`.
        pub const INNER = cute (8,8):(8,1), logical(8,8) -> physical;
    }
}

/// `GMMA::Layout_K_INTER_Atom<float>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 32-bit elements (the atom
/// depends on the width only: `float`, `tfloat32_t`, `uint32_t`, `int32_t`).
///
/// `ATOM` maps a position of the 8×4 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<0,4,3>` over byte addresses after `(_8,_4):(_4,_1)` (`B = 0`: no swizzle, the
/// interleaved atom). CuTe prints it `Sw<0,4,3> o smem_ptr[32b](unset) o (_8,_4):(_4,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_inter_atom_float {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×4 (MN×K) tile -> offset of a 32-bit element, unswizzled. A
        /// bijection onto `0..32`.
        pub const ATOM = cute (8,4):(4,1), logical(8,4) -> physical;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×4 (MN×K) tile ->
        /// offset of a 32-bit element. CuTe `(_8,_4):(_4,_1)`.
        pub const INNER = cute (8,4):(4,1), logical(8,4) -> physical;
    }
}

/// `GMMA::Layout_K_SW32_Atom<uint8_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 8-bit elements (the atom depends
/// on the width only: `uint8_t`, `int8_t`, `float_e4m3_t`, `float_e5m2_t`).
///
/// `ATOM` maps a position of the 8×32 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<1,4,3>` over byte addresses after `(_8,_32):(_32,_1)`. CuTe prints it `Sw<1,4,3> o
/// smem_ptr[8b](unset) o (_8,_32):(_32,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_sw32_atom_uint8_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×32 (MN×K) tile -> offset of a 8-bit element, swizzled by
        /// `Swizzle<1,4,3>` on byte addresses. A bijection onto `0..256`.
        pub const ATOM = cute (8,32):(32,1), logical(8,32) -> physical, Swizzle<1,4,3> over bytes of 8-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×32 (MN×K) tile ->
        /// offset of a 8-bit element. CuTe `(_8,_32):(_32,_1)`.
        pub const INNER = cute (8,32):(32,1), logical(8,32) -> physical;
    }
}

/// `GMMA::Layout_K_SW32_Atom<half_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 16-bit elements (the atom
/// depends on the width only: `half_t`, `bfloat16_t`, `uint16_t`).
///
/// `ATOM` maps a position of the 8×16 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<1,4,3>` over byte addresses after `(_8,_16):(_16,_1)`. CuTe prints it `Sw<1,4,3> o
/// smem_ptr[16b](unset) o (_8,_16):(_16,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_sw32_atom_half_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×16 (MN×K) tile -> offset of a 16-bit element, swizzled by
        /// `Swizzle<1,4,3>` on byte addresses. A bijection onto `0..128`.
        pub const ATOM = cute (8,16):(16,1), logical(8,16) -> physical, Swizzle<1,4,3> over bytes of 16-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×16 (MN×K) tile ->
        /// offset of a 16-bit element. CuTe `(_8,_16):(_16,_1)`.
        pub const INNER = cute (8,16):(16,1), logical(8,16) -> physical;
    }
}

/// `GMMA::Layout_K_SW32_Atom<float>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 32-bit elements (the atom
/// depends on the width only: `float`, `tfloat32_t`, `uint32_t`, `int32_t`).
///
/// `ATOM` maps a position of the 8×8 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<1,4,3>` over byte addresses after `(_8,_8):(_8,_1)`. CuTe prints it `Sw<1,4,3> o
/// smem_ptr[32b](unset) o (_8,_8):(_8,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_sw32_atom_float {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×8 (MN×K) tile -> offset of a 32-bit element, swizzled by
        /// `Swizzle<1,4,3>` on byte addresses. A bijection onto `0..64`.
        pub const ATOM = cute (8,8):(8,1), logical(8,8) -> physical, Swizzle<1,4,3> over bytes of 32-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×8 (MN×K) tile ->
        /// offset of a 32-bit element. CuTe `(_8,_8):(_8,_1)`.
        pub const INNER = cute (8,8):(8,1), logical(8,8) -> physical;
    }
}

/// `GMMA::Layout_K_SW64_Atom<uint8_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 8-bit elements (the atom depends
/// on the width only: `uint8_t`, `int8_t`, `float_e4m3_t`, `float_e5m2_t`).
///
/// `ATOM` maps a position of the 8×64 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<2,4,3>` over byte addresses after `(_8,_64):(_64,_1)`. CuTe prints it `Sw<2,4,3> o
/// smem_ptr[8b](unset) o (_8,_64):(_64,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_sw64_atom_uint8_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×64 (MN×K) tile -> offset of a 8-bit element, swizzled by
        /// `Swizzle<2,4,3>` on byte addresses. A bijection onto `0..512`.
        pub const ATOM = cute (8,64):(64,1), logical(8,64) -> physical, Swizzle<2,4,3> over bytes of 8-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×64 (MN×K) tile ->
        /// offset of a 8-bit element. CuTe `(_8,_64):(_64,_1)`.
        pub const INNER = cute (8,64):(64,1), logical(8,64) -> physical;
    }
}

/// `GMMA::Layout_K_SW64_Atom<half_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 16-bit elements (the atom
/// depends on the width only: `half_t`, `bfloat16_t`, `uint16_t`).
///
/// `ATOM` maps a position of the 8×32 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<2,4,3>` over byte addresses after `(_8,_32):(_32,_1)`. CuTe prints it `Sw<2,4,3> o
/// smem_ptr[16b](unset) o (_8,_32):(_32,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_sw64_atom_half_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×32 (MN×K) tile -> offset of a 16-bit element, swizzled by
        /// `Swizzle<2,4,3>` on byte addresses. A bijection onto `0..256`.
        pub const ATOM = cute (8,32):(32,1), logical(8,32) -> physical, Swizzle<2,4,3> over bytes of 16-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×32 (MN×K) tile ->
        /// offset of a 16-bit element. CuTe `(_8,_32):(_32,_1)`.
        pub const INNER = cute (8,32):(32,1), logical(8,32) -> physical;
    }
}

/// `GMMA::Layout_K_SW64_Atom<float>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 32-bit elements (the atom
/// depends on the width only: `float`, `tfloat32_t`, `uint32_t`, `int32_t`).
///
/// `ATOM` maps a position of the 8×16 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<2,4,3>` over byte addresses after `(_8,_16):(_16,_1)`. CuTe prints it `Sw<2,4,3> o
/// smem_ptr[32b](unset) o (_8,_16):(_16,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_sw64_atom_float {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×16 (MN×K) tile -> offset of a 32-bit element, swizzled by
        /// `Swizzle<2,4,3>` on byte addresses. A bijection onto `0..128`.
        pub const ATOM = cute (8,16):(16,1), logical(8,16) -> physical, Swizzle<2,4,3> over bytes of 32-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×16 (MN×K) tile ->
        /// offset of a 32-bit element. CuTe `(_8,_16):(_16,_1)`.
        pub const INNER = cute (8,16):(16,1), logical(8,16) -> physical;
    }
}

/// `GMMA::Layout_K_SW128_Atom<uint8_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 8-bit elements (the atom depends
/// on the width only: `uint8_t`, `int8_t`, `float_e4m3_t`, `float_e5m2_t`).
///
/// `ATOM` maps a position of the 8×128 (MN×K) tile, K-major, to the element offset in shared
/// memory: CuTe `Swizzle<3,4,3>` over byte addresses after `(_8,_128):(_128,_1)`. CuTe prints it
/// `Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_sw128_atom_uint8_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×128 (MN×K) tile -> offset of a 8-bit element, swizzled by
        /// `Swizzle<3,4,3>` on byte addresses. A bijection onto `0..1024`.
        pub const ATOM = cute (8,128):(128,1), logical(8,128) -> physical, Swizzle<3,4,3> over bytes of 8-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×128 (MN×K) tile ->
        /// offset of a 8-bit element. CuTe `(_8,_128):(_128,_1)`.
        pub const INNER = cute (8,128):(128,1), logical(8,128) -> physical;
    }
}

/// `GMMA::Layout_K_SW128_Atom<half_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 16-bit elements (the atom
/// depends on the width only: `half_t`, `bfloat16_t`, `uint16_t`).
///
/// `ATOM` maps a position of the 8×64 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<3,4,3>` over byte addresses after `(_8,_64):(_64,_1)`. CuTe prints it `Sw<3,4,3> o
/// smem_ptr[16b](unset) o (_8,_64):(_64,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_sw128_atom_half_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×64 (MN×K) tile -> offset of a 16-bit element, swizzled by
        /// `Swizzle<3,4,3>` on byte addresses. A bijection onto `0..512`.
        pub const ATOM = cute (8,64):(64,1), logical(8,64) -> physical, Swizzle<3,4,3> over bytes of 16-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×64 (MN×K) tile ->
        /// offset of a 16-bit element. CuTe `(_8,_64):(_64,_1)`.
        pub const INNER = cute (8,64):(64,1), logical(8,64) -> physical;
    }
}

/// `GMMA::Layout_K_SW128_Atom<float>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 32-bit elements (the atom
/// depends on the width only: `float`, `tfloat32_t`, `uint32_t`, `int32_t`).
///
/// `ATOM` maps a position of the 8×32 (MN×K) tile, K-major, to the element offset in shared memory:
/// CuTe `Swizzle<3,4,3>` over byte addresses after `(_8,_32):(_32,_1)`. CuTe prints it `Sw<3,4,3> o
/// smem_ptr[32b](unset) o (_8,_32):(_32,_1)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_k_sw128_atom_float {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×32 (MN×K) tile -> offset of a 32-bit element, swizzled by
        /// `Swizzle<3,4,3>` on byte addresses. A bijection onto `0..256`.
        pub const ATOM = cute (8,32):(32,1), logical(8,32) -> physical, Swizzle<3,4,3> over bytes of 32-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×32 (MN×K) tile ->
        /// offset of a 32-bit element. CuTe `(_8,_32):(_32,_1)`.
        pub const INNER = cute (8,32):(32,1), logical(8,32) -> physical;
    }
}

/// `GMMA::Layout_MN_INTER_Atom<uint8_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 8-bit elements (the atom depends
/// on the width only: `uint8_t`, `int8_t`, `float_e4m3_t`, `float_e5m2_t`).
///
/// `ATOM` maps a position of the 16×8 (MN×K) tile, MN-major, to the element offset in shared
/// memory: CuTe `Swizzle<0,4,3>` over byte addresses after `(_16,_8):(_1,_16)` (`B = 0`: no
/// swizzle, the interleaved atom). CuTe prints it `Sw<0,4,3> o smem_ptr[8b](unset) o
/// (_16,_8):(_1,_16)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_inter_atom_uint8_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 16×8 (MN×K) tile -> offset of a 8-bit element, unswizzled. A
        /// bijection onto `0..128`.
        pub const ATOM = cute (16,8):(1,16), logical(16,8) -> physical;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 16×8 (MN×K) tile ->
        /// offset of a 8-bit element. CuTe `(_16,_8):(_1,_16)`.
        pub const INNER = cute (16,8):(1,16), logical(16,8) -> physical;
    }
}

/// `GMMA::Layout_MN_INTER_Atom<half_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 16-bit elements (the atom
/// depends on the width only: `half_t`, `bfloat16_t`, `uint16_t`).
///
/// `ATOM` maps a position of the 8×8 (MN×K) tile, MN-major, to the element offset in shared memory:
/// CuTe `Swizzle<0,4,3>` over byte addresses after `(_8,_8):(_1,_8)` (`B = 0`: no swizzle, the
/// interleaved atom). CuTe prints it `Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_1,_8)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_inter_atom_half_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×8 (MN×K) tile -> offset of a 16-bit element, unswizzled. A
        /// bijection onto `0..64`.
        pub const ATOM = cute (8,8):(1,8), logical(8,8) -> physical;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×8 (MN×K) tile ->
        /// offset of a 16-bit element. CuTe `(_8,_8):(_1,_8)`.
        pub const INNER = cute (8,8):(1,8), logical(8,8) -> physical;
    }
}

/// `GMMA::Layout_MN_INTER_Atom<float>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 32-bit elements (the atom
/// depends on the width only: `float`, `tfloat32_t`, `uint32_t`, `int32_t`).
///
/// `ATOM` maps a position of the 4×8 (MN×K) tile, MN-major, to the element offset in shared memory:
/// CuTe `Swizzle<0,4,3>` over byte addresses after `(_4,_8):(_1,_4)` (`B = 0`: no swizzle, the
/// interleaved atom). CuTe prints it `Sw<0,4,3> o smem_ptr[32b](unset) o (_4,_8):(_1,_4)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_inter_atom_float {
    use crate::layout;

    layout! {
        /// The atom: position in the 4×8 (MN×K) tile -> offset of a 32-bit element, unswizzled. A
        /// bijection onto `0..32`.
        pub const ATOM = cute (4,8):(1,4), logical(4,8) -> physical;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 4×8 (MN×K) tile ->
        /// offset of a 32-bit element. CuTe `(_4,_8):(_1,_4)`.
        pub const INNER = cute (4,8):(1,4), logical(4,8) -> physical;
    }
}

/// `GMMA::Layout_MN_SW32_Atom<uint8_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 8-bit elements (the atom depends
/// on the width only: `uint8_t`, `int8_t`, `float_e4m3_t`, `float_e5m2_t`).
///
/// `ATOM` maps a position of the 32×8 (MN×K) tile, MN-major, to the element offset in shared
/// memory: CuTe `Swizzle<1,4,3>` over byte addresses after `(_32,_8):(_1,_32)`. CuTe prints it
/// `Sw<1,4,3> o smem_ptr[8b](unset) o (_32,_8):(_1,_32)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_sw32_atom_uint8_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 32×8 (MN×K) tile -> offset of a 8-bit element, swizzled by
        /// `Swizzle<1,4,3>` on byte addresses. A bijection onto `0..256`.
        pub const ATOM = cute (32,8):(1,32), logical(32,8) -> physical, Swizzle<1,4,3> over bytes of 8-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 32×8 (MN×K) tile ->
        /// offset of a 8-bit element. CuTe `(_32,_8):(_1,_32)`.
        pub const INNER = cute (32,8):(1,32), logical(32,8) -> physical;
    }
}

/// `GMMA::Layout_MN_SW32_Atom<half_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 16-bit elements (the atom
/// depends on the width only: `half_t`, `bfloat16_t`, `uint16_t`).
///
/// `ATOM` maps a position of the 16×8 (MN×K) tile, MN-major, to the element offset in shared
/// memory: CuTe `Swizzle<1,4,3>` over byte addresses after `(_16,_8):(_1,_16)`. CuTe prints it
/// `Sw<1,4,3> o smem_ptr[16b](unset) o (_16,_8):(_1,_16)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_sw32_atom_half_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 16×8 (MN×K) tile -> offset of a 16-bit element, swizzled by
        /// `Swizzle<1,4,3>` on byte addresses. A bijection onto `0..128`.
        pub const ATOM = cute (16,8):(1,16), logical(16,8) -> physical, Swizzle<1,4,3> over bytes of 16-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 16×8 (MN×K) tile ->
        /// offset of a 16-bit element. CuTe `(_16,_8):(_1,_16)`.
        pub const INNER = cute (16,8):(1,16), logical(16,8) -> physical;
    }
}

/// `GMMA::Layout_MN_SW32_Atom<float>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 32-bit elements (the atom
/// depends on the width only: `float`, `tfloat32_t`, `uint32_t`, `int32_t`).
///
/// `ATOM` maps a position of the 8×8 (MN×K) tile, MN-major, to the element offset in shared memory:
/// CuTe `Swizzle<1,4,3>` over byte addresses after `(_8,_8):(_1,_8)`. CuTe prints it `Sw<1,4,3> o
/// smem_ptr[32b](unset) o (_8,_8):(_1,_8)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_sw32_atom_float {
    use crate::layout;

    layout! {
        /// The atom: position in the 8×8 (MN×K) tile -> offset of a 32-bit element, swizzled by
        /// `Swizzle<1,4,3>` on byte addresses. A bijection onto `0..64`.
        pub const ATOM = cute (8,8):(1,8), logical(8,8) -> physical, Swizzle<1,4,3> over bytes of 32-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 8×8 (MN×K) tile ->
        /// offset of a 32-bit element. CuTe `(_8,_8):(_1,_8)`.
        pub const INNER = cute (8,8):(1,8), logical(8,8) -> physical;
    }
}

/// `GMMA::Layout_MN_SW64_Atom<uint8_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 8-bit elements (the atom depends
/// on the width only: `uint8_t`, `int8_t`, `float_e4m3_t`, `float_e5m2_t`).
///
/// `ATOM` maps a position of the 64×8 (MN×K) tile, MN-major, to the element offset in shared
/// memory: CuTe `Swizzle<2,4,3>` over byte addresses after `(_64,_8):(_1,_64)`. CuTe prints it
/// `Sw<2,4,3> o smem_ptr[8b](unset) o (_64,_8):(_1,_64)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_sw64_atom_uint8_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 64×8 (MN×K) tile -> offset of a 8-bit element, swizzled by
        /// `Swizzle<2,4,3>` on byte addresses. A bijection onto `0..512`.
        pub const ATOM = cute (64,8):(1,64), logical(64,8) -> physical, Swizzle<2,4,3> over bytes of 8-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 64×8 (MN×K) tile ->
        /// offset of a 8-bit element. CuTe `(_64,_8):(_1,_64)`.
        pub const INNER = cute (64,8):(1,64), logical(64,8) -> physical;
    }
}

/// `GMMA::Layout_MN_SW64_Atom<half_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 16-bit elements (the atom
/// depends on the width only: `half_t`, `bfloat16_t`, `uint16_t`).
///
/// `ATOM` maps a position of the 32×8 (MN×K) tile, MN-major, to the element offset in shared
/// memory: CuTe `Swizzle<2,4,3>` over byte addresses after `(_32,_8):(_1,_32)`. CuTe prints it
/// `Sw<2,4,3> o smem_ptr[16b](unset) o (_32,_8):(_1,_32)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_sw64_atom_half_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 32×8 (MN×K) tile -> offset of a 16-bit element, swizzled by
        /// `Swizzle<2,4,3>` on byte addresses. A bijection onto `0..256`.
        pub const ATOM = cute (32,8):(1,32), logical(32,8) -> physical, Swizzle<2,4,3> over bytes of 16-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 32×8 (MN×K) tile ->
        /// offset of a 16-bit element. CuTe `(_32,_8):(_1,_32)`.
        pub const INNER = cute (32,8):(1,32), logical(32,8) -> physical;
    }
}

/// `GMMA::Layout_MN_SW64_Atom<float>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 32-bit elements (the atom
/// depends on the width only: `float`, `tfloat32_t`, `uint32_t`, `int32_t`).
///
/// `ATOM` maps a position of the 16×8 (MN×K) tile, MN-major, to the element offset in shared
/// memory: CuTe `Swizzle<2,4,3>` over byte addresses after `(_16,_8):(_1,_16)`. CuTe prints it
/// `Sw<2,4,3> o smem_ptr[32b](unset) o (_16,_8):(_1,_16)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_sw64_atom_float {
    use crate::layout;

    layout! {
        /// The atom: position in the 16×8 (MN×K) tile -> offset of a 32-bit element, swizzled by
        /// `Swizzle<2,4,3>` on byte addresses. A bijection onto `0..128`.
        pub const ATOM = cute (16,8):(1,16), logical(16,8) -> physical, Swizzle<2,4,3> over bytes of 32-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 16×8 (MN×K) tile ->
        /// offset of a 32-bit element. CuTe `(_16,_8):(_1,_16)`.
        pub const INNER = cute (16,8):(1,16), logical(16,8) -> physical;
    }
}

/// `GMMA::Layout_MN_SW128_Atom<uint8_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 8-bit elements (the atom depends
/// on the width only: `uint8_t`, `int8_t`, `float_e4m3_t`, `float_e5m2_t`).
///
/// `ATOM` maps a position of the 128×8 (MN×K) tile, MN-major, to the element offset in shared
/// memory: CuTe `Swizzle<3,4,3>` over byte addresses after `(_128,_8):(_1,_128)`. CuTe prints it
/// `Sw<3,4,3> o smem_ptr[8b](unset) o (_128,_8):(_1,_128)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_sw128_atom_uint8_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 128×8 (MN×K) tile -> offset of a 8-bit element, swizzled by
        /// `Swizzle<3,4,3>` on byte addresses. A bijection onto `0..1024`.
        pub const ATOM = cute (128,8):(1,128), logical(128,8) -> physical, Swizzle<3,4,3> over bytes of 8-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 128×8 (MN×K) tile ->
        /// offset of a 8-bit element. CuTe `(_128,_8):(_1,_128)`.
        pub const INNER = cute (128,8):(1,128), logical(128,8) -> physical;
    }
}

/// `GMMA::Layout_MN_SW128_Atom<half_t>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 16-bit elements (the atom
/// depends on the width only: `half_t`, `bfloat16_t`, `uint16_t`).
///
/// `ATOM` maps a position of the 64×8 (MN×K) tile, MN-major, to the element offset in shared
/// memory: CuTe `Swizzle<3,4,3>` over byte addresses after `(_64,_8):(_1,_64)`. CuTe prints it
/// `Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_sw128_atom_half_t {
    use crate::layout;

    layout! {
        /// The atom: position in the 64×8 (MN×K) tile -> offset of a 16-bit element, swizzled by
        /// `Swizzle<3,4,3>` on byte addresses. A bijection onto `0..512`.
        pub const ATOM = cute (64,8):(1,64), logical(64,8) -> physical, Swizzle<3,4,3> over bytes of 16-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 64×8 (MN×K) tile ->
        /// offset of a 16-bit element. CuTe `(_64,_8):(_1,_64)`.
        pub const INNER = cute (64,8):(1,64), logical(64,8) -> physical;
    }
}

/// `GMMA::Layout_MN_SW128_Atom<float>`: the GMMA shared-memory layout atom of
/// `include/cute/atom/mma_traits_sm90_gmma.hpp` (CUTLASS 4.2), for 32-bit elements (the atom
/// depends on the width only: `float`, `tfloat32_t`, `uint32_t`, `int32_t`).
///
/// `ATOM` maps a position of the 32×8 (MN×K) tile, MN-major, to the element offset in shared
/// memory: CuTe `Swizzle<3,4,3>` over byte addresses after `(_32,_8):(_1,_32)`. CuTe prints it
/// `Sw<3,4,3> o smem_ptr[32b](unset) o (_32,_8):(_1,_32)`.
///
/// Generated from the printout of `tests/cpp/atoms.cpp` (CuTe C++ over the CUTLASS 4.2 headers);
/// `tests/tests/atoms_cpp.rs` compares it with that printout at every coordinate.
pub mod gmma_layout_mn_sw128_atom_float {
    use crate::layout;

    layout! {
        /// The atom: position in the 32×8 (MN×K) tile -> offset of a 32-bit element, swizzled by
        /// `Swizzle<3,4,3>` on byte addresses. A bijection onto `0..256`.
        pub const ATOM = cute (32,8):(1,32), logical(32,8) -> physical, Swizzle<3,4,3> over bytes of 32-bit elements;
        /// `ATOM` without its swizzle (CuTe's `layout_b()`): position in the 32×8 (MN×K) tile ->
        /// offset of a 32-bit element. CuTe `(_32,_8):(_1,_32)`.
        pub const INNER = cute (32,8):(1,32), logical(32,8) -> physical;
    }
}
