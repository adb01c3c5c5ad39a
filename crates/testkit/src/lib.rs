//! Test support for the bijou workspace (not published).
//!
//! - [`vectors`]: parsers for the checked-in vector files under `vectors/`
//!   (on the line reader and errors of `records`),
//!   strict enough that a corrupted file fails loudly instead of testing less;
//! - [`bijou_cases`]: runs a parsed bijou vector against `bijou-core`;
//! - [`serde_cases`]: parses and runs the bijou-serde vectors;
//! - [`oracle`]: a naive transcription of the bijou spec, the independent
//!   reference for property tests, exhaustive sweeps and fuzzing;
//! - [`exhaustive`]: the sweeps over every short byte string and every
//!   `u32`, shared by ignored tests and `cargo xtask conformance --exhaustive`;
//! - [`largest_allocation`]: an allocator that records each thread's largest
//!   allocation, for tests that bound what a decoder allocates;
//! - [`noise`]: deterministic pseudo-random bytes, so failures reproduce.

pub mod bijou_cases;
pub mod exhaustive;
pub mod largest_allocation;
pub mod oracle;
mod records;
pub mod serde_cases;
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

/// The fuzz targets: the `[[bin]]` names in `fuzz/Cargo.toml`, sorted. The
/// fuzz workspace and `cargo xtask fuzz` each check their own list of
/// targets against it.
pub fn fuzz_binaries() -> Vec<String> {
    let path = workspace_root().join("fuzz/Cargo.toml");
    let manifest =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut names: Vec<String> = manifest
        .split("[[bin]]")
        .skip(1)
        .filter_map(|bin| {
            bin.lines()
                .find_map(|line| line.trim().strip_prefix("name = \""))
                .and_then(|rest| rest.strip_suffix('"'))
                .map(str::to_owned)
        })
        .collect();
    names.sort_unstable();
    names
}

/// Path of a file under `vectors/`.
pub fn vector_path(relative: &str) -> PathBuf {
    workspace_root().join("vectors").join(relative)
}

/// `len` deterministic pseudo-random bytes (xorshift64, its state made
/// from `seed`), so that failures reproduce.
pub fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u8
        })
        .collect()
}
