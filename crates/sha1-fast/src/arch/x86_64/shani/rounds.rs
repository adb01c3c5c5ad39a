//! The SHA-NI backend (`docs/sha1.md`): `sha1rnds4` does four rounds given
//! E + W, `sha1nexte` the next group's E, `sha1msg1`/`sha1msg2` the
//! schedule. One macro per group over arrays of registers writes both the
//! single stream and the interleaved lanes of [`ShaNi::digest_many`].
//!
//! Soundness: every function that executes a SHA or SSSE3/SSE4.1
//! instruction is `#[target_feature]` and private, reached only through
//! [`ShaNi`]'s methods.

use crate::Digest;
use crate::INITIAL_STATE;
use crate::arch::x86_64::cpu::ShaNi;
use crate::lanes;
use crate::pad::Padded;
use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_extract_epi32, _mm_extract_epi64,
    _mm_loadu_si128, _mm_set_epi32, _mm_set_epi64x, _mm_setzero_si128, _mm_sha1msg1_epu32,
    _mm_sha1msg2_epu32, _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32, _mm_shuffle_epi8,
    _mm_shuffle_epi32, _mm_xor_si128,
};

/// Independent messages in flight in [`ShaNi::digest_many`], their rounds
/// interleaved group by group: three chains would saturate `sha1rnds4`,
/// but sixteen XMM registers hold about two lanes, and more lanes hide
/// the spills (`docs/sha1.md`).
const LANES: usize = 5;

/// Below this many busy lanes (when the messages have run out), each
/// finishes alone: one lane is faster as a single stream.
const MIN_LANES: usize = 2;

impl ShaNi {
    /// [`crate::compress`] on this backend, over the blocks of each part
    /// in turn.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 5], parts: &[&[[u8; 64]]]) {
        // SAFETY: `self` exists, so `ShaNi::detect` saw every feature that
        // `compress_blocks` enables.
        unsafe { compress_blocks(state, parts) }
    }

    /// [`crate::digest()`] on this backend.
    #[inline]
    pub(crate) fn digest(self, data: &[u8]) -> Digest {
        // SAFETY: `self` exists, so `ShaNi::detect` saw every feature that
        // `digest_one` enables.
        unsafe { digest_one(data) }
    }

    /// Steps 4·`first` to 4·`last` of the compression from `state` (the
    /// state before step 4·`first`), with the expanded message `w`, as whole
    /// groups of four on the SHA unit: the recompression of
    /// [`crate::checked`] on this backend.
    #[inline]
    pub(crate) fn groups(
        self,
        state: [u32; 5],
        w: &[u32; 80],
        first: usize,
        last: usize,
    ) -> [u32; 5] {
        // SAFETY: `self` exists, so `ShaNi::detect` saw every feature that
        // `step_groups` enables.
        unsafe { step_groups(state, w, first, last) }
    }

    /// [`crate::digest_many_into`] on this backend; `out` has one slot per
    /// message.
    #[inline]
    pub(crate) fn digest_many(self, messages: &[&[u8]], out: &mut [Digest]) {
        // SAFETY: `self` exists, so `ShaNi::detect` saw every feature that
        // `digest_lanes` enables.
        unsafe { digest_lanes(messages, out) }
    }
}

