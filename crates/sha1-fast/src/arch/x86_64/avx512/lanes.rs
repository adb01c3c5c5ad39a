//! Sixteen messages, one per 32-bit lane of AVX-512 vectors, for
//! `digest_many` and `checked::digest_many`: the rounds of
//! [`crate::rounds`] on `zmm` registers (`vprold`, `vpternlogd`), the
//! blocks transposed with [`sliced::transpose`]. The checked step also
//! keeps W\[0..80\] and the midstates ([`Kept`]), transposes each lane's
//! W\[33..=64\] into the sliced planes, runs [`sliced::passes`] and hands a
//! lane that passes to `is_attack` (`docs/sha1-checked.md`). Reached only
//! through [`Avx512`].

use core::arch::x86_64::{
    __m512i, _mm_setr_epi8, _mm512_add_epi32, _mm512_and_si512, _mm512_broadcast_i32x4,
    _mm512_loadu_si512, _mm512_mask_blend_epi32, _mm512_or_si512, _mm512_permutex2var_epi32,
    _mm512_permutexvar_epi32, _mm512_rol_epi32, _mm512_set1_epi32, _mm512_shuffle_epi8,
    _mm512_slli_epi32, _mm512_srli_epi32, _mm512_storeu_si512, _mm512_ternarylogic_epi32,
    _mm512_xor_si512,
};

use super::sliced;
use crate::arch::x86_64::cpu::Avx512;
use crate::arch::x86_64::lanes_checked::{Kept, lane_kernel, planes_by_swaps, suspects};
use crate::checked::recompress::SuspectBlock;
use crate::consts::K;
use crate::rounds::{ring_block, ring_rounds};

/// Lanes per vector.
pub(crate) const LANES: usize = 16;

/// Below this many busy lanes (when the messages have run out), each
/// finishes alone on the caller's single-stream compressor: a step costs
/// the same however many lanes are busy, about four SHA-NI blocks' time.
const MIN_LANES: usize = 4;

lane_kernel!(Avx512, "avx512f,avx512bw", LANES);

/// The lanes' operations for [`crate::rounds`]: each on sixteen `u32`s.
macro_rules! m512_op {
    (add, $x:expr, $y:expr) => {
        _mm512_add_epi32($x, $y)
    };
    (xor, $x:expr, $y:expr) => {
        _mm512_xor_si512($x, $y)
    };
    (and, $x:expr, $y:expr) => {
        _mm512_and_si512($x, $y)
    };
    (or, $x:expr, $y:expr) => {
        _mm512_or_si512($x, $y)
    };
    (rol, $x:expr, $n:literal) => {
        _mm512_rol_epi32::<$n>($x)
    };
}

/// How [`regroup`] moves lanes: lane `l` of output `o` is lane `from % 16`
/// of input `from / 16`.
struct Regroup {
    /// `from % 32`: the lane in a pair of inputs (for the fifth input,
    /// alone, its low four bits).
    index: [[i32; 16]; 5],
    /// The lanes taken from inputs 2–3, and those from input 4.
    from_middle: [u16; 5],
    from_last: [u16; 5],
}

impl Regroup {
    /// With `states_to_words`, from `[[u32; 5]; 16]` (as five vectors) to
    /// word `j` of every state in vector `j`; without, back.
    const fn new(states_to_words: bool) -> Regroup {
        let mut r = Regroup {
            index: [[0; 16]; 5],
            from_middle: [0; 5],
            from_last: [0; 5],
        };
        let mut o = 0;
        while o < 5 {
            let mut l = 0;
            while l < 16 {
                let flat = 16 * o + l;
                let from = if states_to_words {
                    5 * l + o
                } else {
                    16 * (flat % 5) + flat / 5
                };
                r.index[o][l] = (from % 32) as i32;
                match from / 32 {
                    1 => r.from_middle[o] |= 1 << l,
                    2 => r.from_last[o] |= 1 << l,
                    _ => {}
                }
                l += 1;
            }
            o += 1;
        }
        r
    }
}

static LOAD: Regroup = Regroup::new(true);
static STORE: Regroup = Regroup::new(false);

/// `v` regrouped by `by`: per output two pair permutes, one permute of
/// the fifth input, two blends.
#[target_feature(enable = "avx512f")]
#[inline]
fn regroup(v: [__m512i; 5], by: &Regroup) -> [__m512i; 5] {
    core::array::from_fn(|o| {
        // SAFETY: `by.index[o]` is 64 readable bytes.
        let index = unsafe { _mm512_loadu_si512(by.index[o].as_ptr().cast()) };
        let low = _mm512_permutex2var_epi32(v[0], index, v[1]);
        let middle = _mm512_permutex2var_epi32(v[2], index, v[3]);
        let last = _mm512_permutexvar_epi32(index, v[4]);
        let out = _mm512_mask_blend_epi32(by.from_middle[o], low, middle);
        _mm512_mask_blend_epi32(by.from_last[o], out, last)
    })
}

/// Word `j` of each lane's state as vector `j`.
#[target_feature(enable = "avx512f")]
#[inline]
fn load_states(states: &[[u32; 5]; LANES]) -> [__m512i; 5] {
    let flat = states.as_flattened();
    // SAFETY: `flat` has 80 `u32`s, so each of the five 64-byte loads is in
    // bounds; `loadu` has no alignment requirement.
    let rows =
        core::array::from_fn(|k| unsafe { _mm512_loadu_si512(flat[16 * k..].as_ptr().cast()) });
    regroup(rows, &LOAD)
}

