//! The one error type of both directions: [`Error`], a pointer to its
//! [`ErrorKind`] (boxed with `alloc`, so that a `Result` of a small value
//! is returned in registers, which is most of what decoding does).

use thiserror::Error;

/// Why a value could not be encoded or decoded: [`kind`](Error::kind)
/// says what was wrong, [`offset`](Error::offset) where.
///
/// # Examples
///
/// ```
/// use bijou_serde::ErrorKind;
///
/// let error = bijou_serde::from_slice::<bool>(&[0x02]).unwrap_err();
/// assert!(matches!(error.kind(), ErrorKind::InvalidBool { offset: 0, byte: 2 }));
/// assert_eq!(error.offset(), 0);
/// assert_eq!(error.to_string(), "invalid bool at byte 0: 0x02 (only 0x00 and 0x01 encode a bool)");
/// ```
#[derive(Error)]
#[error(transparent)]
pub struct Error {
    #[cfg(feature = "alloc")]
    kind: alloc::boxed::Box<ErrorKind>,
    #[cfg(not(feature = "alloc"))]
    kind: ErrorKind,
}

/// What was wrong, and where.
///
/// Every variant carries `offset`: for decoding, the byte of the input
/// where the problem is (the first byte of the offending value, or the end
/// of the input when it ran out); for encoding, how many bytes had been
/// written when it happened. [`ErrorKind::offset`] reads it from any
/// variant.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value. Nothing was consumed past the last
    /// complete value, so a caller expecting more input can append it and
    /// decode again from the start.
    #[error(
        "input ended at byte {offset}: {needed} more {} needed (the data is cut short)",
        bytes(*.needed)
    )]
    Truncated {
        /// The end of the input.
        offset: usize,
        /// Bytes the value needed beyond the end.
        needed: usize,
    },
    /// `from_slice` decoded a whole value before the end of its input.
    #[error(
        "trailing bytes: the value ends at byte {offset} but {extra} more {} follow \
         (use take_from_slice to decode a value from the front of a longer input)",
        bytes(*.extra)
    )]
    TrailingBytes {
        /// Where the value ended.
        offset: usize,
        /// Bytes left after it.
        extra: usize,
    },
    /// A varint does not fit the integer type the value is read as.
    #[error("integer at byte {offset} does not fit in {ty} (corrupt input, or a different type)")]
    IntegerOverflow {
        /// The varint's first byte.
        offset: usize,
        /// The Rust type it was read as.
        ty: &'static str,
    },
    /// A bool byte other than `0x00` or `0x01`.
    #[error("invalid bool at byte {offset}: {byte:#04x} (only 0x00 and 0x01 encode a bool)")]
    InvalidBool {
        /// The byte's offset.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// An `Option` tag other than `0x00` (None) or `0x01` (Some).
    #[error("invalid option tag at byte {offset}: {byte:#04x} (0x00 is None, 0x01 is Some)")]
    InvalidOption {
        /// The tag's offset.
        offset: usize,
        /// The tag byte.
        byte: u8,
    },
    /// A `char` that is a surrogate or above `0x10FFFF`.
    #[error("invalid char at byte {offset}: {value:#x} is not a Unicode scalar value")]
    InvalidChar {
        /// The varint's first byte.
        offset: usize,
        /// The decoded code point.
        value: u32,
    },
    /// A NaN other than the canonical one (`0x7FC00000` for `f32`,
    /// `0x7FF8000000000000` for `f64`): every NaN is encoded as that one.
    #[error("non-canonical NaN at byte {offset}: every NaN is encoded as the canonical quiet NaN")]
    NonCanonicalNan {
        /// The float's first byte.
        offset: usize,
    },
    /// A string that is not UTF-8.
    #[error("invalid UTF-8 in the string at byte {offset}")]
    InvalidUtf8 {
        /// The first byte of the string's content.
        offset: usize,
    },
    /// A length prefix larger than the input left after it.
    #[error(
        "length {len} at byte {offset} exceeds the {available} {} left in the input",
        bytes(*.available)
    )]
    LengthExceedsInput {
        /// The length's first byte.
        offset: usize,
        /// The length read.
        len: u64,
        /// Bytes left after the length.
        available: usize,
    },
    /// A map key that does not sort after the one before it (encoded bytes,
    /// memcmp order).
    #[error(
        "map key at byte {offset} is out of order: keys must be in increasing order of \
         their encoded bytes"
    )]
    UnsortedMapKey {
        /// The key's first byte.
        offset: usize,
    },
    /// A map key whose encoding equals the one before it.
    #[error("duplicate map key at byte {offset}")]
    DuplicateMapKey {
        /// The key's first byte (when encoding: the map's first byte).
        offset: usize,
    },
    /// A type asked for a self-describing format: `deserialize_any` or
    /// `deserialize_ignored_any`, as used by `#[serde(untagged)]`,
    /// internally tagged enums, `#[serde(flatten)]` and skipped unknown
    /// fields.
    #[error(
        "{method} at byte {offset} is unsupported: bijou-serde is not self-describing, so \
         untagged or internally tagged enums, flatten and ignored fields cannot be decoded"
    )]
    NotSelfDescribing {
        /// Where decoding stood.
        offset: usize,
        /// The serde method called.
        method: &'static str,
    },
    /// Nesting deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) containers.
    #[error("nesting deeper than {} at byte {offset}", crate::MAX_DEPTH)]
    TooDeep {
        /// Where the container that went too deep starts.
        offset: usize,
    },
    /// A sequence serialized without a length (an iterator-driven
    /// `Serialize` impl): the count comes first in this format. (A map's
    /// count is put in place when the map ends, so a map may omit it.)
    #[error(
        "sequence at output byte {offset} has no length: serialize it from a collection \
         that knows its length"
    )]
    UnknownLength {
        /// Bytes written before it.
        offset: usize,
    },
    /// A struct field skipped by `#[serde(skip_serializing_if)]`: fields
    /// are positional, so the decoder would read the next field in its place.
    #[error(
        "field `{field}` skipped at output byte {offset}: skip_serializing_if breaks a \
         positional format; remove it"
    )]
    SkippedField {
        /// Bytes written before it.
        offset: usize,
        /// The field's name.
        field: &'static str,
    },
    /// Without the `alloc` feature, map entries cannot be sorted, so they
    /// must be serialized in increasing order of their encoded keys.
    #[error(
        "map key at output byte {offset} is out of order; without the alloc feature, \
         serialize map entries in increasing order of their encoded keys"
    )]
    UnsortedMapOutput {
        /// The key's first byte in the output.
        offset: usize,
    },
    /// `to_slice`'s output slice is too short.
    #[error(
        "output buffer full at byte {offset}: {needed} more {} needed",
        bytes(*.needed)
    )]
    BufferFull {
        /// Bytes written before the write that did not fit.
        offset: usize,
        /// Bytes that write needed beyond the end.
        needed: usize,
    },
    /// `to_writer`'s writer failed.
    #[cfg(feature = "std")]
    #[error("writing output byte {offset} failed: {source}")]
    Io {
        /// Bytes written before the failed write.
        offset: usize,
        /// The writer's error.
        source: std::io::Error,
    },
    /// An error raised by a `Serialize` or `Deserialize` impl (for derived
    /// ones: an unknown enum variant index, a missing field, a value the
    /// type refuses).
    #[cfg_attr(feature = "alloc", error("{message} (at byte {offset})"))]
    #[cfg_attr(
        not(feature = "alloc"),
        error("a Serialize or Deserialize impl refused the value at byte {offset}")
    )]
    Custom {
        /// For decoding, where decoding stood when the impl refused the
        /// value (just after what it read); for encoding, bytes written.
        offset: usize,
        /// The impl's message.
        #[cfg(feature = "alloc")]
        message: alloc::string::String,
    },
}