/// One group of four rounds, and the schedule work listed after it, in
/// every lane (arrays of one register per lane, the lanes' instructions
/// alternating). `$f` is the round function (0–3); E + W is the state's E
/// plus the words in the first group (`start`), else `sha1nexte` of the
/// previous ABCD (`next`). `$cur` of `[$cur $next $next2 $old]` holds
/// W_{4k..4k+3}; `msg2` finishes W_{4k+4..} in `$next`, `xor` adds `$cur`
/// into W_{4k+8..} in `$next2`, `msg1` starts W_{4k+12..} in `$old`.
macro_rules! quad {
    ($f:literal, $abcd:ident, $e:ident, $prev:ident, $from:ident [$cur:ident $next:ident $next2:ident $old:ident] $($op:ident)*) => {
        for lane in 0..$abcd.len() {
            let e = quad!(@$from, $e[lane], $prev[lane], $cur[lane]);
            $prev[lane] = $abcd[lane];
            $abcd[lane] = _mm_sha1rnds4_epu32::<$f>($abcd[lane], e);
            $(quad!(@$op, $cur[lane], $next[lane], $next2[lane], $old[lane]);)*
        }
    };
    (@start, $e:expr, $prev:expr, $cur:expr) => {
        _mm_add_epi32($e, $cur)
    };
    (@next, $e:expr, $prev:expr, $cur:expr) => {
        _mm_sha1nexte_epu32($prev, $cur)
    };
    (@msg2, $cur:expr, $next:expr, $next2:expr, $old:expr) => {
        $next = _mm_sha1msg2_epu32($next, $cur)
    };
    (@xor, $cur:expr, $next:expr, $next2:expr, $old:expr) => {
        $next2 = _mm_xor_si128($next2, $cur)
    };
    (@msg1, $cur:expr, $next:expr, $next2:expr, $old:expr) => {
        $old = _mm_sha1msg1_epu32($old, $cur)
    };
}

/// One 64-byte block per lane: `$blocks[i]` into the state held as
/// `$abcd[i]` (A in the top lane) and `$e[i]` (E in the top lane, zeros
/// below). Only inside functions that enable this module's features.
macro_rules! block {
    ($abcd:ident, $e:ident, $blocks:expr) => {{
        let blocks = $blocks;
        let (abcd_in, e_in) = ($abcd, $e);
        let mut prev = $abcd;
        // Quarter q of every lane's block in `m[q]`, by loops: a closure
        // calling an SSSE3 intrinsic may stay out of line, its vectors
        // going through memory.
        let mut m = [$abcd; 4];
        for (lane, block) in blocks.iter().enumerate() {
            for (quarter, bytes) in block.as_chunks::<16>().0.iter().enumerate() {
                // SAFETY: `bytes` is 16 readable bytes, and `loadu` has no
                // alignment requirement.
                let words = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
                m[quarter][lane] = _mm_shuffle_epi8(words, big_endian_words!());
            }
        }
        let [mut m0, mut m1, mut m2, mut m3] = m;
        // Rounds 0–15 use the block's own words; the schedule for rounds
        // 16–79 ramps up over them and down over the last groups.
        quad!(0, $abcd, $e, prev, start [m0 m1 m2 m3]);
        quad!(0, $abcd, $e, prev, next [m1 m2 m3 m0] msg1);
        quad!(0, $abcd, $e, prev, next [m2 m3 m0 m1] xor msg1);
        quad!(0, $abcd, $e, prev, next [m3 m0 m1 m2] msg2 xor msg1);
        quad!(0, $abcd, $e, prev, next [m0 m1 m2 m3] msg2 xor msg1);
        quad!(1, $abcd, $e, prev, next [m1 m2 m3 m0] msg2 xor msg1);
        quad!(1, $abcd, $e, prev, next [m2 m3 m0 m1] msg2 xor msg1);
        quad!(1, $abcd, $e, prev, next [m3 m0 m1 m2] msg2 xor msg1);
        quad!(1, $abcd, $e, prev, next [m0 m1 m2 m3] msg2 xor msg1);
        quad!(1, $abcd, $e, prev, next [m1 m2 m3 m0] msg2 xor msg1);
        quad!(2, $abcd, $e, prev, next [m2 m3 m0 m1] msg2 xor msg1);
        quad!(2, $abcd, $e, prev, next [m3 m0 m1 m2] msg2 xor msg1);
        quad!(2, $abcd, $e, prev, next [m0 m1 m2 m3] msg2 xor msg1);
        quad!(2, $abcd, $e, prev, next [m1 m2 m3 m0] msg2 xor msg1);
        quad!(2, $abcd, $e, prev, next [m2 m3 m0 m1] msg2 xor msg1);
        quad!(3, $abcd, $e, prev, next [m3 m0 m1 m2] msg2 xor msg1);
        quad!(3, $abcd, $e, prev, next [m0 m1 m2 m3] msg2 xor msg1);
        quad!(3, $abcd, $e, prev, next [m1 m2 m3 m0] msg2 xor);
        quad!(3, $abcd, $e, prev, next [m2 m3 m0 m1] msg2);
        quad!(3, $abcd, $e, prev, next [m3 m0 m1 m2]);
        for lane in 0..$abcd.len() {
            // E after 80 rounds is rotl30 of A before the last four.
            $e[lane] = _mm_sha1nexte_epu32(prev[lane], e_in[lane]);
            $abcd[lane] = _mm_add_epi32($abcd[lane], abcd_in[lane]);
        }
    }};
}

