//! SHA-1 with the message schedule on Wasm SIMD (`simd128`) four words at
//! a time and the 80 rounds on scalar `i32`s: the x86 SIMD-schedule
//! kernel's method in WebAssembly.
//!
//! - Words 0–15 are loaded as vectors and byte-swapped with one
//!   `i8x16.shuffle` each (WebAssembly has no scalar byte swap: the scalar
//!   core spends five operations a word on it); words 16–31 use
//!   `rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16])`, whose fourth lane needs
//!   the first lane's result (`rol2` of the first lane's pre-rotation
//!   value fixes it up); words 32–79 use the equivalent
//!   `rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32])`, which has no dependency
//!   inside a vector. K_t is added on the vector unit.
//! - W_t + K_t goes to an 80-word buffer that the rounds read, one load
//!   per round folded into the engine's `add`. The stores are volatile so
//!   that LLVM keeps them instead of extracting lanes into the rounds.
//! - Each schedule step is issued twelve rounds before its first use,
//!   and the next block's words 0–15 are loaded during rounds 64–79, so
//!   the vector work overlaps the round chain.
//! - The state is read from and written to memory once a block, not kept
//!   in locals across blocks, which leaves V8 more registers for the
//!   rounds (`docs/wasm.md` has the measurements).

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
    let kv = K.map(|k| u32x4_splat(k));
    let mut x = [u32x4_splat(0); 8];
    let mut wk = Wk([0; 80]);
    step!(load 0, x, wk, kv, first);
    step!(load 1, x, wk, kv, first);
    step!(load 2, x, wk, kv, first);
    step!(load 3, x, wk, kv, first);

    for (i, block) in blocks.iter().enumerate() {
        // After the last block, its words are loaded again, unused.
        let next = blocks.get(i + 1).unwrap_or(block);
        // The state goes through memory from block to block (hidden from
        // LLVM, which would keep it in locals): the engine's register
        // allocator then has five more registers for the rounds.
        let h = core::hint::black_box(&mut *state);
        let [mut a, mut b, mut c, mut d, mut e] = *h;
        block!(wk, x, kv, next, [a b c d e]);
        for (h, v) in h.iter_mut().zip([a, b, c, d, e]) {
            *h = h.wrapping_add(v);
        }
    }
}

/// W_t + K_t of the block being hashed (the next block's words 0–15 are
/// written while its rounds 64–79 still read the end).
#[repr(C, align(16))]
struct Wk([u32; 80]);

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

/// Rounds `$t…` (literals) reading W + K from `$wk`, renaming the
/// working variables after each; f_t is chosen by `t` at compile time.
macro_rules! rounds {
    ($wk:ident, [$a:ident $b:ident $c:ident $d:ident $e:ident]; $($t:literal)*) => {
        $(
            if $t < 20 {
                round!(u32_op, ch, $wk.0[$t], $a, $b, $c, $d, $e);
            } else if $t < 40 || $t >= 60 {
                round!(u32_op, parity, $wk.0[$t], $a, $b, $c, $d, $e);
            } else {
                round!(u32_op, maj, $wk.0[$t], $a, $b, $c, $d, $e);
            }
            ($a, $b, $c, $d, $e) = ($e, $a, $b, $c, $d);
        )*
    };
}
use rounds;

