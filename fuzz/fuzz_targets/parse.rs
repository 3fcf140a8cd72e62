//! Fuzz target `parse`: see `layout_fuzz::checks::parse`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| layout_fuzz::checks::parse::check(data));
