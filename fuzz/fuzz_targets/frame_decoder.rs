//! The `frame_decoder` fuzz target; its checks and input format are documented in
//! `bijou_fuzz::targets::frame_decoder`, where the stable replay test runs them too.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| bijou_fuzz::targets::frame_decoder::run(data));
