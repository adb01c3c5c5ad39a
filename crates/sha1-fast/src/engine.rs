//! The dispatch between backends: an [`Engine`] is a [`Backend`] that can
//! run here, carrying the detection token that proves it.
//!
//! A hasher takes its engine once, when it is made (as BLAKE3's hasher
//! keeps its `Platform`), so `update` never asks the CPU again. The public
//! label stays [`Backend`]; the engine is how the crate holds one.
//!
//! Adding a backend means a variant here with arms in [`Engine::of`],
//! [`Engine::backend`], [`Engine::compress`] and [`Engine::digest_many`],
//! and the label in `backend.rs`.

#[cfg(target_arch = "aarch64")]
use crate::aarch64;
use crate::pad::Padded;
#[cfg(target_arch = "x86_64")]
use crate::x86;
use crate::{Backend, Digest, INITIAL_STATE};

/// A backend that can run here, with the proof that it can.
#[derive(Clone, Copy)]
pub(crate) enum Engine {
    #[cfg(target_arch = "x86_64")]
    ShaNi(x86::shani::ShaNi),
    /// With the AVX2 lanes for `digest_many`, if the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    SimdSchedule(x86::simd_schedule::Ssse3, Option<x86::avx2_lanes::Avx2>),
    #[cfg(target_arch = "aarch64")]
    ArmSha(aarch64::armsha::ArmSha),
    /// The SIMD-schedule method on Wasm SIMD, compiled in by the build.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
    Scalar,
}

impl Engine {
    /// `backend` with its proof of availability, or `None` if it cannot
    /// run here.
    #[inline]
    pub(crate) fn of(backend: Backend) -> Option<Engine> {
        match backend {
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi => x86::shani::ShaNi::detect().map(Engine::ShaNi),
            #[cfg(target_arch = "x86_64")]
            Backend::SimdSchedule => x86::simd_schedule::Ssse3::detect()
                .map(|token| Engine::SimdSchedule(token, x86::avx2_lanes::Avx2::detect())),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Backend::SimdSchedule => (!cfg!(sha1_fast_force = "none")).then_some(Engine::Simd128),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::ShaNi => None,
            #[cfg(not(any(
                target_arch = "x86_64",
                all(target_arch = "wasm32", target_feature = "simd128")
            )))]
            Backend::SimdSchedule => None,
            #[cfg(target_arch = "aarch64")]
            Backend::ArmSha => aarch64::armsha::ArmSha::detect().map(Engine::ArmSha),
            #[cfg(not(target_arch = "aarch64"))]
            Backend::ArmSha => None,
            Backend::Scalar => Some(Engine::Scalar),
        }
    }

    /// The engine of [`Backend::detect`]'s choice, which is always
    /// available.
    #[inline]
    pub(crate) fn detect() -> Engine {
        Engine::of(Backend::detect()).unwrap_or(Engine::Scalar)
    }

    /// The label of this engine.
    #[inline]
    pub(crate) fn backend(self) -> Backend {
        match self {
            #[cfg(target_arch = "x86_64")]
            Engine::ShaNi(_) => Backend::ShaNi,
            #[cfg(target_arch = "x86_64")]
            Engine::SimdSchedule(..) => Backend::SimdSchedule,
            #[cfg(target_arch = "aarch64")]
            Engine::ArmSha(_) => Backend::ArmSha,
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Engine::Simd128 => Backend::SimdSchedule,
            Engine::Scalar => Backend::Scalar,
        }
    }

    /// Hashes `blocks` into `state`.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        self.compress_parts(state, &[blocks]);
    }

    /// Hashes the blocks of each part in turn, as one stream. SHA-NI
    /// keeps the state in registers from part to part; the others call
    /// their kernel once per part (at most two parts: the full blocks and
    /// the padded tail).
    #[inline]
    pub(crate) fn compress_parts(self, state: &mut [u32; 5], parts: &[&[[u8; 64]]]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Engine::ShaNi(token) => token.compress(state, parts),
            #[cfg(target_arch = "x86_64")]
            Engine::SimdSchedule(token, _) => token.compress(state, parts),
            #[cfg(target_arch = "aarch64")]
            Engine::ArmSha(token) => token.compress(state, parts),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Engine::Simd128 => {
                for blocks in parts {
                    crate::wasm32::simd_schedule::compress(state, blocks);
                }
            }
            Engine::Scalar => {
                for blocks in parts {
                    crate::scalar::compress(state, blocks);
                }
            }
        }
    }

    /// `out` has one slot per message. On x86-64 CPUs with AVX-512, the
    /// SHA-NI and SIMD-schedule engines hash sixteen messages at once in
    /// the lanes of AVX-512 vectors, finishing the last few on their own
    /// kernel (docs/sha1-checked.md has the figures).
    #[inline]
    pub(crate) fn digest_many(self, messages: &[&[u8]], out: &mut [Digest]) {
        #[cfg(target_arch = "x86_64")]
        if let (Engine::ShaNi(_) | Engine::SimdSchedule(..), Some(lanes)) =
            (self, x86::avx512_lanes::Avx512Lanes::detect())
        {
            return lanes.digest_many(messages, out, |state, parts| {
                self.compress_parts(state, parts);
            });
        }
        self.digest_many_in_own_lanes(messages, out);
    }

    /// [`Engine::digest_many`] without the AVX-512 lanes: each engine's
    /// own multi-stream path.
    #[inline]
    fn digest_many_in_own_lanes(self, messages: &[&[u8]], out: &mut [Digest]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Engine::ShaNi(token) => token.digest_many(messages, out),
            #[cfg(target_arch = "x86_64")]
            Engine::SimdSchedule(_, Some(lanes)) => lanes.digest_many(messages, out),
            #[cfg(target_arch = "aarch64")]
            Engine::ArmSha(token) => token.digest_many(messages, out),
            // A core bound by its scalar rounds gains nothing from
            // interleaving.
            _ => {
                for (message, digest) in messages.iter().zip(out) {
                    *digest = self.digest(message);
                }
            }
        }
    }

    /// The one-shot path: full blocks straight from `data`, then the tail
    /// padded on the stack, in one backend call; no hasher, no buffer of
    /// the data. Building the tail first lets the core hash the body while
    /// the tail's stores settle.
    #[inline]
    pub(crate) fn digest(self, data: &[u8]) -> Digest {
        // SHA-NI has its own entry for the whole one-shot: it starts from
        // the constant H(0) and writes the digest from registers
        // (docs/sha1.md has the figures).
        #[cfg(target_arch = "x86_64")]
        if let Engine::ShaNi(token) = self {
            return token.digest(data);
        }
        let (body, rest) = data.as_chunks::<64>();
        let mut tail = Padded::EMPTY;
        tail.fill(rest, data.len() as u64);
        let mut state = INITIAL_STATE;
        self.compress_parts(&mut state, &[body, tail.blocks()]);
        Digest::from_state(state)
    }
}

