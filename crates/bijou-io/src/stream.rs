//! A push decoder for byte streams that arrive in arbitrary pieces.

use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;

use bijou_core::{Bijou, DecodeError, MAX_ENCODED_LEN};

/// A resumable decoder for a stream of bijou values of width `T`, fed with
/// byte slices of any size.
///
/// Values are decoded straight from each pushed slice; a value cut off at the
/// end of a slice is copied into the decoder (at most 16 bytes) and completed
/// from the next one. Any chunking of a byte stream therefore yields exactly
/// the values that decoding the whole stream as one slice would.
///
/// The partial value lives in the struct, not in a local variable or a
/// future's state, so an async loop that reads into a buffer and feeds the
/// decoder is cancel-safe as long as its read is (dropping the future loses
/// no byte). The decoder needs no allocator and no `std`.
///
/// # Errors and the state after them
///
/// The only error is [`DecodeError::Overflow`] (a value too large for `T`).
/// When it is returned, the offending value's bytes have been consumed (from
/// the input and/or the decoder) and the decoder is empty, positioned at the
/// next value: stop, or keep decoding to skip the bad value. A stream that
/// ends in the middle of a value is detected with [`finish`](Self::finish).
///
/// # Examples
///
/// ```
/// use bijou_io::StreamDecoder;
///
/// // 7, 300, 70000 as bijou64, arriving in awkward pieces.
/// let pieces: [&[u8]; 3] = [&[0x07, 0xF8], &[0x34, 0xFA, 0x00], &[0x0F, 0x78]];
/// let mut decoder = StreamDecoder::<u64>::new();
/// let mut values = Vec::new();
/// for piece in pieces {
///     for value in decoder.values(piece) {
///         values.push(value?);
///     }
/// }
/// decoder.finish()?; // no value was left half-received
/// assert_eq!(values, [7, 300, 70000]);
/// # Ok::<(), bijou_io::DecodeError>(())
/// ```
pub struct StreamDecoder<T: Bijou> {
    /// The bytes of a value whose end has not arrived; `partial[0]` is its tag.
    partial: [u8; MAX_ENCODED_LEN],
    /// How many bytes of `partial` are filled; 0 between values.
    filled: u8,
    width: PhantomData<fn() -> T>,
}

