//! Single values over tokio's `AsyncRead` and `AsyncWrite` (feature
//! `tokio`): the async forms of [`ReadExt`](crate::ReadExt) and
//! [`WriteExt`](crate::WriteExt), with the same rules.

use core::future::Future;
use core::marker::PhantomData;
use core::pin::Pin;
use core::task::{Context, Poll, ready};
use std::io::{self, ErrorKind};

use bijou_core::{Bijou, DecodeError, Encoded, MAX_ENCODED_LEN};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::io::{Transfer, error_at, value_required};

/// Reads bijou values from a tokio [`AsyncRead`], one value per call: the
/// async form of [`ReadExt`](crate::ReadExt).
///
/// Each future reads the tag byte, then exactly the bytes it announces,
/// and nothing more; `Interrupted` is retried. Its errors are
/// [`ReadExt`](crate::ReadExt)'s: `UnexpectedEof` inside a value,
/// `InvalidData` on overflow, and an error of the reader after a value's
/// first byte wrapped in a [`MidValueError`](crate::MidValueError).
///
/// # Cancel safety
///
/// The futures are not cancel-safe: one dropped after a value's first
/// byte (by `select!` or a timeout) loses the bytes it read, and the
/// stream is then inside a value. Where a read may be cancelled, decode
/// with `FramedRead` and [`ValueCodec`](crate::ValueCodec), which keep a
/// partial value in their buffer.
///
/// # Examples
///
/// ```
/// use bijou_io::{AsyncReadBijouExt, AsyncWriteBijouExt};
///
/// # let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
/// # runtime.block_on(async {
/// let mut wire = Vec::new();
/// wire.write_bijou(300u64).await?;
/// wire.write_bijou(-7i32).await?;
/// let mut reader = &wire[..];
/// assert_eq!(reader.read_bijou::<u64>().await?, 300);
/// assert_eq!(reader.try_read_bijou::<i32>().await?, Some(-7));
/// assert_eq!(reader.try_read_bijou::<u64>().await?, None); // clean end
/// # Ok::<(), std::io::Error>(())
/// # }).unwrap();
/// ```
pub trait AsyncReadBijouExt: AsyncRead {
    /// Reads one value of width `T`; the end of the stream before it is
    /// `UnexpectedEof`, as in [`ReadExt::read_bijou`](crate::ReadExt::read_bijou).
    ///
    /// # Errors
    ///
    /// As [`ReadExt::read_bijou`](crate::ReadExt::read_bijou).
    fn read_bijou<T: Bijou>(&mut self) -> ReadBijou<'_, Self, T>
    where
        Self: Unpin,
    {
        ReadBijou {
            value: ValueRead::new(self),
        }
    }

    /// Reads one value of width `T`, or `None` when the stream ends
    /// cleanly before its first byte, as in
    /// [`ReadExt::try_read_bijou`](crate::ReadExt::try_read_bijou).
    ///
    /// # Errors
    ///
    /// As [`ReadExt::try_read_bijou`](crate::ReadExt::try_read_bijou).
    fn try_read_bijou<T: Bijou>(&mut self) -> TryReadBijou<'_, Self, T>
    where
        Self: Unpin,
    {
        TryReadBijou {
            value: ValueRead::new(self),
        }
    }
}

impl<R: AsyncRead + ?Sized> AsyncReadBijouExt for R {}

/// Writes bijou values to a tokio [`AsyncWrite`]: the async form of
/// [`WriteExt`](crate::WriteExt).
///
/// Each future writes the whole encoding (`Interrupted` is retried, a
/// writer that takes nothing is `WriteZero`) and does not flush. An error
/// of the writer after the encoding's first byte went out comes wrapped in
/// a [`MidValueError`](crate::MidValueError), as for
/// [`WriteExt`](crate::WriteExt). Not cancel-safe: a future dropped after
/// the first byte leaves the output inside the value.
///
/// A type that is both `std::io::Write` and `AsyncWrite` (`Vec<u8>`) has
/// two `write_bijou` methods when both traits are in scope; name the one
/// meant, as in `AsyncWriteBijouExt::write_bijou(&mut out, value)`.
///
/// # Examples
///
/// ```
/// use bijou_io::AsyncWriteBijouExt;
///
/// # let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
/// # runtime.block_on(async {
/// let mut wire = Vec::new();
/// assert_eq!(wire.write_bijou(300u64).await?, 2);
/// assert_eq!(wire, [0xF8, 0x34]);
/// # Ok::<(), std::io::Error>(())
/// # }).unwrap();
/// ```
pub trait AsyncWriteBijouExt: AsyncWrite {
    /// Writes the encoding of `value`; the future's output is its length
    /// in bytes.
    ///
    /// # Errors
    ///
    /// As [`WriteExt::write_bijou`](crate::WriteExt::write_bijou).
    fn write_bijou<T: Bijou>(&mut self, value: T) -> WriteBijou<'_, Self>
    where
        Self: Unpin,
    {
        WriteBijou {
            writer: self,
            encoded: value.encoded(),
            written: 0,
        }
    }
}

