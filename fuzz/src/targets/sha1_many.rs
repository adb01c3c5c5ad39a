//! `digest_many` of arbitrary messages equals `digest` of each message, for
//! the default dispatch and for every backend this CPU can run (sixteen
//! AVX-512 lanes where the CPU has AVX-512, else each backend's own:
//! interleaved SHA-NI streams, AVX2 lanes, scalar).
//!
//! Input: the `split_chunks` format; each piece is one message.

use crate::split_chunks;
use sha1_fast::{Backend, Digest};

/// Runs the checks on one input; panics if any fails.
pub fn run(data: &[u8]) {
    let messages = split_chunks(data);
    let expected: Vec<Digest> = messages.iter().map(|m| sha1_fast::digest(m)).collect();
    assert_eq!(sha1_fast::digest_many(&messages), expected, "digest_many");
    for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
        let mut out = vec![Digest::from([0; 20]); messages.len()];
        backend
            .digest_many_into(&messages, &mut out)
            .expect("one digest per message");
        assert_eq!(out, expected, "{backend}");
    }
}
