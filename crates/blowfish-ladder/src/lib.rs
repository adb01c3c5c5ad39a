//! Blowfish encryption written seven ways, one per step of the classic
//! JavaScript speed-up write-up that the SHA-1 ladder (`sha1_fast::ladder`)
//! follows, so each step's gain can be measured again under an optimising
//! compiler (`cargo xtask ladder blowfish`, `docs/blowfish.md`).
//!
//! A teaching and benchmark piece, not a cipher API: it encrypts only, has
//! no modes, and no constant-time or zeroising care. Use the RustCrypto
//! `blowfish` crate for real work; every step here is tested equal to it.
//!
//! The cipher is Schneier's (Fast Software Encryption, LNCS 809, 1994): an
//! 18-word P-array and four 256-word S-boxes, initialised with the digits
//! of pi and then rewritten by the key schedule; 16 rounds of
//! `xL ^= P[i]; xR ^= F(xL); swap`, where
//! `F(x) = ((S0[a] + S1[b]) ^ S2[c]) + S3[d]` for the bytes `a b c d` of
//! `x`, high to low. Blocks are two big-endian words, as in Schneier's
//! test vectors.
//!
//! ```
//! use blowfish_ladder::{Blowfish, STEPS};
//!
//! // Eric Young's first ECB vector (schneier.com/code/vectors.txt).
//! let cipher = Blowfish::new(&[0; 8])?;
//! for (name, encrypt) in STEPS {
//!     let mut blocks = [[0u8; 8]; 2];
//!     encrypt(&cipher, &mut blocks);
//!     assert_eq!(blocks, [[0x4E, 0xF9, 0x97, 0x45, 0x61, 0x98, 0xDD, 0x78]; 2], "{name}");
//! }
//! # Ok::<(), blowfish_ladder::KeyLengthError>(())
//! ```

mod ladder;
mod pi;

pub use ladder::STEPS;

/// Encrypts every block in place with one step's code.
pub type EncryptFn = fn(&Blowfish, &mut [[u8; 8]]);

/// The key is not 1 to 56 bytes long (8 to 448 bits, Schneier's range).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("blowfish key is {0} bytes; use 1 to 56")]
pub struct KeyLengthError(pub usize);

/// The subkeys of one key: what every step reads.
#[derive(Clone)]
pub struct Blowfish {
    p: [u32; 18],
    s: [[u32; 256]; 4],
}

impl Blowfish {
    /// The longest key, in bytes.
    pub const MAX_KEY_LEN: usize = 56;

    /// Runs the key schedule: the key, repeated, is XORed into the P-array;
    /// then an all-zero block is encrypted over and over, each result
    /// replacing the next two subkeys, P-array first, then the S-boxes
    /// (521 encryptions).
    ///
    /// # Errors
    ///
    /// [`KeyLengthError`] for an empty key or one over
    /// [`Self::MAX_KEY_LEN`] bytes.
    pub fn new(key: &[u8]) -> Result<Self, KeyLengthError> {
        if key.is_empty() || key.len() > Self::MAX_KEY_LEN {
            return Err(KeyLengthError(key.len()));
        }
        let mut cipher = Self { p: pi::P, s: pi::S };
        let mut key_bytes = key.iter().copied().cycle();
        for p in &mut cipher.p {
            let word = [(); 4].map(|()| key_bytes.next().unwrap_or_default());
            *p ^= u32::from_be_bytes(word);
        }
        let mut block = [0; 2];
        for i in (0..18).step_by(2) {
            block = cipher.encrypt_words(block);
            cipher.p[i..i + 2].copy_from_slice(&block);
        }
        for k in 0..4 {
            for i in (0..256).step_by(2) {
                block = cipher.encrypt_words(block);
                cipher.s[k][i..i + 2].copy_from_slice(&block);
            }
        }
        Ok(cipher)
    }
}

impl core::fmt::Debug for Blowfish {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The subkeys are as secret as the key.
        f.debug_struct("Blowfish").finish_non_exhaustive()
    }
}

/// A block's two words, `[xL, xR]`.
#[inline(always)]
fn load(block: &[u8; 8]) -> [u32; 2] {
    let (l, r) = block.split_at(4);
    [l, r].map(|half| u32::from_be_bytes(half.try_into().expect("4 bytes")))
}

/// Writes `[xL, xR]` back as the block's bytes.
#[inline(always)]
fn store(block: &mut [u8; 8], [l, r]: [u32; 2]) {
    let (high, low) = block.split_at_mut(4);
    high.copy_from_slice(&l.to_be_bytes());
    low.copy_from_slice(&r.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_lengths_outside_1_to_56_are_refused() {
        assert_eq!(Blowfish::new(&[]).unwrap_err(), KeyLengthError(0));
        assert_eq!(Blowfish::new(&[7; 57]).unwrap_err(), KeyLengthError(57));
        assert!(Blowfish::new(&[7; 1]).is_ok());
        assert!(Blowfish::new(&[7; 56]).is_ok());
        assert_eq!(
            KeyLengthError(57).to_string(),
            "blowfish key is 57 bytes; use 1 to 56"
        );
    }

    #[test]
    fn blocks_are_big_endian_words() {
        let block = [1, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(load(&block), [0x0102_0304, 0x0506_0708]);
        let mut out = [0; 8];
        store(&mut out, load(&block));
        assert_eq!(out, block);
    }

    /// The fractional part of pi as 32-bit words, by Machin's formula
    /// `pi = 16 atan(1/5) - 4 atan(1/239)` in fixed point: one integer
    /// word, then the fraction, two guard words beyond `words`.
    fn pi_words(words: usize) -> Vec<u32> {
        let len = 1 + words + 2;
        // `x / d`, long division from the top word.
        fn divide(x: &mut [u32], d: u32) {
            let mut rem = 0u64;
            for limb in x {
                let cur = rem << 32 | u64::from(*limb);
                *limb = (cur / u64::from(d)) as u32;
                rem = cur % u64::from(d);
            }
        }
        // `acc += sign * x`, carries from the bottom word.
        fn add(acc: &mut [u32], x: &[u32], negative: bool) {
            let mut carry = 0i64;
            for (a, &b) in acc.iter_mut().zip(x).rev() {
                let b = if negative {
                    -i64::from(b)
                } else {
                    i64::from(b)
                };
                let sum = i64::from(*a) + b + carry;
                *a = sum.rem_euclid(1 << 32) as u32;
                carry = sum.div_euclid(1 << 32);
            }
        }
        let atan_inv = |x: u32, scale: u32| {
            let mut total = vec![0u32; len];
            let mut power = total.clone();
            power[0] = scale;
            divide(&mut power, x);
            let mut n = 1;
            while power.iter().any(|&w| w != 0) {
                let mut term = power.clone();
                divide(&mut term, n);
                add(&mut total, &term, n % 4 == 3);
                divide(&mut power, x * x);
                n += 2;
            }
            total
        };
        let mut pi = atan_inv(5, 16);
        add(&mut pi, &atan_inv(239, 4), true);
        assert_eq!(pi[0], 3);
        pi[1..=words].to_vec()
    }

    #[test]
    fn tables_are_the_digits_of_pi() {
        let digits = pi_words(18 + 4 * 256);
        assert_eq!(digits[..18], pi::P);
        for (k, s) in pi::S.iter().enumerate() {
            let start = 18 + 256 * k;
            assert_eq!(&digits[start..start + 256], s, "S-box {k}");
        }
    }
}
