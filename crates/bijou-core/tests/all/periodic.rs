//! `decode_batch` on streams whose tiers repeat with a short period
//! (records of fixed fields), which the batch decoder sends to its
//! periodic loops, against a loop of `decode`.

/// The longest period the batch decoder looks for, in values.
const MAX_PERIOD: usize = 8;

/// Values a stream starts with beyond the stretch a test varies:
/// `decode_batch` decodes batches of fewer than 256 values value by value,
/// so the streams here are longer, for its blocks (the periodic loops
/// among them) to run.
const LONG: usize = 256;

/// `decode_batch` on streams whose tiers repeat, against a loop of
/// `decode`, per width: every period and tier mix at every phase, a
/// different value or byte at every position, an overflow in every
/// top-tier field, every cut near the end, and random periodic streams.
/// Run with `BIJOU_CORE_BATCH=portable` too, for the predicted loop.
/// Periods of 1 to 8 values: the longest the batch decoder looks for.
macro_rules! periodic_batch_suite {
    ($suite:ident, $width:ident, $uint:ty) => {
        mod $suite {
            use bijou_core::{BatchDecodeError, $width};
            use proptest::prelude::*;
            use testkit::oracle::assert_batch_agrees;

            const TIERS: usize = $width::MAX_BYTES - 1;

            /// A well-mixed word from `seed` (SplitMix64's finaliser).
            fn mix(seed: u64) -> u64 {
                let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            }

            /// A value of `tier` from `seed`: its first, its last, or one
            /// between.
            fn value_of(tier: usize, seed: u64) -> $uint {
                let first = $width::OFFSETS[tier];
                let last = $width::OFFSETS
                    .get(tier + 1)
                    .map_or(<$uint>::MAX, |&next| next - 1);
                let word = (u128::from(mix(seed)) | u128::from(mix(!seed)) << 64) as $uint;
                match seed % 4 {
                    0 => first,
                    1 => last,
                    _ => first + word % (last - first).saturating_add(1).max(1),
                }
            }

            /// `count` values whose tiers cycle through `tiers`.
            fn periodic(tiers: &[usize], count: usize, seed: u64) -> Vec<$uint> {
                (0..count)
                    .map(|i| value_of(tiers[i % tiers.len()], seed ^ (i as u64) << 20))
                    .collect()
            }

            fn encode(values: &[$uint]) -> Vec<u8> {
                let mut input = Vec::new();
                $width::encode_batch(values, &mut input);
                input
            }

            /// `decode_batch` on `input` into `out_len` slots agrees with a
            /// loop of `decode`.
            fn check(input: &[u8], out_len: usize) {
                assert_batch_agrees::<$uint>(
                    input,
                    &mut vec![0; out_len],
                    &mut vec![0; out_len],
                    "periodic",
                );
            }

            /// Tier mixes of `p` values: all of them while few, else a
            /// spread of them.
            fn mixes(p: usize) -> Vec<Vec<usize>> {
                // In `u64`: 18^8 overflows a 32-bit `usize`.
                let all = (TIERS as u64 + 1).pow(p as u32);
                let count = all.min(150) as usize;
                (0..count)
                    .map(|n| {
                        let mut code = if all <= 150 { n as u64 } else { mix(n as u64) };
                        (0..p)
                            .map(|_| {
                                let tier = (code % (TIERS as u64 + 1)) as usize;
                                code /= TIERS as u64 + 1;
                                tier
                            })
                            .collect()
                    })
                    .collect()
            }

            #[test]
            fn every_period_and_tier_mix_at_every_phase() {
                for p in 1..=super::MAX_PERIOD {
                    for (n, tiers) in mixes(p).iter().enumerate() {
                        let values = periodic(tiers, super::LONG + 160 + p, n as u64);
                        for phase in 0..p {
                            let input = encode(&values[phase..]);
                            check(&input, values.len());
                            check(&input, values.len() - 2 * p);
                        }
                    }
                }
            }

            /// Records shaped like the `records` bench workload's, and
            /// others.
            fn shapes() -> Vec<Vec<usize>> {
                let top = TIERS;
                vec![
                    vec![2, 0, 0, top - 1, top],
                    vec![top, 0],
                    (0..8).map(|t| t % (top + 1)).collect(),
                ]
            }

            #[test]
            fn a_different_tier_at_every_place() {
                for tiers in shapes() {
                    let values = periodic(&tiers, super::LONG + 200, 7);
                    for at in 0..200 {
                        for step in [1, 3] {
                            let mut changed = values.clone();
                            let tier = (tiers[at % tiers.len()] + step) % (TIERS + 1);
                            changed[at] = value_of(tier, at as u64);
                            check(&encode(&changed), changed.len());
                        }
                    }
                }
            }

            /// Two records' worth of other tiers at every place: the
            /// record loop repairs one step, the block's one-walk step
            /// takes the next, and the period must be found again after.
            #[test]
            fn two_records_of_other_tiers_at_every_place() {
                for tiers in shapes() {
                    let period = tiers.len();
                    let values = periodic(&tiers, super::LONG + 240, 5);
                    for at in 0..240 - 2 * period {
                        let mut changed = values.clone();
                        for k in at..at + 2 * period {
                            let tier = (tiers[k % period] + 1) % (TIERS + 1);
                            changed[k] = value_of(tier, k as u64);
                        }
                        check(&encode(&changed), changed.len());
                    }
                }
            }

            #[test]
            fn a_different_byte_at_every_place() {
                for tiers in shapes() {
                    let values = periodic(&tiers, super::LONG + 120, 11);
                    let input = encode(&values);
                    for at in 0..encode(&values[..120]).len() {
                        for byte in [0x00, 0xFF, input[at] ^ 0x04] {
                            let mut changed = input.clone();
                            changed[at] = byte;
                            check(&changed, super::LONG + 200);
                        }
                    }
                }
            }

            #[test]
            fn an_overflow_in_every_top_tier_field() {
                for tiers in shapes() {
                    let values = periodic(&tiers, super::LONG + 200, 13);
                    let mut starts = vec![0];
                    for &value in &values {
                        starts.push(starts.last().unwrap() + $width::encoded_len(value));
                    }
                    let input = encode(&values);
                    for (at, &start) in starts[..200].iter().enumerate() {
                        if input[start] != 0xFF {
                            continue;
                        }
                        let mut changed = input.clone();
                        changed[start + 1..start + $width::MAX_BYTES].fill(0xFF);
                        let mut out = vec![0; values.len()];
                        assert_eq!(
                            $width::decode_batch(&changed, &mut out),
                            Err(BatchDecodeError::Overflow {
                                offset: start,
                                written: at
                            })
                        );
                        check(&changed, values.len());
                    }
                }
            }

            #[test]
            fn every_cut_near_the_end() {
                for tiers in shapes() {
                    let input = encode(&periodic(&tiers, super::LONG + 150, 17));
                    for cut in input.len() - 150..=input.len() {
                        check(&input[..cut], super::LONG + 150);
                        check(&input[..cut], super::LONG + 149);
                    }
                }
            }

            /// A periodic stream, some values replaced by others.
            fn stream() -> impl Strategy<Value = Vec<u8>> {
                (
                    proptest::collection::vec(0..=TIERS, 1..=super::MAX_PERIOD),
                    0usize..400,
                    any::<u64>(),
                    proptest::collection::vec(
                        (any::<prop::sample::Index>(), 0..=TIERS, any::<u64>()),
                        0..4,
                    ),
                )
                    .prop_map(|(tiers, count, seed, changes)| {
                        let mut values = periodic(&tiers, count, seed);
                        if !values.is_empty() {
                            for (at, tier, seed) in changes {
                                values[at.index(count)] = value_of(tier, seed);
                            }
                        }
                        encode(&values)
                    })
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(256))]

                #[test]
                fn periodic_streams_decode_like_decode(
                    input in stream(),
                    out_len in 0usize..420,
                    cut in any::<prop::sample::Index>(),
                ) {
                    check(&input, out_len);
                    check(&input[..cut.index(input.len() + 1)], out_len);
                }
            }
        }
    };
}

periodic_batch_suite!(b32, bijou32, u32);
periodic_batch_suite!(b64, bijou64, u64);
periodic_batch_suite!(b128, bijou128, u128);
