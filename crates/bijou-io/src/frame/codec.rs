//! [`FrameCodec`]: a [`FrameDecoder`] and a [`FrameEncoder`] in one
//! `tokio_util` codec (feature `tokio`).

use std::io;

use bytes::{Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::{DEFAULT_MAX_FRAME_LEN, FrameDecoder, FrameEncoder};

/// A [`FrameDecoder`] and a [`FrameEncoder`] with the same limit, for
/// `tokio_util::codec::Framed` over a duplex stream.
///
/// # Examples
///
/// ```
/// use bijou_io::FrameCodec;
/// use bytes::{Bytes, BytesMut};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = FrameCodec::with_max_frame_len(1024);
/// let mut buf = BytesMut::new();
/// codec.encode(Bytes::from_static(b"ping"), &mut buf)?;
/// assert_eq!(codec.decode(&mut buf)?.as_deref(), Some(&b"ping"[..]));
/// assert!(codec.encode(Bytes::from(vec![0u8; 2048]), &mut buf).is_err());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameCodec {
    decoder: FrameDecoder,
    encoder: FrameEncoder,
}

impl FrameCodec {
    /// A codec with the limit [`DEFAULT_MAX_FRAME_LEN`] (16 MiB) both ways.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{DEFAULT_MAX_FRAME_LEN, FrameCodec};
    ///
    /// assert_eq!(FrameCodec::new().max_frame_len(), DEFAULT_MAX_FRAME_LEN);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self::with_max_frame_len(DEFAULT_MAX_FRAME_LEN)
    }

    /// A codec that refuses payloads longer than `max_frame_len` both when
    /// decoding and when encoding.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameCodec;
    ///
    /// assert_eq!(FrameCodec::with_max_frame_len(64).max_frame_len(), 64);
    /// ```
    #[must_use]
    pub const fn with_max_frame_len(max_frame_len: usize) -> Self {
        FrameCodec {
            decoder: FrameDecoder::with_max_frame_len(max_frame_len),
            encoder: FrameEncoder::with_max_frame_len(max_frame_len),
        }
    }

    /// The largest payload, in bytes, this codec accepts and writes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameCodec;
    ///
    /// assert_eq!(FrameCodec::with_max_frame_len(1).max_frame_len(), 1);
    /// ```
    #[must_use]
    pub const fn max_frame_len(&self) -> usize {
        self.decoder.max_frame_len()
    }
}

impl Default for FrameCodec {
    /// Same as [`FrameCodec::new`].
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder for FrameCodec {
    type Item = BytesMut;
    type Error = io::Error;

    /// As [`FrameDecoder`]'s `Decoder::decode`.
    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<BytesMut>> {
        Decoder::decode(&mut self.decoder, src)
    }

    /// As [`FrameDecoder`]'s `Decoder::decode_eof`.
    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<BytesMut>> {
        Decoder::decode_eof(&mut self.decoder, src)
    }
}

impl Encoder<Bytes> for FrameCodec {
    type Error = io::Error;

    /// As [`FrameEncoder`]'s `Encoder::encode`.
    fn encode(&mut self, item: Bytes, dst: &mut BytesMut) -> io::Result<()> {
        Encoder::encode(&mut self.encoder, item, dst)
    }
}
