//! SHA-1 with collision detection: the digest of plain SHA-1, or an error
//! when the data holds a block of a known collision attack.
//!
//! SHA-1 is broken: SHAttered (2017) built two PDFs with one digest, and
//! "SHA-1 is a Shambles" (2020) two files with chosen, different prefixes.
//! Where an attacker supplies the bytes (git objects, OpenPGP v4
//! fingerprints, content-addressed stores), hash them with this module's
//! [`Sha1`] or [`digest()`], not the plain [`crate::Sha1`]. Each block is
//! checked for the traces every known attack technique must leave
//! (Stevens and Shumow's counter-cryptanalysis, "Speeding up detection of
//! SHA-1 collision attacks using unavoidable attack conditions", USENIX
//! Security 2017, as in the sha1collisiondetection library that git and
//! GitHub use):
//!
//! 1. a filter over the expanded message tests, for 32 disturbance
//!    vectors, the bit relations any attack along that vector must satisfy
//!    (`ubc`); random data passes for about one block in twenty;
//! 2. for each vector left, the block's would-be colliding twin is
//!    recomputed from the state at that vector's test step, and the block
//!    is an attack block if both produce the same output (`recompress`).
//!
//! Data with no attack gets the plain SHA-1 digest, bit for bit. The paper
//! puts the chance of a false positive on random data below 2^-90 per
//! block. When an attack is found, [`Collision`] carries two digests:
//! [`Collision::digest`], the plain SHA-1 (which the attack's other
//! message shares), and [`Collision::mitigated`], the "safe hash" that
//! sha1collisiondetection's `sha1dcsum` prints: each attack block is
//! compressed twice more, so the two colliding messages get different
//! digests.
//!
//! Detection is no reason to pick SHA-1 for a new design: use SHA-256,
//! SHA-3 or BLAKE3 there. This module is for the formats that cannot
//! change.
//!
//! Speed: every [`crate::Backend`] runs detection, the filter beside its
//! compression; only the blocks the filter lets through take the scalar
//! recompression. `docs/sha1-checked.md` has the measurements.
//!
//! ```
//! use sha1_fast::checked;
//!
//! assert_eq!(checked::digest(b"abc")?.to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
//! # Ok::<(), checked::Collision>(())
//! ```

mod dv;
mod recompress;
// The bit-sliced filter's tables, for the AVX-512 form.
#[cfg(target_arch = "x86_64")]
pub(crate) mod sliced;
mod ubc;

// What the x86-64 forms of the filter (`crate::x86`) build on.
#[cfg(target_arch = "x86_64")]
pub(crate) use recompress::Midstates;
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) use recompress::{compress as compress_stepwise, expand, scalar_groups};
#[cfg(target_arch = "x86_64")]
pub(crate) use ubc::unrolled;
#[cfg(target_arch = "x86_64")]
pub(crate) use ubc::{ALL_DVS, Planes, VECTOR_TABLES, dv_mask_from_planes};
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) use ubc::{dv_mask, dv_mask_reference, planes_portable, test_words, window};
// What the aarch64 form of the filter (`crate::aarch64`) builds on.
#[cfg(target_arch = "aarch64")]
pub(crate) use ubc::{Planes, dv_mask_from_planes};
#[cfg(all(test, target_arch = "aarch64"))]
pub(crate) use {
    recompress::{expand, scalar_groups},
    ubc::{dv_mask, dv_mask_reference, planes_portable, test_words, window},
};

use crate::INITIAL_STATE;
use crate::buffer::{BLOCK, BlockBuffer};
use crate::pad::Padded;
use crate::{Backend, Digest};
use core::fmt;

/// A collision attack was found in the hashed data.
///
/// ```
/// # use sha1_fast::checked;
/// # fn shattered() -> Vec<u8> { Vec::new() }
/// match checked::digest(&shattered()) {
///     Ok(digest) => println!("{digest}"),
///     Err(attack) => eprintln!("refused: {attack}"),
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("sha-1 collision attack detected (sha-1 {digest}, mitigated {mitigated})")]
pub struct Collision {
    digest: Digest,
    mitigated: Digest,
}

