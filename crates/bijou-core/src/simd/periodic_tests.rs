//! The AVX-512 record loop (`avx512_periodic`) against `bijou64::decode`,
//! on the same inputs: every period of every tier mix, at every phase,
//! with a different tag or an overflow at every place.

use super::avx512::Avx512Vbmi;
use super::avx512_periodic::{READ, RecordPlan};
use crate::bijou64;
use crate::periodic::{MAX_RECORD_BYTES, MAX_VALUES, Period};
use proptest::prelude::*;
use std::{vec, vec::Vec};

/// The period of `tiers`, if a record of them fits the loop.
fn period(tiers: &[u8]) -> Option<Period> {
    let bytes = tiers.iter().map(|&tier| 1 + usize::from(tier)).sum();
    let mut record = [0; MAX_VALUES];
    record[..tiers.len()].copy_from_slice(tiers);
    (bytes <= MAX_RECORD_BYTES).then_some(Period {
        values: tiers.len(),
        bytes,
        tiers: record,
    })
}

/// `decode_records` of `period` on `input` against `bijou64::decode`:
/// the same values and bytes, and a stop before `limit` only with less
/// than a load or a step's slots left, before a value that does not
/// decode, or before a step holding another tier or an overflow.
fn agrees_with_decode(period: &Period, input: &[u8], out_len: usize, limit: usize) {
    let Some(token) = Avx512Vbmi::detect() else {
        return;
    };
    let plan = RecordPlan::new(period);
    let mut out = vec![0u64; out_len];
    let (consumed, written) = token.decode_records(input, &mut out, limit, &plan);
    assert!(written <= out_len && (written < limit.saturating_add(plan.values()) || written == 0));
    let mut at = 0;
    for (k, &value) in out[..written].iter().enumerate() {
        let (want, len) = bijou64::decode(&input[at..]).expect("a taken value decodes");
        assert_eq!(value, want, "value {k} at byte {at} of {input:02X?}");
        at += len;
    }
    assert_eq!(consumed, at, "{input:02X?}");
    if written < limit.min(out_len)
        && input.len() - at >= READ
        && out_len - written >= plan.values()
    {
        let differs = bijou64::decode(&input[at..]).is_err()
            || (0..plan.values()).any(|k| {
                let tier = period.tiers[k % period.values];
                let here = &input[at..];
                let ok = bijou64::len_from_tag(here[0]) == 1 + usize::from(tier)
                    && bijou64::decode(here).is_ok();
                at += 1 + usize::from(tier);
                !ok
            });
        assert!(
            differs,
            "stopped at byte {consumed} of {input:02X?} for no reason"
        );
    }
}

/// A value of `tier` from `seed`: its first, its last, or one between.
fn value_of(tier: usize, seed: u64) -> u64 {
    let first = bijou64::OFFSETS[tier];
    let last = bijou64::OFFSETS
        .get(tier + 1)
        .map_or(u64::MAX, |&next| next - 1);
    match seed % 3 {
        0 => first,
        1 => last,
        _ => first + seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) % (last - first + 1),
    }
}

fn encode(tiers: &[u8], count: usize, seed: u64) -> (Vec<u64>, Vec<u8>) {
    let values: Vec<u64> = (0..count)
        .map(|i| {
            value_of(
                usize::from(tiers[i % tiers.len()]),
                seed.wrapping_add(i as u64 * 7),
            )
        })
        .collect();
    let mut input = Vec::new();
    bijou64::encode_batch(&values, &mut input);
    (values, input)
}

#[test]
fn every_period_and_tier_mix_at_every_phase() {
    for p in 1..=MAX_VALUES {
        // All mixes of one and two values, a spread of the longer ones.
        let count = 9usize.pow(p.min(3) as u32).min(200);
        for n in 0..count {
            let mut code = if p <= 2 {
                n
            } else {
                n.wrapping_mul(0x9E37_79B9) >> 3
            };
            let tiers: Vec<u8> = (0..p)
                .map(|_| {
                    let tier = (code % 9) as u8;
                    code /= 9;
                    tier
                })
                .collect();
            for phase in 0..p {
                let mut rotated = tiers.clone();
                rotated.rotate_left(phase);
                let Some(period) = period(&rotated) else {
                    continue;
                };
                let (values, input) = encode(&rotated, 12 * p + 3, n as u64);
                agrees_with_decode(&period, &input, values.len(), values.len());
                agrees_with_decode(&period, &input, values.len(), 5);
                agrees_with_decode(&period, &input, p + 1, usize::MAX);
            }
        }
    }
}

#[test]
fn a_different_tag_or_an_overflow_stops_before_its_step() {
    let shapes: [&[u8]; 4] = [&[2, 0, 0, 6, 8], &[8, 0], &[0, 1, 2, 3, 4, 5, 6, 7], &[8]];
    for tiers in shapes {
        let period = period(tiers).expect("fits");
        let (values, input) = encode(tiers, 60, 3);
        let mut starts = vec![0];
        for &value in &values {
            starts.push(starts.last().unwrap() + bijou64::encoded_len(value));
        }
        for (at, &start) in starts[..values.len()].iter().enumerate() {
            for tag in [0x00, 0xF8, 0xFC, 0xFF] {
                let mut changed = input.clone();
                changed[start] = tag;
                agrees_with_decode(&period, &changed, values.len(), values.len());
            }
            if input[start] == 0xFF {
                let mut changed = input.clone();
                changed[start + 1..start + 9].fill(0xFF);
                agrees_with_decode(&period, &changed, values.len(), values.len());
                let token = Avx512Vbmi::detect();
                if let Some(token) = token {
                    let plan = RecordPlan::new(&period);
                    let (_, written) = token.decode_records(
                        &changed,
                        &mut vec![0; values.len()],
                        usize::MAX,
                        &plan,
                    );
                    assert!(written <= at, "went past the overflow at value {at}");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn records_decode_like_decode(
        tiers in proptest::collection::vec(0u8..=8, 1..=MAX_VALUES),
        count in 0usize..120,
        seed in any::<u64>(),
        bytes in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
        cut in any::<prop::sample::Index>(),
        out_len in 0usize..130,
        limit in 0usize..130,
    ) {
        if let Some(period) = period(&tiers) {
            let (_, mut input) = encode(&tiers, count, seed);
            if !input.is_empty() {
                for (at, byte) in bytes {
                    let at = at.index(input.len());
                    input[at] = byte;
                }
            }
            let input = &input[..cut.index(input.len() + 1)];
            agrees_with_decode(&period, input, out_len, limit);
        }
    }
}
