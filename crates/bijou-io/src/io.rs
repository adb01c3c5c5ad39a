//! `std::io::Read` and `std::io::Write` extensions.

use std::fmt;
use std::io::{self, ErrorKind, IoSlice, Read, Write};

use bijou_core::{Bijou, DecodeError, MAX_ENCODED_LEN};
use thiserror::Error;

/// Stamps out `read_<width>` and `try_read_<width>` for every width.
macro_rules! read_ext_named {
    ($($name:ident: $ty:ty => [$try_get:ident, $get:ident, $put:ident, $read:ident, $try_read:ident, $write:ident],)*) => {$(
        #[doc = concat!("[`read_bijou::<", stringify!($ty), ">()`](Self::read_bijou) for [`", stringify!($name), "`](bijou_core::", stringify!($name), "), the width in the name.")]
        #[inline]
        fn $read(&mut self) -> io::Result<$ty> {
            self.read_bijou()
        }

        #[doc = concat!("[`try_read_bijou::<", stringify!($ty), ">()`](Self::try_read_bijou) for [`", stringify!($name), "`](bijou_core::", stringify!($name), "), the width in the name.")]
        #[inline]
        fn $try_read(&mut self) -> io::Result<Option<$ty>> {
            self.try_read_bijou()
        }
    )*};
}

/// Stamps out `write_<width>` for every width.
macro_rules! write_ext_named {
    ($($name:ident: $ty:ty => [$try_get:ident, $get:ident, $put:ident, $read:ident, $try_read:ident, $write:ident],)*) => {$(
        #[doc = concat!("[`write_bijou::<", stringify!($ty), ">(value)`](Self::write_bijou) for [`", stringify!($name), "`](bijou_core::", stringify!($name), "), the width in the name.")]
        #[inline]
        fn $write(&mut self, value: $ty) -> io::Result<usize> {
            self.write_bijou(value)
        }
    )*};
}

