//! The batch decoder on AVX-512 VBMI, every width: fixed 64-byte chunks.
//!
//! A bijou value's first byte says its length, but nothing marks which
//! bytes are first bytes: where value `k + 1` starts depends on value
//! `k`'s tag. A decoder that steps from value to value, or from window
//! to window of values, waits for that chain at every step. This one
//! walks the input in chunks at fixed addresses instead, and carries
//! only where the first value of each chunk starts (its entry, below
//! the width's longest value).
//!
//! A chunk is read as a function: every byte `i` of it, were it a tag,
//! would put the next value at `next[i] = i + len(byte i)`; positions
//! past the chunk (64..128, the next chunk's) map to themselves. Composed
//! with itself six times by two-table byte permutes (`vpermi2b`), `next`
//! gives `next^64`, which sends each entry to the next chunk's entry:
//! none of that waits for this chunk's entry, so the loop-carried chain
//! is one byte lookup a chunk. From the entry, the same powers give every
//! value start (`starts[k] = next^k(entry)`, bit by bit of `k`); then,
//! a vector at a time (sixteen bijou32 values, eight bijou64, four
//! bijou128), each
//! value's payload bytes are permuted into its lane in little-endian
//! order (a tier-0 lane takes its tag), and the tier's offset, built
//! byte by byte the same way, is added. An add that carries (only the
//! top tier can) stops before the chunk, so the portable loop reports the
//! overflow where it is. Only that last step depends on the width
//! ([`ChunkWidth`]).
//!
//! Required CPU features: **`avx512f`, `avx512bw`, `avx512vbmi`,
//! `popcnt`** (with
//! the OS saving the ZMM registers). The only way in is through
//! [`Avx512Vbmi`], a token that [`Avx512Vbmi::detect`] makes after CPUID
//! (cached by `cpufeatures`) reported them.

use core::arch::x86_64::{
    __m512i, _mm_cvtsi128_si32, _mm512_add_epi8, _mm512_add_epi32, _mm512_add_epi64,
    _mm512_castsi512_si128, _mm512_cmpeq_epi64_mask, _mm512_cmplt_epu8_mask,
    _mm512_cmplt_epu32_mask, _mm512_cmplt_epu64_mask, _mm512_cmpneq_epi8_mask, _mm512_loadu_si512,
    _mm512_mask_add_epi64, _mm512_mask_permutexvar_epi8, _mm512_mask_storeu_epi32,
    _mm512_mask_storeu_epi64, _mm512_mask2_permutex2var_epi8, _mm512_maskz_mov_epi8,
    _mm512_maskz_permutex2var_epi8, _mm512_permutex2var_epi8, _mm512_permutexvar_epi8,
    _mm512_set1_epi8, _mm512_set1_epi64, _mm512_setzero_si512, _mm512_sub_epi8, _mm512_subs_epu8,
};

use super::VectorProgress;
use crate::{bijou32, bijou64, bijou128};

cpufeatures::new!(cpuid, "avx512f", "avx512bw", "avx512vbmi", "popcnt");

/// Proof that the CPU has AVX-512 F, BW and VBMI and POPCNT, and that the OS saves
/// the ZMM registers (`cpufeatures` checks both).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Vbmi(());

impl Avx512Vbmi {
    /// The token, if the CPU supports every feature this module enables.
    /// Cheap after the first call.
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        cpuid::get().then_some(Avx512Vbmi(()))
    }

    /// Decodes the values that start in whole 64-byte chunks at the
    /// front of `input` into `out` until `limit` values are written; the
    /// last chunk's values past `limit` are kept too, as they cost
    /// nothing more. Stops with fewer than 128 bytes or 64 slots of `out`
    /// left, or before a chunk holding an overflow.
    #[inline]
    pub(crate) fn decode_windows<W: ChunkWidth>(
        self,
        input: &[u8],
        out: &mut [W],
        limit: usize,
    ) -> VectorProgress {
        // SAFETY: `self` exists, so `detect` saw the features that
        // `decode_chunks` enables.
        unsafe { decode_chunks(input, out, limit) }
    }
}

/// Bytes in a vector, and in a chunk: at most this many values start in
/// one.
pub(crate) const LANES: usize = 64;

/// Bytes a chunk's step reads: the chunk and the next, which holds the
/// rest of the values that start near the chunk's end.
pub(crate) const READ: usize = 2 * LANES;

/// `$value` (of `$i`) for each byte lane `$i` of a vector.
macro_rules! lanes {
    (|$i:ident| $value:expr) => {{
        let mut out = [0u8; LANES];
        let mut $i = 0;
        while $i < LANES {
            out[$i] = $value;
            $i += 1;
        }
        out
    }};
}

