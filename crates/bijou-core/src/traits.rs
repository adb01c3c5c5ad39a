//! The width-generic view of the six widths, for code that is generic over
//! the integer type (bijou-io's adapters, user codecs).

use crate::{BatchDecodeError, DecodeError, EncodeError, MAX_ENCODED_LEN};

mod private {
    pub trait Sealed {}
}

/// An encoding held on the stack, as returned by [`Bijou::encoded`].
///
/// Dereferences to the encoded bytes, compares equal to them, and orders
/// by them (memcmp order: the values' order for the unsigned widths,
/// zigzag order for the signed ones).
///
/// # Examples
///
/// ```
/// use bijou_core::Bijou;
///
/// let encoded = 300u64.encoded();
/// assert_eq!(encoded, [0xF8, 0x34]);
/// assert_eq!(encoded.len(), 2);
/// assert!(247u64.encoded() < encoded && encoded < 301u64.encoded());
/// ```
// Equality and hashing may look at the whole array: bytes past `len` are
// always zero. Ordering compares the slices, which is what memcmp order
// means, rather than rely on no encoding being a prefix of another.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Encoded {
    bytes: [u8; MAX_ENCODED_LEN],
    len: u8,
}

impl Encoded {
    fn new(bytes: &[u8]) -> Self {
        let mut out = Encoded {
            bytes: [0; MAX_ENCODED_LEN],
            len: bytes.len() as u8,
        };
        out.bytes[..bytes.len()].copy_from_slice(bytes);
        out
    }

