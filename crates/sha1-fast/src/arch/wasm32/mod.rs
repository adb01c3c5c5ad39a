//! The wasm32 backend, compiled in only when the build enables Wasm SIMD
//! (`-C target-feature=+simd128`): WebAssembly has no run-time feature
//! detection inside a module, so the choice is the build's, and the
//! embedder loads a build without SIMD where the engine lacks it.
//!
//! Tested where it runs: the bijou-wasm package's Node suite hashes the
//! same inputs (every length to 200 bytes, random ones to 80 blocks, 1 and
//! 3 MiB, the collision files) with its SIMD build (this module) and its
//! baseline build (the scalar core) against `node:crypto`.

#[allow(unsafe_code)]
pub(crate) mod simd_schedule;
