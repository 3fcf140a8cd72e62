//! Fuzz target `macro_front`: see `layout_fuzz::checks::macro_front`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| layout_fuzz::checks::macro_front::check(data));
