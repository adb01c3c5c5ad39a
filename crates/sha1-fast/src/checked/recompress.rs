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
use super::ubc::ALL_DVS;
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

/// The index in [`DVS`] of the vector whose [`super::dv::Dv::mask_bit`] is
/// bit b.
const DV_OF_BIT: [u8; 64] = {
    let mut of = [0; 64];
    let mut d = 0;
    while d < DVS.len() {
        of[DVS[d].mask_bit().trailing_zeros() as usize] = d as u8;
        d += 1;
    }
    of
};

/// The four round functions with their constants, for steps 0–19,
/// 20–39, 40–59 and 60–79.
const ROUNDS: [fn(u32, u32, u32) -> u32; 4] = [
    |b, c, d| ((b & c) | (!b & d)).wrapping_add(K[0]),
    |b, c, d| (b ^ c ^ d).wrapping_add(K[1]),
    |b, c, d| ((b & c) | (b & d) | (c & d)).wrapping_add(K[2]),
    |b, c, d| (b ^ c ^ d).wrapping_add(K[3]),
];

/// Steps `from..to` forwards from `state` (the state before step `from`).
/// One loop per round function, so no step chooses its function.
#[inline(always)]
fn forward(mut state: [u32; 5], w: &[u32; 80], from: usize, to: usize) -> [u32; 5] {
    for (round, f) in ROUNDS.iter().enumerate() {
        let (lo, hi) = (from.max(20 * round), to.min(20 * round + 20));
        for &wt in w.get(lo..hi).unwrap_or_default() {
            let [a, b, c, d, e] = state;
            let new_a = a
                .rotate_left(5)
                .wrapping_add(f(b, c, d))
                .wrapping_add(e)
                .wrapping_add(wt);
            state = [new_a, a, b.rotate_left(30), c, d];
        }
    }
    state
}

/// Steps `to..from` backwards: the state before step `to` from the state
/// before step `from`.
#[inline(always)]
fn backward(mut state: [u32; 5], w: &[u32; 80], from: usize, to: usize) -> [u32; 5] {
    for (round, f) in ROUNDS.iter().enumerate().rev() {
        for t in (to.max(20 * round)..from.min(20 * round + 20)).rev() {
            let [a1, b1, c1, d1, e1] = state;
            let (a, b, c, d) = (b1, c1.rotate_right(30), d1, e1);
            let e = a1
                .wrapping_sub(a.rotate_left(5))
                .wrapping_sub(f(b, c, d))
                .wrapping_sub(w[t]);
            state = [a, b, c, d, e];
        }
    }
    state
}

fn feed_forward(state: [u32; 5], ihv: &[u32; 5]) -> [u32; 5] {
    core::array::from_fn(|i| state[i].wrapping_add(ihv[i]))
}

/// The compression function, one step at a time.
#[cfg(test)]
pub(crate) fn compress(ihv: &[u32; 5], w: &[u32; 80]) -> [u32; 5] {
    feed_forward(forward(*ihv, w, 0, 80), ihv)
}

/// Steps 4·`first` to 4·`last` from a state with an expanded message, in
/// whole groups of four: [`scalar_groups`], or a backend's faster form.
pub(crate) trait Groups: Fn([u32; 5], &[u32; 80], usize, usize) -> [u32; 5] {}
impl<F: Fn([u32; 5], &[u32; 80], usize, usize) -> [u32; 5]> Groups for F {}

/// [`Groups`] one scalar step at a time.
pub(crate) fn scalar_groups(state: [u32; 5], w: &[u32; 80], first: usize, last: usize) -> [u32; 5] {
    forward(state, w, 4 * first, 4 * last)
}

/// The states of a block's compression before steps 60 and 64, where the
/// recompression starts: a kernel that keeps them hands them over, others
/// step them from the chaining value ([`Midstates::stepped`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Midstates {
    pub(crate) at60: [u32; 5],
    pub(crate) at64: [u32; 5],
}

impl Midstates {
    /// The states of `w`'s compression from `ihv`, stepped with `groups`.
    pub(crate) fn stepped(ihv: &[u32; 5], w: &[u32; 80], groups: impl Groups) -> Midstates {
        let at60 = groups(*ihv, w, 0, 15);
        Midstates {
            at60,
            at64: groups(at60, w, 15, 16),
        }
    }
}

