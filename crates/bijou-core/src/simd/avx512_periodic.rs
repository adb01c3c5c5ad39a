//! bijou64's batch decoder on AVX-512 VBMI for periodic streams: whole
//! records a step.
//!
//! When the tiers of the values repeat with a short period (a record of
//! at most eight values in at most 64 bytes, [`crate::periodic`]), record
//! `r` starts at `r` times the record's length and each field at a fixed
//! offset in it, so no length chain is left. A step loads the 64 bytes
//! at its first record's start and takes as many whole records as fit in
//! them and in sixteen 64-bit lanes (two vectors): one permute per
//! vector puts each field's payload into its lane in little-endian order
//! (zero beyond the payload; a single byte's lane takes its tag), and
//! each lane's tier offset is added. The tags are checked in one go:
//! each tag byte, less `THRESHOLD - 1` with saturation, is its tier (0
//! for any single byte), compared with the expected tier at its offset.
//! A step whose tags differ, or whose top-tier sum carries, is decoded
//! value by value once (a record of other tiers now and then, as ids
//! and timestamps cross a tier boundary, leaves the loop's layout
//! intact); a second such step in a row, or an overflow, stops the loop,
//! for the batch decoder to go on or report.
//!
//! Same CPU features and token as [`super::avx512`].

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_cmplt_epu64_mask, _mm512_loadu_si512,
    _mm512_mask_cmpneq_epi8_mask, _mm512_mask_storeu_epi64, _mm512_maskz_permutexvar_epi8,
    _mm512_set1_epi8, _mm512_storeu_si512, _mm512_subs_epu8,
};

use super::avx512::Avx512Vbmi;
use crate::bijou64::{self, OFFSETS, THRESHOLD};
use crate::periodic::{MAX_RECORD_BYTES, Period};

/// Bytes a step loads.
pub(crate) const READ: usize = MAX_RECORD_BYTES;

/// 64-bit lanes a step fills at most: two vectors.
pub(crate) const LANES: usize = 16;

/// The constants of one period's loop, built once per period.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RecordPlan {
    /// For each output byte (byte `j` of lane `k`), the input byte it
    /// comes from: lane `k`'s word.
    gather: [u64; LANES],
    /// Each lane's tier offset.
    offsets: [u64; LANES],
    /// At each tag's offset, its expected tier.
    tiers: [u8; READ],
    /// Per vector, the output bytes that hold payload (or a single
    /// byte's tag).
    keep: [u64; 2],
    /// The offsets of the tags.
    tag_at: u64,
    /// Per vector, the lanes a step writes.
    lanes: [u8; 2],
    /// Values a step decodes (whole records).
    values: usize,
    /// Bytes a step consumes.
    bytes: usize,
}

impl RecordPlan {
    /// The plan for `period`, as many whole records a step as fit in
    /// [`LANES`] lanes and [`READ`] bytes.
    pub(crate) fn new(period: &Period) -> Self {
        let records = (LANES / period.values).min(READ / period.bytes);
        let values = records * period.values;
        let (mut gather, mut offsets, mut tiers) = ([0; LANES], [0; LANES], [0; READ]);
        let (mut keep, mut tag_at, mut start) = (0u128, 0u64, 0);
        for lane in 0..values {
            let tier = usize::from(period.tiers[lane % period.values]);
            tiers[start] = tier as u8;
            tag_at |= 1 << start;
            offsets[lane] = OFFSETS[tier];
            // Byte `j` of the lane is the payload's `j`-th byte from its
            // end, `start + tier - j`; a single byte's lane is its tag.
            // Every kept byte is at least `start`, so none borrows.
            let kept = tier.max(1);
            let from_end =
                ((start + tier) as u64 * 0x0101_0101_0101_0101).wrapping_sub(0x0706_0504_0302_0100);
            gather[lane] = from_end & (u64::MAX >> (64 - 8 * kept));
            keep |= ((1 << kept) - 1) << (8 * lane);
            start += 1 + tier;
        }
        debug_assert_eq!(start, records * period.bytes);
        let lanes = ((1u32 << values) - 1).to_le_bytes();
        RecordPlan {
            gather,
            offsets,
            tiers,
            keep: [keep as u64, (keep >> 64) as u64],
            tag_at,
            lanes: [lanes[0], lanes[1]],
            values,
            bytes: start,
        }
    }

    /// Values a step decodes.
    pub(crate) fn values(&self) -> usize {
        self.values
    }
}

