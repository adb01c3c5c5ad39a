//! The varint exports, six per width: `encode_W`, `encoded_len_W`,
//! `len_from_tag_W`, `decode_W`, `encode_all_W` and `decode_all_W`.
//!
//! `decode_W` takes the bytes from the value's tag on and returns the value;
//! its length is `len_from_tag_W` of the tag, so no tuple crosses the
//! boundary. The 128-bit widths' batches cross as flat `u64` pairs (low,
//! high), since wasm-bindgen has typed arrays for 64-bit lanes only.

use bijou_core::{BatchDecodeError, DecodeError};
use wasm_bindgen::prelude::wasm_bindgen;

use crate::error::{Failure, reserve};

/// A width's `decode`.
type Decode<T> = fn(&[u8]) -> Result<(T, usize), DecodeError>;

/// A width's `decode_batch`.
type DecodeBatch<T> = fn(&[u8], &mut [T]) -> Result<(usize, usize), BatchDecodeError>;

/// Decodes every value of `bytes`, or fails without a partial result,
/// naming the first value that fails.
///
/// The values are counted from their tags first, so the output is allocated
/// once at its exact size. A value cut off at the end (which `decode_batch`
/// would leave unconsumed) is reported only if every value before it decodes.
fn decode_all<T: Copy + Default>(
    bytes: &[u8],
    len_from_tag: fn(u8) -> usize,
    decode: Decode<T>,
    decode_batch: DecodeBatch<T>,
) -> Result<Vec<T>, Failure> {
    let (mut count, mut start) = (0, 0);
    while let Some(&tag) = bytes.get(start) {
        let end = start + len_from_tag(tag);
        if end > bytes.len() {
            break;
        }
        count += 1;
        start = end;
    }
    let (whole, tail) = bytes.split_at(start);
    let mut values = reserve(count, size_of::<T>())?;
    values.resize(count, T::default());
    let (written, consumed) = decode_batch(whole, &mut values)?;
    if !tail.is_empty() {
        let error = decode(tail).err().unwrap_or(DecodeError::Truncated {
            needed: tail.len() + 1,
            available: tail.len(),
        });
        return Err(Failure::at(error, start));
    }
    // The count above makes both hold; checked rather than assumed, so a
    // disagreement is an error, not a short result.
    if written != count || consumed != whole.len() {
        let error = DecodeError::Truncated {
            needed: whole.len().saturating_sub(consumed) + 1,
            available: whole.len().saturating_sub(consumed),
        };
        return Err(Failure::at(error, consumed));
    }
    Ok(values)
}

macro_rules! exports {
    (
        $width:ident: $int:ty, $batch:ty;
        $encode:ident, $encoded_len:ident, $len_from_tag:ident,
        $decode:ident, $encode_all:ident, $decode_all:ident;
        to_batch: |$values:ident| $to_batch:expr;
        from_batch: |$batch_values:ident| $from_batch:expr
    ) => {
        #[doc = concat!("`", stringify!($width), "` encoding of `value`.")]
        #[wasm_bindgen]
        pub fn $encode(value: $int) -> Vec<u8> {
            let mut out = Vec::with_capacity(bijou_core::$width::MAX_BYTES);
            bijou_core::$width::encode(value, &mut out);
            out
        }

        #[doc = concat!("Length in bytes of the `", stringify!($width), "` encoding of `value`.")]
        #[wasm_bindgen]
        pub fn $encoded_len(value: $int) -> usize {
            bijou_core::$width::encoded_len(value)
        }

        #[doc = concat!("Length in bytes of the `", stringify!($width), "` value whose first byte is `tag`.")]
        #[wasm_bindgen]
        pub fn $len_from_tag(tag: u8) -> usize {
            bijou_core::$width::len_from_tag(tag)
        }

        #[doc = concat!("The `", stringify!($width), "` value at the start of `bytes`.")]
        #[wasm_bindgen]
        pub fn $decode(bytes: &[u8]) -> Result<$int, Failure> {
            Ok(bijou_core::$width::decode(bytes)?.0)
        }

        #[doc = concat!("The `", stringify!($width), "` encodings of `values`, concatenated.")]
        #[wasm_bindgen]
        pub fn $encode_all(values: &[$batch]) -> Result<Vec<u8>, Failure> {
            let $values = values;
            $to_batch
        }

        #[doc = concat!("Every `", stringify!($width), "` value in `bytes`, or an error if any fails.")]
        #[wasm_bindgen]
        pub fn $decode_all(bytes: &[u8]) -> Result<Vec<$batch>, Failure> {
            let $batch_values = decode_all(
                bytes,
                bijou_core::$width::len_from_tag,
                bijou_core::$width::decode,
                bijou_core::$width::decode_batch,
            )?;
            $from_batch
        }
    };
    ($(
        $width:ident: $int:ty;
        $encode:ident, $encoded_len:ident, $len_from_tag:ident,
        $decode:ident, $encode_all:ident, $decode_all:ident
    );+ $(;)?) => {$(
        exports! {
            $width: $int, $int;
            $encode, $encoded_len, $len_from_tag, $decode, $encode_all, $decode_all;
            // Room for the longest encodings up front: encode_batch then
            // never grows the vector (whose failure would be a trap).
            to_batch: |values| {
                let mut out = reserve(values.len(), bijou_core::$width::MAX_BYTES)?;
                bijou_core::$width::encode_batch(values, &mut out);
                Ok(out)
            };
            from_batch: |values| Ok(values)
        }
    )+};
    ($(
        $width:ident: $int:ty as pairs;
        $encode:ident, $encoded_len:ident, $len_from_tag:ident,
        $decode:ident, $encode_all:ident, $decode_all:ident
    );+ $(;)?) => {$(
        exports! {
            $width: $int, u64;
            $encode, $encoded_len, $len_from_tag, $decode, $encode_all, $decode_all;
            to_batch: |pairs| {
                let mut out = reserve(pairs.len() / 2, bijou_core::$width::MAX_BYTES)?;
                for pair in pairs.chunks_exact(2) {
                    let bits = u128::from(pair[0]) | u128::from(pair[1]) << 64;
                    bijou_core::$width::encode(bits as $int, &mut out);
                }
                Ok(out)
            };
            from_batch: |values| {
                let mut pairs = reserve(values.len(), 16)?;
                pairs.extend(values.iter().flat_map(|&value| {
                    let bits = value as u128;
                    [bits as u64, (bits >> 64) as u64]
                }));
                Ok(pairs)
            }
        }
    )+};
}

