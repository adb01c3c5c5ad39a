//! The one place that chooses: an [`Engine`] is a [`Backend`] that can run
//! here, carrying the detection token that proves it, and its methods pick,
//! per CPU, the kernel, the collision filter and the many-message lanes.
//! This is the only module that imports the kernels (`crate::arch`), as
//! BLAKE3's `platform.rs` and RustCrypto sha1's `compress.rs` are.
//!
//! | CPU | plain kernel | checked kernel and filter | many messages (plain / checked) |
//! |-----|--------------|---------------------------|---------------------------------|
//! | x86-64, SSSE3 | SIMD schedule | SIMD schedule, SSSE3 planes | one by one / one by one |
//! | x86-64, AVX2, no SHA-NI | SIMD schedule | SIMD schedule (AVX2 build), per-block AVX2 filter | AVX2 lanes / AVX2 lanes, sliced AVX2 filter |
//! | x86-64, AVX-512 F+BW, no SHA-NI | SIMD schedule | as with AVX2 | AVX-512 lanes / AVX-512 lanes, sliced AVX-512 filter |
//! | SHA-NI, no AVX2 | SHA-NI | SHA-NI spilling, SSSE3 planes | SHA-NI lanes / four SHA-NI lanes |
//! | SHA-NI and AVX2, AMD | SHA-NI | SHA-NI spilling, per-block AVX2 filter | SHA-NI lanes / four SHA-NI lanes, sliced AVX2 filter |
//! | SHA-NI and AVX2, Intel | SHA-NI | as on AMD | SHA-NI lanes / AVX2 lanes |
//! | SHA-NI and AVX-512 VBMI | SHA-NI | SHA-NI spilling (AVX-512VL), sliced AVX-512 filter in stages (paired for short runs) | AVX-512 lanes / AVX-512 lanes |
//! | aarch64 with SHA-1 | Arm SHA | Arm SHA, NEON planes | Arm SHA lanes / one by one |
//! | wasm32 with `simd128` | Wasm SIMD schedule | scalar checked kernel | one by one / one by one |
//! | anything else | scalar | scalar checked kernel | one by one / one by one |
//!
//! The recompression of a block the filter lets through runs on the SHA
//! unit where there is one (SHA-NI, Arm SHA), else on the scalar steps.
//!
//! A hasher takes its engine once, when it is made, so `update` never asks
//! the CPU again; the filter and lane choices are cached detections. A new
//! backend is a variant here with arms in every method, its label in
//! `backend.rs`, and its kernels in `arch/`.

#[cfg(target_arch = "aarch64")]
use crate::arch::aarch64::cpu::ArmSha;
#[cfg(target_arch = "x86_64")]
use crate::arch::x86_64::{
    cpu::{self, Avx2, Avx512, Avx512Vbmi, ShaNi, Ssse3},
    lanes_checked::CheckedLanes,
    shani::checked::Filter,
    spill::Suspect,
};
use crate::checked::recompress;
#[cfg(target_arch = "x86_64")]
use crate::checked::recompress::SuspectBlock;
use crate::checked::scalar_kernel;
use crate::pad::Padded;
use crate::{Backend, Digest, INITIAL_STATE};

#[cfg(test)]
mod tests;

/// A backend that can run here, with the proof that it can.
#[derive(Clone, Copy)]
pub(crate) enum Engine {
    #[cfg(target_arch = "x86_64")]
    ShaNi(ShaNi),
    /// With the AVX2 lanes for `digest_many`, if the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    SimdSchedule(Ssse3, Option<Avx2>),
    #[cfg(target_arch = "aarch64")]
    ArmSha(ArmSha),
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
            Backend::ShaNi => ShaNi::detect().map(Engine::ShaNi),
            #[cfg(target_arch = "x86_64")]
            Backend::SimdSchedule => {
                Ssse3::detect().map(|token| Engine::SimdSchedule(token, Avx2::detect()))
            }
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
            Backend::ArmSha => ArmSha::detect().map(Engine::ArmSha),
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

