//! The portable core: safe Rust, no allocation. The state in locals across
//! blocks, a 16-word ring for the schedule, the rounds of [`crate::rounds`]
//! fully unrolled, and K passed through [`core::hint::black_box`] so that
//! LLVM does not move `+ K` onto the critical path (`ladder` has each step,
//! `docs/sha1.md` the figures).

use crate::consts::K;
use crate::rounds::{ring_block, u32_op};

/// The 16 words of a block, read big-endian.
#[inline(always)]
pub(crate) fn words(block: &[u8; 64]) -> [u32; 16] {
    let mut w = [0u32; 16];
    for (word, bytes) in w.iter_mut().zip(block.as_chunks::<4>().0) {
        *word = u32::from_be_bytes(*bytes);
    }
    w
}

/// One block into `state`; inlined into the loop of [`compress_with`] so
/// the state stays in registers from block to block.
#[inline(always)]
fn block(state: &mut [u32; 5], block: &[u8; 64], k: &[u32; 4]) {
    let mut w = words(block);
    let [mut a, mut b, mut c, mut d, mut e] = *state;
    ring_block!(u32_op, w, [k[0], k[1], k[2], k[3]], [a b c d e]);
    for (h, v) in state.iter_mut().zip([a, b, c, d, e]) {
        *h = h.wrapping_add(v);
    }
}

/// The unrolled core with the round constants `k` (always [`K`]; the
/// ladder passes them in plain to measure what hiding them is worth).
#[inline(always)]
pub(crate) fn compress_with(state: &mut [u32; 5], blocks: &[[u8; 64]], k: [u32; 4]) {
    let mut s = *state;
    for b in blocks {
        block(&mut s, b, &k);
    }
    *state = s;
}

/// Hashes `blocks` into `state` ([`crate::Backend::Scalar`]).
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    compress_with(state, blocks, core::hint::black_box(K));
}
