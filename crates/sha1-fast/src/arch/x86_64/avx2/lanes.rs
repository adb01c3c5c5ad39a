//! Eight messages, one per 32-bit lane of AVX2 vectors: `digest_many` on
//! the SIMD-schedule backend and `checked::digest_many` without AVX-512.
//! The blocks are loaded row-wise and transposed, the schedule is a ring of
//! 16 vectors, the rounds are [`crate::rounds`]'s with rotates as shift
//! pairs. The checked step ([`step_checked`]) keeps the whole schedule and
//! the midstates, transposes each lane's W\[33..=64\] into the sliced
//! planes ([`planes_by_swaps!`]) and runs the sliced checks on all eight
//! (`docs/sha1-checked.md`). Reached only through [`Avx2`].

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_loadu_si256, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_set1_epi32, _mm256_setr_epi8, _mm256_setr_epi32,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_storeu_si256, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32,
    _mm256_unpacklo_epi64, _mm256_xor_si256,
};

use super::sliced;
use crate::arch::x86_64::cpu::Avx2;
use crate::arch::x86_64::lanes_checked::{Kept, lane_kernel, planes_by_swaps, suspects};
use crate::checked::recompress::SuspectBlock;
use crate::consts::K;
use crate::rounds::{ring_block, round};

/// Below this many busy lanes each finishes alone on the SIMD-schedule
/// kernel: a step costs the same however many lanes are busy.
const MIN_LANES: usize = 4;

lane_kernel!(Avx2, "avx2", 8);

/// The lanes' operations for [`crate::rounds`]: each on eight `u32`s.
/// rotl(x, n) is a shift pair (the halves are disjoint).
macro_rules! m256_op {
    (add, $x:expr, $y:expr) => {
        _mm256_add_epi32($x, $y)
    };
    (xor, $x:expr, $y:expr) => {
        _mm256_xor_si256($x, $y)
    };
    (and, $x:expr, $y:expr) => {
        _mm256_and_si256($x, $y)
    };
    (or, $x:expr, $y:expr) => {
        _mm256_or_si256($x, $y)
    };
    (rol, $x:expr, 1) => {{
        let x = $x;
        // x + x is x << 1 on any vector ALU port, sparing a shift.
        _mm256_or_si256(_mm256_add_epi32(x, x), _mm256_srli_epi32::<31>(x))
    }};
    (rol, $x:expr, $n:literal) => {{
        let x = $x;
        _mm256_or_si256(
            _mm256_slli_epi32::<$n>(x),
            _mm256_srli_epi32::<{ 32 - $n }>(x),
        )
    }};
}

/// 8×8 transpose of 32-bit elements: row `i` of the input is lane `i` of
/// every output; output `j` holds element `j` of every row.
macro_rules! transpose8 {
    ($r:ident) => {{
        let t0 = _mm256_unpacklo_epi32($r[0], $r[1]); // 0 of r0 r1, 1 of r0 r1 | 4.., 5..
        let t1 = _mm256_unpackhi_epi32($r[0], $r[1]); // 2, 3 | 6, 7
        let t2 = _mm256_unpacklo_epi32($r[2], $r[3]);
        let t3 = _mm256_unpackhi_epi32($r[2], $r[3]);
        let t4 = _mm256_unpacklo_epi32($r[4], $r[5]);
        let t5 = _mm256_unpackhi_epi32($r[4], $r[5]);
        let t6 = _mm256_unpacklo_epi32($r[6], $r[7]);
        let t7 = _mm256_unpackhi_epi32($r[6], $r[7]);
        let u0 = _mm256_unpacklo_epi64(t0, t2); // 0 of r0..r3 | 4 of r0..r3
        let u1 = _mm256_unpackhi_epi64(t0, t2); // 1 | 5
        let u2 = _mm256_unpacklo_epi64(t1, t3); // 2 | 6
        let u3 = _mm256_unpackhi_epi64(t1, t3); // 3 | 7
        let u4 = _mm256_unpacklo_epi64(t4, t6); // same for r4..r7
        let u5 = _mm256_unpackhi_epi64(t4, t6);
        let u6 = _mm256_unpacklo_epi64(t5, t7);
        let u7 = _mm256_unpackhi_epi64(t5, t7);
        [
            _mm256_permute2x128_si256::<0x20>(u0, u4),
            _mm256_permute2x128_si256::<0x20>(u1, u5),
            _mm256_permute2x128_si256::<0x20>(u2, u6),
            _mm256_permute2x128_si256::<0x20>(u3, u7),
            _mm256_permute2x128_si256::<0x31>(u0, u4),
            _mm256_permute2x128_si256::<0x31>(u1, u5),
            _mm256_permute2x128_si256::<0x31>(u2, u6),
            _mm256_permute2x128_si256::<0x31>(u3, u7),
        ]
    }};
}