/// The inverse of [`load_states`].
#[target_feature(enable = "avx512f")]
#[inline]
fn store_states(states: &mut [[u32; 5]; LANES], h: [__m512i; 5]) {
    let rows = regroup(h, &STORE);
    let flat = states.as_flattened_mut();
    for (k, row) in rows.into_iter().enumerate() {
        // SAFETY: `flat` has 80 `u32`s, so each 64-byte store is in bounds;
        // `storeu` has no alignment requirement.
        unsafe { _mm512_storeu_si512(flat[16 * k..].as_mut_ptr().cast(), row) };
    }
}

/// The sixteen lanes of `v`.
#[target_feature(enable = "avx512f")]
#[inline]
fn lanes_of(v: __m512i) -> [u32; LANES] {
    let mut out = [0; LANES];
    // SAFETY: `out` is 64 writable bytes.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
    out
}

/// The filter's planes of each lane from its W\[33..=64\].
#[target_feature(enable = "avx512f")]
#[inline]
fn planes(window: &[__m512i; 32]) -> [__m512i; 11] {
    // low ? a : b << D, and low ? a >> D : b.
    macro_rules! swap {
        ($d:literal, $low:literal, $a:expr, $b:expr) => {{
            let (low, a, b) = (_mm512_set1_epi32($low), $a, $b);
            (
                _mm512_ternarylogic_epi32::<0xCA>(low, a, _mm512_slli_epi32::<$d>(b)),
                _mm512_ternarylogic_epi32::<0xCA>(low, _mm512_srli_epi32::<$d>(a), b),
            )
        }};
    }
    planes_by_swaps!(*window, swap)
}

/// Hashes `blocks[i]` into `states[i]` for each lane (SHA-1 compression,
/// FIPS 180-4 §6.1.2), and returns the lanes below `active` whose block is
/// an attack block by `is_attack`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn step_checked(
    states: &mut [[u32; 5]; LANES],
    blocks: &[&[u8; 64]; LANES],
    active: usize,
    kept: &mut Kept<__m512i>,
    is_attack: &impl Fn(&SuspectBlock) -> bool,
) -> u32 {
    let ihv = *states;
    let h = load_states(states);
    let h = rounds(h, blocks, kept);
    store_states(states, h);
    let valid = ((1u32 << active) - 1) as u16;
    let window = kept.w[33..65].try_into().expect("W[33..=64]");
    let (passed, masks) = sliced::passes(&planes(window), valid);
    if passed == 0 {
        return 0;
    }
    suspects(
        u32::from(passed),
        &lanes_of(masks),
        &ihv,
        states,
        kept,
        is_attack,
    )
}

/// Word `j` of every block in vector `j`, byte-swapped.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn words(blocks: &[&[u8; 64]; LANES]) -> [__m512i; 16] {
    let bswap = _mm512_broadcast_i32x4(_mm_setr_epi8(
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
    ));
    // A loop, not `map`: a closure calling an AVX-512 intrinsic stayed
    // out of line, called once a block with its vector through memory.
    let mut rows = [bswap; LANES];
    for (row, block) in rows.iter_mut().zip(blocks) {
        // SAFETY: `block` is 64 readable bytes; `loadu` has no alignment
        // requirement.
        let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        *row = _mm512_shuffle_epi8(v, bswap);
    }
    sliced::transpose(&rows)
}

/// Hashes block `blocks[i]` into `states[i]` for each lane (SHA-1
/// compression, FIPS 180-4 §6.1.2), keeping nothing.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn compress_lanes(states: &mut [[u32; 5]; LANES], blocks: &[&[u8; 64]; LANES]) {
    let h = load_states(states);
    let mut w = words(blocks);
    let k = K.map(|k| _mm512_set1_epi32(k as i32));
    let [mut a, mut b, mut c, mut d, mut e] = h;
    ring_block!(m512_op, w, [k[0], k[1], k[2], k[3]], [a b c d e]);
    let out = [a, b, c, d, e];
    store_states(
        states,
        core::array::from_fn(|j| _mm512_add_epi32(h[j], out[j])),
    );
}

/// The 80 rounds of sixteen blocks from the states `h`: the states after
/// them; what the filter and the recompression read goes to `kept`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn rounds(h: [__m512i; 5], blocks: &[&[u8; 64]; LANES], kept: &mut Kept<__m512i>) -> [__m512i; 5] {
    let mut w = words(blocks);
    let all = &mut kept.w;
    let [k0, k1, k2, k3] = K.map(|k| _mm512_set1_epi32(k as i32));
    let [mut a, mut b, mut c, mut d, mut e] = h;
    // After n rounds the names have turned right by n mod 5; after each
    // multiple of 16 the ring holds W[t - 16..t].
    all[..16].copy_from_slice(&w);
    ring_rounds!(m512_op, w, ch, k0, [a b c d e]; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
    ring_rounds!(m512_op, w, parity, k1, [a b c d e]; 20 21 22 23 24 25 26 27 28 29 30 31);
    all[16..32].copy_from_slice(&w);
    ring_rounds!(m512_op, w, parity, k1, [d e a b c]; 32 33 34 35 36 37 38 39);
    ring_rounds!(m512_op, w, maj, k2, [a b c d e]; 40 41 42 43 44 45 46 47);
    all[32..48].copy_from_slice(&w);
    ring_rounds!(m512_op, w, maj, k2, [c d e a b]; 48 49 50 51 52 53 54 55 56 57 58 59);
    kept.at60 = [a, b, c, d, e];
    ring_rounds!(m512_op, w, parity, k3, [a b c d e]; 60 61 62 63);
    kept.at64 = [b, c, d, e, a];
    all[48..64].copy_from_slice(&w);
    ring_rounds!(m512_op, w, parity, k3, [b c d e a]; 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79);
    all[64..].copy_from_slice(&w);
    let out = [a, b, c, d, e];
    core::array::from_fn(|j| _mm512_add_epi32(h[j], out[j]))
}
