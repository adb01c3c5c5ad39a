//! The SIMD-schedule backend, for x86-64 CPUs without SHA-NI (Intel's
//! SSSE3 method, `docs/sha1.md`): the schedule four words at a time on the
//! vector unit, each step issued twelve rounds before its use, W + K stored
//! to an 80-word buffer, and the scalar core's rounds. The stores are
//! volatile: otherwise LLVM forwards each vector into the rounds with
//! `pshufd` + `movd`, which is slower. Reached only through [`Ssse3`].

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_load_si128, _mm_loadu_si128, _mm_or_si128,
    _mm_set1_epi32, _mm_setr_epi8, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_slli_epi32,
    _mm_slli_si128, _mm_srli_epi32, _mm_srli_si128, _mm_sub_epi32, _mm_xor_si128,
};

use super::planes::planes;
use crate::arch::x86_64::cpu::{Avx2, Ssse3};
use crate::arch::x86_64::spill::{MIRROR_GROUPS, Mirror, ReversedGroups};
use crate::checked::recompress::Midstates;
use crate::checked::recompress::SuspectBlock;
use crate::checked::ubc::dv_mask_from_planes;
use crate::consts::K;
use crate::rounds::{stored_rounds, u32_op};
use core::mem::MaybeUninit;

impl Ssse3 {
    /// [`crate::compress`] on this backend, over the blocks of each part
    /// in turn.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 5], parts: &[&[[u8; 64]]]) {
        for blocks in parts {
            // SAFETY: `self` exists, so `Ssse3::detect` saw the feature
            // that `compress_blocks` enables.
            unsafe { compress_blocks(state, blocks) }
        }
    }
}

/// W_t + K_t of the block being hashed (the next block's words 0–15 are
/// written while its rounds 64–79 still read the end).
#[repr(C, align(16))]
struct Wk([u32; 80]);

/// rotl(x, n) of each 32-bit lane (the two shifted halves are disjoint).
macro_rules! vrol {
    ($x:expr, $n:literal) => {{
        let x = $x;
        _mm_or_si128(_mm_slli_epi32::<$n>(x), _mm_srli_epi32::<{ 32 - $n }>(x))
    }};
}

/// Schedule step `$s`: W[4s..4s+4] into `$x[$s % 8]` (a ring of the last
/// eight steps).
/// - `load`: steps 0–3, the block `$p`'s bytes, byte-swapped;
/// - `r1`: steps 4–7, `rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16])`;
/// - `r2`: steps 8–19, `rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32])`.
macro_rules! schedule {
    (load $s:literal, $x:ident, $bswap:ident, $p:ident) => {{
        const { assert!($s < 4) };
        // SAFETY: `$p` is a `&[u8; 64]` and `$s < 4` (asserted above), so
        // the 16 bytes at `16 * $s` are in bounds; `loadu` has no alignment
        // requirement.
        let v = unsafe { _mm_loadu_si128($p.as_ptr().add(16 * $s).cast()) };
        $x[$s % 8] = _mm_shuffle_epi8(v, $bswap);
    }};
    (r1 $s:literal, $x:ident) => {{
        let w16 = $x[($s + 4) % 8]; // W[t-16..t-12]
        let w12 = $x[($s + 5) % 8]; // W[t-12..t-8]
        let w8 = $x[($s + 6) % 8]; // W[t-8..t-4]
        let w4 = $x[($s + 7) % 8]; // W[t-4..t]
        let w14 = _mm_alignr_epi8::<8>(w12, w16); // W[t-14..t-10]
        let w3 = _mm_srli_si128::<4>(w4); // W[t-3..t], then 0 for W[t]
        let pre = _mm_xor_si128(_mm_xor_si128(w16, w14), _mm_xor_si128(w8, w3));
        // Lane 3 still lacks rol1(W[t]) = rol1(rol1(pre[0])) = rol2(pre[0]).
        let fix = _mm_slli_si128::<12>(pre);
        $x[$s % 8] = _mm_xor_si128(
            vrol!(pre, 1),
            _mm_xor_si128(_mm_slli_epi32::<2>(fix), _mm_srli_epi32::<30>(fix)),
        );
    }};
    (r2 $s:literal, $x:ident) => {{
        let w32 = $x[$s % 8]; // W[t-32..t-28]
        let w28 = $x[($s + 1) % 8]; // W[t-28..t-24]
        let w16 = $x[($s + 4) % 8]; // W[t-16..t-12]
        let w8 = $x[($s + 6) % 8]; // W[t-8..t-4]
        let w4 = $x[($s + 7) % 8]; // W[t-4..t]
        let w6 = _mm_alignr_epi8::<8>(w4, w8); // W[t-6..t-2]
        // Only `w6` depends on the previous step: xor it in last.
        let pre = _mm_xor_si128(w6, _mm_xor_si128(_mm_xor_si128(w16, w28), w32));
        $x[$s % 8] = vrol!(pre, 2);
    }};
}