    /// Hashes the blocks of each part in turn, as one stream. SHA-NI and
    /// Arm SHA keep the state in registers from part to part; the others
    /// call their kernel once per part (at most two parts: the full blocks
    /// and the padded tail).
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
                    crate::arch::wasm32::simd_schedule::compress(state, blocks);
                }
            }
            Engine::Scalar => {
                for blocks in parts {
                    crate::scalar::compress(state, blocks);
                }
            }
        }
    }

    /// `out` has one slot per message; the lanes are the table's.
    #[inline]
    pub(crate) fn digest_many(self, messages: &[&[u8]], out: &mut [Digest]) {
        #[cfg(target_arch = "x86_64")]
        if let (Engine::ShaNi(_) | Engine::SimdSchedule(..), Some(lanes)) = (self, Avx512::detect())
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
            Engine::SimdSchedule(token, Some(lanes)) => {
                lanes.digest_many(messages, out, |state, parts| token.compress(state, parts));
            }
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
        // the constant H(0) and writes the digest from registers.
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

    /// [`crate::checked`]'s compression: compresses `blocks` into `state`
    /// up to the first attack block, whose index it returns (with `state`
    /// the chaining value before it).
    pub(crate) fn compress_checked(
        self,
        state: &mut [u32; 5],
        blocks: &[[u8; 64]],
        reduced_round: bool,
    ) -> Option<usize> {
        match self {
            #[cfg(target_arch = "x86_64")]
            Engine::ShaNi(token) => {
                let is_attack = shani_is_attack(token, reduced_round);
                token.compress_checked(state, blocks, shani_filter(), is_attack)
            }
            #[cfg(target_arch = "x86_64")]
            Engine::SimdSchedule(token, avx2) => {
                let is_attack = suspect_is_attack(None, reduced_round);
                token.compress_checked(state, blocks, avx2, is_attack)
            }
            #[cfg(target_arch = "aarch64")]
            Engine::ArmSha(token) => {
                let groups = |state, w: &_, first, last| token.groups(state, w, first, last);
                token.compress_checked(state, blocks, |ihv, output, block, mask| {
                    let w = recompress::expand(block);
                    let mid = recompress::Midstates::stepped(ihv, &w, groups);
                    recompress::is_attack(ihv, output, &w, &mid, mask, reduced_round, groups)
                })
            }
            // The Wasm SIMD kernel's rounds are scalar too, and the scalar
            // kernel makes the filter's planes as its rounds go.
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Engine::Simd128 => scalar_compress_checked(state, blocks, reduced_round),
            Engine::Scalar => scalar_compress_checked(state, blocks, reduced_round),
        }
    }

    /// `checked::digest` without the mitigation: the body and the padded
    /// tail through the checked kernel, as in [`Engine::digest`]; `None`
    /// when the data holds an attack block (the caller then takes the
    /// hasher, which stops there and mitigates).
    #[inline(always)]
    pub(crate) fn digest_checked(self, data: &[u8]) -> Option<Digest> {
        let (body, rest) = data.as_chunks::<64>();
        // Filled where it lives: a padded block built elsewhere and moved
        // here is copied with wide loads from fresh narrow stores, which
        // stalls (see `Padded::fill`).
        let mut tail = Padded::EMPTY;
        tail.fill(rest, data.len() as u64);
        let mut state = INITIAL_STATE;
        let parts = [body, tail.blocks()];
        let attacked = match self {
            #[cfg(target_arch = "x86_64")]
            Engine::ShaNi(token) => {
                let is_attack = shani_is_attack(token, false);
                token
                    .compress_checked_parts(&mut state, parts, shani_filter(), &is_attack)
                    .is_some()
            }
            _ => self.compress_checked_each(&mut state, parts),
        };
        (!attacked).then(|| Digest::from_state(state))
    }

    /// [`Engine::compress_checked`] of each part in turn, until an attack
    /// block; whether there was one. Out of line, so that the SHA-NI
    /// one-shot above stays as small as a call that has only its own path.
    #[inline(never)]
    fn compress_checked_each(self, state: &mut [u32; 5], parts: [&[[u8; 64]]; 2]) -> bool {
        parts
            .iter()
            .any(|blocks| self.compress_checked(state, blocks, false).is_some())
    }

    /// `checked::digest_many` without the mitigation, on the lanes the
    /// table names: `finish(index, digest)` makes message `index`'s result
    /// from its digest, or from `None` when it holds an attack block.
    pub(crate) fn digest_many_checked<T>(
        self,
        messages: &[&[u8]],
        out: &mut [T],
        mut finish: impl FnMut(usize, Option<Digest>) -> T,
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            let from_state = |i, state: Option<[u32; 5]>| finish(i, state.map(Digest::from_state));
            match (self, Avx512::detect(), Avx2::detect()) {
                (Engine::ShaNi(_) | Engine::SimdSchedule(..), Some(lanes), _) => {
                    return self.checked_lanes(lanes, messages, out, from_state);
                }
                // Four SHA-NI streams where `sha1msg2` is hardware, or
                // where there are no AVX2 lanes.
                (Engine::ShaNi(token), None, avx2)
                    if avx2.is_none() || cpu::sha_msg2_in_hardware() =>
                {
                    let is_attack = shani_is_attack(token, false);
                    return token.digest_many_checked(messages, out, avx2, is_attack, from_state);
                }
                (Engine::ShaNi(_) | Engine::SimdSchedule(..), None, Some(lanes)) => {
                    return self.checked_lanes(lanes, messages, out, from_state);
                }
                _ => {}
            }
        }
        for (index, (message, slot)) in messages.iter().zip(out).enumerate() {
            *slot = finish(index, self.digest_checked(message));
        }
    }

    /// [`Engine::digest_many_checked`] in the lanes of AVX-512 or AVX2
    /// vectors, with this engine's recompression and its checked
    /// compression for the last few messages.
    #[cfg(target_arch = "x86_64")]
    fn checked_lanes<T>(
        self,
        lanes: impl CheckedLanes,
        messages: &[&[u8]],
        out: &mut [T],
        mut finish: impl FnMut(usize, Option<[u32; 5]>) -> T,
    ) {
        let shani = match self {
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
                    .any(|blocks| self.compress_checked(state, blocks, false).is_some())
            },
            |index, state, attacked| finish(index, (!attacked).then_some(state)),
        );
    }
}

