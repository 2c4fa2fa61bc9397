#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| indigo_fuzz::qg_state::state(data));
