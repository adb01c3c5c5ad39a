//! The 20-byte result and its hex forms.

use core::fmt;
use core::str::FromStr;

/// A SHA-1 digest: 20 bytes, shown as 40 lowercase hex digits.
///
/// It dereferences to `[u8; 20]`, so `&d[..]`, `d.len()` and `d.iter()`
/// work as on the array. Ordering is the byte order, which is also the
/// order of the hex strings, so sorted digests sort like git object names.
///
/// Not to be confused with RustCrypto's `digest::Digest`, the trait of
/// hash functions: with the `digest` feature [`crate::Sha1`] implements
/// that trait, whose `finalize` gives a `digest::Output<Sha1>` array,
/// while [`crate::Sha1::finalize`] (the inherent method) gives this type.
///
/// ```
/// use sha1_fast::Digest;
///
/// let d = sha1_fast::digest(b"abc");
/// assert_eq!(d.to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
/// assert_eq!(d.as_ref()[0], 0xA9);
/// let parsed: Digest = "A9993E364706816ABA3E25717850C26C9CD0D89D".parse().unwrap();
/// assert_eq!(parsed, d);
/// let bytes: [u8; 20] = d.into();
/// assert_eq!(Digest::from(bytes), d);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digest([u8; Digest::LEN]);

impl Digest {
    /// Length of a digest in bytes.
    ///
    /// ```
    /// assert_eq!(sha1_fast::Digest::LEN, 20);
    /// ```
    pub const LEN: usize = 20;

    /// Wraps raw digest bytes.
    ///
    /// ```
    /// let d = sha1_fast::Digest::from_bytes([0xAB; 20]);
    /// assert_eq!(d.to_string(), "ab".repeat(20));
    /// ```
    #[inline]
    #[must_use]
    pub const fn from_bytes(bytes: [u8; Digest::LEN]) -> Digest {
        Digest(bytes)
    }

    /// The bytes, borrowed.
    ///
    /// ```
    /// assert_eq!(sha1_fast::digest(b"").as_bytes()[..2], [0xDA, 0x39]);
    /// ```
    #[inline]
    #[must_use]
    pub const fn as_bytes(&self) -> &[u8; Digest::LEN] {
        &self.0
    }

    /// The bytes, by value.
    ///
    /// ```
    /// let bytes = sha1_fast::digest(b"").to_bytes();
    /// assert_eq!(bytes[19], 0x09);
    /// ```
    #[inline]
    #[must_use]
    pub const fn to_bytes(self) -> [u8; Digest::LEN] {
        self.0
    }

    /// The digest of a message's final chaining state: its five words,
    /// big-endian (FIPS 180-4 §6.1.2).
    #[inline(always)]
    pub(crate) fn from_state(state: [u32; 5]) -> Digest {
        let mut out = [0u8; Digest::LEN];
        for (bytes, word) in out.as_chunks_mut::<4>().0.iter_mut().zip(state) {
            *bytes = word.to_be_bytes();
        }
        Digest(out)
    }

    /// The 40 hex digits in `alphabet` (lower or upper case), without allocating.
    fn hex(&self, alphabet: &[u8; 16]) -> [u8; 2 * Digest::LEN] {
        let mut out = [0u8; 2 * Digest::LEN];
        for (pair, byte) in out.chunks_exact_mut(2).zip(self.0) {
            pair[0] = alphabet[usize::from(byte >> 4)];
            pair[1] = alphabet[usize::from(byte & 0xF)];
        }
        out
    }

    fn write_hex(&self, f: &mut fmt::Formatter<'_>, alphabet: &[u8; 16]) -> fmt::Result {
        let hex = self.hex(alphabet);
        // The alphabet is ASCII, so this cannot fail.
        f.pad(core::str::from_utf8(&hex).map_err(|_| fmt::Error)?)
    }
}

/// Borrows the 20 bytes.
///
/// ```
/// fn len(data: impl AsRef<[u8]>) -> usize { data.as_ref().len() }
/// assert_eq!(len(sha1_fast::digest(b"")), 20);
/// ```
impl AsRef<[u8]> for Digest {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// The 20 bytes, as an array: slicing, indexing and the array's methods.
///
/// ```
/// let d = sha1_fast::digest(b"abc");
/// assert_eq!(&d[..2], [0xA9, 0x99]);
/// assert_eq!(d.len(), 20);
/// assert!(d.starts_with(&[0xA9]));
/// ```
impl core::ops::Deref for Digest {
    type Target = [u8; Digest::LEN];

    #[inline]
    fn deref(&self) -> &[u8; Digest::LEN] {
        &self.0
    }
}

/// Wraps raw digest bytes, as [`Digest::from_bytes`].
///
/// ```
/// let d = sha1_fast::Digest::from([0; 20]);
/// assert_eq!(d.as_bytes(), &[0; 20]);
/// ```
impl From<[u8; Digest::LEN]> for Digest {
    #[inline]
    fn from(bytes: [u8; Digest::LEN]) -> Digest {
        Digest(bytes)
    }
}

/// Reads raw digest bytes from a slice of exactly 20 bytes (a git tree
/// entry's object id, say); any other length is the standard library's
/// [`TryFromSliceError`](core::array::TryFromSliceError), as for arrays.
///
/// ```
/// use sha1_fast::Digest;
///
/// let entry: &[u8] = &[0xAB; 25];
/// let id = Digest::try_from(&entry[5..])?;
/// assert_eq!(id, Digest::from_bytes([0xAB; 20]));
/// assert!(Digest::try_from(&entry[..19]).is_err());
/// # Ok::<(), core::array::TryFromSliceError>(())
/// ```
impl TryFrom<&[u8]> for Digest {
    type Error = core::array::TryFromSliceError;

