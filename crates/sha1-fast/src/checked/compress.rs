//! Each engine's checked compression: the filter beside the compression,
//! and the recompression of the blocks it lets through.

use super::recompress;
use crate::buffer::BLOCK;
use crate::engine::Engine;

/// Compresses `blocks` into `state` up to the first attack block, whose
/// index it returns (with `state` the chaining value before it).
pub(super) fn compress_checked(
    engine: Engine,
    state: &mut [u32; 5],
    blocks: &[[u8; BLOCK]],
    reduced_round: bool,
) -> Option<usize> {
    match engine {
        #[cfg(target_arch = "x86_64")]
        Engine::ShaNi(token) => {
            let filter = crate::x86::shani_checked::Filter::detect();
            let is_attack = shani_is_attack(token, reduced_round);
            token.compress_checked(state, blocks, filter, is_attack)
        }
        #[cfg(target_arch = "aarch64")]
        Engine::ArmSha(token) => {
            let groups = |state, w: &_, first, last| token.groups(state, w, first, last);
            token.compress_checked(state, blocks, |ihv, output, block, mask| {
                is_attack_block(ihv, output, block, mask, reduced_round, groups)
            })
        }
        #[cfg(target_arch = "x86_64")]
        Engine::SimdSchedule(token, avx2) => {
            let is_attack = suspect_is_attack(None, reduced_round);
            token.compress_checked(state, blocks, avx2, is_attack)
        }
        // The Wasm SIMD kernel's rounds are scalar too, and the scalar
        // kernel makes the filter's planes as its rounds go: 1.7 times as
        // fast as a filter pass before the SIMD kernel (docs/wasm.md).
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Engine::Simd128 => compress_checked_scalar(state, blocks, reduced_round),
        Engine::Scalar => compress_checked_scalar(state, blocks, reduced_round),
    }
}

/// [`compress_checked`] on the scalar kernel.
fn compress_checked_scalar(
    state: &mut [u32; 5],
    blocks: &[[u8; BLOCK]],
    reduced_round: bool,
) -> Option<usize> {
    super::scalar_kernel::compress_checked(state, blocks, |s| {
        s.is_attack(reduced_round, recompress::scalar_groups)
    })
}

/// The recompression's verdict on a block the filter let through, for the
/// kernels that hand over only the chaining values and the block: its
/// expanded message and midstates are recomputed here (rarely: about one
/// block in twenty of random data).
#[cfg(target_arch = "aarch64")]
fn is_attack_block(
    ihv: &[u32; 5],
    output: &[u32; 5],
    block: &[u8; BLOCK],
    mask: u64,
    reduced_round: bool,
    groups: impl recompress::Groups + Copy,
) -> bool {
    let w = recompress::expand(block);
    let mid = recompress::Midstates::stepped(ihv, &w, groups);
    recompress::is_attack(ihv, output, &w, &mid, mask, reduced_round, groups)
}

/// The recompression on SHA-NI, for [`crate::x86::shani::ShaNi`]'s checked
/// kernels: the twins' whole groups on the SHA unit, straight from the
/// kernel's spilled groups.
#[cfg(target_arch = "x86_64")]
pub(super) fn shani_is_attack(
    token: crate::x86::shani::ShaNi,
    reduced_round: bool,
) -> impl Fn(&crate::x86::shani_checked::Suspect<'_>) -> bool {
    move |s| {
        if reduced_round {
            let groups = |state, w: &_, first, last| token.groups(state, w, first, last);
            let (ihv, w, mid) = (s.ihv(), s.schedule(), s.midstates());
            return recompress::is_attack(&ihv, &s.output, &w, &mid, s.mask, true, groups);
        }
        recompress::any_twin_collides(&s.midstates(), s.test_words(), s.mask, |start| {
            let dm = &super::dv::MESSAGE_DIFFERENCES[start.dv];
            token.twin_collides(s.groups(), dm, start, &s.output)
        })
    }
}

/// The recompression for the kernels that keep each suspect block's
/// whole expanded message and midstates (the lanes, the SIMD-schedule
/// kernel): with SHA-NI's group stepper when `shani` is there, else the
/// scalar one.
#[cfg(target_arch = "x86_64")]
pub(super) fn suspect_is_attack(
    shani: Option<crate::x86::shani::ShaNi>,
    reduced_round: bool,
) -> impl Fn(&recompress::SuspectBlock) -> bool {
    move |s| match shani {
        Some(token) => s.is_attack(reduced_round, |state, w: &_, first, last| {
            token.groups(state, w, first, last)
        }),
        None => s.is_attack(reduced_round, recompress::scalar_groups),
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::dv::DVS;
    use super::super::recompress::{expand, made_up_attacks};
    use super::super::ubc::ALL_DVS;
    use super::shani_is_attack;
    use crate::x86::shani::ShaNi;
    use crate::x86::shani_checked::{Spill, Suspect};

    /// The SHA-NI recompression flags every vector's made-up attack, in
    /// both modes, and not with any word of the output off by one; a
    /// random block is no attack with every vector left.
    #[test]
    fn sha_ni_flags_made_up_attacks() {
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
        let output = crate::checked::compress_stepwise(&crate::INITIAL_STATE, &w);
        for mode in [&full, &reduced] {
            assert!(!mode(&Suspect::new(&spill, output, ALL_DVS)));
        }
    }
}
