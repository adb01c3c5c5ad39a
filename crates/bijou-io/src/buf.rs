//! `bytes::Buf` and `bytes::BufMut` extensions.

use bijou_core::{Bijou, DecodeError, EncodeError};
use bytes::{Buf, BufMut};

use crate::across_chunks::get_across_chunks;
use crate::buf_values::BufValues;

/// Stamps out `try_get_<width>` and `get_<width>` for every width.
macro_rules! buf_ext_named {
    ($($name:ident: $ty:ty => [$try_get:ident, $get:ident, $put:ident, $read:ident, $try_read:ident, $write:ident],)*) => {$(
        #[doc = concat!("[`try_get_bijou::<", stringify!($ty), ">()`](Self::try_get_bijou) for [`", stringify!($name), "`](bijou_core::", stringify!($name), "), the width in the name.")]
        #[inline]
        fn $try_get(&mut self) -> Result<$ty, DecodeError> {
            self.try_get_bijou()
        }

        #[doc = concat!("[`get_bijou::<", stringify!($ty), ">()`](Self::get_bijou) for [`", stringify!($name), "`](bijou_core::", stringify!($name), "), the width in the name.")]
        #[inline]
        #[track_caller]
        fn $get(&mut self) -> $ty {
            self.get_bijou()
        }
    )*};
}

/// Stamps out `put_<width>` for every width.
macro_rules! buf_mut_ext_named {
    ($($name:ident: $ty:ty => [$try_get:ident, $get:ident, $put:ident, $read:ident, $try_read:ident, $write:ident],)*) => {$(
        #[doc = concat!("[`put_bijou::<", stringify!($ty), ">(value)`](Self::put_bijou) for [`", stringify!($name), "`](bijou_core::", stringify!($name), "), the width in the name.")]
        #[inline]
        #[track_caller]
        fn $put(&mut self, value: $ty) {
            self.put_bijou(value);
        }
    )*};
}

/// Reads bijou values from any [`bytes::Buf`], in the style of `Buf`'s own
/// `get_*` / `try_get_*` methods.
///
/// Implemented for every `Buf`, including unsized ones and buffers made of
/// many chunks (`Chain`, `VecDeque<u8>`, custom rope types). A value that
/// lies inside the current [`chunk`](Buf::chunk) is decoded in place; one
/// that crosses chunks takes a cold path that gathers it into a stack buffer.
///
/// The generic methods ([`try_get_bijou`](Self::try_get_bijou),
/// [`get_bijou`](Self::get_bijou)) serve all six widths; the named ones
/// (`try_get_bijou64`, `get_bijou32s`, …) are shorthands for them.
/// [Names](crate#names) says why both exist and what `try_` means.
///
/// # Examples
///
/// ```
/// use bijou_io::BufExt;
/// use bytes::Buf;
///
/// let first: &[u8] = &[0x07, 0xF8];
/// let second: &[u8] = &[0x34, 0x01];
/// let mut buf = first.chain(second); // 300 straddles the two chunks
/// assert_eq!(buf.try_get_bijou64(), Ok(7));
/// assert_eq!(buf.try_get_bijou64(), Ok(300));
/// assert_eq!(buf.try_get_bijou::<i32>(), Ok(-1));
/// assert!(!buf.has_remaining());
/// ```
pub trait BufExt: Buf {
    /// Decodes one value of width `T` from the front of the buffer.
    ///
    /// On success the cursor advances past the value (by
    /// `T::len_from_tag(tag)` bytes) and nothing else is consumed.
    ///
    /// # Errors
    ///
    /// - [`DecodeError::Truncated`] when the buffer holds fewer bytes than the
    ///   value's tag announces (`available` is [`remaining`](Buf::remaining)).
    ///   **Nothing is consumed**: append more bytes and call again.
    /// - [`DecodeError::Overflow`] when the value does not fit `T`. Nothing is
    ///   consumed when the value's bytes can be seen without advancing: they
    ///   lie in [`chunk`](Buf::chunk), or (with the `std` feature) in the
    ///   slices one call of [`chunks_vectored`](Buf::chunks_vectored)
    ///   exposes. How many slices that is, the `Buf` decides: `Chain` and
    ///   `VecDeque<u8>` expose all their pieces, `bytes`' `Take` at most 16,
    ///   the trait's default only the current chunk. A value whose bytes
    ///   reach past those slices (say a 17-byte bijou128 value over 17
    ///   chunks inside a `Take`) must be consumed to be read: then exactly
    ///   the bad value's `T::len_from_tag(tag)` bytes are consumed and the
    ///   buffer is positioned at the next value.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{BufExt, DecodeError};
    /// use bytes::Buf;
    ///
    /// let mut buf: &[u8] = &[0xFD, 0x00, 0x5B, 0xF9, 0x01];
    /// assert_eq!(buf.try_get_bijou::<i32>(), Ok(-300));
    /// // 0xF9 announces 3 bytes, only 2 remain: nothing is consumed.
    /// assert_eq!(buf.try_get_bijou::<u64>(), Err(DecodeError::Truncated { needed: 3, available: 2 }));
    /// assert_eq!(buf.remaining(), 2);
    ///
    /// let mut corrupt: &[u8] = &[0xFF; 9];
    /// assert_eq!(corrupt.try_get_bijou::<u64>(), Err(DecodeError::Overflow));
    /// assert_eq!(corrupt.remaining(), 9);
    /// ```
    #[inline]
    fn try_get_bijou<T: Bijou>(&mut self) -> Result<T, DecodeError> {
        match T::decode(self.chunk()) {
            Ok((value, len)) => {
                self.advance(len);
                Ok(value)
            }
            Err(DecodeError::Overflow) => Err(DecodeError::Overflow),
            Err(DecodeError::Truncated { .. }) => get_across_chunks(self),
        }
    }