/// [`schedule!`] step `$s`, then W + K into `$wk`.
macro_rules! step {
    (load $s:literal, $x:ident, $wk:ident, $kv:ident, $bswap:ident, $p:ident) => {{
        schedule!(load $s, $x, $bswap, $p);
        step!(store $s, $x, $wk, $kv);
    }};
    (r1 $s:literal, $x:ident, $wk:ident, $kv:ident) => {{
        schedule!(r1 $s, $x);
        step!(store $s, $x, $wk, $kv);
    }};
    (r2 $s:literal, $x:ident, $wk:ident, $kv:ident, $mirror:ident) => {{
        schedule!(r2 $s, $x);
        step!(store $s, $x, $wk, $kv);
        $mirror.keep($s, $x[$s % 8]);
    }};
    (store $s:literal, $x:ident, $wk:ident, $kv:ident) => {{
        let v = _mm_add_epi32($x[$s % 8], $kv[$s / 5]);
        const { assert!($s < 20) };
        // SAFETY: `$wk.0` has 80 `u32`s and is 16-byte aligned; step
        // `$s < 20` (asserted above) writes elements `4 * $s..4 * $s + 4`,
        // in bounds and at a multiple of 16 bytes. Volatile so LLVM keeps
        // the store and the scalar loads instead of moving the vector into
        // integer registers.
        unsafe { core::ptr::write_volatile($wk.0.as_mut_ptr().add(4 * $s).cast::<__m128i>(), v) };
    }};
}

/// The 80 rounds of one block, steps 4–19 of its schedule twelve rounds
/// ahead of their use, and steps 0–3 of `$next` in rounds 64–79; the
/// states before rounds 60 and 64 to `$mid`.
macro_rules! block {
    ($wk:ident, $x:ident, $kv:ident, $bswap:ident, $next:ident, $mirror:ident, $mid:ident, [$a:ident $b:ident $c:ident $d:ident $e:ident]) => {
        stored_rounds!($wk.0, [$a $b $c $d $e]; 0 1 2 3);
        step!(r1 4, $x, $wk, $kv);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 4 5 6 7);
        step!(r1 5, $x, $wk, $kv);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 8 9 10 11);
        step!(r1 6, $x, $wk, $kv);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 12 13 14 15);
        step!(r1 7, $x, $wk, $kv);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 16 17 18 19);
        step!(r2 8, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 20 21 22 23);
        step!(r2 9, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 24 25 26 27);
        step!(r2 10, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 28 29 30 31);
        step!(r2 11, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 32 33 34 35);
        step!(r2 12, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 36 37 38 39);
        step!(r2 13, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 40 41 42 43);
        step!(r2 14, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 44 45 46 47);
        step!(r2 15, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 48 49 50 51);
        step!(r2 16, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 52 53 54 55);
        step!(r2 17, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 56 57 58 59);
        $mid.keep(0, [$a, $b, $c, $d, $e]);
        step!(r2 18, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 60 61 62 63);
        $mid.keep(1, [$a, $b, $c, $d, $e]);
        step!(r2 19, $x, $wk, $kv, $mirror);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 64 65 66 67);
        step!(load 0, $x, $wk, $kv, $bswap, $next);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 68 69 70 71);
        step!(load 1, $x, $wk, $kv, $bswap, $next);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 72 73 74 75);
        step!(load 2, $x, $wk, $kv, $bswap, $next);
        stored_rounds!($wk.0, [$a $b $c $d $e]; 76 77 78 79);
        step!(load 3, $x, $wk, $kv, $bswap, $next);
    };
}

/// Hashes `blocks` into `state` (SHA-1 compression, FIPS 180-4 §6.1.2).
/// Also the single-stream finisher of the AVX2 lanes, whose token
/// checks SSSE3 too.
#[target_feature(enable = "ssse3")]
pub(crate) fn compress_blocks(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    compress_blocks_filtered::<false, false>(state, blocks, None, |_| false);
}