impl Collision {
    /// The plain SHA-1 digest of the data, which its colliding twin
    /// shares: not an identifier to trust.
    #[must_use]
    pub fn digest(&self) -> Digest {
        self.digest
    }

    /// The digest sha1collisiondetection's `sha1dcsum` prints for the
    /// data: SHA-1 with every attack block compressed twice more, which
    /// the colliding twin does not share.
    #[must_use]
    pub fn mitigated(&self) -> Digest {
        self.mitigated
    }
}

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
    backend: Backend,
    reduced_round: bool,
}

impl Sha1 {
    /// A hasher on the best available backend ([`Backend::detect`]).
    #[must_use]
    pub fn new() -> Sha1 {
        Sha1::start(Backend::detect())
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
        backend.is_available().then(|| Sha1::start(backend))
    }

    fn start(backend: Backend) -> Sha1 {
        Sha1 {
            state: INITIAL_STATE,
            mitigated: None,
            blocks: 0,
            buffer: BlockBuffer::EMPTY,
            backend,
            reduced_round: false,
        }
    }

    /// The backend this hasher compresses with.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
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
        *self = Sha1::start(self.backend).detect_reduced_round(self.reduced_round);
    }

    /// Compresses whole blocks: the clean ones in runs on the backend, each
    /// block the filter lets through on its own with the recompression.
    /// After an attack block the two chains differ: detection (and the
    /// mitigation of any further attack block) follows the mitigated one,
    /// as in the reference, and the plain one is only compressed.
    fn absorb(&mut self, mut blocks: &[[u8; BLOCK]]) {
        let (backend, reduced_round) = (self.backend, self.reduced_round);
        while !blocks.is_empty() {
            let diverged = self.mitigated.is_some();
            let checked_chain = self.mitigated.as_mut().unwrap_or(&mut self.state);
            let attack = compress_checked(backend, checked_chain, blocks, reduced_round);
            let done = attack.unwrap_or(blocks.len());
            if diverged {
                backend.compress(&mut self.state, &blocks[..done]);
            }
            let Some(at) = attack else {
                return;
            };
            // The attack block: the plain chain compresses it once, the
            // mitigated one three times.
            let block = blocks[at];
            let mut mitigated = self.mitigated.unwrap_or(self.state);
            backend.compress(&mut mitigated, &[block, block, block]);
            backend.compress(&mut self.state, &[block]);
            self.mitigated = Some(mitigated);
            blocks = &blocks[at + 1..];
        }
    }
}

/// Compresses `blocks` into `state` up to the first attack block, whose
/// index it returns (with `state` the chaining value before it).
fn compress_checked(
    backend: Backend,
    state: &mut [u32; 5],
    blocks: &[[u8; BLOCK]],
    reduced_round: bool,
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if backend == Backend::ShaNi
        && let Some(token) = crate::x86::shani::ShaNi::detect()
    {
        let avx512 = crate::x86::filter_avx512::Avx512Filter::detect();
        let is_attack = shani_is_attack(token, reduced_round);
        return token.compress_checked(state, blocks, avx512, is_attack);
    }
    #[cfg(target_arch = "aarch64")]
    if backend == Backend::ArmSha
        && let Some(token) = crate::aarch64::armsha::ArmSha::detect()
    {
        let groups = |state, w: &_, first, last| token.groups(state, w, first, last);
        return token.compress_checked(state, blocks, |ihv, output, block, mask| {
            let w = recompress::expand(block);
            let mid = recompress::Midstates::stepped(ihv, &w, groups);
            recompress::is_attack(ihv, output, &w, &mid, mask, reduced_round, groups)
        });
    }
    #[cfg(target_arch = "x86_64")]
    if backend == Backend::SimdSchedule
        && let Some(token) = crate::x86::simd_schedule::Ssse3::detect()
    {
        let filter = |block: &_| token.dv_mask(block);
        return compress_filtered(backend, state, blocks, reduced_round, filter);
    }
    let filter = |block: &_| ubc::dv_mask(ubc::window(&recompress::expand(block)));
    compress_filtered(backend, state, blocks, reduced_round, filter)
}

