//! The one-lane checked kernel with the bit-sliced AVX-512 filter in
//! stages. After every fourth block of a batch the kernel calls the
//! filter once ([`Avx512Vbmi::stage`]): it makes those four blocks' rows
//! and runs one of the four steps of the batch before's pass. Each call is
//! short and reads stores that have long retired, so the out-of-order
//! core runs it beside the `sha1rnds4` chain in flight; a whole pass in
//! one call is longer than the core's window and holds up the rounds
//! behind it. Only the last batch's pass runs after the rounds, and a
//! message of up to [`PAIRED_MAX`] blocks takes the paired filter
//! instead.

use super::checked::{Filter, Masks, first_attack};
use super::spilling::{BATCH, BLOCKS_A_CALL, PAIRED_MAX, Parts, SLOTS, Slots, window, written};
use crate::arch::x86_64::avx512::sliced::{LANES, Pass, STEPS};
use crate::arch::x86_64::cpu::{Avx512Vbmi, ShaNi};
use crate::arch::x86_64::spill::{Spill, Suspect};
use core::mem::MaybeUninit;

const _: () = assert!(BATCH == STEPS * BLOCKS_A_CALL, "a step per call");

/// A batch's spill slots and its pass.
struct Buffer {
    slots: Slots,
    pass: Pass,
}

impl Buffer {
    /// A buffer made in `place`, as [`Pass::new_in`].
    fn new_in(place: &mut MaybeUninit<Buffer>) -> &mut Buffer {
        let buffer = place.as_mut_ptr();
        // SAFETY: `buffer` is valid for writes, and so is its `pass`,
        // which `MaybeUninit<Pass>` has the layout of; the slots are
        // `MaybeUninit`, so the pass makes the whole value.
        unsafe {
            Pass::new_in(&mut *(&raw mut (*buffer).pass).cast());
            place.assume_init_mut()
        }
    }
}

/// The call of the filter after block `spills.len()` − 1 of a batch:
/// the rows of the blocks since the last call into `pass`, and the next
/// step of `before`'s pass.
fn stage(
    filter: Avx512Vbmi,
    pass: &mut Pass,
    spills: &[Spill],
    before: Option<(&mut Pass, &mut Masks)>,
) -> Option<u32> {
    let first = (spills.len() - 1) / BLOCKS_A_CALL * BLOCKS_A_CALL;
    let before = before.map(|(pass, masks)| (pass, &mut masks[..]));
    filter.stage(pass, first, &spills[first..], before)
}

