//! `StreamDecoder`: any chunking of any byte stream gives what slice
//! decoding gives.

use std::fmt::Debug;

use bijou_core::{Bijou, DecodeError};
use bijou_io::StreamDecoder;
use proptest::prelude::*;

use crate::common::{self, Spread};

/// Feeds `bytes` to a fresh decoder in pieces cut at `cuts`.
fn chunked<T: Bijou>(
    bytes: &[u8],
    cuts: &[usize],
) -> (Vec<Result<T, DecodeError>>, Result<(), DecodeError>) {
    let mut decoder = StreamDecoder::<T>::new();
    let mut items = Vec::new();
    for piece in common::pieces(bytes, cuts) {
        items.extend(decoder.values(piece));
    }
    (items, decoder.finish())
}

fn check_width<T: Bijou + PartialEq + Debug>(
    bytes: &[u8],
    cuts: &[usize],
) -> Result<(), TestCaseError> {
    let ((expected, expected_end), _) = testkit::oracle::stream_outcomes::<T>(bytes);
    let (items, end) = chunked::<T>(bytes, cuts);
    prop_assert_eq!(items, expected, "{}", T::NAME);
    prop_assert_eq!(end, expected_end, "{}", T::NAME);
    Ok(())
}

fn encode<T: Bijou>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for &value in values {
        value.encode(&mut out);
    }
    out
}

proptest! {
    #![proptest_config(common::config())]

    /// Encoded random sequences, cut anywhere: the same values come out.
    #[test]
    fn random_sequences_in_random_chunks_round_trip(
        values in proptest::collection::vec(common::spread::<u64>(), 0..60),
        signed in proptest::collection::vec(common::spread::<i128>(), 0..30),
        cuts in proptest::collection::vec(any::<usize>(), 0..40),
    ) {
        let bytes = encode(&values);
        let (items, end) = chunked::<u64>(&bytes, &cuts);
        prop_assert_eq!(items, values.iter().map(|&v| Ok(v)).collect::<Vec<_>>());
        prop_assert_eq!(end, Ok(()));
        let bytes = encode(&signed);
        let (items, end) = chunked::<i128>(&bytes, &cuts);
        prop_assert_eq!(items, signed.iter().map(|&v| Ok(v)).collect::<Vec<_>>());
        prop_assert_eq!(end, Ok(()));
    }

    /// Arbitrary bytes (overflows, a cut-off tail), cut anywhere, for every
    /// width: identical items and end-of-stream verdict.
    #[test]
    fn arbitrary_streams_match_slice_decoding(
        bytes in proptest::collection::vec(prop_oneof![Just(0xFFu8), any::<u8>()], 0..120),
        cuts in proptest::collection::vec(any::<usize>(), 0..40),
    ) {
        check_width::<u32>(&bytes, &cuts)?;
        check_width::<u64>(&bytes, &cuts)?;
        check_width::<u128>(&bytes, &cuts)?;
        check_width::<i32>(&bytes, &cuts)?;
        check_width::<i64>(&bytes, &cuts)?;
        check_width::<i128>(&bytes, &cuts)?;
    }

    /// Byte-at-a-time feeding, the worst chunking.
    #[test]
    fn one_byte_at_a_time(values in proptest::collection::vec(common::spread::<i32>(), 0..40)) {
        let bytes = encode(&values);
        let mut decoder = StreamDecoder::<i32>::new();
        let mut out = Vec::new();
        for byte in &bytes {
            let mut input = std::slice::from_ref(byte);
            while let Some(value) = decoder.decode_next(&mut input).unwrap() {
                out.push(value);
            }
            prop_assert!(input.is_empty());
        }
        prop_assert_eq!(out, values);
        prop_assert!(!decoder.has_partial());
    }
}

#[test]
fn spread_covers_extremes_eventually() {
    // The generator's shape: zero bits kept gives 0, all bits kept can give MAX.
    assert_eq!(<u64 as Spread>::from_bits(u128::MAX, 0, false), 0);
    assert_eq!(<u64 as Spread>::from_bits(u128::MAX, 64, false), u64::MAX);
    assert_eq!(<i64 as Spread>::from_bits(0, 0, true), -1);
}

#[test]
fn state_after_overflow_is_documented_reset() {
    let mut decoder = StreamDecoder::<u32>::new();
    // Overflow split across two pushes, then a good value.
    let mut first: &[u8] = &[0xFF, 0xFF];
    assert_eq!(decoder.decode_next(&mut first), Ok(None));
    assert_eq!(decoder.pending(), &[0xFF, 0xFF]);
    let mut second: &[u8] = &[0xFF, 0xFF, 0xFF, 0x2A];
    assert_eq!(decoder.decode_next(&mut second), Err(DecodeError::Overflow));
    assert!(!decoder.has_partial());
    assert_eq!(second, &[0x2A]);
    assert_eq!(decoder.decode_next(&mut second), Ok(Some(42)));
}

#[test]
fn cloned_decoders_continue_independently() {
    let mut decoder = StreamDecoder::<u64>::new();
    let mut input: &[u8] = &[0xF9, 0x00];
    assert_eq!(decoder.decode_next(&mut input), Ok(None));
    let mut copy = decoder.clone();
    assert_eq!(decoder.values(&[0x01]).collect::<Vec<_>>(), [Ok(505)]);
    assert_eq!(copy.values(&[0x00]).collect::<Vec<_>>(), [Ok(504)]);
    assert!(format!("{decoder:?}").contains("bijou64"));
}

/// `Values` shows its decoder and the part of the piece not yet taken.
#[test]
fn values_debug_shows_the_decoder_and_the_remainder() {
    let mut decoder = StreamDecoder::<u64>::new();
    let values = decoder.values(&[1, 2]);
    let shown = format!("{values:?}");
    assert!(shown.contains("StreamDecoder"), "{shown}");
    assert!(shown.contains("remainder: [1, 2]"), "{shown}");
}
