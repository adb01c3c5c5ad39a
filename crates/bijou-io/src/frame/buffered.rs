//! [`FrameDecoder`] and [`FrameEncoder`]: frames in and out of a
//! `BytesMut`, and (feature `tokio`) as `tokio_util` codecs.

use bijou_core::{Bijou, DecodeError};
use bytes::{Buf, BufMut, BytesMut};

use super::{DEFAULT_MAX_FRAME_LEN, FrameError, RESERVE_AHEAD, checked_len, checked_payload_len};
use crate::BufMutExt;

/// Splits length-delimited frames (bijou64 length, then payload) off the
/// front of a [`BytesMut`] that accumulates incoming bytes.
///
/// The decoder holds no state besides its limit: an incomplete frame is
/// simply left in the buffer until more bytes arrive. The length prefix is
/// checked against [`max_frame_len`](Self::max_frame_len) as soon as it is
/// complete, before the buffer is grown for the payload; then the decoder
/// reserves at most 64 KiB beyond the bytes that have arrived (the
/// buffer's own amortised growth aside), never the announced length.
///
/// With the `tokio` feature it is also a
/// `tokio_util::codec::Decoder<Item = BytesMut, Error = std::io::Error>`.
/// Method syntax finds the inherent [`decode`](Self::decode) first,
/// which returns a [`FrameError`]; call the trait's as
/// `Decoder::decode(&mut decoder, src)` for an `io::Error`.
///
/// # Examples
///
/// ```
/// use bijou_io::{FrameDecoder, FrameEncoder};
/// use bytes::BytesMut;
///
/// let mut wire = BytesMut::new();
/// FrameEncoder::new().encode(b"hello", &mut wire)?;
/// let mut src = wire.split_to(3); // only part of the frame has arrived
/// let decoder = FrameDecoder::new();
/// assert_eq!(decoder.decode(&mut src)?, None);
/// src.unsplit(wire); // the rest arrives
/// assert_eq!(decoder.decode(&mut src)?.as_deref(), Some(&b"hello"[..]));
/// assert!(src.is_empty());
/// # Ok::<(), bijou_io::FrameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameDecoder {
    max_frame_len: usize,
}

