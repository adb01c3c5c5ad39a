//! Failures as JavaScript sees them.

use bijou_core::{BatchDecodeError, DecodeError};
use wasm_bindgen::prelude::wasm_bindgen;

/// Why a varint export failed: thrown by it, and turned by the JavaScript
/// layer into a `BijouDecodeError` (`truncated`, `overflow`) or a
/// `RangeError` (`too-large`).
#[wasm_bindgen]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    message: String,
    kind: Kind,
    offset: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Truncated,
    Overflow,
    TooLarge,
}

#[wasm_bindgen]
impl Failure {
    /// The Rust error's message.
    #[wasm_bindgen(getter)]
    pub fn message(&self) -> String {
        self.message.clone()
    }

    /// `"truncated"` or `"overflow"`, the format's two failure modes, or
    /// `"too-large"`: the result would not fit in the wasm memory.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        match self.kind {
            Kind::Truncated => "truncated",
            Kind::Overflow => "overflow",
            Kind::TooLarge => "too-large",
        }
        .into()
    }

    /// Byte offset of the value that failed, from the start of the input.
    #[wasm_bindgen(getter)]
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl Failure {
    /// `error` met by the value starting at byte `offset`.
    pub(crate) fn at(error: DecodeError, offset: usize) -> Self {
        Failure {
            message: error.to_string(),
            kind: match error {
                DecodeError::Truncated { .. } => Kind::Truncated,
                DecodeError::Overflow => Kind::Overflow,
            },
            offset,
        }
    }

    /// A result of `count` items of `size` bytes could not be allocated.
    pub(crate) fn too_large(count: usize, size: usize) -> Self {
        Failure {
            message: format!(
                "the result ({count} \u{d7} {size} bytes) does not fit in the wasm memory; \
                 pass the input in smaller parts"
            ),
            kind: Kind::TooLarge,
            offset: 0,
        }
    }
}

impl From<DecodeError> for Failure {
    fn from(error: DecodeError) -> Self {
        Failure::at(error, 0)
    }
}

impl From<BatchDecodeError> for Failure {
    fn from(error: BatchDecodeError) -> Self {
        let BatchDecodeError::Overflow { offset, .. } = error;
        Failure {
            message: error.to_string(),
            kind: Kind::Overflow,
            offset,
        }
    }
}

/// An empty vector with room for `count` items of `size` bytes (`size`
/// the item's size in memory, or the most bytes it encodes to), or the
/// failure to say there is no such room, rather than the abort (a wasm trap)
/// of an infallible allocation.
pub(crate) fn reserve<T>(count: usize, size: usize) -> Result<Vec<T>, Failure> {
    let items = count.saturating_mul(size) / size_of::<T>().max(1);
    let mut vec = Vec::new();
    vec.try_reserve_exact(items)
        .map_err(|_| Failure::too_large(count, size))?;
    Ok(vec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_reservation_is_a_failure_not_an_abort() {
        let failure = reserve::<u8>(usize::MAX / 4, 17).unwrap_err();
        assert_eq!(failure.kind(), "too-large");
        assert!(
            failure
                .message()
                .contains("does not fit in the wasm memory")
        );
        assert_eq!(reserve::<u64>(3, 8).map(|v| v.capacity() >= 3), Ok(true));
    }
}
