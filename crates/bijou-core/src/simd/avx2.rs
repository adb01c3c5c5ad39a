//! bijou64's batch decoder on AVX2: fixed 16-byte chunks, two a step.
//!
//! The scheme of [`super::avx512`] with the 16-byte byte permute that
//! SSSE3 and AVX2 have (`pshufb`, which AVX2 runs in each 128-bit half
//! of a vector, so each half holds one chunk). The input is walked in
//! chunks at fixed addresses, and only where the first value of each
//! chunk starts (its entry, 0..=8) is carried. Each byte `i` of a chunk,
//! were it a tag, puts the next value at `next[i] = i + len(byte i)`;
//! positions past the chunk map to themselves. `pshufb` composes two such
//! maps: a lane whose position is past the chunk (16..=24) looks up
//! nothing and keeps its own position by a byte max, since `next[i] > i`
//! in the chunk. Positions are kept biased by `0x70` so that exactly
//! those past the chunk have the top bit set, which `pshufb` reads as
//! "zero". Four squarings give `next^16`, which sends each entry to the
//! next chunk's: the loop-carried chain is two lookups and two half
//! swaps a step, and the same powers give every value start.
//!
//! Then, per half, the first [`ALWAYS`] values (whether or not the chunk
//! has them: a count that varies then mispredicts nothing) have their
//! payload bytes permuted into 64-bit lanes, from the chunk's first 16
//! bytes or the 16 from its eighth byte on, and their tier's offset added
//! (built by a compare: in little-endian order it is `F8 01 01 ..`, one
//! byte per payload byte). Values past a chunk's count are stored under
//! its last value before that is; a chunk's values past [`ALWAYS`] take a
//! scalar pass at their known starts. An add that carries (only the top
//! tier can) stops the walk before its step, so the portable loop
//! reports the overflow where it is.
//!
//! Required CPU features: **`avx2`, `popcnt`** (with the OS saving the
//! YMM registers). The only way in is through [`Avx2`], a token that
//! [`Avx2::detect`] makes after CPUID (cached by `cpufeatures`) reported
//! them.

use core::arch::x86_64::{
    __m256i, _mm_cvtsi128_si64, _mm_unpackhi_epi64, _mm256_add_epi8, _mm256_add_epi64,
    _mm256_and_si256, _mm256_andnot_si256, _mm256_blend_epi32, _mm256_castsi256_pd,
    _mm256_castsi256_si128, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_maskstore_epi64, _mm256_max_epu8, _mm256_movemask_epi8,
    _mm256_movemask_pd, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi8,
    _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_slli_si256, _mm256_storeu_si256, _mm256_sub_epi8,
    _mm256_subs_epu8,
};

use super::VectorProgress;
use crate::bijou64::{MAX_BYTES, OFFSETS, THRESHOLD};

cpufeatures::new!(cpuid, "avx2", "popcnt");

/// Proof that the CPU has AVX2 and POPCNT, and that the OS saves the YMM
/// registers (`cpufeatures` checks both).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The token, if the CPU supports every feature this module enables.
    /// Cheap after the first call.
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        cpuid::get().then_some(Avx2(()))
    }

    /// Decodes the values that start in whole 32-byte steps at the front
    /// of `input` into `out` until `limit` values are written; the last
    /// step's values past `limit` are kept too. Stops with fewer than
    /// [`READ`] bytes or [`SLOTS`] slots of `out` left, or before a step
    /// holding an overflow.
    #[inline]
    pub(crate) fn decode_windows(
        self,
        input: &[u8],
        out: &mut [u64],
        limit: usize,
    ) -> VectorProgress {
        // SAFETY: `self` exists, so `detect` saw the features that
        // `decode_steps` enables.
        unsafe { decode_steps(input, out, limit) }
    }
}

/// Bytes in a chunk (a vector's half): at most this many values start in
/// one.
const CHUNK: usize = 16;

/// Bytes a step decodes the values of: two chunks.
const STEP: usize = 2 * CHUNK;

/// Slots of `out` a step may write.
pub(crate) const SLOTS: usize = STEP;

/// Bytes a step may read: a value starting in the second chunk ends at
/// most 40 bytes from the step's start, and a lane past a chunk's count
/// (which the unconditional decodes meet) reads within 16 bytes of a
/// chunk's eighth byte.
pub(crate) const READ: usize = 48;

