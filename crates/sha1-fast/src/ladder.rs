//! The optimisation ladder: every step from [`crate::reference`] to the
//! scalar core, kept runnable so each step's gain can be measured
//! (`benches/benches/sha1_ladder.rs`, `cargo xtask`). A bench aid, not
//! API: behind the non-default `ladder` feature, hidden from the docs,
//! outside the crate's stability promise; each step is tested equal to
//! the reference.
//!
//! Each step makes one move of the classic write-up relative to the one
//! before; where it also changes something smaller, the list says so
//! (`docs/sha1.md` says which part the measured gain came from):
//!
//! 1. `reference`: FIPS 180-4 as written; a new state per block, an
//!    80-word schedule, f_t and K_t chosen per round, variables rotated.
//! 2. `in-place state`: the state stays in locals across blocks and is
//!    written back once; block words read big-endian in one step.
//! 3. `16-word schedule`: W_t computed in a 16-word ring as the rounds need
//!    it, instead of 80 words up front.
//! 4. `hoisted constants`: four 20-round loops, each with its f_t and K_t
//!    fixed, instead of a per-round choice; the round becomes a tuple
//!    assignment in place of the reference's array-valued round.
//! 5. `unrolled (no swap)`: five rounds per iteration with the variables
//!    renamed, so the five-way assignment chain disappears; the round is a
//!    function taking f_t.
//! 6. `inlined round`: the round written in place by a macro, with the
//!    cheaper Ch and Maj, and K + W_t + e + f_t summed before rotl5(a).
//! 7. `full macro unroll`: all 80 rounds generated with literal ring
//!    indices and no loop control.
//! 8. `opaque K`: the round constants hidden from LLVM, which otherwise
//!    moves `+ K` to the end of each round's sum, onto the critical path.
//!    This is [`crate::Backend::Scalar`] itself.
//!
//! ```
//! let blocks = [[0x5Au8; 64]; 2];
//! let mut expected = sha1_fast::INITIAL_STATE;
//! sha1_fast::reference::compress(&mut expected, &blocks);
//! for (name, compress) in sha1_fast::ladder::STEPS {
//!     let mut state = sha1_fast::INITIAL_STATE;
//!     compress(&mut state, &blocks);
//!     assert_eq!(state, expected, "{name}");
//! }
//! ```

use crate::consts::K;
use crate::reference::{self, expand_schedule};
use crate::scalar::words;

/// A compression function with the contract of [`crate::compress`].
pub type CompressFn = fn(&mut [u32; 5], &[[u8; 64]]);

/// The steps in order, named; the last one is the shipped scalar core.
///
/// ```
/// assert_eq!(sha1_fast::ladder::STEPS[0].0, "reference");
/// assert_eq!(sha1_fast::ladder::STEPS.len(), 8);
/// ```
pub const STEPS: &[(&str, CompressFn)] = &[
    ("reference", crate::reference::compress),
    ("in-place state", in_place),
    ("16-word schedule", ring),
    ("hoisted constants", hoisted),
    ("unrolled (no swap)", renamed),
    ("inlined round", inlined),
    ("full macro unroll", unrolled),
    ("opaque K", crate::scalar::compress),
];

/// Step 2.
fn in_place(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let mut h = *state;
    for block in blocks {
        let mut w = [0u32; 80];
        w[..16].copy_from_slice(&words(block));
        expand_schedule(&mut w);
        let mut v = h;
        for (t, &wt) in w.iter().enumerate() {
            v = reference::round(t, v, wt);
        }
        add(&mut h, v);
    }
    *state = h;
}

/// W_t from the 16-word ring, extending the schedule in place from t = 16.
#[inline(always)]
fn next_word(w: &mut [u32; 16], t: usize) -> u32 {
    if t >= 16 {
        w[t & 15] =
            (w[(t + 13) & 15] ^ w[(t + 8) & 15] ^ w[(t + 2) & 15] ^ w[t & 15]).rotate_left(1);
    }
    w[t & 15]
}

