//! Every run path available here (bijou64's runs of one tier) against
//! `bijou64::decode`, on the same inputs.

use crate::bijou64::{self, THRESHOLD};
use proptest::prelude::*;
use std::{vec, vec::Vec};

/// A `decode_run`: (input, out, tag) to (bytes consumed, values written).
type DecodeRun = fn(&[u8], &mut [u64], u8) -> (usize, usize);

/// A run path: its `decode_run`, the values a step decodes and the bytes
/// a step reads.
struct RunPath {
    name: &'static str,
    decode_run: DecodeRun,
    values: usize,
    read: usize,
}

/// The run paths this CPU has (the names print once).
fn paths() -> Vec<RunPath> {
    let mut paths = Vec::new();
    #[cfg(bijou_avx512)]
    if super::avx512::Avx512Vbmi::detect().is_some() {
        paths.push(RunPath {
            name: "avx512-vbmi",
            decode_run: |input, out, tag| {
                let token = super::avx512::Avx512Vbmi::detect().expect("detected above");
                token.decode_run(input, out, tag)
            },
            values: super::avx512_run::VALUES,
            read: super::avx512_run::READ,
        });
    }
    if super::avx2_run::Avx2::detect().is_some() {
        paths.push(RunPath {
            name: "avx2",
            decode_run: |input, out, tag| {
                let token = super::avx2_run::Avx2::detect().expect("detected above");
                token.decode_run(input, out, tag)
            },
            values: super::avx2_run::VALUES,
            read: super::avx2_run::READ,
        });
    }
    static NAMED: std::sync::Once = std::sync::Once::new();
    NAMED.call_once(|| {
        let names: Vec<_> = paths.iter().map(|path| path.name).collect();
        std::println!("run paths tested: {names:?}");
    });
    paths
}

/// `decode_run` on `input` against `bijou64::decode`: the same values
/// and bytes, whole steps, each value with `tag`, and a stop only where
/// the next step's values are not all `tag`, one overflows, or `input` or
/// `out` runs short.
fn agrees_with_decode(path: &RunPath, input: &[u8], out_len: usize, tag: u8) {
    let name = path.name;
    let mut out = vec![0u64; out_len];
    let (consumed, written) = (path.decode_run)(input, &mut out, tag);
    assert_eq!(written % path.values, 0, "{name}");
    let mut at = 0;
    for (k, &value) in out[..written].iter().enumerate() {
        assert_eq!(input[at], tag, "{name}: value {k} of {input:02X?}");
        let (want, len) = bijou64::decode(&input[at..]).expect("a taken value decodes");
        assert_eq!(
            value, want,
            "{name}: value {k} at byte {at} of {input:02X?}"
        );
        at += len;
    }
    assert_eq!(consumed, at, "{name}: {input:02X?}");
    if input.len() - at >= path.read && out_len - written >= path.values {
        let len = bijou64::len_from_tag(tag);
        let stop = (0..path.values).any(|k| {
            let here = &input[at + k * len..];
            here[0] != tag || bijou64::decode(here).is_err()
        });
        assert!(
            stop,
            "{name}: stopped at byte {at} of {input:02X?} for no reason"
        );
    }
}

/// Values of one tier, some of them replaced by a value of another.
fn run() -> impl Strategy<Value = (u8, Vec<u8>)> {
    (
        1usize..=8,
        proptest::collection::vec((any::<u64>(), 0u8..20), 0..80),
    )
        .prop_map(|(tier, picks)| {
            let tag = THRESHOLD - 1 + tier as u8;
            let span = bijou64::OFFSETS
                .get(tier + 1)
                .map_or(u64::MAX, |&end| end - 1)
                - bijou64::OFFSETS[tier];
            let values: Vec<u64> = picks
                .iter()
                .map(|&(bits, odd)| match odd {
                    0 => bits >> (bits % 64),
                    _ => bijou64::OFFSETS[tier] + bits % span.saturating_add(1).max(1),
                })
                .collect();
            let mut input = Vec::new();
            bijou64::encode_batch(&values, &mut input);
            (tag, input)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn runs_decode_like_decode((tag, input) in run(), out_len in 0usize..80) {
        for path in paths() {
            agrees_with_decode(&path, &input, out_len, tag);
        }
    }
}

/// Top-tier runs with an overflowing value at every place: the run stops
/// before the step that holds it.
#[test]
fn an_overflow_stops_the_run_before_its_step() {
    for path in paths() {
        for at in 0..24 {
            let mut input = Vec::new();
            bijou64::encode_batch(&[u64::MAX - 5; 24], &mut input);
            input[at * 9 + 1..at * 9 + 9].fill(0xFF);
            input.extend(vec![0; path.read]);
            agrees_with_decode(&path, &input, 24, 0xFF);
            let mut out = [0u64; 24];
            let (consumed, written) = (path.decode_run)(&input, &mut out, 0xFF);
            let steps = at / path.values;
            assert_eq!(
                (consumed, written),
                (steps * path.values * 9, steps * path.values),
                "{}",
                path.name
            );
        }
    }
}
