//! The streaming hasher: buffering and padding around [`Backend::compress`].

use crate::buffer::BlockBuffer;
use crate::consts::H0;
use crate::pad::{Padded, to_digest};
use crate::{Backend, Digest};
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
    state: [u32; 5],
    buffer: BlockBuffer,
    backend: Backend,
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
        Sha1::start(Backend::detect())
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
        backend.is_available().then(|| Sha1::start(backend))
    }

    fn start(backend: Backend) -> Sha1 {
        Sha1 {
            state: H0,
            buffer: BlockBuffer::EMPTY,
            backend,
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
        self.backend
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
        let (state, backend) = (&mut self.state, self.backend);
        self.buffer
            .update(data, |blocks| backend.compress(state, blocks));
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
        finish(
            self.state,
            self.buffer.tail(),
            self.buffer.len(),
            self.backend,
        )
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
        *self = Sha1::start(self.backend);
    }
}

/// The parts RustCrypto's block-level API splits a hasher into (the
/// `digest` feature's `CoreProxy`).
#[cfg(feature = "digest")]
impl Sha1 {
    /// The chaining state, the whole blocks compressed (mod 2^58, as the
    /// byte count is mod 2^64), the buffered bytes and the backend.
    pub(crate) fn parts(&self) -> ([u32; 5], u64, &[u8], Backend) {
        let blocks = self.buffer.len() / crate::buffer::BLOCK as u64;
        (self.state, blocks, self.buffer.tail(), self.backend)
    }

    /// The inverse of [`parts`](Self::parts); `tail` is shorter than a block.
    pub(crate) fn from_parts(state: [u32; 5], blocks: u64, tail: &[u8], backend: Backend) -> Sha1 {
        Sha1 {
            state,
            buffer: BlockBuffer::with_tail(stream_len(blocks, tail.len()), tail),
            backend,
        }
    }
}

/// The digest of a `len`-byte message (mod 2^64) whose whole blocks took
/// the chaining value to `state` and whose last `len % 64` bytes are
/// `tail`: the tail padded (FIPS 180-4 §5.1.1) and compressed. How
/// [`Sha1::finalize`] and RustCrypto's `Sha1Core` end a stream.
pub(crate) fn finish(mut state: [u32; 5], tail: &[u8], len: u64, backend: Backend) -> Digest {
    backend.compress(&mut state, Padded::of(tail, len).blocks());
    to_digest(state)
}

/// The byte count (mod 2^64, as [`Sha1::update`] keeps it) of a stream
/// that compressed `blocks` whole blocks and holds `tail` bytes more.
#[cfg(feature = "digest")]
pub(crate) fn stream_len(blocks: u64, tail: usize) -> u64 {
    blocks
        .wrapping_mul(crate::buffer::BLOCK as u64)
        .wrapping_add(tail as u64)
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
            .field("backend", &self.backend)
            .field("len", &self.buffer.len())
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
    use super::{Sha1, to_digest};
    use crate::{Backend, reference};

    /// A message past 2^61 bytes (2^64 bits) wraps the byte count instead
    /// of overflowing, and its length field is the bit count modulo 2^64.
    /// No test can hash 2^61 bytes, so the count starts 64 bytes short of
    /// the wrap with nothing buffered, as if that much had been hashed.
    #[test]
    fn byte_count_wraps_past_2_pow_64_bits() {
        let data: [u8; 100] = core::array::from_fn(|i| (i * 7) as u8);
        for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
            let mut hasher = Sha1::with_backend(backend).unwrap();
            hasher.buffer.set_len(0u64.wrapping_sub(64));
            hasher.update(&data);
            assert_eq!(hasher.buffer.len(), 36);

            // 2^64 − 64 + 100 bytes is 36 bytes modulo 2^64 bytes, and
            // (2^64 − 64 + 100) · 8 bits is 288 modulo 2^64.
            let mut tail = [0u8; 64];
            tail[..36].copy_from_slice(&data[64..]);
            tail[36] = 0x80;
            tail[56..].copy_from_slice(&288u64.to_be_bytes());
            let mut expected = reference::H0;
            reference::compress(&mut expected, &[data[..64].try_into().unwrap(), tail]);
            assert_eq!(hasher.finalize(), to_digest(expected), "{backend}");
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
        hasher.buffer.set_len(0u64.wrapping_sub(64));
        hasher.update(&[5; 30]);
        let (core, buffer) = hasher.clone().decompose();
        let joined = Sha1::compose(core.clone(), buffer.clone());
        assert_eq!(
            (joined.buffer.len(), joined.buffer.tail().len()),
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
        assert_eq!((joined.buffer.len(), joined.buffer.tail().len()), (30, 30));
        assert_eq!(joined.finalize(), hasher.finalize());
    }
}
