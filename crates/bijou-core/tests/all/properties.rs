//! Property tests of the format's promises, per width, against the naive
//! oracle in `testkit`: round trip, bijection, byte order equals numeric
//! order, length from the tag, and the tier boundaries.

use bijou_core::{BatchDecodeError, Bijou, EncodeError};
use proptest::prelude::*;
use testkit::oracle::Width;

/// A small deterministic hash for generated value streams.
fn mix(seed: u64, i: usize) -> u64 {
    let mut z = seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        ..ProptestConfig::default()
    }
}

fn check_batch<T: Bijou>(input: &[u8], limit: usize) {
    let mut got = vec![T::default(); limit];
    let mut want = vec![T::default(); limit];
    testkit::oracle::assert_batch_agrees(input, &mut got, &mut want, core::any::type_name::<T>());
}

/// `values` through `encode_batch`, checked equal to their encodings one by
/// one, then `junk`.
fn batch_input<T: Copy>(
    values: &[T],
    junk: &[u8],
    encode_batch: fn(&[T], &mut Vec<u8>),
    encode: fn(T, &mut Vec<u8>),
) -> Vec<u8> {
    let mut input = Vec::new();
    encode_batch(values, &mut input);
    let mut concatenated = Vec::new();
    for &v in values {
        encode(v, &mut concatenated);
    }
    assert_eq!(input, concatenated, "encode_batch");
    input.extend_from_slice(junk);
    input
}