/// Reads bijou values from any [`std::io::Read`], one value per call.
///
/// Each call reads the tag byte, then exactly the payload the tag announces,
/// and nothing more, so the stream stays positioned for whoever reads next
/// (no read-ahead, no buffering: wrap slow sources such as sockets or files
/// in a [`BufReader`](std::io::BufReader)). [`ErrorKind::Interrupted`] is
/// retried.
///
/// The reader holds no state between calls, so an error of the reader
/// (other than `Interrupted`) after a value's first byte loses the bytes
/// read of it and leaves the stream inside the value. Such an error never
/// comes back bare: it is wrapped in a [`MidValueError`], and a `WouldBlock`
/// or `TimedOut` becomes [`ErrorKind::Other`], so a loop that retries on
/// those stops instead of decoding payload bytes as values. An error before
/// the first byte is returned as is, and retrying then is safe. When input
/// arrives in pieces that must not be lost (a non-blocking source), push
/// them through a [`StreamDecoder`](crate::StreamDecoder) instead.
///
/// The generic [`read_bijou`](Self::read_bijou) and
/// [`try_read_bijou`](Self::try_read_bijou) serve all six widths; the named
/// ones (`read_bijou64`, `try_read_bijou32s`, …) are shorthands for them.
/// [Names](crate#names) says why both exist and what `try_` means.
///
/// # Examples
///
/// ```
/// use std::io::Read;
/// use bijou_io::ReadExt;
///
/// let mut reader: &[u8] = &[0xF8, 0x34, 0x01, b'h', b'i'];
/// assert_eq!(reader.read_bijou64()?, 300);
/// assert_eq!(reader.read_bijou::<i32>()?, -1);
/// let mut rest = String::new();
/// reader.read_to_string(&mut rest)?; // the values' bytes and no others were taken
/// assert_eq!(rest, "hi");
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait ReadExt: Read {
    /// Reads exactly one value of width `T`.
    ///
    /// The stream advances by the value's `T::len_from_tag(tag)` bytes only.
    ///
    /// # Errors
    ///
    /// - [`ErrorKind::UnexpectedEof`] when the stream ends before the tag or
    ///   inside the value; the inner error is a [`DecodeError::Truncated`].
    /// - [`ErrorKind::InvalidData`] when the value overflows `T`; the inner
    ///   error is [`DecodeError::Overflow`], and the value's bytes were consumed.
    /// - Any other error of the reader before the value's first byte, as is
    ///   (`Interrupted` is retried).
    /// - Any other error of the reader after it, with a [`MidValueError`] as
    ///   the inner error and the reader's error kind, or [`ErrorKind::Other`]
    ///   for `WouldBlock` and `TimedOut`: the stream is inside the value, and
    ///   the bytes read of it are lost.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use bijou_io::{DecodeError, ReadExt};
    ///
    /// let mut reader: &[u8] = &[0xFD, 0x00, 0x5B, 0xF9, 0x01];
    /// assert_eq!(reader.read_bijou::<i32>()?, -300);
    ///
    /// let error = reader.read_bijou::<u64>().unwrap_err();
    /// assert_eq!(error.kind(), ErrorKind::UnexpectedEof);
    /// let source = error.get_ref().and_then(|e| e.downcast_ref::<DecodeError>());
    /// assert_eq!(source, Some(&DecodeError::Truncated { needed: 3, available: 2 }));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[inline]
    fn read_bijou<T: Bijou>(&mut self) -> io::Result<T> {
        value_required(read_value(self))
    }

    /// Reads one value of width `T`, or `Ok(None)` when the stream ends
    /// cleanly before its first byte.
    ///
    /// The stream advances by the value's `T::len_from_tag(tag)` bytes only;
    /// loop until `None` to drain a stream of values.
    ///
    /// # Errors
    ///
    /// - [`ErrorKind::UnexpectedEof`] when the stream ends after the tag but
    ///   inside the value; the inner error is a [`DecodeError::Truncated`].
    /// - [`ErrorKind::InvalidData`] when the value overflows `T`; the inner
    ///   error is [`DecodeError::Overflow`], and the value's bytes were consumed.
    /// - Any other error of the reader, as [`read_bijou`](Self::read_bijou)
    ///   returns it: as is before the value's first byte (`Interrupted` is
    ///   retried), with a [`MidValueError`] inside after it.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::ReadExt;
    ///
    /// let mut reader: &[u8] = &[0x01, 0x02, 0xFC, 0x00];
    /// let mut values = Vec::new();
    /// while let Some(value) = reader.try_read_bijou::<u32>()? {
    ///     values.push(value);
    /// }
    /// assert_eq!(values, [1, 2, 252]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[inline]
    fn try_read_bijou<T: Bijou>(&mut self) -> io::Result<Option<T>> {
        read_value(self)
    }

    with_widths!(read_ext_named);
}

impl<R: Read + ?Sized> ReadExt for R {}

/// Writes bijou values to any [`std::io::Write`].
///
/// Each call writes the whole encoding as [`Write::write_all`] would
/// (`Interrupted` is retried, a writer that takes nothing is `WriteZero`);
/// wrap unbuffered sinks in a [`BufWriter`](std::io::BufWriter).
///
/// Unlike `write_all`, it tells how far it got: an error of the writer
/// after the encoding's first byte went out leaves the output inside the
/// value, and comes wrapped in a [`MidValueError`], a `WouldBlock` or
/// `TimedOut` turned into [`ErrorKind::Other`], so a loop that retries on
/// those stops instead of writing a second value into the first. An error
/// before the first byte is returned as is, and retrying then is safe. For
/// a non-blocking sink, encode into your own buffer
/// ([`BufMutExt`](crate::BufMutExt)) and write that out.
///
/// The generic [`write_bijou`](Self::write_bijou) serves all six widths;
/// the named methods (`write_bijou64`, …) are shorthands for it.
/// [Names](crate#names) says why both exist.
///
/// # Examples
///
/// ```
/// use bijou_io::WriteExt;
///
/// let mut wire = Vec::new();
/// assert_eq!(wire.write_bijou64(300)?, 2);
/// assert_eq!(wire.write_bijou(-1i128)?, 1);
/// assert_eq!(wire, [0xF8, 0x34, 0x01]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait WriteExt: Write {
    /// Writes the encoding of `value` and returns its length in bytes.
    ///
    /// # Errors
    ///
    /// - An error of the writer before the encoding's first byte went out,
    ///   as is (`Interrupted` is retried); `WriteZero` when the writer takes
    ///   no byte of it.
    /// - An error after that, with a [`MidValueError`] as the inner error and
    ///   the writer's error kind, or [`ErrorKind::Other`] for `WouldBlock`
    ///   and `TimedOut`: part of the encoding was written, and the output is
    ///   inside the value.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::WriteExt;
    ///
    /// let mut wire = Vec::new();
    /// assert_eq!(wire.write_bijou(u64::MAX)?, 9);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[inline]
    fn write_bijou<T: Bijou>(&mut self, value: T) -> io::Result<usize> {
        let encoded = value.encoded();
        write_item(self, &encoded, &[], Transfer::WriteValue)?;
        Ok(encoded.len())
    }

    with_widths!(write_ext_named);
}

