//! Test support for the bijou workspace (not published).
//!
//! - [`vectors`]: parsers for the checked-in vector files under `vectors/`,
//!   strict enough that a corrupted file fails loudly instead of testing less;
//! - [`bijou_cases`]: runs a parsed bijou vector against `bijou-core`;
//! - [`oracle`]: a naive transcription of the bijou spec, the independent
//!   reference for property tests, exhaustive sweeps and fuzzing;
//! - [`exhaustive`]: the sweeps over every short byte string and every
//!   `u32`, shared by ignored tests and `cargo xtask conformance --exhaustive`.

pub mod bijou_cases;
pub mod exhaustive;
pub mod oracle;
pub mod vectors;

use std::path::PathBuf;

/// The workspace README's examples, compiled and run as doctests so the
/// first thing a newcomer reads cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The workspace root (where `vectors/` lives).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Path of a file under `vectors/`.
pub fn vector_path(relative: &str) -> PathBuf {
    workspace_root().join("vectors").join(relative)
}
