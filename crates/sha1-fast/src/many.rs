//! Hashing many independent messages at once.

use crate::{Backend, Digest};

/// SHA-1 of each message, in order, with the backend [`Backend::detect`]
/// picks, hashing several at once where that backend gains from it:
/// sixteen messages in the lanes of AVX-512 vectors where the CPU has
/// AVX-512, else five SHA-NI streams interleaved round group by round
/// group, or eight messages in the lanes of AVX2 vectors on the
/// SIMD-schedule backend (`docs/sha1.md` has the figures). Messages
/// may have any lengths; the result equals [`crate::digest()`] of each.
///
/// ```
/// let messages: Vec<&[u8]> = vec![b"abc", b"", &[0x61; 1000]];
/// let digests = sha1_fast::digest_many(&messages);
/// assert_eq!(digests[0].to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
/// assert_eq!(digests, messages.iter().map(|m| sha1_fast::digest(m)).collect::<Vec<_>>());
/// ```
#[cfg(feature = "alloc")]
pub fn digest_many(messages: &[&[u8]]) -> alloc::vec::Vec<Digest> {
    let mut out = alloc::vec![Digest::from_bytes([0; Digest::LEN]); messages.len()];
    digest_many_into(messages, &mut out).expect("one slot per message");
    out
}

/// `digest_many` writing into `out`, without allocating: `out[i]`
/// becomes the digest of `messages[i]`.
///
/// # Errors
///
/// [`LengthMismatch`] if `out.len() != messages.len()`; nothing is hashed
/// and `out` is left as it was.
///
/// ```
/// use sha1_fast::{Digest, LengthMismatch};
///
/// let messages: [&[u8]; 2] = [b"abc", b"def"];
/// let mut out = [Digest::from_bytes([0; 20]); 2];
/// sha1_fast::digest_many_into(&messages, &mut out)?;
/// assert_eq!(out[1], sha1_fast::digest(b"def"));
///
/// let err = sha1_fast::digest_many_into(&messages, &mut out[..1]).unwrap_err();
/// assert_eq!(err, LengthMismatch { messages: 2, digests: 1 });
/// # Ok::<(), LengthMismatch>(())
/// ```
#[inline]
pub fn digest_many_into(messages: &[&[u8]], out: &mut [Digest]) -> Result<(), LengthMismatch> {
    Backend::detect().digest_many_into(messages, out)
}

/// [`digest_many_into`] was given an output slice that does not have one
/// slot per message.
///
/// ```
/// let err = sha1_fast::LengthMismatch { messages: 3, digests: 2 };
/// assert_eq!(err.to_string(), "message count (3) and digest count (2) differ: `out` needs one digest per message");
///
/// let err = sha1_fast::LengthMismatch { messages: 1, digests: 0 };
/// assert!(err.to_string().contains("digest count (0)"));
///
/// // It travels in `Box<dyn Error>` and friends.
/// let err: Box<dyn std::error::Error> = Box::new(sha1_fast::LengthMismatch { messages: 1, digests: 2 });
/// assert!(err.to_string().starts_with("message count (1) and digest count (2) differ"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error(
    "message count ({messages}) and digest count ({digests}) differ: `out` needs one digest per message"
)]
pub struct LengthMismatch {
    /// How many messages there were.
    pub messages: usize,
    /// How many digests the output slice had room for.
    pub digests: usize,
}