impl Ssse3 {
    /// [`crate::checked`]'s compression on this backend: compresses
    /// `blocks` into `state`, handing each block the collision filter lets
    /// through to `is_attack` (with the expanded message and midstates the
    /// kernel kept), and stops before the first attack block, returning
    /// its index with `state` the chaining value before it. The filter
    /// reads the words the kernel's own schedule stored: with `avx2`, the
    /// per-block AVX2 form in a kernel compiled with AVX2, else the SSSE3
    /// planes.
    #[inline]
    pub(crate) fn compress_checked(
        self,
        state: &mut [u32; 5],
        blocks: &[[u8; 64]],
        avx2: Option<Avx2>,
        is_attack: impl FnMut(&SuspectBlock) -> bool,
    ) -> Option<usize> {
        match avx2 {
            // SAFETY: `self` and `avx2` exist, so `Ssse3::detect` and
            // `Avx2::detect` saw the features that
            // `compress_blocks_checked_avx2` enables.
            Some(avx2) => unsafe { compress_blocks_checked_avx2(state, blocks, avx2, is_attack) },
            // SAFETY: `self` exists, so `Ssse3::detect` saw the feature
            // that `compress_blocks_filtered` enables.
            None => unsafe {
                compress_blocks_filtered::<true, false>(state, blocks, None, is_attack)
            },
        }
    }
}

/// The checked kernel compiled with AVX2, so that the per-block AVX2
/// filter inlines: no call and no `vzeroupper` between blocks.
#[target_feature(enable = "ssse3,avx2")]
fn compress_blocks_checked_avx2(
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
    avx2: Avx2,
    is_attack: impl FnMut(&SuspectBlock) -> bool,
) -> Option<usize> {
    compress_blocks_filtered::<true, true>(state, blocks, Some(avx2), is_attack)
}

/// The kernel, with the collision filter after each block's rounds when
/// `FILTER` (else `is_attack` is never called): with `WORDS` the
/// per-block AVX2 filter on the kernel's mirror, else the SSSE3 planes.
#[target_feature(enable = "ssse3")]
#[inline]
fn compress_blocks_filtered<const FILTER: bool, const WORDS: bool>(
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
    avx2: Option<Avx2>,
    mut is_attack: impl FnMut(&SuspectBlock) -> bool,
) -> Option<usize> {
    let first = blocks.first()?;
    let bswap = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    let kv: [__m128i; 4] = [
        _mm_set1_epi32(K[0] as i32),
        _mm_set1_epi32(K[1] as i32),
        _mm_set1_epi32(K[2] as i32),
        _mm_set1_epi32(K[3] as i32),
    ];
    let mut x: [__m128i; 8] = [bswap; 8];
    let mut wk = Wk([0; 80]);
    step!(load 0, x, wk, kv, bswap, first);
    step!(load 1, x, wk, kv, bswap, first);
    step!(load 2, x, wk, kv, bswap, first);
    step!(load 3, x, wk, kv, bswap, first);

    let mut h = *state;
    let mut words = MaybeUninit::<Mirror>::uninit();
    const { assert!(FILTER || !WORDS, "the word filter is a filter") };
    let mirror = MirrorWriter::<WORDS>(words.as_mut_ptr());
    let mut mid = MidstateKeeper::<FILTER>([[0; 5]; 2]);
    for (i, block) in blocks.iter().enumerate() {
        // After the last block, its words are loaded again, unused.
        let next = blocks.get(i + 1).unwrap_or(block);
        let [mut a, mut b, mut c, mut d, mut e] = h;
        block!(wk, x, kv, bswap, next, mirror, mid, [a b c d e]);
        let ihv = h;
        h = [
            h[0].wrapping_add(a),
            h[1].wrapping_add(b),
            h[2].wrapping_add(c),
            h[3].wrapping_add(d),
            h[4].wrapping_add(e),
        ];
        if FILTER {
            let mask = match avx2 {
                Some(avx2) if WORDS => {
                    // SAFETY: with `WORDS`, the block's steps 8–17 stored
                    // every group of the mirror.
                    let mirror = unsafe { words.assume_init_ref() };
                    avx2.dv_mask_of_block_inline(mirror)
                }
                // The next block's steps overwrite only words 0–15 so far.
                _ => dv_mask_from_planes(&planes(&window(&wk, &kv))),
            };
            if mask != 0 {
                let suspect = SuspectBlock {
                    ihv,
                    output: h,
                    w: schedule(block, &wk),
                    mid: mid.midstates(),
                    mask,
                };
                if is_attack(&suspect) {
                    *state = ihv;
                    return Some(i);
                }
            }
        }
    }
    *state = h;
    None
}

