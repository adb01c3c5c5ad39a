//! The collision filter bit-sliced on AVX-512 with VBMI and GFNI, sixteen
//! blocks a pass: per block a byte permute, `gf2p8affineqb` (the 8×8 bit
//! transpose) and a byte permute make its row (dword p is plane p); a
//! 16×16 transpose makes the planes, and the tables of
//! [`crate::checked::sliced`] run unrolled on all sixteen.

use crate::arch::x86_64::cpu::Avx512Vbmi;
use crate::arch::x86_64::spill::{PLANE_BITS, ReversedGroups, Spill};
use crate::checked::sliced::{
    ALL, CHECK_COUNT, CHECK_TABLE, SHAPE_COUNT, SHAPE_TABLE, START, SlicedCheck, SlicedShape,
    to_mask,
};
use crate::checked::ubc::unrolled;
use core::arch::x86_64::{
    __m512i, _mm512_andnot_si512, _mm512_gf2p8affine_epi64_epi8, _mm512_loadu_si512,
    _mm512_mask_i32gather_epi32, _mm512_mask_test_epi32_mask, _mm512_or_si512,
    _mm512_permutex2var_epi8, _mm512_permutexvar_epi8, _mm512_ror_epi32, _mm512_set1_epi32,
    _mm512_set1_epi64, _mm512_setzero_si512, _mm512_shuffle_i32x4, _mm512_slli_epi32,
    _mm512_srli_epi32, _mm512_storeu_si512, _mm512_ternarylogic_epi32, _mm512_unpackhi_epi32,
    _mm512_unpackhi_epi64, _mm512_unpacklo_epi32, _mm512_unpacklo_epi64,
};

/// Blocks per pass.
pub(crate) const LANES: usize = 16;

impl Avx512Vbmi {
    /// Which of `spills` (at most 32) the filter lets through, as bits,
    /// with each one's mask in `masks` (as [`Avx512Vbmi::suspects`]),
    /// sixteen blocks per pass.
    #[inline]
    pub(crate) fn suspects_sliced(self, spills: &[Spill], masks: &mut [u64]) -> u32 {
        assert!(spills.len() <= 32 && masks.len() >= spills.len());
        // SAFETY: `self` exists, so `Avx512Vbmi::detect` saw every
        // feature that `suspects` enables.
        unsafe { suspects(spills, masks) }
    }
}

/// A byte table.
macro_rules! bytes {
    ($table:expr) => {{
        let table: &[u8; 64] = &$table;
        // SAFETY: `table` is 64 readable bytes.
        unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
    }};
}

/// Where W_t's byte `b` sits among the spilled groups: group (t − 32) / 4,
/// word t − 32 − 4g in lane 3 − that.
const fn spilled(t: usize, b: usize) -> u8 {
    let g = (t - 32) / 4;
    let m = (t - 32) % 4;
    (16 * g + 4 * (3 - m) + b) as u8
}

/// Byte tables for the permutes, built at compile time.
#[repr(C, align(64))]
struct ByteTables {
    /// `vpermt2b` over groups 8–15 (W\[32..64\], 128 bytes): `u64` q < 4
    /// gets the low bytes of W\[33 + 8q ..\], q ≥ 4 the top bytes of
    /// W\[33 + 8(q − 4) ..\], word k of the eight in byte 7 − k (the
    /// transpose reverses). W\[64\] is not there: W\[32\]'s bytes stand in,
    /// and its bit is replaced later.
    gather: [u8; 64],
    /// From the transposed bytes to the row: dword p < 8 takes byte p of
    /// `u64`s 0–3, dwords 8–10 bytes 4–6 of `u64`s 4–7 (bits 28–30).
    arrange: [u8; 64],
}

static BYTES: ByteTables = {
    let mut t = ByteTables {
        gather: [0; 64],
        arrange: [0; 64],
    };
    let mut n = 0;
    while n < 64 {
        let (q, k) = (n / 8, n % 8);
        let word = START + 8 * (q % 4) + (7 - k);
        let word = if word == 64 { 32 } else { word };
        t.gather[n] = spilled(word, if q < 4 { 0 } else { 3 });
        let (p, c) = (n / 4, n % 4);
        t.arrange[n] = match p {
            0..8 => (8 * c + p) as u8,
            8..11 => (8 * (4 + c) + 4 + p - 8) as u8,
            _ => 0,
        };
        n += 1;
    }
    t
};

