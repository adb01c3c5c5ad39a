//! The wasm32 backend, compiled in only with `-C target-feature=+simd128`:
//! WebAssembly has no run-time detection, so the build chooses. The
//! bijou-wasm package's Node suite tests it against `node:crypto`.

#[allow(unsafe_code)]
pub(crate) mod simd_schedule;
