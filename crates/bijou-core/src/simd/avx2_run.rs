//! bijou64's batch decoder on AVX2, for runs of one tier: four values a
//! step.
//!
//! The scheme of [`super::avx512_run`] with the 16-byte shuffle that AVX2
//! has: value `k` of a run starts at `k * len`, so a step loads the
//! sixteen bytes at each of four starts (values 0 and 2 in one vector's
//! halves, 1 and 3 in another's), checks that the four tags are the run's,
//! shuffles each payload into a 64-bit lane in little-endian order (into
//! the low lane of a half for values 0 and 2, the high one for 1 and 3,
//! so that an or puts the four in order), and adds the tier's offset.
//! Where a step meets another tag or a top-tier sum that carries,
//! [`super::run_loop`] decides what follows.
//!
//! Required CPU feature: **`avx2`** (with the OS saving the YMM
//! registers). The only way in is through [`Avx2`], a token that
//! [`Avx2::detect`] makes after CPUID (cached by `cpufeatures`) reported
//! it.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_broadcastsi128_si256, _mm256_castsi256_pd, _mm256_cmpeq_epi8, _mm256_loadu2_m128i,
    _mm256_movemask_epi8, _mm256_movemask_pd, _mm256_or_si256, _mm256_set1_epi8,
    _mm256_set1_epi64x, _mm256_shuffle_epi8, _mm256_storeu_si256,
};

use super::VectorProgress;
use super::run_loop::{Step, run_loop};
use crate::bijou64::{MAX_BYTES, OFFSETS, THRESHOLD};

cpufeatures::new!(cpuid, "avx2");

/// Proof that the CPU has AVX2, and that the OS saves the YMM registers
/// (`cpufeatures` checks both).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The token, if the CPU supports every feature this module enables.
    /// Cheap after the first call.
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        cpuid::get().then_some(Avx2(()))
    }

    /// Decodes the run of values with the multi-byte tag `tag` at the
    /// front of `input` into `out`, four at a time (see
    /// [`run_loop`](super::run_loop::run_loop) for where it stops).
    #[inline]
    pub(crate) fn decode_run(self, input: &[u8], out: &mut [u64], tag: u8) -> VectorProgress {
        // SAFETY: `self` exists, so `detect` saw the feature that
        // `decode_run` enables.
        unsafe { decode_run(input, out, tag) }
    }
}

/// Values a step decodes.
pub(crate) const VALUES: usize = 4;

/// Bytes a step reads: sixteen from the fourth value's start, which is
/// at most three top-tier values in.
pub(crate) const READ: usize = (VALUES - 1) * MAX_BYTES + 16;

/// Tiers 0..=8; tier 0 (single bytes) has no runs here.
const TIERS: usize = MAX_BYTES;

/// Per tier, the shuffle of the sixteen bytes at a value's start that
/// puts its payload (bytes 1..=tier, big-endian) into 64-bit lane `lane`
/// of the half in little-endian order, and zeros elsewhere.
const fn gather(tier: usize, lane: usize) -> [u8; 16] {
    let mut shuffle = [0x80; 16];
    let mut j = 0;
    while j < tier {
        shuffle[8 * lane + j] = (tier - j) as u8;
        j += 1;
    }
    shuffle
}

/// [`gather`] of every tier, for values 0 and 2 (lane 0) and 1 and 3
/// (lane 1).
const GATHER: [[[u8; 16]; 2]; TIERS] = {
    let mut tables = [[[0x80; 16]; 2]; TIERS];
    let mut tier = 1;
    while tier < TIERS {
        tables[tier] = [gather(tier, 0), gather(tier, 1)];
        tier += 1;
    }
    tables
};

/// The two 16-byte rows of `bytes` at `low` and `high` as one vector.
#[target_feature(enable = "avx2")]
#[inline]
fn rows(bytes: &[u8], low: usize, high: usize) -> __m256i {
    let (low, high) = (&bytes[low..low + 16], &bytes[high..high + 16]);
    // SAFETY: `low` and `high` are 16 readable bytes each (the slicing
    // checked it); the loads are unaligned.
    unsafe { _mm256_loadu2_m128i(high.as_ptr().cast(), low.as_ptr().cast()) }
}

/// A 16-byte table in both halves of a vector.
#[target_feature(enable = "avx2")]
#[inline]
fn both_halves(table: &[u8; 16]) -> __m256i {
    // SAFETY: `table` is 16 readable bytes; the load is unaligned.
    let half: __m128i = unsafe { _mm_loadu_si128(table.as_ptr().cast()) };
    _mm256_broadcastsi128_si256(half)
}

#[target_feature(enable = "avx2")]
fn decode_run(input: &[u8], out: &mut [u64], tag: u8) -> VectorProgress {
    debug_assert!(tag >= THRESHOLD);
    let tier = usize::from(tag.saturating_sub(THRESHOLD - 1)).min(TIERS - 1);
    let len = tier + 1;
    let (even, odd) = (both_halves(&GATHER[tier][0]), both_halves(&GATHER[tier][1]));
    let offset = _mm256_set1_epi64x(OFFSETS[tier] as i64);
    let wanted = _mm256_set1_epi8(tag as i8);
    run_loop::<VALUES, READ>(input, out, len, |bytes, dest| {
        let (from_even, from_odd) = (rows(bytes, 0, 2 * len), rows(bytes, len, 3 * len));
        let even_tags = _mm256_movemask_epi8(_mm256_cmpeq_epi8(from_even, wanted)) as u32;
        let odd_tags = _mm256_movemask_epi8(_mm256_cmpeq_epi8(from_odd, wanted)) as u32;
        let payload = _mm256_or_si256(
            _mm256_shuffle_epi8(from_even, even),
            _mm256_shuffle_epi8(from_odd, odd),
        );
        let value = _mm256_add_epi64(payload, offset);
        // SAFETY: `dest` is four writable `u64`s; the store is unaligned.
        unsafe { _mm256_storeu_si256(dest.as_mut_ptr().cast(), value) };
        // The add's carry out of each lane, in its top bit (only the top
        // tier can carry).
        let carry = _mm256_or_si256(
            _mm256_and_si256(payload, offset),
            _mm256_andnot_si256(value, _mm256_or_si256(payload, offset)),
        );
        let carried = _mm256_movemask_pd(_mm256_castsi256_pd(carry)) as u32;
        // Byte 0 of each half is a tag: values 0 and 2 from the even
        // rows, 1 and 3 from the odd ones.
        const TAG_BITS: u32 = 1 | 1 << 16;
        if even_tags & odd_tags & TAG_BITS == TAG_BITS && carried == 0 {
            return Step::Whole;
        }
        let same = (even_tags & 1)
            | (odd_tags & 1) << 1
            | (even_tags >> 16 & 1) << 2
            | (odd_tags >> 16 & 1) << 3;
        let before = (!same | carried).trailing_zeros() as usize;
        Step::Broken {
            before,
            carried: same >> before & 1 != 0,
        }
    })
}