impl Avx512Vbmi {
    /// Decodes whole steps of `plan` at the front of `input` into `out`
    /// until `limit` values are written (the last step's may go past it,
    /// never past `out`), while a step's 64 bytes are inside `input`;
    /// a step whose tiers differ from the plan's or that overflows goes
    /// value by value, once. Stops at a second such step in a row, or
    /// before a value that overflows. Returns (bytes consumed, values
    /// written). Slots of `out` past those written may be overwritten.
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
fn decode_records(
    input: &[u8],
    out: &mut [u64],
    limit: usize,
    plan: &RecordPlan,
) -> (usize, usize) {
    let table = |table: &[u64]| {
        // SAFETY: every table is at least 8 readable `u64`s; the load is
        // unaligned.
        unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
    };
    let (low_gather, high_gather) = (table(&plan.gather[..8]), table(&plan.gather[8..]));
    let (low_offsets, high_offsets) = (table(&plan.offsets[..8]), table(&plan.offsets[8..]));
    // SAFETY: the table is 64 readable bytes; the load is unaligned.
    let tiers = unsafe { _mm512_loadu_si512(plan.tiers.as_ptr().cast()) };
    let below = _mm512_set1_epi8((THRESHOLD - 1) as i8);
    let ([low_keep, high_keep], tag_at, [low_lanes, high_lanes]) =
        (plan.keep, plan.tag_at, plan.lanes);
    let (values, bytes) = (plan.values, plan.bytes);
    // A step's two vectors of values, and whether a tag had another tier
    // or a sum carried (only top-tier lanes can; unused lanes are 0 + 0).
    let decode_step = |record: &[u8; READ]| -> (__m512i, __m512i, bool) {
        // SAFETY: `record` is 64 readable bytes; the load is unaligned.
        let record = unsafe { _mm512_loadu_si512(record.as_ptr().cast()) };
        let wrong_tier =
            _mm512_mask_cmpneq_epi8_mask(tag_at, _mm512_subs_epu8(record, below), tiers);
        let low = _mm512_add_epi64(
            _mm512_maskz_permutexvar_epi8(low_keep, low_gather, record),
            low_offsets,
        );
        let high = _mm512_add_epi64(
            _mm512_maskz_permutexvar_epi8(high_keep, high_gather, record),
            high_offsets,
        );
        let carried =
            _mm512_cmplt_epu64_mask(low, low_offsets) | _mm512_cmplt_epu64_mask(high, high_offsets);
        (low, high, wrong_tier | u64::from(carried) != 0)
    };
    let limit = limit.min(out.len());
    // Below this many values written, a step may store all sixteen
    // lanes: those past its values are rewritten by the next step or lie
    // past the values reported.
    let whole_stores = limit.min((out.len() + 1).saturating_sub(LANES));
    let (mut consumed, mut written) = (0, 0);
    let mut repaired = false;
    loop {
        while written < whole_stores {
            let Some(record) = input[consumed..].first_chunk() else {
                break;
            };
            let (low, high, stop) = decode_step(record);
            if stop {
                break;
            }
            let dest = out[written..written + LANES].as_mut_ptr();
            // SAFETY: `written < whole_stores`, so the sixteen `u64`s
            // from `written` are inside `out`; the stores are unaligned.
            unsafe {
                _mm512_storeu_si512(dest.cast(), low);
                _mm512_storeu_si512(dest.add(8).cast(), high);
            }
            consumed += bytes;
            written += values;
            repaired = false;
        }
        // The last steps, whose stores are masked, and a step that stops.
        let Some(record) = input[consumed..].first_chunk() else {
            break;
        };
        if written >= limit || values > out.len() - written {
            break;
        }
        let (low, high, stop) = decode_step(record);
        if !stop {
            let dest = &mut out[written..written + values];
            let (low_dest, high_dest) = dest.split_at_mut(values.min(8));
            // SAFETY: the lanes of `low_lanes` are `low_dest`'s elements,
            // those of `high_lanes` `high_dest`'s.
            unsafe {
                _mm512_mask_storeu_epi64(low_dest.as_mut_ptr().cast(), low_lanes, low);
                _mm512_mask_storeu_epi64(high_dest.as_mut_ptr().cast(), high_lanes, high);
            }
            consumed += bytes;
            written += values;
            repaired = false;
            continue;
        }
        // A step that differs (a field of another tier, an overflow) goes
        // value by value, once; a second in a row ends the period, and an
        // overflow is left where it is.
        if repaired {
            break;
        }
        repaired = true;
        let (step_consumed, step_written) =
            decode_one_by_one(&input[consumed..], &mut out[written..written + values]);
        consumed += step_consumed;
        written += step_written;
        if step_written < values {
            break;
        }
    }
    (consumed, written)
}

/// Decodes values from the front of `input` into `out`, one by one, until
/// `out` is full or a value does not decode; (bytes consumed, values
/// written).
#[cold]
#[inline(never)]
fn decode_one_by_one(input: &[u8], out: &mut [u64]) -> (usize, usize) {
    let mut consumed = 0;
    for (written, slot) in out.iter_mut().enumerate() {
        let Ok((value, len)) = bijou64::decode(&input[consumed..]) else {
            return (consumed, written);
        };
        *slot = value;
        consumed += len;
    }
    (consumed, out.len())
}
