//! The scalar core's checked compression: each block expanded once, for
//! the rounds and for the portable filter alike, the states before steps
//! 60 and 64 kept on the way, and a block the filter lets through handed
//! to the recompression whole ([`SuspectBlock`]). The plain core makes its
//! schedule in a 16-word ring instead, which the filter cannot read, so
//! checking beside it meant expanding every block a second time.

use super::recompress::{Midstates, SuspectBlock, expand};
use super::ubc::{dv_mask, window};
use crate::consts::K;
use crate::rounds::{stored_rounds, u32_op};

/// Compresses `blocks` into `state`, handing each block the filter lets
/// through to `is_attack`, and stops before the first attack block,
/// returning its index with `state` the chaining value before it.
pub(super) fn compress_checked(
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
    mut is_attack: impl FnMut(&SuspectBlock) -> bool,
) -> Option<usize> {
    // Opaque, as in the plain core: LLVM would otherwise add each K last,
    // on the round's critical path.
    let k = core::hint::black_box(K);
    let mut h = *state;
    for (i, block) in blocks.iter().enumerate() {
        let w = expand(block);
        let wk = plus_k(&w, &k);
        let [mut a, mut b, mut c, mut d, mut e] = h;
        stored_rounds!(wk, [a b c d e];
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19
            20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
            40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59);
        let at60 = [a, b, c, d, e];
        stored_rounds!(wk, [a b c d e]; 60 61 62 63);
        let at64 = [a, b, c, d, e];
        stored_rounds!(wk, [a b c d e];
            64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79);
        let ihv = h;
        h = core::array::from_fn(|j| ihv[j].wrapping_add([a, b, c, d, e][j]));
        let mask = dv_mask(window(&w));
        if mask != 0 {
            let suspect = || SuspectBlock {
                ihv,
                output: h,
                w,
                mid: Midstates { at60, at64 },
                mask,
            };
            if judge(suspect, &mut is_attack) {
                *state = ihv;
                return Some(i);
            }
        }
    }
    *state = h;
    None
}

/// `is_attack` of the suspect block that `suspect` makes, out of the
/// kernel's loop: made inline, LLVM copied each block's words to the
/// suspect's place as the rounds read them.
#[cold]
#[inline(never)]
fn judge(
    suspect: impl FnOnce() -> SuspectBlock,
    is_attack: &mut impl FnMut(&SuspectBlock) -> bool,
) -> bool {
    is_attack(&suspect())
}

/// W_t + K_t for every t, one loop per round constant.
#[inline(always)]
fn plus_k(w: &[u32; 80], k: &[u32; 4]) -> [u32; 80] {
    let mut wk = [0; 80];
    for ((out, words), k) in wk.chunks_exact_mut(20).zip(w.chunks_exact(20)).zip(k) {
        for (out, word) in out.iter_mut().zip(words) {
            *out = word.wrapping_add(*k);
        }
    }
    wk
}

#[cfg(test)]
mod tests {
    use super::super::kernel_tests;

    #[test]
    fn filters_as_the_portable_filter() {
        kernel_tests::filters_as_the_portable_filter(|state, blocks, is_attack| {
            super::compress_checked(state, blocks, kernel_tests::of_suspect_block(is_attack))
        });
    }

    #[test]
    fn stops_at_the_attack_block() {
        kernel_tests::stops_at_the_attack_block(|state, blocks, is_attack| {
            super::compress_checked(state, blocks, kernel_tests::of_suspect_block(is_attack))
        });
    }
}
