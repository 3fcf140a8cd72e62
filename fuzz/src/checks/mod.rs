//! One module per fuzz target. Each `check` takes the fuzzer's bytes, drives the product with
//! them and panics only on a defect: a panic inside the product, or a result that differs from
//! the brute-force computation written here (which shares no code with `layout-core` beyond
//! its data types). Errors returned by the product are fine wherever the input is invalid.

pub mod algebra;
pub mod bytes;
pub mod cute;
pub mod emit;
pub mod expr;
pub mod known;
pub mod macro_front;
pub mod maps;
pub mod model;
pub mod parse;

/// A target's check: the fuzzer's bytes in, a panic on a defect.
pub type Check = fn(&[u8]);

/// The targets, by name, as `cargo fuzz` and the replay call them.
pub const TARGETS: &[(&str, Check)] = &[
    ("parse", parse::check),
    ("macro_front", macro_front::check),
    ("algebra", algebra::check),
    ("emit", emit::check),
    ("cute", cute::check),
];

/// Largest number of positions a check enumerates (values are compared at every one).
pub const BRUTE_LIMIT: i64 = 1 << 12;

/// Prints what a check is about to run when `FUZZ_DEBUG` is set (for triage).
pub fn debug(what: impl FnOnce() -> String) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("FUZZ_DEBUG").is_some()) {
        eprintln!("{}", what());
    }
}