// The helpers below are macros, not functions: intrinsics are safe to call
// only from functions that enable their features (even SSE2), and only the
// entry points carry `#[target_feature]`.

/// The `pshufb` mask that reverses 16 bytes: each word becomes big-endian
/// and W_{4k} lands in the top lane, where `sha1rnds4` wants it.
macro_rules! big_endian_words {
    () => {
        _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F)
    };
}

/// The state as the instructions want it: ABCD with A in the top lane, and
/// E in the top lane of a register that is zero below (the zeros are what
/// the first group adds to W_1..W_3).
macro_rules! load_state {
    ($state:expr) => {{
        let [a, b, c, d, e] = $state.map(|w: u32| w as i32);
        (_mm_set_epi32(a, b, c, d), _mm_set_epi32(e, 0, 0, 0))
    }};
}
// The twin test (`shani_twin`) loads its states the same way.
pub(super) use load_state;

/// The inverse of [`load_state!`]: each lane is broadcast to lane 0 and
/// read there.
macro_rules! store_state {
    ($abcd:expr, $e:expr) => {{
        let [d, c, b, a, e] = [
            $abcd,
            _mm_shuffle_epi32::<0x55>($abcd),
            _mm_shuffle_epi32::<0xAA>($abcd),
            _mm_shuffle_epi32::<0xFF>($abcd),
            _mm_shuffle_epi32::<0xFF>($e),
        ]
        .map(|v| _mm_cvtsi128_si32(v) as u32);
        [a, b, c, d, e]
    }};
}

/// Hashes the blocks of each part into `state`, keeping the state in
/// registers throughout.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_blocks(state: &mut [u32; 5], parts: &[&[[u8; 64]]]) {
    let (abcd, e) = load_state!(*state);
    let (mut abcd, mut e) = ([abcd], [e]);
    for blocks in parts {
        for block in *blocks {
            block!(abcd, e, [block]);
        }
    }
    *state = store_state!(abcd[0], e[0]);
}

/// [`ShaNi::groups`].
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn step_groups(state: [u32; 5], w: &[u32; 80], first: usize, last: usize) -> [u32; 5] {
    let groups = w.as_chunks::<4>().0;
    // A range outside the block steps nothing.
    let last = if first <= last && last <= groups.len() {
        last
    } else {
        first
    };
    let (abcd, e) = load_state!(state);
    let (abcd, e) = groups_with(abcd, e, first, last, |k| {
        // SAFETY: a group is 16 readable bytes; `loadu` needs no alignment.
        let words = unsafe { _mm_loadu_si128(groups[k].as_ptr().cast()) };
        // W_{4k} to the top lane.
        _mm_shuffle_epi32::<0x1B>(words)
    });
    store_state!(abcd, e)
}

