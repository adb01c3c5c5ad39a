#![doc = include_str!("../README.md")]
#![no_std]
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(any(feature = "alloc", test))]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "alloc")]
pub mod canonical;
mod de;
mod error;
mod keys;
mod output;
mod ser;
#[allow(unsafe_code)]
mod utf8;

pub use de::Deserializer;
pub use error::{Error, ErrorKind};
#[cfg(feature = "std")]
pub use output::IoOutput;
pub use output::{Output, SliceOutput};
pub use ser::Serializer;

/// The one NaN an `f32` is encoded as (the positive quiet NaN with an
/// empty payload, `f32::NAN` on every Rust target); any other NaN pattern
/// is refused when decoding.
pub const NAN_F32_BITS: u32 = 0x7FC0_0000;

/// The one NaN an `f64` is encoded as; see [`NAN_F32_BITS`].
pub const NAN_F64_BITS: u64 = 0x7FF8_0000_0000_0000;

/// The deepest nesting of options, sequences, maps and enums the
/// deserializer follows: a bound on its stack use for recursive types on
/// hostile input (a recursive type's base case is a choice or a count, so
/// its recursion passes through one of these). Values nested deeper
/// encode but do not decode.
pub const MAX_DEPTH: usize = 128;

/// Encodes `value` into a new `Vec`.
///
/// # Errors
///
/// Only for values the format cannot hold: a sequence without a length
/// ([`ErrorKind::UnknownLength`]), a field skipped by `skip_serializing_if`
/// ([`ErrorKind::SkippedField`]), two map keys with the same encoding
/// ([`ErrorKind::DuplicateMapKey`]), or an error from the value's `Serialize`.
///
/// # Examples
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Point { x: i32, y: i32 }
///
/// assert_eq!(bijou_serde::to_vec(&Point { x: 1, y: -1 })?, [0x02, 0x01]);
/// # Ok::<(), bijou_serde::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn to_vec<T: ?Sized + serde::Serialize>(value: &T) -> Result<alloc::vec::Vec<u8>, Error> {
    let size = serialized_size(value)?;
    let mut serializer = Serializer::new(alloc::vec::Vec::with_capacity(size));
    value.serialize(&mut serializer)?;
    Ok(serializer.into_inner())
}

/// The length of `value`'s encoding: what `to_vec(value)?.len()` is, found
/// without writing it (to size a buffer for [`to_slice`], or a frame's
/// length prefix).
///
/// # Errors
///
/// Those of `to_vec`, but for [`ErrorKind::DuplicateMapKey`]: a map's
/// size does not depend on its keys' order, so they are not compared, and
/// a map with two equal keys has a size here although `to_vec` refuses it.
///
/// # Examples
///
/// ```
/// use std::collections::BTreeMap;
///
/// let value = (300u32, "hi", BTreeMap::from([(1u8, -1i64)]));
/// let size = bijou_serde::serialized_size(&value)?;
/// assert_eq!(size, 8);
/// assert_eq!(size, bijou_serde::to_vec(&value)?.len());
/// # Ok::<(), bijou_serde::Error>(())
/// ```
pub fn serialized_size<T: ?Sized + serde::Serialize>(value: &T) -> Result<usize, Error> {
    let mut serializer = Serializer::new(output::SizeCounter::default());
    value.serialize(&mut serializer)?;
    Ok(serializer.into_inner().len())
}

/// Encodes `value` into the front of `buf` and returns the written part.
///
/// # Errors
///
/// [`ErrorKind::BufferFull`] when `buf` is too short (its contents are then
/// unspecified), and the errors of `to_vec`. [`serialized_size`] bytes are
/// enough, unless a map's `Serialize` announces a length other than its
/// count of entries: the count announced is written first and replaced
/// when the map ends, so a longer one needs its extra bytes meanwhile. Without the `alloc` feature,
/// map entries must come in increasing order of their encoded keys
/// ([`ErrorKind::UnsortedMapOutput`]).
///
/// # Examples
///
/// ```
/// let mut buf = [0u8; 16];
/// let written = bijou_serde::to_slice(&("hi", 300u32), &mut buf)?;
/// assert_eq!(written, [0x02, b'h', b'i', 0xFC, 0x30]);
/// # Ok::<(), bijou_serde::Error>(())
/// ```
pub fn to_slice<'a, T: ?Sized + serde::Serialize>(
    value: &T,
    buf: &'a mut [u8],
) -> Result<&'a mut [u8], Error> {
    let mut serializer = Serializer::new(SliceOutput::new(buf));
    value.serialize(&mut serializer)?;
    Ok(serializer.into_inner().into_written())
}

/// Encodes `value` to `writer`, in small writes as it goes: give it a
/// buffered writer.
///
/// # Errors
///
/// [`ErrorKind::Io`] when the writer fails, and the errors of [`to_vec`].
///
/// # Examples
///
/// ```
/// let mut out = Vec::new();
/// bijou_serde::to_writer(&Some('é'), &mut out)?;
/// assert_eq!(out, [0x01, 0xE9]);
/// # Ok::<(), bijou_serde::Error>(())
/// ```
#[cfg(feature = "std")]
pub fn to_writer<T: ?Sized + serde::Serialize, W: std::io::Write>(
    value: &T,
    writer: W,
) -> Result<(), Error> {
    value.serialize(&mut Serializer::new(IoOutput::new(writer)))
}

/// Decodes a `T` that is the whole of `input`.
///
/// # Errors
///
/// [`ErrorKind::TrailingBytes`] when `input` goes on after the value, and
/// whatever makes `input` not the encoding of a `T`: see [`Error`].
///
/// # Examples
///
/// ```
/// use bijou_serde::ErrorKind;
///
/// assert_eq!(bijou_serde::from_slice::<(bool, u16)>(&[0x01, 0xFC, 0x30])?, (true, 300));
/// let error = bijou_serde::from_slice::<bool>(&[0x01, 0x00]).unwrap_err();
/// assert!(matches!(error.kind(), ErrorKind::TrailingBytes { offset: 1, extra: 1 }));
/// # Ok::<(), bijou_serde::Error>(())
/// ```
pub fn from_slice<'de, T: serde::Deserialize<'de>>(input: &'de [u8]) -> Result<T, Error> {
    let mut deserializer = Deserializer::from_slice(input);
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Decodes a `T` from the front of `input`, returning it and the bytes
/// after it.
///
/// # Errors
///
/// Whatever makes the front of `input` not the encoding of a `T`: see
/// [`Error`].
///
/// # Examples
///
/// ```
/// let (value, rest) = bijou_serde::take_from_slice::<u64>(&[0xF8, 0x34, 0x07])?;
/// assert_eq!((value, rest), (300, &[0x07][..]));
/// # Ok::<(), bijou_serde::Error>(())
/// ```
pub fn take_from_slice<'de, T: serde::Deserialize<'de>>(
    input: &'de [u8],
) -> Result<(T, &'de [u8]), Error> {
    let mut deserializer = Deserializer::from_slice(input);
    let value = T::deserialize(&mut deserializer)?;
    Ok((value, deserializer.remaining()))
}
