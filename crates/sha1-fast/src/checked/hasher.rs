//! The streaming hasher of [`crate::checked`]: its plain and mitigated
//! chains, which part at the first attack block.

use super::Collision;
use crate::buffer::{BLOCK, BlockBuffer};
use crate::engine::Engine;
use crate::pad::Padded;
use crate::{Backend, Digest, INITIAL_STATE};
use core::fmt;

/// A streaming SHA-1 hasher that detects collision attacks.
///
/// ```
/// use sha1_fast::checked::Sha1;
///
/// let mut hasher = Sha1::new();
/// hasher.update(b"ab");
/// hasher.update(b"c");
/// assert!(!hasher.collision_detected());
/// assert_eq!(hasher.finalize(), Ok(sha1_fast::digest(b"abc")));
/// ```
#[derive(Clone)]
pub struct Sha1 {
    /// The plain SHA-1 chaining value.
    state: [u32; 5],
    /// The mitigated chaining value, once an attack block made it differ
    /// from `state`; until then `state` is both.
    mitigated: Option<[u32; 5]>,
    /// Whole blocks compressed (mod 2^58).
    blocks: u64,
    buffer: BlockBuffer,
    engine: Engine,
    reduced_round: bool,
}

impl Sha1 {
    /// A hasher on the best available backend ([`Backend::detect`]).
    #[must_use]
    pub fn new() -> Sha1 {
        Sha1::start(Engine::detect())
    }

    /// A hasher on `backend`, or `None` if it is not available here.
    ///
    /// ```
    /// use sha1_fast::{Backend, checked::Sha1};
    ///
    /// for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
    ///     let mut hasher = Sha1::with_backend(backend).unwrap();
    ///     hasher.update(b"abc");
    ///     assert_eq!(hasher.finalize(), Ok(sha1_fast::digest(b"abc")));
    /// }
    /// ```
    #[must_use]
    pub fn with_backend(backend: Backend) -> Option<Sha1> {
        Engine::of(backend).map(Sha1::start)
    }

    fn start(engine: Engine) -> Sha1 {
        Sha1 {
            state: INITIAL_STATE,
            mitigated: None,
            blocks: 0,
            buffer: BlockBuffer::EMPTY,
            engine,
            reduced_round: false,
        }
    }

    /// The backend this hasher compresses with.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.engine.backend()
    }

    /// Also flag collisions of reduced-round SHA-1, as
    /// sha1collisiondetection does in its partial-collision mode (its
    /// tests use them, as no full collision exists for most vectors).
    /// Off by default: it flags blocks no attack on full SHA-1 makes.
    ///
    /// ```
    /// let hasher = sha1_fast::checked::Sha1::new().detect_reduced_round(true);
    /// assert_eq!(hasher.finalize(), Ok(sha1_fast::digest(b"")));
    /// ```
    #[must_use]
    pub fn detect_reduced_round(mut self, on: bool) -> Sha1 {
        self.reduced_round = on;
        self
    }

    /// Hashes `data`.
    pub fn update(&mut self, data: &[u8]) {
        let mut buffer = core::mem::replace(&mut self.buffer, BlockBuffer::EMPTY);
        buffer.update(data, |blocks| {
            self.blocks = self.blocks.wrapping_add(blocks.len() as u64);
            self.absorb(blocks);
        });
        self.buffer = buffer;
    }

    /// Whether an attack block has been compressed so far.
    ///
    /// ```
    /// let mut hasher = sha1_fast::checked::Sha1::new();
    /// hasher.update(&[0; 1000]);
    /// assert!(!hasher.collision_detected());
    /// ```
    #[must_use]
    pub fn collision_detected(&self) -> bool {
        self.mitigated.is_some()
    }

    /// Pads the message and returns its SHA-1 digest, or the
    /// [`Collision`] if any block (the padding included) was an attack
    /// block.
    ///
    /// # Errors
    ///
    /// [`Collision`] when the data holds a collision attack.
    pub fn finalize(mut self) -> Result<Digest, Collision> {
        let padded = Padded::after_blocks(self.blocks, self.buffer.tail());
        self.absorb(padded.blocks());
        match self.mitigated {
            None => Ok(Digest::from_state(self.state)),
            Some(mitigated) => Err(Collision {
                digest: Digest::from_state(self.state),
                mitigated: Digest::from_state(mitigated),
            }),
        }
    }

    /// Forgets everything hashed so far, a detected attack included; the
    /// backend and the reduced-round setting are kept.
    ///
    /// ```
    /// let mut hasher = sha1_fast::checked::Sha1::new();
    /// hasher.update(b"discarded");
    /// hasher.reset();
    /// assert_eq!(hasher.finalize(), Ok(sha1_fast::digest(b"")));
    /// ```
    pub fn reset(&mut self) {
        *self = Sha1::start(self.engine).detect_reduced_round(self.reduced_round);
    }

    /// Compresses whole blocks: the clean ones in runs on the backend, each
    /// block the filter lets through on its own with the recompression.
    /// After an attack block the two chains differ: detection (and the
    /// mitigation of any further attack block) follows the mitigated one,
    /// as in the reference, and the plain one is only compressed.
    fn absorb(&mut self, mut blocks: &[[u8; BLOCK]]) {
        let (engine, reduced_round) = (self.engine, self.reduced_round);
        while !blocks.is_empty() {
            let diverged = self.mitigated.is_some();
            let checked_chain = self.mitigated.as_mut().unwrap_or(&mut self.state);
            let attack = engine.compress_checked(checked_chain, blocks, reduced_round);
            let done = attack.unwrap_or(blocks.len());
            if diverged {
                engine.compress(&mut self.state, &blocks[..done]);
            }
            let Some(at) = attack else {
                return;
            };
            // The attack block: the plain chain compresses it once, the
            // mitigated one three times.
            let block = blocks[at];
            let mut mitigated = self.mitigated.unwrap_or(self.state);
            engine.compress(&mut mitigated, &[block, block, block]);
            engine.compress(&mut self.state, &[block]);
            self.mitigated = Some(mitigated);
            blocks = &blocks[at + 1..];
        }
    }
}

impl Default for Sha1 {
    fn default() -> Sha1 {
        Sha1::new()
    }
}

impl fmt::Debug for Sha1 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sha1")
            .field("backend", &self.backend())
            .field("blocks", &self.blocks)
            .field("collision_detected", &self.collision_detected())
            .finish_non_exhaustive()
    }
}

crate::buffer::hasher_io_write! {
    /// Hashes everything written; never fails, and `flush` does nothing.
    ///
    /// ```
    /// use std::io::Write;
    ///
    /// let mut hasher = sha1_fast::checked::Sha1::new();
    /// std::io::copy(&mut &b"abc"[..], &mut hasher).unwrap();
    /// assert_eq!(hasher.finalize(), Ok(sha1_fast::digest(b"abc")));
    /// ```
    Sha1
}
