//! The Arm SHA backend (FEAT_SHA1): `sha1c`/`sha1p`/`sha1m` do four rounds
//! given E and W + K, `sha1h` the next E, `sha1su0`/`sha1su1` the schedule.
//! ABCD is one vector (A in lane 0), E a plain `u32`. The checked kernel
//! runs in the same block macro, spilling W\[32..68\] for the NEON planes
//! ([`crate::arch::aarch64::planes`]); `docs/sha1.md` has the design.
//!
//! Soundness: every function that executes a SHA instruction is
//! `#[target_feature]` and private, reached only through [`ArmSha`], made
//! after the OS reported `sha2` (which implies `neon`).

use super::cpu::ArmSha;
use super::planes;
use crate::Digest;
use crate::checked::ubc::dv_mask_from_planes;
use crate::consts::K;
use crate::lanes;
use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vdupq_n_u32, vgetq_lane_u32, vld1q_u8, vld1q_u32, vreinterpretq_u32_u8,
    vrev32q_u8, vsha1cq_u32, vsha1h_u32, vsha1mq_u32, vsha1pq_u32, vsha1su0q_u32, vsha1su1q_u32,
};

/// Independent messages in flight in [`ArmSha::digest_many`], their
/// rounds interleaved group by group: a second stream fills the SHA pipe,
/// a third would only wait (`docs/sha1.md` has the bounds).
const LANES: usize = 2;

/// Below this many busy lanes each finishes alone: an idle lane's
/// placeholder block would cost the throughput-bound pipe a real one.
const MIN_LANES: usize = LANES;

impl ArmSha {
    /// [`crate::compress`] on this backend, over the blocks of each part
    /// in turn.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 5], parts: &[&[[u8; 64]]]) {
        // SAFETY: `self` exists, so `ArmSha::detect` saw the feature that
        // `compress_blocks` enables.
        unsafe { compress_blocks(state, parts) }
    }

    /// [`crate::checked`]'s compression on this backend: compresses
    /// `blocks` into `state`, handing each block the collision filter lets
    /// through to `is_attack` (chaining value in, output, block, filter
    /// mask), and stops before the first attack block, returning its index
    /// with `state` the chaining value before it. The filter runs on the
    /// NEON planes ([`planes`]) of the schedule words the rounds use.
    #[inline]
    pub(crate) fn compress_checked(
        self,
        state: &mut [u32; 5],
        blocks: &[[u8; 64]],
        is_attack: impl FnMut(&[u32; 5], &[u32; 5], &[u8; 64], u64) -> bool,
    ) -> Option<usize> {
        // SAFETY: `self` exists, so `ArmSha::detect` saw the feature that
        // `compress_checked_neon` enables.
        unsafe { compress_checked_neon(state, blocks, is_attack) }
    }

    /// Steps 4·`first` to 4·`last` of the compression from `state` (the
    /// state before step 4·`first`), with the expanded message `w`, as
    /// whole groups of four on the SHA instructions: the recompression of
    /// [`crate::checked`] on this backend.
    #[inline]
    pub(crate) fn groups(
        self,
        state: [u32; 5],
        w: &[u32; 80],
        first: usize,
        last: usize,
    ) -> [u32; 5] {
        // SAFETY: `self` exists, so `ArmSha::detect` saw the feature that
        // `step_groups` enables.
        unsafe { step_groups(state, w, first, last) }
    }

    /// [`crate::digest_many_into`] on this backend; `out` has one slot per
    /// message.
    #[inline]
    pub(crate) fn digest_many(self, messages: &[&[u8]], out: &mut [Digest]) {
        // SAFETY: `self` exists, so `ArmSha::detect` saw the feature that
        // `digest_lanes` enables.
        unsafe { digest_lanes(messages, out) }
    }
}

// The helpers below are macros, not functions: intrinsics are safe to call
// only from functions that enable their features, and only the entry
// points carry `#[target_feature]`.