/// The filter of the one-lane SHA-NI checked kernel, as the table says.
#[cfg(target_arch = "x86_64")]
fn shani_filter() -> Filter {
    match (Avx512Vbmi::detect(), Avx2::detect()) {
        (Some(avx512), _) => Filter::Avx512(avx512),
        (None, Some(avx2)) => Filter::Avx2(avx2),
        (None, None) => Filter::Ssse3,
    }
}

/// [`Engine::compress_checked`] on the scalar kernel.
fn scalar_compress_checked(
    state: &mut [u32; 5],
    blocks: &[[u8; 64]],
    reduced_round: bool,
) -> Option<usize> {
    scalar_kernel::compress_checked(state, blocks, |s| {
        s.is_attack(reduced_round, recompress::scalar_groups)
    })
}

/// The recompression on SHA-NI, for the SHA-NI checked kernel: the twins'
/// whole groups on the SHA unit, straight from the kernel's spilled
/// groups.
#[cfg(target_arch = "x86_64")]
fn shani_is_attack(token: ShaNi, reduced_round: bool) -> impl Fn(&Suspect<'_>) -> bool {
    move |s| {
        if reduced_round {
            let groups = |state, w: &_, first, last| token.groups(state, w, first, last);
            let (ihv, w, mid) = (s.ihv(), s.schedule(), s.midstates());
            return recompress::is_attack(&ihv, &s.output, &w, &mid, s.mask, true, groups);
        }
        recompress::any_twin_collides(&s.midstates(), s.test_words(), s.mask, |start| {
            let dm = &crate::checked::dv::MESSAGE_DIFFERENCES[start.dv];
            token.twin_collides(s.groups(), dm, start, &s.output)
        })
    }
}

/// The recompression of a whole [`SuspectBlock`] (the lanes, the
/// SIMD-schedule kernel), on SHA-NI's group stepper when `shani` is there.
#[cfg(target_arch = "x86_64")]
fn suspect_is_attack(shani: Option<ShaNi>, reduced_round: bool) -> impl Fn(&SuspectBlock) -> bool {
    move |s| match shani {
        Some(token) => s.is_attack(reduced_round, |state, w: &_, first, last| {
            token.groups(state, w, first, last)
        }),
        None => s.is_attack(reduced_round, recompress::scalar_groups),
    }
}
