//! [`FrameReader`] and [`FrameWriter`]: frames over `std::io`.

use std::io::{self, Read, Write};

use bijou_core::Bijou;

use super::{
    DEFAULT_MAX_FRAME_LEN, FrameError, RESERVE_AHEAD, checked_len, checked_payload_len, payload_len,
};
use crate::io::{Transfer, read_some, write_item};

/// Reads length-delimited frames (bijou64 length, then payload) from a
/// [`std::io::Read`].
///
/// Each frame is read exactly: the length prefix, then the payload, and
/// no byte beyond. The length is checked against
/// [`max_frame_len`](Self::max_frame_len) before anything is allocated,
/// and the payload buffer grows with the bytes that actually arrive, so a
/// peer that announces a large frame and sends little costs little.
///
/// An error of the inner reader, such as `WouldBlock` from a
/// non-blocking socket, loses nothing: the reader keeps the part of the
/// frame it has read, and the next [`read_frame`](Self::read_frame)
/// goes on from there.
///
/// It is also an [`Iterator`] of frames, ending at a clean end of stream
/// or just after the first error (it is fused): after a frame error the
/// stream's position within the frame sequence is lost, and reading on
/// would take payload bytes for length prefixes. To go on after an
/// inner reader's error, call `read_frame`.
///
/// # Panics
///
/// Payloads are read through std's [`Take`](std::io::Take) into the
/// frame's spare capacity (no zeroing first), so an inner `Read` that
/// breaks its contract by claiming more bytes than it was given panics
/// there, as it would in std's own adapters. The length prefix is read
/// through a small buffer and held to it.
///
/// # Examples
///
/// ```
/// use bijou_io::{FrameReader, FrameWriter};
///
/// let mut writer = FrameWriter::new(Vec::new());
/// writer.write_frame(b"one")?;
/// writer.write_frame(b"two")?;
/// let wire = writer.into_inner();
///
/// let frames: Vec<Vec<u8>> = FrameReader::new(&wire[..]).collect::<Result<_, _>>()?;
/// assert_eq!(frames, [b"one".to_vec(), b"two".to_vec()]);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// Reading from a source that is not always ready:
///
/// ```
/// use std::io::{self, ErrorKind, Read};
/// use bijou_io::FrameReader;
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
/// let source = NotAlwaysReady { bytes: &[0x02, b'h', b'i'], ready: true };
/// let mut reader = FrameReader::new(source);
/// let mut waits = 0;
/// let frame = loop {
///     match reader.read_frame() {
///         Ok(frame) => break frame,
///         // A real caller waits here until the source is readable.
///         Err(error) if error.kind() == ErrorKind::WouldBlock => waits += 1,
///         Err(error) => return Err(error),
///     }
/// };
/// assert_eq!(frame, Some(b"hi".to_vec()));
/// assert_eq!(waits, 3); // one before each byte: none of them was lost
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct FrameReader<R> {
    inner: R,
    max_frame_len: usize,
    /// The frame being read, kept across calls.
    progress: Progress,
    /// Set by the iterator at its first error or end of stream.
    finished: bool,
}

/// How far into a frame a [`FrameReader`] is. It lives in the reader, not
/// in `read_frame`'s locals, so an I/O error such as `WouldBlock` loses
/// none of the bytes read before it.
enum Progress {
    /// Reading the length prefix, `filled` bytes of it so far (0 between
    /// frames).
    Prefix {
        bytes: [u8; bijou_core::bijou64::MAX_BYTES],
        filled: usize,
    },
    /// Reading a payload of `len` bytes that followed a `header`-byte
    /// length prefix.
    Payload {
        header: usize,
        len: usize,
        payload: Vec<u8>,
    },
}

/// Counts a partial payload instead of printing it: it can be
/// megabytes.
impl core::fmt::Debug for Progress {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Progress::Prefix { bytes, filled } => f
                .debug_struct("Prefix")
                .field("read", &&bytes[..*filled])
                .finish(),
            Progress::Payload {
                header,
                len,
                payload,
            } => f
                .debug_struct("Payload")
                .field("header", header)
                .field("len", len)
                .field("read", &payload.len())
                .finish(),
        }
    }
}

