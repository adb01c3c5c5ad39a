//! Length-delimited frames: a bijou64 payload length, then the payload.
//!
//! This module holds what every frame type shares: [`FrameError`], the
//! limit checks each way, and the read-ahead bound. The types live beside
//! it by the I/O they serve: `buffered` (`BytesMut`: [`FrameDecoder`],
//! [`FrameEncoder`] and their `tokio_util` impls), `io` (`std::io`:
//! [`FrameReader`], [`FrameWriter`]) and `codec` ([`FrameCodec`]).

use bijou_core::DecodeError;
use thiserror::Error;

/// The `max_frame_len` every frame type starts with: 16 MiB.
///
/// Both directions enforce it: decoders refuse a longer frame as soon as its
/// length prefix is decoded, encoders refuse to write one. Change it with
/// `with_max_frame_len`.
///
/// # Examples
///
/// ```
/// assert_eq!(bijou_io::DEFAULT_MAX_FRAME_LEN, 16 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_FRAME_LEN: usize = 16 * 1024 * 1024;

/// Why a frame could not be decoded or encoded.
///
/// With the `std` feature it converts into [`std::io::Error`]:
/// `FrameTooLarge` and `Decode` become `InvalidData`, `Truncated` becomes
/// `UnexpectedEof` and `PayloadTooLarge` (the caller's mistake, not bad
/// data) `InvalidInput`; the `FrameError`
/// is the `io::Error`'s inner error ([`get_ref`](std::io::Error::get_ref)
/// and a downcast give it back; `source()` does not, as `io::Error` passes
/// that call through to the inner error's own source).
///
/// # Examples
///
/// ```
/// use bijou_io::{FrameDecoder, FrameError};
/// use bytes::{BufMut, BytesMut};
///
/// let mut src = BytesMut::new();
/// src.put_slice(&[0xFA, 0x00, 0x00, 0x00]); // announces 66040 bytes
/// let decoder = FrameDecoder::with_max_frame_len(1024);
/// assert_eq!(decoder.decode(&mut src), Err(FrameError::FrameTooLarge { len: 66040, max: 1024 }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
#[non_exhaustive]
pub enum FrameError {
    /// Decoding: the payload length a frame announced exceeds
    /// `max_frame_len` (or `usize`). Nothing was allocated, and a
    /// [`FrameDecoder`] consumed nothing (a [`FrameReader`] has read the
    /// length prefix); the stream cannot be resynchronised without
    /// trusting the length, so close it (or raise `max_frame_len`, if the
    /// peer is trusted).
    #[error(
        "incoming frame of {len} {} is over the limit of {max} {}",
        bytes(*.len),
        bytes(*.max)
    )]
    FrameTooLarge {
        /// The payload length the frame announced.
        len: u64,
        /// The `max_frame_len` in force; with a limit within a few bytes
        /// of `usize::MAX`, the largest payload a [`FrameDecoder`]'s
        /// buffer can hold after the length prefix, `usize::MAX - header`.
        max: usize,
    },
    /// Encoding: the payload is longer than `max_frame_len`, so the peer
    /// would refuse the frame; nothing was written. Split the payload, or
    /// raise `max_frame_len` on both ends.
    #[error(
        "payload of {len} {} is over the frame limit of {max} {}",
        bytes(*.len),
        bytes(*.max)
    )]
    PayloadTooLarge {
        /// The payload's length.
        len: usize,
        /// The `max_frame_len` in force.
        max: usize,
    },
    /// The stream ended inside a frame: the peer stopped mid-frame, or the
    /// stream was cut. `needed` counts the whole frame, or only its length
    /// prefix when the cut fell inside that.
    #[error("stream ended inside a frame: {needed} {} needed, {available} arrived", bytes(*.needed))]
    Truncated {
        /// The frame's length in bytes, length prefix included; when the
        /// prefix itself was cut, the prefix's length (all that is known).
        needed: usize,
        /// The frame's bytes that arrived.
        available: usize,
    },
    /// The length prefix is corrupt: it overflows a `u64`
    /// ([`DecodeError::Overflow`]). The message includes the inner
    /// error's, so it is not also given as the
    /// [`source`](core::error::Error::source).
    #[error("bad frame length prefix: {0}")]
    Decode(DecodeError),
}

