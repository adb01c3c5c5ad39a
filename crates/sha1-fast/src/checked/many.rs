//! The one-shot and many-message entries of [`crate::checked`].

#[cfg(target_arch = "x86_64")]
use super::compress::{compress_checked, shani_is_attack, suspect_is_attack};
use super::{Collision, Sha1};
use crate::Digest;
#[cfg(target_arch = "x86_64")]
use crate::{
    INITIAL_STATE,
    buffer::BLOCK,
    engine::Engine,
    pad::Padded,
    x86::{avx2_lanes::Avx2, avx512_lanes::Avx512Lanes, lanes_checked::CheckedLanes},
};

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
    // On SHA-NI the body and the padded tail go to the kernel as they
    // are, without the hasher's buffer; only data with an attack block
    // takes the hasher, which stops there and mitigates.
    #[cfg(target_arch = "x86_64")]
    if let Engine::ShaNi(token) = Engine::detect() {
        let filter = crate::x86::shani_checked::Filter::detect();
        let is_attack = shani_is_attack(token, false);
        let (body, rest) = data.as_chunks::<BLOCK>();
        // Filled where it lives: a padded block built elsewhere and moved
        // here is copied with wide loads from fresh narrow stores, which
        // stalls (see `Padded::fill`).
        let mut tail = Padded::EMPTY;
        tail.fill(rest, data.len() as u64);
        let mut state = INITIAL_STATE;
        let parts = [body, tail.blocks()];
        if token
            .compress_checked_parts(&mut state, parts, filter, &is_attack)
            .is_none()
        {
            return Ok(Digest::from_state(state));
        }
    }
    let mut hasher = Sha1::new();
    hasher.update(data);
    hasher.finalize()
}

/// [`digest()`] of each message, in order: sixteen messages at once in
/// the lanes of AVX-512 vectors where the CPU has AVX-512 F and BW, the
/// filter on all sixteen blocks of a step and the recompression only for
/// the blocks it lets through (on 1000-byte messages about 2.4× a loop of
/// `sha1dc::digest` on an Intel Xeon of family 6 model 207); else, on
/// AMD CPUs with SHA-NI, four interleaved SHA-NI streams (1.19–1.31× the
/// `sha1dc` loop on an AMD EPYC of family 25 model 1); else eight at once
/// in the lanes of AVX2 vectors the same way as AVX-512's; else four
/// interleaved SHA-NI streams, else one message after another.
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
    {
        let engine = Engine::detect();
        match (engine, Avx512Lanes::detect(), Avx2::detect()) {
            (Engine::ShaNi(_) | Engine::SimdSchedule(..), Some(lanes), _) => {
                digest_many_lanes(lanes, engine, messages, out);
                return Ok(());
            }
            (Engine::ShaNi(token), None, Some(_))
                if crate::x86::shani_checked::sha_unit_lanes_preferred() =>
            {
                digest_many_shani(token, messages, out);
                return Ok(());
            }
            (Engine::ShaNi(_) | Engine::SimdSchedule(..), None, Some(lanes)) => {
                digest_many_lanes(lanes, engine, messages, out);
                return Ok(());
            }
            (Engine::ShaNi(token), None, None) => {
                digest_many_shani(token, messages, out);
                return Ok(());
            }
            _ => {}
        }
    }
    for (message, slot) in messages.iter().zip(out) {
        *slot = digest(message);
    }
    Ok(())
}