impl Progress {
    const BETWEEN_FRAMES: Progress = Progress::Prefix {
        bytes: [0; bijou_core::bijou64::MAX_BYTES],
        filled: 0,
    };
}

impl<R: Read> FrameReader<R> {
    /// Wraps `inner` with the limit [`DEFAULT_MAX_FRAME_LEN`] (16 MiB).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{DEFAULT_MAX_FRAME_LEN, FrameReader};
    ///
    /// let reader = FrameReader::new(std::io::empty());
    /// assert_eq!(reader.max_frame_len(), DEFAULT_MAX_FRAME_LEN);
    /// ```
    #[must_use]
    pub fn new(inner: R) -> Self {
        Self::with_max_frame_len(inner, DEFAULT_MAX_FRAME_LEN)
    }

    /// Wraps `inner`, refusing payloads longer than `max_frame_len`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameReader;
    ///
    /// let reader = FrameReader::with_max_frame_len(std::io::empty(), 512);
    /// assert_eq!(reader.max_frame_len(), 512);
    /// ```
    #[must_use]
    pub fn with_max_frame_len(inner: R, max_frame_len: usize) -> Self {
        FrameReader {
            inner,
            max_frame_len,
            progress: Progress::BETWEEN_FRAMES,
            finished: false,
        }
    }

    /// Reads the next frame's payload, or `Ok(None)` when the stream ends
    /// cleanly before a frame starts.
    ///
    /// The stream advances past exactly one frame. `Interrupted` is
    /// retried.
    ///
    /// An error of the inner reader loses nothing: the bytes of the
    /// frame read so far stay in this reader, and the next call goes on
    /// from there. So a non-blocking source works as it is: on
    /// `WouldBlock` (or `TimedOut`), wait until it is readable and call
    /// again.
    ///
    /// # Errors
    ///
    /// The frame's own errors, after which the frame is abandoned and
    /// the stream's place in the frame sequence is lost (a further call
    /// reads the next bytes as a length prefix, which only a caller who
    /// knows the stream should do):
    ///
    /// - [`ErrorKind::InvalidData`](io::ErrorKind::InvalidData) with
    ///   [`FrameError::FrameTooLarge`] as the inner error when the announced
    ///   length exceeds `max_frame_len` (or `usize`); only the length
    ///   prefix was read, nothing allocated.
    /// - [`ErrorKind::InvalidData`](io::ErrorKind::InvalidData) with a
    ///   [`FrameError::Decode`] of [`DecodeError::Overflow`](crate::DecodeError::Overflow) as the
    ///   inner error for a corrupt length prefix.
    /// - [`ErrorKind::UnexpectedEof`](io::ErrorKind::UnexpectedEof) when
    ///   the stream ends inside a frame, with [`FrameError::Truncated`]
    ///   as the inner error.
    ///
    /// Any other error is the inner reader's, returned as is, with the
    /// frame kept for the next call.
    ///
    /// # Panics
    ///
    /// Only if the inner `Read` breaks its contract by reporting more
    /// bytes than it was given (see [`FrameReader`]'s `# Panics`).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use bijou_io::{FrameError, FrameReader};
    ///
    /// use bijou_io::WriteExt;
    ///
    /// // A length prefix of 2^60 is refused before any allocation.
    /// let mut wire = Vec::new();
    /// wire.write_bijou64(1 << 60)?;
    /// let mut reader = FrameReader::new(&wire[..]);
    /// let error = reader.read_frame().unwrap_err();
    /// assert_eq!(error.kind(), ErrorKind::InvalidData);
    /// let source = error.get_ref().and_then(|e| e.downcast_ref::<FrameError>());
    /// assert!(matches!(source, Some(FrameError::FrameTooLarge { len, .. }) if *len == 1 << 60));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn read_frame(&mut self) -> io::Result<Option<Vec<u8>>> {
        loop {
            match &mut self.progress {
                Progress::Prefix { bytes, filled } => {
                    let needed = match *filled {
                        0 => 1,
                        _ => u64::len_from_tag(bytes[0]),
                    };
                    if *filled < needed {
                        match read_some(&mut self.inner, &mut bytes[*filled..needed])? {
                            0 if *filled == 0 => return Ok(None),
                            0 => {
                                let available = *filled;
                                self.progress = Progress::BETWEEN_FRAMES;
                                return Err(Self::truncated(needed, available));
                            }
                            read => *filled += read,
                        }
                        continue;
                    }
                    let decoded = u64::decode(&bytes[..needed]);
                    self.progress = Progress::BETWEEN_FRAMES;
                    let (len, header) = decoded.map_err(FrameError::Decode)?;
                    let len = checked_len(len, header, self.max_frame_len)?;
                    self.progress = Progress::Payload {
                        header,
                        len,
                        payload: Vec::new(),
                    };
                }
                Progress::Payload {
                    header,
                    len,
                    payload,
                } => {
                    // The buffer grows with the bytes that arrive, by
                    // at most what it holds or RESERVE_AHEAD, and never
                    // past the frame: its capacity stays within the
                    // announced length and twice what arrived plus
                    // 64 KiB. (`read_to_end` alone would double it, up
                    // to twice `max_frame_len`.) Each step's buffer is
                    // reserved exactly, so `read_to_end` fills it and
                    // stops at the step's limit without growing it.
                    // `Take` + `read_to_end` read into the spare
                    // capacity without zeroing it first (a loop over
                    // `read_some` into a zeroed tail is slower on large
                    // frames from memory); the price
                    // is `Take`'s panic on a reader that claims more
                    // bytes than it was given, as std's own adapters.
                    while payload.len() < *len {
                        let step = (*len - payload.len()).min(payload.len().max(RESERVE_AHEAD));
                        payload.reserve_exact(step);
                        // An error returns with the bytes read so far
                        // appended (`read_to_end`'s contract): kept.
                        let read = self
                            .inner
                            .by_ref()
                            .take(payload_len(step))
                            .read_to_end(payload)?;
                        if read < step {
                            break; // end of stream
                        }
                    }
                    let (header, len, arrived) = (*header, *len, payload.len());
                    let frame = core::mem::take(payload);
                    self.progress = Progress::BETWEEN_FRAMES;
                    if arrived < len {
                        // checked_len made header + len fit.
                        return Err(Self::truncated(header + len, header + arrived));
                    }
                    return Ok(Some(frame));
                }
            }
        }
    }

    /// The error for a stream that ended inside a frame.
    fn truncated(needed: usize, available: usize) -> io::Error {
        FrameError::Truncated { needed, available }.into()
    }
}

