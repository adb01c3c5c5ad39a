//! bijou64's batch decoder on AVX-512 VBMI: a 128-byte window per step.
//!
//! A bijou value's first byte says its length, but nothing marks which
//! bytes are first bytes: where value `k + 1` starts depends on value
//! `k`'s tag. So the window is read as a function: every byte `i`, were
//! it a tag, would put the next value at `next[i] = i + len(byte i)`
//! (capped at 127, a sink that maps to itself). The value starts are the
//! orbit of byte 0 under `next`, found for all 128 lanes at once by
//! doubling: seven two-table byte permutes (`vpermi2b`, which treat the
//! window's two vectors as one 128-entry table) of the starts and six of
//! `next` composed with itself, instead of up to 127 dependent loads.
//! Values that end by byte 127 are taken; then, eight at a time, each
//! value's payload bytes are permuted into a 64-bit lane in little-endian
//! order (a tier-0 lane takes its tag), the tier's offset is permuted in
//! from a two-register table and added. An add that carries (only the top
//! tier can) stops the step before the window, so the portable loop
//! reports the overflow where it is.
//!
//! The per-window chain (load, doubling, count, next position) is most of
//! the cost, so the window is as large as two-table permutes reach
//! (measured in `docs/bench/decode-issue-25.md`).
//!
//! Required CPU features: **`avx512f`, `avx512bw`, `avx512vbmi`** (with
//! the OS saving the ZMM registers). The only way in is through
//! [`Avx512Vbmi`], a token that [`Avx512Vbmi::detect`] makes after CPUID
//! (cached by `cpufeatures`) reported them.

use core::arch::x86_64::{
    __m512i, _mm_cvtsi128_si32, _mm512_add_epi8, _mm512_add_epi64, _mm512_and_si512,
    _mm512_castsi512_si128, _mm512_cmple_epu8_mask, _mm512_cmplt_epu8_mask,
    _mm512_cmplt_epu64_mask, _mm512_cmpneq_epi8_mask, _mm512_loadu_si512,
    _mm512_mask_permutexvar_epi8, _mm512_mask_storeu_epi64, _mm512_mask2_permutex2var_epi8,
    _mm512_maskz_permutex2var_epi8, _mm512_min_epu8, _mm512_permutex2var_epi8,
    _mm512_permutex2var_epi64, _mm512_permutexvar_epi8, _mm512_set_epi64, _mm512_set1_epi8,
    _mm512_set1_epi64, _mm512_sub_epi8, _mm512_subs_epu8,
};

use super::VectorProgress;
use crate::bijou64::{OFFSETS, THRESHOLD};

cpufeatures::new!(cpuid, "avx512f", "avx512bw", "avx512vbmi");

/// Proof that the CPU has AVX-512 F, BW and VBMI and that the OS saves
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

    /// Decodes up to `limit` values from whole 128-byte windows at the
    /// front of `input` into `out`.
    #[inline]
    pub(crate) fn decode_windows(
        self,
        input: &[u8],
        out: &mut [u64],
        limit: usize,
    ) -> VectorProgress {
        // SAFETY: `self` exists, so `detect` saw the features that
        // `decode_windows` enables.
        unsafe { decode_windows(input, out, limit) }
    }
}

/// Bytes in a vector.
const LANES: usize = 64;

/// Bytes a step looks at: two vectors, which two-table permutes
/// (`vpermi2b`, 7-bit indexes) treat as one.
const WINDOW: usize = 2 * LANES;

/// The last byte of a window: where `next` sends every value that does
/// not end inside the window, and itself.
const SINK: i8 = (WINDOW - 1) as i8;

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
/// The lane before, across the two vectors of a window: for the low one
/// (lane 0's wraps; it is masked off)...
const PREVIOUS_LOW: [u8; LANES] = lanes!(|i| (i as u8).wrapping_sub(1) & 63);
/// ...and for the high one (the low vector's last lane, then its own).
const PREVIOUS_HIGH: [u8; LANES] = lanes!(|i| (i + 63) as u8);
/// For the eight bytes of 64-bit lane `k`: `k` (which value they gather).
const VALUE_OF_BYTE: [u8; LANES] = lanes!(|i| (i / 8) as u8);
/// For the eight bytes of a 64-bit lane: their significance 0..8.
const SIGNIFICANCE: [u8; LANES] = lanes!(|i| (i % 8) as u8);
/// Lanes (of either vector) whose bit `t` of their index is set, for the
/// first six doubling steps; the seventh takes the high vector whole.
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
/// Byte 0 of every 64-bit lane: always gathered (a tier-0 value's tag, or
/// a payload's last byte).
const LOW_BYTES: u64 = 0x0101_0101_0101_0101;

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

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn decode_windows(input: &[u8], out: &mut [u64], limit: usize) -> VectorProgress {
    let limit = limit.min(out.len());
    let mut progress = VectorProgress {
        consumed: 0,
        written: 0,
        length_changes: 0,
    };
    let mut previous_len = 0;
    while progress.written < limit {
        let Some(window) = input[progress.consumed..].first_chunk::<WINDOW>() else {
            break;
        };
        let Some(step) = decode_window(window, &mut out[progress.written..limit], previous_len)
        else {
            break; // an overflow: the portable loop reports it
        };
        progress.consumed += step.consumed;
        progress.written += step.written;
        progress.length_changes += step.length_changes;
        previous_len = step.last_len;
    }
    progress
}