macro_rules! unsigned_suite {
    ($suite:ident, $module:ident, $uint:ty, $oracle:expr) => {
        mod $suite {
            use super::*;
            use bijou_core::$module;

            /// A stretch of values: all of one tier (`Some(tier)`) or of mixed
            /// lengths (`None`), drawn from a seed.
            fn segment() -> impl Strategy<Value = (Option<usize>, u64)> {
                (proptest::option::of(0..$module::OFFSETS.len()), any::<u64>())
            }

            /// Value `i` of a [`segment`].
            fn segment_value((tier, seed): (Option<usize>, u64), i: usize) -> $uint {
                let h = mix(seed, i);
                match tier {
                    Some(tier) => {
                        // Measured from either end of the tier, so that runs
                        // hold its last values (up to MAX) as well as its first,
                        // even where the tier is wider than `h`.
                        let start = $module::OFFSETS[tier];
                        let last = $module::OFFSETS.get(tier + 1).map_or(<$uint>::MAX, |&end| end - 1);
                        let offset = ((h >> 1) as $uint) % (last - start).saturating_add(1);
                        if h & 1 == 0 { start + offset } else { last - offset }
                    }
                    None => (<$uint>::MAX >> (h % u64::from(<$uint>::BITS))) & (h as $uint).wrapping_mul(0x9E37_79B9),
                }
            }

            /// Values spread over the tiers, with extra weight on tier edges
            /// (the signed suites unzigzag these, so theirs cover every tier too).
            pub(super) fn value() -> impl Strategy<Value = $uint> {
                let edge = (1..$module::OFFSETS.len(), -2i8..=2).prop_map(|(tier, delta)| {
                    $module::OFFSETS[tier].wrapping_add_signed(delta as _)
                });
                let bits = (0..<$uint>::BITS).prop_flat_map(|b| (0..=<$uint>::MAX >> b));
                prop_oneof![any::<$uint>(), bits, edge, Just(<$uint>::MAX), Just(0)]
            }

            #[test]
            fn every_tier_boundary_matches_the_oracle() {
                let oracle = $oracle;
                for &offset in $module::OFFSETS.iter().chain([<$uint>::MAX].iter()) {
                    for value in [offset.wrapping_sub(1), offset, offset.wrapping_add(1)] {
                        let want = oracle.encode(value.into());
                        let (bytes, len) = $module::encode_array(value);
                        assert_eq!(&bytes[..len], &want[..], "encode {value}");
                        assert_eq!($module::decode(&want), Ok((value, want.len())), "decode {want:02X?}");
                    }
                }
                // Each tier boundary moves to the next length.
                for tier in 1..$module::OFFSETS.len() {
                    assert_eq!($module::encoded_len($module::OFFSETS[tier]), tier + 1);
                    assert_eq!($module::encoded_len($module::OFFSETS[tier] - 1), tier);
                }
            }

            #[test]
            fn offsets_follow_the_spec_recurrence() {
                let oracle = $oracle;
                let ours: Vec<u128> = $module::OFFSETS.iter().map(|&o| o.into()).collect();
                assert_eq!(ours, oracle.offsets());
            }

            #[test]
            fn every_one_and_two_byte_string_matches_the_oracle() {
                let oracle = $oracle;
                for len in 1..=2 {
                    testkit::exhaustive::decode_all_strings::<$uint>(&oracle, len).unwrap();
                }
            }

            #[test]
            fn short_output_is_an_error_and_untouched() {
                let mut out = [0xAAu8; $module::MAX_BYTES];
                let needed = $module::MAX_BYTES;
                // Every short length, so `needed` and `available` cannot be
                // told apart by their difference alone.
                for available in 0..needed {
                    assert_eq!(
                        $module::encode_into(<$uint>::MAX, &mut out[..available]),
                        Err(EncodeError::BufferTooSmall { needed, available })
                    );
                }
                assert_eq!(
                    $module::encode_into(300, &mut []),
                    Err(EncodeError::BufferTooSmall { needed: 2, available: 0 })
                );
                assert!(out.iter().all(|&b| b == 0xAA));
            }

            proptest! {
                #![proptest_config(config())]

                #[test]
                fn round_trip(value in value()) {
                    let mut out = Vec::new();
                    $module::encode(value, &mut out);
                    prop_assert_eq!(&out[..], &$oracle.encode(value.into())[..]);
                    prop_assert_eq!(out.len(), $module::encoded_len(value));
                    prop_assert_eq!($module::len_from_tag(out[0]), out.len());
                    prop_assert_eq!($module::decode(&out), Ok((value, out.len())));
                    let mut fixed = [0u8; $module::MAX_BYTES];
                    prop_assert_eq!($module::encode_into(value, &mut fixed), Ok(out.len()));
                    prop_assert_eq!(&fixed[..out.len()], &out[..]);
                }

                /// Any slice shorter than the encoding: an error carrying
                /// both lengths, and nothing written.
                #[test]
                fn short_output_reports_both_lengths(value in value(), cut in any::<proptest::sample::Index>()) {
                    let needed = $module::encoded_len(value);
                    let available = cut.index(needed);
                    let mut out = [0xAAu8; $module::MAX_BYTES];
                    prop_assert_eq!(
                        $module::encode_into(value, &mut out[..available]),
                        Err(EncodeError::BufferTooSmall { needed, available })
                    );
                    prop_assert!(out.iter().all(|&b| b == 0xAA));
                }

                #[test]
                fn any_bytes_decode_like_the_oracle_and_re_encode_exactly(
                    input in proptest::collection::vec(any::<u8>(), 0..=$module::MAX_BYTES + 2)
                ) {
                    match ($module::decode(&input), $oracle.decode(&input)) {
                        (Ok((value, used)), Ok((want, want_used))) => {
                            prop_assert_eq!((u128::from(value), used), (want, want_used));
                            let (bytes, len) = $module::encode_array(value);
                            prop_assert_eq!(&bytes[..len], &input[..used]);
                        }
                        (Err(ours), Err(oracle)) => prop_assert!(oracle.matches(ours), "{:?} vs {:?}", ours, oracle),
                        (ours, oracle) => prop_assert!(false, "{:?} vs {:?}", ours, oracle),
                    }
                }

                #[test]
                fn byte_order_is_numeric_order(a in value(), b in value()) {
                    let (ea, la) = $module::encode_array(a);
                    let (eb, lb) = $module::encode_array(b);
                    prop_assert_eq!(ea[..la].cmp(&eb[..lb]), a.cmp(&b));
                    // `Encoded` orders and compares as its bytes do.
                    prop_assert_eq!(a.encoded().cmp(&b.encoded()), a.cmp(&b));
                    prop_assert_eq!(a.encoded() == eb[..lb], a == b);
                }

                #[test]
                fn long_batches_equal_repeated_decode(
                    segments in proptest::collection::vec((segment(), 1usize..300), 1..8),
                    limit in 0usize..2000,
                    cuts in proptest::collection::vec(any::<proptest::sample::Index>(), 4),
                ) {
                    // Long runs of one length and stretches of mixed lengths,
                    // so the batch decoder's single-byte runs, tier runs and
                    // branch-free blocks (and the switches between them) are
                    // all exercised.
                    let mut values = Vec::new();
                    for (pick, count) in segments {
                        values.extend((0..count).map(|i| segment_value(pick, i)));
                    }
                    let mut input = Vec::new();
                    $module::encode_batch(&values, &mut input);
                    let mut out = vec![0; values.len()];
                    prop_assert_eq!($module::decode_batch(&input, &mut out), Ok((values.len(), input.len())));
                    prop_assert_eq!(&out, &values);
                    check_batch::<$uint>(&input, limit);
                    for cut in input.len().saturating_sub(2 * $module::MAX_BYTES)..input.len() {
                        check_batch::<$uint>(&input[..cut], limit);
                    }
                    for cut in cuts {
                        check_batch::<$uint>(&input[..cut.index(input.len() + 1)], values.len());
                    }
                }

                #[test]
                fn batch_equals_repeated_decode_at_every_cut(
                    values in proptest::collection::vec(value(), 0..12),
                    junk in proptest::collection::vec(any::<u8>(), 0..6),
                    limit in 0usize..16,
                ) {
                    let input = batch_input(&values, &junk, $module::encode_batch, $module::encode);
                    for cut in 0..=input.len() {
                        check_batch::<$uint>(&input[..cut], limit);
                    }
                }
            }

            /// The batch codecs' shortcuts for runs of single-byte values
            /// test several values at once with bit tricks; the values from
            /// THRESHOLD to 255 fit a byte but are not single-byte values
            /// (as bytes they are tags), so each is tried at each place of
            /// an 8-value group, and runs of each such tag are decoded.
            /// Random values almost never form these runs.
            #[test]
            fn bytes_from_the_threshold_up_are_not_single_byte_values() {
                for v in $module::THRESHOLD as $uint..=255 {
                    for position in 0..8 {
                        let mut group = [1 as $uint; 8];
                        group[position] = v;
                        batch_input(&group, &[], $module::encode_batch, $module::encode);
                    }
                    // 64 bytes: the decoder's 16-byte blocks, whole.
                    check_batch::<$uint>(&[v as u8; 64], 64);
                }
                // A tier-1 tag is its own payload: 16 bytes are 8 values.
                let mut out = [0 as $uint; 16];
                let tag = $module::THRESHOLD;
                assert_eq!($module::decode_batch(&[tag; 16], &mut out), Ok((8, 16)));
                assert_eq!(out[..8], [$module::OFFSETS[1] + <$uint>::from(tag); 8]);
            }
        }
    };
}