// Accessors need no `Read` bound, as std's `BufReader`'s do not.
impl<R> FrameReader<R> {
    /// The largest payload, in bytes, this reader accepts.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameReader;
    ///
    /// assert_eq!(FrameReader::with_max_frame_len(std::io::empty(), 9).max_frame_len(), 9);
    /// ```
    #[must_use]
    pub fn max_frame_len(&self) -> usize {
        self.max_frame_len
    }

    /// Whether part of a frame is held here, read before an error of
    /// the inner reader and waiting for the rest.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::{self, ErrorKind, Read};
    /// use bijou_io::FrameReader;
    ///
    /// /// Some bytes, then nothing ready.
    /// struct Stalled(&'static [u8]);
    ///
    /// impl Read for Stalled {
    ///     fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
    ///         if self.0.is_empty() {
    ///             return Err(ErrorKind::WouldBlock.into());
    ///         }
    ///         let len = out.len().min(self.0.len());
    ///         out[..len].copy_from_slice(&self.0[..len]);
    ///         self.0 = &self.0[len..];
    ///         Ok(len)
    ///     }
    /// }
    ///
    /// let mut reader = FrameReader::new(Stalled(&[0x02, b'h']));
    /// assert!(!reader.has_partial());
    /// assert_eq!(reader.read_frame().unwrap_err().kind(), ErrorKind::WouldBlock);
    /// assert!(reader.has_partial()); // 2 bytes of a 3-byte frame
    /// ```
    #[must_use]
    pub fn has_partial(&self) -> bool {
        !matches!(self.progress, Progress::Prefix { filled: 0, .. })
    }

