//! The digest a file gets: plain SHA-1, or SHA-1 with collision
//! detection (`sha1_fast::checked`), of its bytes or of its git blob.

use crate::options::Detection;
use sha1_fast::{Digest, checked};

/// A file's digest and whether its bytes hold a collision attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hashed {
    /// The digest to print: the plain SHA-1, or for a flagged file with
    /// [`Detection::Mitigated`] the mitigated one.
    pub(crate) digest: Digest,
    /// The data holds a block of a SHA-1 collision attack.
    pub(crate) collision: bool,
}

/// How files are hashed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Algorithm {
    pub(crate) detection: Detection,
    /// Hash `blob <len>\0` and then the bytes, as git names a blob.
    pub(crate) git: bool,
}

impl Algorithm {
    fn judge(self, result: Result<Digest, checked::Collision>) -> Hashed {
        match result {
            Ok(digest) => Hashed {
                digest,
                collision: false,
            },
            Err(attack) => Hashed {
                digest: match self.detection {
                    Detection::Mitigated => attack.mitigated(),
                    Detection::On | Detection::Off => attack.digest(),
                },
                collision: true,
            },
        }
    }

    /// The digest of one whole message (its git header included).
    pub(crate) fn one(self, message: &[u8]) -> Hashed {
        match self.detection {
            Detection::Off => Hashed {
                digest: sha1_fast::digest(message),
                collision: false,
            },
            Detection::On | Detection::Mitigated => self.judge(checked::digest(message)),
        }
    }

    /// The digests of many whole messages, in order: the many-message
    /// lanes of sha1-fast hash several at once.
    pub(crate) fn many(self, messages: &[&[u8]]) -> Vec<Hashed> {
        match self.detection {
            Detection::Off => sha1_fast::digest_many(messages)
                .into_iter()
                .map(|digest| Hashed {
                    digest,
                    collision: false,
                })
                .collect(),
            Detection::On | Detection::Mitigated => checked::digest_many(messages)
                .into_iter()
                .map(|result| self.judge(result))
                .collect(),
        }
    }

    /// A streaming hasher; the caller writes the git header first.
    pub(crate) fn stream(self) -> Stream {
        match self.detection {
            Detection::Off => Stream::Plain(sha1_fast::Sha1::new()),
            Detection::On | Detection::Mitigated => Stream::Checked(checked::Sha1::new(), self),
        }
    }
}

/// [`Algorithm::stream`]'s hasher.
pub(crate) enum Stream {
    Plain(sha1_fast::Sha1),
    Checked(checked::Sha1, Algorithm),
}

impl Stream {
    pub(crate) fn update(&mut self, data: &[u8]) {
        match self {
            Stream::Plain(hasher) => hasher.update(data),
            Stream::Checked(hasher, _) => hasher.update(data),
        }
    }

    pub(crate) fn finish(self) -> Hashed {
        match self {
            Stream::Plain(hasher) => Hashed {
                digest: hasher.finalize(),
                collision: false,
            },
            Stream::Checked(hasher, algorithm) => algorithm.judge(hasher.finalize()),
        }
    }
}

/// The header git hashes before a blob's `len` bytes: `blob <len>\0`.
pub(crate) fn git_header(len: u64) -> Vec<u8> {
    format!("blob {len}\0").into_bytes()
}
