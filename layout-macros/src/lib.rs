//! # layout-macros
//!
//! The `layout!` proc-macro behind `layout_typed::layout!`: it parses shape:stride notation
//! and space annotations, runs every check of `layout-core` **during macro expansion**, and
//! expands to a zero-sized typed value whose type carries the layout (so `compose` can check
//! the composition rules as trait bounds). Use it through `layout-typed`, which passes its own
//! path (`$crate`) as the first token so that the generated code names absolute paths; this
//! crate's only item, [`layout_impl`], is not meant to be called directly.
//!
//! # Input
//!
//! ```text
//! layout!(LAYOUT, DOMAIN -> CODOMAIN [, OPTION]*)              expression form: a value
//! layout! { [pub] const NAME = LAYOUT, DOMAIN -> CODOMAIN [, OPTION]*; ... }   item form
//! layout! { [pub] const NAME = OPERATION(OPERAND, ...); ... }  an item of the algebra
//! layout!(OPERATION(OPERAND, ...))                             an algebra expression
//!
//! LAYOUT   := ['cute'] SHAPE ':' STRIDE       (spec: Grammar) grammar; `cute` = CuTe order
//! leaf     := integer | '_' | '{' rust-block '}'  (`_`: broadcast; braces: a run-time value)
//! SIDE     := logical | thread-value | tv | physical, a logical side optionally with its
//!             tile shape: logical(16, 8)
//! OPTION   := swizzle(b = B, src = S, dst = D) | Swizzle<B,M,S> over UNIT | index = i32|i64|u32|usize
//!           | wgmma K-major [of N-bit elements] | wgmma MN-major [of N-bit elements]
//!           | tma box [of N-bit elements]        (the tile is a wgmma operand / a TMA box)
//! UNIT     := elements | bytes of N-bit elements   (CuTe's GMMA/TMA swizzles act on bytes)
//! OPERATION:= compose | divide | divide_modes | restrict | repeat | interleave
//!             | repeat_modewise | repeat_modewise_raked | broadcast | inverse | swizzle
//!             | group | flatten | select | permute | coalesce, over declared items and
//!             bracketed literals
//!             [LAYOUT, DOMAIN -> CODOMAIN]
//! ```
//!
//! ```
//! use layout_typed::prelude::*;
//!
//! layout! {
//!     /// Item form: `SMEM` is a type alias and a constant, like a unit struct.
//!     pub const SMEM = (16,32):(32,1), logical -> physical;
//!     pub const TV = (thread: 128, value: 4):(4,1), thread-value -> logical;
//!     /// An item of the algebra: 4×8 tiles of `SMEM`, a type and a constant too.
//!     pub const TILES = divide(SMEM, (4, 8));
//! }
//! let c = layout!(cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8));
//! // CuTe's 128-byte swizzle over fp16: Swizzle<3,3,3> on the element offsets.
//! let sw = layout!((8,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, index = u32);
//! let tile = layout!(restrict(TILES, rest = 5)); // tile 5: rows 4-7, columns 8-15
//! assert_eq!(SMEM.offset((1usize, 2usize)), 34);
//! assert_eq!(c.offset(5usize), 33);
//! assert_eq!(sw.offset((1usize, 0usize)), 64 ^ (1 << 3)); // row 1: its 16-byte chunk 0 moves to chunk 1
//! assert_eq!(tile.offset((0usize, 0usize)), 4 * 32 + 8);
//! ```
//!
//! # What the expansion checks
//!
//! Everything about one layout, with `layout-core`'s functions: the syntax, matching profiles,
//! positive sizes, no literal `0` stride (a broadcast is `_`), `i64` overflow, the annotation
//! (one of the five constructible ones; spec: Constructible annotations), a dense bijection into logical or
//! thread-value space (Lemma 1), alias-freedom into physical space, swizzle fields, tile
//! shapes, the offset range against the index type, the operand clauses (a `wgmma` descriptor
//! or a tiled tensor map that expresses the tile: `layout_core::gmma`, `layout_core::tma`),
//! and every precondition of an algebra expression. Each failure is a `compile_error!` spanned at the offending token (the stride
//! that breaks Lemma 1, the colliding modes, the annotation, …), with the rule, the mode and
//! the numbers, and a `help:` line; independent failures are reported together. The expansion
//! never panics.
//!
//! ```compile_fail
//! use layout_typed::prelude::*;
//! // error: zero stride in mode 0 of size 4
//! //        help: write `_` for a broadcast mode (it makes the layout read-only), or give a
//! //        non-zero stride
//! let l = layout!((4,8):(0,1), logical -> physical);
//! ```
//!
//! ```compile_fail
//! use layout_typed::prelude::*;
//! // error: divide: tile entry 12 does not divide the size 32 of mode 1
//! layout! { const SMEM = (16,32):(32,1), logical -> physical; }
//! let tiles = layout!(divide(SMEM, (16, 12)));
//! ```
//!
//! ```
//! use layout_typed::prelude::*;
//! layout! { const SMEM = (16,32):(32,1), logical -> physical; }
//! let tiles = layout!(divide(SMEM, (16, 8))); // 8 divides 32
//! let l = layout!((4,8):(_,1), logical -> physical); // a broadcast, read-only
//! ```
//!
//! # What it generates
//!
//! - A layout: `Static<Form, Spec<Domain, Codomain, Size<N>, Access, DomainTile,
//!   CodomainTile, Index>>::NEW`, where the form is the layout as a type
//!   (`(Dim<16, 32>, Dim<32, 1>)`, `Bcast<N>` for `_`), so `offset` inlines to `Σ cᵢ·dᵢ`
//!   with constant strides. A swizzle wraps it in `Swizzled<L, B, SRC, DST, MIN, MAX>`, where
//!   `MIN` and `MAX` are the exact offset range (computed here, not in const evaluation).
//! - The item form: a type alias and a constant of the same name, and a hidden
//!   `macro_rules!` re-exported under that name (with the item's visibility; `#[macro_export]`ed
//!   under a unique hidden name for a `pub` item) that hands the declaration's tokens to algebra
//!   expressions. An expression invokes it through the operand's path as written, so Rust's
//!   own resolution finds the item (this is how `divide(SMEM, ..)` sees `SMEM` during
//!   expansion, with full spans and numbers in its errors). The hidden macros of an
//!   expression's operands are invoked in one chain, the last calling `layout!` back with
//!   every declaration.
//! - An item defined by an algebra expression fetches its operands through the same chain
//!   (the callback completes the item, its attributes, visibility and name before the
//!   definitions), and is a type alias and a constant of the expression's type; a generated
//!   value's unit struct is then defined beside the item under a hidden name. Its hidden macro
//!   hands on the expression with its operands' definitions (`[NAME = [PATH = DECL].. EXPR]`),
//!   which a later expression evaluates again, so any value is an operand. A run-time value
//!   in it is an error, as a run-time leaf in a declared item is.
//! - An algebra expression is evaluated here with `layout-core`; a result that is a layout
//!   (an operation's result, or a composite that Theorem 1 decides to be one) is a `Static`;
//!   `compose(P, Q)` of two named items with a swizzled composite, a 64-bit index and no named
//!   mode is the
//!   library's typed `compose(P, Q)` of their values (a `Composed`, whose type follows from
//!   theirs);
//!   otherwise a `Generated<Form, Spec<..>, P>` whose `offset` runs the emitted program
//!   (spec: Code emission), carried by `P`, a unit struct of the expansion (a run-time
//!   `restrict` makes a struct of its own, which holds the values).
//! - Run-time leaves (`{m}`): a `Result<Dynamic<..>, Error>` checked when built; the checks
//!   that do not depend on them still run here.
//!
//! Pipeline: `frame` (the crate path, the form, an item's attributes and name, with `syn`) →
//! `text` (the tokens as the text `layout_core::expr` reads, and the table from its byte
//! ranges back to the tokens) → `layout_core::expr` (parse, check, evaluate; every error
//! located) → `valid` (the typed API's limits) → `expand` (the typed value). The language, its
//! rules and their wording are the core's; the macro maps each located error to its tokens.
// Beyond the workspace lints: the macro never panics, so no unchecked indexing either.
#![deny(clippy::indexing_slicing)]

mod algebra;
mod expand;
mod frame;
mod runtime;
#[cfg(test)]
mod tests;
mod text;
mod valid;

use proc_macro::TokenStream;

/// `layout!` implementation; input is `$crate; <layout! input>`. See `layout_typed::layout!`.
#[proc_macro]
pub fn layout_impl(input: TokenStream) -> TokenStream {
    expand::layout(input.into()).into()
}
