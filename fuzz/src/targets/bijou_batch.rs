//! `decode_batch` of every width equals calling `decode` in a loop, on every
//! prefix of the input (each prefix is what a streaming caller may hold when
//! the rest has not arrived) and for any output capacity; and `values`
//! yields what that loop sees, then its first error, at the same offset.
//!
//! Input: bytes 0–1 are the output capacity (little-endian; capacities past
//! the stream's length + 1 behave alike and are clamped to it); the rest is
//! the encoded stream.

use crate::{FuzzWidth, each_width};

/// Every prefix up to this length is checked, each decoded from the start,
/// so the cost is quadratic in it; longer inputs are checked whole as well,
/// which reaches the adaptive loops' later blocks (and, as the fuzzer varies
/// the length, their truncation points too).
const ALL_PREFIXES_UP_TO: usize = 300;

fn check<T: FuzzWidth>(capacity: usize, stream: &[u8]) {
    let mut batch = vec![T::default(); capacity];
    let mut expected = vec![T::default(); capacity];
    let prefixes = 0..=stream.len().min(ALL_PREFIXES_UP_TO);
    for end in prefixes.chain([stream.len()]) {
        testkit::oracle::assert_batch_agrees(&stream[..end], &mut batch, &mut expected, T::NAME);
    }
    check_values::<T>(stream);
}

/// `values` against a `decode` loop: the same values, the same first
/// error, and `offset` at that error (or at the end).
fn check_values<T: FuzzWidth>(stream: &[u8]) {
    let mut values = bijou_core::Values::<T>::new(stream);
    let mut at = 0;
    while at < stream.len() {
        let expected = T::decode(&stream[at..]);
        assert_eq!(values.offset(), at, "{} values offset", T::NAME);
        assert_eq!(values.next(), Some(expected.map(|(value, _)| value)), "{} values at {at}", T::NAME);
        match expected {
            Ok((_, len)) => at += len,
            Err(_) => break,
        }
    }
    assert_eq!(values.next(), None, "{} values end", T::NAME);
    assert_eq!(values.offset(), at, "{} values final offset", T::NAME);
}

/// Runs the checks on one input; panics if any fails.
pub fn run(data: &[u8]) {
    let Some((&[low, high], stream)) = data.split_first_chunk() else {
        return;
    };
    let capacity = usize::from(u16::from_le_bytes([low, high])).min(stream.len() + 1);
    for check in each_width!(check) {
        check(capacity, stream);
    }
}
