//! The collision filter on one block's words with AVX2
//! ([`crate::checked::word_vectors`]): the SHA-NI kernel calls it out of
//! line as it finishes each block (its SHA instructions need clean upper
//! halves), the SIMD-schedule kernel's AVX2 build inlines it. Its input is
//! the kernel's [`Mirror`], where any eight consecutive words are one
//! unaligned load, their lanes reversed as the table rows are.

use crate::arch::x86_64::cpu::Avx2;
use crate::arch::x86_64::spill::{MIRROR_GROUPS, Mirror};
use crate::checked::sliced::{ALL, to_mask};
use crate::checked::ubc::unrolled;
use crate::checked::word_vectors::{LAST_WORD, PREFIX, VECTOR_COUNT, VECTORS, WordVector};
use core::arch::x86_64::{
    __m256i, _mm_cvtsi128_si32, _mm_or_si128, _mm_shuffle_epi32, _mm256_and_si256,
    _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi32, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_or_si256, _mm256_setzero_si256, _mm256_sllv_epi32,
    _mm256_srlv_epi32, _mm256_xor_si256,
};

/// The word of the mirror that holds W\[t\] is `TOP_WORD - t`.
const TOP_WORD: usize = 4 * MIRROR_GROUPS.end - 1;

const _: () = assert!(
    LAST_WORD <= TOP_WORD && PREFIX == 16 && VECTOR_COUNT == 34,
    "the mirror holds every word read; list every vector below"
);

impl Avx2 {
    /// The vectors whose relations all hold for the block whose window
    /// is `mirror`, as a mask of [`crate::checked`]'s `Dv::mask_bit`s.
    #[inline]
    pub(crate) fn dv_mask_of_block(self, mirror: &Mirror) -> u64 {
        // SAFETY: `self` exists, so `Avx2::detect` saw AVX2.
        unsafe { dv_mask(mirror) }
    }

    /// [`Avx2::dv_mask_of_block`] for a kernel compiled with AVX2, into
    /// which it inlines: no call and no `vzeroupper` between blocks.
    #[inline]
    pub(crate) fn dv_mask_of_block_inline(self, mirror: &Mirror) -> u64 {
        // SAFETY: `self` exists, so `Avx2::detect` saw AVX2.
        unsafe { dv_mask_inline(mirror) }
    }
}

/// The eight words from W\[top\] down.
#[inline]
#[target_feature(enable = "avx2")]
fn down_from<const TOP: usize>(mirror: &Mirror) -> __m256i {
    const { assert!(TOP >= 4 * MIRROR_GROUPS.start + 7 && TOP <= TOP_WORD) };
    // SAFETY: words TOP_WORD − TOP..TOP_WORD − TOP + 8 of the mirror's
    // 4 × 10: the bounds above.
    unsafe { _mm256_loadu_si256(mirror.as_ptr().cast::<u32>().add(TOP_WORD - TOP).cast()) }
}

/// Eight lanes of a table row, lane 7 first (as the words come down).
#[inline(always)]
fn row_down(mut lanes: [u32; 8]) -> __m256i {
    lanes.reverse();
    // SAFETY: both types are 32 bytes of plain bits.
    unsafe { core::mem::transmute(lanes) }
}

/// The bits set in any lane of `failed`.
#[inline]
#[target_feature(enable = "avx2")]
fn any_lane(failed: [__m256i; 2]) -> u32 {
    let all = _mm256_or_si256(failed[0], failed[1]);
    let half = _mm_or_si128(
        _mm256_castsi256_si128(all),
        _mm256_extracti128_si256::<1>(all),
    );
    let pair = _mm_or_si128(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
    let one = _mm_or_si128(pair, _mm_shuffle_epi32::<0b10_11_00_01>(pair));
    _mm_cvtsi128_si32(one) as u32
}

/// [`dv_mask_inline`] out of line, so that its 256-bit registers are
/// clean again (`vzeroupper`) before the SHA-NI kernel's next SHA
/// instruction.
#[inline(never)]
#[target_feature(enable = "avx2")]
fn dv_mask(mirror: &Mirror) -> u64 {
    dv_mask_inline(mirror)
}

/// The filter, for [`Avx2::dv_mask_of_block_inline`] and [`dv_mask`].
#[inline]
#[target_feature(enable = "avx2")]
fn dv_mask_inline(mirror: &Mirror) -> u64 {
    let mut failed = [_mm256_setzero_si256(); 2];
    // The listed vectors of `VECTORS`, into `failed`.
    macro_rules! vectors {
        ($($v:literal)*) => {
            unrolled!(|V| {
                const VECTOR: WordVector = VECTORS[V];
                let near = down_from::<{ VECTOR.near + 7 }>(mirror);
                let far = down_from::<{ VECTOR.near + VECTOR.distance + 7 }>(mirror);
                let shifted = if VECTOR.left {
                    _mm256_sllv_epi32(far, row_down(VECTOR.shift))
                } else {
                    _mm256_srlv_epi32(far, row_down(VECTOR.shift))
                };
                let tested =
                    _mm256_and_si256(_mm256_xor_si256(near, shifted), row_down(VECTOR.bits));
                let held = _mm256_cmpeq_epi32(tested, row_down(VECTOR.values));
                failed[V % 2] = _mm256_or_si256(
                    failed[V % 2],
                    _mm256_andnot_si256(held, row_down(VECTOR.dvs)),
                );
            }; $($v)*);
        };
    }
    vectors!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
    if ALL & !any_lane(failed) == 0 {
        return 0;
    }
    vectors!(16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33);
    to_mask(ALL & !any_lane(failed))
}

#[cfg(test)]
mod tests {
    use crate::arch::x86_64::cpu::Avx2;
    use crate::arch::x86_64::spill::mirror_of;
    use crate::checked::ubc::dv_mask_reference;

    /// The vector form against the reference, on windows made to pass a
    /// vector and on random ones.
    #[test]
    fn matches_the_reference() {
        let Some(avx2) = Avx2::detect() else {
            return;
        };
        for w in crate::checked::ubc::test_words(4000) {
            assert_eq!(avx2.dv_mask_of_block(&mirror_of(&w)), dv_mask_reference(&w));
        }
    }
}
