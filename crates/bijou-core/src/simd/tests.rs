//! Every vector path available here against the width's `decode`, on
//! the same inputs: value by value, bytes consumed, length changes, and a
//! stop short of `limit` only before an overflow or at the end. One suite
//! per width.

use super::VectorProgress;
use proptest::prelude::*;
use std::{vec, vec::Vec};

macro_rules! vector_path_suite {
    ($suite:ident, $width:ident, $uint:ty) => {
        mod $suite {
            use super::*;
            use crate::$width;

        /// A vector path: its `decode_windows`, its chunk (bytes, and slots of
        /// `out` it needs) and the bytes a chunk's step reads.
        struct Path {
            name: &'static str,
            decode_windows: fn(&[u8], &mut [$uint], usize) -> VectorProgress,
            lanes: usize,
            read: usize,
        }

        /// The paths this CPU has (none is skipped silently: the names print
        /// once).
        fn paths() -> Vec<Path> {
            let mut paths = Vec::new();
            if crate::simd::avx512::Avx512Vbmi::detect().is_some() {
                paths.push(Path {
                    name: "avx512-vbmi",
                    decode_windows: |input, out, limit| {
                        let token = crate::simd::avx512::Avx512Vbmi::detect().expect("detected above");
                        token.decode_windows(input, out, limit)
                    },
                    lanes: crate::simd::avx512::LANES,
                    read: crate::simd::avx512::READ,
                });
            }
            static NAMED: std::sync::Once = std::sync::Once::new();
            NAMED.call_once(|| {
                let names: Vec<_> = paths.iter().map(|path| path.name).collect();
                std::println!("vector paths tested for {}: {names:?}", stringify!($width));
            });
            paths
        }

        /// `decode_windows` on `input` against `$width::decode` value after
        /// value: the same values and bytes, the same length changes, nothing
        /// but the stream's next values written past those it reports (so the
        /// batch's output stays the portable loop's), and a stop before `limit` only
        /// with less than a step's bytes or a chunk's slots left or an overflow
        /// in the next chunk. `out` has `spare` slots past `limit`, which the
        /// last chunk may fill.
        fn agrees_with_decode(path: &Path, input: &[u8], limit: usize, spare: usize) {
            const UNTOUCHED: $uint = 0x5EED_5EED_5EED_5EED_u64 as $uint;
            let name = path.name;
            let mut out = vec![UNTOUCHED; limit + spare];
            let got = (path.decode_windows)(input, &mut out, limit);
            assert!(got.written <= out.len(), "{name}: {input:02X?}");
            let (mut at, mut changes, mut previous_len) = (0, 0, 0);
            for (k, &value) in out[..got.written].iter().enumerate() {
                let (want, len) = $width::decode(&input[at..]).expect("a taken value decodes");
                assert_eq!(
                    value, want,
                    "{name}: value {k} at byte {at} of {input:02X?}"
                );
                changes += usize::from(len != previous_len);
                (at, previous_len) = (at + len, len);
            }
            // Past them, only the values that follow (which the portable loop
            // then writes again), up to the first that does not decode.
            let mut after = at;
            for (k, &slot) in out.iter().enumerate().skip(got.written) {
                let next = $width::decode(&input[after..]).ok();
                if let Some((_, len)) = next {
                    after += len;
                }
                assert!(
                    slot == UNTOUCHED || next.is_some_and(|(value, _)| value == slot),
                    "{name}: wrote {slot:#X} to slot {k}, past its {} values of {input:02X?}",
                    got.written
                );
            }
            assert_eq!(got.consumed, at, "{name}: {input:02X?}");
            assert_eq!(got.length_changes, changes, "{name}: {input:02X?}");
            let room = out.len() - got.written >= path.lanes;
            if got.written < limit && room && input.len() - at >= path.read {
                // The next chunk starts at most 8 bytes before `at`.
                let mut next = at;
                let overflow = loop {
                    match $width::decode(&input[next..]) {
                        Ok((_, len)) if next < at + path.lanes => next += len,
                        Ok(_) => break false,
                        Err(error) => break error == crate::DecodeError::Overflow,
                    }
                };
                assert!(
                    overflow,
                    "{name}: stopped at byte {at} of {input:02X?} with no overflow ahead"
                );
            }
        }

        fn each_path_agrees(input: &[u8], limit: usize, spare: usize) {
            for path in paths() {
                agrees_with_decode(&path, input, limit, spare);
            }
        }

        /// Bytes with tags of every tier common (uniform bytes are 97% single
        /// values), and all-`FF` runs for overflows.
        fn stream() -> impl Strategy<Value = Vec<u8>> {
            proptest::collection::vec(
                prop_oneof![4 => any::<u8>(), 4 => $width::THRESHOLD - 1..=0xFF, 1 => Just(0xFF)],
                0..400,
            )
        }

        /// Mostly single bytes, so most chunks hold as many values as they can.
        fn dense_stream() -> impl Strategy<Value = Vec<u8>> {
            proptest::collection::vec(prop_oneof![12 => 0u8..$width::THRESHOLD, 1 => $width::THRESHOLD..=0xFF], 0..400)
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(512))]

            #[test]
            fn windows_decode_like_decode(input in stream(), limit in 0usize..200, spare in 0usize..100) {
                each_path_agrees(&input, limit, spare);
            }

            #[test]
            fn dense_windows_decode_like_decode(input in dense_stream(), limit in 0usize..300, spare in 0usize..200) {
                each_path_agrees(&input, limit, spare);
            }
        }

        /// Every tier in every position of a chunk: each tier's first and last
        /// value, shifted by 0..9 single bytes so each straddles a chunk's end at
        /// every offset.
        #[test]
        fn every_tier_at_every_offset() {
            let mut values = Vec::new();
            for tier in 1..$width::MAX_BYTES {
                values.extend([$width::OFFSETS[tier], $width::OFFSETS[tier] - 1]);
            }
            values.extend([0, <$uint>::MAX]);
            for shift in 0..$width::MAX_BYTES {
                let mut input = vec![7u8; shift];
                for _ in 0..8 {
                    $width::encode_batch(&values, &mut input);
                }
                for limit in [1, 7, 8, 9, 15, 16, 17, 63, 64, 1000] {
                    for spare in [0, 1, 16, 64] {
                        each_path_agrees(&input, limit, spare);
                    }
                }
            }
        }

        /// The top tier's largest payload, and the next, which overflows
        /// (for bijou128 by the low half's carry alone), at every place of
        /// a chunk.
        #[test]
        fn the_top_tier_edge() {
            let top = <$uint>::MAX - $width::OFFSETS[$width::MAX_BYTES - 1];
            for payload in [top, top + 1] {
                for shift in 0..crate::simd::avx512::LANES {
                    let mut input = vec![1u8; shift];
                    input.push(0xFF);
                    input.extend_from_slice(&payload.to_be_bytes());
                    input.extend([2u8; 200]);
                    each_path_agrees(&input, 300, 0);
                }
            }
        }

        /// An overflow anywhere in a chunk stops the step before the chunk,
        /// after values of every tier.
        #[test]
        fn an_overflow_stops_before_its_chunk() {
            for lead in [0x01, $width::THRESHOLD, $width::THRESHOLD + 2, 0xFE] {
                for at in 0..80 {
                    let mut input = Vec::new();
                    while input.len() < at {
                        $width::encode_batch(
                            &[$width::decode(&[lead; $width::MAX_BYTES]).map_or(1, |(v, _)| v)],
                            &mut input,
                        );
                    }
                    input.extend([0xFF; $width::MAX_BYTES]);
                    input.extend([0x02; 80]);
                    each_path_agrees(&input, 200, 0);
                }
            }
        }
        }
    };
}

vector_path_suite!(b32, bijou32, u32);
vector_path_suite!(b64, bijou64, u64);
vector_path_suite!(b128, bijou128, u128);