/// Words `8 * $half..8 * $half + 8` of the eight blocks, byte-swapped and
/// transposed: element `j` is word `8 * $half + j` of every block.
macro_rules! load8 {
    ($blocks:ident, $half:literal, $bswap:ident) => {{
        const { assert!($half < 2) };
        let mut r = [$bswap; 8];
        let mut i = 0;
        while i < 8 {
            // SAFETY: `$blocks[i]` is a `&[u8; 64]` and `$half < 2`
            // (asserted above), so the 32 bytes at `32 * $half` are in
            // bounds; `loadu` has no alignment requirement.
            let v = unsafe { _mm256_loadu_si256($blocks[i].as_ptr().add(32 * $half).cast()) };
            r[i] = _mm256_shuffle_epi8(v, $bswap);
            i += 1;
        }
        transpose8!(r)
    }};
}

/// The eight states, lane `i` of vector `j` = `states[i][j]`.
macro_rules! load_states {
    ($states:expr) => {{
        let s: &[[u32; 5]; 8] = $states;
        let mut h = [_mm256_setzero_si256(); 5];
        for (j, h) in h.iter_mut().enumerate() {
            *h = _mm256_setr_epi32(
                s[0][j] as i32,
                s[1][j] as i32,
                s[2][j] as i32,
                s[3][j] as i32,
                s[4][j] as i32,
                s[5][j] as i32,
                s[6][j] as i32,
                s[7][j] as i32,
            );
        }
        h
    }};
}

/// Writes lane `i` of vector `j` of `$h` to `states[i][j]`.
macro_rules! store_states {
    ($states:expr, $h:expr) => {{
        let h: [__m256i; 5] = $h;
        let mut lanes = [[0u32; 8]; 5];
        for (dst, v) in lanes.iter_mut().zip(h) {
            // SAFETY: `dst` is a `[u32; 8]`, 32 writable bytes; `storeu` has
            // no alignment requirement.
            unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) };
        }
        for (i, st) in $states.iter_mut().enumerate() {
            for (j, word) in st.iter_mut().enumerate() {
                *word = lanes[j][i];
            }
        }
    }};
}

/// Word `t` of every block in vector `t`, byte-swapped.
#[target_feature(enable = "avx2")]
#[inline]
fn words(blocks: &[&[u8; 64]; 8]) -> [__m256i; 16] {
    let bswap = _mm256_setr_epi8(
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, //
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
    );
    let lo = load8!(blocks, 0, bswap);
    let hi = load8!(blocks, 1, bswap);
    [
        lo[0], lo[1], lo[2], lo[3], lo[4], lo[5], lo[6], lo[7], //
        hi[0], hi[1], hi[2], hi[3], hi[4], hi[5], hi[6], hi[7],
    ]
}

/// Hashes block `blocks[i]` into `states[i]` for each of the eight lanes
/// (SHA-1 compression, FIPS 180-4 §6.1.2).
#[target_feature(enable = "avx2")]
fn compress_lanes(states: &mut [[u32; 5]; 8], blocks: &[&[u8; 64]; 8]) {
    let h: [__m256i; 5] = load_states!(states);
    let mut w = words(blocks);
    let [k0, k1, k2, k3] = [0, 1, 2, 3].map(|i| K[i] as i32);
    let [k0, k1, k2, k3] = [
        _mm256_set1_epi32(k0),
        _mm256_set1_epi32(k1),
        _mm256_set1_epi32(k2),
        _mm256_set1_epi32(k3),
    ];
    let [mut a, mut b, mut c, mut d, mut e] = h;
    ring_block!(m256_op, w, [k0, k1, k2, k3], [a b c d e]);
    let out = [a, b, c, d, e];
    store_states!(states, sum(h, out));
}

/// `h + out`, lane by lane.
#[target_feature(enable = "avx2")]
#[inline]
fn sum(h: [__m256i; 5], out: [__m256i; 5]) -> [__m256i; 5] {
    [
        _mm256_add_epi32(h[0], out[0]),
        _mm256_add_epi32(h[1], out[1]),
        _mm256_add_epi32(h[2], out[2]),
        _mm256_add_epi32(h[3], out[3]),
        _mm256_add_epi32(h[4], out[4]),
    ]
}

