//! bijou64's batch decoder on AVX-512 VBMI for periodic streams: a
//! record a step.
//!
//! When the tiers of the values repeat with a short period (a record of
//! at most eight values in at most 64 bytes, [`crate::periodic`]), record
//! `r` starts at `r` times the record's length and each field at a fixed
//! offset in it, so no length chain is left. A step loads the 64 bytes
//! at the record's start, permutes each field's payload into a 64-bit
//! lane in little-endian order (zero beyond the payload; a single byte's
//! lane takes its tag), adds each lane's tier offset, and checks the
//! record's tags: each tag byte, less `THRESHOLD - 1` with saturation, is
//! its tier (0 for any single byte), compared with the expected tier at
//! that offset. A record whose tags differ, or whose top-tier sum
//! carries, stops the loop before it, for the scalar loop to decode or
//! report. Where two or more records fit in eight lanes and 64 bytes, a
//! step takes as many as fit.
//!
//! Same CPU features and token as [`super::avx512`].

use core::arch::x86_64::{
    _mm512_add_epi64, _mm512_cmplt_epu64_mask, _mm512_loadu_si512, _mm512_mask_cmpneq_epi8_mask,
    _mm512_mask_storeu_epi64, _mm512_maskz_permutexvar_epi8, _mm512_set1_epi8, _mm512_storeu_si512, _mm512_subs_epu8,
};

use super::avx512::Avx512Vbmi;
use crate::bijou64::{OFFSETS, THRESHOLD};
use crate::periodic::{MAX_RECORD_BYTES, MAX_VALUES, Period};

/// Bytes a step loads.
pub(crate) const READ: usize = MAX_RECORD_BYTES;

/// The constants of one period's loop, built once per period.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RecordPlan {
    /// For each output byte (byte `j` of lane `k`), the input byte it
    /// comes from.
    gather: [u8; READ],
    /// The output bytes that hold payload (or a single byte's tag).
    keep: u64,
    /// At each tag's offset, its expected tier.
    tiers: [u8; READ],
    /// The offsets of the tags.
    tag_at: u64,
    /// Each lane's tier offset.
    offsets: [u64; MAX_VALUES],
    /// The lanes a step writes.
    lanes: u8,
    /// Values a step decodes (whole records).
    values: usize,
    /// Bytes a step consumes.
    bytes: usize,
}

impl RecordPlan {
    /// The plan for `period`, as many whole records a step as fit in
    /// eight lanes and [`READ`] bytes.
    pub(crate) fn new(period: &Period) -> Self {
        let records = (MAX_VALUES / period.values).min(READ / period.bytes);
        let mut plan = RecordPlan {
            gather: [0; READ],
            keep: 0,
            tiers: [0; READ],
            tag_at: 0,
            offsets: [0; MAX_VALUES],
            lanes: 0,
            values: records * period.values,
            bytes: records * period.bytes,
        };
        let mut start = 0;
        for lane in 0..plan.values {
            let tier = usize::from(period.tiers[lane % period.values]);
            plan.tiers[start] = tier as u8;
            plan.tag_at |= 1 << start;
            plan.offsets[lane] = OFFSETS[tier];
            plan.lanes |= 1 << lane;
            // Byte `j` of the lane is the payload's `j`-th byte from its
            // end (at `start + tier`); a single byte's lane is its tag.
            for j in 0..tier.max(1) {
                plan.gather[8 * lane + j] = (start + tier - j) as u8;
                plan.keep |= 1 << (8 * lane + j);
            }
            start += 1 + tier;
        }
        debug_assert_eq!(start, plan.bytes);
        plan
    }

    /// Values a step decodes.
    pub(crate) fn values(&self) -> usize {
        self.values
    }
}

impl Avx512Vbmi {
    /// Decodes whole steps of `plan` at the front of `input` into `out`
    /// until `limit` values are written (the last step's may go past it,
    /// never past `out`), while fewer than [`READ`] bytes of `input` are
    /// never needed, every tag has its expected tier and no value
    /// overflows; returns (bytes consumed, values written).
    #[inline]
    pub(crate) fn decode_records(
        self,
        input: &[u8],
        out: &mut [u64],
        limit: usize,
        plan: &RecordPlan,
    ) -> (usize, usize) {
        // SAFETY: `self` exists, so `detect` saw the features that
        // `decode_records` enables.
        unsafe { decode_records(input, out, limit, plan) }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn decode_records(input: &[u8], out: &mut [u64], limit: usize, plan: &RecordPlan) -> (usize, usize) {
    // SAFETY: each table is 64 readable bytes; the loads are unaligned.
    let (gather, tiers, offsets) = unsafe {
        (
            _mm512_loadu_si512(plan.gather.as_ptr().cast()),
            _mm512_loadu_si512(plan.tiers.as_ptr().cast()),
            _mm512_loadu_si512(plan.offsets.as_ptr().cast()),
        )
    };
    let below = _mm512_set1_epi8((THRESHOLD - 1) as i8);
    let (keep, tag_at, lanes) = (plan.keep, plan.tag_at, plan.lanes);
    let (values, bytes) = (plan.values, plan.bytes);
    // The last places where a step's load stays inside `input` and where
    // a step may store all eight lanes (those past its values are
    // rewritten by the next step or lie past the values reported).
    let Some(last_load) = input.len().checked_sub(READ) else {
        return (0, 0);
    };
    let last_whole_store = out.len().checked_sub(MAX_VALUES);
    let limit = limit.min(out.len());
    let (mut consumed, mut written) = (0, 0);
    while consumed <= last_load && written < limit && values <= out.len() - written {
        // SAFETY: `consumed <= last_load`, so the 64 bytes from there are
        // inside `input`; the load is unaligned.
        let record = unsafe { _mm512_loadu_si512(input.as_ptr().add(consumed).cast()) };
        let wrong_tier =
            _mm512_mask_cmpneq_epi8_mask(tag_at, _mm512_subs_epu8(record, below), tiers);
        let value = _mm512_add_epi64(_mm512_maskz_permutexvar_epi8(keep, gather, record), offsets);
        // Only top-tier lanes can carry; unused lanes are 0 + 0.
        let carried = _mm512_cmplt_epu64_mask(value, offsets);
        if wrong_tier | u64::from(carried) != 0 {
            break;
        }
        let dest = out[written..].as_mut_ptr();
        if last_whole_store.is_some_and(|last| written <= last) {
            // SAFETY: eight `u64`s from `written` are inside `out`; the
            // store is unaligned.
            unsafe { _mm512_storeu_si512(dest.cast(), value) };
        } else {
            // SAFETY: the loop's condition keeps the `values` lanes of
            // `lanes` from `written` inside `out`.
            unsafe { _mm512_mask_storeu_epi64(dest.cast(), lanes, value) };
        }
        consumed += bytes;
        written += values;
    }
    (consumed, written)
}
