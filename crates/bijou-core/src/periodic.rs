//! Periodic streams: records of a few values whose tags repeat.
//!
//! A stream of fixed records (an id, a kind, a count, a timestamp, a
//! hash, again and again) changes length at nearly every value, so the
//! batch decoder's block chooser counts it as unpredictable; yet its
//! tiers repeat with the record. When the tiers of `p` values repeat,
//! record `r` starts at `r` times the record's length and every field at
//! a fixed offset in it: no length chain is left. [`find`] looks for such
//! a period at the front of the input; the loops that use it
//! (`simd::avx512_periodic`, or a per-value loop whose branches the
//! predictor learns) check every record's tags themselves, so a period
//! found here is a guess about the bytes ahead, never a promise.

/// Values a record holds at most: one vector of 64-bit lanes.
pub(crate) const MAX_VALUES: usize = 8;

/// Bytes a record spans at most: one 64-byte vector load.
pub(crate) const MAX_RECORD_BYTES: usize = 64;

/// Values [`find`] walks: two records of the longest period.
const SAMPLE: usize = 2 * MAX_VALUES;

/// A record's shape: how many values, how many bytes, and each value's
/// tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Period {
    /// Values in a record, 2..=[`MAX_VALUES`].
    pub(crate) values: usize,
    /// Bytes in a record, at most [`MAX_RECORD_BYTES`].
    pub(crate) bytes: usize,
    /// The tier of each value in order (0 for a single byte); zero past
    /// `values`.
    pub(crate) tiers: [u8; MAX_VALUES],
}

/// The shortest period, 2..=[`MAX_VALUES`] values and at most
/// [`MAX_RECORD_BYTES`] bytes, of the tiers of the first [`SAMPLE`]
/// values of `input` (tags from `threshold` up announce tiers 1..);
/// `None` when they have none, when they all share one tier (a run, the
/// branchy loop's case), or when `input` ends first.
pub(crate) fn find(input: &[u8], threshold: u8) -> Option<Period> {
    let mut tiers = [0u8; SAMPLE];
    let mut at = 0;
    let mut walk = |tiers: &mut [u8]| {
        for tier in tiers {
            *tier = tier_of(*input.get(at)?, threshold);
            at += 1 + usize::from(*tier);
        }
        Some(())
    };
    // Tier `i` in byte `i`: among the first `n` values, those `p` apart
    // share a tier when the word and the word shifted by `p` bytes agree
    // on the bytes both hold.
    let repeats = |tiers: &[u8; SAMPLE], p: usize, n: usize| {
        let word = u128::from_le_bytes(*tiers);
        let overlap = u128::MAX >> (128 - 8 * (n - p));
        (word ^ (word >> (8 * p))) & overlap == 0
    };
    // Every period's first repeat is among the first MAX_VALUES + 1
    // values; most unpredictable streams have none there, and the walk
    // (a chain from tag to tag) stops early.
    const FIRST: usize = MAX_VALUES + 1;
    walk(&mut tiers[..FIRST])?;
    if !(1..=MAX_VALUES).any(|p| repeats(&tiers, p, FIRST)) {
        return None;
    }
    walk(&mut tiers[FIRST..])?;
    if repeats(&tiers, 1, SAMPLE) {
        return None;
    }
    let values = (2..=MAX_VALUES).find(|&p| repeats(&tiers, p, SAMPLE))?;
    let bytes = tiers[..values]
        .iter()
        .map(|&tier| 1 + usize::from(tier))
        .sum();
    if bytes > MAX_RECORD_BYTES {
        return None;
    }
    let mut record = [0; MAX_VALUES];
    record[..values].copy_from_slice(&tiers[..values]);
    Some(Period {
        values,
        bytes,
        tiers: record,
    })
}

/// Whether the first two values of `input` have different tiers: a
/// cheap test, before the batch's first block, of whether looking for a
/// period there can pay (a run's first values share a tier).
pub(crate) fn starts_mixed(input: &[u8], threshold: u8) -> bool {
    let Some(&first) = input.first() else {
        return false;
    };
    let tier = tier_of(first, threshold);
    let second = input.get(1 + usize::from(tier));
    second.is_some_and(|&second| tier_of(second, threshold) != tier)
}

/// The tier a byte announces when read as a tag: 0 for a single byte
/// (below `threshold`), else 1 and up.
fn tier_of(tag: u8, threshold: u8) -> u8 {
    tag.saturating_sub(threshold - 1)
}

#[cfg(test)]
mod tests;
