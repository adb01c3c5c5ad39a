//! The wasm32 backend, compiled in only when the build enables Wasm SIMD
//! (`-C target-feature=+simd128`): WebAssembly has no run-time feature
//! detection inside a module, so the choice is the build's, and the
//! embedder loads a build without SIMD where the engine lacks it.

#[allow(unsafe_code)]
pub(crate) mod simd_schedule;
