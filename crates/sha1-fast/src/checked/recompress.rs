//! One block's verdict (Stevens and Shumow 2017, §4): for each disturbance
//! vector the filter left, the twin block W ⊕ δ is stepped from the state
//! it shares with the block at the vector's test step, and the block is an
//! attack block when the twin reaches the same output (with reduced-round
//! detection, or the same chaining value). Scalar, and run only for the
//! blocks the filter lets through (`docs/sha1-checked.md`).

use super::dv::{DVS, MESSAGE_DIFFERENCES};
use super::ubc::ALL_DVS;
use crate::consts::K;

/// The expanded message of `block` (FIPS 180-4 §6.1.2, step 1): for the
/// kernels that hand over only a suspect's block, and the tests' oracle.
#[cfg(any(test, target_arch = "aarch64"))]
#[inline]
pub(crate) fn expand(block: &[u8; 64]) -> [u32; 80] {
    let mut w = [0u32; 80];
    w[..16].copy_from_slice(&crate::scalar::words(block));
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

/// The four round functions, for steps 0–19, 20–39, 40–59 and 60–79.
const ROUNDS: [fn(u32, u32, u32) -> u32; 4] = [
    |b, c, d| (b & c) | (!b & d),
    |b, c, d| b ^ c ^ d,
    |b, c, d| (b & c) | (b & d) | (c & d),
    |b, c, d| b ^ c ^ d,
];

/// One step forwards with W_t + K_t `wk` and round function `f`. The
/// sum that does not wait for `a` comes first, so that the step's
/// critical path is the rotate and one add.
#[inline(always)]
fn step([a, b, c, d, e]: [u32; 5], wk: u32, f: fn(u32, u32, u32) -> u32) -> [u32; 5] {
    let new_a = e
        .wrapping_add(wk)
        .wrapping_add(f(b, c, d))
        .wrapping_add(a.rotate_left(5));
    [new_a, a, b.rotate_left(30), c, d]
}

/// [`step`] undone: the state before the step from the state after it.
#[inline(always)]
fn unstep([a1, b1, c1, d1, e1]: [u32; 5], wk: u32, f: fn(u32, u32, u32) -> u32) -> [u32; 5] {
    let (a, b, c, d) = (b1, c1.rotate_right(30), d1, e1);
    let e = a1
        .wrapping_sub(a.rotate_left(5))
        .wrapping_sub(f(b, c, d))
        .wrapping_sub(wk);
    [a, b, c, d, e]
}

/// K_t of round function `round`, hidden from the optimiser: as a
/// constant, LLVM adds it last, after rotl5(a), which put a third
/// operation on every step's critical path.
#[inline(always)]
fn opaque_k(round: usize) -> u32 {
    core::hint::black_box(K[round])
}

/// Steps `from..to` forwards from `state` (the state before step `from`).
/// One loop per round function, so no step chooses its function.
#[inline(always)]
fn forward(mut state: [u32; 5], w: &[u32; 80], from: usize, to: usize) -> [u32; 5] {
    for (round, &f) in ROUNDS.iter().enumerate() {
        let (lo, hi) = (from.max(20 * round), to.min(20 * round + 20));
        let k = opaque_k(round);
        for &wt in w.get(lo..hi).unwrap_or_default() {
            state = step(state, wt.wrapping_add(k), f);
        }
    }
    state
}

/// Steps `to..from` backwards: the state before step `to` from the state
/// before step `from`.
#[inline(always)]
fn backward(mut state: [u32; 5], w: &[u32; 80], from: usize, to: usize) -> [u32; 5] {
    for (round, &f) in ROUNDS.iter().enumerate().rev() {
        for t in (to.max(20 * round)..from.min(20 * round + 20)).rev() {
            state = unstep(state, w[t].wrapping_add(K[round]), f);
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
/// step them from the chaining value (`Midstates::stepped`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Midstates {
    pub(crate) at60: [u32; 5],
    pub(crate) at64: [u32; 5],
}

impl Midstates {
    /// The states of `w`'s compression from `ihv`, stepped with `groups`.
    #[cfg(any(test, target_arch = "aarch64"))]
    pub(crate) fn stepped(ihv: &[u32; 5], w: &[u32; 80], groups: impl Groups) -> Midstates {
        let at60 = groups(*ihv, w, 0, 15);
        Midstates {
            at60,
            at64: groups(at60, w, 15, 16),
        }
    }
}

/// A block the filter let through, with all that the recompression reads,
/// as the kernels that keep it whole hand it over.
pub(crate) struct SuspectBlock {
    pub(crate) ihv: [u32; 5],
    pub(crate) output: [u32; 5],
    pub(crate) w: [u32; 80],
    pub(crate) mid: Midstates,
    pub(crate) mask: u64,
}

impl SuspectBlock {
    /// Whether the block is an attack block ([`is_attack`]).
    pub(crate) fn is_attack(&self, reduced_round: bool, groups: impl Groups) -> bool {
        is_attack(
            &self.ihv,
            &self.output,
            &self.w,
            &self.mid,
            self.mask,
            reduced_round,
            groups,
        )
    }
}

/// The vectors of a filter `mask`, by their indices in [`DVS`], in
/// [`DVS`] order (which vector is tried first does not change the
/// answer).
#[inline(always)]
fn vectors(mask: u64) -> impl Iterator<Item = usize> {
    let mut rest = mask & ALL_DVS;
    core::iter::from_fn(move || {
        let bit = rest.trailing_zeros() as usize;
        rest &= rest.wrapping_sub(1);
        (bit < 64).then(|| usize::from(DV_OF_BIT[bit]))
    })
}

/// Where a twin's test starts: a vector's twin, at the group boundary
/// after or before its test step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TwinStart {
    /// The vector's index in [`DVS`] (and [`MESSAGE_DIFFERENCES`]).
    pub(crate) dv: usize,
    /// The group the twin's state is before: 15 for the vectors tested
    /// at step 58, 16 for those at step 65.
    pub(crate) group: usize,
    /// The twin's state before step 4·`group`.
    pub(crate) state: [u32; 5],
}

/// Whether any vector in `mask` has a twin that `collides`, for a block
/// whose compression passes the states in `mid` (W\[58\], W\[59\] and
/// W\[64\] in `words`). Each twin's state is stepped to the nearest group
/// boundary (step 60 or 64), so that `collides` runs whole groups: out to
/// step 80 and in again from the chaining value that output needs, the
/// twin colliding when it arrives at the same state (forwards only, as
/// sha1dc).
#[inline(always)]
pub(crate) fn any_twin_collides(
    mid: &Midstates,
    [w58, w59, w64]: [u32; 3],
    mask: u64,
    mut collides: impl FnMut(&TwinStart) -> bool,
) -> bool {
    let [f2, f3] = [ROUNDS[2], ROUNDS[3]];
    let [k2, k3] = [K[2], K[3]];
    // The states before the two test steps, 58 and 65.
    let at58 = unstep(
        unstep(mid.at60, w59.wrapping_add(k2), f2),
        w58.wrapping_add(k2),
        f2,
    );
    let at65 = step(mid.at64, w64.wrapping_add(k3), f3);
    vectors(mask).any(|dv| {
        let dm = &MESSAGE_DIFFERENCES[dv];
        let start = if DVS[dv].test_step() == 58 {
            let at60 = step(at58, (w58 ^ dm[58]).wrapping_add(k2), f2);
            let at60 = step(at60, (w59 ^ dm[59]).wrapping_add(k2), f2);
            TwinStart {
                dv,
                group: 15,
                state: at60,
            }
        } else {
            TwinStart {
                dv,
                group: 16,
                state: unstep(at65, (w64 ^ dm[64]).wrapping_add(k3), f3),
            }
        };
        collides(&start)
    })
}

/// Whether the block `w`, compressed from `ihv` to `output` through
/// `mid`, is an attack block for a vector in `mask`, with `groups`
/// stepping whole groups ([`any_twin_collides`]); the reduced-round mode
/// needs the twin's chaining value itself, so it steps back.
pub(crate) fn is_attack(
    ihv: &[u32; 5],
    output: &[u32; 5],
    w: &[u32; 80],
    mid: &Midstates,
    mask: u64,
    reduced_round: bool,
    groups: impl Groups,
) -> bool {
    let twin = |dv: usize| -> [u32; 80] {
        let dm = &MESSAGE_DIFFERENCES[dv];
        core::array::from_fn(|t| w[t] ^ dm[t])
    };
    if reduced_round {
        let at58 = backward(mid.at60, w, 60, 58);
        let at65 = forward(mid.at64, w, 64, 65);
        return vectors(mask).any(|dv| {
            let twin = twin(dv);
            let from = DVS[dv].test_step();
            let start = if from == 58 { at58 } else { at65 };
            let twin_ihv = backward(start, &twin, from, 0);
            let twin_output = feed_forward(forward(start, &twin, from, 80), &twin_ihv);
            twin_output == *output || twin_ihv == *ihv
        });
    }
    any_twin_collides(mid, [w[58], w[59], w[64]], mask, |start| {
        let twin = twin(start.dv);
        let end = groups(start.state, &twin, start.group, 20);
        let needed: [u32; 5] = core::array::from_fn(|i| output[i].wrapping_sub(end[i]));
        groups(needed, &twin, 0, start.group) == start.state
    })
}

/// For every vector (by index in [`DVS`]), a made-up attack block: its
/// chaining value, expanded message and its twin's output, the twin
/// sharing its state at the test step, which is all the recompression
/// assumes. No published attack tests at step 58; this exercises it.
#[cfg(test)]
pub(crate) fn made_up_attacks() -> impl Iterator<Item = (usize, [u32; 5], [u32; 80], [u32; 5])> {
    (0..DVS.len()).map(|dv| {
        let w = expand(&core::array::from_fn(|i| (i * 53 + dv * 7 + 3) as u8));
        let dm = &MESSAGE_DIFFERENCES[dv];
        let twin: [u32; 80] = core::array::from_fn(|t| w[t] ^ dm[t]);
        let twin_ihv = [
            0x0123_4567,
            0x89AB_CDEF,
            dv as u32,
            0xFEDC_BA98,
            0x7654_3210,
        ];
        let from = DVS[dv].test_step();
        let shared = forward(twin_ihv, &twin, 0, from);
        let ihv = backward(shared, &w, from, 0);
        let output = feed_forward(forward(shared, &twin, from, 80), &twin_ihv);
        (dv, ihv, w, output)
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
        let Some(token) = crate::arch::x86_64::cpu::ShaNi::detect() else {
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

    /// Every vector's made-up attack is flagged, by its own bit and among
    /// all of them, in both modes; with any word of the output off by one
    /// it is not.
    #[test]
    fn made_up_attacks_are_flagged() {
        for (dv, ihv, w, output) in made_up_attacks() {
            let mid = Midstates::stepped(&ihv, &w, scalar_groups);
            for mask in [DVS[dv].mask_bit(), ALL_DVS] {
                for reduced in [false, true] {
                    let found = is_attack(&ihv, &output, &w, &mid, mask, reduced, scalar_groups);
                    assert!(found, "{:?} {mask:x} {reduced}", DVS[dv]);
                }
            }
            for i in 0..5 {
                let mut off = output;
                off[i] = off[i].wrapping_add(1);
                let mask = DVS[dv].mask_bit();
                let found = is_attack(&ihv, &off, &w, &mid, mask, false, scalar_groups);
                assert!(!found, "{:?} word {i}", DVS[dv]);
            }
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
