//! The API's promises beyond the hash value itself.

use crate::common::{backends, unavailable};
use sha1_fast::{Backend, Digest, ParseDigestError, Sha1};
use std::collections::HashSet;
use std::io::Write;

const ABC: &str = "a9993e364706816aba3e25717850c26c9cd0d89d";

#[test]
fn digest_hex_forms_round_trip() {
    let d = sha1_fast::digest(b"abc");
    assert_eq!(d.to_string(), ABC);
    assert_eq!(format!("{d:x}"), ABC);
    assert_eq!(format!("{d:X}"), ABC.to_uppercase());
    assert_eq!(format!("{d:<44}|"), format!("{ABC}    |"));
    // Width, fill and precision apply to every hex form.
    assert_eq!(format!("{d:>44x}"), format!("    {ABC}"));
    assert_eq!(format!("{d:*^44X}"), format!("**{}**", ABC.to_uppercase()));
    assert_eq!(format!("{d:.7}"), &ABC[..7]);
    assert_eq!(format!("{d:#x}"), ABC);
    assert_eq!(format!("{d:?}"), format!("Digest({ABC})"));
    assert_eq!(ABC.parse::<Digest>(), Ok(d));
    assert_eq!(ABC.to_uppercase().parse::<Digest>(), Ok(d));
    let bytes: [u8; 20] = d.into();
    assert_eq!(&bytes, d.as_bytes());
    assert_eq!(d.as_ref(), &bytes[..]);
    assert_eq!(Digest::from_bytes(bytes), d);
    assert_eq!(d.to_bytes(), bytes);
    // Every byte value: every digit, in either case, in either nibble, not
    // only the pairs the digests above happen to hold.
    for byte in 0..=u8::MAX {
        let d = Digest::from_bytes([byte; 20]);
        assert_eq!(d.to_string().parse::<Digest>(), Ok(d), "{byte:#04x}");
        assert_eq!(format!("{d:X}").parse::<Digest>(), Ok(d), "{byte:#04x}");
    }
}

#[test]
fn parse_errors_say_what_is_wrong() {
    assert_eq!(
        "".parse::<Digest>(),
        Err(ParseDigestError::InvalidLength { len: 0 })
    );
    assert_eq!(
        ABC[1..].parse::<Digest>(),
        Err(ParseDigestError::InvalidLength { len: 39 })
    );
    assert_eq!(
        format!("{ABC}0").parse::<Digest>(),
        Err(ParseDigestError::InvalidLength { len: 41 })
    );
    assert_eq!(
        "a".parse::<Digest>().unwrap_err().to_string(),
        "invalid SHA-1 digest: expected 40 hex digits, found 1 byte"
    );
    assert!(format!("0x{}", &ABC[2..]).parse::<Digest>().is_err());
    let err = format!("{}z", &ABC[..39]).parse::<Digest>().unwrap_err();
    assert_eq!(
        err,
        ParseDigestError::InvalidDigit {
            index: 39,
            found: 'z'
        }
    );
    assert_eq!(
        err.to_string(),
        "invalid SHA-1 digest: 'z' at byte 39 is not a hex digit"
    );
    // A two-byte character: the error names it and where it starts.
    let err = format!("{}é{}", &ABC[..5], &ABC[7..])
        .parse::<Digest>()
        .unwrap_err();
    assert_eq!(
        err,
        ParseDigestError::InvalidDigit {
            index: 5,
            found: 'é'
        }
    );
    // A look-alike letter keeps 40 characters but not 40 bytes; the error
    // names the letter, not the byte count, at any length.
    for (text, index, found) in [
        (format!("{}\u{430}{}", &ABC[..4], &ABC[5..]), 4, '\u{430}'),
        (format!("\u{FF10}{}", &ABC[1..]), 0, '\u{FF10}'),
        (format!("{}\u{430}", &ABC[..3]), 3, '\u{430}'),
        (format!("{ABC}{ABC}\u{1F600}"), 80, '\u{1F600}'),
        ("\u{430}".to_owned(), 0, '\u{430}'),
        // The first offending character, ASCII or not, whatever the length.
        (format!("g{}\u{e9}", &ABC[..37]), 0, 'g'),
        (format!("g{}\u{e9}", &ABC[..30]), 0, 'g'),
    ] {
        assert_eq!(
            text.parse::<Digest>(),
            Err(ParseDigestError::InvalidDigit { index, found }),
            "{text:?}"
        );
    }
    let err = format!(" {}", &ABC[1..]).parse::<Digest>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid SHA-1 digest: ' ' at byte 0 is not a hex digit"
    );
    // Every ASCII character that is not a hex digit, in every position
    // class (signs and `x` included: `u8::from_str_radix` would take a
    // leading `+`).
    for found in (0u8..128)
        .map(char::from)
        .filter(|c| !c.is_ascii_hexdigit())
    {
        for index in [0, 1, 20, 39] {
            let mut text = ABC.to_owned();
            text.replace_range(index..=index, found.encode_utf8(&mut [0; 4]));
            assert_eq!(
                text.parse::<Digest>(),
                Err(ParseDigestError::InvalidDigit { index, found }),
                "{found:?} at {index}"
            );
        }
    }
}

