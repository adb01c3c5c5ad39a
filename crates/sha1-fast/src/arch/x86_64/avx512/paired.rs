//! The AVX-512 (VBMI, GFNI) collision filter for a few blocks: the
//! bit-sliced form ([`super::sliced`]) with two blocks a pass, one in each
//! half of a `u64` lane, its shapes and checks fetched with permutes from
//! [`crate::checked::sliced::PAIR_TABLES`].

use super::sliced::row;
use crate::arch::x86_64::cpu::Avx512Vbmi;
use crate::arch::x86_64::spill::ReversedGroups;
use crate::arch::x86_64::spill::Spill;
use crate::checked::sliced::{ALL, PAIR_CHECK_VECTORS, PAIR_TABLES, both, to_mask};
use core::arch::x86_64::{
    __m128i, __m512i, _mm512_loadu_si512, _mm512_or_si512, _mm512_permutex2var_epi64,
    _mm512_reduce_or_epi64, _mm512_rorv_epi32, _mm512_set1_epi32, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_sllv_epi32, _mm512_srlv_epi32, _mm512_ternarylogic_epi32,
    _mm512_ternarylogic_epi64, _mm512_unpackhi_epi32, _mm512_unpacklo_epi32,
};

impl Avx512Vbmi {
    /// Which of `spills` (at most 32) the filter lets through, as bits,
    /// with each one's mask in `masks` (the others' entries are set to 0).
    #[inline]
    pub(crate) fn suspects(self, spills: &[Spill], masks: &mut [u64]) -> u32 {
        assert!(spills.len() <= 32 && masks.len() >= spills.len());
        // SAFETY: `self` exists, so `Avx512Vbmi::detect` saw every
        // feature that `suspects` enables.
        unsafe { suspects(spills, masks) }
    }
}

/// `u64` lanes from a table row.
macro_rules! lanes {
    ($row:expr) => {{
        let row: &[u64; 8] = &$row;
        // SAFETY: `row` is 64 readable bytes; `loadu` needs no alignment.
        unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
    }};
}

/// [`Avx512Vbmi::suspects`]. Never inlined: the SHA-NI kernel calls it
/// between batches of legacy-SSE SHA instructions, which run many times
/// slower while the upper halves of the vector registers are dirty;
/// returning clears them (`vzeroupper`).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[inline(never)]
fn suspects(spills: &[Spill], masks: &mut [u64]) -> u32 {
    let mut suspects = 0;
    for (pair, spills) in spills.chunks(2).enumerate() {
        let a = spills[0].window();
        let b = spills.get(1).map_or(a, Spill::window);
        let sliced = pair_masks(a, b);
        let first = to_mask(sliced as u32);
        masks[2 * pair] = first;
        suspects |= u32::from(first != 0) << (2 * pair);
        if spills.len() == 2 {
            let second = to_mask((sliced >> 32) as u32);
            masks[2 * pair + 1] = second;
            suspects |= u32::from(second != 0) << (2 * pair + 1);
        }
    }
    suspects
}

/// The sliced masks of the windows `a` (low half) and `b` (high half).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[inline]
fn pair_masks(a: &ReversedGroups, b: &ReversedGroups) -> u64 {
    let t = &PAIR_TABLES;
    // W[64]: the top lane of group 16, the last of the window.
    let w64 = |groups: &ReversedGroups| {
        // SAFETY: both types are 16 bytes of plain bits.
        u64::from(unsafe { core::mem::transmute::<__m128i, [u32; 4]>(groups[8]) }[3])
    };
    // Plane p of both blocks in `u64` lane `plane_lane(p)`, with W[64]'s
    // bit (the rows hold W[32]'s there) selected into bit 31.
    let (row_a, row_b) = (row(a), row(b));
    let w64 = _mm512_set1_epi64((w64(a) | w64(b) << 32) as i64);
    let top = _mm512_set1_epi32(i32::MIN);
    let unpacked = [
        _mm512_unpacklo_epi32(row_a, row_b),
        _mm512_unpackhi_epi32(row_a, row_b),
    ];
    let planes: [__m512i; 2] = core::array::from_fn(|h| {
        let w64_bit = _mm512_sllv_epi32(w64, lanes!(t.w64_shift[h]));
        // top ? w64_bit : plane
        _mm512_ternarylogic_epi32::<0xCA>(top, w64_bit, unpacked[h])
    });
    let mut failures = [_mm512_setzero_si512(); 4];
    for (s, failure) in failures.iter_mut().take(3).enumerate() {
        let i = _mm512_permutex2var_epi64(planes[0], lanes!(t.plane_i[s]), planes[1]);
        let j = _mm512_permutex2var_epi64(planes[0], lanes!(t.plane_j[s]), planes[1]);
        let shifted = _mm512_srlv_epi32(j, lanes!(t.distance[s]));
        *failure = _mm512_ternarylogic_epi64::<0x96>(i, shifted, lanes!(t.flip[s]));
    }
    // Two accumulators: two short dependency chains rather than one.
    let mut failed = [_mm512_setzero_si512(); 2];
    for v in 0..PAIR_CHECK_VECTORS {
        let base = t.check_base[v];
        let shape =
            _mm512_permutex2var_epi64(failures[base], lanes!(t.check_shape[v]), failures[base + 1]);
        let rotated = _mm512_rorv_epi32(shape, lanes!(t.check_rotate[v]));
        // failed | (rotated & dvs)
        failed[v % 2] =
            _mm512_ternarylogic_epi64::<0xF8>(failed[v % 2], rotated, lanes!(t.check_dvs[v]));
    }
    let failed = _mm512_reduce_or_epi64(_mm512_or_si512(failed[0], failed[1])) as u64;
    both(ALL) & !failed
}

#[cfg(test)]
mod tests {
    use super::Avx512Vbmi;
    use crate::arch::x86_64::spill::Spill;
    use crate::checked::ubc::dv_mask_reference;
    use crate::checked::ubc::test_words;
    use std::vec::Vec;

    /// Batches of one to five windows, every other one made to pass a
    /// vector: the suspects and their masks equal the reference's.
    #[test]
    fn suspects_equal_the_reference() {
        let Some(filter) = Avx512Vbmi::detect() else {
            assert!(cfg!(sha1_fast_force = "none") || !std::is_x86_feature_detected!("avx512vbmi"));
            return;
        };
        let words: Vec<[u32; 80]> = test_words(6_000).collect();
        for (round, batch) in words.chunks(5).enumerate() {
            for len in 1..=batch.len() {
                let batch = &batch[batch.len() - len..];
                let spills: Vec<Spill> = batch.iter().map(Spill::of_schedule).collect();
                let mut masks = [u64::MAX; 5];
                let found = filter.suspects(&spills, &mut masks);
                for (i, w) in batch.iter().enumerate() {
                    let expected = dv_mask_reference(w);
                    assert_eq!(found >> i & 1 != 0, expected != 0, "round {round} at {i}");
                    if expected != 0 {
                        assert_eq!(masks[i], expected, "round {round} at {i}");
                    }
                }
                assert_eq!(found >> len, 0, "round {round}");
            }
        }
    }
}
