//! The `serde_canonical` fuzz target; its checks and input format are documented in
//! `bijou_fuzz::targets::serde_canonical`, where the stable replay test runs them too.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| bijou_fuzz::targets::serde_canonical::run(data));
