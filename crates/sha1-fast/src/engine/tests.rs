//! The engine's choices, each run against the reference.

use super::Engine;
use crate::{Backend, Digest, reference};
#[cfg(target_arch = "x86_64")]
use std::vec::Vec;

#[test]
fn every_available_backend_has_an_engine_with_its_label() {
    for &backend in Backend::ALL {
        if let Some(engine) = Engine::of(backend) {
            assert_eq!(engine.backend(), backend);
        }
    }
    assert_eq!(Engine::detect().backend(), Backend::detect());
}

/// The SIMD-schedule backend carries the AVX2 lanes wherever the CPU
/// has them: its `digest_many` gives the same digests either way, so
/// only its engine shows whether the lanes are reachable at all.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_simd_backend_takes_the_avx2_lanes_when_present() {
    use crate::arch::x86_64::cpu::Avx2;
    if let Some(Engine::SimdSchedule(_, lanes)) = Engine::of(Backend::SimdSchedule) {
        assert_eq!(lanes.is_some(), Avx2::detect().is_some());
    }
}

/// Every engine's `digest_many` against the reference, with and
/// without the AVX-512 lanes, including the SIMD-schedule engine
/// without its AVX2 lanes (what a CPU with SSSE3 but no AVX2 runs),
/// which no public call can select on a machine that has AVX2.
#[test]
fn digest_many_of_every_engine() {
    let mut data = [0u8; 700];
    for (i, byte) in data.iter_mut().enumerate() {
        *byte = (i * 7 + i / 251) as u8;
    }
    let mut messages: [&[u8]; 40] = [&[]; 40];
    for (i, message) in messages.iter_mut().enumerate() {
        // Lengths 0, 37, 74, … (mod 300): scattered remainders modulo
        // 64, so one- and two-block paddings both occur (185 bytes
        // leaves 57).
        *message = &data[i..i + i * 37 % 300];
    }
    let mut engines = [None; 4];
    engines[0] = Some(Engine::Scalar);
    #[cfg(target_arch = "x86_64")]
    {
        use crate::arch::x86_64::cpu::{Avx2, ShaNi, Ssse3};
        engines[1] = ShaNi::detect().map(Engine::ShaNi);
        engines[2] = Ssse3::detect().map(|t| Engine::SimdSchedule(t, None));
        engines[3] = Ssse3::detect().map(|t| Engine::SimdSchedule(t, Avx2::detect()));
    }
    #[cfg(target_arch = "aarch64")]
    {
        use crate::arch::aarch64::cpu::ArmSha;
        engines[1] = ArmSha::detect().map(Engine::ArmSha);
    }
    for (which, engine) in engines.into_iter().enumerate() {
        let Some(engine) = engine else { continue };
        // With the AVX-512 lanes where the CPU has them, and with the
        // engine's own lanes, which such a CPU would not run otherwise.
        for own in [false, true] {
            let mut out = [Digest::from_bytes([0; 20]); 40];
            if own {
                engine.digest_many_in_own_lanes(&messages, &mut out);
            } else {
                engine.digest_many(&messages, &mut out);
            }
            for (message, digest) in messages.iter().zip(out) {
                assert_eq!(
                    digest.to_bytes(),
                    reference::digest(message),
                    "engine {which}, own lanes {own}, {} bytes",
                    message.len()
                );
            }
        }
    }
}

/// Under Miri the tokens come from `cargo xtask miri`'s compile-time
/// features: a list drifting from `Avx2`'s would leave the AVX2 lanes,
/// which have no public switch, silently uninterpreted.
#[cfg(all(miri, target_arch = "x86_64"))]
#[test]
fn miri_interprets_both_simd_kernels() {
    use crate::arch::x86_64::cpu::{Avx2, Ssse3};
    assert!(
        Ssse3::detect().is_some() && Avx2::detect().is_some(),
        "run under `cargo xtask miri`, whose target features must cover \
         those of `Ssse3` and `Avx2`"
    );
}