    #[inline]
    fn try_from(bytes: &[u8]) -> Result<Digest, Self::Error> {
        <[u8; Digest::LEN]>::try_from(bytes).map(Digest)
    }
}

/// Unwraps the bytes, as [`Digest::to_bytes`].
///
/// ```
/// let bytes: [u8; 20] = sha1_fast::digest(b"abc").into();
/// assert_eq!(bytes[0], 0xA9);
/// ```
impl From<Digest> for [u8; Digest::LEN] {
    #[inline]
    fn from(digest: Digest) -> [u8; Digest::LEN] {
        digest.0
    }
}

const LOWER: &[u8; 16] = b"0123456789abcdef";
const UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// 40 lowercase hex digits, formatted as a string would be: width, fill
/// and alignment are honoured, a precision keeps that many leading digits
/// (git's short form), and `#` adds no `0x` (here and in
/// [`LowerHex`](fmt::LowerHex) and [`UpperHex`](fmt::UpperHex), which
/// behave the same).
///
/// ```
/// let d = sha1_fast::digest(b"");
/// assert_eq!(format!("{d}"), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
/// assert_eq!(format!("{d:>42}").len(), 42);
/// assert_eq!(format!("{d:.7}"), "da39a3e");
/// ```
impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_hex(f, LOWER)
    }
}

/// Same as [`Display`](fmt::Display): 40 lowercase hex digits.
///
/// ```
/// let d = sha1_fast::digest(b"");
/// assert_eq!(format!("{d:x}"), d.to_string());
/// ```
impl fmt::LowerHex for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_hex(f, LOWER)
    }
}

/// 40 uppercase hex digits.
///
/// ```
/// let d = sha1_fast::digest(b"");
/// assert_eq!(format!("{d:X}"), "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709");
/// ```
impl fmt::UpperHex for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_hex(f, UPPER)
    }
}

/// `Digest(` hex `)`.
///
/// ```
/// let d = sha1_fast::digest(b"");
/// assert_eq!(format!("{d:?}"), "Digest(da39a3ee5e6b4b0d3255bfef95601890afd80709)");
/// ```
impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

/// Why a string is not a SHA-1 digest in hex.
///
/// ```
/// use sha1_fast::{Digest, ParseDigestError};
///
/// assert_eq!("abc".parse::<Digest>(), Err(ParseDigestError::InvalidLength { len: 3 }));
/// let err = "g".repeat(40).parse::<Digest>().unwrap_err();
/// assert_eq!(err, ParseDigestError::InvalidDigit { index: 0, found: 'g' });
/// assert_eq!(err.to_string(), "invalid SHA-1 digest: 'g' at byte 0 is not a hex digit");
///
/// let err = "abc".parse::<Digest>().unwrap_err();
/// assert_eq!(err.to_string(), "invalid SHA-1 digest: expected 40 hex digits, found 3 bytes");
///
/// // It travels in `Box<dyn Error>` and friends.
/// let err: Box<dyn std::error::Error> = Box::new("".parse::<Digest>().unwrap_err());
/// assert!(err.to_string().contains("found 0 bytes"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseDigestError {
    /// The string is ASCII but not 40 bytes long.
    #[error(
        "invalid SHA-1 digest: expected {} hex digits, found {len} {}",
        2 * Digest::LEN,
        if *.len == 1 { "byte" } else { "bytes" }
    )]
    InvalidLength {
        /// Its length in bytes.
        len: usize,
    },
    /// A character that is not an ASCII hex digit: the first one, when the
    /// string has 40 bytes or any non-ASCII character.
    #[error("invalid SHA-1 digest: {found:?} at byte {index} is not a hex digit")]
    InvalidDigit {
        /// Its byte offset in the string.
        index: usize,
        /// The character.
        found: char,
    },
}

/// Parses 40 hex digits, either case, nothing else (no `0x`, no spaces).
///
/// ```
/// let d: sha1_fast::Digest = "da39a3ee5e6b4b0d3255bfef95601890afd80709".parse().unwrap();
/// assert_eq!(d, sha1_fast::digest(b""));
/// assert!("da39a3ee5e6b4b0d3255bfef95601890afd8070".parse::<sha1_fast::Digest>().is_err());
/// ```
impl FromStr for Digest {
    type Err = ParseDigestError;

    fn from_str(s: &str) -> Result<Digest, ParseDigestError> {
        // A non-ASCII character makes the byte length differ from the
        // length the user sees (40 characters, 41 bytes with one look-alike
        // letter), so the length is only reported for ASCII; otherwise the
        // first character that is not a hex digit is.
        if s.is_ascii() && s.len() != 2 * Digest::LEN {
            return Err(ParseDigestError::InvalidLength { len: s.len() });
        }
        if let Some((index, found)) = s.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
            return Err(ParseDigestError::InvalidDigit { index, found });
        }
        // 40 ASCII hex digits.
        let nibble = |index: usize| {
            let byte = s.as_bytes()[index];
            match byte {
                b'0'..=b'9' => byte - b'0',
                b'a'..=b'f' => byte - b'a' + 10,
                _ => byte - b'A' + 10,
            }
        };
        let mut bytes = [0u8; Digest::LEN];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = (nibble(2 * i) << 4) | nibble(2 * i + 1);
        }
        Ok(Digest(bytes))
    }
}
