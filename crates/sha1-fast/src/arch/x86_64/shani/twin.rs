//! The recompression's twin test on the SHA unit: each twin group is the
//! spilled group xor the vector's message difference, made as the rounds
//! read it; twenty `sha1rnds4` out to step 80 and in again, unrolled for
//! each of the two boundaries, the state in registers throughout.

use super::rounds::{groups_with, load_state};
use crate::arch::x86_64::cpu::ShaNi;
use crate::arch::x86_64::spill::Schedule;
use crate::checked::recompress::TwinStart;
use core::arch::x86_64::{
    __m128i, _mm_loadu_si128, _mm_or_si128, _mm_set_epi32, _mm_shuffle_epi32, _mm_sub_epi32,
    _mm_testz_si128, _mm_xor_si128,
};

impl ShaNi {
    /// Whether the twin of the block whose expanded message the kernel
    /// spilled as `w`, started as `start` says with the message difference
    /// `dm`, compresses to `output` (see
    /// `checked::recompress::any_twin_collides`).
    #[inline]
    pub(crate) fn twin_collides(
        self,
        w: &Schedule,
        dm: &[u32; 80],
        start: &TwinStart,
        output: &[u32; 5],
    ) -> bool {
        // SAFETY: `self` exists, so `ShaNi::detect` saw every feature that
        // `twin_collides` enables.
        unsafe {
            if start.group == 15 {
                twin_collides::<15>(w, dm, &start.state, output)
            } else {
                twin_collides::<16>(w, dm, &start.state, output)
            }
        }
    }
}

/// Groups `first..last` of the twin from ABCD and E, the twin's group k
/// being `w[k]` ⊕ `dm`'s words 4k..4k + 4; returns ABCD and E after them.
/// Called with constant bounds, so the loop unrolls and each group's
/// round function is fixed.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
#[inline]
fn twin_groups(
    w: &Schedule,
    dm: &[u32; 80],
    (abcd, e): (__m128i, __m128i),
    first: usize,
    last: usize,
) -> (__m128i, __m128i) {
    groups_with(abcd, e, first, last, |k| {
        let words = &dm[4 * k..4 * k + 4];
        // SAFETY: `words` is 16 readable bytes; `loadu` needs no
        // alignment.
        let difference = unsafe { _mm_loadu_si128(words.as_ptr().cast()) };
        // W_{4k} to the top lane, as the kernel spills it.
        _mm_xor_si128(w[k], _mm_shuffle_epi32::<0x1B>(difference))
    })
}

/// [`ShaNi::twin_collides`] for a start before group `GROUP`.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn twin_collides<const GROUP: usize>(
    w: &Schedule,
    dm: &[u32; 80],
    start: &[u32; 5],
    output: &[u32; 5],
) -> bool {
    let at = load_state!(*start);
    let end = twin_groups(w, dm, at, GROUP, 20);
    let output = load_state!(*output);
    let needed = (
        _mm_sub_epi32(output.0, end.0),
        _mm_sub_epi32(output.1, end.1),
    );
    let back = twin_groups(w, dm, needed, 0, GROUP);
    let differ = _mm_or_si128(_mm_xor_si128(back.0, at.0), _mm_xor_si128(back.1, at.1));
    _mm_testz_si128(differ, differ) != 0
}
