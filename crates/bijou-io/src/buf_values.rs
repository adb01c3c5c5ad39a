//! [`BufValues`]: the values of a `bytes::Buf` of concatenated encodings,
//! as an iterator that decodes ahead.
//!
//! The iterator decodes a chunk of values at a time from the `Buf`'s
//! current [`chunk`](Buf::chunk) with the width's `decode_batch` (its
//! vector paths included) into a fixed array inside the iterator, and
//! `next` hands them out one by one, as bijou-core's `values` does over a
//! slice. A value that crosses from one chunk into the next takes
//! [`try_get_bijou`](crate::BufExt::try_get_bijou)'s cold path, alone.
//!
//! The `Buf` is not advanced value by value: the bytes of the buffered
//! values are consumed in one `advance` when the next chunk is decoded,
//! and those of the values yielded so far when the iterator is dropped,
//! so that the `Buf` is then positioned right after the last value
//! yielded (at the failed value, after an error).

use bijou_core::{BatchDecodeError, Bijou, DecodeError};
use bytes::Buf;

use crate::across_chunks::get_across_chunks;

/// Values decoded per refill: bijou-core's `decode_batch` chooses its loop
/// on a first block of 16 values, then decodes rounds of 512 values on
/// unpredictable data; a buffer smaller than one of each leaves the rest
/// to slower loops (bijou-core's `values` is sized the same way).
const CHUNK: usize = 16 + 512;

/// An iterator over the values encoded back to back in a [`bytes::Buf`],
/// decoding them a chunk ahead; made by
/// [`BufExt::bijou_values`](crate::BufExt::bijou_values).
///
/// It yields `Ok(value)` for each value in order until the `Buf` is empty.
/// A value cut off by the end of the `Buf` yields
/// [`DecodeError::Truncated`], a value too large for the type
/// [`DecodeError::Overflow`]; after an error the iterator is done
/// ([`Iterator::next`] returns `None`).
///
/// Once the iterator is dropped, the `Buf` is positioned right after the
/// last value it yielded: after an error, at the start of the failed
/// value, nothing of it consumed, so a caller can append bytes and read
/// on, or skip it. The one exception is
/// [`try_get_bijou`](crate::BufExt::try_get_bijou)'s: an overflowing
/// value spread over more chunks than the `Buf` can show without
/// advancing (any split value without the `std` feature) is consumed,
/// exactly its bytes.
///
/// Values within the current chunk are decoded in place, with
/// bijou-core's `decode_batch`; the iterator never allocates.
///
/// # Examples
///
/// ```
/// use bijou_io::{BufExt, DecodeError};
/// use bytes::Buf;
///
/// // 7, 300 and 70000 as bijou64, 300 split across two chunks, then a
/// // value whose last byte has not arrived.
/// let first: &[u8] = &[0x07, 0xF8];
/// let second: &[u8] = &[0x34, 0xFA, 0x00, 0x0F, 0x78, 0xF9, 0x01];
/// let mut buf = first.chain(second);
/// let mut values = buf.bijou_values::<u64>();
/// assert_eq!(values.next(), Some(Ok(7)));
/// assert_eq!(values.next(), Some(Ok(300)));
/// assert_eq!(values.next(), Some(Ok(70_000)));
/// assert_eq!(values.next(), Some(Err(DecodeError::Truncated { needed: 3, available: 2 })));
/// assert_eq!(values.next(), None);
/// drop(values);
/// // The cut value is left in the buffer.
/// assert_eq!(buf.remaining(), 2);
///
/// // Collecting stops at the first error, as for any iterator of results.
/// let mut buf: &[u8] = &[0x01, 0x02, 0x03];
/// let all: Result<Vec<i32>, DecodeError> = buf.bijou_values().collect();
/// assert_eq!(all, Ok(vec![-1, 1, -2]));
/// assert!(!buf.has_remaining());
/// ```
pub struct BufValues<'a, B: Buf + ?Sized, T: Bijou> {
    buf: &'a mut B,
    buffer: [T; CHUNK],
    /// The next buffered value to yield.
    next: usize,
    /// Buffered values.
    len: usize,
    /// Whether the buffered values lie in `buf`'s current chunk, not yet
    /// consumed (else they were consumed as they were read, by the cold
    /// path).
    in_chunk: bool,
    /// Bytes of the current chunk that the buffered values take.
    consumed: usize,
    /// The error met after the buffered values, if any: yielded once the
    /// buffer runs out.
    error: Option<DecodeError>,
    /// No more values or errors.
    done: bool,
}