unsigned_suite!(b32, bijou32, u32, Width::b32());
unsigned_suite!(b64, bijou64, u64, Width::b64());
unsigned_suite!(b128, bijou128, u128, Width::b128());

macro_rules! signed_suite {
    ($suite:ident, $module:ident, $int:ty, $unsigned:ident, $unsigned_suite:ident, $oracle:expr) => {
        mod $suite {
            use super::*;
            use bijou_core::{$module, $unsigned};

            /// Signed values whose zigzag images spread over every tier
            /// and its edges; plain `any::<$int>()` is nearly always in
            /// the top tier.
            fn value() -> impl Strategy<Value = $int> {
                prop_oneof![super::$unsigned_suite::value().prop_map($module::unzigzag), any::<$int>()]
            }

            #[test]
            fn extremes_and_small_magnitudes() {
                for value in [0, -1, 1, <$int>::MIN, <$int>::MAX, <$int>::MIN + 1, <$int>::MAX - 1] {
                    let (bytes, len) = $module::encode_array(value);
                    assert_eq!($module::decode(&bytes[..len]), Ok((value, len)));
                }
                // Threshold/2 magnitudes fit one byte: [-H/2, H/2 - 1].
                let half = <$int>::from($unsigned::THRESHOLD / 2);
                assert_eq!($module::encoded_len(-half), 1);
                assert_eq!($module::encoded_len(half - 1), 1);
                assert_eq!($module::encoded_len(-half - 1), 2);
                assert_eq!($module::encoded_len(half), 2);
            }

            proptest! {
                #![proptest_config(config())]

                #[test]
                fn round_trip_and_zigzag(value in value()) {
                    let zigzagged = $module::zigzag(value);
                    let oracle_zigzag = testkit::oracle::zigzag(value.into(), <$int>::BITS);
                    prop_assert_eq!(u128::from(zigzagged), oracle_zigzag);
                    prop_assert_eq!(i128::from($module::unzigzag(zigzagged)), testkit::oracle::unzigzag(zigzagged.into()));
                    let mut out = Vec::new();
                    $module::encode(value, &mut out);
                    // The spec's signed form, built by the oracle alone.
                    prop_assert_eq!(&out, &$oracle.encode(oracle_zigzag));
                    prop_assert_eq!($module::len_from_tag(out[0]), out.len());
                    prop_assert_eq!($module::decode(&out), Ok((value, out.len())));
                }

                #[test]
                fn byte_order_is_zigzag_order(a in value(), b in value()) {
                    let (ea, la) = $module::encode_array(a);
                    let (eb, lb) = $module::encode_array(b);
                    prop_assert_eq!(ea[..la].cmp(&eb[..lb]), $module::zigzag(a).cmp(&$module::zigzag(b)));
                    prop_assert_eq!(a.encoded().cmp(&b.encoded()), ea[..la].cmp(&eb[..lb]));
                }

                #[test]
                fn batch_equals_repeated_decode(input in proptest::collection::vec(any::<u8>(), 0..40), limit in 0usize..80) {
                    check_batch::<$int>(&input, limit);
                }
            }

            proptest! {
                #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

                /// Batches of up to 2 600 values (many blocks of the unsigned
                /// decoder beneath), ended by junk that may cut or overflow
                /// the last value; and the
                /// signed `encode_batch` is the values' encodings in a row.
                #[test]
                fn long_batches_equal_repeated_decode(
                    values in proptest::collection::vec(prop_oneof![any::<$int>(), (-300..300).prop_map(|v: i32| v as $int)], 0..2600),
                    junk in proptest::collection::vec(any::<u8>(), 0..12),
                    spare in 0usize..600,
                ) {
                    let input = batch_input(&values, &junk, $module::encode_batch, $module::encode);
                    check_batch::<$int>(&input, values.len() + spare);
                    check_batch::<$int>(&input, values.len().saturating_sub(spare));
                }
            }
        }
    };
}