/// Values of each chunk decoded whether it has them or not: a chunk of an
/// unpredictable stream holds 2 to 6 values.
const ALWAYS: usize = 4;

/// Per count of values 0..=4, the 64-bit lanes a masked store writes.
const STORE_MASKS: [[i64; 4]; ALWAYS + 1] = [
    [0, 0, 0, 0],
    [-1, 0, 0, 0],
    [-1, -1, 0, 0],
    [-1, -1, -1, 0],
    [-1, -1, -1, -1],
];

/// Added to every position so that those past the chunk (16 and up) have
/// the top bit set, and `pshufb` gives zero for them.
const BIAS: i8 = 0x70;

/// The same 16 bytes in both halves of a vector.
macro_rules! halves {
    ($($byte:expr),* $(,)?) => {
        _mm256_setr_epi8($($byte as u8 as i8),*, $($byte as u8 as i8),*)
    };
}

/// Decodes the value starting at byte 0 of `block`, without a branch on
/// its tier: (value, overflowed). For a chunk's values past [`ALWAYS`].
#[inline(always)]
fn decode_at(block: &[u8; MAX_BYTES]) -> (u64, bool) {
    let [tag, payload @ ..] = *block;
    let tier = usize::from(tag.saturating_sub(THRESHOLD - 1));
    let single_byte = u64::from(tier == 0).wrapping_neg();
    // Tier 0 would shift by 64: the count wraps and the mask clears the
    // rest, so a single byte's payload is 0 and cannot overflow.
    let payload = u64::from_be_bytes(payload).wrapping_shr((8 * (8 - tier)) as u32) & !single_byte;
    let (sum, overflowed) = OFFSETS[tier].overflowing_add(payload);
    (sum | (u64::from(tag) & single_byte), overflowed)
}

/// The 16 bytes of a vector half as an integer, byte `k` at bits `8 *
/// k..`: shifts, where a store and byte loads would wait for store
/// forwarding.
#[inline]
#[target_feature(enable = "avx2")]
fn bytes_of(vector: __m256i, half: usize) -> u128 {
    let half = if half == 0 {
        _mm256_castsi256_si128(vector)
    } else {
        _mm256_extracti128_si256::<1>(vector)
    };
    let low = _mm_cvtsi128_si64(half) as u64;
    let high = _mm_cvtsi128_si64(_mm_unpackhi_epi64(half, half)) as u64;
    u128::from(low) | u128::from(high) << 64
}

/// `map` after `at` (biased positions in and out, per half): a lane of
/// `at` past its chunk keeps its position.
#[inline]
#[target_feature(enable = "avx2")]
fn compose(map: __m256i, at: __m256i) -> __m256i {
    _mm256_max_epu8(_mm256_shuffle_epi8(map, at), at)
}

/// Byte 0 of each half, as a vector of it in every lane of both halves.
#[inline]
#[target_feature(enable = "avx2")]
fn low_half_everywhere(vector: __m256i) -> __m256i {
    _mm256_permute2x128_si256::<0x00>(vector, vector)
}

