//! The collision filter ([`crate::checked`]) on AVX-512 with VBMI and
//! GFNI: the whole filter in about sixty vector instructions, where the
//! SSSE3 planes and scalar checks take several hundred.
//!
//! - **Planes**: one two-register byte permute (`vpermt2b`) gathers the low
//!   and the top byte of W\[32..64\] as eight-word groups, one per `u64`;
//!   `gf2p8affineqb`, with the data as its matrix and one-hot bytes as its
//!   input, transposes each group's 8×8 bits, so byte j of a group holds
//!   bit j of its eight words; one masked byte permute lines the groups up
//!   as planes, one `u64` lane each. W\[64..68\] takes the same steps into
//!   byte 4 of every plane.
//! - **Shapes**: per eight shapes, two `u64` permutes fetch the planes, a
//!   variable shift and a three-way xor make the failures.
//! - **Checks**: the 72 checks, sorted by shape, in nine vectors: a permute
//!   fetches each lane's shape, a variable rotate and an and-or collect
//!   the failed vectors; one horizontal or ends it.
//!
//! The tables come from [`crate::checked::VECTOR_TABLES`], built from the
//! same relation table as the portable form at compile time.

use crate::checked::{ALL_DVS, VECTOR_TABLES};
use crate::x86::planes::ReversedGroups;
use crate::x86::shani_checked::Spill;
use core::arch::x86_64::{
    __m512i, _mm512_castsi128_si512, _mm512_gf2p8affine_epi64_epi8, _mm512_loadu_si512,
    _mm512_mask_permutexvar_epi8, _mm512_maskz_permutexvar_epi8, _mm512_permutex2var_epi8,
    _mm512_permutex2var_epi64, _mm512_reduce_or_epi64, _mm512_rorv_epi64, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_srlv_epi64, _mm512_ternarylogic_epi64,
};

detection_token! {
    /// Proof that the CPU has AVX-512 F, BW, VL and VBMI and GFNI (and
    /// that the OS saves the ZMM registers), and every feature they imply.
    /// The SHA-NI checked kernel's AVX-512VL form relies on it too.
    Avx512Filter: "avx512f", "avx512bw", "avx512vl", "avx512vbmi", "gfni", "avx2", "avx", "fma",
        "sse4.2", "sse4.1", "ssse3", "sse3", "sse2"
}

impl Avx512Filter {
    /// The vectors whose relations all hold for the schedule words in
    /// `groups` (see [`crate::checked`]'s `dv_mask`).
    #[cfg(test)]
    pub(crate) fn dv_mask(self, groups: &ReversedGroups) -> u64 {
        // SAFETY: `self` exists, so `Avx512Filter::detect` saw every
        // feature that `dv_mask` enables.
        unsafe { dv_mask(groups) }
    }

    /// Which of `spills` (at most 32) the filter lets through, as bits,
    /// with each one's mask in `masks` (the others' entries are set to 0).
    #[inline]
    pub(crate) fn suspects(self, spills: &[Spill], masks: &mut [u64]) -> u32 {
        assert!(spills.len() <= 32 && masks.len() >= spills.len());
        // SAFETY: `self` exists, so `Avx512Filter::detect` saw every
        // feature that `suspects` enables.
        unsafe { suspects(spills, masks) }
    }
}

/// Byte tables for the permutes, built at compile time.
#[repr(C, align(64))]
struct ByteTables {
    /// `vpermt2b` over groups 0–7 (128 bytes): `u64` q < 4 gets the low
    /// bytes of W\[32 + 8q ..\], q ≥ 4 the top bytes of W\[32 + 8(q − 4) ..\],
    /// each with word k of the eight in byte 7 − k (the transpose reverses).
    gather: [u8; 64],
    /// `vpermb` over group 8 (W\[64..68\], bytes 0–15): `u64` 0 gets the
    /// low bytes, `u64` 1 the top bytes, in the same reversed order.
    gather_tail: [u8; 64],
    /// From the transposed bytes to planes: plane p (a `u64` lane) takes
    /// byte p (bit p) of `u64`s 0–3, and planes 28–30 (lanes 0–2 of the
    /// second vector) bytes 4–6 of `u64`s 4–7.
    low_planes: [u8; 64],
    high_planes: [u8; 64],
    /// The tail's transposed bytes into byte 4 of every plane.
    low_tail: [u8; 64],
    high_tail: [u8; 64],
}

/// Where W_t's byte `b` sits among the spilled groups: group (t − 32) / 4,
/// word t − 32 − 4g in lane 3 − that.
pub(super) const fn spilled(t: usize, b: usize) -> u8 {
    let g = (t - 32) / 4;
    let m = (t - 32) % 4;
    (16 * g + 4 * (3 - m) + b) as u8
}

static BYTES: ByteTables = {
    let mut t = ByteTables {
        gather: [0; 64],
        gather_tail: [0; 64],
        low_planes: [0; 64],
        high_planes: [0; 64],
        low_tail: [0; 64],
        high_tail: [0; 64],
    };
    let mut n = 0;
    while n < 64 {
        let (q, k) = (n / 8, n % 8);
        let word = 32 + 8 * (q % 4) + (7 - k);
        t.gather[n] = spilled(word, if q < 4 { 0 } else { 3 });
        // Words 64..67 are the top four of eight (bytes 0–3 of each u64
        // hold words 68..71, which do not exist: byte 0 of group 8 stands
        // in, and its bits land above the plane's 36 and are masked off).
        t.gather_tail[n] = match (q, 7 - k) {
            (0, w) if w < 4 => spilled(64 + w, 0) - 128,
            (1, w) if w < 4 => spilled(64 + w, 3) - 128,
            _ => 0,
        };
        t.low_planes[n] = (8 * (k % 4) + q) as u8;
        t.high_planes[n] = (8 * (4 + k % 4) + 4 + q) as u8;
        t.low_tail[n] = q as u8;
        t.high_tail[n] = (8 + 4 + q) as u8;
        n += 1;
    }
    t
};

