//! One block's verdict: compress it keeping the states the recompression
//! starts from, and for each disturbance vector the filter left possible,
//! recompute the block its colliding twin would be and compare.
//!
//! For a vector with message difference δ and test step s, the twin block
//! is W ⊕ δ. Its state after step s is taken to equal this block's (an
//! attack's differences cancel there); stepping back from it with the twin
//! block gives the chaining value the twin would start from, and stepping
//! forward gives the twin's output. The block is an attack block when the
//! twin's output equals this block's: two different (chaining value,
//! block) pairs with one output. With reduced-round detection, an equal
//! chaining value counts too (collisions of reduced-step SHA-1, which
//! sha1collisiondetection flags in that mode). This is the paper's
//! recompression (Stevens and Shumow 2017, §4).
//!
//! Everything here is scalar and runs only for the blocks the filter
//! lets through, about one in twenty of random data.

use super::dv::{DVS, MESSAGE_DIFFERENCES};
use crate::consts::K;

/// The expanded message of `block` (FIPS 180-4 §6.1.2, step 1).
#[inline]
pub(crate) fn expand(block: &[u8; 64]) -> [u32; 80] {
    let mut w = [0u32; 80];
    for (word, bytes) in w.iter_mut().zip(block.as_chunks::<4>().0) {
        *word = u32::from_be_bytes(*bytes);
    }
    for t in 16..80 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
    }
    w
}

/// f_t and K_t of step `t`.
#[inline(always)]
fn f_k(t: usize, b: u32, c: u32, d: u32) -> u32 {
    match t / 20 {
        0 => ((b & c) | (!b & d)).wrapping_add(K[0]),
        1 => (b ^ c ^ d).wrapping_add(K[1]),
        2 => ((b & c) | (b & d) | (c & d)).wrapping_add(K[2]),
        _ => (b ^ c ^ d).wrapping_add(K[3]),
    }
}

/// Step `t`: the state before it, [a, b, c, d, e], to the state after.
#[inline(always)]
fn step(t: usize, [a, b, c, d, e]: [u32; 5], w: u32) -> [u32; 5] {
    let new_a = a
        .rotate_left(5)
        .wrapping_add(f_k(t, b, c, d))
        .wrapping_add(e)
        .wrapping_add(w);
    [new_a, a, b.rotate_left(30), c, d]
}

/// The inverse of [`step`]: the state before step `t` from the state
/// after it.
#[inline(always)]
fn unstep(t: usize, [a1, b1, c1, d1, e1]: [u32; 5], w: u32) -> [u32; 5] {
    let (a, b, c, d) = (b1, c1.rotate_right(30), d1, e1);
    let e = a1
        .wrapping_sub(a.rotate_left(5))
        .wrapping_sub(f_k(t, b, c, d))
        .wrapping_sub(w);
    [a, b, c, d, e]
}

fn feed_forward(state: [u32; 5], ihv: &[u32; 5]) -> [u32; 5] {
    core::array::from_fn(|i| state[i].wrapping_add(ihv[i]))
}

/// The compression of `w` from `ihv`, stepping from `from` with the state
/// `at` before that step.
fn run(ihv: &[u32; 5], w: &[u32; 80], from: usize, mut state: [u32; 5]) -> [u32; 5] {
    for (t, &word) in w.iter().enumerate().skip(from) {
        state = step(t, state, word);
    }
    feed_forward(state, ihv)
}

/// The compression function, one step at a time.
pub(crate) fn compress(ihv: &[u32; 5], w: &[u32; 80]) -> [u32; 5] {
    run(ihv, w, 0, *ihv)
}

/// What [`check`] found.
pub(crate) struct Verdict {
    /// The block's output: the next chaining value of plain SHA-1.
    pub(crate) output: [u32; 5],
    /// Whether the block is one half of a collision attack.
    pub(crate) attack: bool,
}

/// The verdict on the block `w` compressed from `ihv`, for the vectors in
/// `mask` (the filter's answer), tried in [`DVS`] order.
pub(crate) fn check(ihv: &[u32; 5], w: &[u32; 80], mask: u64, reduced_round: bool) -> Verdict {
    // The states before steps 58 and 65, the two test steps.
    let mut state = *ihv;
    let mut at = [[0u32; 5]; 2];
    for (t, &word) in w.iter().enumerate() {
        if t == 58 || t == 65 {
            at[usize::from(t == 65)] = state;
        }
        state = step(t, state, word);
    }
    let output = feed_forward(state, ihv);
    let attack = DVS.iter().zip(&MESSAGE_DIFFERENCES).any(|(dv, dm)| {
        if mask & dv.mask_bit() == 0 {
            return false;
        }
        let twin: [u32; 80] = core::array::from_fn(|t| w[t] ^ dm[t]);
        let from = dv.test_step();
        let start = at[usize::from(from == 65)];
        let mut back = start;
        for t in (0..from).rev() {
            back = unstep(t, back, twin[t]);
        }
        let twin_ihv = back;
        run(&twin_ihv, &twin, from, start) == output || (reduced_round && twin_ihv == *ihv)
    });
    Verdict { output, attack }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unstep_inverts_step() {
        let mut state = [1, 0x8000_0000, 0xDEAD_BEEF, 7, 0xFFFF_FFFF];
        for t in 0..80 {
            let w = (t as u32).wrapping_mul(0x9E37_79B9);
            let next = step(t, state, w);
            assert_eq!(unstep(t, next, w), state, "step {t}");
            state = next;
        }
    }

    #[test]
    fn stepwise_compression_is_sha1() {
        let mut block = [0u8; 64];
        block[..3].copy_from_slice(b"abc");
        block[3] = 0x80;
        block[63] = 24;
        let out = compress(&crate::consts::H0, &expand(&block));
        assert_eq!(
            out,
            [
                0xA999_3E36,
                0x4706_816A,
                0xBA3E_2571,
                0x7850_C26C,
                0x9CD0_D89D
            ]
        );
    }

    /// With no vector left by the filter nothing is recomputed, and with
    /// every vector left a random block is still no attack.
    #[test]
    fn random_blocks_are_not_attacks() {
        let w = expand(&core::array::from_fn(|i| (i * 37 + 11) as u8));
        let all = super::super::ubc::ALL_DVS;
        for (mask, reduced) in [(0, false), (all, false), (all, true)] {
            let verdict = check(&crate::consts::H0, &w, mask, reduced);
            assert!(!verdict.attack);
            assert_eq!(verdict.output, compress(&crate::consts::H0, &w));
        }
    }
}