/// H(i) = H(i-1) + the working variables.
#[inline(always)]
fn add(h: &mut [u32; 5], v: [u32; 5]) {
    for (h, v) in h.iter_mut().zip(v) {
        *h = h.wrapping_add(v);
    }
}

/// The outer loop of steps 3–6: the state stays in locals across blocks,
/// each block's words start a fresh 16-word ring, and `rounds` turns a copy
/// of the state into the working variables that are then added in.
#[inline(always)]
fn each_block(
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
    mut rounds: impl FnMut(&mut [u32; 5], &mut [u32; 16]),
) {
    let mut h = *state;
    for block in blocks {
        let mut w = words(block);
        let mut v = h;
        rounds(&mut v, &mut w);
        add(&mut h, v);
    }
    *state = h;
}

/// Step 3.
fn ring(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    each_block(state, blocks, |v, w| {
        for t in 0..80 {
            *v = reference::round(t, *v, next_word(w, t));
        }
    });
}

// The FIPS forms of f_t, one function each, for steps 4 and 5.
fn ch(x: u32, y: u32, z: u32) -> u32 {
    (x & y) ^ (!x & z)
}
fn parity(x: u32, y: u32, z: u32) -> u32 {
    x ^ y ^ z
}
fn maj(x: u32, y: u32, z: u32) -> u32 {
    (x & y) ^ (x & z) ^ (y & z)
}

/// Step 4.
fn hoisted(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    /// Rounds `t0..t0 + 20`, all with `f` and `k`.
    #[inline(always)]
    fn group(v: &mut [u32; 5], w: &mut [u32; 16], t0: usize, f: fn(u32, u32, u32) -> u32, k: u32) {
        let [mut a, mut b, mut c, mut d, mut e] = *v;
        for t in t0..t0 + 20 {
            let temp = a
                .rotate_left(5)
                .wrapping_add(f(b, c, d))
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(next_word(w, t));
            (a, b, c, d, e) = (temp, a, b.rotate_left(30), c, d);
        }
        *v = [a, b, c, d, e];
    }

    each_block(state, blocks, |v, w| {
        group(v, w, 0, ch, K[0]);
        group(v, w, 20, parity, K[1]);
        group(v, w, 40, maj, K[2]);
        group(v, w, 60, parity, K[3]);
    });
}

/// One round for step 5: `e` takes the new value, `b` is rotated.
#[allow(clippy::too_many_arguments)]
fn round(
    f: fn(u32, u32, u32) -> u32,
    k: u32,
    w: u32,
    a: u32,
    b: &mut u32,
    c: u32,
    d: u32,
    e: &mut u32,
) {
    *e = a
        .rotate_left(5)
        .wrapping_add(f(*b, c, d))
        .wrapping_add(*e)
        .wrapping_add(k)
        .wrapping_add(w);
    *b = b.rotate_left(30);
}

/// Step 5.
fn renamed(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    #[inline(always)]
    fn group(v: &mut [u32; 5], w: &mut [u32; 16], t0: usize, f: fn(u32, u32, u32) -> u32, k: u32) {
        let [mut a, mut b, mut c, mut d, mut e] = *v;
        for t in (t0..t0 + 20).step_by(5) {
            // Each call's names are the previous call's shifted by one:
            // [a b c d e] → [e a b c d].
            round(f, k, next_word(w, t), a, &mut b, c, d, &mut e);
            round(f, k, next_word(w, t + 1), e, &mut a, b, c, &mut d);
            round(f, k, next_word(w, t + 2), d, &mut e, a, b, &mut c);
            round(f, k, next_word(w, t + 3), c, &mut d, e, a, &mut b);
            round(f, k, next_word(w, t + 4), b, &mut c, d, e, &mut a);
        }
        *v = [a, b, c, d, e];
    }

    each_block(state, blocks, |v, w| {
        group(v, w, 0, ch, K[0]);
        group(v, w, 20, parity, K[1]);
        group(v, w, 40, maj, K[2]);
        group(v, w, 60, parity, K[3]);
    });
}

