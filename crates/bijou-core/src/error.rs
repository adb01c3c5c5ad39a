//! The error types shared by every width.

use thiserror::Error;

/// Why [`decode`](crate::bijou64::decode) could not produce a value.
///
/// The format has exactly two failure modes: too few bytes for the tier the
/// tag announces, and a top-tier payload that does not fit the target type.
/// There is no "non-canonical" error because no byte string is non-canonical.
///
/// The enum is exhaustive on purpose: the format is fixed, so these are all
/// the ways a decode can fail, and a `match` may name both without a
/// wildcard arm. A new variant would come only with a new format, in a
/// major release.
///
/// # Examples
///
/// ```
/// use bijou_core::{bijou64, DecodeError};
///
/// assert_eq!(bijou64::decode(&[0xF9, 0x00]), Err(DecodeError::Truncated { needed: 3, available: 2 }));
/// assert_eq!(bijou64::decode(&[0xFF; 9]), Err(DecodeError::Overflow));
///
/// let error = DecodeError::Truncated { needed: 3, available: 2 };
/// assert_eq!(
///     error.to_string(),
///     "truncated bijou value: 3 bytes needed, 2 available"
/// );
/// let empty_input = bijou64::decode(&[]).unwrap_err();
/// assert_eq!(empty_input.to_string(), "truncated bijou value: 1 byte needed, 0 available");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
pub enum DecodeError {
    /// The input ends before the value does. The slice decoders consume
    /// nothing, so a caller expecting more input appends it and decodes
    /// again from the same position; each `bijou-io` adapter documents
    /// where it leaves its buffer or stream.
    #[error(
        "truncated bijou value: {needed} {} needed, {available} available",
        bytes(*.needed)
    )]
    Truncated {
        /// Total bytes the value occupies (tag included), or 1 for an empty input.
        needed: usize,
        /// Bytes that were available.
        available: usize,
    },
    /// A top-tier value exceeds the maximum of the target integer type. The
    /// input is corrupt or was written with a wider bijou width.
    #[error("bijou value overflows its integer type (corrupt, or written with a wider width)")]
    Overflow,
}

/// "byte" or "bytes", whichever agrees with `count` in a message.
fn bytes(count: usize) -> &'static str {
    if count == 1 { "byte" } else { "bytes" }
}

/// Why [`encode_into`](crate::bijou64::encode_into) could not write a value.
///
/// Exhaustive on purpose, like [`DecodeError`]: every value has an
/// encoding, so a short output slice is the only way encoding can fail.
///
/// # Examples
///
/// ```
/// use bijou_core::{bijou64, EncodeError};
///
/// let mut out = [0u8; 1];
/// assert_eq!(bijou64::encode_into(300, &mut out), Err(EncodeError::BufferTooSmall { needed: 2, available: 1 }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
pub enum EncodeError {
    /// The output slice is shorter than the encoding; nothing was written.
    /// Size buffers with `MAX_BYTES` or `encoded_len` to avoid this.
    #[error(
        "output buffer too small: {needed} {} needed, {available} available",
        bytes(*.needed)
    )]
    BufferTooSmall {
        /// Bytes the encoding occupies.
        needed: usize,
        /// Bytes the output slice had.
        available: usize,
    },
}

/// Why [`decode_batch`](crate::bijou64::decode_batch) stopped early.
///
/// A value cut off at the end of the input is not an error for a batch (it is
/// left unconsumed so a streaming caller can refill), so overflow is the only
/// failure. The values before `offset` were decoded and written. Exhaustive
/// on purpose, like [`DecodeError`].
///
/// # Examples
///
/// ```
/// use bijou_core::{bijou64, BatchDecodeError};
///
/// let mut input = vec![0x01, 0x02];
/// input.extend_from_slice(&[0xFF; 9]);
/// let mut out = [0u64; 4];
/// assert_eq!(
///     bijou64::decode_batch(&input, &mut out),
///     Err(BatchDecodeError::Overflow { offset: 2, written: 2 }),
/// );
/// assert_eq!(&out[..2], &[1, 2]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
pub enum BatchDecodeError {
    /// The value starting at byte `offset` overflows the target type; the
    /// first `written` outputs hold the values before it.
    #[error(
        "bijou value at byte offset {offset} overflows its integer type ({written} {} \
         decoded before it)",
        if *.written == 1 { "value" } else { "values" }
    )]
    Overflow {
        /// Byte offset of the overflowing value's tag.
        offset: usize,
        /// Values written to the output before it.
        written: usize,
    },
}

impl BatchDecodeError {
    /// The single-value error this batch error corresponds to.
    ///
    /// # Examples
    ///
    /// ```
    /// use bijou_core::{BatchDecodeError, DecodeError};
    ///
    /// let e = BatchDecodeError::Overflow { offset: 0, written: 0 };
    /// assert_eq!(e.decode_error(), DecodeError::Overflow);
    /// ```
    pub const fn decode_error(self) -> DecodeError {
        match self {
            BatchDecodeError::Overflow { .. } => DecodeError::Overflow,
        }
    }
}

/// The single-value error, as [`BatchDecodeError::decode_error`]; the
/// offset and count are dropped.
///
/// ```
/// use bijou_core::{bijou64, DecodeError};
///
/// fn first_two(input: &[u8]) -> Result<[u64; 2], DecodeError> {
///     let mut out = [0u64; 2];
///     bijou64::decode_batch(input, &mut out)?;
///     Ok(out)
/// }
/// assert_eq!(first_two(&[0xFF; 9]), Err(DecodeError::Overflow));
/// ```
impl From<BatchDecodeError> for DecodeError {
    #[inline]
    fn from(error: BatchDecodeError) -> Self {
        error.decode_error()
    }
}

#[cfg(feature = "std")]
impl From<DecodeError> for std::io::Error {
    /// `Truncated` maps to `UnexpectedEof`, `Overflow` to `InvalidData`; the
    /// `DecodeError` is the inner error: [`get_ref`](std::io::Error::get_ref)
    /// and a downcast give it back (`source()` does not: `io::Error` passes
    /// it through to the inner error's own source).
    fn from(error: DecodeError) -> Self {
        let kind = match error {
            DecodeError::Truncated { .. } => std::io::ErrorKind::UnexpectedEof,
            DecodeError::Overflow => std::io::ErrorKind::InvalidData,
        };
        std::io::Error::new(kind, error)
    }
}

#[cfg(feature = "std")]
impl From<BatchDecodeError> for std::io::Error {
    /// Maps to `InvalidData`, with the `BatchDecodeError` as the inner error
    /// ([`get_ref`](std::io::Error::get_ref) and a downcast give it back).
    fn from(error: BatchDecodeError) -> Self {
        std::io::Error::new(std::io::ErrorKind::InvalidData, error)
    }
}

#[cfg(feature = "std")]
impl From<EncodeError> for std::io::Error {
    /// Maps to `WriteZero`, as std's `Write` for a full `&mut [u8]` does,
    /// with the `EncodeError` as the inner error
    /// ([`get_ref`](std::io::Error::get_ref) and a downcast give it back).
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use bijou_core::bijou64;
    ///
    /// fn header(out: &mut [u8], len: u64) -> std::io::Result<usize> {
    ///     Ok(bijou64::encode_into(len, out)?)
    /// }
    /// assert_eq!(header(&mut [0; 1], 300).unwrap_err().kind(), ErrorKind::WriteZero);
    /// assert_eq!(header(&mut [0; 9], 300).unwrap(), 2);
    /// ```
    fn from(error: EncodeError) -> Self {
        std::io::Error::new(std::io::ErrorKind::WriteZero, error)
    }
}
