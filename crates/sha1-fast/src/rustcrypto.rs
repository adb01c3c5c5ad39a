//! The RustCrypto `digest` traits for [`Sha1`] (the `digest` feature), so
//! it can stand in wherever code is generic over a hash: `D: Digest`,
//! `Box<dyn DynDigest>`, or HMAC through `hmac::SimpleHmac<Sha1>`.
//!
//! They are thin: every method is [`Sha1::update`], [`Sha1::finalize`] or
//! [`Sha1::reset`], so the backend chosen at run time does the work.
//! `hmac::Hmac` itself wants the block-level API of RustCrypto's own
//! hashes and is not supported; `SimpleHmac` gives the same tags.
//!
//! The crate README's Features section has an example.

use crate::Sha1;
use digest::common::BlockSizeUser;
use digest::consts::{U20, U64};
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};

impl HashMarker for Sha1 {}

// `DynDigest`'s boxing methods need `digest/alloc`, which the `alloc`
// feature turns on. The tests cannot notice if it did not (the `sha1`
// dev-dependency turns it on for them), so the library build checks.
#[cfg(feature = "alloc")]
const _: fn(&alloc::boxed::Box<dyn digest::DynDigest>) -> alloc::boxed::Box<dyn digest::DynDigest> =
    |hasher| hasher.box_clone();

impl OutputSizeUser for Sha1 {
    type OutputSize = U20;
}

/// 64 bytes, which HMAC pads its key to.
impl BlockSizeUser for Sha1 {
    type BlockSize = U64;
}

impl Update for Sha1 {
    #[inline]
    fn update(&mut self, data: &[u8]) {
        Sha1::update(self, data);
    }
}

impl FixedOutput for Sha1 {
    #[inline]
    fn finalize_into(self, out: &mut Output<Self>) {
        out.copy_from_slice(self.finalize().as_ref());
    }
}

impl Reset for Sha1 {
    #[inline]
    fn reset(&mut self) {
        Sha1::reset(self);
    }
}

impl FixedOutputReset for Sha1 {
    #[inline]
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        out.copy_from_slice(self.clone().finalize().as_ref());
        Sha1::reset(self);
    }
}
