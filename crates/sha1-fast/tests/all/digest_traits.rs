//! The `digest` feature: `Sha1` through the RustCrypto traits gives what
//! the `sha1` crate gives, on every backend, its block-level core
//! (`Sha1Core`) too, and HMAC over it (`Hmac`, `HmacReset`, `SimpleHmac`)
//! the tags of `hmac::Hmac<sha1::Sha1>` and of RFC 2202.
#![cfg(feature = "digest")]

use crate::common::{backends, noise, oracle};
use digest::block_api::{CoreProxy, FixedOutputCore, UpdateCore};
use digest::{DynDigest, FixedOutput, FixedOutputReset, Output, Update};
use hmac::{Hmac, HmacReset, KeyInit, Mac, SimpleHmac};

/// `data` hashed by any `D` through `digest::Digest` alone, in two pieces.
fn generic<D: digest::Digest>(data: &[u8]) -> Vec<u8> {
    let (head, tail) = data.split_at(data.len() / 3);
    D::new()
        .chain_update(head)
        .chain_update(tail)
        .finalize()
        .to_vec()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[test]
fn generic_code_gets_the_sha1_crates_digests() {
    for (seed, len) in [0, 1, 3, 55, 56, 63, 64, 65, 127, 128, 1000, 4097]
        .into_iter()
        .enumerate()
    {
        let data = noise(seed as u64, len);
        assert_eq!(
            generic::<sha1_fast::Sha1>(&data),
            generic::<sha1::Sha1>(&data),
            "{len} bytes"
        );
        assert_eq!(
            <sha1_fast::Sha1 as digest::Digest>::digest(&data).as_slice(),
            sha1_fast::digest(&data).as_ref(),
            "{len} bytes"
        );
    }
    assert_eq!(<sha1_fast::Sha1 as digest::Digest>::output_size(), 20);
}

#[test]
fn every_backend_through_the_traits() {
    let data = noise(7, 1000);
    for backend in backends() {
        let mut hasher = sha1_fast::Sha1::with_backend(backend).expect("available");
        Update::update(&mut hasher, &data[..500]);
        Update::update(&mut hasher, &data[500..]);
        assert_eq!(hasher.backend(), backend);
        assert_eq!(
            hasher.finalize_fixed().as_slice(),
            sha1_fast::digest(&data).as_ref(),
            "{}",
            backend.name()
        );
    }
}

/// Every way the traits reset a hasher forgets the data and keeps the
/// backend.
#[test]
fn resets_start_over_on_the_same_backend() {
    type ResetFn = fn(&mut sha1_fast::Sha1);
    let resets: [(&str, ResetFn); 3] = [
        ("FixedOutputReset", |hasher| {
            let digest = hasher.finalize_fixed_reset();
            assert_eq!(hex(&digest), "a9993e364706816aba3e25717850c26c9cd0d89d");
        }),
        ("Reset", digest::Reset::reset),
        ("DynDigest::reset", DynDigest::reset),
    ];
    for backend in backends() {
        for (name, reset) in resets {
            let mut hasher = sha1_fast::Sha1::with_backend(backend).expect("available");
            Update::update(&mut hasher, b"abc");
            reset(&mut hasher);
            assert_eq!(hasher.backend(), backend, "{name}");
            Update::update(&mut hasher, b"ab");
            let digest = hasher.finalize_fixed();
            assert_eq!(
                digest.as_slice(),
                sha1_fast::digest(b"ab").as_ref(),
                "{name}"
            );
        }
    }
}

#[test]
fn boxed_as_dyn_digest() {
    let mut hasher: Box<dyn DynDigest> = Box::new(sha1_fast::Sha1::new());
    hasher.update(b"ab");
    let copy = hasher.box_clone();
    hasher.update(b"c");
    assert_eq!(hasher.output_size(), 20);
    assert_eq!(
        hex(&hasher.finalize_reset()),
        "a9993e364706816aba3e25717850c26c9cd0d89d"
    );
    assert_eq!(
        hex(&hasher.finalize()),
        "da39a3ee5e6b4b0d3255bfef95601890afd80709"
    );
    assert_eq!(
        hex(&copy.finalize()),
        hex(sha1_fast::digest(b"ab").as_ref())
    );
}

/// The tag of `message` under `key` by HMAC type `M`.
fn tag<M: Mac + KeyInit>(key: &[u8], message: &[u8]) -> Vec<u8> {
    let mut mac = <M as KeyInit>::new_from_slice(key).expect("any key length");
    Mac::update(&mut mac, message);
    mac.finalize().into_bytes().to_vec()
}

/// HMAC over `sha1_fast::Sha1` (`Hmac` and `HmacReset` through
/// `Sha1Core`, `SimpleHmac` through the buffering traits) against `Hmac`
/// over the `sha1` crate, for keys shorter than, equal to and longer than
/// the 64-byte block, which HMAC pads, or first hashes.
#[test]
fn hmac_matches_hmac_over_the_sha1_crate() {
    for key_len in [0, 1, 20, 63, 64, 65, 130] {
        let key = noise(100 + key_len as u64, key_len);
        for message_len in [0, 1, 55, 56, 64, 1000] {
            let message = noise(200 + message_len as u64, message_len);
            let theirs = tag::<Hmac<sha1::Sha1>>(&key, &message);
            let context = format!("key {key_len} bytes, message {message_len} bytes");
            assert_eq!(
                tag::<Hmac<sha1_fast::Sha1>>(&key, &message),
                theirs,
                "Hmac, {context}"
            );
            assert_eq!(
                tag::<HmacReset<sha1_fast::Sha1>>(&key, &message),
                theirs,
                "HmacReset, {context}"
            );
            assert_eq!(
                tag::<SimpleHmac<sha1_fast::Sha1>>(&key, &message),
                theirs,
                "SimpleHmac, {context}"
            );
        }
    }
}

/// `HmacReset` can be reused after `finalize_reset`, as the `sha1`
/// crate's can.
#[test]
fn hmac_reset_starts_over_with_the_same_key() {
    let mut mac = HmacReset::<sha1_fast::Sha1>::new_from_slice(b"key").expect("any key length");
    Mac::update(&mut mac, b"first message");
    let first = Mac::finalize_reset(&mut mac).into_bytes().to_vec();
    Mac::update(&mut mac, b"second message");
    let second = Mac::finalize(mac).into_bytes().to_vec();
    assert_eq!(first, tag::<Hmac<sha1::Sha1>>(b"key", b"first message"));
    assert_eq!(second, tag::<Hmac<sha1::Sha1>>(b"key", b"second message"));
}

/// A hasher split into `Sha1Core` and its buffer after any prefix, the
/// rest fed at the block level, gives the `sha1` crate's digest on every
/// backend; split and joined again it is the same hasher; finalizing
/// leaves the core as it was.
#[test]
fn the_block_level_core_on_every_backend() {
    let data = noise(11, 300);
    for backend in backends() {
        for split in [0, 1, 63, 64, 65, 128, 200, 300] {
            let mut hasher = sha1_fast::Sha1::with_backend(backend).expect("available");
            hasher.update(&data[..split]);
            let context = format!("{} after {split} bytes", backend.name());

            let (core, buffer) = hasher.clone().decompose();
            assert_eq!(
                buffer.get_data(),
                &data[split / 64 * 64..split],
                "{context}"
            );
            let joined = sha1_fast::Sha1::compose(core, buffer);
            assert_eq!(joined.backend(), backend, "{context}");
            assert_eq!(format!("{joined:?}"), format!("{hasher:?}"), "{context}");
            let mut rejoined = joined.clone();
            rejoined.update(&data[split..]);
            assert_eq!(rejoined.finalize(), oracle(&data), "{context}");

            let (mut core, mut buffer) = hasher.decompose();
            buffer.digest_blocks(&data[split..], |blocks| core.update_blocks(blocks));
            let mut out = Output::<sha1_fast::Sha1Core>::default();
            core.finalize_fixed_core(&mut buffer, &mut out);
            assert_eq!(out.as_slice(), oracle(&data).as_ref(), "{context}");
            // The core is left as it was: finalizing again gives the same.
            let mut again = Output::<sha1_fast::Sha1Core>::default();
            core.finalize_fixed_core(&mut buffer, &mut again);
            assert_eq!(again, out, "{context}");
        }
    }
}

/// `Reset` on the core forgets the message and keeps the backend.
#[test]
fn the_core_resets_on_its_backend() {
    for backend in backends() {
        let mut hasher = sha1_fast::Sha1::with_backend(backend).expect("available");
        hasher.update(&[3; 200]);
        let (mut core, _) = hasher.decompose();
        digest::Reset::reset(&mut core);
        let mut hasher = sha1_fast::Sha1::compose(core, Default::default());
        assert_eq!(hasher.backend(), backend);
        hasher.update(b"abc");
        assert_eq!(hasher.finalize(), oracle(b"abc"), "{}", backend.name());
    }
    let core = sha1_fast::Sha1Core::default();
    assert_eq!(
        format!("{core:?}"),
        format!(
            "Sha1Core {{ backend: {:?}, blocks: 0, .. }}",
            sha1_fast::Backend::detect()
        )
    );
}

/// RFC 2202 §3, test cases 1, 2, 3 and 6.
#[test]
fn hmac_rfc_2202() {
    let cases: [(&[u8], &[u8], &str); 4] = [
        (
            &[0x0b; 20],
            b"Hi There",
            "b617318655057264e28bc0b6fb378c8ef146be00",
        ),
        (
            b"Jefe",
            b"what do ya want for nothing?",
            "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
        ),
        (
            &[0xaa; 20],
            &[0xdd; 50],
            "125d7342b9ac11cd91a39af48aa17b4f63f175d3",
        ),
        (
            &[0xaa; 80],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            "aa4ae5e15272d00e95705637ce8a3b55ed402112",
        ),
    ];
    for (key, data, expected) in cases {
        assert_eq!(hex(&tag::<Hmac<sha1_fast::Sha1>>(key, data)), expected);
        assert_eq!(
            hex(&tag::<SimpleHmac<sha1_fast::Sha1>>(key, data)),
            expected
        );
    }
}
