//! Arbitrary values of every width: each encodes to what the oracle
//! encodes, decodes back to itself with the advertised length, and the
//! writers (`encode_into`, `encode`, `encode_batch`) and `decode_batch`
//! agree with it. Encodings sort like the values (zigzag order for signed
//! widths), which keeps bijou keys usable in ordered stores.
//!
//! Input: byte 0 picks the width (`each_width!` order: u32, u64, u128, i32,
//! i64, i128); the rest is little-endian values of that width, back to back
//! (a trailing partial value is ignored).

use crate::{FuzzWidth, each_width};
use bijou_core::EncodeError;

fn check_value<T: FuzzWidth>(value: T) {
    let encoded = value.encoded();
    let len = encoded.len();
    assert_eq!(&*encoded, T::oracle().encode(value.to_oracle()), "{value}");
    assert_eq!(T::decode(&encoded), Ok((value, len)), "{value}");
    assert_eq!(value.encoded_len(), len, "{value}");
    assert_eq!(T::len_from_tag(encoded[0]), len, "{value}");

    let mut exact = [0u8; bijou_core::MAX_ENCODED_LEN];
    assert_eq!(value.encode_into(&mut exact[..len]), Ok(len));
    assert_eq!(&exact[..len], &*encoded);
    // Too small a buffer is refused without writing anything.
    let mut short = [0xAAu8; bijou_core::MAX_ENCODED_LEN];
    assert_eq!(
        value.encode_into(&mut short[..len - 1]),
        Err(EncodeError::BufferTooSmall {
            needed: len,
            available: len - 1
        })
    );
    assert!(short.iter().all(|&b| b == 0xAA), "{value}: short write");
}

fn check<T: FuzzWidth>(raw: &[u8]) {
    let values: Vec<T> = raw.chunks_exact(T::SIZE).map(T::from_le).collect();
    let mut concatenated = Vec::new();
    for &value in &values {
        check_value(value);
        value.encode(&mut concatenated);
    }
    for pair in values.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        assert_eq!(
            a.to_oracle().cmp(&b.to_oracle()),
            a.encoded().as_slice().cmp(b.encoded().as_slice()),
            "order of {a} and {b}"
        );
    }

    let mut batch = Vec::new();
    T::encode_batch(&values, &mut batch);
    assert_eq!(batch, concatenated);
    // One spare output slot: the batch must stop at the end of the input.
    let mut decoded = vec![T::default(); values.len() + 1];
    assert_eq!(
        T::decode_batch(&batch, &mut decoded),
        Ok((values.len(), batch.len()))
    );
    assert_eq!(decoded[..values.len()], values);
}

/// Runs the checks on one input; panics if any fails.
pub fn run(data: &[u8]) {
    let Some((&selector, raw)) = data.split_first() else {
        return;
    };
    let checks = each_width!(check);
    checks[usize::from(selector) % checks.len()](raw);
}
