//! The SHA-NI kernel of [`crate::checked`]: SHA-1 rounds that keep what
//! the collision filter and the recompression read (a [`Spill`] per
//! block), a filter call per batch of blocks ([`Filter`]), and the
//! recompression of the blocks it lets through. With the AVX2 filter and
//! one lane, each block is filtered as the kernel finishes it instead;
//! with the AVX-512 filter, in steps beside the next batch's rounds
//! ([`super::staged`]).
//!
//! In one lane, words 32–79 of the schedule come from the rotl2
//! recurrence on the vector unit, not `sha1msg2` (microcode on Intel
//! cores); built with AVX-512VL, the kernel uses only 128-bit EVEX forms.
//! In four interleaved lanes (`checked::digest_many` on CPUs without
//! AVX-512) every word comes from the SHA unit. `docs/sha1-checked.md`
//! has the design and the figures.
//!
//! Soundness: the kernels are `#[target_feature]` functions reached only
//! through [`ShaNi`]'s methods. Nothing here may touch a 256- or 512-bit
//! register (no array copies or zeroing in the kernels, where LLVM would
//! use them): with dirty upper halves the SHA instructions run many
//! times slower.

use super::spilling::{
    BATCH, PAIRED_MAX, Parts, SLOTS, Slots, spilling_rounds_avx512, spilling_rounds_sse, window,
    written,
};
use crate::arch::x86_64::cpu::{Avx2, Avx512Vbmi, ShaNi};
use crate::arch::x86_64::spill::{Mirror, Spill, Suspect, lanes, state};
use crate::arch::x86_64::ssse3::planes;
use crate::checked::ubc::dv_mask_from_planes;
use crate::pad::Padded;
use core::arch::x86_64::__m128i;
use core::mem::MaybeUninit;

/// Independent messages in flight in [`ShaNi::digest_many_checked`].
const LANES: usize = 4;

/// The filter of the one-lane kernel.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Filter {
    /// Bit-sliced, sixteen blocks a pass, or two for a short batch; the
    /// kernel then uses AVX-512VL.
    Avx512(Avx512Vbmi),
    /// Each block as the kernel finishes it ([`crate::arch::x86_64::avx2::words`]).
    Avx2(Avx2),
    /// The SSSE3 planes and the scalar checks, block by block.
    Ssse3,
}

/// The SSSE3 planes' filter over a batch: which blocks pass, as bits,
/// each one's mask in `masks`.
#[target_feature(enable = "sse2,ssse3")]
fn suspects_ssse3(spills: &[Spill], masks: &mut [u64]) -> u32 {
    let mut suspects = 0;
    for (i, (spill, out)) in spills.iter().zip(masks).enumerate() {
        *out = dv_mask_from_planes(&planes::planes(spill.window()));
        suspects |= u32::from(*out != 0) << i;
    }
    suspects
}

/// The filter's masks of a batch's blocks.
pub(super) type Masks = [u64; SLOTS];