/// Groups `first..last` of the rounds from ABCD and E, group k's words
/// (W_{4k} in the top lane) from `words(k)`: the recompression's stepper,
/// for [`ShaNi::groups`] and the twin test, which differ only in where
/// the words come from.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
#[inline]
pub(super) fn groups_with(
    mut abcd: __m128i,
    e: __m128i,
    first: usize,
    last: usize,
    words: impl Fn(usize) -> __m128i,
) -> (__m128i, __m128i) {
    let mut prev = abcd;
    for k in first..last {
        let words = words(k);
        let e_words = if k == first {
            _mm_add_epi32(e, words)
        } else {
            _mm_sha1nexte_epu32(prev, words)
        };
        prev = abcd;
        abcd = match k / 5 {
            0 => _mm_sha1rnds4_epu32::<0>(abcd, e_words),
            1 => _mm_sha1rnds4_epu32::<1>(abcd, e_words),
            2 => _mm_sha1rnds4_epu32::<2>(abcd, e_words),
            _ => _mm_sha1rnds4_epu32::<3>(abcd, e_words),
        };
    }
    // E after the last group is rotl30 of A before it.
    let e = if last > first {
        _mm_sha1nexte_epu32(prev, _mm_set_epi64x(0, 0))
    } else {
        e
    };
    (abcd, e)
}

/// The one-shot: body blocks from `data`, then the padded tail.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn digest_one(data: &[u8]) -> Digest {
    let (body, rest) = data.as_chunks::<64>();
    let mut tail = Padded::EMPTY;
    tail.fill(rest, data.len() as u64);
    let (abcd, e) = load_state!(INITIAL_STATE);
    let (mut abcd, mut e) = ([abcd], [e]);
    for block in body.iter().chain(tail.blocks()) {
        block!(abcd, e, [block]);
    }
    // A..D big-endian is ABCD's 16 bytes reversed.
    let abcd = _mm_shuffle_epi8(abcd[0], big_endian_words!());
    let mut out = [0; Digest::LEN];
    out[..8].copy_from_slice(&_mm_extract_epi64::<0>(abcd).to_le_bytes());
    out[8..16].copy_from_slice(&_mm_extract_epi64::<1>(abcd).to_le_bytes());
    out[16..].copy_from_slice(&_mm_extract_epi32::<3>(e[0]).to_be_bytes());
    Digest::from_bytes(out)
}

/// One block into each of `N` states, the lanes interleaved group by group.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_lanes<const N: usize>(states: &mut [[u32; 5]; N], blocks: [&[u8; 64]; N]) {
    let (mut abcd, mut e) = ([_mm_setzero_si128(); N], [_mm_setzero_si128(); N]);
    for (lane, state) in states.iter().enumerate() {
        (abcd[lane], e[lane]) = load_state!(*state);
    }
    block!(abcd, e, blocks);
    for (state, (abcd, e)) in states.iter_mut().zip(abcd.into_iter().zip(e)) {
        *state = store_state!(abcd, e);
    }
}

/// [`compress_lanes`] on the first `$active` of `$states` and `$blocks`,
/// for each lane count listed ([`LANES`] down to [`MIN_LANES`]): the count
/// must be a constant for the lanes to live in registers.
macro_rules! first_lanes {
    ($states:expr, $blocks:expr, $active:expr; $($n:literal)*) => {
        match $active {
            $($n => {
                let (states, _) = $states.split_first_chunk_mut::<$n>().expect("active lanes");
                let (blocks, _) = $blocks.split_first_chunk::<$n>().expect("active lanes");
                compress_lanes(states, *blocks);
            })*
            _ => unreachable!("between `MIN_LANES` and `LANES` lanes are active"),
        }
    };
}

/// Many messages, [`LANES`] at a time, one block of each per step.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn digest_lanes(messages: &[&[u8]], out: &mut [Digest]) {
    const _: () = assert!(LANES == 5 && MIN_LANES == 2, "list the lane counts below");
    lanes::run::<LANES>(
        messages,
        out,
        MIN_LANES,
        |states, blocks, active| first_lanes!(states, blocks, active; 5 4 3 2),
        |state, parts| compress_blocks(state, parts),
    );
}