/// One group of four rounds in every lane (arrays of one register per
/// lane, the lanes' instructions alternating): `$rounds` is this fifth's
/// intrinsic, `$k` its constant. `$cur` of `[$cur $next $next2 $next3]`
/// holds W_{4k..4k+3}; with `extend` it then becomes W_{4k+16..4k+19}
/// (`sha1su0` of the first three groups, `sha1su1` with the fourth).
macro_rules! group {
    ($rounds:ident, $k:expr, $abcd:ident, $e:ident, [$cur:ident $next:ident $next2:ident $next3:ident] $($extend:ident)?) => {
        for lane in 0..$abcd.len() {
            let wk = vaddq_u32($cur[lane], $k);
            let next_e = vsha1h_u32(vgetq_lane_u32::<0>($abcd[lane]));
            $abcd[lane] = $rounds($abcd[lane], $e[lane], wk);
            $e[lane] = next_e;
            $(group!(@$extend, $cur[lane], $next[lane], $next2[lane], $next3[lane]);)?
        }
    };
    (@extend, $cur:expr, $next:expr, $next2:expr, $next3:expr) => {
        $cur = vsha1su1q_u32(vsha1su0q_u32($cur, $next, $next2), $next3)
    };
}

/// One 64-byte block per lane: `$blocks[i]` into the state held as
/// `$abcd[i]` (A in lane 0) and `$e[i]`. `$spill!(k, words)` is invoked
/// with each group's four schedule words (W_{4k} in lane 0) before the
/// group uses them. Only inside functions that enable this module's
/// feature.
macro_rules! block {
    ($abcd:ident, $e:ident, $blocks:expr) => {
        block!($abcd, $e, $blocks, no_spill())
    };
    ($abcd:ident, $e:ident, $blocks:expr, $spill:ident($($to:tt)*)) => {{
        let blocks = $blocks;
        let (abcd_in, e_in) = ($abcd, $e);
        let [mut m0, mut m1, mut m2, mut m3] = core::array::from_fn(|quarter| {
            blocks.map(|block| {
                let bytes: &[u8; 16] = &block.as_chunks().0[quarter];
                // SAFETY: `bytes` is 16 readable bytes, and `ld1` of bytes
                // has no alignment requirement.
                let bytes = unsafe { vld1q_u8(bytes.as_ptr()) };
                // Big-endian words: lane i holds W_{4·quarter+i}.
                vreinterpretq_u32_u8(vrev32q_u8(bytes))
            })
        });
        let [k0, k1, k2, k3] = K.map(|k| vdupq_n_u32(k));
        // Groups 0–15 extend the schedule by the four words group k+4
        // reads; the last four read what is there.
        $spill!(0, m0 $($to)*);
        group!(vsha1cq_u32, k0, $abcd, $e, [m0 m1 m2 m3] extend);
        $spill!(1, m1 $($to)*);
        group!(vsha1cq_u32, k0, $abcd, $e, [m1 m2 m3 m0] extend);
        $spill!(2, m2 $($to)*);
        group!(vsha1cq_u32, k0, $abcd, $e, [m2 m3 m0 m1] extend);
        $spill!(3, m3 $($to)*);
        group!(vsha1cq_u32, k0, $abcd, $e, [m3 m0 m1 m2] extend);
        $spill!(4, m0 $($to)*);
        group!(vsha1cq_u32, k0, $abcd, $e, [m0 m1 m2 m3] extend);
        $spill!(5, m1 $($to)*);
        group!(vsha1pq_u32, k1, $abcd, $e, [m1 m2 m3 m0] extend);
        $spill!(6, m2 $($to)*);
        group!(vsha1pq_u32, k1, $abcd, $e, [m2 m3 m0 m1] extend);
        $spill!(7, m3 $($to)*);
        group!(vsha1pq_u32, k1, $abcd, $e, [m3 m0 m1 m2] extend);
        $spill!(8, m0 $($to)*);
        group!(vsha1pq_u32, k1, $abcd, $e, [m0 m1 m2 m3] extend);
        $spill!(9, m1 $($to)*);
        group!(vsha1pq_u32, k1, $abcd, $e, [m1 m2 m3 m0] extend);
        $spill!(10, m2 $($to)*);
        group!(vsha1mq_u32, k2, $abcd, $e, [m2 m3 m0 m1] extend);
        $spill!(11, m3 $($to)*);
        group!(vsha1mq_u32, k2, $abcd, $e, [m3 m0 m1 m2] extend);
        $spill!(12, m0 $($to)*);
        group!(vsha1mq_u32, k2, $abcd, $e, [m0 m1 m2 m3] extend);
        $spill!(13, m1 $($to)*);
        group!(vsha1mq_u32, k2, $abcd, $e, [m1 m2 m3 m0] extend);
        $spill!(14, m2 $($to)*);
        group!(vsha1mq_u32, k2, $abcd, $e, [m2 m3 m0 m1] extend);
        $spill!(15, m3 $($to)*);
        group!(vsha1pq_u32, k3, $abcd, $e, [m3 m0 m1 m2] extend);
        $spill!(16, m0 $($to)*);
        group!(vsha1pq_u32, k3, $abcd, $e, [m0 m1 m2 m3]);
        $spill!(17, m1 $($to)*);
        group!(vsha1pq_u32, k3, $abcd, $e, [m1 m2 m3 m0]);
        $spill!(18, m2 $($to)*);
        group!(vsha1pq_u32, k3, $abcd, $e, [m2 m3 m0 m1]);
        $spill!(19, m3 $($to)*);
        group!(vsha1pq_u32, k3, $abcd, $e, [m3 m0 m1 m2]);
        for lane in 0..$abcd.len() {
            $abcd[lane] = vaddq_u32($abcd[lane], abcd_in[lane]);
            $e[lane] = $e[lane].wrapping_add(e_in[lane]);
        }
    }};
}

