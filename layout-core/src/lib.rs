//! # layout-core
//!
//! The layout algebra of the paper "A Simplified Layout Algebra for GPU Kernels" with explicit
//! index spaces: a layout `shape : stride` maps coordinates to integers, and each side declares
//! whether it indexes a **logical** tile position, a **thread-value** pair, or a **physical**
//! memory offset (elements). Maps into logical or thread-value space must be dense bijections
//! (decided by Lemma 1 from sizes and strides alone); maps into physical space must be
//! alias-free, except where a broadcast `_` stride says so (read-only).
//!
//! This is the run-time half of the workspace: `layout-macros` runs these checks while a
//! program compiles, `layout-typed` re-exports this crate as `layout_typed::core_algebra`, and
//! the `layout` command is built on it. The conventions it fixes where the paper is silent are
//! stated in `docs/spec.md`, whose headings these docs cite: (spec: Dense bijections)
//! names the heading Dense bijections.
//!
//! **Mode order:** the *last* mode varies fastest (row-major), CuTe's order reversed
//! recursively. [`Layout::from_cute`] and [`Layout::to_cute`] convert; both notations give the
//! same function on the same integers.
//!
//! ```
//! use layout_core::{check, Layout, Space};
//! let smem: Layout = "(16,32):(32,1)".parse()?;
//! check(&smem, Space::Logical, Space::Physical)?;
//! assert_eq!(smem.eval_index(67)?, 67); // row 2, column 3
//! let tv = Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))")?; // SM80 16x8 C fragment
//! check(&tv, Space::ThreadValue, Space::Logical)?;
//! assert_eq!(tv.to_string(), "((2,2),(8,4)):((8,16),(1,32))"); // seed order
//! assert_eq!(tv.eval_index(5)?, 33); // the same function as CuTe's on the same index
//! # Ok::<(), layout_core::Error>(())
//! ```
//!
//! **Units.** Sizes count positions; strides, offsets, `span` and `cosize` count elements
//! (never bytes; [`banks`] takes the element width in bits). The one exception is [`inverse`],
//! whose strides count positions of its argument's domain.
//!
//! # What is here
//!
//! - **Notation:** [`Layout`] (`FromStr`/`Display` in seed notation, [`Layout::from_cute`] /
//!   [`Layout::to_cute`], evaluation at a flat index or a natural or coarser coordinate,
//!   `size`, `cosize`, mode names), built on [`Tree`] and [`Stride`] (`_` is
//!   [`Stride::Broadcast`]).
//! - **The rules (spec: Rules):** [`check`] (one layout against its annotation), [`check_annotation`],
//!   [`is_dense_bijection`] / [`check_dense_bijection`] (Lemma 1, no enumeration),
//!   [`is_alias_free`] / [`check_alias_free`] (two fast tests, an exact symbolic reduction, then
//!   an exact enumeration up to [`ALIAS_ENUMERATION_LIMIT`]), [`Space`].
//! - **Maps:** [`Annotated`] (a checked layout with its spaces and tile shapes), [`Map`]
//!   (a layout, a composite, a swizzled or restricted map), [`compose`], [`Map::restrict`],
//!   [`Map::offset_range`] (exact, without enumeration),
//!   [`Swizzle`] (seed fields and CuTe's `Swizzle<B,M,S>`).
//! - **Operations (spec: Algebra):** [`canonical`], [`scale_mode`], [`divide`], [`divide_modes`],
//!   [`repeat`], [`repeat_modewise`], [`repeat_modewise_raked`], [`interleave`], [`broadcast`],
//!   [`inverse`], and the regroupings [`group`], [`flatten`], [`select`], [`permute`].
//! - **Theorem 1 and code (spec: Theorem 1; spec: Code emission):** [`scan`], [`decide`] (is a composite a layout, and its
//!   coarsest form), [`emit`] / [`layout_form`] / [`written`] (the offset function as a
//!   [`Program`], printed as Rust, C, CUDA or Python with a range check for the index type).
//! - **CuTe's own operations:** [`cute`] (`coalesce`, `composition`, `complement`, the
//!   divides and products, the inverses, in CuTe order with CuTe's semantics), each result
//!   returned only if it satisfies CuTe's own postconditions (spec: Postconditions).
//! - **A kernel's layouts:** [`mma`] (CuTe's `make_tiled_mma` with its partitions of A, B
//!   and C, and the `ldmatrix` copies that feed it, as checked thread-value layouts).
//! - **CUDA generation:** [`cuda`] (emitted programs as `__host__ __device__` functions
//!   range-checked for 32 bits, a thread-value composite restricted to a run-time thread with
//!   the XOR split of swizzles, run-time leading dimensions kept as a factor, vector proofs,
//!   the `.cu` file's assembly).
//! - **TMA tensor maps:** [`tma`] (the fields of a tiled tensor map for a global tensor and a
//!   tile's shared-memory layout, checked to be the image the tensor map writes).
//! - **Tiled copies:** [`copy`] (CuTe's `make_tiled_copy`, `partition_S`/`partition_D`, the
//!   vector width a copy moves, checked; CuTe's `max_common_vector`).
//! - **Residue tiles:** [`residue`] (a divide whose tile need not divide the tensor, CuTe's
//!   `local_tile` over `ceil_div`: the grid, the residue, each thread's coordinates, the
//!   predicate as a function and as code, and the check that every predicated access stays in
//!   the tensor).
//! - **wgmma descriptors:** [`gmma`] (the shared-memory matrix descriptor of one operand tile,
//!   read off a checked, possibly swizzled layout, or the reason no descriptor expresses it).
//! - **Shared memory:** [`banks`] (the bank conflicts of one warp's access, and of a tiled
//!   copy's partition).
//! - **The expression language:** [`expr`] (the text `layout!` and the `layout` command read:
//!   layouts, declarations and algebra expressions, parsed once, checked with every error at
//!   its token, evaluated with the operations above).
//!
//! # Errors
//!
//! Every failure is one [`Error`]: its `Display` is one sentence with the mode and the
//! numbers, [`Error::rule`] a stable name, [`Error::help`] the suggested fix, and
//! [`Error::mode`] the mode path. The headline rejections at run time:
//!
//! ```
//! use layout_core::{check, compose, Annotated, Layout, Map, Space};
//!
//! // Not a dense bijection (Lemma 1): a map into logical space with padded rows.
//! let padded: Layout = "(4,8):(9,1)".parse()?;
//! let err = check(&padded, Space::Logical, Space::Logical).unwrap_err();
//! assert_eq!(err.rule(), "not-dense");
//! assert_eq!(
//!     err.to_string(),
//!     "not a dense bijection (Lemma 1): sorted by stride, mode 0 should have stride 8 but has 9"
//! );
//! check(&padded, Space::Logical, Space::Physical)?; // fine in memory
//!
//! // Aliasing: rows of 8 elements placed 4 apart.
//! let rows: Layout = "(4,8):(4,1)".parse()?;
//! let err = check(&rows, Space::Logical, Space::Physical).unwrap_err();
//! assert_eq!(err.rule(), "aliasing");
//! assert!(err.to_string().starts_with("not alias-free: flat indices 4 and 8 both reach offset 4"));
//!
//! // A forbidden annotation: nothing maps out of physical space.
//! let err = check(&"8:1".parse()?, Space::Physical, Space::Logical).unwrap_err();
//! assert_eq!(err.rule(), "forbidden-spaces");
//!
//! // Composition: the right operand must map into logical space, with the left's size.
//! let smem: Map = Annotated::new("(16,32):(32,1)".parse()?, Space::Logical, Space::Physical)?.into();
//! let tv: Map = Annotated::new("(64,4):(4,1)".parse()?, Space::ThreadValue, Space::Logical)?.into();
//! assert_eq!(compose(&tv, &smem).unwrap_err().rule(), "right-not-logical"); // operands swapped
//! assert_eq!(compose(&smem, &tv).unwrap_err().rule(), "size-mismatch");
//!
//! // A zero stride is never a broadcast; `_` is.
//! assert_eq!("(4,8):(0,1)".parse::<Layout>().unwrap_err().rule(), "zero-stride");
//! assert!("(4,8):(_,1)".parse::<Layout>()?.is_broadcast());
//! # Ok::<(), layout_core::Error>(())
//! ```
//!
//! `no_std` with `alloc` (the default `std` feature only adds `std::error::Error`); every
//! integer operation on sizes, strides and offsets is checked, so an overflow is
//! [`Error::Overflow`], never a wrapped value.
#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod alias;
pub mod banks;
mod chains;
pub mod copy;
pub mod cuda;
pub mod cute;
mod decide;
mod dense;
mod emit;
mod error;
pub mod expr;
pub mod gmma;
#[doc(hidden)]
pub mod interned;
mod layout;
mod map;
pub mod mma;
mod ops;
mod parse;
mod range;
pub mod residue;
mod space;
mod swizzle;
pub mod tma;
mod tree;

