//! The `layout!` proc-macro behind `layout_typed::layout!`. Use it through `layout-typed`,
//! which passes its own path as the first token so that generated code names absolute paths.
//!
//! Pipeline: `parse` (tokens → `ast`, with spans) → `valid` (calls `layout-core`, maps each
//! error's mode path back to its token, collects independent errors) → `expand`.

mod algebra;
mod ast;
mod expand;
mod parse;
#[cfg(test)]
mod tests;
mod valid;

use proc_macro::TokenStream;

/// `layout!` implementation; input is `$crate; <layout! input>`. See `layout_typed::layout!`.
#[proc_macro]
pub fn layout_impl(input: TokenStream) -> TokenStream {
    expand::layout(input.into()).into()
}
