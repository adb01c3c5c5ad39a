//! [`Values`]: the values of a byte string of concatenated encodings, as
//! an iterator that decodes ahead.
//!
//! A `while` loop over `decode` steps from value to value, and each step
//! waits for the previous value's length. The iterator instead decodes a
//! chunk of values at a time with the width's `decode_batch` (its vector
//! paths included) into a buffer inside the iterator, and `next` hands
//! them out one by one: a compare, a load and an increment per value. The
//! buffer is a fixed array, so the iterator never allocates and works
//! without `alloc`. It is zeroed (as `decode_batch` writes to initialized
//! values) only when the input left at a refill is long enough for a
//! chunk; a shorter input (a field list, a small message) is decoded a
//! value at a time into the buffer's first slot, never paying for the
//! rest.
//!
//! Where a value is cut off or overflows, the iterator yields that error
//! once and then ends; [`Values::offset`] is then the error's byte offset
//! and [`Values::remaining`] the bytes from there on, so a caller can
//! report the place or append bytes and start again from it.

use core::mem::MaybeUninit;

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
    /// Its first `len` values are written, and all of it once `zeroed`.
    buffer: [MaybeUninit<T>; CHUNK],
    /// Whether every value of `buffer` is written.
    zeroed: bool,
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
            buffer: [const { MaybeUninit::uninit() }; CHUNK],
            zeroed: false,
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
    /// buffered (the end, or an error, is next). Before the buffer is
    /// zeroed, a short input is decoded a value at a time; once it is, the
    /// rest goes through `decode_batch`, short or not.
    #[inline(always)]
    fn refill(&mut self) -> bool {
        if self.done || self.error.is_some() {
            return false;
        }
        let input = &self.input[self.buffer_end..];
        let short = !self.zeroed && input.len() < crate::batch::SHORT_BATCH;
        let (written, consumed, error) = if short {
            decode_one(input, &mut self.buffer[0])
        } else {
            decode_chunk(input, self.chunk())
        };
        self.buffer_start = self.buffer_end;
        self.buffer_end += consumed;
        self.next = 0;
        self.len = written;
        self.error = error;
        self.done = written == 0 && error.is_none();
        written != 0
    }

    /// The whole buffer, zeroed the first time.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn chunk(&mut self) -> &mut [T; CHUNK] {
        if !self.zeroed {
            self.zero();
        }
        // SAFETY: every value of the buffer is written (just above, or
        // before `zeroed` was set), and `MaybeUninit<T>` has `T`'s layout.
        unsafe { &mut *(&raw mut self.buffer).cast::<[T; CHUNK]>() }
    }

    /// Writes every value of the buffer: once per iterator, so out of
    /// line, away from the loop that `next` is inlined into.
    #[cold]
    #[inline(never)]
    fn zero(&mut self) {
        self.buffer.fill(MaybeUninit::new(T::default()));
        self.zeroed = true;
    }

    /// The buffered values.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn buffered(&self) -> &[T] {
        let values = &self.buffer[..self.len];
        // SAFETY: the first `len` values are written (by the refill that
        // set `len`), and `MaybeUninit<T>` has `T`'s layout.
        unsafe { &*(core::ptr::from_ref(values) as *const [T]) }
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

/// Decodes the value at the front of `input` into `slot`, as
/// [`decode_chunk`] does a chunk: a short input's refill.
#[inline(always)]
fn decode_one<T: Bijou>(
    input: &[u8],
    slot: &mut MaybeUninit<T>,
) -> (usize, usize, Option<DecodeError>) {
    if input.is_empty() {
        return (0, 0, None);
    }
    match T::decode(input) {
        Ok((value, len)) => {
            slot.write(value);
            (1, len, None)
        }
        Err(error) => (0, 0, Some(error)),
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

    // Always inlined (the refill's calls stay out of line): left to the
    // compiler, it was called once a value from a `for` loop.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.len && !self.refill() {
            return self.finish();
        }
        let value = self.buffer.get(self.next)?;
        self.next += 1;
        // SAFETY: `next` was below `len`, and the first `len` values are
        // written (by the refill that set `len`).
        Some(Ok(unsafe { value.assume_init() }))
    }

    /// Chunk by chunk, with the position in a register: what `for_each`,
    /// `sum`, `count` and the other consuming adapters run on.
    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        loop {
            let start = self.next.min(self.len);
            for &value in &self.buffered()[start..] {
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

#[cfg(test)]
mod tests {
    use crate::{DecodeError, bijou64};
    use std::vec::Vec;

    /// Both of the buffer's uses, the first slot (inputs below the short
    /// batch) and the whole chunk (longer ones), against `decode`, cut
    /// off and not: small enough for Miri (`cargo xtask miri`), which
    /// checks that no value is read before it is written.
    #[test]
    fn short_and_long_inputs_equal_decode() {
        for count in [0, 1, 5, 30, 90] {
            let values: Vec<u64> = (0..count)
                .map(|i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (i % 64))
                .collect();
            let mut input = Vec::new();
            bijou64::encode_batch(&values, &mut input);
            assert_eq!(
                input.len() >= crate::batch::SHORT_BATCH,
                count == 90,
                "{count} values: {} bytes",
                input.len()
            );
            let decoded: Result<Vec<u64>, DecodeError> = bijou64::values(&input).collect();
            assert_eq!(decoded, Ok(values.clone()));
            let cut = &input[..input.len().saturating_sub(1)];
            let mut iter = bijou64::values(cut);
            let mut at = 0;
            for item in iter.by_ref() {
                match item {
                    Ok(value) => {
                        let (want, len) = bijou64::decode(&cut[at..]).expect("a whole value");
                        assert_eq!(value, want);
                        at += len;
                    }
                    Err(error) => {
                        assert_eq!(Err(error), bijou64::decode(&cut[at..]));
                        break;
                    }
                }
            }
            assert_eq!(iter.offset(), at);
        }
    }
}