    /// The encoded bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// assert_eq!((-1i64).encoded().as_slice(), &[0x01]);
    /// ```
    #[must_use]
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl core::ops::Deref for Encoded {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsRef<[u8]> for Encoded {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl PartialEq<[u8]> for Encoded {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

impl<const N: usize> PartialEq<[u8; N]> for Encoded {
    fn eq(&self, other: &[u8; N]) -> bool {
        self.as_slice() == other
    }
}

/// The same comparison from the slice's side (`bytes == encoded`).
///
/// ```
/// use bijou_core::Bijou;
///
/// let wire: &[u8] = &[0xF8, 0x34];
/// assert!(*wire == 300u64.encoded());
/// assert!([0xF8, 0x34] == 300u64.encoded());
/// ```
impl PartialEq<Encoded> for [u8] {
    fn eq(&self, other: &Encoded) -> bool {
        self == other.as_slice()
    }
}

impl<const N: usize> PartialEq<Encoded> for [u8; N] {
    fn eq(&self, other: &Encoded) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Ord for Encoded {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

impl PartialOrd for Encoded {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl core::fmt::Debug for Encoded {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Encoded(")?;
        for byte in self.as_slice() {
            write!(f, "{byte:02X}")?;
        }
        write!(f, ")")
    }
}

/// An integer type with a bijou width: `u32`, `u64`, `u128` (bijou32/64/128)
/// and `i32`, `i64`, `i128` (the zigzag-signed widths).
///
/// Every method forwards to the width's module, so generic code and the
/// module functions always agree. The trait is sealed.
///
/// # Widths are not interchangeable
///
/// The width is part of the wire format, and nothing in the bytes names
/// it: writer and reader must agree on it. 300 is `F8 34` in bijou64 and
/// `FC 30` in bijou32. Decoding one as the other is no error at all when
/// the bytes happen to parse: `F8` is the single-byte value 248 in
/// bijou32, and the `34` after it reads as a second value, 52. Pin the
/// width where a value is written (`300u64`, or a per-width function such
/// as [`bijou64::encode_into`](crate::bijou64::encode_into)): an unsuffixed integer
/// literal in generic code is an `i32`, which is bijou32s.
///
/// ```
/// use bijou_core::{Bijou, DecodeError};
///
/// assert_eq!(300u64.encoded(), [0xF8, 0x34]);
/// assert_eq!(300u32.encoded(), [0xFC, 0x30]);
/// // bijou64's bytes read as bijou32: a wrong value, and no error.
/// assert_eq!(u32::decode(&[0xF8, 0x34]), Ok((248, 1)));
/// // bijou32's read as bijou64: FC announces 6 bytes, so here too short;
/// // with more values behind it, a wrong value again.
/// assert_eq!(u64::decode(&[0xFC, 0x30]), Err(DecodeError::Truncated { needed: 6, available: 2 }));
/// assert!(matches!(u64::decode(&[0xFC, 0x30, 1, 2, 3, 4]), Ok((value, 6)) if value != 300));
/// ```
///
/// # Examples
///
/// ```
/// use bijou_core::Bijou;
///
/// fn round_trip<T: Bijou + PartialEq + core::fmt::Debug>(value: T) {
///     let encoded = value.encoded();
///     assert_eq!(T::len_from_tag(encoded[0]), encoded.len());
///     assert_eq!(T::decode(&encoded), Ok((value, encoded.len())));
/// }
/// round_trip(300u32);
/// round_trip(-5i128);
/// ```
pub trait Bijou:
    Copy
    + Default
    + Eq
    + Ord
    + core::hash::Hash
    + core::fmt::Debug
    + core::fmt::Display
    + Send
    + Sync
    + private::Sealed
    + 'static
{
    /// The width's name, e.g. `"bijou64"` or `"bijou32s"`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// assert_eq!(<i64 as Bijou>::NAME, "bijou64s");
    /// ```
    const NAME: &'static str;

    /// Longest encoding of this width in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// assert_eq!(<u64 as Bijou>::MAX_BYTES, 9);
    /// ```
    const MAX_BYTES: usize;

    /// Bytes the encoding of `self` occupies.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// assert_eq!(248u64.encoded_len(), 2);
    /// ```
    #[must_use]
    fn encoded_len(self) -> usize;

    /// Total length of a value from its first byte.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// assert_eq!(<u64 as Bijou>::len_from_tag(0xF9), 3);
    /// ```
    #[must_use]
    fn len_from_tag(tag: u8) -> usize;

    /// Encodes `self` into a stack buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// assert_eq!(&*1000u64.encoded(), &[0xF9, 0x01, 0xF0]);
    /// ```
    #[must_use]
    fn encoded(self) -> Encoded;

    /// Writes the encoding to the front of `out`.
    ///
    /// # Errors
    ///
    /// [`EncodeError::BufferTooSmall`] when `out` is too short.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// let mut out = [0u8; 4];
    /// assert_eq!(300u32.encode_into(&mut out), Ok(2));
    /// ```
    fn encode_into(self, out: &mut [u8]) -> Result<usize, EncodeError>;

    /// Appends the encoding to `out`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// let mut out = Vec::new();
    /// 42u128.encode(&mut out);
    /// assert_eq!(out, [42]);
    /// ```
    #[cfg(feature = "alloc")]
    fn encode(self, out: &mut alloc::vec::Vec<u8>);

    /// Appends the encodings of `values`, in order, to `out`: the same
    /// bytes as encoding each in turn, written by the width's batch loop.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// let mut out = Vec::new();
    /// i64::encode_batch(&[1, -1, 300], &mut out);
    /// assert_eq!(out, [0x02, 0x01, 0xF9, 0x00, 0x60]); // zigzag: 2, 1, 600
    /// ```
    #[cfg(feature = "alloc")]
    fn encode_batch(values: &[Self], out: &mut alloc::vec::Vec<u8>);

    /// Decodes one value from the front of `input`: (value, bytes used).
    ///
    /// # Errors
    ///
    /// [`DecodeError::Truncated`] or [`DecodeError::Overflow`].
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// assert_eq!(u64::decode(&[0xF8, 0x34, 0x00]), Ok((300, 2)));
    /// ```
    fn decode(input: &[u8]) -> Result<(Self, usize), DecodeError>;

    /// Decodes consecutive values: (values written, bytes consumed).
    ///
    /// # Errors
    ///
    /// [`BatchDecodeError::Overflow`].
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::Bijou;
    ///
    /// let mut out = [0u32; 2];
    /// assert_eq!(u32::decode_batch(&[1, 2, 0xFC], &mut out), Ok((2, 2)));
    /// ```
    fn decode_batch(input: &[u8], out: &mut [Self]) -> Result<(usize, usize), BatchDecodeError>;
}

macro_rules! impl_bijou {
    ($($ty:ty => $module:ident),* $(,)?) => {$(
        impl private::Sealed for $ty {}

        impl Bijou for $ty {
            const NAME: &'static str = stringify!($module);
            const MAX_BYTES: usize = crate::$module::MAX_BYTES;

            #[inline]
            fn encoded_len(self) -> usize {
                crate::$module::encoded_len(self)
            }

            #[inline]
            fn len_from_tag(tag: u8) -> usize {
                crate::$module::len_from_tag(tag)
            }

            #[inline]
            fn encoded(self) -> Encoded {
                let (bytes, len) = crate::$module::encode_array(self);
                Encoded::new(&bytes[..len])
            }

            #[inline]
            fn encode_into(self, out: &mut [u8]) -> Result<usize, EncodeError> {
                crate::$module::encode_into(self, out)
            }

            #[cfg(feature = "alloc")]
            #[inline]
            fn encode(self, out: &mut alloc::vec::Vec<u8>) {
                crate::$module::encode(self, out)
            }

            #[cfg(feature = "alloc")]
            #[inline]
            fn encode_batch(values: &[Self], out: &mut alloc::vec::Vec<u8>) {
                crate::$module::encode_batch(values, out)
            }

            #[inline]
            fn decode(input: &[u8]) -> Result<(Self, usize), DecodeError> {
                crate::$module::decode(input)
            }

            #[inline]
            fn decode_batch(input: &[u8], out: &mut [Self]) -> Result<(usize, usize), BatchDecodeError> {
                crate::$module::decode_batch(input, out)
            }
        }
    )*};
}

impl_bijou! {
    u32 => bijou32,
    u64 => bijou64,
    u128 => bijou128,
    i32 => bijou32s,
    i64 => bijou64s,
    i128 => bijou128s,
}