/// Where the kernel keeps steps 8–17 of the schedule for the per-block
/// AVX2 filter, when `ON`.
#[derive(Clone, Copy)]
struct MirrorWriter<const ON: bool>(*mut Mirror);

impl<const ON: bool> MirrorWriter<ON> {
    /// Keeps step `s`, W\[4s..4s + 4\] in order, if the mirror holds it.
    #[inline(always)]
    fn keep(self, s: usize, words: __m128i) {
        if ON && MIRROR_GROUPS.contains(&s) {
            // SAFETY: `self.0` points at the kernel's mirror, and the
            // index is below its length. Volatile, as the W + K stores.
            unsafe {
                let slot = self.0.cast::<__m128i>().add(MIRROR_GROUPS.end - 1 - s);
                slot.write_volatile(_mm_shuffle_epi32::<0x1B>(words));
            }
        }
    }
}

/// Where the kernel keeps the states before rounds 60 and 64 for the
/// recompression of a suspect block, when `ON`: ten stores a block cost
/// less than stepping them again from the chaining value.
struct MidstateKeeper<const ON: bool>([[u32; 5]; 2]);

impl<const ON: bool> MidstateKeeper<ON> {
    /// Keeps the state before round 60 + 4`k`.
    #[inline(always)]
    fn keep(&mut self, k: usize, state: [u32; 5]) {
        if ON {
            self.0[k] = state;
        }
    }

    /// The states kept.
    fn midstates(&self) -> Midstates {
        let [at60, at64] = self.0;
        Midstates { at60, at64 }
    }
}

/// The expanded message of the block just compressed: words 0–15 from
/// the block (the next block's have replaced them in `wk`), the rest from
/// the stored W + K.
fn schedule(block: &[u8; 64], wk: &Wk) -> [u32; 80] {
    let mut w = [0; 80];
    w[..16].copy_from_slice(&crate::scalar::words(block));
    // One loop per round constant, so that each is a plain vector loop.
    for (round, k) in K.iter().enumerate() {
        let words = (20 * round).max(16)..20 * round + 20;
        for (word, wk) in w[words.clone()].iter_mut().zip(&wk.0[words]) {
            *word = wk.wrapping_sub(*k);
        }
    }
    w
}

/// W\[32..68\] from the stored W + K, as the planes read them (W_{4k} in
/// the top lane, as SHA-NI holds the words).
#[target_feature(enable = "ssse3")]
#[inline]
fn window(wk: &Wk, kv: &[__m128i; 4]) -> ReversedGroups {
    core::array::from_fn(|g| {
        let s = 8 + g;
        // SAFETY: `wk.0` has 80 `u32`s and is 16-byte aligned; step
        // `s < 17` reads elements `4 * s..4 * s + 4`, in bounds and at a
        // multiple of 16 bytes.
        let words = unsafe { _mm_load_si128(wk.0.as_ptr().add(4 * s).cast()) };
        _mm_shuffle_epi32::<0x1B>(_mm_sub_epi32(words, kv[s / 5]))
    })
}

#[cfg(test)]
mod tests {
    use super::Ssse3;
    use crate::arch::x86_64::cpu::Avx2;
    use crate::checked::kernel_tests;

    /// The filter's forms this CPU has: the SSSE3 planes and the scalar
    /// checks, and the per-block AVX2 form where there is AVX2.
    fn check_forms() -> impl Iterator<Item = Option<Avx2>> {
        [None].into_iter().chain(Avx2::detect().map(Some))
    }

    #[test]
    fn checked_kernel_filters_as_the_portable_filter() {
        let Some(token) = Ssse3::detect() else { return };
        for avx2 in check_forms() {
            kernel_tests::filters_as_the_portable_filter(|state, blocks, is_attack| {
                let is_attack = kernel_tests::of_suspect_block(is_attack);
                token.compress_checked(state, blocks, avx2, is_attack)
            });
        }
    }

    #[test]
    fn checked_kernel_stops_at_the_attack_block() {
        let Some(token) = Ssse3::detect() else { return };
        for avx2 in check_forms() {
            kernel_tests::stops_at_the_attack_block(|state, blocks, is_attack| {
                let is_attack = kernel_tests::of_suspect_block(is_attack);
                token.compress_checked(state, blocks, avx2, is_attack)
            });
        }
    }
}
