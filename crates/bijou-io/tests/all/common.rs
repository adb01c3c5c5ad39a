//! Shared fixtures: buffer shapes, awkward readers, mixed-width values.

use std::collections::VecDeque;
use std::io::{self, Read, Write};

use bijou_core::{Bijou, DecodeError};
use bijou_io::{BufExt, BufMutExt, BufReadExt, MidValueError, ReadExt, WriteExt};
use bytes::Buf;
use proptest::prelude::*;

/// Proptest settings that keep the suite fast on 2 cores.
pub(crate) fn config() -> ProptestConfig {
    ProptestConfig::with_cases(64)
}

/// A `VecDeque<u8>` whose contents wrap around the end of its storage, so
/// `as_slices` gives two pieces (when it holds at least two bytes).
pub(crate) fn wrapped_deque(bytes: &[u8]) -> VecDeque<u8> {
    let mut deque = VecDeque::with_capacity(bytes.len().max(2));
    let half = deque.capacity() / 2;
    deque.extend(std::iter::repeat_n(0, half));
    deque.drain(..half);
    deque.extend(bytes);
    deque
}

/// A user-defined `Buf` around a `VecDeque`, implementing only the required
/// methods: it shows one chunk at a time (default `chunks_vectored`).
pub(crate) struct DequeBuf(pub VecDeque<u8>);

impl Buf for DequeBuf {
    fn remaining(&self) -> usize {
        self.0.len()
    }

    fn chunk(&self) -> &[u8] {
        let (front, back) = self.0.as_slices();
        if front.is_empty() { back } else { front }
    }

    fn advance(&mut self, count: usize) {
        self.0.drain(..count);
    }
}

/// A `Buf` whose chunks are single bytes.
pub(crate) struct OneByteChunks {
    bytes: Vec<u8>,
    position: usize,
    vectored: bool,
}

impl OneByteChunks {
    /// Shows one chunk at a time (the default `chunks_vectored`).
    pub(crate) fn new(bytes: &[u8]) -> Self {
        OneByteChunks {
            bytes: bytes.to_vec(),
            position: 0,
            vectored: false,
        }
    }

    /// Shows every chunk to `chunks_vectored`, one `IoSlice` a byte, as a
    /// rope of many small pieces would: the longest value takes
    /// `MAX_ENCODED_LEN` slices to see whole.
    pub(crate) fn vectored(bytes: &[u8]) -> Self {
        OneByteChunks {
            vectored: true,
            ..Self::new(bytes)
        }
    }
}

impl Buf for OneByteChunks {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.position
    }

    fn chunk(&self) -> &[u8] {
        let end = (self.position + 1).min(self.bytes.len());
        &self.bytes[self.position..end]
    }

    fn advance(&mut self, count: usize) {
        assert!(count <= self.remaining(), "advance past the end");
        self.position += count;
    }

    fn chunks_vectored<'a>(&'a self, dst: &mut [std::io::IoSlice<'a>]) -> usize {
        if !self.vectored {
            // The trait's default: the current chunk only.
            if dst.is_empty() || !self.has_remaining() {
                return 0;
            }
            dst[0] = std::io::IoSlice::new(self.chunk());
            return 1;
        }
        let rest = self.bytes[self.position..].chunks(1);
        let mut count = 0;
        for (slot, byte) in dst.iter_mut().zip(rest) {
            *slot = std::io::IoSlice::new(byte);
            count += 1;
        }
        count
    }
}

/// `bytes` split at the cut points `cuts` (each taken modulo
/// `bytes.len() + 1`, in any order): consecutive pieces that concatenate to
/// `bytes`, empty ones included where two cuts coincide, so that a reader
/// fed them also sees empty input.
pub(crate) fn pieces<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts.iter().map(|&cut| cut % (bytes.len() + 1)).collect();
    points.extend([0, bytes.len()]);
    points.sort_unstable();
    points.windows(2).map(|w| &bytes[w[0]..w[1]]).collect()
}

/// A `Buf` made of arbitrary chunks, one shown at a time.
pub(crate) struct Rope {
    chunks: VecDeque<Vec<u8>>,
    remaining: usize,
}

impl Rope {
    /// Splits `bytes` at the given cut points, as [`pieces`] does, less
    /// the empty pieces: a `Buf` shows an empty chunk only at its end.
    pub(crate) fn new(bytes: &[u8], cuts: &[usize]) -> Self {
        let chunks = pieces(bytes, cuts)
            .into_iter()
            .filter(|piece| !piece.is_empty())
            .map(<[u8]>::to_vec)
            .collect();
        Rope {
            chunks,
            remaining: bytes.len(),
        }
    }
}

impl Buf for Rope {
    fn remaining(&self) -> usize {
        self.remaining
    }

    fn chunk(&self) -> &[u8] {
        self.chunks.front().map_or(&[], Vec::as_slice)
    }