/// [`Avx512Vbmi::suspects_sliced`]. Never inlined, for the same reason
/// as the paired form: the SHA-NI kernel's legacy-SSE instructions
/// must not run with dirty upper vector halves.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[inline(never)]
fn suspects(spills: &[Spill], masks: &mut [u64]) -> u32 {
    let mut suspects = 0;
    for (pass, chunk) in spills.chunks(LANES).enumerate() {
        let (mut passed, sliced) = pass_masks(chunk);
        suspects |= u32::from(passed) << (pass * LANES);
        masks[pass * LANES..][..chunk.len()].fill(0);
        if passed != 0 {
            let mut out = [0u32; LANES];
            // SAFETY: `out` is 64 writable bytes.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), sliced) };
            while passed != 0 {
                let lane = passed.trailing_zeros() as usize;
                masks[pass * LANES + lane] = to_mask(out[lane]);
                passed &= passed - 1;
            }
        }
    }
    suspects
}

/// A window's row: dword p holds its plane p (bit t − 33 is bit
/// `PLANE_BITS[p]` of W\[t\]), with W\[32\]'s bit standing in for W\[64\]'s.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[inline]
pub(super) fn row(window: &ReversedGroups) -> __m512i {
    // One-hot bytes: the transpose's input, byte j = 1 << j.
    let one_hot = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
    let groups = &window[..8];
    // SAFETY: `groups` is 128 readable bytes.
    let (first, second) = unsafe {
        let at = groups.as_ptr().cast::<__m512i>();
        (_mm512_loadu_si512(at), _mm512_loadu_si512(at.add(1)))
    };
    let words = _mm512_permutex2var_epi8(first, bytes!(BYTES.gather), second);
    let bits = _mm512_gf2p8affine_epi64_epi8::<0>(one_hot, words);
    _mm512_permutexvar_epi8(bytes!(BYTES.arrange), bits)
}

/// The sliced masks of up to sixteen blocks, and which lanes passed.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[inline]
fn pass_masks(chunk: &[Spill]) -> (u16, __m512i) {
    let valid = ((1u32 << chunk.len()) - 1) as u16;
    let mut rows = [_mm512_setzero_si512(); LANES];
    for (row, spill) in rows.iter_mut().zip(chunk) {
        *row = self::row(spill.window());
    }
    // W[64] of each block: lane 3 of its group 16.
    let stride = core::mem::size_of::<Spill>() as i32;
    let lanes = _mm512_set1_epi32(stride);
    let index = core::array::from_fn::<i32, LANES, _>(|b| b as i32);
    // SAFETY: 64 readable bytes.
    let index = unsafe { _mm512_loadu_si512(index.as_ptr().cast()) };
    let spill_offsets = core::arch::x86_64::_mm512_mullo_epi32(index, lanes);
    let w64 = chunk[0].w[16..].as_ptr().cast::<u8>().wrapping_add(12);
    // SAFETY: the masked lanes read W[64] of the spills of `chunk`, which
    // are `stride` bytes apart.
    let w64 = unsafe {
        _mm512_mask_i32gather_epi32::<1>(_mm512_setzero_si512(), valid, spill_offsets, w64.cast())
    };
    let top = _mm512_set1_epi32(i32::MIN);
    let columns = transpose(&rows);
    let mut planes = [_mm512_setzero_si512(); 11];
    unrolled!(|P| {
        let w64_bit = _mm512_slli_epi32::<{ 31 - PLANE_BITS[P] }>(w64);
        // top ? w64_bit : plane
        planes[P] = _mm512_ternarylogic_epi32::<0xCA>(top, w64_bit, columns[P]);
    }; 0 1 2 3 4 5 6 7 8 9 10);
    passes(&planes, valid)
}

/// The sliced masks of the sixteen blocks whose planes (plane p, bit
/// t − [`START`] is bit `PLANE_BITS[p]` of W\[t\], one block per lane) are
/// `planes`, and which of the `valid` lanes passed.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn passes(planes: &[__m512i; 11], valid: u16) -> (u16, __m512i) {
    let mut failures = [_mm512_setzero_si512(); SHAPE_COUNT];
    unrolled!(|S| {
        const SHAPE: SlicedShape = SHAPE_TABLE[S];
        let shifted = _mm512_srli_epi32::<{ SHAPE.distance }>(planes[SHAPE.plane_j]);
        let flip = _mm512_set1_epi32(SHAPE.flip as i32);
        failures[S] = _mm512_ternarylogic_epi32::<0x96>(planes[SHAPE.plane_i], shifted, flip);
    }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21);
    // Four accumulators, so that the checks are four short dependency
    // chains rather than one of 75.
    let mut failed = [_mm512_setzero_si512(); 4];
    unrolled!(|C| {
        const CHECK: SlicedCheck = CHECK_TABLE[C];
        let rotated = _mm512_ror_epi32::<{ CHECK.rotate as i32 }>(failures[CHECK.shape]);
        // failed | (rotated & dvs)
        let dvs = _mm512_set1_epi32(CHECK.dvs as i32);
        failed[C % 4] = _mm512_ternarylogic_epi32::<0xF8>(failed[C % 4], rotated, dvs);
    }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74);
    // ALL & !(f0 | f1 | f2 | f3)
    let [f0, f1, f2, f3] = failed;
    let failed = _mm512_or_si512(_mm512_ternarylogic_epi32::<0xFE>(f0, f1, f2), f3);
    let passes = _mm512_andnot_si512(failed, _mm512_set1_epi32(ALL as i32));
    (_mm512_mask_test_epi32_mask(valid, passes, passes), passes)
}