/// [`compress_lanes`] keeping what the filter and the recompression read
/// in `kept`; returns the lanes below `active` whose block is an attack
/// block by `is_attack`, after the filter.
#[target_feature(enable = "avx2")]
#[inline]
fn step_checked(
    states: &mut [[u32; 5]; 8],
    blocks: &[&[u8; 64]; 8],
    active: usize,
    kept: &mut Kept<__m256i>,
    is_attack: &impl Fn(&SuspectBlock) -> bool,
) -> u32 {
    let ihv = *states;
    let h: [__m256i; 5] = load_states!(states);
    let out = rounds_keeping(h, blocks, kept);
    store_states!(states, sum(h, out));
    let window = kept.w[33..65].try_into().expect("W[33..=64]");
    let (passed, masks) = sliced::passing(&planes(window), (1 << active) - 1);
    if passed == 0 {
        return 0;
    }
    suspects(passed, &masks, &ihv, states, kept, is_attack)
}

/// The 80 rounds of eight blocks from the states `h` (the working
/// variables after them), keeping W\[0..80\], made first, and the states
/// before steps 60 and 64; loops of five rounds, as fast as unrolled.
#[target_feature(enable = "avx2")]
#[inline]
fn rounds_keeping(
    h: [__m256i; 5],
    blocks: &[&[u8; 64]; 8],
    kept: &mut Kept<__m256i>,
) -> [__m256i; 5] {
    let w = &mut kept.w;
    w[..16].copy_from_slice(&words(blocks));
    for t in 16..80 {
        let x = m256_op!(
            xor,
            m256_op!(xor, w[t - 3], w[t - 8]),
            m256_op!(xor, w[t - 14], w[t - 16])
        );
        w[t] = m256_op!(rol, x, 1);
    }
    let k = K.map(|k| k as i32);
    let [k0, k1, k2, k3] = [
        _mm256_set1_epi32(k[0]),
        _mm256_set1_epi32(k[1]),
        _mm256_set1_epi32(k[2]),
        _mm256_set1_epi32(k[3]),
    ];
    let [mut a, mut b, mut c, mut d, mut e] = h;
    // Five rounds from W[$t], the names turning once around.
    macro_rules! five {
        ($w:expr, $f:ident, $k:expr, $t:expr) => {
            let (w, t): (&[__m256i; 80], usize) = (&$w, $t);
            round!(m256_op, $f, m256_op!(add, w[t], $k), a, b, c, d, e);
            round!(m256_op, $f, m256_op!(add, w[t + 1], $k), e, a, b, c, d);
            round!(m256_op, $f, m256_op!(add, w[t + 2], $k), d, e, a, b, c);
            round!(m256_op, $f, m256_op!(add, w[t + 3], $k), c, d, e, a, b);
            round!(m256_op, $f, m256_op!(add, w[t + 4], $k), b, c, d, e, a);
        };
    }
    for t in (0..20).step_by(5) {
        five!(kept.w, ch, k0, t);
    }
    for t in (20..40).step_by(5) {
        five!(kept.w, parity, k1, t);
    }
    for t in (40..60).step_by(5) {
        five!(kept.w, maj, k2, t);
    }
    kept.at60 = [a, b, c, d, e];
    // Steps 60..65 unrolled, to keep the state before step 64.
    let w = &kept.w;
    round!(m256_op, parity, m256_op!(add, w[60], k3), a, b, c, d, e);
    round!(m256_op, parity, m256_op!(add, w[61], k3), e, a, b, c, d);
    round!(m256_op, parity, m256_op!(add, w[62], k3), d, e, a, b, c);
    round!(m256_op, parity, m256_op!(add, w[63], k3), c, d, e, a, b);
    kept.at64 = [b, c, d, e, a];
    let w = &kept.w;
    round!(m256_op, parity, m256_op!(add, w[64], k3), b, c, d, e, a);
    for t in (65..80).step_by(5) {
        five!(kept.w, parity, k3, t);
    }
    [a, b, c, d, e]
}

/// The filter's planes of each lane from its W\[33..=64\].
#[target_feature(enable = "avx2")]
#[inline]
fn planes(window: &[__m256i; 32]) -> [__m256i; 11] {
    // A delta swap: t = (a >> D ^ b) & low; a ^ t << D, and b ^ t.
    macro_rules! swap {
        ($d:literal, $low:literal, $a:expr, $b:expr) => {{
            let (a, b) = ($a, $b);
            let t = _mm256_xor_si256(_mm256_srli_epi32::<$d>(a), b);
            let t = _mm256_and_si256(t, _mm256_set1_epi32($low));
            (
                _mm256_xor_si256(a, _mm256_slli_epi32::<$d>(t)),
                _mm256_xor_si256(b, t),
            )
        }};
    }
    planes_by_swaps!(*window, swap)
}
