//! The scalar checked compression: the plain core's rounds with an 80-word
//! ring, the portable filter reading the words as the rounds make them, and
//! a suspect block handed to the recompression whole ([`SuspectBlock`]).

use super::recompress::{Midstates, SuspectBlock};
use super::ubc::{Planes, add_to_planes, dv_mask_from_planes};
use crate::consts::K;
use crate::rounds::{ring_rounds, u32_op};

/// Compresses `blocks` into `state`, handing each block the filter lets
/// through to `is_attack`, and stops before the first attack block,
/// returning its index with `state` the chaining value before it.
pub(crate) fn compress_checked(
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
    mut is_attack: impl FnMut(&SuspectBlock) -> bool,
) -> Option<usize> {
    // Opaque, as in the plain core: LLVM would otherwise add each K last,
    // on the round's critical path.
    let k = core::hint::black_box(K);
    let mut h = *state;
    for (i, block) in blocks.iter().enumerate() {
        let mut w = [0; 80];
        w[..16].copy_from_slice(&crate::scalar::words(block));
        let [mut a, mut b, mut c, mut d, mut e] = h;
        ring_rounds!(u32_op, w, ch, k[0], [a b c d e];
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
        ring_rounds!(u32_op, w, parity, k[1], [a b c d e];
            20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39);
        // The filter's planes take each eight words of its window as soon
        // as the rounds have made them, so that its work overlaps theirs.
        let mut planes = Planes::default();
        add_to_planes(&mut planes, 0, &w[32..40]);
        ring_rounds!(u32_op, w, maj, k[2], [a b c d e]; 40 41 42 43 44 45 46 47);
        add_to_planes(&mut planes, 1, &w[40..48]);
        // Each round turns the names by one: by three after eight rounds.
        ring_rounds!(u32_op, w, maj, k[2], [c d e a b]; 48 49 50 51 52 53 54 55);
        add_to_planes(&mut planes, 2, &w[48..56]);
        ring_rounds!(u32_op, w, maj, k[2], [e a b c d]; 56 57 58 59);
        let at60 = [a, b, c, d, e];
        ring_rounds!(u32_op, w, parity, k[3], [a b c d e]; 60 61 62 63);
        add_to_planes(&mut planes, 3, &w[56..64]);
        let at64 = [b, c, d, e, a];
        ring_rounds!(u32_op, w, parity, k[3], [b c d e a]; 64 65 66 67);
        add_to_planes(&mut planes, 4, &w[64..68]);
        let mask = dv_mask_from_planes(&planes);
        ring_rounds!(u32_op, w, parity, k[3], [c d e a b];
            68 69 70 71 72 73 74 75 76 77 78 79);
        let ihv = h;
        h = core::array::from_fn(|j| ihv[j].wrapping_add([a, b, c, d, e][j]));
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
