//! `ReadExt` / `WriteExt` over awkward readers and writers.

use std::io::{BufReader, ErrorKind, Read, Write};

use bijou_core::{Bijou, DecodeError};
use bijou_io::{BufReadExt, MidValueError, ReadExt, WriteExt};
use proptest::prelude::*;

use crate::common::{
    self, Budget, Overclaiming, OverclaimingWriter, Trickle, Value, assert_cut_inside, inner_error,
};

proptest! {
    #![proptest_config(common::config())]

    /// 1–3 bytes per call with `Interrupted` sprinkled in: every value comes
    /// out, then a clean end of stream.
    #[test]
    fn trickling_reader_yields_every_value(
        values in proptest::collection::vec(common::any_value(), 0..30),
        pattern in proptest::collection::vec(0u8..4, 1..16),
    ) {
        let encoded = common::encode_all(&values);
        let mut reader = Trickle::new(&encoded, &pattern);
        for &value in &values {
            prop_assert_eq!(value.read_like(&mut reader).map_err(|e| e.to_string()), Ok(value));
        }
        prop_assert_eq!(reader.try_read_bijou64().map_err(|e| e.to_string()), Ok(None));
    }

    /// A reader that breaks at byte `k`: every value that ended before `k`
    /// was delivered, then the reader's own error surfaces, unchanged when
    /// `k` is a value's first byte, as a `MidValueError` inside one.
    #[test]
    fn a_failing_reader_delivers_everything_before_the_failure(
        values in proptest::collection::vec(common::any_value(), 1..30),
        pattern in proptest::collection::vec(0u8..4, 1..16),
        fail_at in any::<usize>(),
        kind in prop_oneof![
            Just(ErrorKind::ConnectionReset),
            Just(ErrorKind::WouldBlock),
            Just(ErrorKind::TimedOut),
        ],
    ) {
        let encoded = common::encode_all(&values);
        let fail_at = fail_at % encoded.len();
        let mut reader = Trickle::new(&encoded, &pattern).failing_at(fail_at, kind);
        let mut end = 0;
        for &value in &values {
            let start = end;
            end += value.encoded_len();
            let result = value.read_like(&mut reader);
            if end <= fail_at {
                prop_assert_eq!(result.map_err(|e| e.to_string()), Ok(value));
                continue;
            }
            let error = result.unwrap_err();
            if start == fail_at {
                prop_assert_eq!(error.kind(), kind);
                prop_assert_eq!(error.to_string(), "the reader broke");
            } else {
                assert_cut_inside(&error, kind, fail_at - start, value.encoded_len());
            }
            break;
        }
    }

    /// `BufReadExt` over a `BufReader` of 1–20 bytes on a trickling,
    /// failing reader: values that fit the buffer come from `fill_buf`,
    /// values cut by its end through `ReadExt`, and the outcome is exactly
    /// `ReadExt`'s on the bare reader: the same values, then the same error
    /// (kind, message, `MidValueError` counts) at the same value.
    #[test]
    fn buffered_reads_match_reader_reads(
        values in proptest::collection::vec(common::any_value(), 1..30),
        pattern in proptest::collection::vec(0u8..4, 1..16),
        capacity in 1usize..20,
        fail_at in proptest::option::of(any::<usize>()),
        truncate in any::<bool>(),
    ) {
        let mut encoded = common::encode_all(&values);
        if truncate {
            encoded.pop();
        }
        let trickle = || {
            let reader = Trickle::new(&encoded, &pattern);
            match fail_at {
                Some(at) if !encoded.is_empty() => reader.failing_at(at % encoded.len(), ErrorKind::ConnectionReset),
                _ => reader,
            }
        };
        let (mut bare, mut buffered) = (trickle(), BufReader::with_capacity(capacity, trickle()));
        for &value in &values {
            let expected = value.read_like(&mut bare).map_err(|e| (e.kind(), e.to_string()));
            let got = value.read_buffered_like(&mut buffered).map_err(|e| (e.kind(), e.to_string()));
            prop_assert_eq!(&got, &expected);
            if expected.is_err() {
                break;
            }
        }
    }

    /// After a value read from the buffer, the next byte is the one after
    /// the value: values interleaved with raw bytes, through `BufReader`s
    /// of every small capacity.
    #[test]
    fn buffered_reads_take_exactly_one_value(
        values in proptest::collection::vec(common::any_value(), 1..20),
        capacity in 1usize..40,
    ) {
        let mut encoded = Vec::new();
        for &value in &values {
            value.put(&mut encoded);
            encoded.push(0xEE);
        }
        let mut reader = BufReader::with_capacity(capacity, &encoded[..]);
        for &value in &values {
            prop_assert_eq!(value.read_buffered_like(&mut reader).map_err(|e| e.to_string()), Ok(value));
            let mut marker = [0u8];
            reader.read_exact(&mut marker).unwrap();
            prop_assert_eq!(marker[0], 0xEE);
        }
        prop_assert_eq!(reader.try_read_bijou_buffered::<u64>().map_err(|e| e.to_string()), Ok(None));
    }

    /// The stream stays positioned right after each value: interleaving
    /// values with raw bytes works.
    #[test]
    fn reads_take_exactly_one_value(values in proptest::collection::vec(common::any_value(), 1..20), pattern in proptest::collection::vec(1u8..4, 1..8)) {
        let mut encoded = Vec::new();
        for &value in &values {
            value.put(&mut encoded);
            encoded.push(0xEE);
        }
        let mut reader = Trickle::new(&encoded, &pattern);
        for &value in &values {
            prop_assert_eq!(value.read_like(&mut reader).map_err(|e| e.to_string()), Ok(value));
            let mut marker = [0u8];
            reader.read_exact(&mut marker).unwrap();
            prop_assert_eq!(marker[0], 0xEE);
        }
        prop_assert!(reader.rest().is_empty());
    }

    /// Writing through `WriteExt` then reading back gives the values.
    #[test]
    fn write_then_read_round_trips(values in proptest::collection::vec(common::any_value(), 0..30)) {
        let mut wire = Vec::new();
        let mut total = 0;
        for &value in &values {
            total += value.write(&mut wire).unwrap();
        }
        prop_assert_eq!(total, wire.len());
        prop_assert_eq!(&wire, &common::encode_all(&values));
        let mut reader = &wire[..];
        for &value in &values {
            prop_assert_eq!(value.read_like(&mut reader).map_err(|e| e.to_string()), Ok(value));
        }
        prop_assert!(reader.is_empty());
    }
}

