//! Collision detection (`sha1_fast::checked`): the published collisions are
//! flagged on every backend and however they are fed, with both digests
//! right; everything else hashes as plain SHA-1; and the answers agree with
//! `sha1dc` and `sha1-checked`, two other implementations of the method.

use crate::common::{backends, noise, oracle};
use proptest::prelude::*;
use sha1_fast::checked::{self, Collision};
use sha1_fast::{Backend, Digest};
use std::io::Write as _;
use testkit::vectors::CollisionCase;

/// The published collisions and the digests sha1collisiondetection gives
/// them (`vectors/sha1-collisions/expected.txt`).
fn attacks() -> Vec<CollisionCase> {
    testkit::vectors::load_collisions("sha1-collisions/expected.txt")
        .unwrap_or_else(|e| panic!("{e}"))
}

fn read(file: &str) -> Vec<u8> {
    let path = testkit::vector_path(&format!("sha1-collisions/{file}"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn hasher(backend: Backend) -> checked::Sha1 {
    checked::Sha1::with_backend(backend).expect("available")
}

fn checked_with(backend: Backend, data: &[u8]) -> Result<Digest, Collision> {
    let mut h = hasher(backend);
    h.update(data);
    h.finalize()
}

/// `data` fed in pieces of the lengths `cuts` cycles through.
fn checked_in_pieces(backend: Backend, data: &[u8], cuts: &[usize]) -> Result<Digest, Collision> {
    let mut h = hasher(backend);
    let mut rest = data;
    for &cut in cuts.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (piece, after) = rest.split_at(cut.clamp(1, rest.len()));
        h.update(piece);
        rest = after;
    }
    h.finalize()
}

/// The copied files are the ones in `../shared/vectors/sha1-collisions/`:
/// each has the plain SHA-1 the manifest and the README give (checked with
/// the `sha1` crate), and each pair differs.
#[test]
fn copied_files_are_the_published_collisions() {
    for attack in &attacks() {
        assert_eq!(
            oracle(&attack.data).to_bytes().to_vec(),
            attack.plain,
            "{}",
            attack.file
        );
    }
    assert_ne!(read("shattered-1.pdf"), read("shattered-2.pdf"));
    assert_ne!(read("sha-mbles-1.bin"), read("sha-mbles-2.bin"));
}

#[test]
fn every_backend_flags_every_attack_however_fed() {
    for attack in &attacks() {
        let data = &attack.data;
        for backend in backends() {
            let what = format!("{} on {backend}", attack.file);
            let whole = checked_with(backend, data).expect_err(&what);
            assert_eq!(whole.digest().to_string(), hex(&attack.plain), "{what}");
            assert_eq!(
                whole.mitigated().to_string(),
                hex(&attack.mitigated),
                "{what}"
            );
            for cuts in [&[1usize][..], &[63, 1, 64, 200], &[4096], &[7, 129, 1000]] {
                assert_eq!(
                    checked_in_pieces(backend, data, cuts),
                    Err(whole),
                    "{what} in {cuts:?}"
                );
            }
            let mut written = hasher(backend);
            written.write_all(data).unwrap();
            assert!(written.collision_detected(), "{what}");
            assert_eq!(written.finalize(), Err(whole), "{what} through io::Write");
            let mut reset = hasher(backend);
            reset.update(data);
            reset.reset();
            assert!(!reset.collision_detected());
            reset.update(data);
            assert_eq!(reset.finalize(), Err(whole), "{what} after reset");
        }
    }
}

/// `collision_detected` turns true with the attack block itself, before
/// finalizing: the Shambles files' attack lies in their 640 bytes.
#[test]
fn detection_is_known_once_the_block_is_compressed() {
    for backend in backends() {
        let data = read("sha-mbles-1.bin");
        let mut h = hasher(backend);
        h.update(&data[..64]);
        assert!(!h.collision_detected(), "{backend}");
        h.update(&data[64..]);
        assert!(h.collision_detected(), "{backend}");
    }
}

/// Reduced-round detection finds more blocks in SHAttered (its mitigated
/// digest differs), and the same ones in the Shambles files.
#[test]
fn reduced_round_detection_matches_the_partial_collision_mode() {
    let attacks = attacks();
    for attack in &attacks {
        for backend in backends() {
            let mut h = hasher(backend).detect_reduced_round(true);
            h.update(&attack.data);
            let found = h.finalize().expect_err(&attack.file);
            assert_eq!(found.digest().to_bytes().to_vec(), attack.plain);
            let mitigated = found.mitigated().to_bytes().to_vec();
            assert_eq!(mitigated, attack.mitigated_reduced_round, "{}", attack.file);
        }
    }
    let mut h = hasher(Backend::Scalar).detect_reduced_round(true);
    h.reset();
    h.update(&attacks[0].data);
    let found = h.finalize().expect_err("reset keeps the mode");
    assert_eq!(
        found.mitigated().to_bytes().to_vec(),
        attacks[0].mitigated_reduced_round
    );
}

/// A suffix after the colliding blocks keeps the attack flagged; the
/// digests are those of `sha1dc` (plain and mitigated).
#[test]
fn attacks_with_a_suffix_are_flagged() {
    for attack in &attacks() {
        let mut data = attack.data.clone();
        data.extend_from_slice(&noise(9, 777));
        for backend in backends() {
            let found = checked_with(backend, &data).expect_err(&attack.file);
            assert_eq!(found.digest(), oracle(&data));
            assert_eq!(
                found.mitigated().to_bytes(),
                sha1dc_mitigated(&data).expect_err("flagged")
            );
        }
    }
}

/// One bit flipped anywhere in an attack's blocks is no attack.
#[test]
fn a_flipped_bit_is_plain_sha1() {
    let data = read("sha-mbles-1.bin");
    for at in [0, 100, 200, 300, 400, 639] {
        let mut flipped = data.clone();
        flipped[at] ^= 0x10;
        for backend in backends() {
            assert_eq!(
                checked_with(backend, &flipped),
                Ok(oracle(&flipped)),
                "byte {at}, {backend}"
            );
        }
    }
    let mut pdf = read("shattered-1.pdf");
    pdf[200] ^= 1;
    for backend in backends() {
        assert_eq!(checked_with(backend, &pdf), Ok(oracle(&pdf)), "{backend}");
    }
}

#[test]
fn random_data_of_every_length_is_plain_sha1() {
    let data = noise(3, 2100);
    for backend in backends() {
        for len in 0..=data.len() {
            assert_eq!(
                checked_with(backend, &data[..len]),
                Ok(oracle(&data[..len])),
                "{len} bytes, {backend}"
            );
        }
        let big = noise(4, 3 << 20);
        assert_eq!(
            checked_with(backend, &big),
            Ok(oracle(&big)),
            "3 MiB, {backend}"
        );
    }
}

/// The one-shot (which on SHA-NI skips the hasher) equals the hasher on
/// every length around the block boundaries, and on the attacks with a
/// suffix and with one bit flipped.
#[test]
fn digest_equals_the_hasher() {
    let data = noise(7, 700);
    for len in 0..=data.len() {
        let part = &data[..len];
        assert_eq!(checked::digest(part), Ok(oracle(part)), "{len} bytes");
    }
    for attack in attacks() {
        let mut suffixed = attack.data.clone();
        suffixed.extend_from_slice(&data[..77]);
        let mut flipped = attack.data.clone();
        flipped[300] ^= 4;
        for message in [&attack.data, &suffixed, &flipped] {
            assert_eq!(
                checked::digest(message),
                checked_with(Backend::detect(), message)
            );
        }
        assert!(checked::digest(&flipped).is_ok());
    }
}

#[test]
fn digest_uses_the_detected_backend() {
    let pdf = read("shattered-2.pdf");
    assert_eq!(checked::digest(&pdf), checked_with(Backend::detect(), &pdf));
    assert_eq!(checked::digest(b"abc"), Ok(oracle(b"abc")));
}

/// Messages of one length side by side (the multi-stream path keeps them
/// in lockstep through their tails), with colliding files among them in
/// every position of a pair, and with one bit flipped.
#[test]
fn digest_many_equals_digest_for_equal_lengths() {
    let files: Vec<Vec<u8>> = attacks().into_iter().map(|a| a.data).collect();
    let mut flipped = files[0].clone();
    flipped[200] ^= 1;
    let noise: Vec<Vec<u8>> = (0..9).map(|i| noise(100 + i, 1000)).collect();
    let mut messages: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
    messages.push(&flipped);
    messages.extend(noise.iter().map(Vec::as_slice));
    messages.insert(6, &files[1]);
    let many = checked::digest_many(&messages);
    for (i, (message, got)) in messages.iter().zip(&many).enumerate() {
        assert_eq!(*got, checked::digest(message), "message {i}");
    }
    assert_eq!(many.iter().filter(|r| r.is_err()).count(), 5);
}

#[test]
fn digest_many_equals_digest_for_mixed_batches() {
    let files: Vec<Vec<u8>> = attacks().into_iter().map(|a| a.data).collect();
    let noise: Vec<Vec<u8>> = (0..40).map(|i| noise(i, i as usize * 53 % 1500)).collect();
    let mut messages: Vec<&[u8]> = noise.iter().map(Vec::as_slice).collect();
    for (i, file) in files.iter().enumerate() {
        messages.insert(i * 9, file);
    }
    let many = checked::digest_many(&messages);
    for (message, got) in messages.iter().zip(&many) {
        assert_eq!(*got, checked::digest(message));
    }
    assert_eq!(many.iter().filter(|r| r.is_err()).count(), 4);
    let mut out = vec![Ok(oracle(b"")); messages.len() - 1];
    let before = out.clone();
    assert!(checked::digest_many_into(&messages, &mut out).is_err());
    assert_eq!(out, before, "a length mismatch leaves `out` alone");
}

/// A batch of every length 0..=2100 (whatever lanes `digest_many` runs,
/// messages start and finish in every position and at every block count)
/// with each colliding file, the file with a suffix and the file with one
/// bit flipped in its attack blocks, spread through the batch: each result
/// equals `digest`'s, and exactly the attacks are flagged.
#[test]
fn digest_many_equals_digest_on_every_length_with_the_attacks() {
    let data = noise(11, 2100);
    let mut messages: Vec<Vec<u8>> = (0..=data.len()).map(|len| data[..len].to_vec()).collect();
    let mut attacked = Vec::new();
    for (i, attack) in attacks().into_iter().enumerate() {
        let mut suffixed = attack.data.clone();
        suffixed.extend_from_slice(&data[..64 * i + 13]);
        let mut flipped = attack.data.clone();
        flipped[200 + 100 * i] ^= 0x10;
        // The short Shambles files again and again, so that some copy's
        // attack block meets every lane of a multi-lane path.
        let copies = if attack.data.len() < 4096 { 24 } else { 1 };
        let variants = std::iter::repeat_n(attack.data.clone(), copies - 1).chain([
            attack.data,
            suffixed,
            flipped,
        ]);
        let last = copies + 1;
        for (j, message) in variants.enumerate() {
            let at = (i * 31 + j) * 173 % messages.len();
            messages.insert(at, message);
            attacked
                .iter_mut()
                .for_each(|a: &mut usize| *a += usize::from(*a >= at));
            if j < last {
                attacked.push(at);
            }
        }
    }
    messages.push(data.clone());
    let slices: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let many = checked::digest_many(&slices);
    for (i, (message, got)) in slices.iter().zip(&many).enumerate() {
        assert_eq!(
            *got,
            checked::digest(message),
            "message {i}, {} bytes",
            message.len()
        );
        if !attacked.contains(&i) {
            assert_eq!(*got, Ok(oracle(message)), "message {i}");
        }
    }
    let flagged: Vec<usize> = (0..many.len()).filter(|&i| many[i].is_err()).collect();
    attacked.sort_unstable();
    assert_eq!(flagged, attacked);
}

#[test]
fn collision_messages_and_traits() {
    let found = checked::digest(&read("sha-mbles-1.bin")).unwrap_err();
    assert_eq!(
        found.to_string(),
        "sha-1 collision attack detected (sha-1 8ac60ba76f1999a1ab70223f225aefdc78d4ddc0, \
         mitigated 4f3d9be4a472c4dae83c6314aa6c36a064c1fd14)"
    );
    let boxed: Box<dyn std::error::Error> = Box::new(found);
    assert!(boxed.source().is_none());
    let h = checked::Sha1::default();
    assert!(format!("{h:?}").starts_with("Sha1 { backend: "));
}

/// `sha1dc`'s mitigated digest: `Ok` for clean data, `Err` with the
/// mitigated digest for an attack.
fn sha1dc_mitigated(data: &[u8]) -> Result<[u8; 20], [u8; 20]> {
    sha1dc::mitigate::digest(data)
        .map(|d| *d.as_bytes())
        .map_err(|m| *m.digest().as_bytes())
}

fn ours_as(result: Result<Digest, Collision>) -> (Result<[u8; 20], [u8; 20]>, [u8; 20]) {
    match result {
        Ok(d) => (Ok(d.to_bytes()), d.to_bytes()),
        Err(c) => (Err(c.mitigated().to_bytes()), c.digest().to_bytes()),
    }
}

fn sha1_checked(data: &[u8], reduced_round: bool) -> (bool, [u8; 20]) {
    let mut h = sha1_checked::Sha1::builder()
        .reduced_round_collision(reduced_round)
        .build();
    sha1_checked::Digest::update(&mut h, data);
    let result = h.try_finalize();
    (
        result.has_collision(),
        result.hash().as_slice().try_into().unwrap(),
    )
}

/// Both result kinds and both digests agree with `sha1dc` (plain and
/// mitigated) and `sha1-checked` (mitigated, its default, in both modes).
fn agrees_with_peers(data: &[u8]) {
    for backend in backends() {
        let (mitigated, plain) = ours_as(checked_with(backend, data));
        assert_eq!(mitigated, sha1dc_mitigated(data), "{backend}");
        let sha1dc_plain = sha1dc::digest(data)
            .map(|d| *d.as_bytes())
            .map_err(|c| *c.digest().as_bytes());
        assert_eq!(sha1dc_plain.unwrap_or_else(|e| e), plain, "{backend}");
        assert_eq!(sha1dc_plain.is_err(), mitigated.is_err());
        let peer = sha1_checked(data, false);
        assert_eq!(
            (peer.0, peer.1),
            (mitigated.is_err(), mitigated.unwrap_or_else(|e| e)),
            "{backend}"
        );
        let mut reduced = hasher(backend).detect_reduced_round(true);
        reduced.update(data);
        let (reduced, _) = ours_as(reduced.finalize());
        let peer = sha1_checked(data, true);
        assert_eq!(
            (peer.0, peer.1),
            (reduced.is_err(), reduced.unwrap_or_else(|e| e)),
            "{backend}, reduced round"
        );
    }
}

#[test]
fn differential_on_the_attacks_and_their_splices() {
    for attack in &attacks() {
        let data = &attack.data;
        agrees_with_peers(data);
        // The attack's blocks then noise, cut at every block boundary
        // around the collision.
        for blocks in [1, 3, 4, 5, 8, 9, 10] {
            let mut spliced = data[..(blocks * 64).min(data.len())].to_vec();
            spliced.extend_from_slice(&noise(blocks as u64, 100));
            agrees_with_peers(&spliced);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn differential_on_random_data(data in proptest::collection::vec(any::<u8>(), 0..3000)) {
        agrees_with_peers(&data);
    }

    /// An attack file with random bytes before it is no attack (an
    /// identical-prefix collision holds only after its own prefix), and
    /// with random bytes after it is one, however the stream is cut.
    #[test]
    fn attacks_hold_only_after_their_own_prefix(
        which in 0..4usize,
        extra in proptest::collection::vec(any::<u8>(), 1..200),
        cuts in proptest::collection::vec(1..300usize, 1..8),
    ) {
        let data = read(["shattered-1.pdf", "shattered-2.pdf", "sha-mbles-1.bin", "sha-mbles-2.bin"][which]);
        let mut prefixed = extra.clone();
        prefixed.extend_from_slice(&data);
        let mut suffixed = data.clone();
        suffixed.extend_from_slice(&extra);
        for backend in backends() {
            prop_assert_eq!(checked_in_pieces(backend, &prefixed, &cuts), Ok(oracle(&prefixed)));
            let found = checked_in_pieces(backend, &suffixed, &cuts);
            prop_assert_eq!(found.map_err(|c| c.digest()), Err(oracle(&suffixed)));
        }
    }
}