    /// The wrapped reader.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameReader;
    ///
    /// let reader = FrameReader::new(&[1u8, 2][..]);
    /// assert_eq!(reader.get_ref().len(), 2);
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The wrapped reader, mutably. Reading from it directly may leave
    /// this reader in the middle of a frame.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameReader;
    ///
    /// let mut reader = FrameReader::new(&[0x00, 0x01, b'x'][..]);
    /// *reader.get_mut() = &reader.get_ref()[1..]; // skip a byte
    /// assert_eq!(reader.read_frame()?, Some(b"x".to_vec()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Unwraps the reader, positioned after the last frame read (or,
    /// after an error of the inner reader, inside a frame whose bytes
    /// read so far are dropped with this reader: see
    /// [`has_partial`](Self::has_partial)).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameReader;
    ///
    /// let mut reader = FrameReader::new(&[0x01, b'x', 0xAA][..]);
    /// reader.read_frame()?;
    /// assert_eq!(reader.into_inner(), &[0xAA]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Iterator for FrameReader<R> {
    type Item = io::Result<Vec<u8>>;

    /// [`read_frame`](FrameReader::read_frame), transposed: `None` at a
    /// clean end of stream, and from then on, as after an error.
    ///
    /// # Panics
    ///
    /// As `read_frame`: only for an inner `Read` that reports more bytes
    /// than it was given.
    ///
    /// ```
    /// use bijou_io::FrameReader;
    ///
    /// // A 1-byte frame, then a prefix announcing 5 bytes of which 2 came.
    /// let mut frames = FrameReader::new(&[0x01, b'a', 0x05, b'b', b'c'][..]);
    /// assert_eq!(frames.next().transpose()?, Some(b"a".to_vec()));
    /// assert!(frames.next().unwrap().is_err());
    /// assert!(frames.next().is_none()); // fused: nothing after an error
    /// # Ok::<(), std::io::Error>(())
    /// ```
    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        let item = self.read_frame().transpose();
        self.finished = !matches!(item, Some(Ok(_)));
        item
    }
}

impl<R: Read> core::iter::FusedIterator for FrameReader<R> {}

/// Writes length-delimited frames (bijou64 length, then payload) to a
/// [`std::io::Write`].
///
/// Each frame is written whole, length prefix then payload, as
/// `write_all` would (`Interrupted` is retried), and not flushed: wrap
/// unbuffered sinks in a [`BufWriter`](std::io::BufWriter). An error of
/// the writer after the frame's first byte went out comes as a
/// [`MidValueError`](crate::MidValueError), as for
/// [`WriteExt`](crate::WriteExt)'s values.
///
/// # Examples
///
/// ```
/// use bijou_io::FrameWriter;
///
/// let mut writer = FrameWriter::new(Vec::new());
/// writer.write_frame(b"hi")?;
/// assert_eq!(writer.get_ref(), &[0x02, b'h', b'i']);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct FrameWriter<W> {
    inner: W,
    max_frame_len: usize,
}

impl<W: Write> FrameWriter<W> {
    /// Wraps `inner` with the limit [`DEFAULT_MAX_FRAME_LEN`] (16 MiB).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{DEFAULT_MAX_FRAME_LEN, FrameWriter};
    ///
    /// assert_eq!(FrameWriter::new(Vec::new()).max_frame_len(), DEFAULT_MAX_FRAME_LEN);
    /// ```
    #[must_use]
    pub fn new(inner: W) -> Self {
        Self::with_max_frame_len(inner, DEFAULT_MAX_FRAME_LEN)
    }

    /// Wraps `inner`, refusing payloads longer than `max_frame_len`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameWriter;
    ///
    /// assert_eq!(FrameWriter::with_max_frame_len(Vec::new(), 64).max_frame_len(), 64);
    /// ```
    #[must_use]
    pub fn with_max_frame_len(inner: W, max_frame_len: usize) -> Self {
        FrameWriter {
            inner,
            max_frame_len,
        }
    }

