//! The collision filter's bit planes from the Arm SHA kernel's groups
//! (W_{4k} in lane 0), W\[32..68\]: `tbl` gathers the words' low and top
//! bytes in order of t, three delta swaps per 64-bit lane transpose each
//! 8×8 bit matrix, and one more lookup per two planes collects them.

use crate::checked::ubc::Planes;
use core::arch::aarch64::{
    uint8x16_t, uint8x16x2_t, uint8x16x3_t, uint8x16x4_t, uint32x4_t, uint64x2_t, vandq_u8,
    vandq_u64, vcombine_u8, vcreate_u8, vdupq_n_u8, vdupq_n_u64, veorq_u64, vgetq_lane_u64,
    vqtbl1q_u8, vqtbl2q_u8, vqtbl3q_u8, vqtbl4q_u8, vreinterpretq_u8_u32, vreinterpretq_u8_u64,
    vreinterpretq_u64_u8, vshlq_n_u64, vshrq_n_u8, vshrq_n_u64, vsriq_n_u8,
};

/// The groups of W\[32..68\], W_{4k} in each lane 0.
pub(crate) type Groups = [uint32x4_t; 9];

/// A table index that selects nothing: `tbl` writes zero for it.
const NONE: u8 = 0xFF;

/// Sixteen bytes as the two halves `vcreate_u8` takes.
const fn halves(bytes: [u8; 16]) -> [u64; 2] {
    let (mut lo, mut hi) = ([0; 8], [0; 8]);
    let mut i = 0;
    while i < 8 {
        lo[i] = bytes[i];
        hi[i] = bytes[8 + i];
        i += 1;
    }
    [u64::from_le_bytes(lo), u64::from_le_bytes(hi)]
}

/// From four groups (64 bytes, word t of them at byte 4t): byte `byte` of
/// each of the sixteen words, in order of t.
const fn gather(byte: u8) -> [u64; 2] {
    let mut index = [0; 16];
    let mut t = 0;
    while t < 16 {
        index[t] = 4 * t as u8 + byte;
        t += 1;
    }
    halves(index)
}

/// From the last group: the low bytes of its four words, then their top
/// bytes, then zeros.
const GATHER_TAIL: [u64; 2] = halves([
    0, 4, 8, 12, 3, 7, 11, 15, NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE,
]);

/// From transposed bytes: planes `first` and `second` (bit positions
/// within the byte; `None` gives zero) in the two 64-bit lanes, plane bits
/// 8n..8n+8 from table byte `from[n] + bit`.
const fn collect(from: [u8; 5], first: u8, second: Option<u8>) -> [u64; 2] {
    let mut index = [NONE; 16];
    let mut n = 0;
    while n < 5 {
        index[n] = from[n] + first;
        if let Some(second) = second {
            index[8 + n] = from[n] + second;
        }
        n += 1;
    }
    halves(index)
}

/// Where [`planes`] finds the bytes of a low plane: words 0–7 and 8–15 in
/// the first register's lanes, 16–31 in the second's, 32–35 in the third.
const LOW_BYTES: [u8; 5] = [0, 8, 16, 24, 32];

/// Where [`planes`] finds the bytes of a top plane (bits 28–30, at bits
/// 0–2 of the bytes): words 0–7 and 8–15 at the start of the first
/// register's lanes, 16–23 and 24–31 four bytes on, 32–35 in the second.
const TOP_BYTES: [u8; 5] = [0, 8, 4, 12, 20];

/// The register whose bytes are `halves`.
#[target_feature(enable = "neon")]
#[inline]
fn bytes(halves: [u64; 2]) -> uint8x16_t {
    vcombine_u8(vcreate_u8(halves[0]), vcreate_u8(halves[1]))
}

/// One delta swap: the bits in `mask` trade places with the bits `SHIFT`
/// above them.
#[target_feature(enable = "neon")]
#[inline]
fn swap<const SHIFT: i32>(x: uint64x2_t, mask: u64) -> uint64x2_t {
    let trade = vandq_u64(veorq_u64(x, vshrq_n_u64::<SHIFT>(x)), vdupq_n_u64(mask));
    veorq_u64(x, veorq_u64(trade, vshlq_n_u64::<SHIFT>(trade)))
}