/// Each lane's own index.
const INDEX: [u8; LANES] = lanes!(|i| i as u8);
/// Positions 64..128: the next chunk's, where `next` is the identity.
const BEYOND: [u8; LANES] = lanes!(|i| (LANES + i) as u8);
/// The lane before (lane 0's wraps; it is masked off).
const PREVIOUS: [u8; LANES] = lanes!(|i| (i as u8).wrapping_sub(1) & 63);
/// Lanes whose bit `t` of their index is set, for the six doubling steps.
const BIT_LANES: [u64; 6] = {
    let mut masks = [0u64; 6];
    let mut i = 0;
    while i < LANES {
        let mut t = 0;
        while t < 6 {
            if i >> t & 1 == 1 {
                masks[t] |= 1 << i;
            }
            t += 1;
        }
        i += 1;
    }
    masks
};

/// A width the chunk decoder serves: its tags, its offsets, and the last
/// step, which adds a vector of offsets and stores the values.
pub(crate) trait ChunkWidth: Copy {
    /// The width's `THRESHOLD`: its smallest multi-byte tag.
    const THRESHOLD: u8;
    /// Values in a vector: 64 over the integer's bytes.
    const PER_VECTOR: usize;
    /// For each byte of a vector, the value (lane) it belongs to.
    const VALUE_OF_BYTE: [u8; LANES];
    /// For each byte of a vector, its significance in its lane.
    const SIGNIFICANCE: [u8; LANES];
    /// Byte 0 of every lane: always gathered (a tier-0 value's tag, or a
    /// payload's last byte).
    const LOW_BYTES: u64;
    /// For each byte of a vector, that byte of every multi-byte tier's
    /// offset whose tier is above the byte's significance: the offset of
    /// tier `t` is `THRESHOLD + 256 + … + 256^(t-1)`, in little-endian
    /// order `THRESHOLD 01 … 01` over its first `t` bytes (no byte
    /// carries), and tier 0's is 0.
    const OFFSET_BYTES: [u8; LANES];

    /// Adds `offset` to `payload` lane by lane and stores the first
    /// `count` lanes to `out`; false, storing nothing, if one of them
    /// overflows.
    ///
    /// # Safety
    ///
    /// The CPU has the features of [`Avx512Vbmi`]; `out` holds at least
    /// `count` values, and `count` is at most `PER_VECTOR`.
    unsafe fn add_and_store(
        payload: __m512i,
        offset: __m512i,
        count: usize,
        out: &mut [Self],
    ) -> bool;
}

/// Byte 0 of every `bytes`-byte lane of a vector, as a byte mask.
const fn low_bytes(bytes: usize) -> u64 {
    let (mut mask, mut byte) = (0, 0);
    while byte < LANES {
        mask |= 1 << byte;
        byte += bytes;
    }
    mask
}

/// Implements [`ChunkWidth`] for `$uint`, the integer of the width module
/// `$width`, with `$store` as its last step.
macro_rules! chunk_width {
    ($uint:ty, $width:ident, $store:ident) => {
        impl ChunkWidth for $uint {
            const THRESHOLD: u8 = $width::THRESHOLD;
            const PER_VECTOR: usize = LANES / size_of::<$uint>();
            const VALUE_OF_BYTE: [u8; LANES] = lanes!(|i| (i / size_of::<$uint>()) as u8);
            const SIGNIFICANCE: [u8; LANES] = lanes!(|i| (i % size_of::<$uint>()) as u8);
            const LOW_BYTES: u64 = low_bytes(size_of::<$uint>());
            const OFFSET_BYTES: [u8; LANES] = lanes!(|i| if i % size_of::<$uint>() == 0 {
                $width::THRESHOLD
            } else {
                1
            });

            #[inline(always)]
            unsafe fn add_and_store(
                payload: __m512i,
                offset: __m512i,
                count: usize,
                out: &mut [$uint],
            ) -> bool {
                // SAFETY: the caller guarantees the features and `out`'s
                // length.
                unsafe { $store(payload, offset, count, out) }
            }
        }
    };
}

chunk_width!(u32, bijou32, store_u32);
chunk_width!(u64, bijou64, store_u64);
chunk_width!(u128, bijou128, store_u128);