/// The SHA-NI recompression flags every vector's made-up attack, in
/// both modes, and not with any word of the output off by one; a
/// random block is no attack with every vector left.
#[cfg(target_arch = "x86_64")]
#[test]
fn sha_ni_flags_made_up_attacks() {
    use super::shani_is_attack;
    use crate::arch::x86_64::cpu::ShaNi;
    use crate::arch::x86_64::spill::{Spill, Suspect};
    use crate::checked::dv::DVS;
    use crate::checked::recompress::{expand, made_up_attacks};
    use crate::checked::ubc::ALL_DVS;
    let Some(token) = ShaNi::detect() else {
        return;
    };
    let [full, reduced] = [false, true].map(|mode| shani_is_attack(token, mode));
    for (dv, ihv, w, output) in made_up_attacks() {
        let spill = Spill::of_block(&ihv, &w);
        for mask in [DVS[dv].mask_bit(), ALL_DVS] {
            let suspect = Suspect::new(&spill, output, mask);
            assert!(full(&suspect), "{:?} {mask:x}", DVS[dv]);
            assert!(reduced(&suspect), "{:?} {mask:x} reduced", DVS[dv]);
        }
        for i in 0..5 {
            let mut off = output;
            off[i] = off[i].wrapping_add(1);
            let suspect = Suspect::new(&spill, off, DVS[dv].mask_bit());
            assert!(!full(&suspect), "{:?} word {i}", DVS[dv]);
        }
    }
    let w = expand(&core::array::from_fn(|i| (i * 37 + 11) as u8));
    let spill = Spill::of_block(&crate::INITIAL_STATE, &w);
    let output = crate::checked::recompress::compress(&crate::INITIAL_STATE, &w);
    for mode in [&full, &reduced] {
        assert!(!mode(&Suspect::new(&spill, output, ALL_DVS)));
    }
}

/// Mixed lengths (the lanes start and finish out of step), each colliding
/// file twice, once with a suffix, and with one bit flipped.
#[cfg(target_arch = "x86_64")]
fn checked_batch() -> Vec<Vec<u8>> {
    use crate::checked::test_data::{COLLISION_FILES, collision_file, noise};
    // More messages than one window of `lanes::ByLength`, so that lanes
    // carry messages from one sorted window into the next.
    let mut batch: Vec<Vec<u8>> = (0..300).map(|i| noise(i, i as usize * 37 % 1300)).collect();
    for (i, file) in COLLISION_FILES.into_iter().enumerate() {
        let data = collision_file(file);
        let mut suffixed = data.clone();
        suffixed.extend(noise(1000 + i as u64, 100 + i));
        let mut flipped = data.clone();
        flipped[250] ^= 2;
        batch.insert(i * 61, data.clone());
        batch.insert(i * 37 + 5, suffixed);
        batch.insert(i * 53 + 60, flipped);
        batch.push(data);
    }
    batch
}

/// Each checked many-message path, forced, on every engine it can run
/// with, and the SHA-NI lanes with every filter: every result equals
/// `checked::digest`'s.
#[cfg(target_arch = "x86_64")]
#[test]
fn every_checked_many_path_equals_digest() {
    use super::shani_is_attack;
    use crate::arch::x86_64::cpu::{Avx2, Avx512};
    use crate::checked::digest;
    let batch = checked_batch();
    let messages: Vec<&[u8]> = batch.iter().map(Vec::as_slice).collect();
    let expected: Vec<_> = messages.iter().map(|m| digest(m)).collect();
    assert_eq!(expected.iter().filter(|r| r.is_err()).count(), 12);
    let finish = |i: usize, state: Option<[u32; 5]>| {
        state
            .map(Digest::from_state)
            .ok_or(())
            .or_else(|()| digest(messages[i]))
    };
    let mut out = std::vec![Ok(Digest::from_bytes([0; 20])); messages.len()];
    for engine in Backend::ALL.iter().filter_map(|&b| Engine::of(b)) {
        if let Some(lanes) = Avx512::detect() {
            out.fill(Ok(Digest::from_bytes([0; 20])));
            engine.checked_lanes(lanes, &messages, &mut out, finish);
            assert_eq!(out, expected, "AVX-512 lanes on {}", engine.backend());
        }
        if let Some(lanes) = Avx2::detect() {
            out.fill(Ok(Digest::from_bytes([0; 20])));
            engine.checked_lanes(lanes, &messages, &mut out, finish);
            assert_eq!(out, expected, "AVX2 lanes on {}", engine.backend());
        }
        if let Engine::ShaNi(token) = engine {
            for avx2 in [None, Avx2::detect()] {
                out.fill(Ok(Digest::from_bytes([0; 20])));
                let is_attack = shani_is_attack(token, false);
                token.digest_many_checked(&messages, &mut out, avx2, is_attack, finish);
                assert_eq!(
                    out,
                    expected,
                    "SHA-NI lanes, AVX2 filter {}",
                    avx2.is_some()
                );
            }
        }
    }
}