/// The review's case: a source alternating `WouldBlock` and one byte, read
/// in a loop that retries on `WouldBlock`. The `WouldBlock` after 300's tag
/// must stop the loop: retried, it made the loop decode 300's second byte
/// as 52, then 7, and report no error at all.
#[test]
fn a_would_block_inside_a_value_stops_a_retry_loop() {
    let wire = [0xF8, 0x34, 0x07];
    let mut reader = Trickle::new(&wire, &[0]).non_blocking();
    let mut values = Vec::new();
    let error = loop {
        match reader.try_read_bijou64() {
            Ok(Some(value)) => values.push(value),
            Ok(None) => panic!("no error, and the values read were {values:?}"),
            Err(error) if error.kind() == ErrorKind::WouldBlock => {}
            Err(error) => break error,
        }
    };
    assert_eq!(values, []);
    assert_cut_inside(&error, ErrorKind::WouldBlock, 1, 2);
}

/// An error before a value's first byte loses nothing: it comes back as
/// the reader gave it, and the retry reads the value whole.
#[test]
fn an_error_before_a_value_is_returned_as_is_and_safe_to_retry() {
    let wire = [0x07, 0xF8, 0x34];
    // WouldBlock before each tag only: calls go WB, 07, WB, F8, 34, WB, end.
    let mut reader = Trickle::new(&wire, &[0, 1, 0, 1]).non_blocking();
    let mut values = Vec::new();
    loop {
        match reader.try_read_bijou64() {
            Ok(Some(value)) => values.push(value),
            Ok(None) => break,
            Err(error) => {
                assert_eq!(error.kind(), ErrorKind::WouldBlock);
                assert!(error.get_ref().is_none(), "wrapped: {error}");
            }
        }
    }
    assert_eq!(values, [7, 300]);

    let mut reader = Trickle::new(&wire, &[3]).failing_once_at(1, ErrorKind::ConnectionReset);
    assert_eq!(reader.read_bijou64().unwrap(), 7);
    let error = reader.read_bijou64().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ConnectionReset);
    assert_eq!(error.to_string(), "the reader broke");
    assert_eq!(reader.read_bijou64().unwrap(), 300);
}

