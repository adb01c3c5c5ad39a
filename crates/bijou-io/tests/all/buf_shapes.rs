//! One suite, run over every buffer shape: contiguous (`&[u8]`, `Bytes`,
//! `BytesMut`), multi-chunk that can be peeked (`Chain`, `VecDeque<u8>`),
//! and multi-chunk that shows one chunk at a time (a wrapped `VecDeque`, a
//! 1-byte-chunk `Buf`).

use std::fmt::Debug;

use bijou_core::{Bijou, DecodeError, bijou32, bijou64, bijou128};
use bijou_io::{BufExt, BufMutExt};
use bytes::{Buf, Bytes, BytesMut};
use proptest::prelude::*;

use crate::common::{self, DequeBuf, OneByteChunks, Rope, Value};

/// Boundary values of every width: each tier's first and last value, the
/// extremes, and their signed counterparts.
fn unsigned_edges<T: Copy + From<u8>>(offsets: &[T], max: T, minus_one: impl Fn(T) -> T) -> Vec<T> {
    let mut values = vec![T::from(0)];
    for &offset in &offsets[1..] {
        values.push(minus_one(offset));
        values.push(offset);
    }
    values.push(minus_one(max));
    values.push(max);
    values
}

/// Signed edges: the images under un-zigzag of the unsigned edges.
fn signed_edges<U: Copy, S>(unsigned: Vec<U>, unzigzag: impl Fn(U) -> S) -> Vec<S> {
    unsigned.into_iter().map(unzigzag).collect()
}

/// Overflowing encodings for each width: a top-tier tag with an all-FF payload.
fn overflow_bytes<T: Bijou>() -> Vec<u8> {
    vec![0xFF; T::MAX_BYTES]
}