impl<W: Write + ?Sized> WriteExt for W {}

/// An error of the inner reader or writer after part of a value (or frame)
/// had gone through: the stream is no longer at a value boundary.
///
/// [`ReadExt`], [`WriteExt`] and [`FrameWriter`](crate::FrameWriter) hold
/// no state between calls. After a read error inside a value, the bytes
/// read of it are lost and the next read would start inside the value;
/// after a write error inside one, the output holds part of it and the next
/// write would land inside it. Reporting the inner error bare would invite a
/// retry (on `WouldBlock` above all) that goes on out of step without any
/// error, so an error after a value's first byte is returned as an
/// [`io::Error`] with this as its inner error
/// ([`get_ref`](io::Error::get_ref) and a downcast give it back). The
/// `io::Error`'s kind is that of the reader's or writer's error, except
/// that the kinds that invite a retry, `WouldBlock` and `TimedOut`, become
/// [`ErrorKind::Other`]. An error before the value's first byte is returned
/// as is: nothing went through, and retrying is safe.
///
/// For input that arrives in pieces, such as a non-blocking socket's, use a
/// [`StreamDecoder`](crate::StreamDecoder), which keeps a partial value
/// between pieces (or a [`FrameReader`](crate::FrameReader) for frames);
/// for a non-blocking sink, encode into your own buffer
/// ([`BufMutExt`](crate::BufMutExt), [`FrameEncoder`](crate::FrameEncoder))
/// and write that out.
///
/// # Examples
///
/// Telling a `WouldBlock` before a value, which is safe to retry, from one
/// inside it:
///
/// ```
/// use std::io::{self, ErrorKind, Read};
/// use bijou_io::{MidValueError, ReadExt};
///
/// /// Hands out one byte a call, with `WouldBlock` before each.
/// struct NotAlwaysReady { bytes: &'static [u8], ready: bool }
///
/// impl Read for NotAlwaysReady {
///     fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
///         self.ready = !self.ready;
///         if !self.ready {
///             return Err(ErrorKind::WouldBlock.into());
///         }
///         let len = out.len().min(self.bytes.len()).min(1);
///         out[..len].copy_from_slice(&self.bytes[..len]);
///         self.bytes = &self.bytes[len..];
///         Ok(len)
///     }
/// }
///
/// // 300, then 7: the `WouldBlock` before 300's second byte strikes mid-value.
/// let mut source = NotAlwaysReady { bytes: &[0xF8, 0x34, 0x07], ready: true };
/// let error = loop {
///     match source.try_read_bijou64() {
///         Ok(value) => panic!("decoded {value:?} from a stream out of step"),
///         // Before the value's first byte: nothing lost, wait and retry.
///         Err(error) if error.kind() == ErrorKind::WouldBlock => continue,
///         Err(error) => break error,
///     }
/// };
/// assert_eq!(error.kind(), ErrorKind::Other);
/// let cut = error.get_ref().and_then(|e| e.downcast_ref::<MidValueError>());
/// let cut = cut.expect("an error inside a value is a MidValueError");
/// assert_eq!((cut.transferred, cut.len), (1, 2));
/// assert_eq!(cut.source.kind(), ErrorKind::WouldBlock);
/// ```
///
/// A write cut short, here by a full buffer, is one too:
///
/// ```
/// use std::io::ErrorKind;
/// use bijou_io::{MidValueError, WriteExt};
///
/// let mut storage = [0u8; 1];
/// let error = (&mut storage[..]).write_bijou(300u64).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::WriteZero);
/// let cut = error.get_ref().and_then(|e| e.downcast_ref::<MidValueError>());
/// assert!(matches!(cut, Some(MidValueError { transferred: 1, len: 2, .. })));
///
/// // Nothing written at all: the writer's error as is, safe to retry.
/// let error = (&mut [][..]).write_bijou(300u64).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::WriteZero);
/// assert!(error.get_ref().and_then(|e| e.downcast_ref::<MidValueError>()).is_none());
/// ```
#[derive(Debug, Error)]
#[error("{transfer} failed after {transferred} of its {len} bytes; {}", .transfer.consequence())]
pub struct MidValueError {
    /// How many of the value's bytes went through before the error: were
    /// read, or were taken by the writer.
    pub transferred: usize,
    /// The value's length in bytes (a frame's: length prefix and payload).
    pub len: usize,
    /// The error of the inner reader or writer.
    #[source]
    pub source: io::Error,
    /// What was under way, for the message.
    transfer: Transfer,
}