    fn advance(&mut self, mut count: usize) {
        self.remaining -= count;
        while count > 0 {
            let front = self.chunks.front_mut().expect("advance past the end");
            if count < front.len() {
                front.drain(..count);
                return;
            }
            count -= front.len();
            self.chunks.pop_front();
        }
        while self.chunks.front().is_some_and(Vec::is_empty) {
            self.chunks.pop_front();
        }
    }
}

/// A reader that hands out 1–3 bytes per call, following `pattern`, and
/// fails with `Interrupted` (or, made [`non_blocking`](Self::non_blocking),
/// `WouldBlock`) whenever the pattern says 0.
pub(crate) struct Trickle<'a> {
    bytes: &'a [u8],
    pattern: Vec<u8>,
    calls: usize,
    /// The error of a 0 step.
    pause: io::ErrorKind,
    /// Fail with this error kind once `fail_at` bytes have been handed out:
    /// from then on, or with `fail_once` only the first time.
    fail_at: Option<(usize, io::ErrorKind)>,
    fail_once: bool,
    delivered: usize,
}

impl<'a> Trickle<'a> {
    pub(crate) fn new(bytes: &'a [u8], pattern: &[u8]) -> Self {
        let mut pattern: Vec<u8> = pattern.iter().map(|p| p % 4).collect();
        // At least one step must deliver bytes, or every read is Interrupted.
        pattern.push(1);
        Trickle {
            bytes,
            pattern,
            calls: 0,
            pause: io::ErrorKind::Interrupted,
            fail_at: None,
            fail_once: false,
            delivered: 0,
        }
    }

    /// A non-blocking source: 0 steps are `WouldBlock`, which the caller
    /// sees, instead of `Interrupted`, which it retries.
    pub(crate) fn non_blocking(mut self) -> Self {
        self.pause = io::ErrorKind::WouldBlock;
        self
    }

    pub(crate) fn failing_at(mut self, position: usize, kind: io::ErrorKind) -> Self {
        self.fail_at = Some((position, kind));
        self
    }

    /// Fails once with `kind` when `position` bytes have gone out, then
    /// goes on.
    pub(crate) fn failing_once_at(mut self, position: usize, kind: io::ErrorKind) -> Self {
        self.fail_once = true;
        self.failing_at(position, kind)
    }

    /// Whether a failure set up with `failing_*_at` is still to come.
    pub(crate) fn failure_pending(&self) -> bool {
        self.fail_at.is_some()
    }

    pub(crate) fn rest(&self) -> &'a [u8] {
        self.bytes
    }
}

/// Counts the bytes instead of printing them: the tests print readers that
/// hold megabytes.
impl std::fmt::Debug for Trickle<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trickle")
            .field("left", &self.bytes.len())
            .finish_non_exhaustive()
    }
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let step = self.pattern[self.calls % self.pattern.len()];
        self.calls += 1;
        if let Some((position, kind)) = self.fail_at
            && self.delivered >= position
        {
            if self.fail_once {
                self.fail_at = None;
            }
            return Err(io::Error::new(kind, "the reader broke"));
        }
        if step == 0 {
            return Err(self.pause.into());
        }
        let mut len = usize::from(step).min(out.len()).min(self.bytes.len());
        if let Some((position, _)) = self.fail_at {
            len = len.min(position - self.delivered);
        }
        out[..len].copy_from_slice(&self.bytes[..len]);
        self.bytes = &self.bytes[len..];
        self.delivered += len;
        Ok(len)
    }
}

macro_rules! mixed_value {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        /// A value of any of the six widths, for mixed-width sequences.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum Value {
            $($variant($ty),)*
        }

        impl Value {
            pub(crate) fn put(self, out: &mut Vec<u8>) {
                match self {
                    $(Value::$variant(value) => out.put_bijou(value),)*
                }
            }

            pub(crate) fn write(self, out: &mut impl io::Write) -> io::Result<usize> {
                match self {
                    $(Value::$variant(value) => out.write_bijou(value),)*
                }
            }

            pub(crate) fn encoded_len(self) -> usize {
                match self {
                    $(Value::$variant(value) => value.encoded_len(),)*
                }
            }

            /// Decodes a value of the same width as `self` from `buf`.
            pub(crate) fn get_like(self, buf: &mut (impl Buf + ?Sized)) -> Result<Value, DecodeError> {
                match self {
                    $(Value::$variant(_) => buf.try_get_bijou::<$ty>().map(Value::$variant),)*
                }
            }

            /// Reads a value of the same width as `self` from `reader`.
            pub(crate) fn read_like(self, reader: &mut (impl Read + ?Sized)) -> io::Result<Value> {
                match self {
                    $(Value::$variant(_) => reader.read_bijou::<$ty>().map(Value::$variant),)*
                }
            }

            /// [`Value::read_like`] through `BufReadExt`'s buffered path.
            pub(crate) fn read_buffered_like(self, reader: &mut (impl std::io::BufRead + ?Sized)) -> io::Result<Value> {
                match self {
                    $(Value::$variant(_) => reader.read_bijou_buffered::<$ty>().map(Value::$variant),)*
                }
            }
        }

        /// Any value of any width, with magnitudes spread over every tier.
        pub(crate) fn any_value() -> impl Strategy<Value = Value> {
            prop_oneof![
                $(spread::<$ty>().prop_map(Value::$variant),)*
            ]
        }
    };
}