/// Whether the block `w`, compressed from `ihv` to `output` through
/// `mid`, is an attack block for one of the vectors in `mask` (the
/// filter's answer), tried in [`DVS`] order; `groups` does the whole
/// groups of steps.
///
/// The twin block collides when, from its state at the test step, its
/// output equals `output`. That is checked forwards only, as sha1dc does
/// on SHA-NI: the twin's state at the nearest group boundary (step 60 or
/// 64) is stepped out to step 80, which gives the chaining value the twin
/// would need; stepped in from that value, the twin must arrive at the same
/// boundary state (the steps are a bijection, so this is the same test as
/// stepping back to the twin's chaining value). The reduced-round mode
/// asks for that chaining value itself, so it steps back.
pub(crate) fn is_attack(
    ihv: &[u32; 5],
    output: &[u32; 5],
    w: &[u32; 80],
    mid: &Midstates,
    mask: u64,
    reduced_round: bool,
    groups: impl Groups,
) -> bool {
    // The states before the two test steps, 58 and 65.
    let at58 = backward(mid.at60, w, 60, 58);
    let at65 = forward(mid.at64, w, 64, 65);
    // Only the vectors in `mask`, by their bits (which vector is tried
    // first does not change the answer).
    let mut rest = mask & ALL_DVS;
    core::iter::from_fn(|| {
        let bit = rest.trailing_zeros() as usize;
        rest &= rest.wrapping_sub(1);
        (bit < 64).then(|| usize::from(DV_OF_BIT[bit]))
    })
    .any(|d| {
        let (dv, dm) = (DVS[d], &MESSAGE_DIFFERENCES[d]);
        let twin: [u32; 80] = core::array::from_fn(|t| w[t] ^ dm[t]);
        let from = dv.test_step();
        let start = if from == 58 { at58 } else { at65 };
        if reduced_round {
            let twin_ihv = backward(start, &twin, from, 0);
            let twin_output = feed_forward(forward(start, &twin, from, 80), &twin_ihv);
            return twin_output == *output || twin_ihv == *ihv;
        }
        let (boundary, at) = if from == 58 {
            (15, forward(start, &twin, 58, 60))
        } else {
            (16, backward(start, &twin, 65, 64))
        };
        let end = groups(at, &twin, boundary, 20);
        let needed: [u32; 5] = core::array::from_fn(|i| output[i].wrapping_sub(end[i]));
        groups(needed, &twin, 0, boundary) == at
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backward_inverts_forward() {
        let w: [u32; 80] = core::array::from_fn(|t| (t as u32).wrapping_mul(0x9E37_79B9));
        let start = [1, 0x8000_0000, 0xDEAD_BEEF, 7, 0xFFFF_FFFF];
        for (from, to) in [(0, 1), (0, 80), (17, 63), (58, 80), (20, 40)] {
            let there = forward(start, &w, from, to);
            assert_eq!(backward(there, &w, to, from), start, "{from}..{to}");
        }
        assert_eq!(
            forward(forward(start, &w, 0, 58), &w, 58, 80),
            forward(start, &w, 0, 80)
        );
    }

    #[test]
    fn stepwise_compression_is_sha1() {
        let mut block = [0u8; 64];
        block[..3].copy_from_slice(b"abc");
        block[3] = 0x80;
        block[63] = 24;
        let out = compress(&crate::INITIAL_STATE, &expand(&block));
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

    /// The SHA-NI group stepper equals the scalar one on every range the
    /// recompression uses, and on the whole block.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn sha_ni_groups_equal_scalar_groups() {
        let Some(token) = crate::x86::shani::ShaNi::detect() else {
            return;
        };
        let w = expand(&core::array::from_fn(|i| (i * 91 + 7) as u8));
        let state = [1, 0x8000_0000, 0xDEAD_BEEF, 7, 0xFFFF_FFFF];
        for (first, last) in [
            (0, 15),
            (15, 16),
            (15, 20),
            (16, 20),
            (0, 16),
            (0, 20),
            (3, 3),
        ] {
            assert_eq!(
                token.groups(state, &w, first, last),
                scalar_groups(state, &w, first, last),
                "{first}..{last}"
            );
        }
    }

    /// With every vector left by the filter a random block is still no
    /// attack.
    #[test]
    fn random_blocks_are_not_attacks() {
        let w = expand(&core::array::from_fn(|i| (i * 37 + 11) as u8));
        let output = compress(&crate::INITIAL_STATE, &w);
        let all = super::super::ubc::ALL_DVS;
        let mid = Midstates::stepped(&crate::INITIAL_STATE, &w, scalar_groups);
        for reduced in [false, true] {
            assert!(!is_attack(
                &crate::INITIAL_STATE,
                &output,
                &w,
                &mid,
                all,
                reduced,
                scalar_groups
            ));
        }
    }
}
