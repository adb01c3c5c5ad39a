//! The one-shot and many-message entries of [`crate::checked`]: the
//! engine's checked paths, and the hasher for data with an attack block,
//! which it stops at and mitigates.

use super::{Collision, Sha1};
use crate::Digest;
use crate::engine::Engine;

/// The SHA-1 digest of `data`, or the [`Collision`] it holds, with the
/// backend [`crate::Backend::detect`] picks.
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
    Engine::detect()
        .digest_checked(data)
        .ok_or(())
        .or_else(|()| mitigated(data))
}

/// The hasher's result for `data`, which holds an attack block: it stops
/// there and mitigates.
#[cold]
fn mitigated(data: &[u8]) -> Result<Digest, Collision> {
    let mut hasher = Sha1::new();
    hasher.update(data);
    hasher.finalize()
}

/// [`digest()`] of each message, in order: several messages at once in
/// the lanes of vectors or of the SHA unit where the CPU has them (the
/// filter on all the blocks of a step, the recompression only for those
/// it lets through), else one message after another.
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
    Engine::detect().digest_many_checked(messages, out, |index, digest| {
        digest.ok_or(()).or_else(|()| mitigated(messages[index]))
    });
    Ok(())
}