mixed_value!(
    U32(u32),
    U64(u64),
    U128(u128),
    I32(i32),
    I64(i64),
    I128(i128)
);

/// Integer types whose values can be drawn with a log-uniform magnitude.
pub(crate) trait Spread: Bijou + std::fmt::Debug {
    fn from_bits(raw: u128, keep_bits: u32, negative: bool) -> Self;
    const BITS: u32;
}

macro_rules! spread_impl {
    ($($ty:ty),*) => {$(
        impl Spread for $ty {
            const BITS: u32 = <$ty>::BITS;
            fn from_bits(raw: u128, keep_bits: u32, negative: bool) -> Self {
                let kept = if keep_bits == 0 { 0 } else { raw >> (128 - keep_bits) };
                let value = kept as $ty;
                #[allow(unused_comparisons)]
                let signed = <$ty>::MIN < 0;
                if signed && negative { (!value) } else { value }
            }
        }
    )*};
}

spread_impl!(u32, u64, u128, i32, i64, i128);

/// Values of `T` whose bit length is uniform, so every tier is exercised.
pub(crate) fn spread<T: Spread>() -> impl Strategy<Value = T> {
    (any::<u128>(), 0..=T::BITS, any::<bool>())
        .prop_map(|(raw, bits, negative)| T::from_bits(raw, bits, negative))
}

/// Encodes a sequence of mixed values.
pub(crate) fn encode_all(values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for value in values {
        value.put(&mut out);
    }
    out
}

/// The inner error a `std::io::Error` carries (`get_ref`), if it is `E`.
pub(crate) fn inner_error<E: std::error::Error + 'static>(error: &io::Error) -> Option<&E> {
    error.get_ref().and_then(|inner| inner.downcast_ref::<E>())
}

/// Asserts that `error` is an `UnexpectedEof` whose inner error is `expected`:
/// how every adapter reports a stream that ends inside a value or frame.
#[track_caller]
pub(crate) fn assert_unexpected_eof<E>(error: &io::Error, expected: E)
where
    E: std::error::Error + PartialEq + std::fmt::Debug + 'static,
{
    assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
    assert_eq!(inner_error::<E>(error), Some(&expected));
}

/// A broken reader that fills the buffer honestly, or with what is left,
/// but claims five bytes more than it wrote whenever it filled the buffer.
pub(crate) struct Overclaiming<'a>(pub &'a [u8]);

impl Read for Overclaiming<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let len = out.len().min(self.0.len());
        out[..len].copy_from_slice(&self.0[..len]);
        self.0 = &self.0[len..];
        Ok(if len == out.len() && len > 0 {
            len + 5
        } else {
            len
        })
    }
}

/// Asserts that `error` is an error of kind `source_kind` that struck after
/// `transferred` of a `len`-byte value's (or frame's) bytes went through: a
/// `MidValueError` inside, and a kind that invites no retry.
#[track_caller]
pub(crate) fn assert_cut_inside(
    error: &io::Error,
    source_kind: io::ErrorKind,
    transferred: usize,
    len: usize,
) {
    let expected_kind = match source_kind {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => io::ErrorKind::Other,
        kind => kind,
    };
    assert_eq!(error.kind(), expected_kind, "{error}");
    let cut = inner_error::<MidValueError>(error).expect("a MidValueError inside");
    assert_eq!((cut.transferred, cut.len), (transferred, len), "{cut}");
    assert_eq!(cut.source.kind(), source_kind);
}

/// A writer that takes `budget` bytes, at most 2 a call and each call only
/// after an `Interrupted`, then fails with `kind`.
pub(crate) struct Budget {
    pub(crate) written: Vec<u8>,
    budget: usize,
    kind: io::ErrorKind,
    interrupt: bool,
}

impl Budget {
    pub(crate) fn new(budget: usize, kind: io::ErrorKind) -> Self {
        Budget {
            written: Vec::new(),
            budget,
            kind,
            interrupt: true,
        }
    }
}

impl Write for Budget {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.interrupt = !self.interrupt;
        if !self.interrupt {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.budget == 0 {
            return Err(io::Error::new(self.kind, "the writer broke"));
        }
        let len = bytes.len().min(self.budget).min(2);
        self.written.extend_from_slice(&bytes[..len]);
        self.budget -= len;
        Ok(len)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A broken writer that takes everything but claims five bytes more,
/// from `write` and from `write_vectored` alike.
pub(crate) struct OverclaimingWriter(pub Vec<u8>);

impl Write for OverclaimingWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(bytes);
        Ok(bytes.len() + 5)
    }

    fn write_vectored(&mut self, slices: &[io::IoSlice<'_>]) -> io::Result<usize> {
        let len = slices.iter().map(|slice| slice.len()).sum::<usize>();
        slices
            .iter()
            .for_each(|slice| self.0.extend_from_slice(slice));
        Ok(len + 5)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
