//! The RustCrypto `digest` traits for [`Sha1`] (the `digest` feature), so
//! it can stand in wherever code is generic over a hash: `D: Digest`,
//! `Box<dyn DynDigest>`, and `hmac::Hmac<Sha1>` (with `HmacReset`,
//! `SimpleHmac` and what is built on them, such as PBKDF2 and HKDF).
//!
//! The buffering-level traits are thin: every method is [`Sha1::update`],
//! [`Sha1::finalize`] or [`Sha1::reset`], so the backend chosen at run
//! time does the work. `hmac::Hmac` works a level lower, on the block
//! function and a buffer of its own; [`Sha1Core`] is that level, and
//! [`Sha1`] splits into it and back (`CoreProxy`), keeping its backend.
//!
//! The crate README's Features section has an example.

use crate::buffer::BlockBuffer;
use crate::{Sha1, Sha1Core};
use core::fmt;
use digest::array::Array;
use digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, CoreProxy, Eager, FixedOutputCore,
    UpdateCore,
};
use digest::consts::{U20, U64};
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};

/// The traits [`Sha1`] and [`Sha1Core`] answer alike: a hash function,
/// not a MAC (for RustCrypto's blanket `Digest` impl), 20 bytes out,
/// 64-byte blocks (which HMAC pads its key to), and the name
/// RustCrypto's `sha1::Sha1` gives.
macro_rules! sha1_traits {
    ($($hasher:ident),*) => {$(
        #[doc = concat!("Marks [`", stringify!($hasher), "`] as a hash function, not a MAC.")]
        ///
        /// ```
        /// fn hex<D: digest::Digest>(data: &[u8]) -> String {
        ///     D::digest(data).iter().map(|byte| format!("{byte:02x}")).collect()
        /// }
        /// assert_eq!(hex::<sha1_fast::Sha1>(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
        /// ```
        impl HashMarker for $hasher {}

        /// 20 bytes.
        ///
        /// ```
        /// use digest::OutputSizeUser;
        ///
        #[doc = concat!("assert_eq!(sha1_fast::", stringify!($hasher), "::output_size(), 20);")]
        /// ```
        impl OutputSizeUser for $hasher {
            type OutputSize = U20;
        }

        /// 64 bytes, which HMAC pads its key to.
        ///
        /// ```
        /// use digest::common::BlockSizeUser;
        ///
        #[doc = concat!("assert_eq!(sha1_fast::", stringify!($hasher), "::block_size(), 64);")]
        /// ```
        impl BlockSizeUser for $hasher {
            type BlockSize = U64;
        }

        /// `"Sha1"`, the name RustCrypto's `sha1::Sha1` gives.
        ///
        /// ```
        /// use digest::block_api::AlgorithmName;
        ///
        /// struct Name;
        /// impl std::fmt::Display for Name {
        ///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        #[doc = concat!("        sha1_fast::", stringify!($hasher), "::write_alg_name(f)")]
        ///     }
        /// }
        /// assert_eq!(Name.to_string(), "Sha1");
        /// ```
        impl AlgorithmName for $hasher {
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("Sha1")
            }
        }
    )*};
}

sha1_traits!(Sha1, Sha1Core);

// `DynDigest`'s boxing methods need `digest/alloc`, which the `alloc`
// feature turns on. The tests cannot notice if it did not (the `sha1`
// dev-dependency turns it on for them), so the library build checks.
#[cfg(feature = "alloc")]
const _: fn(&alloc::boxed::Box<dyn digest::DynDigest>) -> alloc::boxed::Box<dyn digest::DynDigest> =
    |hasher| hasher.box_clone();

/// [`Sha1::update`].
///
/// ```
/// use digest::Update;
///
/// let mut hasher = sha1_fast::Sha1::new();
/// Update::update(&mut hasher, b"ab");
/// assert_eq!(hasher.chain(b"c").finalize(), sha1_fast::digest(b"abc"));
/// ```
impl Update for Sha1 {
    #[inline]
    fn update(&mut self, data: &[u8]) {
        Sha1::update(self, data);
    }
}