/// [`compress_checked`] for the backends whose kernels do not filter:
/// `filter` (a [`ubc::dv_mask`]) finds the first suspect block, the clean
/// run before it is compressed with the backend, the suspect alone with
/// the recompression test.
#[inline(always)]
fn compress_filtered(
    backend: Backend,
    state: &mut [u32; 5],
    blocks: &[[u8; BLOCK]],
    reduced_round: bool,
    filter: impl Fn(&[u8; BLOCK]) -> u64,
) -> Option<usize> {
    let mut rest = blocks;
    while !rest.is_empty() {
        let Some((i, mask)) = rest
            .iter()
            .enumerate()
            .find_map(|(i, block)| Some((i, filter(block))).filter(|&(_, mask)| mask != 0))
        else {
            backend.compress(state, rest);
            return None;
        };
        backend.compress(state, &rest[..i]);
        let ihv = *state;
        backend.compress(state, &rest[i..=i]);
        let w = recompress::expand(&rest[i]);
        if recompress::is_attack(
            &ihv,
            state,
            &w,
            &recompress::Midstates::stepped(&ihv, &w, recompress::scalar_groups),
            mask,
            reduced_round,
            recompress::scalar_groups,
        ) {
            *state = ihv;
            return Some(blocks.len() - rest.len() + i);
        }
        rest = &rest[i + 1..];
    }
    None
}

/// The recompression on SHA-NI, for [`crate::x86::shani::ShaNi`]'s checked
/// kernels.
#[cfg(target_arch = "x86_64")]
fn shani_is_attack(
    token: crate::x86::shani::ShaNi,
    reduced_round: bool,
) -> impl Fn(&crate::x86::shani_checked::Suspect) -> bool {
    move |s| {
        let groups = |state, w: &_, first, last| token.groups(state, w, first, last);
        recompress::is_attack(
            &s.ihv,
            &s.output,
            &s.w,
            &s.mid,
            s.mask,
            reduced_round,
            groups,
        )
    }
}

/// Independent messages in flight in [`digest_many_into`] on SHA-NI.
#[cfg(target_arch = "x86_64")]
const LANES: usize = 4;