impl FrameDecoder {
    /// A decoder with the limit [`DEFAULT_MAX_FRAME_LEN`] (16 MiB).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{DEFAULT_MAX_FRAME_LEN, FrameDecoder};
    ///
    /// assert_eq!(FrameDecoder::new().max_frame_len(), DEFAULT_MAX_FRAME_LEN);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self::with_max_frame_len(DEFAULT_MAX_FRAME_LEN)
    }

    /// A decoder that refuses payloads longer than `max_frame_len` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameDecoder;
    ///
    /// assert_eq!(FrameDecoder::with_max_frame_len(4096).max_frame_len(), 4096);
    /// ```
    #[must_use]
    pub const fn with_max_frame_len(max_frame_len: usize) -> Self {
        FrameDecoder { max_frame_len }
    }

    /// The largest payload, in bytes, this decoder accepts.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameDecoder;
    ///
    /// assert_eq!(FrameDecoder::with_max_frame_len(0).max_frame_len(), 0);
    /// ```
    #[must_use]
    pub const fn max_frame_len(&self) -> usize {
        self.max_frame_len
    }

    /// Splits the next complete frame's payload off the front of `src`.
    ///
    /// Returns `Ok(Some(payload))` and removes the frame (length prefix
    /// and payload) from `src`, or `Ok(None)` when `src` does not hold a
    /// whole frame yet: then nothing is consumed, and a full `src` is
    /// reserved room for the rest of the frame, up to 64 KiB of it, so
    /// the caller can read into it and call again. An announced length
    /// costs memory only as its bytes arrive: the decoder's own
    /// reservations hold `src` within 64 KiB of the bytes received, or
    /// twice them past 64 KiB (`BytesMut` grows a full buffer by
    /// doubling).
    ///
    /// # Errors
    ///
    /// - [`FrameError::FrameTooLarge`] as soon as the length prefix is
    ///   complete and exceeds `max_frame_len` (or `usize`); nothing is
    ///   consumed and nothing reserved.
    /// - [`FrameError::Decode`] with [`DecodeError::Overflow`] for a
    ///   corrupt length prefix; nothing is consumed.
    ///
    /// Either way the stream cannot go on: close it.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameDecoder;
    /// use bytes::BytesMut;
    ///
    /// let mut src = BytesMut::from(&[0x02, b'h', b'i', 0x00, 0x05][..]);
    /// let decoder = FrameDecoder::new();
    /// assert_eq!(decoder.decode(&mut src)?.as_deref(), Some(&b"hi"[..]));
    /// assert_eq!(decoder.decode(&mut src)?.as_deref(), Some(&b""[..]));
    /// assert_eq!(decoder.decode(&mut src)?, None); // 5 bytes announced, none here
    /// assert_eq!(&src[..], &[0x05]);
    /// # Ok::<(), bijou_io::FrameError>(())
    /// ```
    pub fn decode(&self, src: &mut BytesMut) -> Result<Option<BytesMut>, FrameError> {
        let (len, header) = match u64::decode(src) {
            Ok(decoded) => decoded,
            Err(DecodeError::Truncated { needed, available }) => {
                src.reserve(needed - available);
                return Ok(None);
            }
            Err(error) => return Err(error.into()),
        };
        let len = checked_len(len, header, self.max_frame_len)?;
        let total = header + len;
        if src.len() < total {
            // Only into a full buffer: topping up one that has room
            // left would make `BytesMut` double it.
            if src.len() == src.capacity() {
                src.reserve((total - src.len()).min(RESERVE_AHEAD));
            }
            return Ok(None);
        }
        let mut frame = src.split_to(total);
        frame.advance(header);
        Ok(Some(frame))
    }

    /// [`decode`](Self::decode) for the end of the stream: after the last
    /// frame, `src` must be empty.
    ///
    /// Returns the next frame like `decode`, or `Ok(None)` when `src` is
    /// empty (a clean end of stream).
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode), plus [`FrameError::Truncated`] when
    /// `src` holds part of a frame; `src` is left as it was. Its
    /// `needed` counts the whole frame, or only the length prefix when
    /// the prefix itself was cut (the payload's length is unknown then).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{FrameDecoder, FrameError};
    /// use bytes::BytesMut;
    ///
    /// let mut src = BytesMut::from(&[0x03, b'a'][..]);
    /// assert_eq!(
    ///     FrameDecoder::new().decode_eof(&mut src),
    ///     Err(FrameError::Truncated { needed: 4, available: 2 }),
    /// );
    ///
    /// // 0xFF starts a 9-byte length prefix, and the stream ends there.
    /// let cut_prefix = FrameDecoder::new().decode_eof(&mut BytesMut::from(&[0xFF][..]));
    /// assert_eq!(cut_prefix, Err(FrameError::Truncated { needed: 9, available: 1 }));
    /// assert_eq!(
    ///     cut_prefix.unwrap_err().to_string(),
    ///     "stream ended inside a frame: 9 bytes needed, 1 arrived",
    /// );
    /// ```
    pub fn decode_eof(&self, src: &mut BytesMut) -> Result<Option<BytesMut>, FrameError> {
        if let Some(frame) = self.decode(src)? {
            return Ok(Some(frame));
        }
        if src.is_empty() {
            return Ok(None);
        }
        let needed = match u64::decode(src) {
            // `decode` accepted the length, so it fits `usize` and the limit.
            Ok((len, header)) => header + checked_len(len, header, self.max_frame_len)?,
            Err(DecodeError::Truncated { needed, .. }) => needed,
            Err(error) => return Err(error.into()),
        };
        Err(FrameError::Truncated {
            needed,
            available: src.len(),
        })
    }
}

impl Default for FrameDecoder {
    /// Same as [`FrameDecoder::new`].
    fn default() -> Self {
        Self::new()
    }
}

/// Appends length-delimited frames (bijou64 length, then payload) to a
/// [`BytesMut`].
///
/// Payloads longer than [`max_frame_len`](Self::max_frame_len) are
/// refused, so a peer using the same limit never sees a frame it would
/// reject.
///
/// With the `tokio` feature it is also a
/// `tokio_util::codec::Encoder<Bytes, Error = std::io::Error>`.
/// Method syntax finds the inherent [`encode`](Self::encode) first,
/// which returns a [`FrameError`]; call the trait's as
/// `Encoder::encode(&mut encoder, item, dst)` for an `io::Error`.
///
/// # Examples
///
/// ```
/// use bijou_io::FrameEncoder;
/// use bytes::BytesMut;
///
/// let mut dst = BytesMut::new();
/// let encoder = FrameEncoder::new();
/// encoder.encode(b"hi", &mut dst)?;
/// encoder.encode(&[0u8; 300], &mut dst)?;
/// assert_eq!(&dst[..3], &[0x02, b'h', b'i']);
/// assert_eq!(&dst[3..5], &[0xF8, 0x34]); // 300
/// # Ok::<(), bijou_io::FrameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameEncoder {
    max_frame_len: usize,
}

