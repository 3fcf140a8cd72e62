//! Fuzz target `cute`: see `layout_fuzz::checks::cute`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| layout_fuzz::checks::cute::check(data));