#[test]
fn digests_order_and_hash_like_their_hex() {
    let mut digests: Vec<Digest> = (0..200u32)
        .map(|i| sha1_fast::digest(&i.to_le_bytes()))
        .collect();
    let mut hex: Vec<String> = digests.iter().map(Digest::to_string).collect();
    digests.sort();
    hex.sort();
    assert_eq!(
        digests.iter().map(Digest::to_string).collect::<Vec<_>>(),
        hex
    );
    let set: HashSet<Digest> = digests.iter().copied().collect();
    assert_eq!(set.len(), 200);
    assert!(set.contains(&sha1_fast::digest(&7u32.to_le_bytes())));
}

#[test]
fn backends_are_listed_named_and_detected() {
    assert!(!Backend::ALL.is_empty());
    assert!(Backend::Scalar.is_available());
    assert!(Backend::ALL.contains(&Backend::Scalar));
    let names: HashSet<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
    assert_eq!(names.len(), Backend::ALL.len(), "names are unique");
    for &backend in Backend::ALL {
        assert_eq!(backend.to_string(), backend.name());
        assert!(
            backend
                .name()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        );
        assert_eq!(
            Sha1::with_backend(backend).is_some(),
            backend.is_available()
        );
    }
    // Which backend `detect` picks (the first available, unless forced)
    // is `forced_backend_is_honoured`'s to check, in every forcing mode.
    let best = Backend::detect();
    assert!(best.is_available());
    assert_eq!(Sha1::new().backend(), best);
    assert_eq!(Sha1::default().backend(), best);
}

/// What `SHA1_FAST_BACKEND` (read once by `detect`) must do, so that the
/// CI runs of this suite with each forced backend test what they say.
#[test]
fn forced_backend_is_honoured() {
    let detected = Backend::detect();
    let forced = std::env::var("SHA1_FAST_BACKEND").unwrap_or_default();
    // Visible with `--nocapture` or `--show-output`.
    println!("SHA1_FAST_BACKEND={forced:?}: detect() = {detected}");
    // The library falls back to scalar on a name it does not know; a run
    // that sets one (a typo in a CI loop) would test scalar under another
    // name, so it fails here.
    assert!(
        matches!(forced.as_str(), "" | "auto") || Backend::from_name(&forced).is_some(),
        "SHA1_FAST_BACKEND={forced:?} names no backend; use auto or one of {:?}",
        Backend::ALL.iter().map(|b| b.name()).collect::<Vec<_>>()
    );
    // The build-time cfg wins over the environment.
    let requested = if cfg!(sha1_fast_force = "scalar") || cfg!(sha1_fast_force = "none") {
        "scalar"
    } else if cfg!(sha1_fast_force = "shani") {
        "shani"
    } else if cfg!(sha1_fast_force = "simd") {
        "simd"
    } else if cfg!(sha1_fast_force = "armsha") {
        "armsha"
    } else {
        forced.as_str()
    };
    let expected = match requested {
        "" | "auto" => *Backend::ALL.iter().find(|b| b.is_available()).unwrap(),
        name => Backend::from_name(name)
            .filter(|b| b.is_available())
            .unwrap_or(Backend::Scalar),
    };
    assert_eq!(detected, expected, "SHA1_FAST_BACKEND={forced:?}");
    assert_eq!(Backend::detect(), detected, "the choice is cached");
    assert_eq!(Sha1::new().backend(), detected);
}