impl<'a, B: Buf + ?Sized, T: Bijou> BufValues<'a, B, T> {
    /// An iterator over the values encoded back to back in `buf`.
    pub(crate) fn new(buf: &'a mut B) -> Self {
        BufValues {
            buf,
            buffer: [T::default(); CHUNK],
            next: 0,
            len: 0,
            in_chunk: false,
            consumed: 0,
            error: None,
            done: false,
        }
    }

    /// Consumes the bytes of the values yielded from the buffer so far,
    /// and forgets the buffer.
    fn settle(&mut self) {
        if self.in_chunk {
            let bytes = if self.next >= self.len {
                self.consumed
            } else {
                // Dropped part-way: the buffer keeps values, not where
                // each started, so step over the tags of those yielded.
                let chunk = self.buf.chunk();
                (0..self.next).fold(0, |at, _| at + T::len_from_tag(chunk[at]))
            };
            self.buf.advance(bytes);
        }
        self.in_chunk = false;
        self.consumed = 0;
        self.next = 0;
        self.len = 0;
    }

    /// Refills the buffer from the front of the `Buf`; false when nothing
    /// was buffered (the end, or an error, is next).
    ///
    /// Not inlined into `next`: inlined, it made the `Bytes` loop on
    /// one-byte values slower than a `try_get_bijou64` loop
    /// (`docs/decode.md` has the figures).
    #[inline(never)]
    fn refill(&mut self) -> bool {
        self.settle();
        if self.done || self.error.is_some() {
            return false;
        }
        let chunk = self.buf.chunk();
        if chunk.is_empty() {
            // `chunk()` is empty only when nothing remains.
            self.done = true;
            return false;
        }
        let (written, consumed) = match T::decode_batch(chunk, &mut self.buffer) {
            Ok(done) => done,
            Err(BatchDecodeError::Overflow { offset, written }) => {
                // The bad value lies whole in the chunk: nothing of it is
                // consumed, only the values before it.
                self.error = Some(DecodeError::Overflow);
                (written, offset)
            }
        };
        if written > 0 {
            (self.len, self.consumed, self.in_chunk) = (written, consumed, true);
            return true;
        }
        if self.error.is_some() {
            return false;
        }
        // Nothing decoded and no error: the chunk ends inside its first value.
        self.read_across_chunks()
    }

    /// Reads the value that crosses the current chunk's end, on its own.
    #[cold]
    fn read_across_chunks(&mut self) -> bool {
        match get_across_chunks::<T, B>(self.buf) {
            Ok(value) => {
                self.buffer[0] = value;
                self.len = 1;
                true
            }
            Err(error) => {
                self.error = Some(error);
                false
            }
        }
    }

    /// What the iterator yields once the buffer is empty and cannot be
    /// refilled: the error, once; then `None`.
    fn finish(&mut self) -> Option<Result<T, DecodeError>> {
        let error = self.error.take()?;
        self.done = true;
        Some(Err(error))
    }
}

impl<B: Buf + ?Sized, T: Bijou> Iterator for BufValues<'_, B, T> {
    type Item = Result<T, DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.len && !self.refill() {
            return self.finish();
        }
        let value = *self.buffer.get(self.next)?;
        self.next += 1;
        Some(Ok(value))
    }

    /// Chunk by chunk, with the position in a register: what `for_each`,
    /// `sum`, `count` and the other consuming adapters run on.
    #[inline]
    fn fold<Acc, F: FnMut(Acc, Self::Item) -> Acc>(mut self, init: Acc, mut f: F) -> Acc {
        let mut acc = init;
        loop {
            let start = self.next.min(self.len);
            for &value in &self.buffer[start..self.len] {
                acc = f(acc, Ok(value));
            }
            self.next = self.len;
            if !self.refill() {
                break;
            }
        }
        match self.finish() {
            Some(error) => f(acc, error),
            None => acc,
        }
    }
}

impl<B: Buf + ?Sized, T: Bijou> core::iter::FusedIterator for BufValues<'_, B, T> {}

impl<B: Buf + ?Sized, T: Bijou> Drop for BufValues<'_, B, T> {
    /// Leaves the `Buf` right after the last value yielded.
    fn drop(&mut self) {
        self.settle();
    }
}

