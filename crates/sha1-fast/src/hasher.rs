//! The streaming hasher: a [`Sha1Core`] and a one-block buffer.

use crate::buffer::BlockBuffer;
use crate::{Backend, Digest, Sha1Core};
use core::fmt;

/// A streaming SHA-1 hasher.
///
/// Feed it any number of byte slices with [`update`](Sha1::update) (or
/// through `std::io::Write` with the default `std` feature), then take
/// the [`Digest`] with [`finalize`](Sha1::finalize). Whole blocks go
/// straight from the input to the backend; only a partial block is copied.
///
/// ```
/// use sha1_fast::Sha1;
///
/// let mut hasher = Sha1::new();
/// hasher.update(b"ab");
/// hasher.update(b"c");
/// assert_eq!(hasher.finalize(), sha1_fast::digest(b"abc"));
/// ```
#[derive(Clone)]
pub struct Sha1 {
    pub(crate) core: Sha1Core,
    pub(crate) buffer: BlockBuffer,
}

impl Sha1 {
    /// A hasher using the best available backend ([`Backend::detect`]).
    ///
    /// ```
    /// let hasher = sha1_fast::Sha1::new();
    /// assert_eq!(hasher.backend(), sha1_fast::Backend::detect());
    /// ```
    #[inline]
    #[must_use]
    pub fn new() -> Sha1 {
        Sha1::from_core(Sha1Core::new())
    }

    /// A hasher that always uses `backend`, or `None` if it cannot run
    /// here.
    ///
    /// ```
    /// use sha1_fast::{Backend, Sha1};
    ///
    /// let mut hasher = Sha1::with_backend(Backend::Scalar).expect("scalar runs everywhere");
    /// hasher.update(b"abc");
    /// assert_eq!(hasher.finalize(), sha1_fast::digest(b"abc"));
    /// ```
    #[inline]
    #[must_use]
    pub fn with_backend(backend: Backend) -> Option<Sha1> {
        Sha1Core::with_backend(backend).map(Sha1::from_core)
    }

    fn from_core(core: Sha1Core) -> Sha1 {
        Sha1 {
            core,
            buffer: BlockBuffer::EMPTY,
        }
    }

    /// The backend this hasher compresses with.
    ///
    /// ```
    /// use sha1_fast::{Backend, Sha1};
    ///
    /// assert_eq!(Sha1::with_backend(Backend::Scalar).unwrap().backend(), Backend::Scalar);
    /// ```
    #[inline]
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.core.backend()
    }

    /// Appends `data` to the message.
    ///
    /// ```
    /// let mut hasher = sha1_fast::Sha1::new();
    /// for chunk in b"one million a? no, just three".chunks(3) {
    ///     hasher.update(chunk);
    /// }
    /// assert_eq!(hasher.finalize(), sha1_fast::digest(b"one million a? no, just three"));
    /// ```
    pub fn update(&mut self, data: &[u8]) {
        let core = &mut self.core;
        self.buffer
            .update(data, |blocks| core.compress_blocks(blocks));
    }

    /// Pads the message (FIPS 180-4 §5.1.1) and returns its digest.
    ///
    /// ```
    /// let mut hasher = sha1_fast::Sha1::new();
    /// hasher.update(b"abc");
    /// assert_eq!(hasher.finalize().to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
    /// ```
    #[must_use]
    pub fn finalize(self) -> Digest {
        self.core.finalize(self.buffer.tail())
    }

    /// Forgets everything hashed so far; the backend is kept.
    ///
    /// ```
    /// let mut hasher = sha1_fast::Sha1::new();
    /// hasher.update(b"discarded");
    /// hasher.reset();
    /// hasher.update(b"abc");
    /// assert_eq!(hasher.finalize(), sha1_fast::digest(b"abc"));
    /// ```
    pub fn reset(&mut self) {
        self.core.reset();
        self.buffer = BlockBuffer::EMPTY;
    }

    /// Bytes hashed so far (mod 2^64).
    fn len(&self) -> u64 {
        let whole = self.core.blocks().wrapping_mul(crate::buffer::BLOCK as u64);
        whole.wrapping_add(self.buffer.tail().len() as u64)
    }
}