/// The message says what broke, where it leaves the stream and what to
/// use instead; the reader's own error is the source, once.
#[test]
fn a_mid_value_error_explains_itself() {
    use std::error::Error;

    let mut reader = Trickle::new(&[0xF9, 0x01], &[3]).failing_at(2, ErrorKind::TimedOut);
    let error = reader.read_bijou64().unwrap_err();
    assert_eq!(
        error.to_string(),
        "reading a bijou value failed after 2 of its 3 bytes; the stream is out of step"
    );
    let source = error.source().expect("the reader's error as the source");
    assert_eq!(source.to_string(), "the reader broke");
    assert!(source.source().is_none());

    let error = Budget::new(1, ErrorKind::WouldBlock)
        .write_bijou(300u64)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "writing a bijou value failed after 1 of its 2 bytes; the output is out of step"
    );
    assert_eq!(error.source().unwrap().to_string(), "the writer broke");
}

#[test]
fn end_of_stream_inside_a_value_is_unexpected_eof() {
    let mut reader = Trickle::new(&[0x01, 0xFA, 0x00, 0x01], &[1, 0, 2]);
    assert_eq!(reader.read_bijou64().unwrap(), 1);
    let error = reader.read_bijou64().unwrap_err();
    common::assert_unexpected_eof(
        &error,
        DecodeError::Truncated {
            needed: 4,
            available: 3,
        },
    );
}

#[test]
fn clean_end_of_stream_is_none_for_try_read_and_eof_for_read() {
    let mut reader: &[u8] = &[];
    assert_eq!(reader.try_read_bijou::<i128>().unwrap(), None);
    let error = reader.read_bijou::<i128>().unwrap_err();
    common::assert_unexpected_eof(
        &error,
        DecodeError::Truncated {
            needed: 1,
            available: 0,
        },
    );
}

/// `try_read` answers `None` only before a tag: a stream that ends after
/// the tag or inside the payload has lost part of a value, which is an
/// error, as it is for `read`.
#[test]
fn a_value_cut_off_is_eof_for_try_read_too() {
    for (wire, available) in [(&[0xF9][..], 1), (&[0xF9, 0x01][..], 2)] {
        let mut reader = wire;
        let error = reader.try_read_bijou64().unwrap_err();
        common::assert_unexpected_eof(
            &error,
            DecodeError::Truncated {
                needed: 3,
                available,
            },
        );
        let mut reader = wire;
        let error = reader.try_read_bijou::<i64>().unwrap_err();
        assert_eq!(error.kind(), ErrorKind::UnexpectedEof);
    }
}

#[test]
fn overflow_is_invalid_data_and_the_stream_moves_past_it() {
    let mut wire = vec![0xFF; 9];
    wire.push(0x07);
    let mut reader = &wire[..];
    let error = reader.read_bijou::<u64>().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidData);
    assert_eq!(
        inner_error::<DecodeError>(&error),
        Some(&DecodeError::Overflow)
    );
    assert_eq!(reader.try_read_bijou64().unwrap(), Some(7));
}

#[test]
fn named_read_methods_cover_every_width() {
    let mut wire = Vec::new();
    wire.write_bijou32(1).unwrap();
    wire.write_bijou64(2).unwrap();
    wire.write_bijou128(3).unwrap();
    wire.write_bijou32s(-4).unwrap();
    wire.write_bijou64s(-5).unwrap();
    wire.write_bijou128s(-6).unwrap();
    let mut reader = &wire[..];
    assert_eq!(reader.read_bijou32().unwrap(), 1);
    assert_eq!(reader.try_read_bijou64().unwrap(), Some(2));
    assert_eq!(reader.read_bijou128().unwrap(), 3);
    assert_eq!(reader.try_read_bijou32s().unwrap(), Some(-4));
    assert_eq!(reader.read_bijou64s().unwrap(), -5);
    assert_eq!(reader.try_read_bijou128s().unwrap(), Some(-6));
    assert_eq!(reader.try_read_bijou128s().unwrap(), None);
}

#[test]
fn write_errors_surface_and_short_writes_are_completed() {
    let mut writer = Budget::new(12, ErrorKind::BrokenPipe);
    // Taken 2 bytes at a time, each call after an `Interrupted`.
    assert_eq!(writer.write_bijou(u64::MAX).unwrap(), 9);
    let error = writer.write_bijou(u64::MAX).unwrap_err();
    assert_cut_inside(&error, ErrorKind::BrokenPipe, 3, 9);
    assert_eq!(writer.written[..9], *u64::MAX.encoded());
    assert_eq!(writer.written.len(), 12);
}

