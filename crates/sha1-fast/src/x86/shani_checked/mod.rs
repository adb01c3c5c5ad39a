//! The SHA-NI kernel of [`crate::checked`]: SHA-1 rounds that keep what
//! the collision filter and the recompression read.
//!
//! Per block the kernel spills the whole expanded message (twenty groups
//! of four words, as the rounds use them), the state before the block and
//! ABCD before groups 14, 15 and 16 (the states before steps 60 and 64,
//! where the recompression starts). A batch of blocks runs through the
//! kernel, then one call filters the batch's windows ([`Filter`]), and
//! only a block the filter lets through is recompressed. With AVX2 and
//! one lane, the kernel instead hands each block's window to the
//! per-block filter as it finishes the block, where the filter overlaps
//! the next block's rounds (`docs/sha1-checked.md` has the figures).
//!
//! In one lane the schedule differs from the plain kernel's: words 32–79
//! come from the equivalent recurrence W\[t\] = rotl2(W\[t−6\] ⊕ W\[t−16\]
//! ⊕ W\[t−28\] ⊕ W\[t−32\]) (Locklyukhin, "Improving the performance of
//! the Secure Hash Algorithm (SHA-1)", Intel, 2010) on the vector unit,
//! and only words 16–31 from `sha1msg1`/`sha1msg2`. Sapphire Rapids class cores
//! run `sha1msg2` from microcode, which made the twelve of them that this
//! replaces the kernel's bottleneck (`docs/sha1-checked.md` has the
//! figures). Built with AVX-512VL, the recurrence is a three-way xor
//! (`vpternlogd`) and a rotate (`vprold`): the kernel then uses only
//! 128-bit EVEX forms, which leave the upper vector state clean for the
//! legacy-SSE SHA instructions. In several lanes (four interleaved
//! messages, for `checked::digest_many`) every word comes from the SHA
//! unit, and the older groups are read back from the spill rather than
//! kept in registers: that kernel serves CPUs whose `sha1msg2` is
//! hardware ([`sha_unit_lanes_preferred`]).
//!
//! Soundness: the kernels are `#[target_feature]` functions, reached only
//! through [`ShaNi::compress_checked`] with the token of every feature
//! they enable. Nothing here may touch a 256- or 512-bit register (no
//! array copies or zeroing inside the kernels, where LLVM would use
//! them): with dirty upper halves, the SHA instructions run many times
//! slower.

use crate::checked::{Midstates, dv_mask_from_planes};
use crate::x86::avx2_lanes::Avx2;
use crate::x86::filter_avx512::Avx512Filter;
use crate::x86::filter_sliced::LANES as SLICED_LANES;
use crate::x86::filter_words::Mirror;
use crate::x86::planes::{self, ReversedGroups};
use crate::x86::shani::ShaNi;
use core::arch::x86_64::__m128i;
use core::mem::MaybeUninit;
use kernel::{Parts, spilling_rounds_avx512, spilling_rounds_sse};

mod kernel;

/// Blocks per batch: the kernel's rounds for this many blocks, then one
/// filter call for all of them.
const BATCH: usize = 16;

/// The filter a batch of spills takes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Filter {
    /// Bit-sliced, sixteen blocks a pass, or two for a short batch
    /// ([`crate::x86::filter_sliced`]); the kernel then uses AVX-512VL.
    Avx512(Avx512Filter),
    /// Each block as the kernel finishes it, on its own words
    /// ([`crate::x86::filter_words`]); bit-sliced passes of eight blocks
    /// for several lanes or a batch ([`crate::x86::filter_avx2`]).
    Avx2(Avx2),
    /// The SSSE3 planes and the scalar checks, block by block.
    Ssse3,
}

impl Filter {
    /// The fastest filter this CPU has.
    pub(crate) fn detect() -> Filter {
        match (Avx512Filter::detect(), Avx2::detect()) {
            (Some(avx512), _) => Filter::Avx512(avx512),
            (None, Some(avx2)) => Filter::Avx2(avx2),
            (None, None) => Filter::Ssse3,
        }
    }

    /// Every filter this CPU has, for the tests.
    #[cfg(test)]
    pub(crate) fn all() -> std::vec::Vec<Filter> {
        let mut all = std::vec![Filter::Ssse3];
        all.extend(Avx2::detect().map(Filter::Avx2));
        all.extend(Avx512Filter::detect().map(Filter::Avx512));
        all
    }
}