/// [`ChunkWidth::add_and_store`] for bijou128: each 128-bit add as two
/// 64-bit adds and a carry.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn store_u128(payload: __m512i, offset: __m512i, count: usize, out: &mut [u128]) -> bool {
    let sum = _mm512_add_epi64(payload, offset);
    let carries = _mm512_cmplt_epu64_mask(sum, offset);
    // A low half's carry goes into its high half (the next 64-bit lane).
    let carried = (carries & 0x55) << 1;
    let value = _mm512_mask_add_epi64(sum, carried, sum, _mm512_set1_epi64(1));
    let wrapped = carried & _mm512_cmpeq_epi64_mask(value, _mm512_setzero_si512());
    let lane_mask = ((1u16 << (2 * count)) - 1) as u8;
    if ((carries & 0xAA) | wrapped) & lane_mask != 0 {
        return false;
    }
    let dest = &mut out[..count];
    // SAFETY: the store writes only the `2 * count` 64-bit lanes of
    // `lane_mask`, which are `dest`'s elements.
    unsafe { _mm512_mask_storeu_epi64(dest.as_mut_ptr().cast(), lane_mask, value) };
    true
}

/// [`ChunkWidth::add_and_store`] for bijou64.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn store_u64(payload: __m512i, offset: __m512i, count: usize, out: &mut [u64]) -> bool {
    let value = _mm512_add_epi64(payload, offset);
    let lane_mask = ((1u16 << count) - 1) as u8;
    if _mm512_cmplt_epu64_mask(value, offset) & lane_mask != 0 {
        return false;
    }
    let dest = &mut out[..count];
    // SAFETY: the store writes only the `count` lanes of `lane_mask`,
    // which are `dest`'s elements.
    unsafe { _mm512_mask_storeu_epi64(dest.as_mut_ptr().cast(), lane_mask, value) };
    true
}

/// [`ChunkWidth::add_and_store`] for bijou32.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn store_u32(payload: __m512i, offset: __m512i, count: usize, out: &mut [u32]) -> bool {
    let value = _mm512_add_epi32(payload, offset);
    let lane_mask = ((1u32 << count) - 1) as u16;
    if _mm512_cmplt_epu32_mask(value, offset) & lane_mask != 0 {
        return false;
    }
    let dest = &mut out[..count];
    // SAFETY: the store writes only the `count` lanes of `lane_mask`,
    // which are `dest`'s elements.
    unsafe { _mm512_mask_storeu_epi32(dest.as_mut_ptr().cast(), lane_mask, value) };
    true
}

/// The vector holding `bytes`.
#[target_feature(enable = "avx512f")]
fn load(bytes: &[u8; LANES]) -> __m512i {
    // SAFETY: `bytes` is 64 readable bytes; the load is unaligned.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// Lane `lane` of a byte vector.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn byte_at(vector: __m512i, lane: usize) -> usize {
    let moved = _mm512_permutexvar_epi8(_mm512_set1_epi8(lane as i8), vector);
    (_mm_cvtsi128_si32(_mm512_castsi512_si128(moved)) & 0xFF) as usize
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
fn decode_chunks<W: ChunkWidth>(input: &[u8], out: &mut [W], limit: usize) -> VectorProgress {
    let limit = limit.min(out.len());
    // The entry stays in every lane of a vector: the next one is then a
    // single permute of this one, the loop's whole carried chain.
    let (mut base, mut entry, mut previous_len) = (0, _mm512_set1_epi8(0), 0);
    let mut progress = VectorProgress::default();
    while progress.written < limit && out.len() - progress.written >= LANES {
        let Some(bytes) = input[base..].first_chunk::<READ>() else {
            break;
        };
        let Some(step) = decode_chunk(bytes, entry, &mut out[progress.written..], previous_len)
        else {
            break; // an overflow: the portable loop reports it
        };
        progress.written += step.written;
        progress.length_changes += step.length_changes;
        previous_len = step.last_len;
        (base, entry) = (base + LANES, step.next_entry);
    }
    progress.consumed = base + byte_at(entry, 0);
    progress
}

/// Vectors of values a chunk decodes whether or not it has them: a
/// chunk of an unpredictable bijou64 stream holds 8 to 20 values.
const ALWAYS_GROUPS: usize = 2;

/// A chunk's values: their tiers and last bytes by value (lane `k` for
/// the `k`-th value), the chunk's bytes to gather their payloads from.
struct Values {
    bytes: [__m512i; 2],
    tiers: __m512i,
    lasts: __m512i,
    count: usize,
}

impl Values {
    /// Stores values `W::PER_VECTOR * group..` (a vector's worth, none
    /// past `count`) to the same places of `out` (at least 64 slots);
    /// false, storing nothing, if one of them overflows.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn store_group<W: ChunkWidth>(&self, group: usize, out: &mut [W]) -> bool {
        let first = W::PER_VECTOR * group;
        let significance = load(&W::SIGNIFICANCE);
        let gather = _mm512_add_epi8(load(&W::VALUE_OF_BYTE), _mm512_set1_epi8(first as i8));
        let last = _mm512_permutexvar_epi8(gather, self.lasts);
        let tier = _mm512_permutexvar_epi8(gather, self.tiers);
        // Byte j of a lane (significance j) is the j-th byte back from
        // the value's last; only the value's `tier` bytes (or its tag).
        let from = _mm512_sub_epi8(last, significance);
        let below_tier = _mm512_cmplt_epu8_mask(significance, tier);
        let payload = _mm512_maskz_permutex2var_epi8(
            below_tier | W::LOW_BYTES,
            self.bytes[0],
            from,
            self.bytes[1],
        );
        let offset = _mm512_maskz_mov_epi8(below_tier, load(&W::OFFSET_BYTES));
        let count = self.count.saturating_sub(first).min(W::PER_VECTOR);
        // SAFETY: this function enables the module's features; `out` has
        // 64 slots, so at least `first + count`; `count` is at most a
        // vector's.
        unsafe { W::add_and_store(payload, offset, count, &mut out[first..]) }
    }
}

