//! Collision-detecting SHA-1 on data that splices the published attacks'
//! blocks into arbitrary bytes, fed in arbitrary pieces: every backend's
//! `checked::Sha1` agrees with `sha1dc` on whether it is an attack and on
//! both digests (plain and mitigated), and `checked::digest_many` of the
//! message, its pieces, prefixes and suffixes with `checked::digest`.
//!
//! Input: one byte choosing the start (its low two bits pick a colliding
//! file, bit 2 none; bits 3–7 how many of its 64-byte blocks to keep, up to
//! 31), then the `split_chunks` format for the pieces that follow it.

use crate::split_chunks;
use sha1_fast::Backend;
use sha1_fast::checked::{self, Collision};

/// The first ten blocks of each published colliding file: the Shambles
/// files whole, SHAttered's prefix and its two near-collision blocks.
const STARTS: [&[u8]; 4] = [
    include_bytes!("../../../vectors/sha1-collisions/sha-mbles-1.bin"),
    include_bytes!("../../../vectors/sha1-collisions/sha-mbles-2.bin"),
    shattered(include_bytes!("../../../vectors/sha1-collisions/shattered-1.pdf")),
    shattered(include_bytes!("../../../vectors/sha1-collisions/shattered-2.pdf")),
];

const fn shattered(file: &'static [u8]) -> &'static [u8] {
    file.split_at(640).0
}

/// `sha1dc`'s answer in `checked`'s terms.
fn sha1dc(message: &[u8]) -> Result<[u8; 20], ([u8; 20], [u8; 20])> {
    match (sha1dc::digest(message), sha1dc::mitigate::digest(message)) {
        (Ok(plain), Ok(_)) => Ok(*plain.as_bytes()),
        (Err(plain), Err(mitigated)) => Err((*plain.digest().as_bytes(), *mitigated.digest().as_bytes())),
        _ => panic!("sha1dc's two hashers disagree"),
    }
}

fn ours(result: Result<sha1_fast::Digest, Collision>) -> Result<[u8; 20], ([u8; 20], [u8; 20])> {
    result
        .map(|d| d.to_bytes())
        .map_err(|c| (c.digest().to_bytes(), c.mitigated().to_bytes()))
}

/// Runs the checks on one input; panics if any fails.
pub fn run(data: &[u8]) {
    let Some((&start, rest)) = data.split_first() else {
        return;
    };
    let mut message = Vec::new();
    if start & 4 == 0 {
        let file = STARTS[usize::from(start & 3)];
        message.extend_from_slice(&file[..(usize::from(start >> 3) * 64).min(file.len())]);
    }
    let chunks = split_chunks(rest);
    for chunk in &chunks {
        message.extend_from_slice(chunk);
    }
    let expected = sha1dc(&message);
    assert_eq!(ours(checked::digest(&message)), expected, "digest()");
    let pieces: Vec<&[u8]> = core::iter::once(&message[..message.len() - chunks.concat().len()])
        .chain(chunks.iter().copied())
        .collect();
    for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
        let mut hasher = checked::Sha1::with_backend(backend).expect("available");
        for piece in &pieces {
            hasher.update(piece);
        }
        assert_eq!(ours(hasher.finalize()), expected, "{backend}");
    }
    // Enough messages that the multi-lane paths (sixteen AVX-512 lanes)
    // step: prefixes keep the attack blocks where they were, suffixes move
    // them off the block grid, the pieces are what the hasher was fed.
    let mut batch = vec![&message[..], &message[..message.len() / 2], rest];
    batch.extend(&pieces);
    for k in 1..12 {
        batch.push(&message[..message.len() * k / 12]);
        batch.push(&message[message.len() * k / 12..]);
    }
    for (got, one) in checked::digest_many(&batch).into_iter().zip(batch) {
        assert_eq!(got, checked::digest(one), "digest_many");
    }
}