/// Whether `checked::digest_many` should run four messages at once on the
/// SHA unit ([`ShaNi::compress_checked_lanes`]) rather than eight in the
/// lanes of AVX2 vectors, on a CPU with both and without AVX-512: on AMD
/// cores (Zen 1–3, and Hygon's), where `sha1msg2` is hardware and the
/// SHA-unit lanes were measured the faster on Zen 3. Intel's cores keep
/// the AVX2 lanes: Golden Cove runs `sha1msg2` from microcode. Cached
/// after the first call.
pub(crate) fn sha_unit_lanes_preferred() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not asked yet, 1: no, 2: yes.
    static PREFERRED: AtomicU8 = AtomicU8::new(0);
    match PREFERRED.load(Ordering::Relaxed) {
        0 => {
            // SAFETY: every x86-64 CPU has `cpuid`; leaf 0 is always
            // valid and names the vendor in EBX, EDX, ECX.
            #[allow(unused_unsafe)]
            let leaf = unsafe { core::arch::x86_64::__cpuid(0) };
            let vendor = [leaf.ebx, leaf.edx, leaf.ecx].map(u32::to_le_bytes);
            let preferred = matches!(vendor.as_flattened(), b"AuthenticAMD" | b"HygonGenuine");
            PREFERRED.store(1 + u8::from(preferred), Ordering::Relaxed);
            preferred
        }
        state => state == 2,
    }
}

/// Batches up to this long take the paired AVX-512 filter (two blocks a
/// pass): the sliced one costs the same for one block as for sixteen.
const PAIRED_MAX: usize = 4;

/// A batch's spills, written by a kernel before they are read: room for
/// a batch and a short remainder (the one-shot's tail).
type Slots = [MaybeUninit<Spill>; SLOTS];

/// Slots per lane.
const SLOTS: usize = BATCH + PAIRED_MAX;

/// One block's expanded message as the kernel spills it: group k holds
/// W\[4k..4k+4\], W_{4k} in the top lane.
pub(crate) type Schedule = [__m128i; 20];

/// What the kernel keeps of one block.
#[derive(Clone, Copy)]
pub(crate) struct Spill {
    /// ABCD and E (in its top lane) before the block.
    before: [__m128i; 2],
    /// ABCD before groups 14, 15 and 16.
    mid: [__m128i; 3],
    pub(crate) w: Schedule,
}

/// The four lanes of `v`, lane 0 first.
fn lanes(v: __m128i) -> [u32; 4] {
    // SAFETY: both types are 16 bytes of plain bits.
    unsafe { core::mem::transmute(v) }
}

/// The state whose ABCD is `abcd` (A on top) and whose E is the top lane
/// of `e`.
fn state(abcd: __m128i, e: u32) -> [u32; 5] {
    let [d, c, b, a] = lanes(abcd);
    [a, b, c, d, e]
}

impl Spill {
    /// The filter's window, W\[32..68\].
    pub(crate) fn window(&self) -> &ReversedGroups {
        self.w[8..17].try_into().expect("nine groups")
    }

    /// W\[64\], the one word the filter reads past the window's first
    /// eight groups.
    pub(crate) fn w64(&self) -> u32 {
        lanes(self.w[16])[3]
    }

    /// The chaining value before the block.
    fn ihv(&self) -> [u32; 5] {
        state(self.before[0], lanes(self.before[1])[3])
    }

    /// The expanded message, W\[0\] first.
    fn schedule(&self) -> [u32; 80] {
        let mut w = [0; 80];
        for (words, &group) in w.as_chunks_mut::<4>().0.iter_mut().zip(&self.w) {
            let [a, b, c, d] = lanes(group);
            *words = [d, c, b, a];
        }
        w
    }

    /// A spill of the expanded message `w` (nothing else set), for the
    /// filters' tests.
    #[cfg(test)]
    pub(crate) fn of_schedule(w: &[u32; 80]) -> Spill {
        let group = |k: usize| {
            let lanes: [u32; 4] = core::array::from_fn(|j| w[4 * k + 3 - j]);
            // SAFETY: both types are 16 bytes of plain bits.
            unsafe { core::mem::transmute::<[u32; 4], __m128i>(lanes) }
        };
        let zero = group(0);
        Spill {
            before: [zero; 2],
            mid: [zero; 3],
            w: core::array::from_fn(group),
        }
    }