impl ShaNi {
    /// [`crate::checked`]'s compression on this backend: compresses
    /// `blocks` into `state`, handing each block the filter lets through
    /// to `is_attack`, and stops before the first attack block, returning
    /// its index with `state` the chaining value before it.
    #[inline]
    pub(crate) fn compress_checked(
        self,
        state: &mut [u32; 5],
        blocks: &[[u8; 64]],
        filter: Filter,
        mut is_attack: impl FnMut(&Suspect<'_>) -> bool,
    ) -> Option<usize> {
        if let Filter::Avx512(avx512) = filter
            && blocks.len() > PAIRED_MAX
        {
            return self.compress_checked_staged(state, [blocks, &[]], avx512, is_attack);
        }
        for (batch_index, batch) in blocks.chunks(BATCH).enumerate() {
            if let Some(i) = self.compress_batch(state, [batch, &[]], filter, &mut is_attack) {
                return Some(batch_index * BATCH + i);
            }
        }
        None
    }

    /// [`ShaNi::compress_checked`] over `first` then `second` (a body and
    /// its padded tail), in one filter call when they fit one batch.
    /// Inlined into the one-shot, where a call of its own costs a short
    /// message measurably.
    #[inline(always)]
    pub(crate) fn compress_checked_parts(
        self,
        state: &mut [u32; 5],
        [first, second]: [&[[u8; 64]]; 2],
        filter: Filter,
        mut is_attack: impl FnMut(&Suspect<'_>) -> bool,
    ) -> Option<usize> {
        if let Filter::Avx512(avx512) = filter
            && first.len() + second.len() > PAIRED_MAX
        {
            return self.compress_checked_staged(state, [first, second], avx512, is_attack);
        }
        if first.len() + second.len() > SLOTS {
            return self
                .compress_checked(state, first, filter, &mut is_attack)
                .or_else(|| {
                    let at = self.compress_checked(state, second, filter, &mut is_attack);
                    at.map(|i| first.len() + i)
                });
        }
        self.compress_batch(state, [first, second], filter, is_attack)
    }

    /// One batch (at most [`SLOTS`] blocks) of [`ShaNi::compress_checked`].
    #[inline(always)]
    fn compress_batch(
        self,
        state: &mut [u32; 5],
        parts: Parts<'_>,
        filter: Filter,
        is_attack: impl FnMut(&Suspect<'_>) -> bool,
    ) -> Option<usize> {
        let mut slots = [[const { MaybeUninit::<Spill>::uninit() }; SLOTS]];
        let mut states = [*state];
        let mut masks = [0; SLOTS];
        let (spills, found) =
            self.spill_and_filter(filter, &mut states, parts, &mut slots, &mut masks);
        let attack = first_attack(spills, found, &masks, &states[0], is_attack);
        *state = attack.map_or(states[0], |i| spills[i].ihv());
        attack
    }

    /// [`ShaNi::compress_checked`] in `N` interleaved lanes, on SSE,
    /// filtered by the bit-sliced AVX2 filter (the lanes' blocks sharing
    /// its passes) or else the SSSE3 planes: the first `count` blocks of
    /// each lane's two parts (`count` is the shortest lane's length) into
    /// the lane's state. Returns `count`, and for each lane whether it
    /// holds an attack block (its state then means nothing: the caller
    /// hashes that message again on a path that stops there and
    /// mitigates).
    pub(crate) fn compress_checked_lanes<const N: usize>(
        self,
        states: &mut [[u32; 5]; N],
        blocks: [Parts<'_>; N],
        avx2: Option<Avx2>,
        mut is_attack: impl FnMut(&Suspect<'_>) -> bool,
    ) -> (usize, [bool; N]) {
        let count = blocks
            .iter()
            .map(|[a, b]| a.len() + b.len())
            .min()
            .unwrap_or(0);
        const { assert!(N * BATCH <= 64, "a batch's suspects fit a u64") };
        let mut slots = [const { [const { MaybeUninit::<Spill>::uninit() }; SLOTS] }; N];
        let mut attacked = [false; N];
        for start in (0..count).step_by(BATCH) {
            let n = (count - start).min(BATCH);
            let parts = blocks.map(|parts| window(parts, start, n));
            let spills =
                self.spill::<N, false>(Filter::Ssse3, states, parts, &mut slots, n, |_, _, _| {});
            let mut masks = [0; 64];
            let mut rest = suspects_of_lanes(&spills, avx2, &mut masks);
            while rest != 0 {
                let at = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let (lane, i) = (at / n, at % n);
                if attacked[lane] {
                    continue;
                }
                let suspect = Suspect::new(
                    &spills[lane][i],
                    spills[lane].get(i + 1).map_or(states[lane], Spill::ihv),
                    masks[at],
                );
                attacked[lane] = is_attack(&suspect);
            }
        }
        (count, attacked)
    }

    /// `checked::digest_many` on the SHA unit: [`LANES`] messages in
    /// flight on [`ShaNi::compress_checked_lanes`], in lockstep until one
    /// ends; its lane then takes the next message (in
    /// [`lanes::ByLength`](crate::lanes::ByLength) order), and when none
    /// is left the others finish on their own. `finish(index, state)`
    /// makes message `index`'s result from its final state, or from
    /// `None` when it holds an attack block.
    pub(crate) fn digest_many_checked<T>(
        self,
        messages: &[&[u8]],
        out: &mut [T],
        avx2: Option<Avx2>,
        is_attack: impl Fn(&Suspect<'_>) -> bool,
        mut finish: impl FnMut(usize, Option<[u32; 5]>) -> T,
    ) {
        let mut order = crate::lanes::ByLength::new(messages);
        // Filled where they live (see `Padded::fill`).
        let mut tails = [Padded::EMPTY; LANES];
        let mut states = [crate::INITIAL_STATE; LANES];
        let mut load = |tail: &mut Padded, state: &mut [u32; 5]| {
            let index = order.next()?;
            let (body, rest) = messages[index].as_chunks::<64>();
            tail.fill(rest, messages[index].len() as u64);
            *state = crate::INITIAL_STATE;
            Some(InLane {
                index,
                body,
                done: 0,
            })
        };
        let mut lanes: [Option<InLane<'_>>; LANES] = [None; LANES];
        for ((lane, tail), state) in lanes.iter_mut().zip(&mut tails).zip(&mut states) {
            *lane = load(tail, state);
        }
        while lanes.iter().all(Option::is_some) {
            let full = lanes.map(|lane| lane.expect("every lane holds a message"));
            let parts = core::array::from_fn(|i| full[i].rest(&tails[i]));
            let (done, attacked) =
                self.compress_checked_lanes(&mut states, parts, avx2, &is_attack);
            for (i, mut lane) in full.into_iter().enumerate() {
                lane.done += done;
                lanes[i] = if attacked[i] || lane.is_done(&tails[i]) {
                    out[lane.index] = finish(lane.index, (!attacked[i]).then_some(states[i]));
                    load(&mut tails[i], &mut states[i])
                } else {
                    Some(lane)
                };
            }
        }
        let filter = avx2.map_or(Filter::Ssse3, Filter::Avx2);
        for ((lane, tail), state) in lanes.iter().zip(&tails).zip(&mut states) {
            let Some(lane) = *lane else { continue };
            let attacked = self
                .compress_checked_parts(state, lane.rest(tail), filter, &is_attack)
                .is_some();
            out[lane.index] = finish(lane.index, (!attacked).then_some(*state));
        }
    }

    /// Runs the one-lane kernel for `filter` on the blocks of `parts` (at
    /// most [`SLOTS`]) and filters them: with AVX2 each block as the
    /// kernel finishes it, otherwise the batch after the kernel. Returns
    /// the spills and which of them pass, as bits, their masks in `masks`.
    #[inline(always)]
    fn spill_and_filter<'s>(
        self,
        filter: Filter,
        states: &mut [[u32; 5]; 1],
        parts: Parts<'_>,
        slots: &'s mut [Slots; 1],
        masks: &mut Masks,
    ) -> (&'s [Spill], u32) {
        let count = parts[0].len() + parts[1].len();
        if let Filter::Avx2(avx2) = filter {
            let mut found = 0;
            let [spills] =
                self.spill::<1, true>(filter, states, [parts], slots, count, |i, _, mirror| {
                    let mirror = mirror.expect("the kernel keeps a mirror");
                    masks[i] = avx2.dv_mask_of_block(mirror);
                    found |= u32::from(masks[i] != 0) << i;
                });
            return (spills, found);
        }
        let [spills] = self.spill::<1, false>(filter, states, [parts], slots, count, |_, _, _| {});
        (spills, suspects(spills, filter, masks))
    }

    /// Runs the kernel on `count` blocks per lane and returns each lane's
    /// spills: with AVX-512VL in one lane under [`Filter::Avx512`], else
    /// on SSE. In one lane, `after_block` gets the index of a block the
    /// kernel has finished and the spills so far, as the kernels say
    /// ([`super::spilling`]); with `MIRROR` (SSE), after every block, with
    /// its window backwards.
    #[inline(always)]
    pub(super) fn spill<'s, const N: usize, const MIRROR: bool>(
        self,
        filter: Filter,
        states: &mut [[u32; 5]; N],
        blocks: [Parts<'_>; N],
        slots: &'s mut [Slots; N],
        count: usize,
        after_block: impl FnMut(usize, &[Spill], Option<&Mirror>),
    ) -> [&'s [Spill]; N] {
        assert!(count <= SLOTS && blocks.iter().all(|[a, b]| a.len() + b.len() >= count));
        // The states go in and out of registers here, in SSE code: in the
        // AVX-512 kernel, LLVM would move them with wider registers.
        let mut abcd_e = states.map(|[a, b, c, d, e]| {
            let lanes = |w: [u32; 4]| -> __m128i {
                // SAFETY: both types are 16 bytes of plain bits.
                unsafe { core::mem::transmute(w) }
            };
            [lanes([d, c, b, a]), lanes([0, 0, 0, e])]
        });
        match filter {
            // SAFETY: `self` and the filter token exist, so their
            // detections saw every feature this kernel enables.
            Filter::Avx512(_) if N == 1 && !MIRROR => unsafe {
                spilling_rounds_avx512::<N, MIRROR>(&mut abcd_e, blocks, slots, count, after_block)
            },
            // SAFETY: `self` exists, so `ShaNi::detect` saw every feature
            // this kernel enables.
            _ => unsafe {
                spilling_rounds_sse::<N, MIRROR>(&mut abcd_e, blocks, slots, count, after_block)
            },
        }
        for (state, [abcd, e]) in states.iter_mut().zip(abcd_e) {
            *state = self::state(abcd, lanes(e)[3]);
        }
        slots.each_ref().map(|slots| {
            // SAFETY: the kernel wrote the first `count` slots of each
            // lane.
            unsafe { written(slots, count) }
        })
    }
}

/// The filter after the one-lane kernel over a batch's `spills`, as
/// [`suspects_ssse3`]: with AVX-512 (a batch of at most [`PAIRED_MAX`]
/// blocks: longer runs take [`ShaNi::compress_checked_staged`]) the paired
/// form, else the SSSE3 planes.
fn suspects(spills: &[Spill], filter: Filter, masks: &mut [u64]) -> u32 {
    if let Filter::Avx512(filter) = filter {
        return filter.suspects(spills, masks);
    }
    // SAFETY: an SSE kernel ran, so `ShaNi::detect` saw SSSE3.
    unsafe { suspects_ssse3(spills, masks) }
}

/// The filter over several lanes' spills, as bits and masks in the order
/// of the lanes, then of their blocks: bit-sliced AVX2 passes shared by
/// the lanes' blocks, or the SSSE3 planes.
fn suspects_of_lanes(lanes: &[&[Spill]], avx2: Option<Avx2>, masks: &mut [u64]) -> u64 {
    if let Some(avx2) = avx2 {
        return avx2.suspects_of_runs(lanes, masks);
    }
    let (mut found, mut start) = (0, 0);
    for spills in lanes {
        // SAFETY: an SSE kernel ran, so `ShaNi::detect` saw SSSE3.
        let lane = unsafe { suspects_ssse3(spills, &mut masks[start..]) };
        found |= u64::from(lane) << start;
        start += spills.len();
    }
    found
}

/// The first attack block among a batch's `spills`, whose last block
/// left `state`: each block the filter let through (the bits of `found`,
/// with their masks in `masks`) goes to `is_attack`.
#[inline(always)]
pub(super) fn first_attack(
    spills: &[Spill],
    found: u32,
    masks: &Masks,
    state: &[u32; 5],
    mut is_attack: impl FnMut(&Suspect<'_>) -> bool,
) -> Option<usize> {
    let mut rest = found;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let suspect = Suspect::new(
            &spills[i],
            spills.get(i + 1).map_or(*state, Spill::ihv),
            masks[i],
        );
        if is_attack(&suspect) {
            return Some(i);
        }
    }
    None
}

/// One message in a lane of [`ShaNi::digest_many_checked`]: its whole
/// blocks and how many of its blocks (body, then padded tail) are done.
#[derive(Clone, Copy)]
struct InLane<'m> {
    index: usize,
    body: &'m [[u8; 64]],
    done: usize,
}

impl<'m> InLane<'m> {
    /// The blocks not yet compressed: the rest of the body, then the rest
    /// of `tail`, the message's padded end.
    fn rest<'t>(self, tail: &'t Padded) -> Parts<'t>
    where
        'm: 't,
    {
        let tail = tail.blocks();
        let left = self.body.len() + tail.len() - self.done;
        window([self.body, tail], self.done, left)
    }

    /// Whether every block of the message is compressed.
    fn is_done(self, tail: &Padded) -> bool {
        self.rest(tail).iter().all(|blocks| blocks.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::{Avx2, Avx512Vbmi, Filter, SLOTS, ShaNi, Spill, Suspect};
    use crate::INITIAL_STATE;
    use crate::checked::recompress::Midstates;
    use crate::checked::recompress::compress as compress_stepwise;
    use crate::checked::recompress::expand;
    use crate::checked::recompress::scalar_groups;
    use crate::checked::test_data::{COLLISION_FILES, collision_file, noise};
    use crate::checked::ubc::dv_mask_reference;
    use std::vec::Vec;

    /// What a run hands the recompression, checked against the scalar
    /// steps: the block's schedule, the states around it, the midstates
    /// and the filter's mask.
    fn suspects(
        blocks: &[[u8; 64]],
        run: impl FnOnce(&mut dyn FnMut(&Suspect<'_>) -> bool),
    ) -> Vec<([u32; 5], u64)> {
        let mut seen = Vec::new();
        run(&mut |s: &Suspect<'_>| {
            let w = s.schedule();
            let block = blocks
                .iter()
                .find(|b| expand(b) == w)
                .expect("the schedule of one of the blocks");
            assert_eq!(s.mask, dv_mask_reference(&w));
            assert_eq!(s.output, compress_stepwise(&s.ihv(), &expand(block)));
            assert_eq!(
                s.midstates(),
                Midstates::stepped(&s.ihv(), &w, scalar_groups)
            );
            assert_eq!(s.test_words(), [w[58], w[59], w[64]]);
            seen.push((s.ihv(), s.mask));
            false
        });
        seen
    }

    /// Every filter of the one-lane kernel this CPU has.
    pub(crate) fn filters() -> Vec<Filter> {
        let mut all = std::vec![Filter::Ssse3];
        all.extend(Avx2::detect().map(Filter::Avx2));
        all.extend(Avx512Vbmi::detect().map(Filter::Avx512));
        all
    }

    /// The AVX2 filter of the lanes, where `filter` is the AVX2 one.
    fn lanes_filter(filter: Filter) -> Option<Avx2> {
        match filter {
            Filter::Avx2(avx2) => Some(avx2),
            _ => None,
        }
    }

    /// Every batch filter, one lane's (AVX-512, SSSE3) and the lanes' (AVX2,
    /// SSSE3, over two copies of the batch), on batches of every length,
    /// whole passes and short remainders alike, against the reference, on
    /// schedules of which every other one passes a vector.
    #[test]
    fn every_filter_on_every_batch_length() {
        let words: Vec<[u32; 80]> = crate::checked::ubc::test_words(SLOTS * 4).collect();
        let spills: Vec<Spill> = words.iter().map(Spill::of_schedule).collect();
        for filter in filters() {
            for len in 1..=SLOTS {
                for start in [0, 1, SLOTS + 3] {
                    let batch = &spills[start..start + len];
                    let mut runs = Vec::new();
                    if !matches!(filter, Filter::Avx2(_)) {
                        let mut masks = [u64::MAX; 64];
                        let found = super::suspects(batch, filter, &mut masks);
                        runs.push((u64::from(found), masks, 1));
                    }
                    if !matches!(filter, Filter::Avx512(_)) {
                        let mut masks = [u64::MAX; 64];
                        let avx2 = lanes_filter(filter);
                        let found = super::suspects_of_lanes(&[batch, batch], avx2, &mut masks);
                        runs.push((found, masks, 2));
                    }
                    for (found, masks, copies) in runs {
                        for (i, w) in words[start..start + len]
                            .iter()
                            .cycle()
                            .take(copies * len)
                            .enumerate()
                        {
                            let expected = dv_mask_reference(w);
                            assert_eq!(masks[i], expected, "{filter:?}, block {i} of {len}");
                            assert_eq!(found >> i & 1 == 1, expected != 0);
                        }
                        assert_eq!(found >> (copies * len), 0, "{filter:?}, {len}");
                    }
                }
            }
        }
    }

    /// Random blocks and the SHAttered pair: every filter with its kernel
    /// (SSE for the SSSE3 and AVX2 filters, AVX-512VL) hands over
    /// the same suspects (every one checked against the scalar steps) and
    /// end in the same state, in one lane, in four and as body and tail.
    #[test]
    fn every_kernel_and_filter_agree() {
        let Some(token) = ShaNi::detect() else {
            return;
        };
        let mut data = noise(0x0123_4567_89AB_CDEF, 64 * 301);
        for file in &COLLISION_FILES[..2] {
            data.extend(collision_file(file).iter().take(64 * 9));
        }
        let blocks = data.as_chunks::<64>().0;
        let mut expected = INITIAL_STATE;
        crate::reference::compress(&mut expected, blocks);
        let mut runs = Vec::new();
        for filter in filters() {
            let mut state = INITIAL_STATE;
            let seen = suspects(blocks, |is_attack| {
                assert_eq!(
                    token.compress_checked(&mut state, blocks, filter, is_attack),
                    None
                );
            });
            assert_eq!(state, expected);
            runs.push(seen);
            // Four lanes: the same blocks from four offsets.
            let mut states = [INITIAL_STATE; 4];
            let starts = [0, 1, 17, 40];
            let lanes = starts.map(|s| {
                let (body, tail) = blocks[s..].split_at(11);
                [body, tail]
            });
            let seen_lanes = suspects(blocks, |is_attack| {
                let (done, attacked) = token.compress_checked_lanes(
                    &mut states,
                    lanes,
                    lanes_filter(filter),
                    is_attack,
                );
                assert_eq!((done, attacked), (blocks.len() - 40, [false; 4]));
            });
            for (state, start) in states.iter().zip(starts) {
                let mut lane = INITIAL_STATE;
                let end = start + blocks.len() - 40;
                crate::reference::compress(&mut lane, &blocks[start..end]);
                assert_eq!(*state, lane);
            }
            assert!(seen_lanes.len() >= runs[0].len());
            // Body and tail in one batch.
            let mut state = INITIAL_STATE;
            let (body, tail) = blocks[..19].split_at(17);
            suspects(blocks, |is_attack| {
                let parts = [body, tail];
                assert_eq!(
                    token.compress_checked_parts(&mut state, parts, filter, is_attack),
                    None
                );
            });
            let mut short = INITIAL_STATE;
            crate::reference::compress(&mut short, &blocks[..19]);
            assert_eq!(state, short);
        }
        assert!(
            runs[0].len() > 5,
            "the data has suspects: {}",
            runs[0].len()
        );
        assert!(runs.iter().all(|seen| *seen == runs[0]));
    }
}