/// The `$spill` of [`block!`] for callers that need no schedule words.
macro_rules! no_spill {
    ($k:literal, $words:ident) => {};
}

/// The `$spill` of [`block!`] for the collision filter: groups 8–16
/// (W\[32..68\]) of the one lane into `$window`.
macro_rules! spill_window {
    ($k:literal, $words:ident $window:ident) => {
        if 8 <= $k && $k <= 16 {
            $window[$k - 8] = $words[0];
        }
    };
}

/// The state as the instructions want it: ABCD in one vector, A in lane 0,
/// and E apart.
macro_rules! load_state {
    ($state:expr) => {{
        let state: &[u32; 5] = $state;
        // SAFETY: `state` has four readable words from its start, and `ld1`
        // of words needs only their natural alignment, which `u32` has.
        let abcd: uint32x4_t = unsafe { vld1q_u32(state.as_ptr()) };
        (abcd, state[4])
    }};
}

/// The inverse of [`load_state!`].
macro_rules! store_state {
    ($abcd:expr, $e:expr) => {{
        let abcd = $abcd;
        [
            vgetq_lane_u32::<0>(abcd),
            vgetq_lane_u32::<1>(abcd),
            vgetq_lane_u32::<2>(abcd),
            vgetq_lane_u32::<3>(abcd),
            $e,
        ]
    }};
}

/// Hashes the blocks of each part into `state`, keeping the state in
/// registers throughout.
#[target_feature(enable = "sha2")]
fn compress_blocks(state: &mut [u32; 5], parts: &[&[[u8; 64]]]) {
    let (abcd, e) = load_state!(state);
    let (mut abcd, mut e) = ([abcd], [e]);
    for blocks in parts {
        for block in *blocks {
            block!(abcd, e, [block]);
        }
    }
    *state = store_state!(abcd[0], e[0]);
}

/// [`ArmSha::compress_checked`]: W\[32..68\] kept as the rounds use them,
/// the filter beside the next block's rounds.
#[target_feature(enable = "sha2")]
fn compress_checked_neon(
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
    mut is_attack: impl FnMut(&[u32; 5], &[u32; 5], &[u8; 64], u64) -> bool,
) -> Option<usize> {
    let (abcd, e) = load_state!(state);
    let (mut abcd, mut e) = ([abcd], [e]);
    let mut window: planes::Groups = [vdupq_n_u32(0); 9];
    for (index, block) in blocks.iter().enumerate() {
        let before = (abcd[0], e[0]);
        block!(abcd, e, [block], spill_window(window));
        let mask = dv_mask_from_planes(&planes::planes(&window));
        if mask != 0 {
            let ihv = store_state!(before.0, before.1);
            if is_attack(&ihv, &store_state!(abcd[0], e[0]), block, mask) {
                *state = ihv;
                return Some(index);
            }
        }
    }
    *state = store_state!(abcd[0], e[0]);
    None
}

