//! Tests shared by the checked kernels that filter beside their rounds:
//! each hands `is_attack` exactly the blocks the portable filter lets
//! through, with the reference's states, and stops where it says.

use super::recompress::{Midstates, SuspectBlock, expand, scalar_groups};
use super::ubc::{dv_mask, test_words, window};
use crate::reference::compress_block;
use std::vec::Vec;

/// The recompression callback: chaining value in, output, block, mask.
pub(crate) type IsAttack<'a> = &'a mut dyn FnMut(&[u32; 5], &[u32; 5], &[u8; 64], u64) -> bool;

/// A checked kernel: compresses blocks into a state, calling `is_attack`
/// for each suspect block; the index of the first attack block, if any.
pub(crate) trait Kernel:
    Fn(&mut [u32; 5], &[[u8; 64]], IsAttack<'_>) -> Option<usize>
{
}
impl<F: Fn(&mut [u32; 5], &[[u8; 64]], IsAttack<'_>) -> Option<usize>> Kernel for F {}

/// Pseudo-random blocks: the first sixteen words of the filter tests'
/// expanded messages, which are random in every round.
pub(crate) fn blocks(count: usize) -> Vec<[u8; 64]> {
    test_words(count).map(|w| block_of(&w)).collect()
}

/// The block whose first sixteen words are `w`'s.
fn block_of(w: &[u32]) -> [u8; 64] {
    core::array::from_fn(|i| w[i / 4].to_be_bytes()[i % 4])
}

/// The [`IsAttack`] of a kernel that hands over a [`SuspectBlock`]: its
/// expanded message and midstates must be the block's.
pub(crate) fn of_suspect_block(is_attack: IsAttack<'_>) -> impl FnMut(&SuspectBlock) -> bool {
    move |s| {
        let block = block_of(&s.w);
        assert_eq!(s.w, expand(&block));
        assert_eq!(s.mid, Midstates::stepped(&s.ihv, &s.w, scalar_groups));
        is_attack(&s.ihv, &s.output, &block, s.mask)
    }
}

/// What a kernel must hand `is_attack` for each block the filter lets
/// through: its index, the chaining values around it and the mask.
type Suspect = (usize, [u32; 5], [u32; 5], u64);

/// The suspects of `blocks` from `start`, by the scalar expansion, the
/// portable filter and the reference compression, and the end state.
fn portable_suspects(start: [u32; 5], blocks: &[[u8; 64]]) -> (Vec<Suspect>, [u32; 5]) {
    let mut state = start;
    let mut suspects = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        let output = compress_block(state, block);
        let mask = dv_mask(window(&expand(block)));
        if mask != 0 {
            suspects.push((index, state, output, mask));
        }
        state = output;
    }
    (suspects, state)
}

/// The kernel lets through the blocks the portable filter does, with the
/// same masks and states, and ends in the reference's state.
pub(crate) fn filters_as_the_portable_filter(kernel: impl Kernel) {
    // Not a multiple of eight: a kernel that filtered in batches would end
    // on a short one (here five blocks; `stops_at_the_attack_block`, three).
    let blocks = blocks(3_005);
    let start = [1, 0x8000_0000, 0xDEAD_BEEF, 7, 0xFFFF_FFFF];
    let (expected, end) = portable_suspects(start, &blocks);
    assert!(expected.len() > 60, "random blocks pass now and then");
    let mut seen = Vec::new();
    let mut state = start;
    let stopped = kernel(&mut state, &blocks, &mut |ihv, output, block, mask| {
        let index = blocks
            .iter()
            .position(|b| b == block)
            .expect("a given block");
        seen.push((index, *ihv, *output, mask));
        false
    });
    assert_eq!((stopped, state), (None, end));
    assert_eq!(seen, expected);
}

/// An attack verdict stops the kernel before that block, with the
/// chaining value before it.
pub(crate) fn stops_at_the_attack_block(kernel: impl Kernel) {
    let blocks = blocks(403);
    let (suspects, _) = portable_suspects(crate::INITIAL_STATE, &blocks);
    let (at, ihv, ..) = suspects[suspects.len() / 2];
    let mut state = crate::INITIAL_STATE;
    let stopped = kernel(&mut state, &blocks, &mut |_, _, block, _| {
        *block == blocks[at]
    });
    assert_eq!((stopped, state), (Some(at), ihv));
}