/// `$body` with `$offset` bound to the `offset` field of whichever variant
/// `$error` is.
macro_rules! for_each_variant {
    ($error:expr, $offset:ident => $body:expr) => {
        match $error {
            ErrorKind::Truncated { $offset, .. }
            | ErrorKind::TrailingBytes { $offset, .. }
            | ErrorKind::IntegerOverflow { $offset, .. }
            | ErrorKind::InvalidBool { $offset, .. }
            | ErrorKind::InvalidOption { $offset, .. }
            | ErrorKind::InvalidChar { $offset, .. }
            | ErrorKind::NonCanonicalNan { $offset }
            | ErrorKind::InvalidUtf8 { $offset }
            | ErrorKind::LengthExceedsInput { $offset, .. }
            | ErrorKind::UnsortedMapKey { $offset }
            | ErrorKind::DuplicateMapKey { $offset }
            | ErrorKind::NotSelfDescribing { $offset, .. }
            | ErrorKind::TooDeep { $offset }
            | ErrorKind::UnknownLength { $offset }
            | ErrorKind::SkippedField { $offset, .. }
            | ErrorKind::UnsortedMapOutput { $offset }
            | ErrorKind::BufferFull { $offset, .. }
            | ErrorKind::Custom { $offset, .. } => $body,
            #[cfg(feature = "std")]
            ErrorKind::Io { $offset, .. } => $body,
        }
    };
}

