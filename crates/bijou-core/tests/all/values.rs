//! `values` against the per-value `decode` loop it stands for: the same
//! values in order, the same first error, and the same offsets, on
//! inputs long enough to cross many of its refills, cut or overflowing
//! anywhere.

use bijou_core::{Bijou, DecodeError, Values};
use proptest::prelude::*;

/// What a `while` loop over `decode` sees: each value with its offset,
/// then the first error with its offset, if any.
type LoopOutcome<T> = (Vec<(usize, T)>, Option<(usize, DecodeError)>);

/// The `while` loop over `decode` on `input`.
fn decode_loop<T: Bijou>(input: &[u8]) -> LoopOutcome<T> {
    let (mut values, mut at) = (Vec::new(), 0);
    while at < input.len() {
        match T::decode(&input[at..]) {
            Ok((value, len)) => {
                values.push((at, value));
                at += len;
            }
            Err(error) => return (values, Some((at, error))),
        }
    }
    (values, None)
}

/// Checks every item, `offset` and `remaining` of `Values` on `input`
/// against [`decode_loop`].
fn check_values<T: Bijou>(input: &[u8]) {
    let (want, error) = decode_loop::<T>(input);
    let mut values = Values::<T>::new(input);
    for &(at, value) in &want {
        assert_eq!(values.offset(), at, "{} offset", T::NAME);
        assert_eq!(values.remaining(), &input[at..]);
        assert_eq!(values.next(), Some(Ok(value)), "{} at {at}", T::NAME);
    }
    let end = match error {
        Some((at, error)) => {
            assert_eq!(values.offset(), at);
            assert_eq!(values.next(), Some(Err(error)), "{} at {at}", T::NAME);
            at
        }
        None => input.len(),
    };
    assert_eq!(values.next(), None, "{}: fused", T::NAME);
    assert_eq!(values.next(), None);
    assert_eq!(values.offset(), end);
    assert_eq!(values.remaining(), &input[end..]);
    // Without looking at offsets between values: the same items.
    let items: Vec<_> = Values::<T>::new(input).collect();
    let expected: Vec<_> = want
        .iter()
        .map(|&(_, v)| Ok(v))
        .chain(error.map(|(_, e)| Err(e)))
        .collect();
    assert_eq!(items, expected, "{}", T::NAME);
    // `fold` (what `for_each`, `sum` and friends run on), from the start
    // and after a few values taken by `next`.
    for skip in [0, 1, 3, 300] {
        let mut values = Values::<T>::new(input);
        let taken: Vec<_> = values.by_ref().take(skip).collect();
        let folded = values.fold(taken, |mut items, item| {
            items.push(item);
            items
        });
        assert_eq!(folded, expected, "{} fold after {skip}", T::NAME);
    }
}

/// Values of every length, encoded back to back, with `junk` bytes
/// spliced in at `at` (a cut value or an overflow anywhere).
fn input<T: Bijou>(values: &[T], junk: &[u8], at: proptest::sample::Index) -> Vec<u8> {
    let mut bytes = Vec::new();
    T::encode_batch(values, &mut bytes);
    let at = at.index(bytes.len() + 1);
    bytes.splice(at..at, junk.iter().copied());
    bytes
}

macro_rules! values_suite {
    ($suite:ident, $t:ty) => {
        mod $suite {
            use super::*;

            /// Long runs of one length and mixed stretches: values of each
            /// width's every tier.
            fn value() -> impl Strategy<Value = $t> {
                prop_oneof![
                    any::<$t>(),
                    (0..300u32).prop_map(|v| v as $t),
                    (0..<$t>::BITS).prop_flat_map(|bits| any::<$t>().prop_map(move |v| v >> bits)),
                ]
            }

            proptest! {
                #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

                #[test]
                fn values_equal_the_decode_loop(
                    values in proptest::collection::vec(value(), 0..1200),
                    junk in proptest::collection::vec(any::<u8>(), 0..20),
                    at in any::<proptest::sample::Index>(),
                ) {
                    check_values::<$t>(&input(&values, &junk, at));
                }

                #[test]
                fn any_bytes_equal_the_decode_loop(bytes in proptest::collection::vec(any::<u8>(), 0..700)) {
                    check_values::<$t>(&bytes);
                }
            }
        }
    };
}

values_suite!(u32s, u32);
values_suite!(u64s, u64);
values_suite!(u128s, u128);
values_suite!(i32s, i32);
values_suite!(i64s, i64);
values_suite!(i128s, i128);

/// Errors at and around the refill boundaries (the buffer holds 528
/// values; its first 16 are a block of their own) and the length below
/// which an input is decoded value by value (256 bytes): after that many
/// single-byte values, one fewer and one more, a value cut off by the
/// end, an overflowing value, and a value cut off before more input.
#[test]
fn errors_at_refill_boundaries() {
    for before in [
        0, 1, 15, 16, 17, 243, 246, 247, 254, 255, 256, 527, 528, 529, 1055, 1056, 1057,
    ] {
        for tail in [&[0xFF][..], &[0xFF; 9], &[0xFF; 12], &[0xFB, 0x00, 0x01]] {
            let mut bytes = vec![0x05; before];
            bytes.extend_from_slice(tail);
            check_values::<u64>(&bytes);
            check_values::<u32>(&bytes);
            check_values::<i64>(&bytes);
        }
    }
    let mut values = bijou_core::bijou64::values(&[0x01, 0xFF, 0xFF, 0xFF]);
    assert_eq!(values.next(), Some(Ok(1)));
    assert_eq!(
        values.next(),
        Some(Err(DecodeError::Truncated {
            needed: 9,
            available: 3
        }))
    );
    assert_eq!(values.offset(), 1);
    assert_eq!(values.next(), None);
}

#[test]
fn the_widths_functions_are_values_new() {
    let mut bytes = Vec::new();
    bijou_core::bijou128s::encode_batch(&[-1, 0, i128::MIN, 300], &mut bytes);
    let got: Result<Vec<i128>, _> = bijou_core::bijou128s::values(&bytes).collect();
    assert_eq!(got, Ok(vec![-1, 0, i128::MIN, 300]));
    let got: Vec<_> = bijou_core::bijou32::values(&[0x01, 0x02]).collect();
    assert_eq!(got, [Ok(1), Ok(2)]);
    assert_eq!(bijou_core::bijou64::values(&[]).next(), None);
    let debug = format!("{:?}", bijou_core::bijou64::values(&[1, 2, 3]));
    assert!(
        debug.contains("offset: 0") && debug.contains("remaining: 3"),
        "{debug}"
    );
}
