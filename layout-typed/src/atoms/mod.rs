//! CuTe's MMA atoms (SM80 `mma.sync`, SM90 GMMA), copy atoms (`ldmatrix`, `stmatrix`,
//! `cp.async`, `UniversalCopy`) and GMMA shared-memory layout atoms, as named, checked, typed
//! layouts.
//!
//! Every constant is declared with `layout!`, so `layout!` checks it while compiling: a dense
//! bijection for `thread-value -> logical`, alias-freedom up to its broadcasts for
//! `logical -> physical`. The CuTe text comes from one of two places, never retyped:
//!
//! - **the corpus** (`sm80.rs`, `sm90.rs`, `copy.rs`): the text of the CUTLASS header each
//!   atom cites (NVIDIA/cutlass@7107b05, v4.7.0, `file:line` as recorded in the `source`
//!   field of `tests/data/cute_corpus.json`); `tests/tests/atoms.rs` compares every constant
//!   with the corpus offsets at every coordinate;
//! - **CuTe C++ over the CUTLASS 4.2 headers** (`generated.rs`, every other atom):
//!   `tests/cpp/atoms.cpp` prints each atom's layouts and the value CuTe computes at every
//!   coordinate, and `tests/tests/atoms_cpp.rs` writes the module from that printout
//!   (`UPDATE_ATOMS=1 cargo test -p layout-tests --test atoms_cpp`) and fails when the
//!   committed file differs from what it would write.
//!
//! `tests/tests/atoms_cpp.rs` compares **every** constant of both kinds with the 4.2 printout at
//! every integral coordinate, with its classification (dense bijection exactly where CuTe's
//! values are a permutation; otherwise a broadcast whose `_DENSE` part is CuTe's values with
//! the stride-0 digits dropped). The atoms declared from the 4.7 corpus agree with the 4.2
//! headers at every coordinate: none of their layouts differs between the two versions.
//!
//! ```
//! use layout_typed::atoms::sm80_16x8x16_f32f16f16f32_tn as atom;
//! use layout_typed::prelude::*;
//!
//! // Lane 5, value 1 of the C fragment: CuTe's (thread 5, value 1) -> m + 16·n = 49.
//! assert_eq!(atom::C.offset((1usize, 5usize)), 49);
//! assert_eq!(atom::C.offset_index(5 + 32 * 1), 49); // CuTe's integral index t + 32·v
//! // Storage of the 16×8 C tile (M×N, column-major, ld = 512), over the atom's tile index.
//! layout! { const GC = cute (16,8):(1,512), logical(16,8) -> physical; }
//! let addr = compose(GC, atom::C); // thread-value -> physical
//! assert_eq!(addr.offset((1usize, 5usize)), 1 + 3 * 512); // m = 1, n = 3
//! ```
//!
//! # Naming
//!
//! One module per atom, named after the CUTLASS atom in lower case, as the corpus case id
//! spells it, template arguments appended: `SM80_16x8x16_F32F16F16F32_TN` is
//! [`sm80_16x8x16_f32f16f16f32_tn`], GMMA's `SM90_64x64x16_F32F16F16_SS<K,K>` is
//! [`sm90_64x64x16_f32f16f16_ss_k_k`], `SM80_CP_ASYNC_CACHEALWAYS<uint128_t>` is
//! [`sm80_cp_async_cachealways_uint128_t`], `UniversalCopy<uint32_t>` is
//! [`universalcopy_uint32_t`], `GMMA::Layout_K_SW128_Atom<half_t>` is
//! [`gmma_layout_k_sw128_atom_half_t`].
//!
//! - An MMA module holds `THR` (CuTe's `ThrID`), `A`, `B`, `C` (`ALayout`, `BLayout`,
//!   `CLayout`).
//! - A copy module holds `THR` and `SRC`, `DST`, `REF` (`SrcLayout`, `DstLayout`, `RefLayout`)
//!   twice: `SRC_BITS` in bits as CuTe writes them, `SRC_B16` in 16-bit elements (for the
//!   generated atoms: `Copy_Atom<OP, half_t>`'s `ValLayoutSrc`, `ValLayoutDst`,
//!   `ValLayoutRef`; for [`universalcopy_uint8_t`], whose 8 bits hold no 16-bit element,
//!   `SRC_B8` from `Copy_Atom<OP, uint8_t>`).
//! - A shared-memory module holds `ATOM` and `INNER`, `ATOM` without its swizzle (see
//!   [Shared-memory atoms](#shared-memory-atoms)).
//!
//! A broadcast layout `X` comes with its dense part `X_DENSE` (`SRC_B16_DENSE` for a copy
//! atom).
//!
//! # Provided
//!
//! - MMA: SM80 `mma.sync` 16×8×8 and 16×8×16 with f16 inputs (f16 and f32 accumulators) and
//!   bf16 inputs, tf32 16×8×4 and 16×8×8, s8 16×8×16 and 16×8×32, and from the corpus f64,
//!   s4 and b1; SM90 f64 `mma.sync`; SM90 GMMA (`wgmma`) 64×N×16 with f16 inputs, f16 and f32
//!   accumulators, `_SS` and `_RS`, A and B K-major, for N ∈ {8, 16, 32, 64, 128, 256}
//!   (`sm90_64xNx16_f16f16f16_ss_k_k`, `.._rs_k_k`, `sm90_64xNx16_f32f16f16_ss_k_k`,
//!   `.._rs_k_k`), and from the corpus s8 and e4m3 64×128×32.
//! - Copy: `ldmatrix` `SM75_U32x1_LDSM_N`, `U32x2`, `U32x4` and `SM75_U16x2_LDSM_T`, `U16x4`,
//!   `U16x8`; `stmatrix` `SM90_U32x1_STSM_N`, `U32x2`, `U32x4` and `SM90_U16x2_STSM_T`,
//!   `U16x4`, `U16x8`; `cp.async` of 4, 8 and 16 bytes,
//!   `SM80_CP_ASYNC_CACHEALWAYS<uint32_t | uint64_t | uint128_t>` and
//!   `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>`; `UniversalCopy<T>` for T of 8 to 128 bits.
//! - Shared memory: `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>` for `T` = `uint8_t`,
//!   `half_t` and `float` (the atom depends on the width only: the same for every 8-, 16- or
//!   32-bit type, `tfloat32_t` included).
//!
//! The SM61, SM70, SM75 and SM89 MMA atoms of the corpus are read at run time by
//! `Layout::from_cute` in `tests/tests/cute_atoms.rs`.
//!
//! # Coordinates and units
//!
//! A thread-value layout maps CuTe's (thread, value) to an index. Coordinates passed to
//! `offset` are in seed order, so they are `(value, thread)`; one integer is CuTe's integral
//! index `t + T·v` (T threads) in both notations. The index is:
//!
//! - MMA `A`, `B`, `C`: the position in the atom's tile, column-major, **in elements**:
//!   `m + M·k` over the M×K tile of A, `n + N·k` over the N×K tile of B, `m + M·n` over the
//!   M×N tile of C. The tile is on the codomain, `logical(M, K)` in CuTe order (the type's
//!   `Tile2<K, M>` is seed order), so `compose` refuses a storage layout over another
//!   (e.g. transposed) tile.
//! - `THR`: the logical thread -> its lane in the warp or warpgroup (the identity here).
//! - copy `_BITS`: the bit `128·row + bit` of the copied block of shared-memory rows (each
//!   `ldmatrix`/`stmatrix` row is 128 bits); copy `_B16`: the 16-bit element `8·row + column`
//!   (see [Bits to elements](#bits-to-elements)). For `cp.async` and `UniversalCopy` (one
//!   thread, one vector) the bit, or the element, of the copied vector. The codomain carries
//!   no tile shape.
//!
//! # Dense bijections and broadcasts
//!
//! Most atom layouts are **dense bijections** onto `[0, size)`: every (thread, value) owns one
//! position. They are `thread-value -> logical` layouts, writable and composable:
//! `compose(storage, atom::A)` gives each thread's addresses.
//!
//! Some atoms have a **broadcast thread mode**, a thread leaf of stride 0 in CuTe: the GMMA
//! `_SS` operands (`A`, `B`: `(128,(64,16)):(0,(1,64))`, every thread of the warpgroup reads
//! the whole tile from shared memory through one descriptor), the `_RS` atoms' `B`, the
//! `ldmatrix` x1/x2 sources and the `stmatrix` x1/x2 destinations (only the first 8 or 16
//! threads supply row addresses; CuTe's thread leaf of size 4 or 2 repeats them). Several
//! (thread, value) pairs share a position, so such a layout is not a dense bijection and,
//! as (spec: Typed surface) requires, not a `thread-value -> logical` layout. It is represented with the
//! broadcast stride `_` and given twice:
//!
//! - **`X`, the whole atom**: CuTe's layout as written, each stride-0 leaf read as `_` (the
//!   `cute` spelling of the broadcast), annotated **`logical -> physical`**. It is a
//!   *broadcast* (`Access = ReadOnly`): reads work, a store through it does not compile, and
//!   it is not a `compose` right operand. Its domain holds CuTe's (thread, value) in CuTe's
//!   mode order, so `X.offset_index(t + T·v)` is CuTe's value at (t, v), exactly as for the
//!   dense atoms; the domain is annotated `logical` only because a layout literal cannot be
//!   `thread-value -> physical` (that exists only as a composite), and a broadcast is legal
//!   only into physical. Its codomain is the same index as the dense layouts' (tile position,
//!   bit or element of the block), read as the offset into that tile or block stored compactly.
//! - **`X_DENSE`, its dense part**: `X` with its broadcast leaves removed, a dense bijection
//!   `thread-value -> logical` (for GMMA the tile's identity over the values of one thread, for
//!   `ldmatrix`/`stmatrix` the rows of the threads that supply addresses). This is the layout
//!   to compose with a storage layout; every thread's (or every repeated thread's) values are
//!   the ones of `X_DENSE`.
//!
//! `X` is the `broadcast` of `X_DENSE`: `broadcast(compose(TILE, X_DENSE), S)` (spec: Broadcast; `TILE`
//! the compact storage of the tile or block, `S` the broadcast leaves' sizes) is `X` with the
//! broadcast leaves moved to the front. That operation puts the copies in the slowest
//! mode, while CuTe's atoms keep them inside the thread mode, which is the fastest; and
//! `layout!(broadcast(..))` is an expression, not a nameable item. So the named constant is the
//! CuTe-ordered `X`, and its equality with the `broadcast` result at every coordinate is tested
//! (`tests/tests/atoms.rs`, through `layout_core::broadcast`), and shown here:
//!
//! ```
//! use layout_typed::atoms::sm90_64x64x16_f32f16f16_ss_k_k as gmma;
//! use layout_typed::prelude::*;
//!
//! // (thread, value) -> m + 64·k, the same for all 128 threads: the broadcast of A_DENSE.
//! let b = layout!(broadcast(
//!     compose(
//!         [cute (64,16):(1,64), logical(64,16) -> physical],
//!         [cute (64,16):(1,64), thread-value -> logical(64,16)]
//!     ),
//!     (128)
//! ));
//! assert_eq!(b.notation().to_string(), "(128,(16,64)):(_,(64,1))"); // thread mode first
//! assert_eq!(gmma::A.notation().to_string(), "((16,64),128):((64,1),_)"); // thread last
//! for t in 0..128usize {
//!     for v in (0..1024usize).step_by(37) {
//!         assert_eq!(b.offset((t, v)), gmma::A.offset((v, t)));
//!         assert_eq!(gmma::A.offset((v, t)), gmma::A_DENSE.offset(v));
//!     }
//! }
//! ```
//!
//! A store through a broadcast atom does not compile:
//!
//! ```compile_fail
//! use layout_typed::atoms::sm90_64x64x16_f32f16f16_ss_k_k as gmma;
//! use layout_typed::prelude::*;
//! let mut tile = vec![0u16; 64 * 16];
//! let mut view = View::new(&mut tile, gmma::A);
//! view.set(0usize, 1); // `A` is ReadOnly
//! ```
//!
//! nor is a broadcast atom a `thread-value -> logical` operand of `compose`:
//!
//! ```compile_fail
//! use layout_typed::atoms::sm90_64x64x16_f32f16f16_ss_k_k as gmma;
//! use layout_typed::prelude::*;
//! layout! { const BIG = (131072):(1), logical -> physical; }
//! let _ = compose(BIG, gmma::A); // `A` maps into physical
//! ```
//!
//! # Shared-memory atoms
//!
//! `GMMA::Layout_*_Atom<T>`'s `ATOM` maps a position of the atom's MN×K tile (CuTe's
//! coordinate `(mn, k)`, annotated `logical(MN, K)` in CuTe order, so seed `(k, mn)`) to the
//! offset of a `T` element in shared memory. It is a `logical -> physical` storage layout, a
//! bijection onto `0..MN·K`, with the swizzle where CuTe applies it when a tensor is made over
//! a shared-memory pointer: `Swizzle<B,4,3>` on **byte** addresses (`SW32`, `SW64`, `SW128`:
//! `B` = 1, 2, 3; written `Swizzle<B,4,3> over bytes of W-bit elements`, see `docs/cute.md`),
//! none for `INTER` (`B` = 0). The atom's base must be aligned to the swizzle's period
//! (1024 bytes for `SW128`), as CuTe requires. It is compared with the element offsets of a
//! CuTe tensor over a 4096-byte aligned shared-memory pointer at every coordinate.
//!
//! ```
//! use layout_typed::atoms::gmma_layout_k_sw128_atom_half_t as sw128;
//! use layout_typed::atoms::sm80_cp_async_cachealways_uint128_t as cp;
//! use layout_typed::prelude::*;
//!
//! // The 8×64 K-major tile of fp16: row mn = 1 is 128 bytes in; its first 16-byte chunk
//! // (elements k = 0..8) moves to chunk 1 ^ 0 = 1, element 64 + 8.
//! assert_eq!(sw128::ATOM.offset((0usize, 1usize)), 72); // seed order: (k, mn)
//! assert_eq!(sw128::ATOM.offset((9usize, 1usize)), 64 + 1); // chunk 1 moves to chunk 0
//! // One thread copies 16 bytes with `cp.async`: 8 fp16 elements.
//! assert_eq!(cp::SRC_B16.offset_index(7), 7);
//! ```
//!
//! # Bits to elements
//!
//! CuTe's copy atoms, and the corpus, count **bits**: `SrcLayout`/`DstLayout` map (thread,
//! value) to a bit of the block, so that one atom serves every element type. For elements of
//! `w` bits, the element layout is `E(t, e) = L(t, e·w) / w`: the `w` fastest values of each
//! thread must be the `w` consecutive bits of one element, starting at a multiple of `w`. On
//! the layout this removes the fastest value leaves that hold those bits and divides every other
//! stride by `w` (CuTe's `upcast<w>`); broadcasts stay broadcasts. [`bits_to_elements`] does it
//! at run time for any width and says why a width does not fit (e.g. 64-bit elements in a
//! layout whose threads hold 32-bit runs, or 32-bit elements in a transposing `_T` atom, whose
//! threads hold 16-bit runs). The `_B16` constants are its results for 16-bit elements (half,
//! bf16, u16: the `.b16` of `ldmatrix`/`stmatrix`), written out as typed constants; the tests
//! check them against the corpus bits converted independently, `bits[t + T·(e·16)] / 16`, with
//! the 16 bits of every element checked consecutive.
//!
//! ```
//! use layout_typed::atoms::{bits_to_elements, sm75_u32x2_ldsm_n as ldsm};
//! use layout_typed::prelude::*;
//!
//! // Thread 5's values 2..4 are the 16-bit elements 64 + 2·5 + {0, 1}: row 9, columns 2, 3.
//! assert_eq!(ldsm::DST_B16.offset_index(5 + 32 * 2), 64 + 10);
//! assert_eq!(ldsm::DST_BITS.offset_index(5 + 32 * 32), 16 * (64 + 10)); // bit 16·element
//! let bits = ldsm::DST_BITS.to_map()?; // the run-time layout, built from the typed form
//! let b16 = bits_to_elements(bits.as_layout().expect("a layout"), 16).expect("16-bit elements fit");
//! assert_eq!(b16.to_string(), ldsm::DST_B16.notation().to_string());
//! # Ok::<(), layout_typed::core_algebra::Error>(())
//! ```

mod copy;
mod generated;
mod sm80;
mod sm90;

pub use copy::*;
pub use generated::*;
pub use sm80::*;
pub use sm90::*;
