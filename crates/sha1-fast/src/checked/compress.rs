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
            let is_attack = suspect_is_attack(Some(token), reduced_round);
            token.compress_checked(state, blocks, avx512, is_attack)
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
        #[cfg(target_arch = "x86_64")]
        Engine::SimdSchedule(token, _) => {
            let filter = |block: &_| token.dv_mask(block);
            compress_filtered(engine, state, blocks, reduced_round, filter)
        }
        _ => {
            let filter = |block: &_| ubc::dv_mask(ubc::window(&recompress::expand(block)));
            compress_filtered(engine, state, blocks, reduced_round, filter)
        }
    }
}

/// [`compress_checked`] for the backends whose kernels do not filter:
/// `filter` (a [`ubc::dv_mask`]) finds the first suspect block, the clean
/// run before it is compressed with the engine, the suspect alone with
/// the recompression test.
#[inline(always)]
fn compress_filtered(
    engine: Engine,
    state: &mut [u32; 5],
    blocks: &[[u8; BLOCK]],
    reduced_round: bool,
    filter: impl Fn(&[u8; BLOCK]) -> u64,
) -> Option<usize> {
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
        let w = recompress::expand(&rest[i]);
        if recompress::is_attack(
            &ihv,
            state,
            &w,
            &recompress::Midstates::stepped(&ihv, &w, recompress::scalar_groups),
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

/// The recompression for the x86-64 kernels that hand over a
/// [`Suspect`](crate::x86::shani_checked::Suspect): with SHA-NI's group
/// stepper when `shani` is there, else the scalar one.
#[cfg(target_arch = "x86_64")]
pub(super) fn suspect_is_attack(
    shani: Option<crate::x86::shani::ShaNi>,
    reduced_round: bool,
) -> impl Fn(&crate::x86::shani_checked::Suspect) -> bool {
    move |s| {
        let groups = |state, w: &_, first, last| match shani {
            Some(token) => token.groups(state, w, first, last),
            None => recompress::scalar_groups(state, w, first, last),
        };
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
