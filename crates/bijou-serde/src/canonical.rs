//! Checks that a type of yours keeps the canonical guarantee, for your
//! tests and fuzz targets.
//!
//! The guarantee holds for types whose `Serialize` and `Deserialize` are
//! derived from fields that keep it (docs/SERDE.md lists what breaks it:
//! hand-written impls that accept more than one form of a value, sets,
//! `untagged`, `flatten`, `skip_serializing_if`). These functions check it
//! on the values and bytes you give them:
//!
//! - [`check_value`]: the value encodes, its encoding decodes and
//!   re-encodes to itself, and so does every byte string one edit away
//!   from it (each byte replaced by each other byte, deleted, or preceded
//!   by an inserted byte) that decodes at all;
//! - [`check_bytes`]: if `input` decodes, it re-encodes to itself (for a
//!   fuzz target fed arbitrary bytes).
//!
//! # Examples
//!
//! ```
//! use std::collections::BTreeSet;
//! use std::time::Duration;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize)]
//! struct Reading { sensor: u16, celsius: f32, note: Option<String> }
//!
//! let value = Reading { sensor: 7, celsius: -0.0, note: Some("ok".into()) };
//! bijou_serde::canonical::check_value(&value).unwrap();
//!
//! // A set accepts its elements in any order and re-encodes them sorted:
//! let set: BTreeSet<u8> = [1, 2].into();
//! let violation = bijou_serde::canonical::check_value(&set).unwrap_err();
//! assert!(violation.to_string().contains("re-encode"));
//!
//! // serde's `Duration` accepts nanoseconds past a second and carries them:
//! let one_second = bijou_serde::to_vec(&(0u64, 1_000_000_000u32))?;
//! assert!(bijou_serde::canonical::check_bytes::<Duration>(&one_second).is_err());
//! # Ok::<(), bijou_serde::Error>(())
//! ```

use alloc::vec::Vec;

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use thiserror::Error;

use crate::{Error, from_slice, to_vec};

/// How a type failed a canonical check.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Violation {
    /// The value could not be encoded.
    #[error("the value does not encode: {0}")]
    Encode(#[source] Error),
    /// The value's own encoding does not decode.
    #[error("the value's encoding {} does not decode: {error}", Hex(encoding))]
    Decode {
        /// The encoding.
        encoding: Vec<u8>,
        /// Why decoding refused it.
        #[source]
        error: Error,
    },
    /// Bytes that decode to a value that encodes to different bytes.
    #[error(
        "{} decodes, but its value re-encodes to {}",
        Hex(input),
        Hex(reencoded)
    )]
    Reencoded {
        /// The accepted bytes.
        input: Vec<u8>,
        /// What the decoded value encodes to.
        reencoded: Vec<u8>,
    },
}

/// Bytes as hex in messages.
struct Hex<'a>(&'a [u8]);

impl core::fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for byte in self.0 {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

/// Checks that `input`, if it decodes as a `T`, re-encodes to itself.
/// Bytes that do not decode pass: refusing them is the format's job.
///
/// # Errors
///
/// [`Violation::Reencoded`] (or [`Violation::Encode`] if the decoded value
/// cannot be encoded).
///
/// # Examples
///
/// ```
/// use bijou_serde::canonical::check_bytes;
///
/// assert!(check_bytes::<(u8, String)>(&[0x07, 0x02, b'h', b'i']).is_ok());
/// assert!(check_bytes::<Vec<std::collections::BTreeSet<u8>>>(&[0x01, 0x02, 0x02, 0x01]).is_err());
/// ```
pub fn check_bytes<'de, T: Serialize + Deserialize<'de>>(
    input: &'de [u8],
) -> Result<(), Violation> {
    let Ok(value) = from_slice::<T>(input) else {
        return Ok(());
    };
    let reencoded = to_vec(&value).map_err(Violation::Encode)?;
    if reencoded == input {
        Ok(())
    } else {
        Err(Violation::Reencoded {
            input: input.to_vec(),
            reencoded,
        })
    }
}

/// Checks `value` and the byte strings around its encoding, and returns
/// the encoding: it decodes and re-encodes to itself, and so does every
/// string one edit away that decodes (each byte replaced by each of the
/// other 255, deleted, or preceded by each of `00`, `01`, `FF` and a copy
/// of itself; and each of those bytes appended). About 260 decodes per
/// encoded byte.
///
/// # Errors
///
/// The first [`Violation`] found.
///
/// # Examples
///
/// ```
/// use std::collections::HashMap;
///
/// let map: HashMap<String, i64> = [("a".into(), -1), ("b".into(), 2)].into();
/// let encoding = bijou_serde::canonical::check_value(&map)?;
/// assert_eq!(encoding, [0x02, 0x01, b'a', 0x01, 0x01, b'b', 0x04]);
/// # Ok::<(), bijou_serde::canonical::Violation>(())
/// ```
pub fn check_value<T: Serialize + DeserializeOwned>(value: &T) -> Result<Vec<u8>, Violation> {
    let encoding = to_vec(value).map_err(Violation::Encode)?;
    if let Err(error) = from_slice::<T>(&encoding) {
        return Err(Violation::Decode { encoding, error });
    }
    check_bytes::<T>(&encoding)?;
    for_each_neighbour(&encoding, |neighbour| check_bytes::<T>(neighbour))?;
    Ok(encoding)
}

/// Calls `check` on each byte string one edit away from `encoding` (see
/// [`check_value`]), stopping at the first error.
fn for_each_neighbour<E>(
    encoding: &[u8],
    mut check: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut scratch = Vec::with_capacity(encoding.len() + 1);
    let mut splice = |at: usize, drop: usize, insert: Option<u8>| {
        scratch.clear();
        scratch.extend_from_slice(&encoding[..at]);
        scratch.extend(insert);
        scratch.extend_from_slice(&encoding[at + drop..]);
        check(&scratch)
    };
    for at in 0..=encoding.len() {
        let copy = encoding.get(at).or(encoding.last()).copied().unwrap_or(0);
        for inserted in [0x00, 0x01, 0xFF, copy] {
            splice(at, 0, Some(inserted))?;
        }
        if at == encoding.len() {
            break;
        }
        splice(at, 1, None)?;
        for replacement in (0..=u8::MAX).filter(|&b| b != encoding[at]) {
            splice(at, 1, Some(replacement))?;
        }
    }
    Ok(())
}