#[cfg(test)]
mod tests {
    use super::Engine;
    use crate::{Backend, Digest, reference};

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
        use crate::x86::avx2_lanes::Avx2;
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
            use crate::x86::{avx2_lanes::Avx2, shani::ShaNi, simd_schedule::Ssse3};
            engines[1] = ShaNi::detect().map(Engine::ShaNi);
            engines[2] = Ssse3::detect().map(|t| Engine::SimdSchedule(t, None));
            engines[3] = Ssse3::detect().map(|t| Engine::SimdSchedule(t, Avx2::detect()));
        }
        #[cfg(target_arch = "aarch64")]
        {
            use crate::aarch64::armsha::ArmSha;
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

    /// Under Miri the SIMD tokens come from the features `cargo xtask miri`
    /// enables at compile time, not from CPUID. `tests/miri.rs` checks the
    /// SIMD-schedule backend through the public API; the AVX2 lanes have no
    /// public switch (`digest_many` falls back to the single-stream kernel),
    /// so a feature list drifting from `Avx2`'s would otherwise leave them
    /// silently uninterpreted.
    #[cfg(all(miri, target_arch = "x86_64"))]
    #[test]
    fn miri_interprets_both_simd_kernels() {
        use crate::x86::{avx2_lanes::Avx2, simd_schedule::Ssse3};
        assert!(
            Ssse3::detect().is_some() && Avx2::detect().is_some(),
            "run under `cargo xtask miri`, whose target features must cover \
             those of `Ssse3` and `Avx2`"
        );
    }
}
