//! The two-walk loop of every width against that width's `decode`, on
//! random streams, on streams whose guessed walk never meets the true
//! one, and on streams where only the guessed walk reads an overflow.

use crate::DecodeError;
use proptest::prelude::*;
use std::{vec, vec::Vec};

macro_rules! two_walk_suite {
    ($suite:ident, $width:ident, $uint:ty) => {
        mod $suite {
            use super::*;
            use crate::$width::{
                self, LOOK_BACK, MAX_BYTES, OFFSETS, ROUND_VALUES, THRESHOLD, VIEW, WALK_WINDOW, two_walks,
            };

            const UNTOUCHED: $uint = 0x5EED_5EED as $uint;

            /// `two_walks` from `input[start]` against `decode` value
            /// after value: the same values and bytes, nothing written past
            /// those it reports, and a stop short of `limit` only with too
            /// few bytes or slots left for a round or an overflow within a
            /// round's reach (on either walk). Returns (consumed, written).
            fn agrees(input: &[u8], start: usize, limit: usize, slots: usize) -> (usize, usize) {
                let mut out = vec![UNTOUCHED; slots];
                let (consumed, written) = two_walks(input, start, &mut out, limit);
                let mut at = start;
                for (k, &value) in out[..written].iter().enumerate() {
                    let (want, len) = $width::decode(&input[at..]).expect("a written value decodes");
                    assert_eq!(value, want, "value {k} at byte {at}");
                    at += len;
                }
                assert_eq!(consumed, at - start);
                assert!(out[written..].iter().all(|&slot| slot == UNTOUCHED), "wrote past {written}");
                if written < limit {
                    let few_bytes = input.len() - (at - LOOK_BACK) < VIEW;
                    let few_slots = slots - written < ROUND_VALUES;
                    let reach = (at + 2 * WALK_WINDOW).min(input.len());
                    let overflow = (at..reach).any(|p| $width::decode(&input[p..]) == Err(DecodeError::Overflow));
                    assert!(few_bytes || few_slots || overflow, "stopped at {at} with {written} of {limit}");
                }
                (consumed, written)
            }

            /// Values of every length, log-uniform like real counters and
            /// lengths, with some at the top.
            fn value() -> impl Strategy<Value = $uint> {
                prop_oneof![
                    (any::<u128>(), 0..<$uint>::BITS).prop_map(|(v, shift)| (v as $uint) >> shift),
                    Just(<$uint>::MAX),
                    (0..=MAX_BYTES - 1).prop_map(|tier| OFFSETS[tier]),
                ]
            }

            fn encode_all(prefix: &[u8], values: &[$uint]) -> Vec<u8> {
                let mut input = prefix.to_vec();
                for &value in values {
                    $width::encode(value, &mut input);
                }
                input
            }

            proptest! {
                #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

                #[test]
                fn walks_agree_with_decode(
                    prefix in proptest::collection::vec(any::<u8>(), LOOK_BACK..LOOK_BACK + 24),
                    values in proptest::collection::vec(value(), 0..1200),
                    overflow_at in proptest::option::of(any::<proptest::sample::Index>()),
                    junk in proptest::collection::vec(any::<u8>(), 0..24),
                    limit in 0usize..1500,
                    spare in 0usize..400,
                ) {
                    let mut input = encode_all(&prefix, &values);
                    if let Some(index) = overflow_at {
                        // An overflowing value at a value's start.
                        let split = encode_all(&prefix, &values[..index.index(values.len() + 1)]).len();
                        input.splice(split..split, [0xFF; MAX_BYTES]);
                    }
                    input.extend_from_slice(&junk);
                    agrees(&input, prefix.len(), limit, limit + spare);
                }
            }

            /// Three-byte values whose byte where the guessed walk starts
            /// is a three-byte tag: that walk steps three bytes at a time
            /// beside the true one and never meets it, so the first walk
            /// decodes every value itself.
            #[test]
            fn walks_that_never_meet() {
                let tag = THRESHOLD + 2 - 1; // tier 2: three bytes
                let guess = WALK_WINDOW % 3;
                assert_ne!(guess, 0, "the guess would start on a true value");
                let mut input = vec![0; LOOK_BACK];
                for i in 0..3000 {
                    let mut value = [tag, (i % 241) as u8, (i % 239) as u8];
                    value[guess] = tag;
                    input.extend_from_slice(&value);
                }
                let (_, written) = agrees(&input, LOOK_BACK, 3000, 3000);
                assert!(written > 2 * ROUND_VALUES / 3, "the rounds ran");
            }

            /// Top-tier values with `FF FF` in their payload where the
            /// guessed walk starts: it reads an overflow that is not in
            /// the stream. The rounds go on, and `decode_batch` decodes
            /// every value.
            #[test]
            fn an_overflow_only_the_guess_reads() {
                let mut value = [0u8; MAX_BYTES];
                value[0] = 0xFF;
                value[2] = 0xFF;
                value[3] = 0xFF;
                // One-byte values first, so the guess lands on byte 2.
                let ones = (WALK_WINDOW + MAX_BYTES - 2) % MAX_BYTES;
                let mut input = vec![0; LOOK_BACK + ones];
                for _ in 0..400 {
                    input.extend_from_slice(&value);
                }
                assert_eq!(
                    $width::decode(&input[LOOK_BACK + WALK_WINDOW..]),
                    Err(DecodeError::Overflow),
                    "the guess reads an overflow"
                );
                let (_, written) = agrees(&input, LOOK_BACK, 400, 400 + ROUND_VALUES);
                // The guess stops there; the first walk goes on alone.
                assert!(written + VIEW / MAX_BYTES + 1 >= 400, "stopped early: {written}");
                let mut out = vec![0; 400 + ones + LOOK_BACK];
                let got = $width::decode_batch(&input, &mut out);
                assert_eq!(got, Ok((LOOK_BACK + ones + 400, input.len())));
            }
        }
    };
}

two_walk_suite!(b32, bijou32, u32);
two_walk_suite!(b64, bijou64, u64);
two_walk_suite!(b128, bijou128, u128);