impl<T: Bijou> StreamDecoder<T> {
    /// Creates a decoder positioned at the start of a value.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::StreamDecoder;
    ///
    /// let decoder = StreamDecoder::<i32>::new();
    /// assert!(!decoder.has_partial());
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        StreamDecoder {
            partial: [0; MAX_ENCODED_LEN],
            filled: 0,
            width: PhantomData,
        }
    }

    /// Decodes the next value from `input`, advancing `input` past the bytes
    /// it used.
    ///
    /// Returns `Ok(Some(value))` when a value completed (`input` now starts
    /// at the byte after it) and `Ok(None)` when `input` ran out first: then
    /// `input` is empty and any partial value is held by the decoder, to be
    /// completed by the next call.
    ///
    /// # Errors
    ///
    /// [`DecodeError::Overflow`] when the value does not fit `T`. Its bytes
    /// are consumed and the decoder is empty, so the next call decodes the
    /// value after it.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::StreamDecoder;
    ///
    /// let mut decoder = StreamDecoder::<u32>::new();
    /// let mut input: &[u8] = &[0x05, 0xFD, 0x00];
    /// assert_eq!(decoder.decode_next(&mut input), Ok(Some(5)));
    /// assert_eq!(decoder.decode_next(&mut input), Ok(None)); // 0xFD announces 3 bytes
    /// assert!(input.is_empty());
    /// assert_eq!(decoder.pending(), &[0xFD, 0x00]);
    ///
    /// let mut input: &[u8] = &[0x00, 0x09];
    /// assert_eq!(decoder.decode_next(&mut input), Ok(Some(508)));
    /// assert_eq!(input, &[0x09]);
    /// # Ok::<(), bijou_io::DecodeError>(())
    /// ```
    #[inline]
    pub fn decode_next(&mut self, input: &mut &[u8]) -> Result<Option<T>, DecodeError> {
        if self.filled == 0 {
            match T::decode(input) {
                Ok((value, len)) => {
                    *input = &input[len..];
                    Ok(Some(value))
                }
                Err(DecodeError::Truncated { .. }) => {
                    self.stash(input);
                    Ok(None)
                }
                Err(DecodeError::Overflow) => {
                    // decode only overflows with the whole value present.
                    let len = T::len_from_tag(input[0]).min(input.len());
                    *input = &input[len..];
                    Err(DecodeError::Overflow)
                }
            }
        } else {
            self.resume(input)
        }
    }

    /// An iterator over the values in `input`, continuing any partial value
    /// held from earlier input; see [`Values`].
    ///
    /// Each item is [`decode_next`](Self::decode_next) on the rest of
    /// `input`; when the iterator ends, all of `input` has been consumed
    /// (a trailing partial value is held by the decoder).
    ///
    /// # Errors
    ///
    /// Items are `Err(DecodeError::Overflow)` for values that do not fit `T`;
    /// iteration may continue after one, with the value after it.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::StreamDecoder;
    ///
    /// let mut decoder = StreamDecoder::<i64>::new();
    /// let values: Result<Vec<i64>, _> = decoder.values(&[0x01, 0x02, 0x03]).collect();
    /// assert_eq!(values, Ok(vec![-1, 1, -2]));
    /// ```
    pub fn values<'d, 'i>(&'d mut self, input: &'i [u8]) -> Values<'d, 'i, T> {
        Values {
            decoder: self,
            input,
        }
    }

    /// Reports whether the stream ended cleanly, between two values.
    ///
    /// Call it once the input is exhausted (end of file, closed connection).
    /// The decoder is unchanged.
    ///
    /// # Errors
    ///
    /// [`DecodeError::Truncated`] when a partial value is held: `needed` is
    /// its full length and `available` the bytes that arrived.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::{DecodeError, StreamDecoder};
    ///
    /// let mut decoder = StreamDecoder::<u64>::new();
    /// assert_eq!(decoder.values(&[0x01, 0xF9, 0x00]).next(), Some(Ok(1)));
    /// assert_eq!(decoder.finish(), Ok(()));
    /// let mut rest: &[u8] = &[0xF9, 0x00];
    /// assert_eq!(decoder.decode_next(&mut rest), Ok(None));
    /// assert_eq!(decoder.finish(), Err(DecodeError::Truncated { needed: 3, available: 2 }));
    /// ```
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.pending() {
            [] => Ok(()),
            pending => Err(DecodeError::Truncated {
                needed: T::len_from_tag(pending[0]),
                available: pending.len(),
            }),
        }
    }

    /// The bytes of the partial value held by the decoder (empty between
    /// values).
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::StreamDecoder;
    ///
    /// let mut decoder = StreamDecoder::<u64>::new();
    /// let mut input: &[u8] = &[0xFF, 0x01];
    /// assert_eq!(decoder.decode_next(&mut input), Ok(None));
    /// assert_eq!(decoder.pending(), &[0xFF, 0x01]);
    /// ```
    #[must_use]
    pub fn pending(&self) -> &[u8] {
        &self.partial[..usize::from(self.filled)]
    }

    /// Whether a partial value is held, i.e. the stream is not between two
    /// values.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::StreamDecoder;
    ///
    /// let mut decoder = StreamDecoder::<u32>::new();
    /// let mut input: &[u8] = &[0xFC];
    /// decoder.decode_next(&mut input)?;
    /// assert!(decoder.has_partial());
    /// # Ok::<(), bijou_io::DecodeError>(())
    /// ```
    #[must_use]
    pub fn has_partial(&self) -> bool {
        self.filled != 0
    }

    /// Drops any partial value, so the next byte pushed is read as a tag.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::StreamDecoder;
    ///
    /// let mut decoder = StreamDecoder::<u32>::new();
    /// let mut input: &[u8] = &[0xFC];
    /// decoder.decode_next(&mut input)?;
    /// decoder.reset();
    /// assert!(!decoder.has_partial());
    /// # Ok::<(), bijou_io::DecodeError>(())
    /// ```
    pub fn reset(&mut self) {
        self.filled = 0;
    }

    /// Keeps the whole of `input`, shorter than the value it starts, as the
    /// partial value.
    fn stash(&mut self, input: &mut &[u8]) {
        self.partial[..input.len()].copy_from_slice(input);
        self.filled = input.len() as u8;
        *input = &[];
    }

    /// Continues the held partial value with the front of `input`.
    #[cold]
    fn resume(&mut self, input: &mut &[u8]) -> Result<Option<T>, DecodeError> {
        let have = usize::from(self.filled);
        let needed = T::len_from_tag(self.partial[0]);
        let take = (needed - have).min(input.len());
        self.partial[have..have + take].copy_from_slice(&input[..take]);
        *input = &input[take..];
        if have + take < needed {
            self.filled = (have + take) as u8;
            return Ok(None);
        }
        self.filled = 0;
        T::decode(&self.partial[..needed]).map(|(value, _)| Some(value))
    }
}