/// Same as [`Sha1::new`].
///
/// ```
/// let hasher = sha1_fast::Sha1::default();
/// assert_eq!(hasher.finalize(), sha1_fast::digest(b""));
/// ```
impl Default for Sha1 {
    #[inline]
    fn default() -> Sha1 {
        Sha1::new()
    }
}

/// Shows the backend and the length so far, not the state.
///
/// ```
/// let mut hasher = sha1_fast::Sha1::with_backend(sha1_fast::Backend::Scalar).unwrap();
/// hasher.update(b"abc");
/// assert_eq!(format!("{hasher:?}"), "Sha1 { backend: Scalar, len: 3, .. }");
/// ```
impl fmt::Debug for Sha1 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sha1")
            .field("backend", &self.backend())
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}

crate::buffer::hasher_io_write! {
    /// Hashes everything written; never fails, and `flush` does nothing.
    ///
    /// ```
    /// use std::io::Write;
    ///
    /// let mut hasher = sha1_fast::Sha1::new();
    /// write!(hasher, "a{}c", 'b').unwrap();
    /// std::io::copy(&mut &b"def"[..], &mut hasher).unwrap();
    /// assert_eq!(hasher.finalize(), sha1_fast::digest(b"abcdef"));
    /// ```
    Sha1
}

#[cfg(test)]
mod tests {
    use super::Sha1;
    use crate::{Backend, Digest, reference};

    /// A message past 2^61 bytes (2^64 bits) wraps the byte count instead
    /// of overflowing, and its length field is the bit count modulo 2^64.
    /// No test can hash 2^61 bytes, so the count starts one block short of
    /// the wrap with nothing buffered, as if that much had been hashed.
    #[test]
    fn byte_count_wraps_past_2_pow_64_bits() {
        let data: [u8; 100] = core::array::from_fn(|i| (i * 7) as u8);
        for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
            let mut hasher = Sha1::with_backend(backend).unwrap();
            hasher.core.set_blocks((1 << 58) - 1);
            hasher.update(&data);
            assert_eq!(hasher.len(), 36);

            // 2^64 − 64 + 100 bytes is 36 bytes modulo 2^64 bytes, and
            // (2^64 − 64 + 100) · 8 bits is 288 modulo 2^64.
            let mut tail = [0u8; 64];
            tail[..36].copy_from_slice(&data[64..]);
            tail[36] = 0x80;
            tail[56..].copy_from_slice(&288u64.to_be_bytes());
            let mut expected = crate::INITIAL_STATE;
            reference::compress(&mut expected, &[data[..64].try_into().unwrap(), tail]);
            assert_eq!(hasher.finalize(), Digest::from_state(expected), "{backend}");
        }
    }

    /// Split into RustCrypto's block-level core and joined again, a
    /// hasher near the wrap keeps its byte count, and the core pads with it;
    /// a core taken past the wrap at the block level wraps as `update` does.
    #[cfg(feature = "digest")]
    #[test]
    fn the_block_level_parts_keep_the_byte_count_near_the_wrap() {
        use digest::block_api::{CoreProxy, FixedOutputCore, UpdateCore};

        let mut hasher = Sha1::with_backend(Backend::Scalar).unwrap();
        hasher.core.set_blocks((1 << 58) - 1);
        hasher.update(&[5; 30]);
        let (core, buffer) = hasher.clone().decompose();
        let joined = Sha1::compose(core.clone(), buffer.clone());
        assert_eq!(
            (joined.len(), joined.buffer.tail().len()),
            (0u64.wrapping_sub(34), 30)
        );

        let (mut core, mut buffer) = (core, buffer);
        let mut out = digest::Output::<crate::Sha1Core>::default();
        core.finalize_fixed_core(&mut buffer, &mut out);
        assert_eq!(out.as_slice(), hasher.clone().finalize().as_ref());

        // One more block makes 2^58 blocks, 2^64 bytes: 30 bytes after the wrap.
        buffer.digest_blocks(&[6; 64], |blocks| core.update_blocks(blocks));
        hasher.update(&[6; 64]);
        core.finalize_fixed_core(&mut buffer, &mut out);
        assert_eq!(out.as_slice(), hasher.clone().finalize().as_ref());
        let joined = Sha1::compose(core, buffer);
        assert_eq!((joined.len(), joined.buffer.tail().len()), (30, 30));
        assert_eq!(joined.finalize(), hasher.finalize());
    }
}
