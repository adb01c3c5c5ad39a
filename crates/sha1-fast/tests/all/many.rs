//! `digest_many` and `digest_many_into` against the `sha1` crate, through
//! [`sha1_fast::digest_many`] (the detected backend) and through
//! `Backend::digest_many_into` for every backend available here.

use crate::common::{backends, noise, oracle, unavailable};
use proptest::prelude::*;
use sha1_fast::{Digest, LengthMismatch};

const BLANK: Digest = Digest::from_bytes([0; 20]);

/// Checks every way of hashing `messages` at once against the oracle.
fn check(messages: &[&[u8]], what: &str) {
    let expected: Vec<Digest> = messages.iter().map(|m| oracle(m)).collect();
    let report = |got: &[Digest], how: &str| {
        assert_eq!(got.len(), expected.len(), "{how}, {what}");
        for (i, (got, want)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(
                got,
                want,
                "{how}, {what}: message {i} of {} ({} bytes)",
                messages.len(),
                messages[i].len()
            );
        }
    };
    report(&sha1_fast::digest_many(messages), "digest_many");
    let mut out = vec![BLANK; messages.len()];
    sha1_fast::digest_many_into(messages, &mut out).unwrap();
    report(&out, "digest_many_into");
    for backend in backends() {
        let mut out = vec![BLANK; messages.len()];
        backend.digest_many_into(messages, &mut out).unwrap();
        report(&out, &format!("{backend}"));
    }
}

/// Messages cut from `data` with lengths from `lens`, at odd offsets.
fn cut(data: &[u8], lens: impl Iterator<Item = usize>) -> Vec<&[u8]> {
    let mut at = 0;
    lens.map(|len| {
        // Odd offsets, so no message starts aligned.
        let start = (at % (data.len() - len)) | 1;
        at += len + 7;
        &data[start..start + len]
    })
    .collect()
}

#[test]
fn no_messages() {
    check(&[], "empty list");
    assert_eq!(sha1_fast::digest_many(&[]), Vec::<Digest>::new());
}

#[test]
fn empty_messages() {
    for count in [1, 2, 3, 4, 5, 8, 9, 16, 17, 33] {
        check(&vec![&b""[..]; count], &format!("{count} empty messages"));
    }
}

#[test]
fn fewer_messages_than_lanes() {
    let data = noise(11, 4096);
    for count in 1..=9 {
        for len in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000] {
            let messages = cut(&data, (0..count).map(|i| (len + 13 * i) % 1500));
            check(&messages, &format!("{count} messages from {len} bytes"));
        }
    }
}

#[test]
fn every_length_up_to_300_in_one_batch() {
    let data = noise(12, 8192);
    let forward = cut(&data, 0..=300);
    check(&forward, "lengths 0..=300");
    let backward = cut(&data, (0..=300).rev());
    check(&backward, "lengths 300..=0");
}

#[test]
fn random_lengths_with_long_messages() {
    let data = noise(13, 300_000);
    let lens = noise(14, 2000);
    let short: Vec<usize> = lens
        .chunks(2)
        .map(|p| usize::from(u16::from_le_bytes([p[0], p[1]])) % 300)
        .collect();
    check(
        &cut(&data, short.iter().copied()),
        "1000 random lengths below 300",
    );
    for (where_, long) in [("first", 0), ("middle", 500), ("last", 999)] {
        let mut lens = short.clone();
        lens[long] = 200_000 + long;
        lens[(long + 3) % 1000] = 70_001;
        check(
            &cut(&data, lens.into_iter()),
            &format!("long messages {where_}"),
        );
    }
    // One long message alone, and with one short one.
    check(&[&data[..100_003]], "one long message");
    check(&[&data[5..100_005], b"abc"], "long and short");
}

#[test]
fn repeated_message() {
    let data = noise(15, 1000);
    check(&[&data[..]; 13], "the same 1000 bytes 13 times");
}

#[test]
fn output_length_must_match() {
    let messages: [&[u8]; 3] = [b"a", b"b", b"c"];
    for len in [0, 2, 4] {
        let mut out = vec![BLANK; len];
        assert_eq!(
            sha1_fast::digest_many_into(&messages, &mut out),
            Err(LengthMismatch {
                messages: 3,
                digests: len
            })
        );
        assert!(out.iter().all(|d| *d == BLANK), "untouched on error");
        for backend in backends() {
            assert!(backend.digest_many_into(&messages, &mut out).is_err());
        }
    }
    assert_eq!(
        LengthMismatch {
            messages: 3,
            digests: 2
        }
        .to_string(),
        "message count (3) and digest count (2) differ: `out` needs one digest per message"
    );
}

#[test]
fn unavailable_backends_panic_in_digest_many() {
    for backend in unavailable() {
        let result = std::panic::catch_unwind(|| backend.digest_many_into(&[], &mut []));
        assert!(result.is_err(), "{backend} is not available but ran");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_message_sets(
        lens in prop::collection::vec(prop_oneof![8 => 0usize..300, 1 => 300usize..5000], 0..40),
        seed in any::<u64>(),
    ) {
        let data = noise(seed, 6000);
        check(&cut(&data, lens.into_iter()), "random set");
    }
}