/// [`digest_many_into`] on SHA-NI: [`LANES`] messages at a time, their
/// bodies and then (when they have as many) their padded tails in
/// lockstep on the interleaved kernel, what is left of each on its own.
/// A message with an attack block is hashed again by [`digest()`], which
/// stops there and mitigates.
#[cfg(target_arch = "x86_64")]
fn digest_many_shani(
    token: crate::x86::shani::ShaNi,
    messages: &[&[u8]],
    out: &mut [Result<Digest, Collision>],
) {
    use crate::pad::Padded;
    let avx512 = crate::x86::filter_avx512::Avx512Filter::detect();
    let is_attack = shani_is_attack(token, false);
    let mut groups = messages.chunks_exact(LANES);
    let mut slots = out.chunks_exact_mut(LANES);
    for (group, slots) in (&mut groups).zip(&mut slots) {
        let group: &[&[u8]; LANES] = group.try_into().expect("LANES messages");
        let parts = group.map(|m| {
            let (body, rest) = m.as_chunks::<BLOCK>();
            (body, Padded::after_blocks(body.len() as u64, rest))
        });
        let mut states = [INITIAL_STATE; LANES];
        let bodies = parts.each_ref().map(|(body, _)| *body);
        let (done, mut attacked) =
            token.compress_checked_lanes(&mut states, bodies, avx512, &is_attack);
        for ((state, (body, _)), attacked) in states.iter_mut().zip(&parts).zip(&mut attacked) {
            *attacked = *attacked
                || token
                    .compress_checked(state, &body[done..], avx512, &is_attack)
                    .is_some();
        }
        let tails = parts.each_ref().map(|(_, tail)| tail.blocks());
        if tails.iter().all(|t| t.len() == tails[0].len()) {
            let (_, tail_attacked) =
                token.compress_checked_lanes(&mut states, tails, avx512, &is_attack);
            for (attacked, tail) in attacked.iter_mut().zip(tail_attacked) {
                *attacked |= tail;
            }
        } else {
            for ((state, tail), attacked) in states.iter_mut().zip(tails).zip(&mut attacked) {
                *attacked = *attacked
                    || token
                        .compress_checked(state, tail, avx512, &is_attack)
                        .is_some();
            }
        }
        for (((slot, message), state), attacked) in
            slots.iter_mut().zip(group).zip(states).zip(attacked)
        {
            *slot = if attacked {
                digest(message)
            } else {
                Ok(Digest::from_state(state))
            };
        }
    }
    for (message, slot) in groups.remainder().iter().zip(slots.into_remainder()) {
        *slot = digest(message);
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
            .field("backend", &self.backend)
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

/// The SHA-1 digest of `data`, or the [`Collision`] it holds, with the
/// backend [`Backend::detect`] picks.
///
/// # Errors
///
/// [`Collision`] when `data` holds a collision attack.
///
/// ```
/// let d = sha1_fast::checked::digest(b"abc")?;
/// assert_eq!(d, sha1_fast::digest(b"abc"));
/// # Ok::<(), sha1_fast::checked::Collision>(())
/// ```
pub fn digest(data: &[u8]) -> Result<Digest, Collision> {
    // On SHA-NI the body and the padded tail go to the kernel as they
    // are, without the hasher's buffer; only data with an attack block
    // takes the hasher, which stops there and mitigates.
    #[cfg(target_arch = "x86_64")]
    if Backend::detect() == Backend::ShaNi
        && let Some(token) = crate::x86::shani::ShaNi::detect()
    {
        let avx512 = crate::x86::filter_avx512::Avx512Filter::detect();
        let is_attack = shani_is_attack(token, false);
        let (body, rest) = data.as_chunks::<BLOCK>();
        let tail = crate::pad::Padded::after_blocks(body.len() as u64, rest);
        let mut state = INITIAL_STATE;
        let parts = [body, tail.blocks()];
        if token
            .compress_checked_parts(&mut state, parts, avx512, &is_attack)
            .is_none()
        {
            return Ok(Digest::from_state(state));
        }
    }
    let mut hasher = Sha1::new();
    hasher.update(data);
    hasher.finalize()
}

/// [`digest()`] of each message, in order.
///
/// ```
/// let out = sha1_fast::checked::digest_many(&[b"a", b"bc"]);
/// assert_eq!(out, [Ok(sha1_fast::digest(b"a")), Ok(sha1_fast::digest(b"bc"))]);
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn digest_many(messages: &[&[u8]]) -> alloc::vec::Vec<Result<Digest, Collision>> {
    let mut out = alloc::vec![Ok(Digest::from_bytes([0; 20])); messages.len()];
    digest_many_into(messages, &mut out).expect("one slot per message");
    out
}

/// `digest_many` (with `alloc`) into `out`, one slot per message, without
/// allocating.
///
/// # Errors
///
/// [`crate::LengthMismatch`] if `out` does not have one slot per message;
/// `out` is then left as it was.
///
/// ```
/// use sha1_fast::checked;
///
/// let mut out = [Ok(sha1_fast::Digest::from_bytes([0; 20])); 2];
/// checked::digest_many_into(&[b"a", b"bc"], &mut out)?;
/// assert_eq!(out[1], Ok(sha1_fast::digest(b"bc")));
/// # Ok::<(), sha1_fast::LengthMismatch>(())
/// ```
pub fn digest_many_into(
    messages: &[&[u8]],
    out: &mut [Result<Digest, Collision>],
) -> Result<(), crate::LengthMismatch> {
    if messages.len() != out.len() {
        return Err(crate::LengthMismatch {
            messages: messages.len(),
            digests: out.len(),
        });
    }
    #[cfg(target_arch = "x86_64")]
    if Backend::detect() == Backend::ShaNi
        && let Some(token) = crate::x86::shani::ShaNi::detect()
    {
        digest_many_shani(token, messages, out);
        return Ok(());
    }
    for (message, slot) in messages.iter().zip(out) {
        *slot = digest(message);
    }
    Ok(())
}
