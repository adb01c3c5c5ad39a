//! Each engine's checked compression: the filter beside (or before) the
//! compression, and the recompression of the blocks it lets through.

use super::{recompress, ubc};
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
            let avx512 = crate::x86::filter_avx512::Avx512Filter::detect();
            let is_attack = shani_is_attack(token, reduced_round);
            token.compress_checked(state, blocks, avx512, is_attack)
        }
        #[cfg(target_arch = "aarch64")]
        Engine::ArmSha(token) => {
            let groups = |state, w: &_, first, last| token.groups(state, w, first, last);
            token.compress_checked(state, blocks, |ihv, output, block, mask| {
                is_attack_block(ihv, output, block, mask, reduced_round, groups)
            })
        }
        #[cfg(target_arch = "x86_64")]
        Engine::SimdSchedule(token, _) => {
            token.compress_checked(state, blocks, |ihv, output, block, mask| {
                is_attack_block(
                    ihv,
                    output,
                    block,
                    mask,
                    reduced_round,
                    recompress::scalar_groups,
                )
            })
        }
        _ => compress_filtered(engine, state, blocks, reduced_round),
    }
}

/// The recompression's verdict on a block the filter let through, for the
/// kernels that hand over only the chaining values and the block: its
/// expanded message and midstates are recomputed here (rarely: about one
/// block in twenty of random data).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
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

/// [`compress_checked`] for the backends whose kernels do not filter
/// (the scalar core): the portable filter finds the first suspect block,
/// the clean run before it is compressed with the engine, the suspect
/// alone with the recompression test.
fn compress_filtered(
    engine: Engine,
    state: &mut [u32; 5],
    blocks: &[[u8; BLOCK]],
    reduced_round: bool,
) -> Option<usize> {
    let filter = |block: &_| ubc::dv_mask(ubc::window(&recompress::expand(block)));
    let mut rest = blocks;
    while !rest.is_empty() {
        let Some((i, mask)) = rest
            .iter()
            .enumerate()
            .find_map(|(i, block)| Some((i, filter(block))).filter(|&(_, mask)| mask != 0))
        else {
            engine.compress(state, rest);
            return None;
        };
        engine.compress(state, &rest[..i]);
        let ihv = *state;
        engine.compress(state, &rest[i..=i]);
        if is_attack_block(
            &ihv,
            state,
            &rest[i],
            mask,
            reduced_round,
            recompress::scalar_groups,
        ) {
            *state = ihv;
            return Some(blocks.len() - rest.len() + i);
        }
        rest = &rest[i + 1..];
    }
    None
}

/// The recompression on SHA-NI, for [`crate::x86::shani::ShaNi`]'s checked
/// kernels.
#[cfg(target_arch = "x86_64")]
pub(super) fn shani_is_attack(
    token: crate::x86::shani::ShaNi,
    reduced_round: bool,
) -> impl Fn(&crate::x86::shani_checked::Suspect) -> bool {
    move |s| {
        let groups = |state, w: &_, first, last| token.groups(state, w, first, last);
        recompress::is_attack(
            &s.ihv,
            &s.output,
            &s.w,
            &s.mid,
            s.mask,
            reduced_round,
            groups,
        )
    }
}