/// Schedule step `$s`: W[4s..4s+4] into `$x[$s % 8]` (a ring of the last
/// eight steps), then W + K into `$wk`.
macro_rules! step {
    (load $s:literal, $x:ident, $wk:ident, $kv:ident, $p:ident) => {{
        let (quarters, []) = $p.as_chunks::<16>() else { unreachable!() };
        $x[$s % 8] = load_be(&quarters[$s]);
        step!(store $s, $x, $wk, $kv);
    }};
    (r1 $s:literal, $x:ident, $wk:ident, $kv:ident) => {{
        let w16 = $x[($s + 4) % 8]; // W[t-16..t-12]
        let w12 = $x[($s + 5) % 8]; // W[t-12..t-8]
        let w8 = $x[($s + 6) % 8]; // W[t-8..t-4]
        let w4 = $x[($s + 7) % 8]; // W[t-4..t]
        let w14 = i32x4_shuffle::<2, 3, 4, 5>(w16, w12); // W[t-14..t-10]
        let zero = u32x4_splat(0);
        let w3 = i32x4_shuffle::<1, 2, 3, 4>(w4, zero); // W[t-3..t], then 0
        let pre = v128_xor(v128_xor(w16, w14), v128_xor(w8, w3));
        // Lane 3 still lacks rol1(W[t]) = rol2(pre[0]).
        let fix = i32x4_shuffle::<4, 5, 6, 0>(pre, zero);
        $x[$s % 8] = v128_xor(rol::<1>(pre), rol::<2>(fix));
        step!(store $s, $x, $wk, $kv);
    }};
    (r2 $s:literal, $x:ident, $wk:ident, $kv:ident) => {{
        let w32 = $x[$s % 8]; // W[t-32..t-28]
        let w28 = $x[($s + 1) % 8]; // W[t-28..t-24]
        let w16 = $x[($s + 4) % 8]; // W[t-16..t-12]
        let w8 = $x[($s + 6) % 8]; // W[t-8..t-4]
        let w4 = $x[($s + 7) % 8]; // W[t-4..t]
        let w6 = i32x4_shuffle::<2, 3, 4, 5>(w8, w4); // W[t-6..t-2]
        // Only `w6` depends on the previous step: xor it in last.
        let pre = v128_xor(w6, v128_xor(v128_xor(w16, w28), w32));
        $x[$s % 8] = rol::<2>(pre);
        step!(store $s, $x, $wk, $kv);
    }};
    (store $s:literal, $x:ident, $wk:ident, $kv:ident) => {{
        let v = i32x4_add($x[$s % 8], $kv[$s / 5]);
        let (slots, []) = $wk.0.as_chunks_mut::<4>() else { unreachable!() };
        // SAFETY: `slots[$s]` is four `u32`s of `$wk`, 16-byte aligned
        // (`Wk` is, and each slot is 16 bytes). Volatile so that LLVM
        // keeps the store and the rounds' scalar loads.
        unsafe { core::ptr::write_volatile((&mut slots[$s] as *mut [u32; 4]).cast::<v128>(), v) };
    }};
}
use step;

/// The 80 rounds of one block, steps 4–19 of its schedule twelve rounds
/// ahead of their use, and steps 0–3 of `$next` in rounds 64–79.
macro_rules! block {
    ($wk:ident, $x:ident, $kv:ident, $next:ident, [$a:ident $b:ident $c:ident $d:ident $e:ident]) => {
        rounds!($wk, [$a $b $c $d $e]; 0 1 2 3);
        step!(r1 4, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 4 5 6 7);
        step!(r1 5, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 8 9 10 11);
        step!(r1 6, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 12 13 14 15);
        step!(r1 7, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 16 17 18 19);
        step!(r2 8, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 20 21 22 23);
        step!(r2 9, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 24 25 26 27);
        step!(r2 10, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 28 29 30 31);
        step!(r2 11, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 32 33 34 35);
        step!(r2 12, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 36 37 38 39);
        step!(r2 13, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 40 41 42 43);
        step!(r2 14, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 44 45 46 47);
        step!(r2 15, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 48 49 50 51);
        step!(r2 16, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 52 53 54 55);
        step!(r2 17, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 56 57 58 59);
        step!(r2 18, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 60 61 62 63);
        step!(r2 19, $x, $wk, $kv);
        rounds!($wk, [$a $b $c $d $e]; 64 65 66 67);
        step!(load 0, $x, $wk, $kv, $next);
        rounds!($wk, [$a $b $c $d $e]; 68 69 70 71);
        step!(load 1, $x, $wk, $kv, $next);
        rounds!($wk, [$a $b $c $d $e]; 72 73 74 75);
        step!(load 2, $x, $wk, $kv, $next);
        rounds!($wk, [$a $b $c $d $e]; 76 77 78 79);
        step!(load 3, $x, $wk, $kv, $next);
    };
}
use block;