impl<B: Buf + ?Sized, T: Bijou> core::fmt::Debug for BufValues<'_, B, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BufValues")
            .field("buffered", &(self.len - self.next.min(self.len)))
            .field("error", &self.error)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use bijou_core::DecodeError;
    use bytes::Buf;

    use crate::BufExt;

    /// A `Buf` over `bytes` whose chunks are at most `size` bytes: built
    /// without `std`, as these tests also run (no `Vec`).
    struct Chunks<'a> {
        bytes: &'a [u8],
        size: usize,
    }

    impl Buf for Chunks<'_> {
        fn remaining(&self) -> usize {
            self.bytes.len()
        }

        fn chunk(&self) -> &[u8] {
            &self.bytes[..self.bytes.len().min(self.size)]
        }

        fn advance(&mut self, count: usize) {
            self.bytes = &self.bytes[count..];
        }
    }

    /// 7, 300, 70000, a top-tier value and 0 as bijou64.
    const VALUES: [u64; 5] = [7, 300, 70_000, TOP, 0];
    const TOP: u64 = 17_940_079_176_890_708_735;
    const ENCODED: [u8; 17] = [
        0x07, 0xF8, 0x34, 0xFA, 0x00, 0x0F, 0x78, 0xFF, 0xF7, 0xF6, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1,
        0x07, 0x00,
    ];

    #[test]
    fn every_chunk_size_gives_the_values() {
        assert_eq!(
            <u64 as bijou_core::Bijou>::decode(&ENCODED[7..]),
            Ok((TOP, 9))
        );
        for size in 1..=ENCODED.len() {
            let mut buf = Chunks {
                bytes: &ENCODED,
                size,
            };
            let mut values = buf.bijou_values::<u64>();
            for (i, expected) in VALUES.iter().enumerate() {
                assert_eq!(values.next(), Some(Ok(*expected)), "size {size}, #{i}");
            }
            assert_eq!(values.next(), None, "size {size}");
            drop(values);
            assert_eq!(buf.remaining(), 0);
        }
    }

    /// Cut anywhere, in chunks of any size: the values before the cut,
    /// then `Truncated` for the cut value, left in the buffer; dropped
    /// part-way, the buffer is right after the values yielded.
    #[test]
    fn a_cut_value_is_an_error_and_stays_in_the_buffer() {
        let starts = [0, 1, 3, 7, 16, 17];
        for cut in 0..ENCODED.len() {
            let whole = starts.iter().filter(|&&s| s > 0 && s <= cut).count();
            for size in 1..=ENCODED.len() {
                let mut buf = Chunks {
                    bytes: &ENCODED[..cut],
                    size,
                };
                let mut values = buf.bijou_values::<u64>();
                for expected in &VALUES[..whole] {
                    assert_eq!(values.next(), Some(Ok(*expected)));
                }
                if cut > starts[whole] {
                    assert!(matches!(
                        values.next(),
                        Some(Err(DecodeError::Truncated { .. }))
                    ));
                }
                assert_eq!(values.next(), None);
                drop(values);
                assert_eq!(
                    buf.remaining(),
                    cut - starts[whole],
                    "cut {cut}, size {size}"
                );

                for (taken, &start) in starts.iter().enumerate().take(whole + 1) {
                    let mut again = Chunks {
                        bytes: &ENCODED[..cut],
                        size,
                    };
                    let yielded = again.bijou_values::<u64>().take(taken).count();
                    assert_eq!(yielded, taken);
                    assert_eq!(again.remaining(), cut - start);
                }
            }
        }
    }

    #[test]
    fn an_overflow_in_a_chunk_consumes_only_the_values_before_it() {
        // 5, then bijou32's top tag with an all-ones payload, then 6.
        let bytes = [0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x06];
        let mut buf = &bytes[..];
        let mut values = buf.bijou_values::<u32>();
        assert_eq!(values.next(), Some(Ok(5)));
        assert_eq!(values.next(), Some(Err(DecodeError::Overflow)));
        assert_eq!(values.next(), None);
        drop(values);
        assert_eq!(buf, &bytes[1..]);
        // `fold` (through `sum`'s `Result` adapter) ends the same way.
        let mut buf = &bytes[..];
        let sum: Result<u32, DecodeError> = buf.bijou_values::<u32>().sum();
        assert_eq!(sum, Err(DecodeError::Overflow));
        assert_eq!(buf, &bytes[1..]);
    }
}
