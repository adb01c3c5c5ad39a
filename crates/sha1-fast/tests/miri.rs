//! The `unsafe` backends under Miri: `cargo xtask miri` runs this file
//! (and the library's engine test) with the SIMD target features enabled at
//! compile time, so detection needs no CPUID and Miri interprets the
//! SSSE3 schedule and the AVX2 lanes, checking every pointer load and
//! store they make. Inputs are small (Miri runs about a million times
//! slower than native) but cover what the pointer arithmetic depends on:
//! unaligned starts, every tail length, one to three blocks, streaming
//! splits, and more messages than lanes. SHA-NI is left out because Miri
//! does not implement `sha1rnds4`.
//!
//! Outside Miri this file is empty: the same paths at full size are in
//! `differential.rs` and `many.rs`.
#![cfg(miri)]

#[path = "all/common.rs"]
mod common;

use common::{backends, chunked, noise};
use sha1_fast::{Backend, Digest, reference};

/// The available backends Miri can interpret (all but SHA-NI).
fn interpretable() -> impl Iterator<Item = Backend> {
    backends().filter(|b| *b != Backend::ShaNi)
}

/// The features `cargo xtask miri` enables; without them the run would
/// quietly test only `Scalar`.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_simd_backend_is_under_test() {
    assert!(
        Backend::SimdSchedule.is_available(),
        "the SIMD-schedule backend is not available: run this under `cargo xtask miri`, \
         which enables ssse3 and avx2 at compile time"
    );
}

#[test]
fn one_shot_and_streaming_match_the_reference() {
    let data = noise(7, 3 * 64 + 3);
    for backend in interpretable() {
        for start in 0..3 {
            for len in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 3 * 64] {
                let message = &data[start..start + len];
                let expected = Digest::from(reference::digest(message));
                assert_eq!(
                    backend.digest(message),
                    expected,
                    "{backend}, {start}+{len}"
                );
                assert_eq!(
                    chunked(backend, message, 37),
                    expected,
                    "{backend} in 37-byte pieces, {start}+{len}"
                );
            }
        }
    }
}

#[test]
fn compress_on_unaligned_blocks() {
    let data = noise(11, 3 * 64 + 1);
    for backend in interpretable() {
        // Blocks one byte off alignment, so a load that assumed 16-byte
        // alignment would be flagged.
        let (blocks, _) = data[1..].as_chunks::<64>();
        let mut expected = [1, 2, 3, 4, 5];
        for block in blocks {
            expected = reference::compress_block(expected, block);
        }
        let mut state = [1, 2, 3, 4, 5];
        backend.compress(&mut state, blocks);
        assert_eq!(state, expected, "{backend}");
    }
}

#[test]
fn many_messages_match_one_shots() {
    // Eleven messages: more than the AVX2 backend's eight lanes, so lanes
    // take new messages mid-run, and lengths that end in every padding case.
    let data = noise(13, 200);
    let messages: Vec<&[u8]> = [0, 3, 55, 56, 64, 70, 119, 130, 1, 190, 64]
        .iter()
        .enumerate()
        .map(|(i, &len)| &data[i % 5..i % 5 + len])
        .collect();
    for backend in interpretable() {
        let mut digests = vec![Digest::from([0; 20]); messages.len()];
        backend
            .digest_many_into(&messages, &mut digests)
            .expect("one slot per message");
        for (message, digest) in messages.iter().zip(digests) {
            assert_eq!(
                digest,
                Digest::from(reference::digest(message)),
                "{backend}, {} bytes",
                message.len()
            );
        }
    }
}

#[test]
fn checked_many_messages_match_the_reference() {
    // Under `cargo xtask miri` the engine is the SIMD schedule with AVX2,
    // so these take the checked AVX2 lanes; 96 blocks of noise, of which
    // the filter lets some through (about one in twenty), so the kept
    // words are read back lane by lane for the recompression too.
    let data = noise(17, 12 * 500);
    let messages: Vec<&[u8]> = data.chunks(500).collect();
    let results = sha1_fast::checked::digest_many(&messages);
    for (message, result) in messages.iter().zip(results) {
        assert_eq!(result, Ok(Digest::from(reference::digest(message))));
    }
}
