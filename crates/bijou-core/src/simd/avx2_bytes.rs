//! bijou64's batch decoder on AVX2 for runs of single-byte values: 32 a
//! step.
//!
//! A byte below `THRESHOLD` is a whole value, its own. A step loads 32
//! bytes, checks that none is a tag (a saturating minimum with
//! `THRESHOLD - 1` leaves each of them unchanged), and widens them to
//! 64-bit lanes with `vpmovzxbq`, four bytes to a register. The portable
//! loop tests 16 bytes at once with shifts of a `u128` and, on baseline
//! x86-64 (SSE2, no `pmovzx`), widens them with chains of unpacks.
//!
//! Required CPU feature: **`avx2`**, through the [`Avx2`] token of
//! [`super::avx2_run`].

use core::arch::x86_64::{
    _mm_cvtsi32_si128, _mm256_cmpeq_epi8, _mm256_cvtepu8_epi64, _mm256_loadu_si256,
    _mm256_min_epu8, _mm256_movemask_epi8, _mm256_set1_epi8, _mm256_storeu_si256,
};

use super::avx2_run::Avx2;
use crate::bijou64::THRESHOLD;

/// Values a step copies.
pub(crate) const STEP: usize = 32;

impl Avx2 {
    /// Copies single-byte values from the front of `input` to `out`, 32 a
    /// step, while the next 32 bytes are all single-byte values and `out`
    /// has room for them; returns how many it copied (a multiple of 32).
    #[inline]
    pub(crate) fn copy_single_bytes(self, input: &[u8], out: &mut [u64]) -> usize {
        // SAFETY: `self` exists, so `detect` saw the feature that
        // `copy_single_bytes` enables.
        unsafe { copy_single_bytes(input, out) }
    }
}

#[target_feature(enable = "avx2")]
fn copy_single_bytes(input: &[u8], out: &mut [u64]) -> usize {
    let largest = _mm256_set1_epi8((THRESHOLD - 1) as i8);
    let mut copied = 0;
    while let (Some(bytes), Some(dest)) = (
        input[copied..].first_chunk::<STEP>(),
        out[copied..].first_chunk_mut::<STEP>(),
    ) {
        // SAFETY: `bytes` is 32 readable bytes; the load is unaligned.
        let loaded = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let single = _mm256_cmpeq_epi8(_mm256_min_epu8(loaded, largest), loaded);
        if _mm256_movemask_epi8(single) != -1 {
            break;
        }
        for (four, dest) in bytes.chunks_exact(4).zip(dest.chunks_exact_mut(4)) {
            let four = i32::from_le_bytes([four[0], four[1], four[2], four[3]]);
            let wide = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(four));
            // SAFETY: `dest` is four writable `u64`s; the store is
            // unaligned.
            unsafe { _mm256_storeu_si256(dest.as_mut_ptr().cast(), wide) };
        }
        copied += STEP;
    }
    copied
}

#[cfg(test)]
mod tests {
    use super::{Avx2, STEP};
    use crate::bijou64::THRESHOLD;
    use std::{vec, vec::Vec};

    /// `copy_single_bytes` on `input` into `out_len` slots against its
    /// definition: the longest whole number of steps that are all single
    /// bytes and fit `out`, each byte widened, the slots after untouched.
    fn agrees(token: Avx2, input: &[u8], out_len: usize) {
        let mut out = vec![u64::MAX; out_len];
        let copied = token.copy_single_bytes(input, &mut out);
        let run = input.iter().take_while(|&&byte| byte < THRESHOLD).count();
        let room = run.min(out_len);
        assert_eq!(copied, room / STEP * STEP, "{input:02X?} into {out_len}");
        for (k, &value) in out.iter().enumerate() {
            let want = if k < copied {
                u64::from(input[k])
            } else {
                u64::MAX
            };
            assert_eq!(value, want, "slot {k} of {input:02X?}");
        }
    }

    #[test]
    fn every_byte_at_every_place_of_a_step() {
        let Some(token) = Avx2::detect() else { return };
        for at in 0..STEP {
            for byte in 0..=u8::MAX {
                let mut input = [THRESHOLD - 1; STEP];
                input[at] = byte;
                agrees(token, &input, STEP);
            }
        }
    }

    #[test]
    fn runs_of_every_length_end_at_a_tag_or_the_end() {
        let Some(token) = Avx2::detect() else { return };
        for run in 0..140 {
            let body: Vec<u8> = (0..run).map(|k| (k * 37 % 248) as u8).collect();
            for end in [None, Some(THRESHOLD), Some(0xFF)] {
                let mut input = body.clone();
                input.extend(end);
                input.extend([7; 40]);
                for out_len in [0, 1, 31, 32, 33, 64, 95, 96, 200] {
                    agrees(token, &input, out_len);
                }
            }
        }
    }
}
