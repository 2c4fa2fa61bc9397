#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| indigo_fuzz::position::indigo(data));
