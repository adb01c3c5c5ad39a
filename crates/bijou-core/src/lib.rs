#![doc = include_str!("../README.md")]
#![no_std]
// `unsafe` only in the vector batch decoders (`simd::avx512`,
// `simd::avx512_run`, `simd::avx512_periodic`, `simd::avx2_run` and
// `simd::avx2_bytes`), which allow it for their loads, stores and
// feature-gated calls, and in `values`, whose buffer is left
// uninitialized until an input is long enough to use it (Miri runs its
// test: `cargo xtask miri`).
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod batch;
mod chains;
mod error;
mod periodic;
mod signed;
mod simd;
mod tiers;
mod traits;
mod unsigned;
mod values;

pub use error::{BatchDecodeError, DecodeError, EncodeError};
pub use simd::batch_decoder;
pub use traits::{Bijou, Encoded};
pub use values::Values;

/// The longest encoding of any width: a bijou128 tag and 16 payload bytes.
///
/// # Examples
///
/// ```
/// assert_eq!(bijou_core::MAX_ENCODED_LEN, bijou_core::bijou128::MAX_BYTES);
/// ```
pub const MAX_ENCODED_LEN: usize = 17;

unsigned::unsigned_width! {
    /// bijou32: `u32` in 1–5 bytes. Tags `00`–`FB` are values; `FC`–`FF`
    /// announce 1–4 payload bytes.
    mod bijou32: u32, example 300 => [0xFC, 0x30]
}

unsigned::unsigned_width! {
    /// bijou64: `u64` in 1–9 bytes. Tags `00`–`F7` are values; `F8`–`FF`
    /// announce 1–8 payload bytes.
    mod bijou64: u64, example 300 => [0xF8, 0x34]
}

unsigned::unsigned_width! {
    /// bijou128: `u128` in 1–17 bytes. Tags `00`–`EF` are values; `F0`–`FF`
    /// announce 1–16 payload bytes.
    mod bijou128: u128, example 300 => [0xF0, 0x3C]
}

signed::signed_width! {
    /// bijou32s: `i32`, zigzag-mapped, then [`bijou32`].
    mod bijou32s: i32 => bijou32(u32), example -300 => [0xFD, 0x00, 0x5B]
}

signed::signed_width! {
    /// bijou64s: `i64`, zigzag-mapped, then [`bijou64`]. One byte holds
    /// -124..=123.
    mod bijou64s: i64 => bijou64(u64), example -300 => [0xF9, 0x00, 0x5F]
}

signed::signed_width! {
    /// bijou128s: `i128`, zigzag-mapped, then [`bijou128`].
    mod bijou128s: i128 => bijou128(u128), example -300 => [0xF1, 0x00, 0x67]
}

const _: () = assert!(bijou128::MAX_BYTES == MAX_ENCODED_LEN);
