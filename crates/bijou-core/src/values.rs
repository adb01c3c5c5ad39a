//! [`Values`]: the values of a byte string of concatenated encodings, as
//! an iterator that decodes ahead.
//!
//! A `while` loop over `decode` steps from value to value, and each step
//! waits for the previous value's length. The iterator instead decodes a
//! chunk of values at a time with the width's `decode_batch` (its vector
//! paths included) into a buffer inside the iterator, and `next` hands
//! them out one by one: a compare, a load and an increment per value. The
//! buffer is a fixed array, so the iterator never allocates and works
//! without `alloc`.
//!
//! Where a value is cut off or overflows, the iterator yields that error
//! once and then ends; [`Values::offset`] is then the error's byte offset
//! and [`Values::remaining`] the bytes from there on, so a caller can
//! report the place or append bytes and start again from it.

use crate::{BatchDecodeError, Bijou, DecodeError};

/// Values decoded per refill of the buffer: `decode_batch`'s first block
/// (16 values on the branchy loop, to choose) and then one whole round of
/// its two-walk loop (512 values), which needs that much room in its
/// output; a smaller buffer left unpredictable data to the one-walk loop.
const CHUNK: usize = 16 + 512;

const _: () = assert!(CHUNK >= 16 + crate::bijou64::ROUND_VALUES);

/// An iterator over the values encoded back to back in a byte string,
/// decoding them a chunk ahead; made by each width's `values` (for
/// example [`bijou64::values`](crate::bijou64::values)) or by
/// [`Values::new`] in code generic over the width.
///
/// It yields `Ok(value)` for each value in order. A value cut off by the
/// end of the input yields [`DecodeError::Truncated`], a value too large
/// for the type [`DecodeError::Overflow`]; after an error the iterator is
/// done ([`Iterator::next`] returns `None`), and [`offset`](Values::offset)
/// says where the offending value starts.
///
/// # Examples
///
/// ```
/// use bijou_core::{bijou64, DecodeError};
///
/// let mut input = Vec::new();
/// bijou64::encode_batch(&[1, 300, 70_000], &mut input);
/// let values: Result<Vec<u64>, DecodeError> = bijou64::values(&input).collect();
/// assert_eq!(values, Ok(vec![1, 300, 70_000]));
///
/// // A cut-off value: the values before it, then the error and its offset.
/// let cut = &input[..input.len() - 1];
/// let mut values = bijou64::values(cut);
/// assert_eq!(values.next(), Some(Ok(1)));
/// assert_eq!(values.next(), Some(Ok(300)));
/// assert_eq!(values.next(), Some(Err(DecodeError::Truncated { needed: 4, available: 3 })));
/// assert_eq!(values.next(), None);
/// assert_eq!(values.offset(), 3);
/// assert_eq!(values.remaining(), &cut[3..]);
/// ```
#[derive(Clone)]
pub struct Values<'a, T: Bijou> {
    input: &'a [u8],
    /// Where the buffered values start in `input`.
    buffer_start: usize,
    /// Where the bytes after the buffered values start.
    buffer_end: usize,
    buffer: [T; CHUNK],
    /// The next buffered value to yield.
    next: usize,
    /// Buffered values.
    len: usize,
    /// The error met after the buffered values, if any: yielded once the
    /// buffer runs out.
    error: Option<DecodeError>,
    /// No more values or errors.
    done: bool,
}

impl<'a, T: Bijou> Values<'a, T> {
    /// An iterator over the values encoded back to back in `input`.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::{Bijou, Values};
    ///
    /// fn sum<T: Bijou + Into<i128>>(input: &[u8]) -> i128 {
    ///     Values::<T>::new(input).map_while(Result::ok).map(Into::into).sum()
    /// }
    /// assert_eq!(sum::<i32>(&[0x01, 0x02, 0x03]), -1 + 1 - 2);
    /// ```
    #[must_use]
    pub fn new(input: &'a [u8]) -> Self {
        Values {
            input,
            buffer_start: 0,
            buffer_end: 0,
            buffer: [T::default(); CHUNK],
            next: 0,
            len: 0,
            error: None,
            done: false,
        }
    }