    /// A spill of the block with expanded message `w` compressed from
    /// `ihv`, with the states the kernel keeps, for the recompression's
    /// tests.
    #[cfg(test)]
    pub(crate) fn of_block(ihv: &[u32; 5], w: &[u32; 80]) -> Spill {
        let abcd = |[a, b, c, d, _]: [u32; 5]| {
            // SAFETY: both types are 16 bytes of plain bits.
            unsafe { core::mem::transmute::<[u32; 4], __m128i>([d, c, b, a]) }
        };
        let at = |group| crate::checked::scalar_groups(*ihv, w, 0, group);
        let e = {
            // SAFETY: as above.
            unsafe { core::mem::transmute::<[u32; 4], __m128i>([0, 0, 0, ihv[4]]) }
        };
        Spill {
            before: [abcd(*ihv), e],
            mid: [abcd(at(14)), abcd(at(15)), abcd(at(16))],
            ..Spill::of_schedule(w)
        }
    }

    /// The states before steps 60 and 64: E before a group is rotl30 of A
    /// before the group before it.
    fn midstates(&self) -> Midstates {
        let a = |k: usize| lanes(self.mid[k])[3].rotate_left(30);
        Midstates {
            at60: state(self.mid[1], a(0)),
            at64: state(self.mid[2], a(1)),
        }
    }
}

/// The SSSE3 planes' filter over a batch (as [`suspects`]).
#[target_feature(enable = "sse2,ssse3")]
fn suspects_ssse3(spills: &[Spill], masks: &mut Masks) -> u32 {
    let mut suspects = 0;
    for (i, (spill, out)) in spills.iter().zip(masks).enumerate() {
        *out = dv_mask_from_planes(&planes::planes(spill.window()));
        suspects |= u32::from(*out != 0) << i;
    }
    suspects
}

/// A block the filter let through, for the recompression: what the
/// kernel kept of it, the state after it and the filter's mask.
pub(crate) struct Suspect<'s> {
    spill: &'s Spill,
    pub(crate) output: [u32; 5],
    pub(crate) mask: u64,
}

impl<'s> Suspect<'s> {
    /// The suspect `spill`, for the recompression's tests.
    #[cfg(test)]
    pub(crate) fn new(spill: &'s Spill, output: [u32; 5], mask: u64) -> Self {
        Suspect {
            spill,
            output,
            mask,
        }
    }

    /// The chaining value before the block.
    pub(crate) fn ihv(&self) -> [u32; 5] {
        self.spill.ihv()
    }

    /// The block's expanded message, W\[0\] first.
    pub(crate) fn schedule(&self) -> [u32; 80] {
        self.spill.schedule()
    }

    /// The spilled groups of the expanded message.
    pub(crate) fn groups(&self) -> &Schedule {
        &self.spill.w
    }

    /// The states of the block's compression before steps 60 and 64.
    pub(crate) fn midstates(&self) -> Midstates {
        self.spill.midstates()
    }

    /// W\[58\], W\[59\] and W\[64\], where the recompression steps on its own.
    pub(crate) fn test_words(&self) -> [u32; 3] {
        let [w59, w58, ..] = lanes(self.spill.w[14]);
        [w58, w59, self.spill.w64()]
    }
}

/// The filter's masks of a batch's blocks.
type Masks = [u64; SLOTS];