    /// Decodes one value of width `T` from the front of the buffer and
    /// advances past it; like [`Buf::get_u64`], panics on bad input.
    ///
    /// Use [`try_get_bijou`](Self::try_get_bijou) for input you do not trust.
    ///
    /// # Panics
    ///
    /// When [`try_get_bijou`](Self::try_get_bijou) would return an error:
    /// the buffer is too short for the value, or the value overflows `T`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::BufExt;
    ///
    /// let mut buf: &[u8] = &[0xF8, 0x34, 0x05];
    /// assert_eq!(buf.get_bijou::<u64>(), 300);
    /// assert_eq!(buf.get_bijou::<i64>(), -3);
    /// ```
    ///
    /// ```should_panic
    /// use bijou_io::BufExt;
    ///
    /// let mut buf: &[u8] = &[0xF9, 0x01];
    /// buf.get_bijou::<u64>(); // panics: 3 bytes announced, 2 present
    /// ```
    #[inline]
    #[track_caller]
    fn get_bijou<T: Bijou>(&mut self) -> T {
        match self.try_get_bijou() {
            Ok(value) => value,
            Err(error) => crate::panic_decode(T::NAME, error),
        }
    }

    /// An iterator over the values of width `T` encoded back to back in
    /// the buffer, to its end: [`BufValues`], which decodes a chunk of them
    /// at a time with bijou-core's `decode_batch`.
    ///
    /// It stops after the first error; once it is dropped, the buffer is
    /// right after the last value it yielded (at the failed value, after an
    /// error: nothing of a cut-off value is consumed).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{BufExt, BufMutExt};
    /// use bytes::{Buf, Bytes, BytesMut};
    ///
    /// let mut out = BytesMut::new();
    /// for value in [3u64, 300, 70_000] {
    ///     out.put_bijou(value);
    /// }
    /// let mut buf: Bytes = out.freeze();
    /// let mut sum = 0;
    /// for value in buf.bijou_values::<u64>() {
    ///     sum += value?;
    /// }
    /// assert_eq!(sum, 70_303);
    /// assert!(!buf.has_remaining());
    /// # Ok::<(), bijou_io::DecodeError>(())
    /// ```
    #[inline]
    fn bijou_values<T: Bijou>(&mut self) -> BufValues<'_, Self, T> {
        BufValues::new(self)
    }

    with_widths!(buf_ext_named);
}