    /// Byte offset in the input of the next value to yield, or, after an
    /// error, of the value that caused it; the input's length once every
    /// value has been yielded.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::bijou64;
    ///
    /// let input = [0x07, 0xF8, 0x00, 0x09];
    /// let mut values = bijou64::values(&input);
    /// assert_eq!(values.offset(), 0);
    /// values.next();
    /// assert_eq!(values.offset(), 1);
    /// values.next();
    /// assert_eq!(values.offset(), 3);
    /// ```
    #[must_use]
    pub fn offset(&self) -> usize {
        // The buffer keeps values, not where each started: step over the
        // tags of those already yielded (at most a chunk of them).
        let mut offset = self.buffer_start;
        for _ in 0..self.next {
            offset += T::len_from_tag(self.input[offset]);
        }
        offset
    }

    /// The input from [`offset`](Values::offset) on: the bytes not yet
    /// yielded as values.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::bijou32;
    ///
    /// let input = [0x07, 0xFD, 0x00];
    /// let mut values = bijou32::values(&input);
    /// assert_eq!(values.next(), Some(Ok(7)));
    /// assert!(values.next().unwrap().is_err());
    /// assert_eq!(values.remaining(), &[0xFD, 0x00]);
    /// ```
    #[must_use]
    pub fn remaining(&self) -> &'a [u8] {
        &self.input[self.offset()..]
    }

    /// Refills the buffer from `buffer_end`; false when nothing was
    /// buffered (the end, or an error, is next).
    ///
    #[inline(always)]
    fn refill(&mut self) -> bool {
        if self.done || self.error.is_some() {
            return false;
        }
        let (written, consumed, error) =
            decode_chunk(&self.input[self.buffer_end..], &mut self.buffer);
        self.buffer_start = self.buffer_end;
        self.buffer_end += consumed;
        self.next = 0;
        self.len = written;
        self.error = error;
        self.done = written == 0 && error.is_none();
        written != 0
    }

    /// What `next` returns once the buffer is empty and cannot be
    /// refilled: the error, once, at its place; then `None`.
    #[inline(always)]
    fn finish(&mut self) -> Option<Result<T, DecodeError>> {
        let error = self.error.take()?;
        self.buffer_start = self.buffer_end;
        self.next = 0;
        self.len = 0;
        self.done = true;
        Some(Err(error))
    }
}

/// Decodes up to a buffer of values from the front of `input`: (values
/// written, bytes consumed, the error met right after them).
#[inline(never)]
fn decode_chunk<T: Bijou>(
    input: &[u8],
    buffer: &mut [T; CHUNK],
) -> (usize, usize, Option<DecodeError>) {
    let (written, consumed) = match T::decode_batch(input, buffer) {
        Ok(done) => done,
        Err(BatchDecodeError::Overflow { offset, written }) => {
            return (written, offset, Some(DecodeError::Overflow));
        }
    };
    // `decode_batch` stops short of a full buffer only at an overflow or
    // at the end, where it leaves a cut-off value unconsumed.
    if written == CHUNK || consumed == input.len() {
        return (written, consumed, None);
    }
    match T::decode(&input[consumed..]) {
        Err(error) => (written, consumed, Some(error)),
        // Not reached; a value decoded here keeps the iterator going.
        Ok((value, len)) => {
            buffer[written] = value;
            (written + 1, consumed + len, None)
        }
    }
}

impl<T: Bijou> Iterator for Values<'_, T> {
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
    fn fold<B, F: FnMut(B, Self::Item) -> B>(mut self, init: B, mut f: F) -> B {
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

impl<T: Bijou> core::iter::FusedIterator for Values<'_, T> {}

impl<T: Bijou> core::fmt::Debug for Values<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Values")
            .field("offset", &self.offset())
            .field("remaining", &self.remaining().len())
            .finish_non_exhaustive()
    }
}