impl ShaNi {
    /// [`ShaNi::compress_checked_parts`] with the bit-sliced AVX-512
    /// filter in stages, for more than [`PAIRED_MAX`] blocks: every block
    /// of `parts` into `state`, each block the filter lets through handed
    /// to `is_attack`; stops before the first attack block, returning its
    /// index with `state` the chaining value before it.
    ///
    /// Out of line: its two batches' buffers would otherwise make the
    /// one-shot's stack frame, and so every short message's call, larger.
    #[inline(never)]
    pub(super) fn compress_checked_staged(
        self,
        state: &mut [u32; 5],
        parts: Parts<'_>,
        filter: Avx512Vbmi,
        mut is_attack: impl FnMut(&Suspect<'_>) -> bool,
    ) -> Option<usize> {
        let total = parts[0].len() + parts[1].len();
        assert!(total > PAIRED_MAX);
        // The batch the kernel runs and the one before it.
        let (mut even, mut odd) = (MaybeUninit::uninit(), MaybeUninit::uninit());
        let (even, odd) = (Buffer::new_in(&mut even), Buffer::new_in(&mut odd));
        // Whether the batch before waits for its pass.
        let mut pending = false;
        let mut start = 0;
        loop {
            // The last batch takes up to `SLOTS` blocks, so that a short
            // tail does not make a pass of its own; it has more than
            // `PAIRED_MAX`.
            let n = if total - start <= SLOTS {
                total - start
            } else {
                BATCH
            };
            let (now, before) = match start / BATCH % 2 {
                0 => (&mut *even, &mut *odd),
                _ => (&mut *odd, &mut *even),
            };
            let mut states = [*state];
            let mut masks: Masks = [0; SLOTS];
            let mut found = None;
            let after_block = |i: usize, spills: &[Spill], _: Option<&_>| {
                if i < LANES {
                    let before = pending.then_some((&mut before.pass, &mut masks));
                    found = found.or(stage(filter, &mut now.pass, spills, before));
                }
            };
            let [spills] = self.spill::<1, false>(
                Filter::Avx512(filter),
                &mut states,
                [window(parts, start, n)],
                core::array::from_mut(&mut now.slots),
                n,
                after_block,
            );
            if pending {
                // SAFETY: the kernel wrote a whole batch of slots there
                // when it ran the batch before.
                let before_spills = unsafe { written(&before.slots, BATCH) };
                let found = found.unwrap_or_else(|| filter.finish(&mut before.pass, &mut masks));
                let after = spills[0].ihv();
                let attack = first_attack(before_spills, found, &masks, &after, &mut is_attack);
                if let Some(i) = attack {
                    *state = before_spills[i].ihv();
                    return Some(start - BATCH + i);
                }
            }
            if start + n == total {
                let mut found = filter.finish(&mut now.pass, &mut masks);
                if let Some(rest) = spills.get(LANES..).filter(|rest| !rest.is_empty()) {
                    found |= filter.suspects(rest, &mut masks[LANES..]) << LANES;
                }
                let attack = first_attack(spills, found, &masks, &states[0], &mut is_attack);
                *state = attack.map_or(states[0], |i| spills[i].ihv());
                return attack.map(|i| start + i);
            }
            *state = states[0];
            pending = true;
            start += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::INITIAL_STATE;
    use crate::arch::x86_64::cpu::{Avx512Vbmi, ShaNi};
    use crate::arch::x86_64::shani::checked::Filter;
    use crate::checked::test_data::{COLLISION_FILES, collision_file, noise};
    use crate::checked::ubc::dv_mask_reference;
    use std::vec::Vec;

    /// The suspects a run saw (their chaining values and masks), what it
    /// returned and the state it left.
    type Run = (Vec<([u32; 5], u64)>, Option<usize>, [u32; 5]);

    /// Runs the kernel with `filter` over `parts`, calling the `attack`th
    /// suspect (if any) an attack.
    fn run(token: ShaNi, filter: Filter, parts: [&[[u8; 64]]; 2], attack: usize) -> Run {
        let mut seen = Vec::new();
        let mut state = INITIAL_STATE;
        let at = token.compress_checked_parts(&mut state, parts, filter, |s| {
            assert_eq!(s.mask, dv_mask_reference(&s.schedule()));
            seen.push((s.ihv(), s.mask));
            seen.len() == attack.saturating_add(1)
        });
        (seen, at, state)
    }

    /// Every length up to three batches and a tail, as a body and a tail
    /// of one or two blocks, with the SHAttered attack blocks at every
    /// offset a batch can put them: the staged kernel sees the suspects,
    /// stops where it is told and leaves the state the SSSE3 planes'
    /// kernel does; and without an attack the reference compression's.
    #[test]
    fn equals_the_ssse3_kernel_on_every_length() {
        let (Some(token), Some(avx512)) = (ShaNi::detect(), Avx512Vbmi::detect()) else {
            return;
        };
        let file = collision_file(COLLISION_FILES[0]);
        // The first blocks of the file hold its attack (blocks 3 and 4).
        let attack = &file.as_chunks::<64>().0[..6];
        let noise = noise(0x5EED, 64 * 60);
        let noise = noise.as_chunks::<64>().0;
        let mut stopped = 0;
        for len in 1..=3 * 16 + 6 {
            for offset in [0, 5, 12, 14, 15, 16, 30] {
                let mut blocks = noise[..len].to_vec();
                if offset + attack.len() <= len {
                    blocks[offset..offset + attack.len()].copy_from_slice(attack);
                }
                for tail in [1, 2] {
                    let (body, tail) = blocks.split_at(len.saturating_sub(tail));
                    for stop in [0, 1, usize::MAX] {
                        let ssse3 = run(token, Filter::Ssse3, [body, tail], stop);
                        let staged = run(token, Filter::Avx512(avx512), [body, tail], stop);
                        assert_eq!(staged, ssse3, "{len} blocks, {offset}, {stop}");
                        stopped += usize::from(staged.1.is_some());
                        if stop == usize::MAX {
                            let mut state = INITIAL_STATE;
                            crate::reference::compress(&mut state, &blocks);
                            assert_eq!((staged.1, staged.2), (None, state));
                        }
                    }
                }
            }
        }
        assert!(stopped > 500, "attacks at many offsets: {stopped}");
    }
}