#[target_feature(enable = "avx2,popcnt")]
fn decode_steps(input: &[u8], out: &mut [u64], limit: usize) -> VectorProgress {
    let limit = limit.min(out.len());
    // Lanes whose bit `t` of their index is clear keep their start at
    // doubling step `t` (the top bit makes `pshufb` give zero).
    let keep = |t: u32| -> __m256i {
        let lane = |i: u32| if i >> t & 1 == 0 { 0x80u8 } else { 0 };
        halves!(
            lane(0),
            lane(1),
            lane(2),
            lane(3),
            lane(4),
            lane(5),
            lane(6),
            lane(7),
            lane(8),
            lane(9),
            lane(10),
            lane(11),
            lane(12),
            lane(13),
            lane(14),
            lane(15),
        )
    };
    let keeps = [keep(0), keep(1), keep(2), keep(3)];
    let biased_next = halves!(
        BIAS as u8 + 1,
        BIAS as u8 + 2,
        BIAS as u8 + 3,
        BIAS as u8 + 4,
        BIAS as u8 + 5,
        BIAS as u8 + 6,
        BIAS as u8 + 7,
        BIAS as u8 + 8,
        BIAS as u8 + 9,
        BIAS as u8 + 10,
        BIAS as u8 + 11,
        BIAS as u8 + 12,
        BIAS as u8 + 13,
        BIAS as u8 + 14,
        BIAS as u8 + 15,
        BIAS as u8 + 16,
    );
    // For the eight bytes of a 64-bit lane: their significance.
    let significance = halves!(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7);
    let low_bytes = halves!(0xFF, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0);
    // A tier's offset, byte by byte in little-endian order, where the
    // byte's significance is below the tier: `F8 01 01 ..`.
    let offset_bytes = halves!(0xF8, 1, 1, 1, 1, 1, 1, 1, 0xF8, 1, 1, 1, 1, 1, 1, 1);
    // For the 64-bit lanes of group `g`: values `2g` and `2g + 1`.
    let groups = [
        halves!(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1),
        halves!(2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3),
    ];
    let tag_floor = _mm256_set1_epi8((THRESHOLD - 1) as i8);
    let chunk = _mm256_set1_epi8(CHUNK as i8);
    let top = _mm256_set1_epi8(-0x80);
    let last_low = _mm256_set1_epi8(CHUNK as i8 - 1);
    let eight = _mm256_set1_epi8(8);
    let bias = _mm256_set1_epi8(BIAS);

    // The first chunk's entry, biased, in every lane of both halves.
    let (mut base, mut entry) = (0, bias);
    let mut previous_len = 0u8;
    let mut progress = VectorProgress {
        consumed: 0,
        written: 0,
        length_changes: 0,
    };
    while progress.written < limit && out.len() - progress.written >= SLOTS {
        let Some(window) = input[base..].first_chunk::<READ>() else {
            break;
        };
        // SAFETY: `window` is 48 readable bytes, so both 32-byte loads
        // (from byte 0 and from byte 8) are in it; they are unaligned.
        let (bytes, from_eighth) = unsafe {
            (
                _mm256_loadu_si256(window.as_ptr().cast()),
                _mm256_loadu_si256(window[8..].as_ptr().cast()),
            )
        };
        let tiers = _mm256_subs_epu8(bytes, tag_floor);
        // next, next^2, next^4, next^8; then next^16.
        let mut powers = [_mm256_add_epi8(biased_next, tiers); 4];
        for t in 1..4 {
            powers[t] = compose(powers[t - 1], powers[t - 1]);
        }
        let far = compose(powers[3], powers[3]);
        // The second chunk's entry from the first's, then the next step's
        // from the second's: the loop's carried chain.
        let second = _mm256_sub_epi8(low_half_everywhere(_mm256_shuffle_epi8(far, entry)), chunk);
        let entries = _mm256_blend_epi32::<0xF0>(entry, second);
        let after = _mm256_shuffle_epi8(far, entries);
        let next_entry = _mm256_sub_epi8(_mm256_permute2x128_si256::<0x11>(after, after), chunk);
        // starts[k] = next^k(entry), bit by bit of k, in each half.
        let mut starts = entries;
        for (power, keep) in powers.into_iter().zip(keeps) {
            starts = _mm256_max_epu8(
                _mm256_shuffle_epi8(power, _mm256_or_si256(starts, keep)),
                starts,
            );
        }
        // Starts only grow and stay put past the chunk, so each chunk's
        // values are the lanes of its half before the first with the top
        // bit.
        let past = _mm256_movemask_epi8(starts) as u32;
        let counts = [
            (past | 1 << CHUNK).trailing_zeros() as usize,
            (past >> CHUNK | 1 << CHUNK).trailing_zeros() as usize,
        ];
        let value_tiers = _mm256_shuffle_epi8(tiers, starts);
        let unbiased = _mm256_sub_epi8(starts, bias);
        let lasts = _mm256_add_epi8(unbiased, value_tiers);

        // Four values of each chunk a group pair: payload bytes by
        // `pshufb` from the chunk's bytes 0..16 or 8..24.
        let mut values = [_mm256_set1_epi8(0); 2];
        let mut carries = 0u32;
        for (g, gather) in groups.into_iter().enumerate() {
            let last = _mm256_shuffle_epi8(lasts, gather);
            let tier = _mm256_shuffle_epi8(value_tiers, gather);
            let from = _mm256_sub_epi8(last, significance);
            let payload_byte = _mm256_cmpgt_epi8(tier, significance);
            let keep = _mm256_or_si256(payload_byte, low_bytes);
            let high = _mm256_cmpgt_epi8(last, last_low);
            // Zero a byte of one source where the other has it.
            let skip_low =
                _mm256_and_si256(_mm256_or_si256(_mm256_andnot_si256(keep, top), high), top);
            let skip_high = _mm256_andnot_si256(_mm256_and_si256(keep, high), top);
            let payload = _mm256_or_si256(
                _mm256_shuffle_epi8(bytes, _mm256_or_si256(from, skip_low)),
                _mm256_shuffle_epi8(
                    from_eighth,
                    _mm256_or_si256(_mm256_sub_epi8(from, eight), skip_high),
                ),
            );
            let offset = _mm256_and_si256(payload_byte, offset_bytes);
            let value = _mm256_add_epi64(payload, offset);
            // The add's carry out of each 64-bit lane, in its top bit.
            let carry = _mm256_or_si256(
                _mm256_and_si256(payload, offset),
                _mm256_andnot_si256(value, _mm256_or_si256(payload, offset)),
            );
            let carried = _mm256_movemask_pd(_mm256_castsi256_pd(carry)) as u32;
            // Lanes: chunk 0's values 2g, 2g+1, chunk 1's the same.
            carries |= (carried & 3) << (2 * g) | (carried >> 2) << (4 + 2 * g);
            values[g] = value;
        }
        let taken =
            ((1u32 << counts[0].min(ALWAYS)) - 1) | (((1u32 << counts[1].min(ALWAYS)) - 1) << 4);
        if carries & taken != 0 {
            break; // the portable loop reports it
        }
        // Each chunk's first ALWAYS values in one vector.
        let firsts = [
            _mm256_permute2x128_si256::<0x20>(values[0], values[1]),
            _mm256_permute2x128_si256::<0x31>(values[0], values[1]),
        ];
        // Starts and lengths by byte (stores and loads, not shuffles:
        // the shuffle port is this loop's bottleneck).
        let lens = _mm256_add_epi8(value_tiers, _mm256_set1_epi8(1));
        let (mut places, mut lens_by_value) = ([0u8; STEP], [0u8; STEP]);
        // SAFETY: both arrays are 32 writable bytes; the stores are
        // unaligned.
        unsafe {
            _mm256_storeu_si256(places.as_mut_ptr().cast(), unbiased);
            _mm256_storeu_si256(lens_by_value.as_mut_ptr().cast(), lens);
        }
        let dest = &mut out[progress.written..progress.written + SLOTS];
        let mut overflowed = false;
        let mut at = 0;
        for (half, (&count, &first)) in counts.iter().zip(&firsts).enumerate() {
            let dest = &mut dest[at..at + CHUNK];
            let mask = STORE_MASKS[count.min(ALWAYS)];
            // SAFETY: the mask has lanes below `min(count, 4)`, and `dest`
            // has 16 slots; the table is 32 readable bytes.
            unsafe {
                let mask = _mm256_loadu_si256(mask.as_ptr().cast());
                _mm256_maskstore_epi64(dest.as_mut_ptr().cast(), mask, first);
            }
            // Values past ALWAYS, from their known starts.
            #[allow(clippy::needless_range_loop)] // `k` is the value's index too
            for k in ALWAYS..count {
                let start = (CHUNK * half + usize::from(places[CHUNK * half + k])) % 32;
                let (value, overflow) = decode_at(
                    window[start..start + MAX_BYTES]
                        .try_into()
                        .expect("32 + MAX_BYTES <= READ"),
                );
                if overflow {
                    overflowed = true;
                    break;
                }
                dest[k] = value;
            }
            if overflowed {
                break;
            }
            at += count;
        }
        if overflowed {
            break;
        }

        // Length changes, each chunk's first value against the value
        // before it.
        let same =
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(lens, _mm256_slli_si256::<1>(lens))) as u32;
        let mut before = previous_len;
        for (half, &count) in counts.iter().enumerate() {
            let lens = &lens_by_value[CHUNK * half..];
            let same = same >> (CHUNK * half) & !1 | u32::from(lens[0] == before);
            progress.length_changes += (!same & ((1 << count) - 1)).count_ones() as usize;
            before = lens[count - 1];
        }
        previous_len = before;
        progress.written += at;
        (base, entry) = (base + STEP, next_entry);
    }
    progress.consumed = base + (bytes_of(entry, 0) as u8 - BIAS as u8) as usize;
    progress
}