impl<T: Bijou> Default for StreamDecoder<T> {
    /// Same as [`StreamDecoder::new`].
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Bijou> Clone for StreamDecoder<T> {
    fn clone(&self) -> Self {
        StreamDecoder {
            partial: self.partial,
            filled: self.filled,
            width: PhantomData,
        }
    }
}

impl<T: Bijou> fmt::Debug for StreamDecoder<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamDecoder")
            .field("width", &T::NAME)
            .field("pending", &self.pending())
            .finish()
    }
}

/// Iterator over the values of one input slice pushed into a
/// [`StreamDecoder`], returned by [`StreamDecoder::values`].
///
/// Yields `Ok(value)` per completed value and `Err(DecodeError::Overflow)`
/// per value too large for `T` (iteration may go on past it). It ends when
/// the slice is used up; a trailing partial value stays in the decoder.
/// Dropping the iterator early leaves the unread rest of the slice unread
/// (see [`remainder`](Self::remainder)).
///
/// # Examples
///
/// ```
/// use bijou_io::StreamDecoder;
///
/// let mut decoder = StreamDecoder::<u32>::new();
/// let mut values = decoder.values(&[0x01, 0x02, 0x03]);
/// assert_eq!(values.next(), Some(Ok(1)));
/// assert_eq!(values.remainder(), &[0x02, 0x03]);
/// ```
#[must_use = "iterators are lazy: the piece reaches the decoder only as the values are taken"]
pub struct Values<'d, 'i, T: Bijou> {
    decoder: &'d mut StreamDecoder<T>,
    input: &'i [u8],
}

impl<'i, T: Bijou> Values<'_, 'i, T> {
    /// The part of the input slice not consumed yet.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_io::StreamDecoder;
    ///
    /// let mut decoder = StreamDecoder::<u64>::new();
    /// let mut values = decoder.values(&[0x01, 0xF8]);
    /// assert_eq!(values.remainder(), &[0x01, 0xF8]);
    /// assert_eq!(values.by_ref().count(), 1);
    /// assert_eq!(values.remainder(), &[]); // 0xF8 now waits in the decoder
    /// ```
    #[must_use]
    pub fn remainder(&self) -> &'i [u8] {
        self.input
    }
}

impl<T: Bijou> Iterator for Values<'_, '_, T> {
    type Item = Result<T, DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.decoder.decode_next(&mut self.input).transpose()
    }
}

impl<T: Bijou> FusedIterator for Values<'_, '_, T> {}

impl<T: Bijou> fmt::Debug for Values<'_, '_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Values")
            .field("decoder", &self.decoder)
            .field("remainder", &self.input)
            .finish()
    }
}