/// Step 6.
fn inlined(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    /// Five renamed rounds per iteration, the round body and `$f` written
    /// out in place.
    macro_rules! group {
        ($v:ident, $w:ident, $t0:expr, $k:expr, |$x:ident, $y:ident, $z:ident| $f:expr) => {{
            let [mut a, mut b, mut c, mut d, mut e] = *$v;
            macro_rules! r {
                ($t:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident) => {
                    let ($x, $y, $z) = ($b, $c, $d);
                    $e = $e
                        .wrapping_add(next_word($w, $t).wrapping_add($k))
                        .wrapping_add($f)
                        .wrapping_add($a.rotate_left(5));
                    $b = $b.rotate_left(30);
                };
            }
            for t in ($t0..$t0 + 20).step_by(5) {
                r!(t, a, b, c, d, e);
                r!(t + 1, e, a, b, c, d);
                r!(t + 2, d, e, a, b, c);
                r!(t + 3, c, d, e, a, b);
                r!(t + 4, b, c, d, e, a);
            }
            *$v = [a, b, c, d, e];
        }};
    }

    each_block(state, blocks, |v, w| {
        group!(v, w, 0, K[0], |x, y, z| z ^ (x & (y ^ z)));
        group!(v, w, 20, K[1], |x, y, z| x ^ y ^ z);
        group!(v, w, 40, K[2], |x, y, z| (x & y) | (z & (x | y)));
        group!(v, w, 60, K[3], |x, y, z| x ^ y ^ z);
    });
}

/// Step 7: the scalar core with the constants in plain sight.
fn unrolled(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    crate::scalar::compress_with(state, blocks, K);
}

#[cfg(test)]
mod tests {
    use super::STEPS;
    use testkit::noise;

    #[test]
    fn every_step_matches_the_sha1_crate() {
        for seed in 0..64u64 {
            let count = (seed % 5) as usize;
            let bytes = noise(seed, 4 * 64);
            let blocks = bytes.as_chunks::<64>().0;
            let start = noise(!seed, 20);
            let mut state = [0u32; 5];
            for (word, bytes) in state.iter_mut().zip(start.as_chunks::<4>().0) {
                *word = u32::from_le_bytes(*bytes);
            }
            // The `sha1` crate, not our reference (itself the first step).
            let mut expected = state;
            sha1::block_api::compress(&mut expected, &blocks[..count]);
            for (name, compress) in STEPS {
                let mut got = state;
                compress(&mut got, &blocks[..count]);
                assert_eq!(got, expected, "step `{name}`, seed {seed}, {count} blocks");
            }
        }
    }

    /// No step stands in for another: each is its own function (a step
    /// that compiled to the same code as its neighbour would also fail,
    /// which is what its row in the table should then say).
    #[test]
    fn every_step_is_its_own_function() {
        for (i, (name, step)) in STEPS.iter().enumerate() {
            for (other_name, other) in &STEPS[i + 1..] {
                assert!(
                    !core::ptr::fn_addr_eq(*step, *other),
                    "{name} is {other_name}"
                );
            }
        }
    }

    /// The ladder ends at the shipped core, not at a copy of it: the same
    /// function, by address (outputs could not tell two correct cores
    /// apart). `scalar::compress` is neither generic nor `#[inline]`, so
    /// the crate has one instance of it and both pointers name that one.
    #[test]
    fn the_last_step_is_the_scalar_core() {
        let (name, last) = STEPS[STEPS.len() - 1];
        assert_eq!(name, "opaque K");
        let core: super::CompressFn = crate::scalar::compress;
        assert!(core::ptr::fn_addr_eq(last, core));
    }
}
