//! The checks behind the fuzz targets, shared with the replay of the corpora that
//! `cargo test` runs (`tests/tests/fuzz_replay.rs` includes the same files).
//!
//! The macro's front end is compiled from `layout-macros`' own modules (a proc-macro crate
//! cannot be a normal dependency); outside a proc-macro, `proc_macro2` uses its fallback, so
//! the front end runs on token streams parsed from text.

// `text` asks `proc_macro` whether a compiler runs it (here, never).
extern crate proc_macro;

#[path = "../../layout-macros/src/algebra.rs"]
#[allow(dead_code, unused_imports)]
mod algebra;
#[path = "../../layout-macros/src/expand.rs"]
#[allow(dead_code, unused_imports)]
mod expand;
#[path = "../../layout-macros/src/frame.rs"]
#[allow(dead_code, unused_imports)]
mod frame;
#[path = "../../layout-macros/src/runtime.rs"]
#[allow(dead_code, unused_imports)]
mod runtime;
#[path = "../../layout-macros/src/text.rs"]
#[allow(dead_code, unused_imports)]
mod text;
#[path = "../../layout-macros/src/valid.rs"]
#[allow(dead_code, unused_imports)]
mod valid;

pub mod checks;