impl ShaNi {
    /// [`crate::checked`]'s compression on this backend: compresses
    /// `blocks` into `state`, handing each block the collision filter lets
    /// through to `is_attack`, and stops before the first attack block,
    /// returning its index with `state` the chaining value before it.
    /// With [`Filter::Avx512`] the kernel uses AVX-512VL (see
    /// [`crate::x86::filter_sliced`]), otherwise SSE.
    #[inline]
    pub(crate) fn compress_checked(
        self,
        state: &mut [u32; 5],
        blocks: &[[u8; 64]],
        filter: Filter,
        mut is_attack: impl FnMut(&Suspect<'_>) -> bool,
    ) -> Option<usize> {
        let mut slots = [[const { MaybeUninit::<Spill>::uninit() }; SLOTS]];
        let mut states = [*state];
        for (batch_index, batch) in blocks.chunks(BATCH).enumerate() {
            let mut masks = [0; SLOTS];
            let (spills, found) =
                self.spill_and_filter(filter, &mut states, [batch, &[]], &mut slots, &mut masks);
            if let Some(i) = first_attack(spills, found, &masks, &states[0], &mut is_attack) {
                *state = spills[i].ihv();
                return Some(batch_index * BATCH + i);
            }
        }
        *state = states[0];
        None
    }

    /// [`ShaNi::compress_checked`] over `first` then `second` (a body and
    /// its padded tail), in one filter call when they fit one batch.
    #[inline]
    pub(crate) fn compress_checked_parts(
        self,
        state: &mut [u32; 5],
        [first, second]: [&[[u8; 64]]; 2],
        filter: Filter,
        mut is_attack: impl FnMut(&Suspect<'_>) -> bool,
    ) -> Option<usize> {
        if first.len() + second.len() > SLOTS {
            return self
                .compress_checked(state, first, filter, &mut is_attack)
                .or_else(|| {
                    let at = self.compress_checked(state, second, filter, &mut is_attack);
                    at.map(|i| first.len() + i)
                });
        }
        let mut slots = [[const { MaybeUninit::<Spill>::uninit() }; SLOTS]];
        let mut states = [*state];
        let mut masks = [0; SLOTS];
        let (spills, found) =
            self.spill_and_filter(filter, &mut states, [first, second], &mut slots, &mut masks);
        if let Some(i) = first_attack(spills, found, &masks, &states[0], &mut is_attack) {
            *state = spills[i].ihv();
            return Some(i);
        }
        *state = states[0];
        None
    }

    /// [`ShaNi::compress_checked`] in `N` lanes: the first `count` blocks
    /// of each lane's two parts (a body and its padded tail, read as one;
    /// `count` is the shortest lane's length) into the lane's state, the
    /// lanes' rounds interleaved. With the AVX2 filter the lanes' blocks
    /// share its passes. Returns `count`, and for each lane whether it
    /// holds an attack block (its state then means nothing: the caller
    /// hashes that message again on the single-stream path, which stops
    /// there and mitigates).
    pub(crate) fn compress_checked_lanes<const N: usize>(
        self,
        states: &mut [[u32; 5]; N],
        blocks: [Parts<'_>; N],
        filter: Filter,
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
            let parts = blocks.map(|parts| kernel::window(parts, start, n));
            let spills = self.spill::<N, false>(filter, states, parts, &mut slots, n, |_, _| {});
            let mut masks = [0; 64];
            let mut rest = suspects_of_lanes(&spills, filter, &mut masks);
            while rest != 0 {
                let at = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let (lane, i) = (at / n, at % n);
                if attacked[lane] {
                    continue;
                }
                let suspect = Suspect {
                    spill: &spills[lane][i],
                    output: spills[lane].get(i + 1).map_or(states[lane], Spill::ihv),
                    mask: masks[at],
                };
                attacked[lane] = is_attack(&suspect);
            }
        }
        (count, attacked)
    }

    /// Runs the kernel for `filter` on the blocks of `parts` (at most
    /// [`SLOTS`]) in one lane, and filters them: with AVX2 each block as
    /// the kernel finishes it ([`crate::x86::filter_words`]), otherwise
    /// the batch after the kernel. Returns the spills and which of them
    /// the filter lets through, as bits, with their masks in `masks`.
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
                self.spill::<1, true>(filter, states, [parts], slots, count, |i, mirror| {
                    masks[i] = avx2.dv_mask_of_block(mirror);
                    found |= u32::from(masks[i] != 0) << i;
                });
            return (spills, found);
        }
        let [spills] = self.spill::<1, false>(filter, states, [parts], slots, count, |_, _| {});
        (spills, suspects(spills, filter, masks))
    }

    /// Runs the kernel for `filter` on `count` blocks per lane and
    /// returns each lane's spills. With `MIRROR` (one lane, the SSE
    /// kernel), `after_block` gets each block's index and window
    /// backwards as the kernel finishes it.
    #[inline(always)]
    fn spill<'s, const N: usize, const MIRROR: bool>(
        self,
        filter: Filter,
        states: &mut [[u32; 5]; N],
        blocks: [Parts<'_>; N],
        slots: &'s mut [Slots; N],
        count: usize,
        after_block: impl FnMut(usize, &Mirror),
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
            Filter::Avx512(_) => unsafe {
                spilling_rounds_avx512::<N, MIRROR>(&mut abcd_e, blocks, slots, count, after_block)
            },
            // SAFETY: `self` exists, so `ShaNi::detect` saw every feature
            // this kernel enables.
            Filter::Avx2(_) | Filter::Ssse3 => unsafe {
                spilling_rounds_sse::<N, MIRROR>(&mut abcd_e, blocks, slots, count, after_block)
            },
        }
        for (state, [abcd, e]) in states.iter_mut().zip(abcd_e) {
            *state = self::state(abcd, lanes(e)[3]);
        }
        slots.each_ref().map(|slots| {
            // SAFETY: the kernel wrote the first `count` slots of each
            // lane (`count <= SLOTS`), and `MaybeUninit<Spill>` has
            // `Spill`'s layout.
            unsafe { core::slice::from_raw_parts(slots.as_ptr().cast(), count) }
        })
    }
}