/// [`ArmSha::groups`].
#[target_feature(enable = "sha2")]
fn step_groups(state: [u32; 5], w: &[u32; 80], first: usize, last: usize) -> [u32; 5] {
    let (mut abcd, mut e) = load_state!(&state);
    for (k, words) in w
        .as_chunks::<4>()
        .0
        .iter()
        .enumerate()
        .take(last)
        .skip(first)
    {
        // SAFETY: `words` is four readable `u32`s, and `ld1` of words
        // needs only their natural alignment.
        let words = unsafe { vld1q_u32(words.as_ptr()) };
        let wk = vaddq_u32(words, vdupq_n_u32(K[k / 5]));
        // E four steps on is rotl30 of A now, as in `group!`.
        let next_e = vsha1h_u32(vgetq_lane_u32::<0>(abcd));
        abcd = match k / 5 {
            0 => vsha1cq_u32(abcd, e, wk),
            2 => vsha1mq_u32(abcd, e, wk),
            _ => vsha1pq_u32(abcd, e, wk),
        };
        e = next_e;
    }
    store_state!(abcd, e)
}

/// One block into each of the [`LANES`] states, the lanes interleaved
/// group by group.
#[target_feature(enable = "sha2")]
fn compress_lanes(states: &mut [[u32; 5]; LANES], blocks: &[&[u8; 64]; LANES]) {
    let loaded = states.each_ref().map(|state| load_state!(state));
    let (mut abcd, mut e) = (loaded.map(|(abcd, _)| abcd), loaded.map(|(_, e)| e));
    block!(abcd, e, *blocks);
    for (state, (abcd, e)) in states.iter_mut().zip(abcd.into_iter().zip(e)) {
        *state = store_state!(abcd, e);
    }
}

/// Many messages, [`LANES`] at a time, one block of each per step.
#[target_feature(enable = "sha2")]
fn digest_lanes(messages: &[&[u8]], out: &mut [Digest]) {
    lanes::run::<LANES>(
        messages,
        out,
        MIN_LANES,
        |states, blocks, _active| compress_lanes(states, blocks),
        |state, parts| compress_blocks(state, parts),
    );
}

#[cfg(test)]
mod tests {
    use super::ArmSha;
    use crate::checked::kernel_tests::{self, blocks};
    use crate::checked::recompress::expand;
    use crate::checked::recompress::scalar_groups;

    #[test]
    fn checked_kernel_filters_as_the_portable_filter() {
        let Some(token) = ArmSha::detect() else {
            return;
        };
        kernel_tests::filters_as_the_portable_filter(|state, blocks, is_attack| {
            token.compress_checked(state, blocks, is_attack)
        });
    }

    #[test]
    fn checked_kernel_stops_at_the_attack_block() {
        let Some(token) = ArmSha::detect() else {
            return;
        };
        kernel_tests::stops_at_the_attack_block(|state, blocks, is_attack| {
            token.compress_checked(state, blocks, is_attack)
        });
    }

    /// The group stepper equals the scalar one on every range the
    /// recompression uses, and on the whole block.
    #[test]
    fn groups_equal_scalar_groups() {
        let Some(token) = ArmSha::detect() else {
            return;
        };
        let state = [1, 0x8000_0000, 0xDEAD_BEEF, 7, 0xFFFF_FFFF];
        for block in blocks(20) {
            let w = expand(&block);
            for (first, last) in [(0, 15), (15, 16), (15, 20), (16, 20), (0, 20), (3, 3)] {
                assert_eq!(
                    token.groups(state, &w, first, last),
                    scalar_groups(state, &w, first, last),
                    "{first}..{last}"
                );
            }
        }
    }
}