#[test]
fn backends_parse_from_their_names() {
    for &backend in Backend::ALL {
        assert_eq!(Backend::from_name(backend.name()), Some(backend));
    }
    for name in ["", "auto", "SCALAR", "sha-ni", "none"] {
        assert_eq!(Backend::from_name(name), None, "{name:?}");
    }
    assert_eq!(
        Backend::ALL.contains(&Backend::ShaNi),
        cfg!(target_arch = "x86_64")
    );
}

#[test]
fn unavailable_backends_panic() {
    for backend in unavailable() {
        let mut state = [0; 5];
        assert!(std::panic::catch_unwind(move || backend.compress(&mut state, &[])).is_err());
        assert!(std::panic::catch_unwind(|| backend.digest(b"")).is_err());
        assert!(Sha1::with_backend(backend).is_none());
    }
}

#[test]
fn hasher_clones_resets_and_writes() {
    for backend in backends() {
        let mut hasher = Sha1::with_backend(backend).unwrap();
        hasher.update(b"a");
        let fork = hasher.clone();
        hasher.update(b"bc");
        assert_eq!(hasher.finalize().to_string(), ABC);
        assert_eq!(fork.finalize(), sha1_fast::digest(b"a"));

        let mut hasher = Sha1::with_backend(backend).unwrap();
        hasher.update(&[1; 200]);
        hasher.reset();
        assert_eq!(hasher.backend(), backend, "reset keeps the backend");
        // `write` takes all it is given and says so.
        assert_eq!(hasher.write(b"a").unwrap(), 1);
        write!(hasher, "b").unwrap();
        hasher.write_all(b"c").unwrap();
        assert_eq!(hasher.write(b"").unwrap(), 0);
        hasher.flush().unwrap();
        assert_eq!(hasher.finalize().to_string(), ABC);

        let data = crate::common::noise(3, 100_000);
        let mut hasher = Sha1::with_backend(backend).unwrap();
        std::io::copy(&mut &data[..], &mut hasher).unwrap();
        assert_eq!(hasher.finalize(), crate::common::oracle(&data));
        // One large `write` hashes all of it and says so (a caller looping
        // on `write` would otherwise feed the rest twice).
        let mut hasher = Sha1::with_backend(backend).unwrap();
        assert_eq!(hasher.write(&data).unwrap(), data.len());
        assert_eq!(hasher.finalize(), crate::common::oracle(&data));
    }
}

#[test]
fn hasher_debug_shows_no_state() {
    let mut hasher = Sha1::with_backend(Backend::Scalar).unwrap();
    hasher.update(b"secret");
    let text = format!("{hasher:?}");
    assert_eq!(text, "Sha1 { backend: Scalar, len: 6, .. }");
}

#[test]
fn compress_without_blocks_changes_nothing() {
    let mut state = [1, 2, 3, 4, 5];
    sha1_fast::compress(&mut state, &[]);
    for backend in backends() {
        backend.compress(&mut state, &[]);
    }
    assert_eq!(state, [1, 2, 3, 4, 5]);
}