impl<B: Buf + ?Sized> BufExt for B {}

/// Writes bijou values into any [`bytes::BufMut`], in the style of
/// `BufMut`'s own `put_*` methods.
///
/// The generic [`put_bijou`](Self::put_bijou) serves all six widths; the
/// named methods (`put_bijou64`, `put_bijou32s`, …) are shorthands for it.
/// [Names](crate#names) says why both exist and what `try_` means.
///
/// # Examples
///
/// ```
/// use bijou_io::BufMutExt;
///
/// let mut out = Vec::new();
/// out.put_bijou64(300);
/// out.put_bijou(-300i32);
/// assert_eq!(out, [0xF8, 0x34, 0xFD, 0x00, 0x5B]);
/// ```
pub trait BufMutExt: BufMut {
    /// Appends the encoding of `value` and advances the write cursor past it
    /// (by [`value.encoded_len()`](Bijou::encoded_len) bytes).
    ///
    /// # Panics
    ///
    /// Like [`BufMut::put_slice`], when the buffer has less
    /// [`remaining_mut`](BufMut::remaining_mut) capacity than the encoding
    /// needs. Growable buffers (`Vec<u8>`, `BytesMut`) never panic; for
    /// fixed ones use [`try_put_bijou`](Self::try_put_bijou).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::BufMutExt;
    /// use bytes::BytesMut;
    ///
    /// let mut out = BytesMut::new();
    /// out.put_bijou(u128::MAX);
    /// assert_eq!(out.len(), 17);
    /// ```
    #[inline]
    #[track_caller]
    fn put_bijou<T: Bijou>(&mut self, value: T) {
        self.put_slice(&value.encoded());
    }

    /// Appends the encoding of `value` if it fits, returning its length;
    /// the write cursor advances by that length.
    ///
    /// # Errors
    ///
    /// [`EncodeError::BufferTooSmall`] when
    /// [`remaining_mut`](BufMut::remaining_mut) is shorter than the encoding;
    /// nothing is written then.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{BufMutExt, EncodeError};
    ///
    /// let mut storage = [0u8; 2];
    /// let mut out = &mut storage[..];
    /// assert_eq!(out.try_put_bijou(300u64), Ok(2));
    /// assert_eq!(out.try_put_bijou(1u64), Err(EncodeError::BufferTooSmall { needed: 1, available: 0 }));
    /// assert_eq!(storage, [0xF8, 0x34]);
    /// ```
    #[inline]
    fn try_put_bijou<T: Bijou>(&mut self, value: T) -> Result<usize, EncodeError> {
        let encoded = value.encoded();
        let available = self.remaining_mut();
        if available < encoded.len() {
            return Err(EncodeError::BufferTooSmall {
                needed: encoded.len(),
                available,
            });
        }
        self.put_slice(&encoded);
        Ok(encoded.len())
    }

    with_widths!(buf_mut_ext_named);
}

impl<B: BufMut + ?Sized> BufMutExt for B {}

#[cfg(test)]
mod tests {
    use bijou_core::DecodeError;
    use bytes::Buf;

    use super::BufExt;

    /// The slow path, built with and without `std` (CI runs this module
    /// both ways): a value split across the chunks of a `Chain` decodes
    /// either way; an overflowing one consumes nothing only where `std`
    /// lets the decoder peek past the first chunk.
    #[test]
    fn values_split_across_chunks() {
        let mut buf = (&[0xF8][..]).chain(&[0x34, 0x07][..]);
        assert_eq!(buf.try_get_bijou::<u64>(), Ok(300));
        assert_eq!(buf.remaining(), 1);

        // bijou32's 0xFF announces 4 payload bytes; all-ones overflows u32.
        let mut buf = (&[0xFF][..]).chain(&[0xFF, 0xFF, 0xFF, 0xFF, 0x01][..]);
        assert_eq!(buf.try_get_bijou::<u32>(), Err(DecodeError::Overflow));
        let consumed = 6 - buf.remaining();
        assert_eq!(consumed, if cfg!(feature = "std") { 0 } else { 5 });
    }
}