pub use alias::{
    ALIAS_BITSET_RANGE_LIMIT, ALIAS_ENUMERATION_LIMIT, ALIAS_SORT_LIMIT, check_alias_free,
    fast_alias_test, is_alias_free,
};
pub use chains::{CHAINS_INLINE, ChainRef, Chains, ChainsIter, PIECES_INLINE};
pub use decide::{
    COORDINATES_INLINE, Chain, DECIDE_LIMIT, Decision, InlineIntoIter, InlineVec, NotLayout,
    decide, decide_composition, decide_values, scan,
};
pub use dense::{check_dense_bijection, is_dense_bijection};
pub use emit::{
    Emitted, IntType, Program, ProgramForm, Sum, Term, Var, emit, layout_form, written,
};
pub use error::{
    CliOption, Error, Expected, HelpText, MAX_DEPTH, ModePath, NotLayoutReason, Quantity,
};
pub use layout::{CuteNotation, Layout, Mode, mode_errors};
pub use map::{Annotated, Composite, Map, check_same_tile, check_tile, compose};
pub use ops::{
    broadcast, canonical, coalesce, divide, divide_modes, flatten, group, interleave, inverse,
    permute, repeat, repeat_modewise, repeat_modewise_raked, scale_mode, select,
};
pub use range::{RANGE_ENUMERATION_LIMIT, RANGE_SEARCH_LIMIT};
pub use space::{Space, check, check_annotation, check_codomain};
pub use swizzle::{Swizzle, SwizzleUnit};
pub use tree::{Stride, Tree};