signed_suite!(s32, bijou32s, i32, bijou32, b32, Width::b32());
signed_suite!(s64, bijou64s, i64, bijou64, b64, Width::b64());
signed_suite!(s128, bijou128s, i128, bijou128, b128, Width::b128());

#[test]
fn signed_batch_reports_overflow_offset_after_many_values() {
    // Values converted in place up to the bad one, none after it.
    let mut input = vec![0x02; 1500];
    input.extend_from_slice(&[0xFF; 9]);
    let mut out = [0i64; 2000];
    assert_eq!(
        bijou_core::bijou64s::decode_batch(&input, &mut out),
        Err(BatchDecodeError::Overflow {
            offset: 1500,
            written: 1500
        })
    );
    assert!(out[..1500].iter().all(|&v| v == 1));
}

/// Overflow deep inside a batch, after a predictable stretch (branchy
/// loop) and after a mixed stretch (branch-free loop), for every width.
/// The mixed stretch changes length at every value, far above the switch
/// threshold (16 changes in a block of 128), in every width.
macro_rules! overflow_after_stretch {
    ($test:ident, $module:ident, $uint:ty) => {
        #[test]
        fn $test() {
            use bijou_core::$module;
            let predictable: Vec<$uint> = (0..500).map(|i| $module::OFFSETS[2] + i).collect();
            let mixed: Vec<$uint> = (0..500)
                .map(|i| match (i % 2, mix(7, i)) {
                    (0, random) => (random % 200) as $uint,
                    (_, random) => <$uint>::MAX >> (random % 8),
                })
                .collect();
            for stretch in [predictable, mixed] {
                let mut input = Vec::new();
                $module::encode_batch(&stretch, &mut input);
                let offset = input.len();
                input.extend_from_slice(&[0xFF; $module::MAX_BYTES]);
                input.extend_from_slice(&[0; 64]);
                let mut out = vec![0; 1000];
                assert_eq!(
                    $module::decode_batch(&input, &mut out),
                    Err(BatchDecodeError::Overflow {
                        offset,
                        written: stretch.len()
                    })
                );
                assert_eq!(&out[..stretch.len()], &stretch[..]);
            }
        }
    };
}

overflow_after_stretch!(overflow_after_stretch_32, bijou32, u32);
overflow_after_stretch!(overflow_after_stretch_64, bijou64, u64);
overflow_after_stretch!(overflow_after_stretch_128, bijou128, u128);