/// The blocks of a batch's `spills` (at most [`SLOTS`]) that the filter
/// lets through, as bits, each one's mask in `masks`: with AVX-512 the
/// sliced filter, and the paired one for a short remainder (the sliced
/// one costs the same for one block as for sixteen). One call filters the
/// whole batch, however many pass.
fn suspects(spills: &[Spill], filter: Filter, masks: &mut Masks) -> u32 {
    let filter = match filter {
        Filter::Avx512(filter) => filter,
        // At most `SLOTS` blocks, so the bits fit.
        Filter::Avx2(avx2) => return avx2.suspects_of_runs(&[spills], masks) as u32,
        // SAFETY: an SSSE3 kernel ran, so `ShaNi::detect` saw SSSE3.
        Filter::Ssse3 => return unsafe { suspects_ssse3(spills, masks) },
    };
    // Whole passes of the sliced filter, and a short remainder in pairs.
    let short = spills.len() % SLICED_LANES;
    let split = spills.len() - if short <= PAIRED_MAX { short } else { 0 };
    let (sliced, rest) = spills.split_at(split);
    let (sliced_masks, rest_masks) = masks.split_at_mut(split);
    let mut found = 0;
    if !sliced.is_empty() {
        found = filter.suspects_sliced(sliced, sliced_masks);
    }
    if !rest.is_empty() {
        found |= filter.suspects(rest, rest_masks) << split;
    }
    found
}

/// [`suspects`] of several lanes' spills at once, as bits and masks in the
/// order of the lanes, then of their blocks: with AVX2 the lanes' blocks
/// share the passes, so lanes with a block or two in a batch do not each
/// pay one.
fn suspects_of_lanes(lanes: &[&[Spill]], filter: Filter, masks: &mut [u64]) -> u64 {
    if let Filter::Avx2(avx2) = filter {
        return avx2.suspects_of_runs(lanes, masks);
    }
    let (mut found, mut start) = (0, 0);
    for spills in lanes {
        let mut lane_masks = [0; SLOTS];
        found |= u64::from(suspects(spills, filter, &mut lane_masks)) << start;
        masks[start..start + spills.len()].copy_from_slice(&lane_masks[..spills.len()]);
        start += spills.len();
    }
    found
}

/// The first attack block among a batch's `spills`, whose last block
/// left `state`: each block the filter let through (the bits of `found`,
/// with their masks in `masks`) goes to `is_attack`.
#[inline(always)]
fn first_attack(
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
        let suspect = Suspect {
            spill: &spills[i],
            output: spills.get(i + 1).map_or(*state, Spill::ihv),
            mask: masks[i],
        };
        if is_attack(&suspect) {
            return Some(i);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Filter, SLOTS, ShaNi, Spill, Suspect};
    use crate::INITIAL_STATE;
    use crate::checked::test_data::{COLLISION_FILES, collision_file, noise};
    use crate::checked::{Midstates, compress_stepwise, dv_mask_reference, expand, scalar_groups};
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

    /// Every filter on batches of every length, whole passes and short
    /// remainders alike, against the reference, on schedules of which
    /// every other one passes a vector.
    #[test]
    fn every_filter_on_every_batch_length() {
        let words: Vec<[u32; 80]> = crate::checked::test_words(SLOTS * 4).collect();
        let spills: Vec<Spill> = words.iter().map(Spill::of_schedule).collect();
        for filter in Filter::all() {
            for len in 1..=SLOTS {
                for start in [0, 1, SLOTS + 3] {
                    let batch = &spills[start..start + len];
                    let mut masks = [u64::MAX; SLOTS];
                    let found = super::suspects(batch, filter, &mut masks);
                    for (i, w) in words[start..start + len].iter().enumerate() {
                        let expected = dv_mask_reference(w);
                        assert_eq!(masks[i], expected, "{filter:?}, block {i} of {len}");
                        assert_eq!(found >> i & 1 == 1, expected != 0);
                    }
                    assert_eq!(found >> len, 0, "{filter:?}, {len}");
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
        for filter in Filter::all() {
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
                let (done, attacked) =
                    token.compress_checked_lanes(&mut states, lanes, filter, is_attack);
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