/// The 16×16 transpose of dwords: column p of `rows` as vector p.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn transpose(rows: &[__m512i; 16]) -> [__m512i; 16] {
    // Pairs of rows interleaved, then pairs of pairs: `quads[4i + c]`
    // holds, in 128-bit lane l, column 4l + c of rows 4i..4i + 4.
    let pairs: [__m512i; 16] = core::array::from_fn(|n| {
        let (a, b) = (rows[n / 2 * 2], rows[n / 2 * 2 + 1]);
        if n % 2 == 0 {
            _mm512_unpacklo_epi32(a, b)
        } else {
            _mm512_unpackhi_epi32(a, b)
        }
    });
    let quads: [__m512i; 16] = core::array::from_fn(|n| {
        let (i, c) = (n / 4, n % 4);
        let (a, b) = (pairs[4 * i + c / 2], pairs[4 * i + 2 + c / 2]);
        if c % 2 == 0 {
            _mm512_unpacklo_epi64(a, b)
        } else {
            _mm512_unpackhi_epi64(a, b)
        }
    });
    // Column 4l + c: lane l of quads c, 4 + c, 8 + c, 12 + c, gathered
    // two lanes at a time.
    let mut columns = [_mm512_setzero_si512(); 16];
    for c in 0..4 {
        let (q0, q1, q2, q3) = (quads[c], quads[4 + c], quads[8 + c], quads[12 + c]);
        let low = (
            _mm512_shuffle_i32x4::<0x44>(q0, q1),
            _mm512_shuffle_i32x4::<0x44>(q2, q3),
        );
        let high = (
            _mm512_shuffle_i32x4::<0xEE>(q0, q1),
            _mm512_shuffle_i32x4::<0xEE>(q2, q3),
        );
        columns[c] = _mm512_shuffle_i32x4::<0x88>(low.0, low.1);
        columns[4 + c] = _mm512_shuffle_i32x4::<0xDD>(low.0, low.1);
        columns[8 + c] = _mm512_shuffle_i32x4::<0x88>(high.0, high.1);
        columns[12 + c] = _mm512_shuffle_i32x4::<0xDD>(high.0, high.1);
    }
    columns
}

const _: () = assert!(
    SHAPE_COUNT == 22 && CHECK_COUNT == 75,
    "list every index above"
);

#[cfg(test)]
mod tests {
    use super::Avx512Vbmi;
    use crate::arch::x86_64::spill::Spill;
    use crate::checked::ubc::dv_mask_reference;
    use crate::checked::ubc::test_words;
    use std::vec::Vec;

    /// Every position in a batch, every batch length: the suspects and
    /// their masks equal the reference's.
    #[test]
    fn equals_the_reference() {
        let Some(filter) = Avx512Vbmi::detect() else {
            return;
        };
        let words: Vec<[u32; 80]> = test_words(4_000).collect();
        // Random words, with one made to pass a vector at `at`.
        let (random, passing): (Vec<_>, Vec<_>) = words.chunks(2).map(|p| (p[0], p[1])).unzip();
        for (round, batch) in random.chunks(32).enumerate() {
            for at in 0..batch.len() {
                let mut batch = batch.to_vec();
                batch[at] = passing[(round * 32 + at) % passing.len()];
                let spills: Vec<Spill> = batch.iter().map(Spill::of_schedule).collect();
                for from in [0, 1, 15, 16, 17, 30] {
                    let spills = spills.get(from..).unwrap_or_default();
                    let expected: Vec<u64> =
                        batch.iter().skip(from).map(dv_mask_reference).collect();
                    let mut masks = [0; 32];
                    let got = filter.suspects_sliced(spills, &mut masks);
                    for (i, &mask) in expected.iter().enumerate() {
                        assert_eq!(got >> i & 1 != 0, mask != 0, "round {round} at {at}+{i}");
                        if mask != 0 {
                            assert_eq!(masks[i], mask, "round {round} at {at}+{i}");
                        }
                    }
                    assert_eq!(got.checked_shr(expected.len() as u32).unwrap_or(0), 0);
                }
            }
        }
    }
}