    /// Writes one frame carrying `payload`: its length as bijou64, then
    /// the payload.
    ///
    /// # Errors
    ///
    /// - [`ErrorKind::InvalidInput`](io::ErrorKind::InvalidInput) with
    ///   [`FrameError::PayloadTooLarge`] as the inner error when `payload` is
    ///   longer than `max_frame_len`; nothing is written then.
    /// - An error of the writer before the frame's first byte went out, as
    ///   is (`Interrupted` is retried; `WriteZero` when the writer takes
    ///   nothing); calling again is safe then.
    /// - An error after that, with a [`MidValueError`](crate::MidValueError)
    ///   as the inner error and the writer's error kind, or
    ///   [`ErrorKind::Other`](io::ErrorKind::Other) for `WouldBlock` and
    ///   `TimedOut`: part of the frame was written, and calling again
    ///   would write a second length prefix into it. For a non-blocking
    ///   sink, where `WouldBlock` can come mid-frame, encode with a
    ///   [`FrameEncoder`](crate::FrameEncoder) into your own buffer and
    ///   write that out.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use bijou_io::FrameWriter;
    ///
    /// let mut writer = FrameWriter::with_max_frame_len(Vec::new(), 2);
    /// writer.write_frame(b"ok")?;
    /// assert_eq!(writer.write_frame(b"big").unwrap_err().kind(), ErrorKind::InvalidInput);
    /// assert_eq!(writer.get_ref().len(), 3);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_frame(&mut self, payload: &[u8]) -> io::Result<()> {
        self.write_frame_vectored(&[payload])
    }

    /// Writes one frame whose payload is `parts`, one after another:
    /// [`write_frame`](Self::write_frame) for a payload in pieces (a
    /// header and a body, say), without copying them together.
    ///
    /// The length prefix and the parts go to the writer through
    /// [`Write::write_vectored`], several slices a call, so a socket sees
    /// one `writev` rather than one write per piece (a writer without its
    /// own `write_vectored` takes one slice a call, which is still
    /// correct). Partial writes are resumed where they stopped, inside a
    /// part or between two.
    ///
    /// # Errors
    ///
    /// As [`write_frame`](Self::write_frame), for the parts' total length.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameWriter;
    ///
    /// let mut writer = FrameWriter::new(Vec::new());
    /// let body = [7u8; 300];
    /// writer.write_frame_vectored(&[b"id=1;", &body])?;
    /// let wire = writer.into_inner();
    /// assert_eq!(&wire[..2], &[0xF8, 0x39]); // 305 bytes of payload
    /// assert_eq!(&wire[2..7], b"id=1;");
    /// assert_eq!(wire.len(), 2 + 305);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_frame_vectored(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        let len = checked_payload_len(parts, self.max_frame_len)?;
        write_item(&mut self.inner, &len.encoded(), parts, Transfer::WriteFrame)
    }

    /// Flushes the wrapped writer.
    ///
    /// # Errors
    ///
    /// Whatever the writer's `flush` returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameWriter;
    ///
    /// let mut writer = FrameWriter::new(std::io::BufWriter::new(Vec::new()));
    /// writer.write_frame(b"x")?;
    /// writer.flush()?;
    /// assert_eq!(writer.get_ref().get_ref(), &[0x01, b'x']);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

// Accessors need no `Write` bound, as std's `BufWriter`'s do not.
impl<W> FrameWriter<W> {
    /// The largest payload, in bytes, this writer writes.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameWriter;
    ///
    /// assert_eq!(FrameWriter::with_max_frame_len(Vec::new(), 3).max_frame_len(), 3);
    /// ```
    #[must_use]
    pub fn max_frame_len(&self) -> usize {
        self.max_frame_len
    }

    /// The wrapped writer.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameWriter;
    ///
    /// assert!(FrameWriter::new(Vec::new()).get_ref().is_empty());
    /// ```
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The wrapped writer, mutably. Writing to it directly interleaves
    /// with the frames.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameWriter;
    ///
    /// let mut writer = FrameWriter::new(Vec::new());
    /// writer.get_mut().push(0x00); // an empty frame, by hand
    /// assert_eq!(writer.into_inner(), [0x00]);
    /// ```
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Unwraps the writer (without flushing it).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::FrameWriter;
    ///
    /// let mut writer = FrameWriter::new(Vec::new());
    /// writer.write_frame(b"")?;
    /// assert_eq!(writer.into_inner(), [0x00]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn into_inner(self) -> W {
        self.inner
    }
}