/// The `offset` of an error raised by a serde impl before the format
/// knows where it stands; [`Error::or_at`] fills it in.
const UNKNOWN: usize = usize::MAX;

impl ErrorKind {
    /// The byte offset the error names (see [`ErrorKind`]).
    #[must_use]
    pub fn offset(&self) -> usize {
        for_each_variant!(self, offset => *offset)
    }
}

impl Error {
    /// What was wrong.
    #[must_use]
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    fn kind_mut(&mut self) -> &mut ErrorKind {
        &mut self.kind
    }

    /// What was wrong, by value.
    #[must_use]
    pub fn into_kind(self) -> ErrorKind {
        #[cfg(feature = "alloc")]
        return *self.kind;
        #[cfg(not(feature = "alloc"))]
        return self.kind;
    }

    /// The byte offset the error names (see [`ErrorKind`]).
    ///
    /// # Examples
    ///
    /// ```
    /// let error = bijou_serde::from_slice::<(u8, char)>(&[0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).unwrap_err();
    /// assert_eq!(error.offset(), 1);
    /// ```
    #[must_use]
    pub fn offset(&self) -> usize {
        self.kind.offset()
    }

    /// `self`, with `offset` filled in if a serde impl raised it.
    #[cold]
    pub(crate) fn or_at(mut self, at: usize) -> Self {
        if let ErrorKind::Custom { offset, .. } = self.kind_mut()
            && *offset == UNKNOWN
        {
            *offset = at;
        }
        self
    }

    #[cold]
    fn custom(_message: impl core::fmt::Display) -> Self {
        ErrorKind::Custom {
            offset: UNKNOWN,
            #[cfg(feature = "alloc")]
            message: alloc::string::ToString::to_string(&_message),
        }
        .into()
    }
}

impl From<ErrorKind> for Error {
    #[cold]
    fn from(kind: ErrorKind) -> Self {
        Error {
            #[cfg(feature = "alloc")]
            kind: alloc::boxed::Box::new(kind),
            #[cfg(not(feature = "alloc"))]
            kind,
        }
    }
}

/// The kind's `Debug`: `Error` is only its kind.
impl core::fmt::Debug for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.kind(), f)
    }
}

/// "byte" or "bytes", whichever agrees with `count` in a message.
fn bytes(count: usize) -> &'static str {
    if count == 1 { "byte" } else { "bytes" }
}

impl serde::ser::Error for Error {
    fn custom<T: core::fmt::Display>(message: T) -> Self {
        Error::custom(message)
    }
}

impl serde::de::Error for Error {
    fn custom<T: core::fmt::Display>(message: T) -> Self {
        Error::custom(message)
    }
}

#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    /// `Truncated` maps to `UnexpectedEof`, `Io` to its own error, the rest
    /// to `InvalidData` (decoding) or `InvalidInput` (encoding), with the
    /// `Error` as the inner error.
    fn from(error: Error) -> Self {
        use std::io::ErrorKind as Io;
        let kind = match error.kind() {
            ErrorKind::Io { .. } => {
                let ErrorKind::Io { source, .. } = error.into_kind() else {
                    unreachable!("matched just above")
                };
                return source;
            }
            ErrorKind::Truncated { .. } => Io::UnexpectedEof,
            ErrorKind::UnknownLength { .. }
            | ErrorKind::SkippedField { .. }
            | ErrorKind::UnsortedMapOutput { .. } => Io::InvalidInput,
            ErrorKind::BufferFull { .. } => Io::WriteZero,
            _ => Io::InvalidData,
        };
        std::io::Error::new(kind, error)
    }
}
