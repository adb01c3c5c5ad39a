//! bijou64's batch decoder on SSSE3: fixed 16-byte chunks, values at
//! known places.
//!
//! The scheme of [`super::avx512`] at a sixteenth of the width: the input
//! is walked in chunks at fixed addresses, and only where the first value
//! of each chunk starts (its entry, 0..=8) is carried from chunk to chunk.
//! Each byte `i` of a chunk, were it a tag, puts the next value at
//! `next[i] = i + len(byte i)`; positions past the chunk map to
//! themselves. `pshufb` composes two such maps within 16 bytes: a lane
//! whose position is past the chunk (16..=24) looks up nothing and keeps
//! its own position by a byte max, since `next[i] > i` for every `i` in
//! the chunk. Positions are kept biased by `0x70` so that exactly those
//! past the chunk have the top bit set, which `pshufb` reads as "zero".
//! Four squarings give `next^16`, which sends each entry to the next
//! chunk's, so the loop-carried chain is one `pshufb` and a subtraction a
//! chunk; the same powers give every value start from the entry.
//!
//! The values themselves are decoded by a scalar, branch-free pass at
//! those starts: no value's place waits for the one before it, so the
//! passes of successive values overlap. The first [`ALWAYS`] of a chunk
//! are decoded whether or not the chunk has them (a count that varies
//! then mispredicts nothing); the extra ones, which repeat the next
//! chunk's first value, are stored under the chunk's last value before it
//! is. A value that overflows (only the top tier can) stops the walk
//! before its chunk, so the portable loop reports it where it is.
//!
//! Required CPU features: **`ssse3`, `popcnt`**. The only way in is
//! through [`Ssse3`], a token that [`Ssse3::detect`] makes after CPUID
//! (cached by `cpufeatures`) reported them.

use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cvtsi32_si128, _mm_cvtsi128_si32, _mm_cvtsi128_si64,
    _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setr_epi8,
    _mm_shuffle_epi8, _mm_slli_si128, _mm_sub_epi8, _mm_subs_epu8, _mm_unpackhi_epi64,
};

use super::VectorProgress;
use crate::bijou64::{MAX_BYTES, OFFSETS, THRESHOLD};

cpufeatures::new!(cpuid, "ssse3", "popcnt");

/// Proof that the CPU has SSSE3 and POPCNT.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ssse3(());

impl Ssse3 {
    /// The token, if the CPU supports every feature this module enables.
    /// Cheap after the first call.
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        cpuid::get().then_some(Ssse3(()))
    }

    /// Decodes the values that start in whole 16-byte chunks at the
    /// front of `input` into `out` until `limit` values are written; the
    /// last chunk's values past `limit` are kept too. Stops with fewer
    /// than [`READ`] bytes or [`LANES`] slots of `out` left, or before a
    /// chunk holding an overflow.
    #[inline]
    pub(crate) fn decode_windows(
        self,
        input: &[u8],
        out: &mut [u64],
        limit: usize,
    ) -> VectorProgress {
        // SAFETY: `self` exists, so `detect` saw the features that
        // `decode_chunks` enables.
        unsafe { decode_chunks(input, out, limit) }
    }
}

/// Bytes in a vector, and in a chunk: at most this many values start in
/// one.
pub(crate) const LANES: usize = 16;

/// Bytes a chunk's step may read: a value starting in the chunk ends at
/// most 24 bytes from its start, and the first value past the chunk
/// (which the unconditional decodes may meet) at most 33.
pub(crate) const READ: usize = 48;

/// Values decoded per chunk whether it has them or not: a chunk of an
/// unpredictable stream holds 2 to 8 values.
const ALWAYS: usize = 4;

/// Added to every position so that those past the chunk (16 and up) have
/// the top bit set, and `pshufb` gives zero for them.
const BIAS: i8 = 0x70;

/// Decodes the value starting at byte 0 of `block`, without a branch on
/// its tier: (value, length, overflowed).
#[inline(always)]
fn decode_at(block: &[u8; MAX_BYTES]) -> (u64, usize, bool) {
    let [tag, payload @ ..] = *block;
    let tier = usize::from(tag.saturating_sub(THRESHOLD - 1));
    let single_byte = u64::from(tier == 0).wrapping_neg();
    // Tier 0 would shift by 64: the count wraps and the mask clears the
    // rest, so a single byte's payload is 0 and cannot overflow.
    let payload = u64::from_be_bytes(payload).wrapping_shr((8 * (8 - tier)) as u32) & !single_byte;
    let (sum, overflowed) = OFFSETS[tier].overflowing_add(payload);
    (sum | (u64::from(tag) & single_byte), tier + 1, overflowed)
}

/// The window's `MAX_BYTES` from `at`, which is at most 24 (the mask
/// only proves that the slice is in bounds).
#[inline(always)]
fn block_at(window: &[u8; READ], at: usize) -> &[u8; MAX_BYTES] {
    let at = at % 32;
    window[at..at + MAX_BYTES]
        .try_into()
        .expect("32 + MAX_BYTES <= READ")
}