/// [`Sha1::finalize`], into RustCrypto's output array.
///
/// ```
/// use digest::FixedOutput;
///
/// let mut hasher = sha1_fast::Sha1::new();
/// hasher.update(b"abc");
/// assert_eq!(hasher.finalize_fixed().as_slice(), sha1_fast::digest(b"abc").as_ref());
/// ```
impl FixedOutput for Sha1 {
    #[inline]
    fn finalize_into(self, out: &mut Output<Self>) {
        out.copy_from_slice(self.finalize().as_ref());
    }
}

/// [`Sha1::reset`]: the backend is kept.
///
/// ```
/// use digest::Reset;
///
/// let mut hasher = sha1_fast::Sha1::new();
/// hasher.update(b"discarded");
/// Reset::reset(&mut hasher);
/// assert_eq!(hasher.finalize(), sha1_fast::digest(b""));
/// ```
impl Reset for Sha1 {
    #[inline]
    fn reset(&mut self) {
        Sha1::reset(self);
    }
}

/// The digest so far, then [`Sha1::reset`].
///
/// ```
/// use digest::FixedOutputReset;
///
/// let mut hasher = sha1_fast::Sha1::new();
/// hasher.update(b"abc");
/// assert_eq!(hasher.finalize_fixed_reset().as_slice(), sha1_fast::digest(b"abc").as_ref());
/// assert_eq!(hasher.finalize(), sha1_fast::digest(b""));
/// ```
impl FixedOutputReset for Sha1 {
    #[inline]
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        out.copy_from_slice(self.clone().finalize().as_ref());
        Sha1::reset(self);
    }
}

/// Splits a hasher into its [`Sha1Core`] (state, blocks so far, backend)
/// and its buffered tail, and joins them again; what `hmac::Hmac` uses.
///
/// ```
/// use digest::block_api::CoreProxy;
/// use sha1_fast::{Backend, Sha1};
///
/// let mut hasher = Sha1::with_backend(Backend::Scalar).unwrap();
/// hasher.update(&[7; 100]);
/// let (core, buffer) = hasher.decompose();
/// assert_eq!(buffer.get_data(), &[7; 36]); // 100 bytes: one block and 36
/// let hasher = Sha1::compose(core, buffer);
/// assert_eq!(hasher.backend(), Backend::Scalar);
/// assert_eq!(hasher.finalize(), sha1_fast::digest(&[7; 100]));
/// ```
impl CoreProxy for Sha1 {
    type Core = Sha1Core;

    fn compose(core: Sha1Core, buffer: Buffer<Sha1Core>) -> Sha1 {
        Sha1 {
            core,
            buffer: BlockBuffer::with_tail(buffer.get_data()),
        }
    }

    fn decompose(self) -> (Sha1Core, Buffer<Sha1Core>) {
        // An eager buffer holds less than a block, as `Sha1` does.
        let buffer = Buffer::<Sha1Core>::new(self.buffer.tail());
        (self.core, buffer)
    }
}

/// Blocks are compressed as soon as they are whole, as [`Sha1`] does.
impl BufferKindUser for Sha1Core {
    type BufferKind = Eager;
}

/// Compresses whole blocks with the core's backend.
///
/// ```
/// use digest::block_api::{CoreProxy, FixedOutputCore, UpdateCore};
/// use digest::Output;
///
/// let (mut core, mut buffer) = sha1_fast::Sha1::new().decompose();
/// buffer.digest_blocks(&[1; 150], |blocks| core.update_blocks(blocks));
/// let mut out = Output::<sha1_fast::Sha1Core>::default();
/// core.finalize_fixed_core(&mut buffer, &mut out);
/// assert_eq!(out.as_slice(), sha1_fast::digest(&[1; 150]).as_ref());
/// ```
impl UpdateCore for Sha1Core {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        self.compress_blocks(Array::cast_slice_to_core(blocks));
    }
}

/// Pads the buffered tail (FIPS 180-4 §5.1.1) with the same code as
/// [`Sha1::finalize`]; the core itself is left as it was.
impl FixedOutputCore for Sha1Core {
    #[inline]
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        out.copy_from_slice(self.clone().finalize(buffer.get_data()).as_ref());
    }
}

/// Back to the start of a message; the backend is kept.
impl Reset for Sha1Core {
    #[inline]
    fn reset(&mut self) {
        Sha1Core::reset(self);
    }
}
