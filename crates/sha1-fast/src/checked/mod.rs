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

pub(crate) mod dv;
mod hasher;
#[cfg(test)]
pub(crate) mod kernel_tests;
mod many;
pub(crate) mod recompress;
pub(crate) mod scalar_kernel;
// The filter's tables for the bit-sliced forms (AVX2, AVX-512) and the
// per-block AVX2 form.
#[cfg(target_arch = "x86_64")]
pub(crate) mod sliced;
pub(crate) mod ubc;
#[cfg(target_arch = "x86_64")]
pub(crate) mod word_vectors;

/// Data for the unit tests of the x86-64 kernels that detect collisions.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) mod test_data {
    use std::vec::Vec;

    /// The published colliding files (`vectors/sha1-collisions/`).
    pub(crate) const COLLISION_FILES: [&str; 4] = [
        "shattered-1.pdf",
        "shattered-2.pdf",
        "sha-mbles-1.bin",
        "sha-mbles-2.bin",
    ];

    /// The colliding file `name`.
    pub(crate) fn collision_file(name: &str) -> Vec<u8> {
        let path = testkit::vector_path(&std::format!("sha1-collisions/{name}"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    pub(crate) use testkit::noise;
}

pub use hasher::Sha1;
#[cfg(feature = "alloc")]
pub use many::digest_many;
pub use many::{digest, digest_many_into};

use crate::Digest;

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
