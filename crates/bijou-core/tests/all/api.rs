//! The small API around the codecs: `Encoded`'s comparisons and `Debug`,
//! and the error conversions.

use bijou_core::{BatchDecodeError, Bijou, DecodeError, bijou64};

#[test]
fn encoded_compares_with_slices_and_arrays_from_both_sides() {
    let encoded = 300u64.encoded();
    let same: &[u8] = &[0xF8, 0x34];
    // Each side's impl separately (`Encoded == [u8; N]`, `[u8; N] == Encoded`).
    assert!(encoded == [0xF8, 0x34]);
    assert!([0xF8, 0x34] == encoded);
    assert!(encoded == *same);
    assert!(*same == encoded);
    for other in [&[0xF8, 0x35][..], &[0xF8], &[0xF8, 0x34, 0x00], &[]] {
        assert!(encoded != *other, "{other:?}");
        assert!(*other != encoded, "{other:?}");
    }
    assert!(encoded != [0xF8, 0x35]);
    assert!([0xF8] != encoded);
}

#[test]
fn encoded_debug_is_its_bytes_in_hex() {
    assert_eq!(format!("{:?}", 300u64.encoded()), "Encoded(F834)");
    assert_eq!(format!("{:?}", 0u32.encoded()), "Encoded(00)");
}

#[test]
fn a_batch_error_converts_to_the_single_value_error() {
    let batch = BatchDecodeError::Overflow {
        offset: 3,
        written: 1,
    };
    assert_eq!(DecodeError::from(batch), DecodeError::Overflow);
    assert_eq!(batch.decode_error(), DecodeError::Overflow);
    let mut out = [0u64; 2];
    let error: DecodeError = bijou64::decode_batch(&[0xFF; 9], &mut out)
        .unwrap_err()
        .into();
    assert_eq!(error, DecodeError::Overflow);
}

/// Each error becomes an `io::Error` of the kind its docs give, and the
/// original comes back through `get_ref` and a downcast.
#[cfg(feature = "std")]
#[test]
fn errors_convert_into_io_errors_and_back() {
    use std::io::{Error, ErrorKind};

    fn round_trip<E: std::error::Error + PartialEq + Copy + Send + Sync + 'static>(
        error: E,
        kind: ErrorKind,
    ) where
        Error: From<E>,
    {
        let io = Error::from(error);
        assert_eq!(io.kind(), kind, "{error}");
        let inner = io.get_ref().and_then(|e| e.downcast_ref::<E>());
        assert_eq!(inner, Some(&error));
        assert_eq!(io.to_string(), error.to_string());
    }
    round_trip(
        DecodeError::Truncated {
            needed: 3,
            available: 2,
        },
        ErrorKind::UnexpectedEof,
    );
    round_trip(DecodeError::Overflow, ErrorKind::InvalidData);
    round_trip(
        BatchDecodeError::Overflow {
            offset: 3,
            written: 1,
        },
        ErrorKind::InvalidData,
    );
    round_trip(
        bijou_core::EncodeError::BufferTooSmall {
            needed: 2,
            available: 1,
        },
        ErrorKind::WriteZero,
    );
}

/// A count of one takes the singular: an empty input needs "1 byte", not
/// "1 bytes".
#[test]
fn error_messages_agree_with_their_counts() {
    let message = |error: &dyn std::error::Error| error.to_string();
    let empty_input = bijou64::decode(&[]).unwrap_err();
    assert_eq!(
        message(&empty_input),
        "truncated bijou value: 1 byte needed, 0 available"
    );
    let cut = DecodeError::Truncated {
        needed: 3,
        available: 1,
    };
    assert!(
        message(&cut).ends_with(": 3 bytes needed, 1 available"),
        "{cut}"
    );

    let full = bijou64::encode_into(1, &mut []).unwrap_err();
    assert!(
        message(&full).contains(": 1 byte needed, 0 available"),
        "{full}"
    );
    let short = bijou64::encode_into(300, &mut [0]).unwrap_err();
    assert!(
        message(&short).contains(": 2 bytes needed, 1 available"),
        "{short}"
    );

    for (written, count) in [
        (0, "(0 values decoded before it)"),
        (1, "(1 value decoded before it)"),
        (2, "(2 values decoded before it)"),
    ] {
        let batch = BatchDecodeError::Overflow { offset: 9, written };
        assert!(message(&batch).contains(count), "{batch}");
        assert!(message(&batch).contains("offset 9"), "{batch}");
    }
}

/// `batch_decoder` names a path this build has, and with `std`,
/// `BIJOU_CORE_BATCH=portable` turns the vector path off (CI runs this
/// suite once so, to prove the portable loop on CPUs with a vector path).
#[test]
fn forced_batch_decoder_is_honoured() {
    let decoder = bijou_core::batch_decoder();
    println!("decode_batch path: {decoder}");
    assert!(["avx512-vbmi", "avx2", "portable"].contains(&decoder));
    let forced = std::env::var_os("BIJOU_CORE_BATCH").is_some_and(|v| v == "portable");
    if forced && cfg!(feature = "std") {
        assert_eq!(decoder, "portable");
    }
    if !cfg!(target_arch = "x86_64") {
        assert_eq!(decoder, "portable");
    }
}
