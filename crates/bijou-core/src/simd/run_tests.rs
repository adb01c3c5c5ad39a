//! Every run path available here (bijou64's runs of one tier) against
//! `bijou64::decode`, on the same inputs.

use super::VectorProgress;
use super::run_loop::{FREE_OTHERS, OTHER_SPACING};
use crate::bijou64::{self, THRESHOLD};
use proptest::prelude::*;
use std::{vec, vec::Vec};

/// A `decode_run`.
type DecodeRun = fn(&[u8], &mut [u64], u8) -> VectorProgress;

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
/// and bytes; values of other tiers only after one with `tag`, each
/// counted as two length changes; and a stop only where the next value
/// has another tag after one that had (or at the start) or overflows,
/// values of other tiers came too often, or
/// `input` or `out` runs short of a whole step.
fn agrees_with_decode(path: &RunPath, input: &[u8], out_len: usize, tag: u8) {
    let name = path.name;
    let mut out = vec![0u64; out_len];
    let progress = (path.decode_run)(input, &mut out, tag);
    let written = progress.written;
    let (mut at, mut others, mut after_other) = (0, 0, true);
    for (k, &value) in out[..written].iter().enumerate() {
        let other = input[at] != tag;
        assert!(!(other && after_other), "{name}: value {k} of {input:02X?}");
        let (want, len) = bijou64::decode(&input[at..]).expect("a taken value decodes");
        assert_eq!(
            value, want,
            "{name}: value {k} at byte {at} of {input:02X?}"
        );
        others += usize::from(other);
        after_other = other;
        at += len;
    }
    assert_eq!(progress.consumed, at, "{name}: {input:02X?}");
    assert_eq!(progress.length_changes, 2 * others, "{name}: {input:02X?}");
    let too_many = after_other && others > FREE_OTHERS && others * OTHER_SPACING > written;
    if input.len() - at >= path.read && out_len - written >= path.values && !too_many {
        let here = &input[at..];
        assert!(
            (here[0] != tag && after_other) || bijou64::decode(here).is_err(),
            "{name}: stopped at byte {at} of {input:02X?} for no reason"
        );
    }
}

/// Values of one tier, some of them replaced by a value of another.
fn run() -> impl Strategy<Value = (u8, Vec<u8>)> {
    (
        1usize..=8,
        proptest::collection::vec((any::<u64>(), 0u8..20), 0..80),
        1u8..8,
    )
        .prop_map(|(tier, picks, others)| {
            let tag = THRESHOLD - 1 + tier as u8;
            let span = bijou64::OFFSETS
                .get(tier + 1)
                .map_or(u64::MAX, |&end| end - 1)
                - bijou64::OFFSETS[tier];
            let values: Vec<u64> = picks
                .iter()
                .map(|&(bits, pick)| match pick < others {
                    true => bits >> (bits % 64),
                    false => bijou64::OFFSETS[tier] + bits % span.saturating_add(1).max(1),
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
/// right before it.
#[test]
fn an_overflow_stops_the_run_before_it() {
    for path in paths() {
        for at in 0..24 {
            let mut input = Vec::new();
            bijou64::encode_batch(&[u64::MAX - 5; 24], &mut input);
            input[at * 9 + 1..at * 9 + 9].fill(0xFF);
            input.extend(vec![0; path.read]);
            agrees_with_decode(&path, &input, 24, 0xFF);
            let mut out = [0u64; 24];
            let progress = (path.decode_run)(&input, &mut out, 0xFF);
            assert_eq!(
                (progress.consumed, progress.written),
                (at * 9, at),
                "{}",
                path.name
            );
        }
    }
}

/// A value of another tier at every place of a top-tier run, itself
/// overflowing or not: the run takes it and goes on, or stops right
/// before it.
#[test]
fn a_value_of_another_tier_is_taken_inside_the_run() {
    for path in paths() {
        for at in 1..24 {
            for other in [0u64, 247, 248, 70_000, 1 << 40] {
                let mut values = vec![u64::MAX - 5; 32];
                values[at] = other;
                let mut input = Vec::new();
                bijou64::encode_batch(&values, &mut input);
                agrees_with_decode(&path, &input, 32, 0xFF);
                let mut out = [0u64; 32];
                let progress = (path.decode_run)(&input, &mut out, 0xFF);
                assert!(progress.written > at, "{}: {other} at {at}", path.name);
                assert_eq!(out[at], other, "{}", path.name);
            }
        }
    }
}
