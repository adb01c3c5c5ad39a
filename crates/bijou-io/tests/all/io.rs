//! `ReadExt` / `WriteExt` over awkward readers and writers.

use std::io::{self, ErrorKind, Read, Write};

use bijou_core::{Bijou, DecodeError};
use bijou_io::{ReadExt, WriteExt};
use proptest::prelude::*;

use crate::common::{self, Overclaiming, Trickle, Value, inner_error};

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
    /// was delivered, then the reader's own error surfaces unchanged.
    #[test]
    fn a_failing_reader_delivers_everything_before_the_failure(
        values in proptest::collection::vec(common::any_value(), 1..30),
        pattern in proptest::collection::vec(0u8..4, 1..16),
        fail_at in any::<usize>(),
    ) {
        let encoded = common::encode_all(&values);
        let fail_at = fail_at % encoded.len();
        let mut reader = Trickle::new(&encoded, &pattern).failing_at(fail_at, ErrorKind::ConnectionReset);
        let mut end = 0;
        for &value in &values {
            end += value.encoded_len();
            let result = value.read_like(&mut reader);
            if end <= fail_at {
                prop_assert_eq!(result.map_err(|e| e.to_string()), Ok(value));
            } else {
                let error = result.unwrap_err();
                prop_assert_eq!(error.kind(), ErrorKind::ConnectionReset);
                prop_assert_eq!(error.to_string(), "the reader broke");
                break;
            }
        }
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

/// A writer that accepts `budget` bytes, then fails.
struct Budget {
    written: Vec<u8>,
    budget: usize,
}

impl Write for Budget {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.budget == 0 {
            return Err(io::Error::new(ErrorKind::BrokenPipe, "closed"));
        }
        let len = bytes.len().min(self.budget).min(2);
        self.written.extend_from_slice(&bytes[..len]);
        self.budget -= len;
        Ok(len)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn write_errors_surface_and_short_writes_are_completed() {
    let mut writer = Budget {
        written: Vec::new(),
        budget: 12,
    };
    assert_eq!(writer.write_bijou(u64::MAX).unwrap(), 9); // taken 2 bytes at a time
    assert_eq!(
        writer.write_bijou(u64::MAX).unwrap_err().kind(),
        ErrorKind::BrokenPipe
    );
    assert_eq!(writer.written[..9], *u64::MAX.encoded());
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
