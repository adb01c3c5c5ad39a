//! The block-level hasher: chaining state, block count and engine, with
//! no buffer (RustCrypto's core + buffer shape; [`crate::Sha1`] adds the
//! buffer).

use crate::engine::Engine;
use crate::pad::Padded;
use crate::{Backend, Digest, INITIAL_STATE};
use core::fmt;

/// SHA-1 at the block level: the chaining state, the count of whole
/// blocks compressed, and the engine that compresses them, chosen once.
///
/// For code that keeps its own buffer and hands over whole 64-byte
/// blocks; [`crate::Sha1`] is this core plus a one-block buffer. With the
/// `digest` feature it is RustCrypto's block-level core too
/// (`UpdateCore`, `FixedOutputCore`), which `hmac::Hmac<sha1_fast::Sha1>`
/// drives.
///
/// ```
/// use sha1_fast::Sha1Core;
///
/// let data = [7u8; 150];
/// let (blocks, rest) = data.as_chunks::<64>();
/// let mut core = Sha1Core::new();
/// core.compress_blocks(blocks);
/// assert_eq!(core.finalize(rest), sha1_fast::digest(&data));
/// ```
#[derive(Clone)]
pub struct Sha1Core {
    state: [u32; 5],
    /// Whole blocks compressed (mod 2^58: the message length is mod 2^64
    /// bytes).
    blocks: u64,
    engine: Engine,
}

impl Sha1Core {
    /// A core at the start of a message, on the best available backend
    /// ([`Backend::detect`]).
    ///
    /// ```
    /// assert_eq!(sha1_fast::Sha1Core::new().backend(), sha1_fast::Backend::detect());
    /// ```
    #[inline]
    #[must_use]
    pub fn new() -> Sha1Core {
        Sha1Core::start(Engine::detect())
    }

    /// A core that always uses `backend`, or `None` if it cannot run here.
    ///
    /// ```
    /// use sha1_fast::{Backend, Sha1Core};
    ///
    /// let core = Sha1Core::with_backend(Backend::Scalar).expect("scalar runs everywhere");
    /// assert_eq!(core.finalize(b"abc"), sha1_fast::digest(b"abc"));
    /// ```
    #[inline]
    #[must_use]
    pub fn with_backend(backend: Backend) -> Option<Sha1Core> {
        Engine::of(backend).map(Sha1Core::start)
    }

    fn start(engine: Engine) -> Sha1Core {
        Sha1Core {
            state: INITIAL_STATE,
            blocks: 0,
            engine,
        }
    }

    /// The backend this core compresses with.
    #[inline]
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.engine.backend()
    }

    /// Whole blocks compressed so far (mod 2^58).
    ///
    /// ```
    /// let mut core = sha1_fast::Sha1Core::new();
    /// core.compress_blocks(&[[0; 64]; 3]);
    /// assert_eq!(core.blocks(), 3);
    /// ```
    #[inline]
    #[must_use]
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// Appends whole blocks to the message.
    #[inline]
    pub fn compress_blocks(&mut self, blocks: &[[u8; 64]]) {
        self.blocks = self.blocks.wrapping_add(blocks.len() as u64);
        self.engine.compress(&mut self.state, blocks);
    }

    /// Appends `rest` and pads the message (FIPS 180-4 §5.1.1): the
    /// digest of the blocks so far followed by `rest`, which may be of any
    /// length (usually the partial block a caller's buffer holds).
    ///
    /// ```
    /// let mut core = sha1_fast::Sha1Core::new();
    /// core.compress_blocks(&[[1; 64]]);
    /// let mut data = vec![1u8; 64];
    /// data.extend_from_slice(&[2; 100]);
    /// assert_eq!(core.finalize(&[2; 100]), sha1_fast::digest(&data));
    /// ```
    #[must_use]
    pub fn finalize(mut self, rest: &[u8]) -> Digest {
        let (body, tail) = rest.as_chunks::<64>();
        self.blocks = self.blocks.wrapping_add(body.len() as u64);
        // One engine call for the rest's blocks and the padding, so
        // SHA-NI keeps the state in registers between them.
        let padded = Padded::after_blocks(self.blocks, tail);
        self.engine
            .compress_parts(&mut self.state, &[body, padded.blocks()]);
        Digest::from_state(self.state)
    }

    /// Back to the start of a message; the backend is kept.
    ///
    /// ```
    /// let mut core = sha1_fast::Sha1Core::new();
    /// core.compress_blocks(&[[1; 64]]);
    /// core.reset();
    /// assert_eq!(core.finalize(b""), sha1_fast::digest(b""));
    /// ```
    #[inline]
    pub fn reset(&mut self) {
        *self = Sha1Core::start(self.engine);
    }

    #[cfg(test)]
    pub(crate) fn set_blocks(&mut self, blocks: u64) {
        self.blocks = blocks;
    }
}

/// Same as [`Sha1Core::new`].
impl Default for Sha1Core {
    #[inline]
    fn default() -> Sha1Core {
        Sha1Core::new()
    }
}

/// Shows the backend and the block count, not the state.
///
/// ```
/// use sha1_fast::{Backend, Sha1Core};
///
/// let core = Sha1Core::with_backend(Backend::Scalar).unwrap();
/// assert_eq!(format!("{core:?}"), "Sha1Core { backend: Scalar, blocks: 0, .. }");
/// ```
impl fmt::Debug for Sha1Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sha1Core")
            .field("backend", &self.backend())
            .field("blocks", &self.blocks)
            .finish_non_exhaustive()
    }
}