/// Each 64-bit lane of `x` transposed as an 8×8 bit matrix: bit b of byte
/// k trades places with bit k of byte b, within 2×2 blocks, then 4×4 of
/// them, then the whole.
#[target_feature(enable = "neon")]
#[inline]
fn transpose(x: uint8x16_t) -> uint8x16_t {
    let x = vreinterpretq_u64_u8(x);
    let x = swap::<7>(x, 0x00AA_00AA_00AA_00AA);
    let x = swap::<14>(x, 0x0000_CCCC_0000_CCCC);
    let x = swap::<28>(x, 0x0000_0000_F0F0_F0F0);
    vreinterpretq_u8_u64(x)
}

/// The filter's planes of W\[32..68\].
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn planes(groups: &Groups) -> Planes {
    let g = |i: usize| vreinterpretq_u8_u32(groups[i]);
    let first = uint8x16x4_t(g(0), g(1), g(2), g(3));
    let second = uint8x16x4_t(g(4), g(5), g(6), g(7));
    let (gather_low, gather_top) = (bytes(gather(0)), bytes(gather(3)));
    // Byte b of each lane becomes bit b of its eight words: of the low
    // bytes of words 0–15 and of 16–31; of the top bytes' upper halves,
    // words 0–15 in the low half of each byte and 16–31 in the high half
    // (only bits 28–30 are read); and of words 32–35, the low bytes in
    // the tail's low halves and the top bytes in its high halves.
    let low_first = transpose(vqtbl4q_u8(first, gather_low));
    let low_second = transpose(vqtbl4q_u8(second, gather_low));
    let top = transpose(vsriq_n_u8::<4>(
        vqtbl4q_u8(second, gather_top),
        vqtbl4q_u8(first, gather_top),
    ));
    let tail = transpose(vqtbl1q_u8(g(8), bytes(GATHER_TAIL)));
    let low = uint8x16x3_t(low_first, low_second, vandq_u8(tail, vdupq_n_u8(0x0F)));
    let top = uint8x16x2_t(top, vshrq_n_u8::<4>(tail));
    let pair = |p: uint8x16_t| vreinterpretq_u64_u8(p);
    let pairs = [
        pair(vqtbl3q_u8(low, bytes(collect(LOW_BYTES, 0, Some(1))))),
        pair(vqtbl3q_u8(low, bytes(collect(LOW_BYTES, 2, Some(3))))),
        pair(vqtbl3q_u8(low, bytes(collect(LOW_BYTES, 4, Some(5))))),
        pair(vqtbl3q_u8(low, bytes(collect(LOW_BYTES, 6, Some(7))))),
        pair(vqtbl2q_u8(top, bytes(collect(TOP_BYTES, 0, Some(1))))),
        pair(vqtbl2q_u8(top, bytes(collect(TOP_BYTES, 2, None)))),
    ];
    core::array::from_fn(|p| match p % 2 {
        0 => vgetq_lane_u64::<0>(pairs[p / 2]),
        _ => vgetq_lane_u64::<1>(pairs[p / 2]),
    })
}

/// W\[32..68\] of `w` as the Arm SHA kernel spills it, for the tests of
/// the NEON planes.
#[cfg(test)]
pub(crate) fn groups(w: &[u32; 80]) -> Groups {
    use core::arch::aarch64::vld1q_u32;
    core::array::from_fn(|g| {
        let words: &[u32; 4] = w[32 + 4 * g..][..4].try_into().expect("four words");
        // SAFETY: `words` is four readable `u32`s, and `ld1` of words
        // needs only their natural alignment.
        unsafe { vld1q_u32(words.as_ptr()) }
    })
}

#[cfg(test)]
mod tests {
    use super::{groups, planes};
    use crate::checked::ubc::dv_mask_from_planes;
    use crate::checked::ubc::dv_mask_reference;
    use crate::checked::ubc::planes_portable;
    use crate::checked::ubc::test_words;
    use crate::checked::ubc::window;

    /// Every plane equals the portable form's, and every check the
    /// reference evaluator's, on random windows and on windows made to
    /// satisfy every relation of one vector.
    #[test]
    fn equal_the_portable_planes_and_the_reference() {
        if !std::arch::is_aarch64_feature_detected!("neon") {
            return;
        }
        let mut passed = 0;
        for (round, w) in test_words(4_000).enumerate() {
            // SAFETY: the CPU has NEON (checked above).
            let fast = unsafe { planes(&groups(&w)) };
            assert_eq!(fast, planes_portable(window(&w)), "round {round}");
            let expected = dv_mask_reference(&w);
            passed += u32::from(expected != 0);
            assert_eq!(dv_mask_from_planes(&fast), expected, "round {round}");
        }
        assert!(
            passed > 500,
            "the satisfied rounds reach the vectors: {passed}"
        );
    }
}
