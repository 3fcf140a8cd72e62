//! Fuzz target `algebra`: see `layout_fuzz::checks::algebra`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| layout_fuzz::checks::algebra::check(data));