/// [`digest_many_into`] in the lanes of AVX-512 or AVX2 vectors (see
/// [`crate::x86::avx512_lanes`], [`crate::x86::avx2_lanes`]), with
/// `engine`'s recompression and its checked compression for the last few
/// messages. A message with an attack block is hashed again by
/// [`digest()`], which stops there and mitigates.
#[cfg(target_arch = "x86_64")]
fn digest_many_lanes(
    lanes: impl CheckedLanes,
    engine: Engine,
    messages: &[&[u8]],
    out: &mut [Result<Digest, Collision>],
) {
    let shani = match engine {
        Engine::ShaNi(token) => Some(token),
        _ => None,
    };
    lanes.digest_many_checked(
        messages,
        out,
        suspect_is_attack(shani, false),
        |state, parts| {
            parts
                .iter()
                .any(|blocks| compress_checked(engine, state, blocks, false).is_some())
        },
        |index, state, attacked| {
            if attacked {
                digest(messages[index])
            } else {
                Ok(Digest::from_state(state))
            }
        },
    );
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
    let filter = crate::x86::shani_checked::Filter::detect();
    let is_attack = shani_is_attack(token, false);
    let mut groups = messages.chunks_exact(LANES);
    let mut slots = out.chunks_exact_mut(LANES);
    for (group, slots) in (&mut groups).zip(&mut slots) {
        let group: &[&[u8]; LANES] = group.try_into().expect("LANES messages");
        // The tails are filled where they live: built elsewhere and moved
        // here, they would be copied with wide loads from fresh narrow
        // stores, which stalls (see `Padded::fill`).
        let mut tails = [Padded::EMPTY; LANES];
        let mut bodies: [&[[u8; BLOCK]]; LANES] = [&[]; LANES];
        for ((message, tail), body) in group.iter().zip(&mut tails).zip(&mut bodies) {
            let (blocks, rest) = message.as_chunks::<BLOCK>();
            tail.fill(rest, message.len() as u64);
            *body = blocks;
        }
        let tails = tails.each_ref().map(Padded::blocks);
        let parts: [[&[[u8; BLOCK]]; 2]; LANES] = core::array::from_fn(|i| [bodies[i], tails[i]]);
        // In lockstep while every message has blocks left, then each on
        // its own.
        let mut states = [INITIAL_STATE; LANES];
        let (done, mut attacked) =
            token.compress_checked_lanes(&mut states, parts, filter, &is_attack);
        for ((state, [body, tail]), attacked) in states.iter_mut().zip(parts).zip(&mut attacked) {
            let (body_done, tail_done) = (done.min(body.len()), done.saturating_sub(body.len()));
            *attacked = *attacked
                || [&body[body_done..], &tail[tail_done..]]
                    .into_iter()
                    .any(|blocks| {
                        token
                            .compress_checked(state, blocks, filter, &is_attack)
                            .is_some()
                    });
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

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::{Avx2, Avx512Lanes, digest, digest_many_lanes, digest_many_shani};
    use crate::checked::test_data::{COLLISION_FILES, collision_file, noise};
    use crate::engine::Engine;
    use crate::{Backend, Digest};
    use std::vec::Vec;

    /// Mixed lengths (the lanes start and finish out of step), each
    /// colliding file twice, once with a suffix, and with one bit flipped.
    fn batch() -> Vec<Vec<u8>> {
        let mut batch: Vec<Vec<u8>> = (0..150).map(|i| noise(i, i as usize * 37 % 1300)).collect();
        for (i, file) in COLLISION_FILES.into_iter().enumerate() {
            let data = collision_file(file);
            let mut suffixed = data.clone();
            suffixed.extend(noise(1000 + i as u64, 100 + i));
            let mut flipped = data.clone();
            flipped[250] ^= 2;
            batch.insert(i * 31, data.clone());
            batch.insert(i * 17 + 5, suffixed);
            batch.insert(i * 23 + 60, flipped);
            batch.push(data);
        }
        batch
    }

    /// Each many-message path, forced, on every engine it can run with:
    /// every result equals `digest`'s.
    #[test]
    fn every_path_equals_digest() {
        let batch = batch();
        let messages: Vec<&[u8]> = batch.iter().map(Vec::as_slice).collect();
        let expected: Vec<_> = messages.iter().map(|m| digest(m)).collect();
        assert_eq!(expected.iter().filter(|r| r.is_err()).count(), 12);
        let mut out = std::vec![Ok(Digest::from_bytes([0; 20])); messages.len()];
        for engine in Backend::ALL.iter().filter_map(|&b| Engine::of(b)) {
            if let Some(lanes) = Avx512Lanes::detect() {
                out.fill(Ok(Digest::from_bytes([0; 20])));
                digest_many_lanes(lanes, engine, &messages, &mut out);
                assert_eq!(out, expected, "AVX-512 lanes on {}", engine.backend());
            }
            if let Some(lanes) = Avx2::detect() {
                out.fill(Ok(Digest::from_bytes([0; 20])));
                digest_many_lanes(lanes, engine, &messages, &mut out);
                assert_eq!(out, expected, "AVX2 lanes on {}", engine.backend());
            }
        }
        if let Engine::ShaNi(token) = Engine::detect() {
            out.fill(Ok(Digest::from_bytes([0; 20])));
            digest_many_shani(token, &messages, &mut out);
            assert_eq!(out, expected, "SHA-NI lanes");
        }
    }
}