/// What one chunk gave.
struct Step {
    written: usize,
    length_changes: usize,
    last_len: u8,
    /// Where the next chunk's first value starts, from that chunk's
    /// start, in every lane.
    next_entry: __m512i,
}

/// Decodes the values that start in the first 64 bytes of `window`, the
/// first at `entry` (at most 8, in every lane), into `out` (at least 64
/// slots); `None` if one of them overflows.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
fn decode_chunk<W: ChunkWidth>(
    window: &[u8; READ],
    entry: __m512i,
    out: &mut [W],
    previous_len: u8,
) -> Option<Step> {
    let (low, high) = window.split_at(LANES);
    let bytes = [load(low.try_into().ok()?), load(high.try_into().ok()?)];
    let one = _mm512_set1_epi8(1);
    let lanes = _mm512_set1_epi8(LANES as i8);
    let beyond = load(&BEYOND);
    // Per byte of the chunk, were it a tag: its tier and where the next
    // value starts (at most 72, in the next chunk).
    let tier = _mm512_subs_epu8(bytes[0], _mm512_set1_epi8((W::THRESHOLD - 1) as i8));
    let mut jump = _mm512_add_epi8(load(&INDEX), _mm512_add_epi8(tier, one));
    // starts[k] = next^k(entry), bit by bit of k: after step t, lanes
    // below 2^(t+1) are final, and `jump` is next^(2^(t+1)).
    let mut starts = entry;
    for &lanes_with_bit in &BIT_LANES {
        starts = _mm512_mask2_permutex2var_epi8(jump, starts, lanes_with_bit, beyond);
        jump = _mm512_permutex2var_epi8(jump, jump, beyond);
    }
    // `jump` is next^64: every entry's orbit has left the chunk by then.
    let next_entry = _mm512_sub_epi8(_mm512_permutexvar_epi8(entry, jump), lanes);
    // The values that start in the chunk: a prefix of the lanes, since
    // starts only grow and stay put past the chunk. At least the entry's.
    let taken = _mm512_cmplt_epu8_mask(starts, lanes);
    let count = taken.count_ones() as usize;

    let tiers = _mm512_permutexvar_epi8(starts, tier);
    let values = Values {
        bytes,
        // The last payload byte of each value (its tag for tier 0).
        lasts: _mm512_add_epi8(starts, tiers),
        tiers,
        count,
    };
    // The first groups unconditionally (an empty one stores nothing), so
    // a count that varies around the usual one costs no misprediction.
    for group in 0..ALWAYS_GROUPS {
        if !values.store_group(group, out) {
            return None;
        }
    }
    for group in ALWAYS_GROUPS..count.div_ceil(W::PER_VECTOR) {
        if !values.store_group(group, out) {
            return None;
        }
    }

    let lens = _mm512_add_epi8(tiers, one);
    let previous = _mm512_mask_permutexvar_epi8(
        _mm512_set1_epi8(previous_len as i8),
        !1,
        load(&PREVIOUS),
        lens,
    );
    let changes = (_mm512_cmpneq_epi8_mask(lens, previous) & taken).count_ones();
    Some(Step {
        written: count,
        length_changes: changes as usize,
        last_len: byte_at(lens, count - 1) as u8,
        next_entry,
    })
}
