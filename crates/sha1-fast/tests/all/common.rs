//! Helpers shared by the integration tests.
#![allow(dead_code, unreachable_pub)]

use sha1_fast::{Backend, Digest, Sha1};

/// The backends this machine can run, all of them, every run.
pub fn backends() -> impl Iterator<Item = Backend> {
    Backend::ALL.iter().copied().filter(|b| b.is_available())
}

/// The backends this run cannot use: none on a CPU that has them all,
/// every one but `Scalar` when detection is off (CI runs this suite once
/// with `--cfg sha1_fast_force="none"`, so the tests using this do run),
/// and at least those `SHA1_FAST_TEST_UNAVAILABLE` names (comma-separated).
pub fn unavailable() -> Vec<Backend> {
    let unavailable: Vec<Backend> = Backend::ALL
        .iter()
        .copied()
        .filter(|b| !b.is_available())
        .collect();
    if cfg!(sha1_fast_force = "none") {
        assert_eq!(unavailable.len(), Backend::ALL.len() - 1);
    }
    // `cargo xtask cross` hides a backend's instructions from detection
    // for one run and names it here, so a hiding that stopped working
    // fails instead of quietly testing that backend again.
    let named = std::env::var("SHA1_FAST_TEST_UNAVAILABLE").unwrap_or_default();
    for name in named.split(',').filter(|name| !name.is_empty()) {
        let backend = Backend::from_name(name)
            .unwrap_or_else(|| panic!("SHA1_FAST_TEST_UNAVAILABLE names {name:?}, not a backend"));
        assert!(
            unavailable.contains(&backend),
            "{backend} is available, but the run hid it from detection"
        );
    }
    unavailable
}

pub use testkit::noise;

/// SHA-1 by the `sha1` crate, the external oracle.
pub fn oracle(data: &[u8]) -> Digest {
    use sha1::Digest as _;
    let out = sha1::Sha1::digest(data);
    Digest::from(<[u8; 20]>::try_from(out.as_slice()).expect("20 bytes"))
}

/// Hashes `data` with `backend`, feeding it in `chunk`-byte pieces.
pub fn chunked(backend: Backend, data: &[u8], chunk: usize) -> Digest {
    let mut hasher = Sha1::with_backend(backend).expect("available");
    for piece in data.chunks(chunk) {
        hasher.update(piece);
    }
    hasher.finalize()
}

/// Hashes `data` with `backend` after hashing something else and resetting.
pub fn after_reset(backend: Backend, data: &[u8]) -> Digest {
    let mut hasher = Sha1::with_backend(backend).expect("available");
    hasher.update(&[0xEE; 100]);
    hasher.reset();
    hasher.update(data);
    hasher.finalize()
}

/// Checks every way of hashing `data` against `expected`: the reference,
/// the one-shot API, and every backend one-shot, fed whole, after `reset`,
/// and in `chunks`.
pub fn check_all(data: &[u8], expected: Digest, chunks: &[usize], what: &str) {
    assert_eq!(
        Digest::from(sha1_fast::reference::digest(data)),
        expected,
        "reference, {what}"
    );
    assert_eq!(sha1_fast::digest(data), expected, "digest(), {what}");
    for backend in backends() {
        assert_eq!(backend.digest(data), expected, "{backend} one-shot, {what}");
        assert_eq!(
            chunked(backend, data, data.len().max(1)),
            expected,
            "{backend} whole, {what}"
        );
        assert_eq!(
            after_reset(backend, data),
            expected,
            "{backend} after reset, {what}"
        );
        for &chunk in chunks {
            assert_eq!(
                chunked(backend, data, chunk),
                expected,
                "{backend} in {chunk}-byte chunks, {what}"
            );
        }
    }
}
