//! FIPS 180-4 §6.1, transcribed as directly as Rust allows.
//!
//! This is the in-crate oracle: every backend and every step of the
//! optimisation ladder is tested against it, and it is tested against the
//! NIST vectors and the `sha1` crate. It is written to be checked by eye
//! against the standard, not to be fast: an 80-word schedule, one loop over
//! the rounds, f_t and K_t looked up per round, and the five working
//! variables rotated by assignment.
//!
//! A test and bench aid, not API: hidden from the docs, outside the
//! crate's stability promise.
//!
//! ```
//! use sha1_fast::reference;
//!
//! assert_eq!(reference::digest(b"abc"), *sha1_fast::digest(b"abc").as_bytes());
//! ```

use crate::INITIAL_STATE;
pub use crate::consts::K;

/// The logical function f_t of §4.1.1.
pub(crate) fn f(t: usize, x: u32, y: u32, z: u32) -> u32 {
    match t {
        0..=19 => (x & y) ^ (!x & z),           // Ch
        40..=59 => (x & y) ^ (x & z) ^ (y & z), // Maj
        _ => x ^ y ^ z,                         // Parity (20–39 and 60–79)
    }
}

/// The constant K_t of §4.2.1.
pub(crate) fn k(t: usize) -> u32 {
    K[t / 20]
}

/// Hashes one 512-bit block M(i) into H(i-1), returning H(i) (§6.1.2).
///
/// ```
/// use sha1_fast::reference;
///
/// // "abc" after padding (§5.1.1) fills exactly one block.
/// let mut block = [0u8; 64];
/// block[..3].copy_from_slice(b"abc");
/// block[3] = 0x80;
/// block[63] = 24; // the message length in bits
/// let h = reference::compress_block(sha1_fast::INITIAL_STATE, &block);
/// assert_eq!(h[0], 0xA999_3E36);
/// ```
// Indexing by t, as the standard does, is the point here.
#[allow(clippy::needless_range_loop)]
pub fn compress_block(h: [u32; 5], block: &[u8; 64]) -> [u32; 5] {
    // 1. Prepare the message schedule W_t.
    let mut w = [0u32; 80];
    for t in 0..16 {
        w[t] = u32::from_be_bytes([
            block[4 * t],
            block[4 * t + 1],
            block[4 * t + 2],
            block[4 * t + 3],
        ]);
    }
    expand_schedule(&mut w);

    // 2. Initialise the five working variables with H(i-1).
    let mut v = h;

    // 3. The 80 rounds.
    for t in 0..80 {
        v = round(t, v, w[t]);
    }

    // 4. The i-th intermediate hash value H(i).
    [
        h[0].wrapping_add(v[0]),
        h[1].wrapping_add(v[1]),
        h[2].wrapping_add(v[2]),
        h[3].wrapping_add(v[3]),
        h[4].wrapping_add(v[4]),
    ]
}

/// §6.1.2 step 1 for t = 16..79: W_t from the 16 block words in `w[..16]`.
/// Shared with the ladder's first steps, which differ from the reference
/// elsewhere.
#[inline(always)]
pub(crate) fn expand_schedule(w: &mut [u32; 80]) {
    for t in 16..80 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
    }
}

/// §6.1.2 step 3 for one t: the working variables [a, b, c, d, e] after
/// round `t` with word W_t = `wt`. Shared with the ladder steps that keep
/// the per-round choice of f_t and K_t.
#[inline(always)]
pub(crate) fn round(t: usize, [mut a, mut b, mut c, mut d, mut e]: [u32; 5], wt: u32) -> [u32; 5] {
    let temp = a
        .rotate_left(5)
        .wrapping_add(f(t, b, c, d))
        .wrapping_add(e)
        .wrapping_add(k(t))
        .wrapping_add(wt);
    e = d;
    d = c;
    c = b.rotate_left(30);
    b = a;
    a = temp;
    [a, b, c, d, e]
}

/// Hashes `blocks` into `state` one block at a time, with the same contract
/// as [`crate::compress`].
///
/// ```
/// let mut a = sha1_fast::INITIAL_STATE;
/// let mut b = a;
/// let blocks = [[7u8; 64]; 3];
/// sha1_fast::reference::compress(&mut a, &blocks);
/// sha1_fast::compress(&mut b, &blocks);
/// assert_eq!(a, b);
/// ```
pub fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    for block in blocks {
        *state = compress_block(*state, block);
    }
}

/// SHA-1 of `message`: padding (§5.1.1), parsing (§5.2.1) and the
/// computation (§6.1.2), independent of [`crate::Sha1`]'s buffering.
///
/// ```
/// assert_eq!(
///     sha1_fast::reference::digest(b"").to_vec(),
///     b"\xda\x39\xa3\xee\x5e\x6b\x4b\x0d\x32\x55\xbf\xef\x95\x60\x18\x90\xaf\xd8\x07\x09".to_vec(),
/// );
/// ```
pub fn digest(message: &[u8]) -> [u8; 20] {
    let (blocks, tail) = message.as_chunks::<64>();
    let mut h = INITIAL_STATE;
    compress(&mut h, blocks);

    // Append the bit "1", then zeros up to 448 mod 512 bits, then the
    // message length in bits as a 64-bit big-endian integer: one more
    // block, or two when fewer than 9 bytes are left in this one.
    let mut padded = [0u8; 128];
    padded[..tail.len()].copy_from_slice(tail);
    padded[tail.len()] = 0x80;
    let end = if tail.len() < 56 { 64 } else { 128 };
    let bits = (message.len() as u64).wrapping_mul(8);
    padded[end - 8..end].copy_from_slice(&bits.to_be_bytes());
    compress(&mut h, padded[..end].as_chunks::<64>().0);

    let mut out = [0u8; 20];
    for (bytes, word) in out.chunks_exact_mut(4).zip(h) {
        bytes.copy_from_slice(&word.to_be_bytes());
    }
    out
}
