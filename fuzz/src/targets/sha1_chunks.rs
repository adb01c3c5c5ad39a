//! SHA-1 of arbitrary data fed in arbitrary pieces: every backend this CPU
//! can run, the one-shot `digest` and the FIPS reference all equal the
//! `sha1` crate, and so does a copy of the hasher finalized at every split
//! point (the digest of the prefix so far).
//!
//! Input: the `split_chunks` format (piece lengths, then the message).

use crate::split_chunks;
use sha1::Digest as _;
use sha1_fast::{Backend, Sha1};

/// The `sha1` crate's digest as plain bytes.
fn bytes_of(hasher: sha1::Sha1) -> [u8; 20] {
    hasher.finalize().as_slice().try_into().expect("20 bytes")
}

/// Runs the checks on one input; panics if any fails.
pub fn run(data: &[u8]) {
    let chunks = split_chunks(data);
    let message = chunks.concat();
    let expected = bytes_of(sha1::Sha1::new_with_prefix(&message));
    assert_eq!(sha1_fast::digest(&message).to_bytes(), expected, "digest()");
    assert_eq!(
        sha1_fast::reference::digest(&message),
        expected,
        "reference"
    );

    for &backend in Backend::ALL {
        let Some(mut hasher) = Sha1::with_backend(backend) else {
            assert!(
                !backend.is_available(),
                "{backend} is available but refused"
            );
            continue;
        };
        let mut oracle = sha1::Sha1::new();
        for chunk in &chunks {
            hasher.update(chunk);
            oracle.update(chunk);
            let prefix = hasher.clone().finalize().to_bytes();
            assert_eq!(prefix, bytes_of(oracle.clone()), "{backend}, prefix");
        }
        assert_eq!(hasher.finalize().to_bytes(), expected, "{backend}");
    }
}