/// What a [`MidValueError`] interrupted.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Transfer {
    /// [`ReadExt`] reading a value.
    ReadValue,
    /// [`WriteExt`] writing a value.
    WriteValue,
    /// [`FrameWriter`](crate::FrameWriter) writing a frame.
    WriteFrame,
}

/// The start of the message: what failed.
impl fmt::Display for Transfer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Transfer::ReadValue => "reading a bijou value",
            Transfer::WriteValue => "writing a bijou value",
            Transfer::WriteFrame => "writing a frame",
        })
    }
}

impl Transfer {
    /// Where that leaves the stream.
    fn consequence(self) -> &'static str {
        match self {
            Transfer::ReadValue => "the stream is out of step",
            Transfer::WriteValue | Transfer::WriteFrame => "the output is out of step",
        }
    }
}

/// The error to return for `source`, which struck after `transferred` of a
/// `len`-byte value had gone through: `source` itself before the first
/// byte (a retry is safe), a [`MidValueError`] after it, whose kind does
/// not invite a retry.
pub(crate) fn error_at(
    source: io::Error,
    transferred: usize,
    len: usize,
    transfer: Transfer,
) -> io::Error {
    if transferred == 0 {
        return source;
    }
    let kind = match source.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => ErrorKind::Other,
        kind => kind,
    };
    let error = MidValueError {
        transferred,
        len,
        source,
        transfer,
    };
    io::Error::new(kind, error)
}

/// A read that needed a value: a clean end before its first byte is a
/// truncation (one byte needed, none available), as for a cut value.
pub(crate) fn value_required<T>(read: io::Result<Option<T>>) -> io::Result<T> {
    read?.ok_or_else(|| {
        DecodeError::Truncated {
            needed: 1,
            available: 0,
        }
        .into()
    })
}

/// Reads the tag, then exactly the rest of the value; `None` at a clean end
/// of stream.
#[inline]
pub(crate) fn read_value<T: Bijou, R: Read + ?Sized>(reader: &mut R) -> io::Result<Option<T>> {
    let Some(tag) = read_tag(reader)? else {
        return Ok(None);
    };
    let needed = T::len_from_tag(tag);
    if needed == 1 {
        // Most values in most streams: skip building the buffer, which
        // costs more than the value itself through a `Cursor`.
        return decode_value(&[tag]);
    }
    let mut bytes = [0u8; MAX_ENCODED_LEN];
    bytes[0] = tag;
    read_payload(reader, &mut bytes[..needed])?;
    decode_value(&bytes[..needed])
}

/// The value of a complete `encoding`, as the readers return it.
#[inline(always)]
fn decode_value<T: Bijou>(encoding: &[u8]) -> io::Result<Option<T>> {
    match T::decode(encoding) {
        Ok((value, _)) => Ok(Some(value)),
        Err(error) => Err(error.into()),
    }
}