exports! {
    bijou32: u32;
    encode_32, encoded_len_32, len_from_tag_32, decode_32, encode_all_32, decode_all_32;
    bijou32s: i32;
    encode_32s, encoded_len_32s, len_from_tag_32s, decode_32s, encode_all_32s, decode_all_32s;
    bijou64: u64;
    encode_64, encoded_len_64, len_from_tag_64, decode_64, encode_all_64, decode_all_64;
    bijou64s: i64;
    encode_64s, encoded_len_64s, len_from_tag_64s, decode_64s, encode_all_64s, decode_all_64s;
}
exports! {
    bijou128: u128 as pairs;
    encode_128, encoded_len_128, len_from_tag_128, decode_128, encode_all_128, decode_all_128;
    bijou128s: i128 as pairs;
    encode_128s, encoded_len_128s, len_from_tag_128s, decode_128s, encode_all_128s, decode_all_128s;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_all_is_all_or_nothing() {
        assert_eq!(decode_all_64(&[1, 0xF8, 0x34]), Ok(vec![1, 300]));
        let truncated = decode_all_64(&[1, 2, 0xF9, 0]).unwrap_err();
        assert_eq!(
            (truncated.kind(), truncated.offset()),
            ("truncated".into(), 2)
        );
        assert_eq!(
            truncated.message(),
            DecodeError::Truncated {
                needed: 3,
                available: 2
            }
            .to_string()
        );
        let mut overflow = vec![7];
        overflow.extend([0xFF; 9]);
        overflow.push(0xF9); // a truncated value after it: the overflow is first
        let overflow = decode_all_64(&overflow).unwrap_err();
        assert_eq!((overflow.kind(), overflow.offset()), ("overflow".into(), 1));
        assert_eq!(decode_all_64(&[]), Ok(vec![]));
    }

    #[test]
    fn wide_batches_cross_as_low_high_pairs() {
        let values = [0, 300, u128::MAX];
        let pairs: Vec<u64> = values
            .iter()
            .flat_map(|&v| [v as u64, (v >> 64) as u64])
            .collect();
        let bytes = encode_all_128(&pairs).unwrap();
        assert_eq!(decode_all_128(&bytes), Ok(pairs));
        assert_eq!(decode_128(&bytes[3..]), Ok(u128::MAX));
        let signed: Vec<u64> = [-1i128, i128::MIN]
            .iter()
            .flat_map(|&v| [v as u64, (v as u128 >> 64) as u64])
            .collect();
        assert_eq!(
            decode_all_128s(&encode_all_128s(&signed).unwrap()),
            Ok(signed)
        );
    }
}
