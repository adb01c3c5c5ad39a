//! `BufExt::bijou_values` against bijou-core's `values` over the same bytes
//! as one slice: the same results in the same order, and, once the
//! iterator is dropped, the buffer positioned where the slice iterator's
//! offset is, for every width and every buffer shape.

use std::fmt::Debug;

use bijou_core::{Bijou, DecodeError, Values};
use bijou_io::{BufExt, BufMutExt};
use bytes::{Buf, Bytes};
use proptest::prelude::*;

use crate::common::{self, OneByteChunks, Rope};

/// What the slice iterator yields on `bytes`, and its offset after the
/// last item (at the failed value after an error).
fn expected<T: Bijou>(bytes: &[u8]) -> (Vec<Result<T, DecodeError>>, usize) {
    let mut values = Values::<T>::new(bytes);
    let results = values.by_ref().collect();
    (results, values.offset())
}

/// Whether the value at `offset` lies in one piece of `pieces` (a `Buf`
/// showing one chunk at a time can then keep it, overflowing, unconsumed).
fn in_one_piece(pieces: &[&[u8]], offset: usize, len: usize) -> bool {
    let mut start = 0;
    pieces.iter().any(|piece| {
        let end = start + piece.len();
        let inside = start <= offset && offset + len <= end;
        start = end;
        inside
    })
}

/// Checks `buf` (holding `bytes`) against the slice iterator: the results,
/// then the position. `keeps_split_overflow`: whether the shape shows
/// every chunk to `chunks_vectored` (else an overflowing value split
/// across `pieces` is consumed, as documented).
fn agrees<T: Bijou + PartialEq + Debug>(
    mut buf: impl Buf,
    bytes: &[u8],
    pieces: &[&[u8]],
    keeps_split_overflow: bool,
) -> Result<(), TestCaseError> {
    let (want, offset) = expected::<T>(bytes);
    let got: Vec<Result<T, DecodeError>> = buf.bijou_values::<T>().collect();
    prop_assert_eq!(&got, &want, "{}", T::NAME);
    let mut position = offset;
    if let Some(Err(DecodeError::Overflow)) = want.last() {
        let len = T::len_from_tag(bytes[offset]);
        if !keeps_split_overflow && !in_one_piece(pieces, offset, len) {
            position += len;
        }
    }
    prop_assert_eq!(buf.remaining(), bytes.len() - position, "{}", T::NAME);
    Ok(())
}

/// Every shape of buffer over `bytes`, cut at `cuts` where it can be.
fn every_shape<T: Bijou + PartialEq + Debug>(
    bytes: &[u8],
    cuts: &[usize],
) -> Result<(), TestCaseError> {
    let whole: [&[u8]; 1] = [bytes];
    agrees::<T>(bytes, bytes, &whole, true)?;
    agrees::<T>(Bytes::copy_from_slice(bytes), bytes, &whole, true)?;
    let half = bytes.len() / 2;
    let (a, b) = bytes.split_at(half);
    agrees::<T>(a.chain(b), bytes, &[a, b], true)?;
    let pieces = common::pieces(bytes, cuts);
    agrees::<T>(Rope::new(bytes, cuts), bytes, &pieces, false)?;
    let single: Vec<&[u8]> = bytes.chunks(1).collect();
    agrees::<T>(OneByteChunks::new(bytes), bytes, &single, false)?;
    agrees::<T>(OneByteChunks::vectored(bytes), bytes, &single, true)
}

/// Values of every encoded length: random bits shifted right by a random
/// amount, cast to the width.
macro_rules! width_tests {
    ($($name:ident: $ty:ty;)*) => {$(
        mod $name {
            use super::*;

            fn value() -> impl Strategy<Value = $ty> {
                (any::<u128>(), 0u32..128).prop_map(|(bits, shift)| (bits >> shift) as $ty)
            }

            fn encode(values: &[$ty]) -> Vec<u8> {
                let mut bytes = Vec::new();
                for &value in values {
                    bytes.put_bijou(value);
                }
                bytes
            }

            proptest! {
                #![proptest_config(common::config())]

                /// Valid streams long enough to refill the iterator's
                /// buffer several times, cut anywhere (so ending in a
                /// truncated value), in every shape.
                #[test]
                fn streams_cut_anywhere(
                    values in proptest::collection::vec(value(), 0..1200),
                    cut in any::<usize>(),
                    cuts in proptest::collection::vec(any::<usize>(), 0..30),
                ) {
                    let bytes = encode(&values);
                    every_shape::<$ty>(&bytes, &cuts)?;
                    let cut = cut % (bytes.len() + 1);
                    every_shape::<$ty>(&bytes[..cut], &cuts)?;
                }

                /// Arbitrary bytes: overflows and truncations anywhere.
                #[test]
                fn arbitrary_bytes(
                    bytes in proptest::collection::vec(any::<u8>(), 0..200),
                    cuts in proptest::collection::vec(any::<usize>(), 0..20),
                ) {
                    every_shape::<$ty>(&bytes, &cuts)?;
                }
            }

            /// An overflowing value after each value of a mixed stream in
            /// turn: the values before it, then `Overflow`, in every shape.
            #[test]
            fn an_overflow_after_every_value() {
                let values: Vec<$ty> = [0u128, 1, 247, 248, 300, 70_000, 1 << 40, u128::MAX]
                    .iter()
                    .map(|&v| v as $ty)
                    .collect();
                for at in 0..=values.len() {
                    let mut bytes = encode(&values[..at]);
                    bytes.extend(std::iter::repeat_n(0xFF, <$ty>::MAX_BYTES));
                    bytes.extend(encode(&values[at..]));
                    let (want, _) = expected::<$ty>(&bytes);
                    assert_eq!(want.len(), at + 1);
                    assert_eq!(want.last(), Some(&Err(DecodeError::Overflow)));
                    every_shape::<$ty>(&bytes, &[bytes.len() / 3, 1 + bytes.len() / 2]).unwrap();
                }
            }
        }
    )*};
}

width_tests! {
    bijou32: u32;
    bijou64: u64;
    bijou128: u128;
    bijou32s: i32;
    bijou64s: i64;
    bijou128s: i128;
}

/// Stopping part-way (`take`, `break`) leaves the buffer right after the
/// last value yielded, whatever the chunking.
#[test]
fn a_dropped_iterator_leaves_the_rest() {
    let values: Vec<u64> = (0..2000).map(|i| i * i * i).collect();
    let mut bytes = Vec::new();
    for &value in &values {
        bytes.put_bijou(value);
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(values.iter().scan(0, |at, v| {
            *at += v.encoded_len();
            Some(*at)
        }))
        .collect();
    for taken in [0, 1, 527, 528, 529, 1999, 2000] {
        let mut buf = &bytes[..];
        assert_eq!(buf.bijou_values::<u64>().take(taken).count(), taken);
        assert_eq!(buf.remaining(), bytes.len() - starts[taken], "{taken}");
        let mut rope = Rope::new(&bytes, &[100, 101, 5000]);
        let mut seen = 0;
        for value in rope.bijou_values::<u64>() {
            assert_eq!(value, Ok(values[seen]));
            seen += 1;
            if seen >= taken {
                break;
            }
        }
        // The loop takes one value before it can stop.
        let seen = taken.max(1);
        assert_eq!(rope.remaining(), bytes.len() - starts[seen], "{taken}");
        assert_eq!(rope.bijou_values::<u64>().count(), 2000 - seen);
    }
}
