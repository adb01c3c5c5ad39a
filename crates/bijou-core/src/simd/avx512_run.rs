//! bijou64's batch decoder on AVX-512 VBMI, for runs of one tier: eight
//! values a step.
//!
//! Where lengths repeat (hashes and ids are nearly all top-tier; counts
//! and sizes often share a tier), the batch decoder's branchy loop meets
//! runs of values with the same tag. Their places are then known in
//! advance: value `k` of the run starts at `k * len`. So a step loads the
//! 128 bytes ahead, checks that the eight tags at those places are the
//! run's tag, permutes each value's payload bytes into a 64-bit lane in
//! little-endian order, and adds the tier's offset: a few instructions
//! for eight values, where the scalar loop spends a dozen on each. Where
//! a step meets another tag or a top-tier sum that carries,
//! [`super::run_loop`] decides what follows.
//!
//! Same CPU features and token as [`super::avx512`].

use core::arch::x86_64::{
    _mm512_add_epi64, _mm512_cmpeq_epi8_mask, _mm512_cmplt_epu64_mask, _mm512_loadu_si512,
    _mm512_maskz_permutex2var_epi8, _mm512_permutex2var_epi8, _mm512_set1_epi8, _mm512_set1_epi64,
    _mm512_storeu_si512,
};

use super::VectorProgress;
use super::avx512::Avx512Vbmi;
use super::run_loop::{Step, run_loop};
use crate::bijou64::{MAX_BYTES, OFFSETS, THRESHOLD};

/// Values a step decodes.
pub(crate) const VALUES: usize = 8;

/// Bytes a step loads: two vectors, which two-table permutes treat as
/// one; eight top-tier values take 72 of them.
pub(crate) const READ: usize = 128;

/// Tiers 0..=8; tier 0 (single bytes) has no runs here.
const TIERS: usize = MAX_BYTES;

/// Per tier, the byte each output byte comes from: byte `j` of 64-bit
/// lane `k` (significance `j`) is the `j`-th byte back from the end of
/// value `k`, whose last byte is at `k * (tier + 1) + tier`.
const GATHER: [[u8; 64]; TIERS] = {
    let mut tables = [[0u8; 64]; TIERS];
    let mut tier = 1;
    while tier < TIERS {
        let mut lane = 0;
        while lane < 64 {
            let (k, j) = (lane / 8, lane % 8);
            if j < tier {
                tables[tier][lane] = (k * (tier + 1) + tier - j) as u8;
            }
            lane += 1;
        }
        tier += 1;
    }
    tables
};

/// Per tier, the output bytes that hold payload (significance below the
/// tier); the others are zero.
const KEEP: [u64; TIERS] = {
    let mut masks = [0u64; TIERS];
    let mut tier = 1;
    while tier < TIERS {
        let mut lane = 0;
        while lane < 64 {
            if lane % 8 < tier {
                masks[tier] |= 1 << lane;
            }
            lane += 1;
        }
        tier += 1;
    }
    masks
};

/// Per tier, in lanes 0..8, where the eight tags are.
const TAGS: [[u8; 64]; TIERS] = {
    let mut tables = [[0u8; 64]; TIERS];
    let mut tier = 1;
    while tier < TIERS {
        let mut k = 0;
        while k < VALUES {
            tables[tier][k] = (k * (tier + 1)) as u8;
            k += 1;
        }
        tier += 1;
    }
    tables
};

impl Avx512Vbmi {
    /// Decodes the run of values with the multi-byte tag `tag` at the
    /// front of `input` into `out`, eight at a time (see
    /// [`run_loop`](super::run_loop::run_loop) for where it stops).
    #[inline]
    pub(crate) fn decode_run(self, input: &[u8], out: &mut [u64], tag: u8) -> VectorProgress {
        // SAFETY: `self` exists, so `detect` saw the features that
        // `decode_run` enables.
        unsafe { decode_run(input, out, tag) }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn decode_run(input: &[u8], out: &mut [u64], tag: u8) -> VectorProgress {
    debug_assert!(tag >= THRESHOLD);
    let tier = usize::from(tag.saturating_sub(THRESHOLD - 1)).min(TIERS - 1);
    let len = tier + 1;
    // SAFETY: the table is 64 readable bytes; the load is unaligned.
    let gather = unsafe { _mm512_loadu_si512(GATHER[tier].as_ptr().cast()) };
    // SAFETY: as above.
    let tags = unsafe { _mm512_loadu_si512(TAGS[tier].as_ptr().cast()) };
    let keep = KEEP[tier];
    let offset = _mm512_set1_epi64(OFFSETS[tier] as i64);
    let wanted = _mm512_set1_epi8(tag as i8);
    run_loop::<VALUES, READ>(input, out, len, |bytes, dest| {
        let (low, high) = bytes.split_at(READ / 2);
        // SAFETY: `low` and `high` are 64 readable bytes each; the loads
        // are unaligned.
        let (low, high) = unsafe {
            (
                _mm512_loadu_si512(low.as_ptr().cast()),
                _mm512_loadu_si512(high.as_ptr().cast()),
            )
        };
        let same = _mm512_cmpeq_epi8_mask(_mm512_permutex2var_epi8(low, tags, high), wanted) as u8;
        let payload = _mm512_maskz_permutex2var_epi8(keep, low, gather, high);
        let value = _mm512_add_epi64(payload, offset);
        // SAFETY: `dest` is eight writable `u64`s; the store is unaligned.
        unsafe { _mm512_storeu_si512(dest.as_mut_ptr().cast(), value) };
        // Only the top tier can carry.
        let carried = _mm512_cmplt_epu64_mask(value, offset);
        if same == u8::MAX && carried == 0 {
            return Step::Whole;
        }
        let before = (!same | carried).trailing_zeros() as usize;
        Step::Broken {
            before,
            carried: same >> before & 1 != 0,
        }
    })
}
