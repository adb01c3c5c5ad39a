//! [`ValueCodec`]: a `tokio_util` codec for a plain stream of values
//! (feature `tokio`). The frame types' codecs live beside them in
//! `frame/`.

use core::fmt;
use core::marker::PhantomData;
use std::io;

use bijou_core::{Bijou, DecodeError};
use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::BufMutExt;

/// A `tokio_util` codec for a plain stream of bijou values of width `T`.
///
/// As a [`Decoder`] it yields one `T` per value, leaving an incomplete value
/// in the read buffer until the rest arrives; as an [`Encoder<T>`] it
/// appends each value's encoding. Errors are [`io::Error`]s whose inner error
/// is the [`DecodeError`]: `InvalidData` for a value too large for `T`,
/// `UnexpectedEof` for a stream that ends inside a value.
///
/// # Examples
///
/// ```
/// use bijou_io::ValueCodec;
/// use bytes::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = ValueCodec::<i64>::new();
/// let mut buf = BytesMut::new();
/// codec.encode(-300, &mut buf)?;
/// codec.encode(7, &mut buf)?;
/// assert_eq!(codec.decode(&mut buf)?, Some(-300));
/// assert_eq!(codec.decode(&mut buf)?, Some(7));
/// assert_eq!(codec.decode(&mut buf)?, None);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct ValueCodec<T: Bijou> {
    width: PhantomData<fn() -> T>,
}

impl<T: Bijou> ValueCodec<T> {
    /// A codec for values of width `T`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::ValueCodec;
    /// use bytes::BytesMut;
    /// use tokio_util::codec::{Decoder, Encoder};
    ///
    /// // `const`, so a codec can live in a `static` or a `const` item.
    /// const CODEC: ValueCodec<u128> = ValueCodec::new();
    /// let mut codec = CODEC;
    /// let mut buf = BytesMut::new();
    /// codec.encode(u128::MAX, &mut buf)?;
    /// assert_eq!(buf.len(), 17);
    /// assert_eq!(codec.decode(&mut buf)?, Some(u128::MAX));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        ValueCodec { width: PhantomData }
    }
}

impl<T: Bijou> Default for ValueCodec<T> {
    /// Same as [`ValueCodec::new`].
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Bijou> Clone for ValueCodec<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Bijou> Copy for ValueCodec<T> {}

/// Codecs of one width hold nothing, so any two are equal (and hash
/// alike), as `FrameCodec`s with the same limit are.
///
/// ```
/// use bijou_io::ValueCodec;
///
/// assert_eq!(ValueCodec::<u64>::new(), ValueCodec::default());
/// ```
impl<T: Bijou> PartialEq for ValueCodec<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T: Bijou> Eq for ValueCodec<T> {}

impl<T: Bijou> core::hash::Hash for ValueCodec<T> {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}

impl<T: Bijou> fmt::Debug for ValueCodec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValueCodec")
            .field("width", &T::NAME)
            .finish()
    }
}

impl<T: Bijou> Decoder for ValueCodec<T> {
    type Item = T;
    type Error = io::Error;

    /// Decodes the value at the front of `src` and removes its bytes, or
    /// returns `Ok(None)` (nothing consumed, room reserved for the rest) when
    /// it is incomplete. An overflowing value is `InvalidData` and is not
    /// consumed.
    ///
    /// ```
    /// use bijou_io::ValueCodec;
    /// use bytes::BytesMut;
    /// use tokio_util::codec::Decoder;
    ///
    /// let mut codec = ValueCodec::<u64>::new();
    /// let mut src = BytesMut::from(&[0xF8, 0x34, 0xF9, 0x01][..]);
    /// assert_eq!(codec.decode(&mut src)?, Some(300));
    /// assert_eq!(codec.decode(&mut src)?, None); // F9 announces 3 bytes
    /// assert_eq!(&src[..], [0xF9, 0x01]); // kept for the next read
    ///
    /// let mut corrupt = BytesMut::from(&[0xFF; 9][..]);
    /// let error = codec.decode(&mut corrupt).unwrap_err();
    /// assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
    /// assert_eq!(corrupt.len(), 9);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<T>> {
        match T::decode(src) {
            Ok((value, len)) => {
                src.advance(len);
                Ok(Some(value))
            }
            Err(DecodeError::Truncated { needed, available }) => {
                src.reserve(needed - available);
                Ok(None)
            }
            Err(error) => Err(error.into()),
        }
    }

    /// Like `decode`, but a partial value left at the end of the stream is
    /// `UnexpectedEof` with a [`DecodeError::Truncated`] inner error.
    ///
    /// ```
    /// use bijou_io::ValueCodec;
    /// use bytes::BytesMut;
    /// use tokio_util::codec::Decoder;
    ///
    /// let mut codec = ValueCodec::<u64>::new();
    /// let mut src = BytesMut::from(&[0x07, 0xF9, 0x01][..]);
    /// assert_eq!(codec.decode_eof(&mut src)?, Some(7));
    /// let error = codec.decode_eof(&mut src).unwrap_err();
    /// assert_eq!(error.kind(), std::io::ErrorKind::UnexpectedEof);
    /// // A clean end: nothing left over.
    /// assert_eq!(codec.decode_eof(&mut BytesMut::new())?, None);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<T>> {
        match T::decode(src) {
            Ok((value, len)) => {
                src.advance(len);
                Ok(Some(value))
            }
            Err(DecodeError::Truncated { .. }) if src.is_empty() => Ok(None),
            Err(error) => Err(error.into()),
        }
    }
}

impl<T: Bijou> Encoder<T> for ValueCodec<T> {
    type Error = io::Error;

    /// Appends the encoding of `item`; never fails.
    fn encode(&mut self, item: T, dst: &mut BytesMut) -> io::Result<()> {
        dst.put_bijou(item);
        Ok(())
    }
}
