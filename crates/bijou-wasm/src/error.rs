//! Decode errors as JavaScript sees them.

use bijou_core::{BatchDecodeError, DecodeError};
use wasm_bindgen::prelude::wasm_bindgen;

/// Why a decode failed: thrown by the decode exports, turned into a
/// `BijouDecodeError` by the JavaScript layer.
#[wasm_bindgen]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeFailure {
    message: String,
    overflow: bool,
    offset: usize,
}

#[wasm_bindgen]
impl DecodeFailure {
    /// The Rust error's message.
    #[wasm_bindgen(getter)]
    pub fn message(&self) -> String {
        self.message.clone()
    }

    /// `"truncated"` or `"overflow"`: the format's two failure modes.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        if self.overflow {
            "overflow"
        } else {
            "truncated"
        }
        .into()
    }

    /// Byte offset of the value that failed, from the start of the input.
    #[wasm_bindgen(getter)]
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl DecodeFailure {
    /// `error` met by the value starting at byte `offset`.
    pub(crate) fn at(error: DecodeError, offset: usize) -> Self {
        DecodeFailure {
            message: error.to_string(),
            overflow: error == DecodeError::Overflow,
            offset,
        }
    }
}

impl From<DecodeError> for DecodeFailure {
    fn from(error: DecodeError) -> Self {
        DecodeFailure::at(error, 0)
    }
}

impl From<BatchDecodeError> for DecodeFailure {
    fn from(error: BatchDecodeError) -> Self {
        let BatchDecodeError::Overflow { offset, .. } = error;
        DecodeFailure {
            message: error.to_string(),
            overflow: true,
            offset,
        }
    }
}