/// What one window gave.
struct Step {
    consumed: usize,
    written: usize,
    length_changes: usize,
    last_len: u8,
}

/// Decodes the values that lie wholly in `window`, at most `out.len()`
/// (at least 1) of them; `None` if one of them overflows. Each quantity
/// per byte or per value is a pair of vectors (low, high): lanes 0..64
/// and 64..128.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn decode_window(window: &[u8; WINDOW], out: &mut [u64], previous_len: u8) -> Option<Step> {
    let (low, high) = window.split_at(LANES);
    let bytes = [load(low.try_into().ok()?), load(high.try_into().ok()?)];
    let index = load(&INDEX);
    let index = [index, _mm512_add_epi8(index, _mm512_set1_epi8(LANES as i8))];
    let sink = _mm512_set1_epi8(SINK);
    let one = _mm512_set1_epi8(1);
    // Per byte, were it a tag: its tier and where the next value starts.
    let tier = bytes.map(|b| _mm512_subs_epu8(b, _mm512_set1_epi8((THRESHOLD - 1) as i8)));
    let end = [0, 1].map(|h| _mm512_add_epi8(index[h], _mm512_add_epi8(tier[h], one)));
    let mut jump = end.map(|e| _mm512_min_epu8(e, sink));
    // starts[k] = next^k(0), bit by bit of k: after step t, lanes below
    // 2^(t+1) are final, and `jump` is next^(2^(t+1)).
    let zero = _mm512_set1_epi8(0);
    let mut starts = [zero, zero];
    for t in 0..7 {
        let lanes = match BIT_LANES.get(t) {
            Some(&lanes) => [lanes, lanes],
            None => [0, u64::MAX],
        };
        starts =
            [0, 1].map(|h| _mm512_mask2_permutex2var_epi8(jump[0], starts[h], lanes[h], jump[1]));
        if t < 6 {
            jump = [0, 1].map(|h| _mm512_permutex2var_epi8(jump[0], jump[h], jump[1]));
        }
    }
    let ends = starts.map(|s| _mm512_permutex2var_epi8(end[0], s, end[1]));
    // Values that start before the sink and end inside the window: a
    // prefix of the lanes, since starts only grow and stay at the sink.
    let whole = [0, 1]
        .map(|h| _mm512_cmplt_epu8_mask(starts[h], sink) & _mm512_cmple_epu8_mask(ends[h], sink));
    let count = match whole[0] {
        u64::MAX => LANES + whole[1].trailing_ones() as usize,
        low => low.trailing_ones() as usize,
    };
    let count = count.min(out.len());
    debug_assert!(count > 0, "a window holds a whole value");

    let tiers = starts.map(|s| _mm512_permutex2var_epi8(tier[0], s, tier[1]));
    // The last payload byte of each value (its tag for tier 0).
    let lasts = ends.map(|e| _mm512_sub_epi8(e, one));
    let offsets_low = _mm512_set_epi64(
        OFFSETS[7] as i64,
        OFFSETS[6] as i64,
        OFFSETS[5] as i64,
        OFFSETS[4] as i64,
        OFFSETS[3] as i64,
        OFFSETS[2] as i64,
        OFFSETS[1] as i64,
        OFFSETS[0] as i64,
    );
    let offsets_high = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, OFFSETS[8] as i64);
    let (value_of_byte, significance) = (load(&VALUE_OF_BYTE), load(&SIGNIFICANCE));
    for group in 0..count.div_ceil(8) {
        let (half, within) = (group / 8, group % 8);
        let gather = _mm512_add_epi8(value_of_byte, _mm512_set1_epi8(8 * within as i8));
        let last = _mm512_permutexvar_epi8(gather, lasts[half]);
        let tier = _mm512_permutexvar_epi8(gather, tiers[half]);
        // Byte j of a lane (significance j) is the j-th byte back from
        // the value's last; only the value's `tier` bytes (or its tag).
        let from = _mm512_sub_epi8(last, significance);
        let keep = _mm512_cmplt_epu8_mask(significance, tier) | LOW_BYTES;
        let payload = _mm512_maskz_permutex2var_epi8(keep, bytes[0], from, bytes[1]);
        let tier = _mm512_and_si512(tier, _mm512_set1_epi64(0xFF));
        let offset = _mm512_permutex2var_epi64(offsets_low, tier, offsets_high);
        let value = _mm512_add_epi64(payload, offset);
        let lanes_here = (count - 8 * group).min(8);
        let lane_mask = (u16::MAX >> (16 - lanes_here)) as u8;
        if _mm512_cmplt_epu64_mask(value, offset) & lane_mask != 0 {
            return None;
        }
        let dest = &mut out[8 * group..8 * group + lanes_here];
        // SAFETY: the store writes only the `lanes_here` lanes of
        // `lane_mask`, which are `dest`'s elements.
        unsafe { _mm512_mask_storeu_epi64(dest.as_mut_ptr().cast(), lane_mask, value) };
    }

    let lens = [0, 1].map(|h| _mm512_sub_epi8(ends[h], starts[h]));
    let previous = [
        _mm512_mask_permutexvar_epi8(
            _mm512_set1_epi8(previous_len as i8),
            !1,
            load(&PREVIOUS_LOW),
            lens[0],
        ),
        _mm512_permutex2var_epi8(lens[0], load(&PREVIOUS_HIGH), lens[1]),
    ];
    let taken = [count.min(LANES), count.saturating_sub(LANES)].map(|n| match n {
        0 => 0,
        n => u64::MAX >> (64 - n),
    });
    let changes: u32 = [0, 1]
        .map(|h| (_mm512_cmpneq_epi8_mask(lens[h], previous[h]) & taken[h]).count_ones())
        .iter()
        .sum();
    let (half, lane) = ((count - 1) / LANES, (count - 1) % LANES);
    Some(Step {
        consumed: byte_at(ends[half], lane),
        written: count,
        length_changes: changes as usize,
        last_len: byte_at(lens[half], lane) as u8,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bijou64;
    use proptest::prelude::*;
    use std::{println, vec, vec::Vec};

    /// `decode_windows` on `input` against `bijou64::decode` value after
    /// value: the same values and bytes, the same length changes, and a
    /// stop before `limit` only with fewer than 64 bytes left or an
    /// overflow in the next window.
    fn agrees_with_decode(token: Avx512Vbmi, input: &[u8], limit: usize) {
        let mut out = vec![0u64; limit];
        let got = token.decode_windows(input, &mut out, limit);
        let (mut at, mut changes, mut previous_len) = (0, 0, 0);
        for (k, &value) in out[..got.written].iter().enumerate() {
            let (want, len) = bijou64::decode(&input[at..]).expect("a taken value decodes");
            assert_eq!(value, want, "value {k} at byte {at} of {input:02X?}");
            changes += usize::from(len != previous_len);
            (at, previous_len) = (at + len, len);
        }
        assert_eq!(got.consumed, at, "{input:02X?}");
        assert_eq!(got.length_changes, changes, "{input:02X?}");
        if got.written < limit && input.len() - at >= WINDOW {
            let mut next = at;
            let overflow = loop {
                match bijou64::decode(&input[next..]) {
                    Ok((_, len)) if next + len < at + WINDOW => next += len,
                    Ok(_) => break false,
                    Err(error) => break error == crate::DecodeError::Overflow,
                }
            };
            assert!(
                overflow,
                "stopped at byte {at} of {input:02X?} with no overflow ahead"
            );
        }
    }

    /// Bytes with tags of every tier common (uniform bytes are 97% single
    /// values), and all-`FF` runs for overflows.
    fn stream() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![4 => any::<u8>(), 4 => 0xF7u8..=0xFF, 1 => Just(0xFF)],
            0..400,
        )
    }

    /// Mostly single bytes, so a window holds more than 64 values and
    /// the high vector's lanes hold values too.
    fn dense_stream() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(prop_oneof![12 => 0u8..0xF8, 1 => 0xF8u8..=0xFF], 0..400)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn windows_decode_like_decode(input in stream(), limit in 0usize..200) {
            let Some(token) = Avx512Vbmi::detect() else { return Ok(()) };
            agrees_with_decode(token, &input, limit);
        }

        #[test]
        fn dense_windows_decode_like_decode(input in dense_stream(), limit in 0usize..300) {
            let Some(token) = Avx512Vbmi::detect() else { return Ok(()) };
            agrees_with_decode(token, &input, limit);
        }
    }

    /// Every tier in every position of a window: each tier's first and
    /// last value, shifted by 0..9 single bytes so each straddles the
    /// window's end at every offset.
    #[test]
    fn every_tier_at_every_offset() {
        let Some(token) = Avx512Vbmi::detect() else {
            println!("no AVX-512 VBMI here: nothing to check");
            return;
        };
        let mut values = Vec::new();
        for tier in 1..=8 {
            values.extend([bijou64::OFFSETS[tier], bijou64::OFFSETS[tier] - 1]);
        }
        values.extend([0, u64::MAX]);
        for shift in 0..bijou64::MAX_BYTES {
            let mut input = vec![7u8; shift];
            for _ in 0..8 {
                bijou64::encode_batch(&values, &mut input);
            }
            for limit in [1, 7, 8, 9, 63, 64, 1000] {
                agrees_with_decode(token, &input, limit);
            }
        }
    }

    /// An overflow anywhere in a window stops the step before the window.
    #[test]
    fn an_overflow_stops_before_its_window() {
        let Some(token) = Avx512Vbmi::detect() else {
            return;
        };
        for at in 0..80 {
            let mut input = vec![0x01u8; at];
            input.extend([0xFF; 9]);
            input.extend([0x02; 80]);
            agrees_with_decode(token, &input, 200);
        }
    }
}
