#![doc = include_str!("../README.md")]
#![no_std]
// `unsafe` is allowed only in the hardware kernels (`arch::*`), each
// block justified by the CPU detection (on wasm32, the build's `simd128`)
// behind it.
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod arch;
mod backend;
mod buffer;
pub mod checked;
mod consts;
mod digest;
mod engine;
mod hasher;
#[cfg(any(test, feature = "ladder"))]
#[doc(hidden)]
pub mod ladder;
// Only the x86-64 and aarch64 backends hash several messages at once.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod lanes;
mod many;
mod pad;
#[doc(hidden)]
pub mod reference;
mod rounds;
#[cfg(feature = "digest")]
mod rustcrypto;
mod scalar;
mod sha1_core;

pub use backend::Backend;
pub use consts::INITIAL_STATE;
pub use digest::{Digest, ParseDigestError};
pub use hasher::Sha1;
#[cfg(feature = "alloc")]
pub use many::digest_many;
pub use many::{LengthMismatch, digest_many_into};
pub use sha1_core::Sha1Core;

/// SHA-1 of `data` in one call, with the backend [`Backend::detect`]
/// picks.
///
/// This is the lean path: no [`Sha1`] state and no copy of the data. The
/// full blocks are read in place, the partial block at the end is padded
/// into one or two blocks on the stack, and both go to the backend in a
/// single call (SHA-NI keeps the state in registers throughout).
///
/// ```
/// let d = sha1_fast::digest(b"abc");
/// assert_eq!(d.to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
/// ```
#[inline]
#[must_use]
pub fn digest(data: &[u8]) -> Digest {
    engine::Engine::detect().digest(data)
}

/// The SHA-1 compression function: hashes each 64-byte block of `blocks`
/// into `state`, in order, with the backend [`Backend::detect`] picks.
///
/// This is the raw primitive: no padding and no length, so the caller owns
/// the message framing (start from FIPS 180-4's H(0), pad the last block,
/// serialise the state big-endian). Passing many blocks per call lets a
/// backend keep the state in registers between them.
///
/// ```
/// // One padded block: "abc", 0x80, zeros, then the length in bits.
/// let mut block = [0u8; 64];
/// block[..3].copy_from_slice(b"abc");
/// block[3] = 0x80;
/// block[63] = 24;
///
/// let mut state = sha1_fast::INITIAL_STATE;
/// sha1_fast::compress(&mut state, &[block]);
/// assert_eq!(state, [0xA9993E36, 0x4706816A, 0xBA3E2571, 0x7850C26C, 0x9CD0D89D]);
/// ```
#[inline]
pub fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    engine::Engine::detect().compress(state, blocks);
}