impl FrameEncoder {
    /// An encoder with the limit [`DEFAULT_MAX_FRAME_LEN`] (16 MiB).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{DEFAULT_MAX_FRAME_LEN, FrameEncoder};
    ///
    /// assert_eq!(FrameEncoder::new().max_frame_len(), DEFAULT_MAX_FRAME_LEN);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self::with_max_frame_len(DEFAULT_MAX_FRAME_LEN)
    }

    /// An encoder that refuses payloads longer than `max_frame_len` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameEncoder;
    ///
    /// assert_eq!(FrameEncoder::with_max_frame_len(4096).max_frame_len(), 4096);
    /// ```
    #[must_use]
    pub const fn with_max_frame_len(max_frame_len: usize) -> Self {
        FrameEncoder { max_frame_len }
    }

    /// The largest payload, in bytes, this encoder writes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameEncoder;
    ///
    /// assert_eq!(FrameEncoder::with_max_frame_len(7).max_frame_len(), 7);
    /// ```
    #[must_use]
    pub const fn max_frame_len(&self) -> usize {
        self.max_frame_len
    }

    /// Appends one frame carrying `payload` to `dst`: its length as
    /// bijou64, then the payload. `dst` grows as needed.
    ///
    /// # Errors
    ///
    /// [`FrameError::PayloadTooLarge`] when `payload` is longer than
    /// `max_frame_len`; nothing is written then.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{FrameEncoder, FrameError};
    /// use bytes::BytesMut;
    ///
    /// let mut dst = BytesMut::new();
    /// let encoder = FrameEncoder::with_max_frame_len(4);
    /// assert_eq!(encoder.encode(b"12345", &mut dst), Err(FrameError::PayloadTooLarge { len: 5, max: 4 }));
    /// assert!(dst.is_empty());
    /// ```
    pub fn encode(&self, payload: &[u8], dst: &mut BytesMut) -> Result<(), FrameError> {
        self.encode_vectored(&[payload], dst)
    }

    /// Appends one frame whose payload is `parts`, one after another, to
    /// `dst`: [`encode`](Self::encode) for a payload in pieces, without
    /// joining them first.
    ///
    /// # Errors
    ///
    /// [`FrameError::PayloadTooLarge`] when the parts together are longer
    /// than `max_frame_len`; nothing is written then.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{FrameDecoder, FrameEncoder};
    /// use bytes::BytesMut;
    ///
    /// let mut dst = BytesMut::new();
    /// FrameEncoder::new().encode_vectored(&[b"head:", b"body"], &mut dst)?;
    /// assert_eq!(FrameDecoder::new().decode(&mut dst)?.as_deref(), Some(&b"head:body"[..]));
    /// # Ok::<(), bijou_io::FrameError>(())
    /// ```
    pub fn encode_vectored(&self, parts: &[&[u8]], dst: &mut BytesMut) -> Result<(), FrameError> {
        let len = checked_payload_len(parts, self.max_frame_len)?;
        // checked_payload_len made the payload's length fit `usize`.
        dst.reserve(len.encoded_len() + len as usize);
        dst.put_bijou(len);
        for part in parts {
            dst.put_slice(part);
        }
        Ok(())
    }
}

impl Default for FrameEncoder {
    /// Same as [`FrameEncoder::new`].
    fn default() -> Self {
        Self::new()
    }
}

/// The `tokio_util` codec impls, which convert the [`FrameError`] into an
/// [`std::io::Error`] (kept as its inner error).
#[cfg(feature = "tokio")]
mod tokio_codec {
    use std::io;

    use bytes::{Bytes, BytesMut};
    use tokio_util::codec::{Decoder, Encoder};

    use super::{FrameDecoder, FrameEncoder};

    impl Decoder for FrameDecoder {
        type Item = BytesMut;
        type Error = io::Error;

        /// [`FrameDecoder::decode`], with the [`FrameError`](crate::FrameError)
        /// converted into an [`io::Error`] (kept as its inner error).
        fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<BytesMut>> {
            FrameDecoder::decode(self, src).map_err(io::Error::from)
        }

        /// [`FrameDecoder::decode_eof`]: a partial frame at the end of the
        /// stream is `UnexpectedEof`.
        ///
        /// ```
        /// use bijou_io::FrameDecoder;
        /// use bytes::BytesMut;
        /// use tokio_util::codec::Decoder;
        ///
        /// let mut decoder = FrameDecoder::new();
        /// let mut src = BytesMut::from(&b"\x02hi\x05abc"[..]);
        /// assert_eq!(Decoder::decode_eof(&mut decoder, &mut src)?.as_deref(), Some(&b"hi"[..]));
        /// let error = Decoder::decode_eof(&mut decoder, &mut src).unwrap_err();
        /// assert_eq!(error.kind(), std::io::ErrorKind::UnexpectedEof);
        /// # Ok::<(), std::io::Error>(())
        /// ```
        fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<BytesMut>> {
            FrameDecoder::decode_eof(self, src).map_err(io::Error::from)
        }
    }

    /// One item type only (`Bytes`, like `tokio_util`'s `LengthDelimitedCodec`),
    /// so `SinkExt::flush`/`close` on a `FramedWrite` infer it; convert with
    /// `Bytes::from(vec)` or `Bytes::from_static`.
    impl Encoder<Bytes> for FrameEncoder {
        type Error = io::Error;

        /// [`FrameEncoder::encode`]; a payload over the limit is `InvalidInput`
        /// with [`FrameError::PayloadTooLarge`](crate::FrameError::PayloadTooLarge)
        /// as the inner error.
        fn encode(&mut self, item: Bytes, dst: &mut BytesMut) -> io::Result<()> {
            FrameEncoder::encode(self, &item, dst).map_err(io::Error::from)
        }
    }
}