/// The 16 bytes of `vector`, byte `k` at bits `8 * k..`.
#[inline]
#[target_feature(enable = "ssse3")]
fn bytes_of(vector: __m128i) -> u128 {
    let low = _mm_cvtsi128_si64(vector) as u64;
    let high = _mm_cvtsi128_si64(_mm_unpackhi_epi64(vector, vector)) as u64;
    u128::from(low) | u128::from(high) << 64
}

/// `map` after `at` (biased positions in and out): a lane of `at` past
/// the chunk keeps its position.
#[inline]
#[target_feature(enable = "ssse3")]
fn compose(map: __m128i, at: __m128i) -> __m128i {
    _mm_max_epu8(_mm_shuffle_epi8(map, at), at)
}

#[target_feature(enable = "ssse3,popcnt")]
fn decode_chunks(input: &[u8], out: &mut [u64], limit: usize) -> VectorProgress {
    let limit = limit.min(out.len());
    // Lanes whose bit `t` of their index is clear: they keep their start
    // at doubling step `t` (the top bit makes `pshufb` give zero).
    let keep = |t: u32| -> __m128i {
        let lane = |i: i8| if i >> t & 1 == 0 { -0x80 } else { 0 };
        _mm_setr_epi8(
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
    let index = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let biased_next = _mm_add_epi8(index, _mm_set1_epi8(BIAS + 1));
    let tag_floor = _mm_set1_epi8((THRESHOLD - 1) as i8);
    let lanes = _mm_set1_epi8(LANES as i8);

    // The entry, biased, in every lane.
    let (mut base, mut entry) = (0, _mm_set1_epi8(BIAS));
    let mut previous_len = 0;
    let mut progress = VectorProgress {
        consumed: 0,
        written: 0,
        length_changes: 0,
    };
    while progress.written < limit && out.len() - progress.written >= LANES {
        let Some(window) = input[base..].first_chunk::<READ>() else {
            break;
        };
        // SAFETY: `window` is at least 16 readable bytes; the load is
        // unaligned.
        let bytes = unsafe { _mm_loadu_si128(window.as_ptr().cast()) };
        let tiers = _mm_subs_epu8(bytes, tag_floor);
        let mut jump = _mm_add_epi8(biased_next, tiers);
        // starts[k] = next^k(entry), bit by bit of k; `jump` doubles to
        // next^16, by which every entry's orbit has left the chunk.
        let mut starts = entry;
        for keep in keeps {
            starts = _mm_max_epu8(_mm_shuffle_epi8(jump, _mm_or_si128(starts, keep)), starts);
            jump = compose(jump, jump);
        }
        let next_entry = _mm_sub_epi8(_mm_shuffle_epi8(jump, entry), lanes);
        // Starts only grow and stay put past the chunk, so the values in
        // the chunk are the lanes before the first with the top bit.
        let count = (_mm_movemask_epi8(starts) as u32 | 1 << LANES).trailing_zeros() as usize;
        let lens = _mm_add_epi8(_mm_shuffle_epi8(tiers, starts), _mm_set1_epi8(1));

        // The starts and lengths as bytes of an integer, byte `k` for value
        // `k`: shifts, where a store and byte loads would wait for
        // store forwarding.
        let places = bytes_of(_mm_sub_epi8(starts, _mm_set1_epi8(BIAS)));
        let place = |k: usize| usize::from((places >> (8 * k)) as u8);
        let decode = |k: usize| decode_at(block_at(window, place(k)));
        let first: [_; ALWAYS] = core::array::from_fn(decode);
        let mut overflowed = false;
        for (k, (_, _, overflow)) in first.into_iter().enumerate() {
            overflowed |= overflow & (k < count);
        }
        if overflowed {
            break; // the portable loop reports it
        }
        let dest = &mut out[progress.written..progress.written + LANES];
        #[allow(clippy::needless_range_loop)] // `k` is the value's index too
        for k in ALWAYS..count {
            let (value, _, overflow) = decode(k);
            if overflow {
                overflowed = true;
                break;
            }
            dest[k] = value;
        }
        if overflowed {
            break;
        }
        // Last first, so a value past the count lands under the chunk's
        // last value before that is stored.
        for (k, (value, _, _)) in first.into_iter().enumerate().rev() {
            dest[k.min(count - 1)] = value;
        }

        let previous = _mm_or_si128(_mm_slli_si128(lens, 1), _mm_cvtsi32_si128(previous_len));
        let same = _mm_movemask_epi8(_mm_cmpeq_epi8(lens, previous)) as u32;
        progress.length_changes += (!same & ((1 << count) - 1)).count_ones() as usize;
        previous_len = i32::from((bytes_of(lens) >> (8 * (count - 1))) as u8);
        progress.written += count;
        (base, entry) = (base + LANES, next_entry);
    }
    progress.consumed = base + (_mm_cvtsi128_si32(entry) & 0xFF) as usize - BIAS as usize;
    progress
}