/// Calls `call` again for as long as it fails with `Interrupted`, as std's
/// `read_exact` and `write_all` do.
#[inline]
fn retrying_interrupted<T>(mut call: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    loop {
        match call() {
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            result => return result,
        }
    }
}

/// One `read` into `out`, retrying `Interrupted`: how many bytes arrived
/// (at most `out.len()`, even from a reader that claims more), 0 at end of
/// stream.
#[inline]
pub(crate) fn read_some<R: Read + ?Sized>(reader: &mut R, out: &mut [u8]) -> io::Result<usize> {
    let read = retrying_interrupted(|| reader.read(out))?;
    Ok(read.min(out.len()))
}

/// How many slices [`write_item`] hands the writer at once.
const WRITE_WINDOW: usize = 8;

/// Writes `prefix`, then `parts`, as one value (an encoding; a frame's
/// length prefix and payload), as `write_all` would (`Interrupted` is
/// retried, a writer that takes nothing is `WriteZero`), but counting what
/// went through: an error after the first byte is a [`MidValueError`].
///
/// Several slices go out through one `write_vectored` call, up to
/// [`WRITE_WINDOW`] at a time, so a frame's pieces are never copied
/// together; a single slice goes through `write`. A writer that claims
/// more than it was given is held to what it was given.
pub(crate) fn write_item<W: Write + ?Sized>(
    writer: &mut W,
    prefix: &[u8],
    parts: &[&[u8]],
    transfer: Transfer,
) -> io::Result<()> {
    let len = prefix.len() + parts.iter().map(|part| part.len()).sum::<usize>();
    let mut pending = core::iter::once(prefix)
        .chain(parts.iter().copied())
        .filter(|part| !part.is_empty());
    let mut window = [IoSlice::new(&[]); WRITE_WINDOW];
    let mut filled = 0;
    let mut written = 0;
    loop {
        for slot in &mut window[filled..] {
            let Some(part) = pending.next() else { break };
            *slot = IoSlice::new(part);
            filled += 1;
        }
        if filled == 0 {
            return Ok(());
        }
        let offered: usize = window[..filled].iter().map(|slice| slice.len()).sum();
        let result = retrying_interrupted(|| match filled {
            1 => writer.write(&window[0]),
            _ => writer.write_vectored(&window[..filled]),
        });
        let mut taken = match result {
            Ok(0) => Err(io::Error::new(
                ErrorKind::WriteZero,
                "failed to write whole buffer",
            )),
            Ok(taken) => Ok(taken.min(offered)),
            Err(error) => Err(error),
        }
        .map_err(|error| error_at(error, written, len, transfer))?;
        written += taken;
        // Drop the slices written whole, and cut into the first one left.
        let done = window[..filled]
            .iter()
            .take_while(|slice| {
                let whole = slice.len() <= taken;
                if whole {
                    taken -= slice.len();
                }
                whole
            })
            .count();
        window.copy_within(done..filled, 0);
        filled -= done;
        if taken > 0 {
            window[0].advance(taken);
        }
    }
}

/// Reads one byte, retrying `Interrupted`; `None` at end of stream.
#[inline]
fn read_tag<R: Read + ?Sized>(reader: &mut R) -> io::Result<Option<u8>> {
    let mut tag = [0u8];
    Ok((read_some(reader, &mut tag)? == 1).then_some(tag[0]))
}

/// Fills `value[1..]` (the tag is `value[0]`), retrying `Interrupted`; the
/// end of stream is `Truncated` counting the tag, and a reader's error a
/// [`MidValueError`].
fn read_payload<R: Read + ?Sized>(reader: &mut R, value: &mut [u8]) -> io::Result<()> {
    let needed = value.len();
    let mut filled = 1;
    while filled < needed {
        match read_some(reader, &mut value[filled..]) {
            Ok(0) => {
                let available = filled;
                return Err(DecodeError::Truncated { needed, available }.into());
            }
            Ok(read) => filled += read,
            Err(error) => return Err(error_at(error, filled, needed, Transfer::ReadValue)),
        }
    }
    Ok(())
}
