//! SHA-1 with the message schedule on Wasm SIMD (`simd128`) four words at
//! a time and the rounds on scalar `i32`s: the x86 SIMD-schedule kernel's
//! method (`docs/sha1.md`). The W + K stores are volatile, so that LLVM keeps
//! them rather than extracting lanes into the rounds (slower in V8), and the
//! state goes through memory once a block, which leaves V8 more registers
//! (`docs/wasm.md`).

use core::arch::wasm32::{
    i8x16_shuffle, i32x4_add, i32x4_shuffle, u32x4_shl, u32x4_shr, u32x4_splat, v128, v128_load,
    v128_or, v128_xor,
};

use crate::consts::K;
use crate::rounds::{round, u32_op};

/// Hashes `blocks` into `state` (SHA-1 compression, FIPS 180-4 §6.1.2).
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let Some(first) = blocks.first() else {
        return;
    };
    let mut schedule = Schedule {
        x: [u32x4_splat(0); 8],
        wk: Wk([0; 80]),
        k: K.map(|k| u32x4_splat(k)),
    };
    schedule.step::<20>(first);
    schedule.step::<21>(first);
    schedule.step::<22>(first);
    schedule.step::<23>(first);
    for (i, block) in blocks.iter().enumerate() {
        // After the last block, its words are loaded again, unused.
        let next = blocks.get(i + 1).unwrap_or(block);
        // The state goes through memory from block to block (hidden from
        // LLVM, which would keep it in locals): the engine's register
        // allocator then has five more registers for the rounds.
        let h = core::hint::black_box(&mut *state);
        let mut v = *h;
        // Rounds 4q..4q + 4, then schedule step q + 4, twelve rounds
        // before its first use; steps 20–23 are the next block's 0–3.
        macro_rules! quads {
            ($($q:literal)*) => {$(
                v = schedule.quad::<$q>(v);
                schedule.step::<{ $q + 4 }>(next);
            )*};
        }
        quads!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
        for (h, v) in h.iter_mut().zip(v) {
            *h = h.wrapping_add(v);
        }
    }
}

/// W_t + K_t of the block being hashed (the next block's words 0–15 are
/// written while its rounds 64–79 still read the end).
#[repr(C, align(16))]
struct Wk([u32; 80]);

/// The schedule of the block being hashed: the last eight steps' words
/// (step `s` holds W[4s..4s + 4] in `x[s % 8]`), W + K for the rounds, and
/// K in every lane.
struct Schedule {
    x: [v128; 8],
    wk: Wk,
    k: [v128; 4],
}

impl Schedule {
    /// Rounds `4Q..4Q + 4` on the working variables `v`, reading W + K.
    #[inline(always)]
    fn quad<const Q: usize>(&self, v: [u32; 5]) -> [u32; 5] {
        let [mut a, mut b, mut c, mut d, mut e] = v;
        for t in 4 * Q..4 * Q + 4 {
            let wk = self.wk.0[t];
            match Q / 5 {
                0 => {
                    round!(u32_op, ch, wk, a, b, c, d, e);
                }
                2 => {
                    round!(u32_op, maj, wk, a, b, c, d, e);
                }
                _ => {
                    round!(u32_op, parity, wk, a, b, c, d, e);
                }
            }
            (a, b, c, d, e) = (e, a, b, c, d);
        }
        [a, b, c, d, e]
    }

    /// Schedule step `s = S % 20`: W[4s..4s + 4] into `x[s % 8]`, then
    /// W + K into `wk`. Steps 0–3 are `next`'s bytes, byte-swapped; 4–7
    /// `rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16])`; 8–19 `rol2(W[t-6] ^
    /// W[t-16] ^ W[t-28] ^ W[t-32])`.
    #[inline(always)]
    fn step<const S: usize>(&mut self, next: &[u8; 64]) {
        let s = S % 20;
        let x = &mut self.x;
        let w16 = x[(s + 4) % 8]; // W[t-16..t-12]
        let w8 = x[(s + 6) % 8]; // W[t-8..t-4]
        let w4 = x[(s + 7) % 8]; // W[t-4..t]
        x[s % 8] = if s < 4 {
            let (quarters, []) = next.as_chunks::<16>() else {
                unreachable!()
            };
            load_be(&quarters[s])
        } else if s < 8 {
            let zero = u32x4_splat(0);
            let w14 = i32x4_shuffle::<2, 3, 4, 5>(w16, x[(s + 5) % 8]); // W[t-14..t-10]
            let w3 = i32x4_shuffle::<1, 2, 3, 4>(w4, zero); // W[t-3..t], then 0
            let pre = v128_xor(v128_xor(w16, w14), v128_xor(w8, w3));
            // Lane 3 still lacks rol1(W[t]) = rol2(pre[0]).
            let fix = i32x4_shuffle::<4, 5, 6, 0>(pre, zero);
            v128_xor(rol::<1>(pre), rol::<2>(fix))
        } else {
            let w6 = i32x4_shuffle::<2, 3, 4, 5>(w8, w4); // W[t-6..t-2]
            // Only `w6` depends on the previous step: xor it in last.
            let w28_32 = v128_xor(x[(s + 1) % 8], x[s % 8]);
            rol::<2>(v128_xor(w6, v128_xor(w16, w28_32)))
        };
        let v = i32x4_add(x[s % 8], self.k[s / 5]);
        let (slots, []) = self.wk.0.as_chunks_mut::<4>() else {
            unreachable!()
        };
        // SAFETY: `slots[s]` is four `u32`s of `wk`, 16-byte aligned (`Wk`
        // is, and each slot is 16 bytes). Volatile so that LLVM keeps the
        // store and the rounds' scalar loads instead of extracting lanes.
        unsafe { core::ptr::write_volatile((&raw mut slots[s]).cast::<v128>(), v) };
    }
}

/// rotl(x, n) of each 32-bit lane.
#[inline(always)]
fn rol<const N: u32>(x: v128) -> v128 {
    v128_or(u32x4_shl(x, N), u32x4_shr(x, 32 - N))
}

/// Four big-endian words from `bytes`.
#[inline(always)]
fn load_be(bytes: &[u8; 16]) -> v128 {
    // SAFETY: `bytes` is 16 readable bytes; `v128.load` has no alignment
    // requirement.
    let v = unsafe { v128_load(bytes.as_ptr().cast()) };
    i8x16_shuffle::<3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12>(v, v)
}