/// A writer's error after part of an encoding went out is a
/// `MidValueError` counting the bytes written (a retry on `WouldBlock`
/// would write a second value into the first); one before the first byte
/// comes as the writer gave it, and a retry is safe.
#[test]
fn a_write_error_inside_a_value_is_a_mid_value_error() {
    for kind in [
        ErrorKind::WouldBlock,
        ErrorKind::TimedOut,
        ErrorKind::BrokenPipe,
    ] {
        for budget in 0..9 {
            let mut writer = Budget::new(budget, kind);
            let error = writer.write_bijou(u64::MAX).unwrap_err();
            if budget == 0 {
                assert_eq!(error.kind(), kind);
                assert!(inner_error::<MidValueError>(&error).is_none(), "{error}");
            } else {
                assert_cut_inside(&error, kind, budget, 9);
            }
            assert_eq!(writer.written, u64::MAX.encoded()[..budget]);
        }
    }
}

/// A writer that takes nothing is `WriteZero`, as for `write_all`: bare
/// when nothing of the value went out, a `MidValueError` after a part.
#[test]
fn a_writer_that_takes_nothing_is_write_zero() {
    let mut storage = [0u8; 4];
    let mut full: &mut [u8] = &mut [];
    let error = full.write_bijou(300u64).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::WriteZero);
    assert!(inner_error::<MidValueError>(&error).is_none(), "{error}");
    let mut short = &mut storage[..];
    let error = short.write_bijou(u64::MAX).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::WriteZero);
    assert_cut_inside(&error, ErrorKind::WriteZero, 4, 9);
    assert_eq!(storage, u64::MAX.encoded()[..4]);
}

/// A writer that claims more than it was given is held to what it was
/// given, as readers are, rather than indexed past the encoding (std's
/// `write_all` panics on it).
#[test]
fn a_writer_claiming_more_than_it_was_given_is_capped() {
    let mut writer = OverclaimingWriter(Vec::new());
    assert_eq!(writer.write_bijou(300u64).unwrap(), 2);
    assert_eq!(writer.write_bijou(u64::MAX).unwrap(), 9);
    assert_eq!(writer.0[..2], [0xF8, 0x34]);
    assert_eq!(writer.0.len(), 11);
}

#[test]
fn works_through_dyn_read_and_write() {
    let mut wire = Vec::new();
    {
        let writer: &mut dyn Write = &mut wire;
        writer.write_bijou64(1 << 50).unwrap();
    }
    let mut source = &wire[..];
    let reader: &mut dyn Read = &mut source;
    assert_eq!(reader.read_bijou64().unwrap(), 1 << 50);
}

#[test]
fn value_read_like_matches_width() {
    let mut reader: &[u8] = &[0x03];
    assert_eq!(
        Value::I32(0).read_like(&mut reader).unwrap(),
        Value::I32(-2)
    );
}

/// `Read::read` promises at most `out.len()`; a reader that breaks the
/// promise is held to it rather than trusted (no index past the value, no
/// clean end of stream made up from a claim of 6 bytes for the 1-byte tag).
#[test]
fn a_reader_claiming_more_than_the_buffer_is_capped() {
    let values = [0u64, 300, u64::MAX, 7, 1 << 40];
    let mut wire = Vec::new();
    for value in values {
        wire.write_bijou64(value).unwrap();
    }
    let mut reader = Overclaiming(&wire);
    for value in values {
        assert_eq!(reader.read_bijou64().unwrap(), value);
    }
    assert_eq!(reader.try_read_bijou64().unwrap(), None);
}

/// An overflowing value in the buffer is consumed, as `ReadExt` consumes
/// it, and the next value follows.
#[test]
fn a_buffered_overflow_consumes_the_value() {
    let mut wire = vec![0xFF; 9];
    wire.push(0x07);
    let mut reader = BufReader::new(&wire[..]);
    let error = reader.read_bijou_buffered::<u64>().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidData);
    assert_eq!(
        inner_error::<DecodeError>(&error),
        Some(&DecodeError::Overflow)
    );
    assert_eq!(reader.read_bijou_buffered::<u64>().unwrap(), 7);
}
