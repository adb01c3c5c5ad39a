//! The collision filter's bit planes from W\[32..68\] in SSE registers (the
//! SHA-NI kernel's groups, W_{4k} in the top lane): per four groups a byte
//! shuffle and two unpacks gather the words' low and top bytes in order of
//! t, then each plane is a 16-bit shift and a `pmovmskb`.

use crate::arch::x86_64::spill::ReversedGroups;
use crate::checked::ubc::Planes;
use core::arch::x86_64::{
    __m128i, _mm_movemask_epi8, _mm_set_epi8, _mm_shuffle_epi8, _mm_slli_epi16, _mm_srli_si128,
    _mm_unpackhi_epi64, _mm_unpacklo_epi32, _mm_unpacklo_epi64,
};

/// The sixteen bits of plane `bit` (0–7 from `low`, 28–30 from `high`).
macro_rules! plane16 {
    ($low:expr, $high:expr, $bit:literal) => {
        if $bit < 8 {
            _mm_movemask_epi8(_mm_slli_epi16::<{ (7 - $bit) & 7 }>($low)) as u16 as u64
        } else {
            _mm_movemask_epi8(_mm_slli_epi16::<{ (31 - $bit) & 7 }>($high)) as u16 as u64
        }
    };
}

/// The planes of one set: bits 0–7 and 28–30 of up to sixteen words whose
/// low bytes are `low` and top bytes `high`, in order of t.
macro_rules! set_planes {
    ($low:expr, $high:expr) => {{
        let (low, high) = ($low, $high);
        [
            plane16!(low, high, 0),
            plane16!(low, high, 1),
            plane16!(low, high, 2),
            plane16!(low, high, 3),
            plane16!(low, high, 4),
            plane16!(low, high, 5),
            plane16!(low, high, 6),
            plane16!(low, high, 7),
            plane16!(low, high, 28),
            plane16!(low, high, 29),
            plane16!(low, high, 30),
        ]
    }};
}

/// The filter's planes of W\[32..68\].
#[target_feature(enable = "sse2,ssse3")]
#[inline]
pub(crate) fn planes(groups: &ReversedGroups) -> Planes {
    // One group: the low bytes of W_{4k..4k+3} (lanes 3..0) to bytes 0–3
    // in order of t, their top bytes to bytes 4–7, zeros above.
    let gather = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 3, 7, 11, 15, 0, 4, 8, 12);
    let g = groups.map(|words| _mm_shuffle_epi8(words, gather));
    // Four groups: [low 0 | low 1 | top 0 | top 1] and the same for 2, 3,
    // then the low halves together and the top halves together.
    let set = |a: __m128i, b: __m128i, c: __m128i, d: __m128i| {
        let (ab, cd) = (_mm_unpacklo_epi32(a, b), _mm_unpacklo_epi32(c, d));
        (_mm_unpacklo_epi64(ab, cd), _mm_unpackhi_epi64(ab, cd))
    };
    let (low_a, high_a) = set(g[0], g[1], g[2], g[3]);
    let (low_b, high_b) = set(g[4], g[5], g[6], g[7]);
    let a = set_planes!(low_a, high_a);
    let b = set_planes!(low_b, high_b);
    let c = set_planes!(g[8], _mm_srli_si128::<4>(g[8]));
    core::array::from_fn(|p| a[p] | b[p] << 16 | (c[p] & 0xF) << 32)
}

#[cfg(test)]
mod tests {
    use super::planes;
    use crate::arch::x86_64::spill::reversed_groups;
    use crate::checked::ubc::planes_portable;
    use crate::checked::ubc::test_words;
    use crate::checked::ubc::window;

    #[test]
    fn equal_the_portable_planes() {
        if !std::is_x86_feature_detected!("ssse3") {
            return;
        }
        for w in test_words(2_000) {
            // SAFETY: the CPU has SSSE3 (checked above).
            let fast = unsafe { planes(&reversed_groups(&w)) };
            assert_eq!(fast, planes_portable(window(&w)));
        }
    }
}
