//! # layout-core
//!
//! The layout algebra of seed 000 ("A Simplified Layout Algebra for GPU Kernels") with explicit
//! index spaces: a layout `shape : stride` maps coordinates to integers, and each side declares
//! whether it indexes a **logical** tile position, a **thread-value** pair, or a **physical**
//! memory offset (elements). Maps into logical or thread-value space must be dense bijections
//! (decided by Lemma 1 from sizes and strides alone); maps into physical space must be
//! alias-free, except where a broadcast `_` stride says so (read-only).
//!
//! **Mode order:** the *last* mode varies fastest (row-major), CuTe's order reversed
//! recursively. [`Layout::from_cute`] and [`Layout::to_cute`] convert; both notations give the
//! same function on the same integers.
//!
//! ```
//! use layout_core::{check, Layout, Space};
//! let smem: Layout = "(16,32):(32,1)".parse()?;
//! check(&smem, Space::Logical, Space::Physical)?;
//! let tv = Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))")?; // SM80 16x8 C fragment
//! check(&tv, Space::ThreadValue, Space::Logical)?;
//! # Ok::<(), layout_core::Error>(())
//! ```
//!
//! `no_std` with `alloc`; every integer operation on sizes, strides and offsets is checked.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod alias;
pub mod banks;
pub mod cute;
mod decide;
mod dense;
mod emit;
mod error;
mod layout;
mod map;
mod ops;
mod parse;
mod space;
mod swizzle;
mod tree;

pub use alias::{
    ENUMERATION_RANGE_LIMIT, ENUMERATION_SIZE_LIMIT, check_alias_free, fast_alias_test,
    is_alias_free,
};
pub use decide::{Chain, DECIDE_LIMIT, Decision, NotLayout, decide, decide_values, scan};
pub use dense::{check_dense_bijection, is_dense_bijection};
pub use emit::{Emitted, Form, IntType, Program, Sum, Term, Var, emit, layout_form, written};
pub use error::{Error, Expected, HelpText, MAX_DEPTH, ModePath, Quantity};
pub use layout::{CuteLayout, Layout, Mode, mode_errors};
pub use map::{Annotated, Map, check_same_tile, check_tile, compose};
pub use ops::{
    broadcast, canonical, divide, divide_modes, flatten, group, interleave, inverse, permute,
    repeat, repeat_modewise, repeat_modewise_raked, scale_mode, select,
};
pub use space::{Space, check, check_annotation, check_codomain};
pub use swizzle::{Swizzle, swizzled_max};
pub use tree::{Stride, Tree};