macro_rules! buf_suite {
    ($(
        $(#[$meta:meta])*
        $shape:ident: |$bytes:ident| $make:expr, peeks_across_chunks: $peeks:expr;
    )*) => {$(
        $(#[$meta])*
        mod $shape {
            use super::*;

            /// The buffer shape under test, holding `bytes`.
            fn make($bytes: &[u8]) -> impl Buf + '_ {
                $make
            }

            /// Whether an overflowing value split across chunks is left
            /// unconsumed (the shape exposes its chunks to `chunks_vectored`).
            const PEEKS: bool = $peeks;

            fn round_trip<T: Bijou + PartialEq + Debug>(values: &[T]) {
                let mut encoded = Vec::new();
                for &value in values {
                    encoded.put_bijou(value);
                }
                let mut buf = make(&encoded);
                for (index, &value) in values.iter().enumerate() {
                    assert_eq!(buf.try_get_bijou::<T>(), Ok(value), "{} value #{index}", T::NAME);
                }
                assert_eq!(buf.remaining(), 0);
                assert_eq!(buf.try_get_bijou::<T>(), Err(DecodeError::Truncated { needed: 1, available: 0 }));
            }

            #[test]
            fn decodes_every_width_at_every_tier_edge() {
                let edges_u32 = unsigned_edges(&bijou32::OFFSETS, u32::MAX, |x| x - 1);
                let edges_u64 = unsigned_edges(&bijou64::OFFSETS, u64::MAX, |x| x - 1);
                let edges_u128 = unsigned_edges(&bijou128::OFFSETS, u128::MAX, |x| x - 1);
                round_trip(&signed_edges(edges_u32.clone(), bijou_core::bijou32s::unzigzag));
                round_trip(&signed_edges(edges_u64.clone(), bijou_core::bijou64s::unzigzag));
                round_trip(&signed_edges(edges_u128.clone(), bijou_core::bijou128s::unzigzag));
                round_trip(&edges_u32);
                round_trip(&edges_u64);
                round_trip(&edges_u128);
            }

            #[test]
            fn named_methods_match_the_generic_ones() {
                let mut named = Vec::new();
                named.put_bijou32(u32::MAX);
                named.put_bijou64(300);
                named.put_bijou128(u128::MAX - 1);
                named.put_bijou32s(i32::MIN);
                named.put_bijou64s(-300);
                named.put_bijou128s(i128::MAX);
                let mut generic = Vec::new();
                generic.put_bijou(u32::MAX);
                generic.put_bijou(300u64);
                generic.put_bijou(u128::MAX - 1);
                generic.put_bijou(i32::MIN);
                generic.put_bijou(-300i64);
                generic.put_bijou(i128::MAX);
                assert_eq!(named, generic);

                let mut buf = make(&named);
                let mut same = make(&named);
                assert_eq!(buf.try_get_bijou32(), Ok(u32::MAX));
                assert_eq!(same.try_get_bijou::<u32>(), Ok(u32::MAX));
                assert_eq!(buf.get_bijou64(), 300);
                assert_eq!(same.get_bijou::<u64>(), 300);
                assert_eq!(buf.try_get_bijou128(), Ok(u128::MAX - 1));
                assert_eq!(same.try_get_bijou::<u128>(), Ok(u128::MAX - 1));
                assert_eq!(buf.get_bijou32s(), i32::MIN);
                assert_eq!(same.get_bijou::<i32>(), i32::MIN);
                assert_eq!(buf.try_get_bijou64s(), Ok(-300));
                assert_eq!(same.try_get_bijou::<i64>(), Ok(-300));
                assert_eq!(buf.get_bijou128s(), i128::MAX);
                assert_eq!(same.get_bijou::<i128>(), i128::MAX);
                assert!(!buf.has_remaining() && !same.has_remaining());
            }

            fn truncation_consumes_nothing<T: Bijou + Debug>(value: T) {
                let encoded = value.encoded();
                for cut in 0..encoded.len() {
                    let mut buf = make(&encoded[..cut]);
                    let needed = if cut == 0 { 1 } else { encoded.len() };
                    assert_eq!(
                        buf.try_get_bijou::<T>(),
                        Err(DecodeError::Truncated { needed, available: cut }),
                        "{} cut at {cut}", T::NAME,
                    );
                    assert_eq!(buf.remaining(), cut, "{} cut at {cut}: bytes were consumed", T::NAME);
                }
            }

            #[test]
            fn truncated_values_are_left_in_the_buffer() {
                truncation_consumes_nothing(u32::MAX);
                truncation_consumes_nothing(u64::MAX);
                truncation_consumes_nothing(1u64 << 40);
                truncation_consumes_nothing(u128::MAX);
                truncation_consumes_nothing(i32::MIN);
                truncation_consumes_nothing(-70_000i64);
                truncation_consumes_nothing(i128::MIN);
            }

            fn overflow_is_reported<T: Bijou + Debug>() {
                // A 1-byte value before and after the corrupt one.
                let mut encoded = vec![0x05];
                encoded.extend(overflow_bytes::<T>());
                encoded.push(0x06);
                let mut buf = make(&encoded);
                assert_eq!(buf.try_get_bijou::<u64>(), Ok(5));
                let before = buf.remaining();
                let in_one_chunk = buf.chunk().len() >= T::MAX_BYTES;
                assert_eq!(buf.try_get_bijou::<T>(), Err(DecodeError::Overflow), "{}", T::NAME);
                if in_one_chunk || PEEKS {
                    assert_eq!(buf.remaining(), before, "{}: overflow consumed bytes", T::NAME);
                    // Still there: a second attempt fails the same way.
                    assert_eq!(buf.try_get_bijou::<T>(), Err(DecodeError::Overflow));
                } else {
                    // Documented: only the bad value is consumed.
                    assert_eq!(buf.remaining(), before - T::MAX_BYTES, "{}", T::NAME);
                    assert_eq!(buf.try_get_bijou::<u64>(), Ok(6));
                }
            }

            #[test]
            fn overflow_is_an_error_and_loses_nothing_it_can_keep() {
                overflow_is_reported::<u32>();
                overflow_is_reported::<u64>();
                overflow_is_reported::<u128>();
                overflow_is_reported::<i32>();
                overflow_is_reported::<i64>();
                overflow_is_reported::<i128>();
            }

            #[test]
            fn a_wider_value_read_as_a_narrower_width_overflows() {
                let mut encoded = Vec::new();
                encoded.put_bijou(u64::MAX);
                let mut buf = make(&encoded);
                assert_eq!(buf.try_get_bijou::<u32>(), Err(DecodeError::Overflow));
            }

            #[test]
            #[should_panic(expected = "get_bijou64: truncated bijou value")]
            fn get_panics_on_truncated_input() {
                let mut buf = make(&[0xF9, 0x01]);
                buf.get_bijou64();
            }

            #[test]
            #[should_panic(expected = "get_bijou32s: bijou value overflows")]
            fn get_panics_on_overflow() {
                let mut buf = make(&[0xFF; 5]);
                buf.get_bijou32s();
            }

            proptest! {
                #![proptest_config(common::config())]

                #[test]
                fn random_mixed_sequences_round_trip(values in proptest::collection::vec(common::any_value(), 0..40)) {
                    let encoded = common::encode_all(&values);
                    let mut buf = make(&encoded);
                    for &value in &values {
                        prop_assert_eq!(value.get_like(&mut buf), Ok(value));
                    }
                    prop_assert_eq!(buf.remaining(), 0);
                }
            }
        }
    )*};
}

buf_suite! {
    /// `&[u8]`: one contiguous chunk.
    slice: |bytes| bytes, peeks_across_chunks: true;
    /// `Bytes`: one contiguous chunk.
    bytes_shape: |bytes| Bytes::copy_from_slice(bytes), peeks_across_chunks: true;
    /// `BytesMut`: one contiguous chunk.
    bytes_mut: |bytes| BytesMut::from(bytes), peeks_across_chunks: true;
    /// Three pieces chained (`Chain<Chain<_, _>, _>`), cut at a third and
    /// two thirds.
    chain: |bytes| {
        let (a, rest) = bytes.split_at(bytes.len() / 3);
        let (b, c) = rest.split_at(rest.len() / 2);
        a.chain(b).chain(c)
    }, peeks_across_chunks: true;
    /// `bytes`' own `Buf for VecDeque<u8>`, with contents wrapping around.
    vec_deque: |bytes| common::wrapped_deque(bytes), peeks_across_chunks: true;
    /// A user type wrapping a wrapped-around `VecDeque`, one chunk at a time.
    wrapped_vec_deque: |bytes| DequeBuf(common::wrapped_deque(bytes)), peeks_across_chunks: false;
    /// One byte per chunk.
    one_byte_chunks: |bytes| OneByteChunks::new(bytes), peeks_across_chunks: false;
    /// One byte per chunk, every chunk shown to `chunks_vectored`: peeking
    /// at the longest value takes one `IoSlice` per byte of it.
    one_byte_chunks_vectored: |bytes| OneByteChunks::vectored(bytes), peeks_across_chunks: true;
}

proptest! {
    #![proptest_config(common::config())]

    /// Any chunking of the same bytes, as a `Buf` that shows one chunk at a
    /// time, decodes to the same values.
    #[test]
    fn random_chunkings_decode_the_same_values(
        values in proptest::collection::vec(common::any_value(), 0..40),
        cuts in proptest::collection::vec(any::<usize>(), 0..30),
    ) {
        let encoded = common::encode_all(&values);
        let mut rope = Rope::new(&encoded, &cuts);
        for &value in &values {
            prop_assert_eq!(value.get_like(&mut rope), Ok(value));
        }
        prop_assert_eq!(rope.remaining(), 0);
    }

    /// Truncation at any cut of a random sequence consumes nothing, in a
    /// random chunking, and the decoded prefix matches.
    #[test]
    fn truncation_at_any_point_keeps_the_remainder(
        values in proptest::collection::vec(common::any_value(), 1..20),
        cut in any::<usize>(),
        cuts in proptest::collection::vec(any::<usize>(), 0..10),
    ) {
        let encoded = common::encode_all(&values);
        let cut = cut % encoded.len();
        let mut rope = Rope::new(&encoded[..cut], &cuts);
        for &value in &values {
            let before = rope.remaining();
            match value.get_like(&mut rope) {
                Ok(decoded) => prop_assert_eq!(decoded, value),
                Err(DecodeError::Truncated { available, .. }) => {
                    prop_assert_eq!(available, before);
                    prop_assert_eq!(rope.remaining(), before);
                    break;
                }
                Err(error) => prop_assert!(false, "unexpected {error:?}"),
            }
        }
    }

    /// Decoding arbitrary bytes never panics, and every shape agrees with
    /// slice decoding on the outcome.
    #[test]
    fn arbitrary_bytes_give_the_slice_result(bytes in proptest::collection::vec(any::<u8>(), 0..40), cuts in proptest::collection::vec(any::<usize>(), 0..10)) {
        let expected = u64::decode(&bytes).map(|(value, _)| value);
        let mut rope = Rope::new(&bytes, &cuts);
        prop_assert_eq!(rope.try_get_bijou::<u64>(), expected);
        let mut chain = (&bytes[..bytes.len() / 2]).chain(&bytes[bytes.len() / 2..]);
        prop_assert_eq!(chain.try_get_bijou::<u64>(), expected);
    }
}

/// `bytes`' `Take` shows at most 16 slices to `chunks_vectored`, whatever
/// its inner `Buf` would: over one-byte chunks, an overflowing 9-byte value
/// is peeked at and kept, but a 17-byte one reaches past the slices and is
/// consumed, exactly its bytes, leaving the buffer at the next value (the
/// rule `try_get_bijou`'s docs give).
#[test]
fn a_take_peeks_across_16_chunks_at_most() {
    let mut encoded = overflow_bytes::<u64>();
    encoded.push(0x06);
    let mut buf = OneByteChunks::vectored(&encoded).take(encoded.len());
    assert_eq!(buf.try_get_bijou::<u64>(), Err(DecodeError::Overflow));
    assert_eq!(
        buf.remaining(),
        encoded.len(),
        "a 9-byte value was consumed"
    );

    let mut encoded = overflow_bytes::<u128>();
    assert_eq!(encoded.len(), 17);
    encoded.push(0x06);
    let mut buf = OneByteChunks::vectored(&encoded).take(encoded.len());
    assert_eq!(buf.try_get_bijou::<u128>(), Err(DecodeError::Overflow));
    assert_eq!(buf.remaining(), 1, "not exactly the 17-byte value consumed");
    assert_eq!(buf.try_get_bijou::<u64>(), Ok(6));
}

/// A broken `Buf` whose `remaining()` counts bytes its chunks never show.
struct Overstated<'a>(&'a [u8]);