/// "byte" or "bytes", whichever agrees with `count` in a message.
fn bytes<N: PartialEq + From<u8>>(count: N) -> &'static str {
    if count == N::from(1) { "byte" } else { "bytes" }
}

impl From<DecodeError> for FrameError {
    /// A truncated value is a [`FrameError::Truncated`] frame (the value
    /// is a length prefix); any other error is [`FrameError::Decode`].
    fn from(error: DecodeError) -> Self {
        match error {
            DecodeError::Truncated { needed, available } => {
                FrameError::Truncated { needed, available }
            }
            error => FrameError::Decode(error),
        }
    }
}

#[cfg(feature = "std")]
impl From<FrameError> for std::io::Error {
    /// `FrameTooLarge` and `Decode` map to `InvalidData`, `Truncated` to
    /// `UnexpectedEof`, `PayloadTooLarge` to `InvalidInput`; the
    /// `FrameError` is the inner error.
    fn from(error: FrameError) -> Self {
        let kind = match error {
            FrameError::Truncated { .. } => std::io::ErrorKind::UnexpectedEof,
            FrameError::FrameTooLarge { .. } | FrameError::Decode(_) => {
                std::io::ErrorKind::InvalidData
            }
            FrameError::PayloadTooLarge { .. } => std::io::ErrorKind::InvalidInput,
        };
        std::io::Error::new(kind, error)
    }
}

/// Checks the payload length a `header`-byte prefix announced against
/// `max`, and converts it to `usize` such that `header + len` fits too
/// (the decoders' one limit check).
#[cfg(any(feature = "bytes", feature = "std"))]
fn checked_len(len: u64, header: usize, max: usize) -> Result<usize, FrameError> {
    let len = match usize::try_from(len) {
        Ok(len) if len <= max => len,
        _ => return Err(FrameError::FrameTooLarge { len, max }),
    };
    if header.checked_add(len).is_none() {
        // Only with a limit within a few bytes of `usize::MAX`: report the
        // limit that header and payload together allow.
        return Err(FrameError::FrameTooLarge {
            len: payload_len(len),
            max: usize::MAX - header,
        });
    }
    Ok(len)
}

/// The length of a payload as a frame header carries it.
#[cfg(any(feature = "bytes", feature = "std"))]
fn payload_len(len: usize) -> u64 {
    // usize is at most 64 bits on every target Rust supports.
    u64::try_from(len).unwrap_or(u64::MAX)
}

/// The header value for a payload made of `parts`, or the error an
/// encoder returns when it is longer than `max` (the encoders' one limit
/// check). Parts whose lengths add up past `usize` (the same memory given
/// many times on a 32-bit target) are too large, with `len` `usize::MAX`.
#[cfg(any(feature = "bytes", feature = "std"))]
fn checked_payload_len(parts: &[&[u8]], max: usize) -> Result<u64, FrameError> {
    let len = parts
        .iter()
        .try_fold(0usize, |sum, part| sum.checked_add(part.len()));
    match len {
        Some(len) if len <= max => Ok(payload_len(len)),
        len => Err(FrameError::PayloadTooLarge {
            len: len.unwrap_or(usize::MAX),
            max,
        }),
    }
}

/// How much the decoders reserve ahead for a frame's payload at most (a
/// [`FrameReader`] reserves up to the bytes it already has, if more): a
/// peer that announces a large frame and sends little makes the buffer grow
/// with what arrives, not with what was announced.
#[cfg(any(feature = "bytes", feature = "std"))]
const RESERVE_AHEAD: usize = 64 * 1024;

#[cfg(feature = "bytes")]
mod buffered;
#[cfg(feature = "tokio")]
mod codec;
#[cfg(feature = "std")]
mod io;

#[cfg(feature = "bytes")]
pub use buffered::{FrameDecoder, FrameEncoder};
#[cfg(feature = "tokio")]
pub use codec::FrameCodec;
#[cfg(feature = "std")]
pub use io::{FrameReader, FrameWriter};
