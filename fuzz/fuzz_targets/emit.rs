//! Fuzz target `emit`: see `layout_fuzz::checks::emit`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| layout_fuzz::checks::emit::check(data));