impl Buf for Overstated<'_> {
    fn remaining(&self) -> usize {
        self.0.len() + 1
    }

    fn chunk(&self) -> &[u8] {
        // One byte at a time, so a value always crosses chunks.
        &self.0[..self.0.len().min(1)]
    }

    fn advance(&mut self, count: usize) {
        self.0 = &self.0[count..];
    }
}

/// The bytes a `Buf` really has decide, not what it claims: a value cut
/// short by a buffer that overstated `remaining()` is `Truncated`, never
/// decoded from padding.
#[test]
fn a_buf_overstating_its_remaining_bytes_gives_truncated() {
    let mut buf = Overstated(&[0xF9, 0x01]);
    assert_eq!(
        buf.try_get_bijou::<u64>(),
        Err(DecodeError::Truncated {
            needed: 3,
            available: 2
        })
    );
}

#[test]
fn try_put_reports_a_full_buffer_and_writes_nothing() {
    let mut storage = [0u8; 3];
    let mut out = &mut storage[..];
    assert_eq!(out.try_put_bijou(300u32), Ok(2));
    assert_eq!(
        out.try_put_bijou(300u32),
        Err(bijou_core::EncodeError::BufferTooSmall {
            needed: 2,
            available: 1
        })
    );
    assert_eq!(out.try_put_bijou(7u32), Ok(1));
    assert_eq!(storage, [0xFC, 0x30, 0x07]);
}

#[test]
// The message is `bytes`' own for a `put` past the end of a slice (only its
// start: the rest is `bytes`' wording, free to change).
#[should_panic(expected = "advance out of bounds")]
fn put_panics_on_a_full_fixed_buffer() {
    let mut storage = [0u8; 1];
    let mut out = &mut storage[..];
    out.put_bijou64(u64::MAX);
}

#[test]
fn value_encoded_lengths_match_put() {
    for value in [Value::U32(0), Value::U64(u64::MAX), Value::I128(i128::MIN)] {
        let mut out = Vec::new();
        value.put(&mut out);
        assert_eq!(out.len(), value.encoded_len());
    }
}