impl<W: AsyncWrite + ?Sized> AsyncWriteBijouExt for W {}

/// A value being read: the bytes so far live here, between polls.
#[derive(Debug)]
struct ValueRead<'a, R: ?Sized, T> {
    reader: &'a mut R,
    bytes: [u8; MAX_ENCODED_LEN],
    filled: usize,
    width: PhantomData<fn() -> T>,
}

impl<'a, R: AsyncRead + Unpin + ?Sized, T: Bijou> ValueRead<'a, R, T> {
    fn new(reader: &'a mut R) -> Self {
        ValueRead {
            reader,
            bytes: [0; MAX_ENCODED_LEN],
            filled: 0,
            width: PhantomData,
        }
    }

    /// The value, or `None` at a clean end of stream.
    fn poll_value(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<Option<T>>> {
        loop {
            let needed = match self.filled {
                0 => 1,
                _ => T::len_from_tag(self.bytes[0]),
            };
            if self.filled == needed {
                return Poll::Ready(match T::decode(&self.bytes[..needed]) {
                    Ok((value, _)) => Ok(Some(value)),
                    Err(error) => Err(error.into()),
                });
            }
            let mut buf = ReadBuf::new(&mut self.bytes[self.filled..needed]);
            match ready!(Pin::new(&mut *self.reader).poll_read(cx, &mut buf)) {
                Err(error) if error.kind() == ErrorKind::Interrupted => {}
                Err(error) => {
                    let error = error_at(error, self.filled, needed, Transfer::ReadValue);
                    return Poll::Ready(Err(error));
                }
                Ok(()) => match buf.filled().len() {
                    0 if self.filled == 0 => return Poll::Ready(Ok(None)),
                    0 => {
                        let available = self.filled;
                        return Poll::Ready(Err(
                            DecodeError::Truncated { needed, available }.into()
                        ));
                    }
                    read => self.filled += read,
                },
            }
        }
    }
}

/// The future of [`AsyncReadBijouExt::read_bijou`].
#[derive(Debug)]
#[must_use = "futures do nothing unless polled"]
pub struct ReadBijou<'a, R: ?Sized, T> {
    value: ValueRead<'a, R, T>,
}

impl<R: AsyncRead + Unpin + ?Sized, T: Bijou> Future for ReadBijou<'_, R, T> {
    type Output = io::Result<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        Poll::Ready(value_required(ready!(self.value.poll_value(cx))))
    }
}

/// The future of [`AsyncReadBijouExt::try_read_bijou`].
#[derive(Debug)]
#[must_use = "futures do nothing unless polled"]
pub struct TryReadBijou<'a, R: ?Sized, T> {
    value: ValueRead<'a, R, T>,
}

impl<R: AsyncRead + Unpin + ?Sized, T: Bijou> Future for TryReadBijou<'_, R, T> {
    type Output = io::Result<Option<T>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<Option<T>>> {
        self.value.poll_value(cx)
    }
}

/// The future of [`AsyncWriteBijouExt::write_bijou`].
#[derive(Debug)]
#[must_use = "futures do nothing unless polled"]
pub struct WriteBijou<'a, W: ?Sized> {
    writer: &'a mut W,
    encoded: Encoded,
    written: usize,
}

impl<W: AsyncWrite + Unpin + ?Sized> Future for WriteBijou<'_, W> {
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let len = this.encoded.len();
        while this.written < len {
            let rest = &this.encoded[this.written..];
            let error = match ready!(Pin::new(&mut *this.writer).poll_write(cx, rest)) {
                Ok(0) => io::Error::new(ErrorKind::WriteZero, "failed to write whole buffer"),
                Ok(taken) => {
                    this.written += taken.min(rest.len());
                    continue;
                }
                Err(error) if error.kind() == ErrorKind::Interrupted => continue,
                Err(error) => error,
            };
            let error = error_at(error, this.written, len, Transfer::WriteValue);
            return Poll::Ready(Err(error));
        }
        Poll::Ready(Ok(len))
    }
}
