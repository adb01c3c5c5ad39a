//! The wasm-bindgen exports behind the `bijou-wasm` npm package: bijou varints
//! ([`bijou_core`]) and SHA-1 ([`sha1_fast`]) for JavaScript.
//!
//! This crate is the thin Rust half. The package's public API (`encode64`,
//! `decodeAll64`, `sha1`, the `Sha1` class, the error classes, the type checks
//! that throw `TypeError` and `RangeError`) is the hand-written JavaScript in
//! `js/`, which `cargo xtask wasm` bundles with two builds of this crate, one
//! with Wasm SIMD (`simd128`) and one without, and picks between at load.
//! The SIMD build is for sha1-fast's `simd128` kernel (the SHA-1 message
//! schedule on vectors), with LLVM's auto-vectorizers off: `docs/wasm.md`
//! has the measurements.
//!
//! Every export is total: a bad input comes back as an `Err` that JavaScript
//! sees as a thrown [`Failure`] or [`CollisionFound`], never as a panic (a
//! panic would be a wasm trap), and results are allocated fallibly. The
//! JavaScript layer checks types and ranges before it calls in, so the
//! integer arguments here are always in range, and it hashes long inputs in
//! pieces, so the wasm memory never holds a whole large file.

mod error;
mod sha1;
pub mod varint;

pub use error::Failure;
pub use sha1::{CheckedHasher, CollisionFound, Sha1Hasher, sha1, sha1_checked};