/// `u64` lanes from a table row.
macro_rules! lanes {
    ($row:expr) => {{
        let row: &[u64; 8] = &$row;
        // SAFETY: `row` is 64 readable bytes; `loadu` needs no alignment.
        unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
    }};
}

/// A byte table.
macro_rules! bytes {
    ($table:expr) => {{
        let table: &[u8; 64] = &$table;
        // SAFETY: `table` is 64 readable bytes.
        unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
    }};
}
pub(super) use bytes;

/// [`Avx512Filter::suspects`]. Never inlined: the SHA-NI kernel calls
/// it between batches of legacy-SSE SHA instructions, which run many times
/// slower while the upper halves of the vector registers are dirty;
/// returning clears them (`vzeroupper`). One call filters a batch, so the
/// windows' filters overlap one another and the SHA rounds run undisturbed.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[inline(never)]
fn suspects(spills: &[Spill], masks: &mut [u64]) -> u32 {
    let mut suspects = 0;
    for (i, (spill, out)) in spills.iter().zip(masks).enumerate() {
        *out = dv_mask(spill.window());
        suspects |= u32::from(*out != 0) << i;
    }
    suspects
}

/// The filter of one window.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[inline]
fn dv_mask(groups: &ReversedGroups) -> u64 {
    // SAFETY: `groups` is 144 readable bytes; these read its first 128.
    let (first, second) = unsafe {
        let at = groups.as_ptr().cast::<__m512i>();
        (_mm512_loadu_si512(at), _mm512_loadu_si512(at.add(1)))
    };
    let tail = _mm512_castsi128_si512(groups[8]);
    // One-hot bytes: the transpose's input, byte j = 1 << j.
    let one_hot = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
    let words = _mm512_permutex2var_epi8(first, bytes!(BYTES.gather), second);
    let bits = _mm512_gf2p8affine_epi64_epi8::<0>(one_hot, words);
    let tail_words =
        _mm512_maskz_permutexvar_epi8(0x0000_0000_0000_FFFF, bytes!(BYTES.gather_tail), tail);
    let tail_bits = _mm512_gf2p8affine_epi64_epi8::<0>(one_hot, tail_words);
    // Planes 0–7, then 28–30: bytes 0–3 from the main words, byte 4 from
    // the tail, the rest zero.
    const BODY: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const TAIL: u64 = 0x1010_1010_1010_1010;
    let low = _mm512_maskz_permutexvar_epi8(BODY, bytes!(BYTES.low_planes), bits);
    let low = _mm512_mask_permutexvar_epi8(low, TAIL, bytes!(BYTES.low_tail), tail_bits);
    let high = _mm512_maskz_permutexvar_epi8(BODY & 0xFF_FFFF, bytes!(BYTES.high_planes), bits);
    let high =
        _mm512_mask_permutexvar_epi8(high, TAIL & 0xFF_FFFF, bytes!(BYTES.high_tail), tail_bits);
    // The tail's byte 4 holds words 64..71, of which 64..67 are real.
    let planes = [low, high];

    let t = &VECTOR_TABLES;
    let mut failures = [_mm512_setzero_si512(); 4];
    for (s, failure) in failures.iter_mut().take(3).enumerate() {
        let i = _mm512_permutex2var_epi64(planes[0], lanes!(t.plane_i[s]), planes[1]);
        let j = _mm512_permutex2var_epi64(planes[0], lanes!(t.plane_j[s]), planes[1]);
        let shifted = _mm512_srlv_epi64(j, lanes!(t.distance[s]));
        *failure = _mm512_ternarylogic_epi64::<0x96>(i, shifted, lanes!(t.flip[s]));
    }
    let mut failed = _mm512_setzero_si512();
    for v in 0..9 {
        let base = t.check_base[v];
        let shape =
            _mm512_permutex2var_epi64(failures[base], lanes!(t.check_shape[v]), failures[base + 1]);
        let rotated = _mm512_rorv_epi64(shape, lanes!(t.check_rotate[v]));
        // failed | (rotated & dvs)
        failed = _mm512_ternarylogic_epi64::<0xF8>(failed, rotated, lanes!(t.check_dvs[v]));
    }
    let failed = _mm512_reduce_or_epi64(failed) as u64;
    ALL_DVS & !failed
}

#[cfg(test)]
mod tests {
    use super::Avx512Filter;
    use crate::checked::{dv_mask_reference, test_words};
    use crate::x86::planes::reversed_groups;

    #[test]
    fn equals_the_reference() {
        let Some(filter) = Avx512Filter::detect() else {
            assert!(cfg!(sha1_fast_force = "none") || !std::is_x86_feature_detected!("avx512vbmi"));
            return;
        };
        for (round, w) in test_words(20_000).enumerate() {
            assert_eq!(
                filter.dv_mask(&reversed_groups(&w)),
                dv_mask_reference(&w),
                "round {round}"
            );
        }
    }
}
