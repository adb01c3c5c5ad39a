//! The SHA-NI kernel of [`crate::checked`]: SHA-1 rounds that keep what
//! the collision filter and the recompression read.
//!
//! Per block the kernel spills the whole expanded message (twenty groups
//! of four words, as the rounds use them), the state before the block and
//! ABCD before groups 14, 15 and 16 (the states before steps 60 and 64,
//! where the recompression starts). A batch of blocks runs through the
//! kernel, then one call filters the batch's windows (AVX-512 or SSSE3
//! planes), and only a block the filter lets through is recompressed.
//!
//! The schedule differs from the plain kernel's: words 32–79 come from
//! the equivalent recurrence W\[t\] = rotl2(W\[t−6\] ⊕ W\[t−16\] ⊕ W\[t−28\]
//! ⊕ W\[t−32\]) (Locklyukhin, "Improving the performance of the Secure
//! Hash Algorithm (SHA-1)", Intel, 2010) on the vector unit, and only
//! words 16–31 from `sha1msg1`/`sha1msg2`. Sapphire Rapids class cores
//! run `sha1msg2` from microcode, which made the twelve of them that this
//! replaces the kernel's bottleneck (`docs/sha1-checked.md` has the
//! figures). Built with AVX-512VL, the recurrence is a three-way xor
//! (`vpternlogd`) and a rotate (`vprold`): the kernel then uses only
//! 128-bit EVEX forms, which leave the upper vector state clean for the
//! legacy-SSE SHA instructions.
//!
//! Soundness: the kernels are `#[target_feature]` functions, reached only
//! through [`ShaNi::compress_checked`] with the token of every feature
//! they enable. Nothing here may touch a 256- or 512-bit register (no
//! array copies or zeroing inside the kernels, where LLVM would use
//! them): with dirty upper halves, the SHA instructions run many times
//! slower.

use crate::checked::{Midstates, dv_mask_from_planes};
use crate::x86::filter_avx512::Avx512Filter;
use crate::x86::filter_sliced::LANES as SLICED_LANES;
use crate::x86::planes::{self, ReversedGroups};
use crate::x86::shani::ShaNi;
use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_loadu_si128, _mm_or_si128, _mm_set_epi64x,
    _mm_sha1msg1_epu32, _mm_sha1msg2_epu32, _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32,
    _mm_shuffle_epi8, _mm_slli_epi32, _mm_srli_epi32, _mm_xor_si128,
};
use core::mem::MaybeUninit;

/// Blocks per batch: the kernel's rounds for this many blocks, then one
/// filter call for all of them.
const BATCH: usize = 16;

/// Batches up to this long take the per-window AVX-512 filter: the
/// sliced one costs the same for one block as for sixteen.
const PER_WINDOW: usize = 4;

/// A batch's spills, written by a kernel before they are read: room for
/// a batch and a short remainder (the one-shot's tail).
type Slots = [MaybeUninit<Spill>; SLOTS];

/// Slots per lane.
const SLOTS: usize = BATCH + PER_WINDOW;

/// One block's expanded message as the kernel spills it: group k holds
/// W\[4k..4k+4\], W_{4k} in the top lane.
type Schedule = [__m128i; 20];

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

/// Schedule group `$k` (4–7) from the four before it, on the SHA unit.
macro_rules! msg {
    ($w:ident, $k:literal) => {
        $w[$k] = _mm_sha1msg2_epu32(
            _mm_xor_si128(_mm_sha1msg1_epu32($w[$k - 4], $w[$k - 3]), $w[$k - 2]),
            $w[$k - 1],
        )
    };
}

/// Schedule group `$k` (8–19) by the rotl2 recurrence: W\[t−6..t−2\] is the
/// lower half of group k − 2 and the upper half of group k − 1.
macro_rules! rol2 {
    ($w:ident, $k:literal) => {{
        let minus6 = _mm_alignr_epi8::<8>($w[$k - 2], $w[$k - 1]);
        let x = _mm_xor_si128(
            _mm_xor_si128(minus6, $w[$k - 4]),
            _mm_xor_si128($w[$k - 7], $w[$k - 8]),
        );
        $w[$k] = _mm_or_si128(_mm_slli_epi32::<2>(x), _mm_srli_epi32::<30>(x));
    }};
}

/// Group `$k` of the rounds with round function `$f` in every lane, after
/// scheduling what the list names (a group three ahead), keeping ABCD for
/// the midstates where the group is 14–16. The lanes' instructions
/// alternate, so that independent `sha1rnds4` chains overlap.
macro_rules! group {
    ($k:literal, $f:literal, $abcd:ident, $prev:ident, $w:ident, $mid:ident $(, $op:ident $n:literal)?) => {
        for lane in 0..$abcd.len() {
            let w = &mut $w[lane];
            $($op!(w, $n);)?
            if 14 <= $k && $k <= 16 {
                $mid[lane][$k - 14] = $abcd[lane];
            }
            let e = _mm_sha1nexte_epu32($prev[lane], w[$k]);
            $prev[lane] = $abcd[lane];
            $abcd[lane] = _mm_sha1rnds4_epu32::<$f>($abcd[lane], e);
        }
    };
}

/// A kernel: in each of `N` lanes, the first `count` of `blocks[lane]`
/// into `states[lane]`, each block's [`Spill`] into the slot of
/// `spills[lane]` at `at` plus its index. Emitted once per feature set, so each is
/// compiled with its own.
macro_rules! spilling_rounds {
    ($(#[$doc:meta])* $name:ident, $features:literal) => {
        $(#[$doc])*
        #[target_feature(enable = $features)]
        fn $name<const N: usize>(
            abcd_e: &mut [[__m128i; 2]; N],
            blocks: [&[[u8; 64]]; N],
            spills: &mut [Slots; N],
            at: usize,
            count: usize,
        ) {
            let big_endian_words = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F);
            let (mut abcd, mut e) = (abcd_e.map(|[abcd, _]| abcd), abcd_e.map(|[_, e]| e));
            let count = count.min(SLOTS - at.min(SLOTS));
            for i in 0..count {
                let (abcd_in, e_in) = (abcd, e);
                let mut w: [Schedule; N] = [[_mm_set_epi64x(0, 0); 20]; N];
                let mut mid = [[_mm_set_epi64x(0, 0); 3]; N];
                for lane in 0..N {
                    for (q, bytes) in blocks[lane][i].as_chunks::<16>().0.iter().enumerate() {
                        // SAFETY: `bytes` is 16 readable bytes; `loadu`
                        // needs no alignment.
                        let words = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
                        w[lane][q] = _mm_shuffle_epi8(words, big_endian_words);
                    }
                }
                let mut prev = abcd;
                for lane in 0..N {
                    let e = _mm_add_epi32(e[lane], w[lane][0]);
                    abcd[lane] = _mm_sha1rnds4_epu32::<0>(abcd[lane], e);
                }
                group!(1, 0, abcd, prev, w, mid, msg 4);
                group!(2, 0, abcd, prev, w, mid, msg 5);
                group!(3, 0, abcd, prev, w, mid, msg 6);
                group!(4, 0, abcd, prev, w, mid, msg 7);
                group!(5, 1, abcd, prev, w, mid, rol2 8);
                group!(6, 1, abcd, prev, w, mid, rol2 9);
                group!(7, 1, abcd, prev, w, mid, rol2 10);
                group!(8, 1, abcd, prev, w, mid, rol2 11);
                group!(9, 1, abcd, prev, w, mid, rol2 12);
                group!(10, 2, abcd, prev, w, mid, rol2 13);
                group!(11, 2, abcd, prev, w, mid, rol2 14);
                group!(12, 2, abcd, prev, w, mid, rol2 15);
                group!(13, 2, abcd, prev, w, mid, rol2 16);
                group!(14, 2, abcd, prev, w, mid, rol2 17);
                group!(15, 3, abcd, prev, w, mid, rol2 18);
                group!(16, 3, abcd, prev, w, mid, rol2 19);
                group!(17, 3, abcd, prev, w, mid);
                group!(18, 3, abcd, prev, w, mid);
                group!(19, 3, abcd, prev, w, mid);
                for lane in 0..N {
                    // One 16-byte store per register (a whole-struct
                    // write could become a wide copy).
                    let spill = spills[lane][at + i].as_mut_ptr();
                    // SAFETY: `spill` points at a slot of `spills`; these
                    // write its fields without reading them.
                    unsafe {
                        let before = &raw mut (*spill).before;
                        (*before)[0] = abcd_in[lane];
                        (*before)[1] = e_in[lane];
                        let kept = &raw mut (*spill).mid;
                        for (k, v) in mid[lane].into_iter().enumerate() {
                            (*kept)[k] = v;
                        }
                        let words = &raw mut (*spill).w;
                        for (k, v) in w[lane].into_iter().enumerate() {
                            (*words)[k] = v;
                        }
                    }
                    // E after 80 rounds is rotl30 of A before the last four.
                    e[lane] = _mm_sha1nexte_epu32(prev[lane], e_in[lane]);
                    abcd[lane] = _mm_add_epi32(abcd[lane], abcd_in[lane]);
                }
            }
            for lane in 0..N {
                abcd_e[lane] = [abcd[lane], e[lane]];
            }
        }
    };
}

spilling_rounds!(
    /// The kernel on SSE.
    spilling_rounds_sse,
    "sha,sse2,ssse3,sse4.1"
);

spilling_rounds!(
    /// The kernel with AVX-512VL's 128-bit forms (see the module docs).
    spilling_rounds_avx512,
    "sha,sse2,ssse3,sse4.1,avx,avx2,avx512f,avx512vl"
);

/// The SSSE3 planes' filter over a batch: the first window it lets
/// through, with its mask.
#[target_feature(enable = "sse2,ssse3")]
fn first_suspect_ssse3(spills: &[Spill]) -> Option<(usize, u64)> {
    let masks = spills
        .iter()
        .map(|spill| dv_mask_from_planes(&planes::planes(spill.window())));
    masks.enumerate().find(|&(_, mask)| mask != 0)
}

/// A block the filter let through, for the recompression.
pub(crate) struct Suspect {
    pub(crate) ihv: [u32; 5],
    pub(crate) output: [u32; 5],
    pub(crate) w: [u32; 80],
    pub(crate) mid: Midstates,
    pub(crate) mask: u64,
}

impl ShaNi {
    /// [`crate::checked`]'s compression on this backend: compresses
    /// `blocks` into `state`, handing each block the collision filter lets
    /// through to `is_attack`, and stops before the first attack block,
    /// returning its index with `state` the chaining value before it. With
    /// `avx512`, the kernel uses AVX-512VL and the filter AVX-512 (see
    /// [`crate::x86::filter_sliced`]); without, SSE and the SSSE3 planes.
    #[inline]
    pub(crate) fn compress_checked(
        self,
        state: &mut [u32; 5],
        blocks: &[[u8; 64]],
        avx512: Option<Avx512Filter>,
        mut is_attack: impl FnMut(&Suspect) -> bool,
    ) -> Option<usize> {
        let mut slots = [[const { MaybeUninit::<Spill>::uninit() }; SLOTS]];
        let mut states = [*state];
        for (batch_index, batch) in blocks.chunks(BATCH).enumerate() {
            // SAFETY: nothing is read before slot 0.
            let [spills] =
                unsafe { self.spill(avx512, &mut states, [batch], &mut slots, 0, batch.len()) };
            if let Some(i) = first_attack(spills, &states[0], avx512, &mut is_attack) {
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
        avx512: Option<Avx512Filter>,
        mut is_attack: impl FnMut(&Suspect) -> bool,
    ) -> Option<usize> {
        if first.len() + second.len() > SLOTS {
            return self
                .compress_checked(state, first, avx512, &mut is_attack)
                .or_else(|| {
                    let at = self.compress_checked(state, second, avx512, &mut is_attack);
                    at.map(|i| first.len() + i)
                });
        }
        let mut slots = [[const { MaybeUninit::<Spill>::uninit() }; SLOTS]];
        let mut states = [*state];
        // SAFETY: nothing is read before slot 0, and the first call wrote
        // the slots before the second's.
        let [spills] = unsafe {
            self.spill(avx512, &mut states, [first], &mut slots, 0, first.len());
            self.spill(
                avx512,
                &mut states,
                [second],
                &mut slots,
                first.len(),
                second.len(),
            )
        };
        if let Some(i) = first_attack(spills, &states[0], avx512, &mut is_attack) {
            *state = spills[i].ihv();
            return Some(i);
        }
        *state = states[0];
        None
    }

    /// [`ShaNi::compress_checked`] in `N` lanes: the first `count` blocks
    /// of each of `blocks` (the shortest's length) into the lane's state,
    /// the lanes' rounds interleaved. Returns `count`, and for each lane
    /// whether it holds an attack block (its state then means nothing:
    /// the caller hashes that message again on the single-stream path,
    /// which stops there and mitigates).
    pub(crate) fn compress_checked_lanes<const N: usize>(
        self,
        states: &mut [[u32; 5]; N],
        blocks: [&[[u8; 64]]; N],
        avx512: Option<Avx512Filter>,
        mut is_attack: impl FnMut(&Suspect) -> bool,
    ) -> (usize, [bool; N]) {
        let count = blocks.iter().map(|b| b.len()).min().unwrap_or(0);
        let mut slots = [const { [const { MaybeUninit::<Spill>::uninit() }; SLOTS] }; N];
        let mut attacked = [false; N];
        for start in (0..count).step_by(BATCH) {
            let n = (count - start).min(BATCH);
            let batch = blocks.map(|b| &b[start..start + n]);
            // SAFETY: nothing is read before slot 0.
            let spills = unsafe { self.spill(avx512, states, batch, &mut slots, 0, n) };
            for ((spills, state), attacked) in spills.into_iter().zip(&*states).zip(&mut attacked) {
                *attacked =
                    *attacked || first_attack(spills, state, avx512, &mut is_attack).is_some();
            }
        }
        (count, attacked)
    }

    /// Runs the kernel for `avx512` on `count` blocks per lane, spilling
    /// from slot `at` on, and returns each lane's spills from slot 0.
    ///
    /// # Safety
    ///
    /// An earlier call wrote the first `at` slots of each lane.
    #[inline(always)]
    unsafe fn spill<'s, const N: usize>(
        self,
        avx512: Option<Avx512Filter>,
        states: &mut [[u32; 5]; N],
        blocks: [&[[u8; 64]]; N],
        slots: &'s mut [Slots; N],
        at: usize,
        count: usize,
    ) -> [&'s [Spill]; N] {
        assert!(at + count <= SLOTS && blocks.iter().all(|b| b.len() >= count));
        // The states go in and out of registers here, in SSE code: in the
        // AVX-512 kernel, LLVM would move them with wider registers.
        let mut abcd_e = states.map(|[a, b, c, d, e]| {
            let lanes = |w: [u32; 4]| -> __m128i {
                // SAFETY: both types are 16 bytes of plain bits.
                unsafe { core::mem::transmute(w) }
            };
            [lanes([d, c, b, a]), lanes([0, 0, 0, e])]
        });
        match avx512 {
            // SAFETY: `self` and the filter token exist, so their
            // detections saw every feature this kernel enables.
            Some(_) => unsafe { spilling_rounds_avx512(&mut abcd_e, blocks, slots, at, count) },
            // SAFETY: `self` exists, so `ShaNi::detect` saw every feature
            // this kernel enables.
            None => unsafe { spilling_rounds_sse(&mut abcd_e, blocks, slots, at, count) },
        }
        for (state, [abcd, e]) in states.iter_mut().zip(abcd_e) {
            *state = self::state(abcd, lanes(e)[3]);
        }
        slots.each_ref().map(|slots| {
            // SAFETY: the caller's earlier calls wrote the first `at`
            // slots of each lane and the kernel the next `count`, and
            // `MaybeUninit<Spill>` has `Spill`'s layout.
            unsafe { core::slice::from_raw_parts(slots.as_ptr().cast(), at + count) }
        })
    }
}

/// The first suspect: the sliced AVX-512 filter, the per-window one for a
/// short remainder (the sliced one costs the same for one block as for
/// sixteen), the SSSE3 planes without AVX-512.
fn first_suspect(spills: &[Spill], avx512: Option<Avx512Filter>) -> Option<(usize, u64)> {
    let Some(filter) = avx512 else {
        // SAFETY: an SSSE3 kernel ran, so `ShaNi::detect` saw SSSE3.
        return unsafe { first_suspect_ssse3(spills) };
    };
    // Whole passes of the sliced filter, and a short remainder per window.
    let short = spills.len() % SLICED_LANES;
    let split = spills.len() - if short <= PER_WINDOW { short } else { 0 };
    let (sliced, rest) = spills.split_at(split);
    let first = (!sliced.is_empty())
        .then(|| filter.first_suspect_sliced(sliced))
        .flatten();
    first.or_else(|| {
        let (i, mask) = (!rest.is_empty())
            .then(|| filter.first_suspect(rest))
            .flatten()?;
        Some((split + i, mask))
    })
}

/// The first attack block among a batch's `spills`, whose last block
/// left `state`: each block the filter lets through goes to `is_attack`.
#[inline(always)]
fn first_attack(
    spills: &[Spill],
    state: &[u32; 5],
    avx512: Option<Avx512Filter>,
    mut is_attack: impl FnMut(&Suspect) -> bool,
) -> Option<usize> {
    let mut from = 0;
    while let Some((offset, mask)) = first_suspect(&spills[from..], avx512) {
        let i = from + offset;
        let spill = &spills[i];
        let suspect = Suspect {
            ihv: spill.ihv(),
            output: spills.get(i + 1).map_or(*state, Spill::ihv),
            w: spill.schedule(),
            mid: spill.midstates(),
            mask,
        };
        if is_attack(&suspect) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{ShaNi, Suspect};
    use crate::INITIAL_STATE;
    use crate::checked::test_data::{COLLISION_FILES, collision_file, noise};
    use crate::checked::{Midstates, compress_stepwise, dv_mask_reference, expand, scalar_groups};
    use crate::x86::filter_avx512::Avx512Filter;
    use std::vec::Vec;

    /// What a run hands the recompression, checked against the scalar
    /// steps: the block's schedule, the states around it, the midstates
    /// and the filter's mask.
    fn suspects(
        blocks: &[[u8; 64]],
        run: impl FnOnce(&mut dyn FnMut(&Suspect) -> bool),
    ) -> Vec<([u32; 5], u64)> {
        let mut seen = Vec::new();
        run(&mut |s: &Suspect| {
            let block = blocks
                .iter()
                .find(|b| expand(b) == s.w)
                .expect("the schedule of one of the blocks");
            assert_eq!(s.mask, dv_mask_reference(&s.w));
            assert_eq!(s.output, compress_stepwise(&s.ihv, &expand(block)));
            assert_eq!(s.mid, Midstates::stepped(&s.ihv, &s.w, scalar_groups));
            seen.push((s.ihv, s.mask));
            false
        });
        seen
    }

    /// Random blocks and the SHAttered pair: the SSE kernel with the SSSE3
    /// planes and the AVX-512VL kernel with the AVX-512 filters hand over
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
        let avx512 = Avx512Filter::detect();
        let filters = [None].into_iter().chain(avx512.map(Some));
        let mut runs = Vec::new();
        for filter in filters {
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
            let lanes = starts.map(|s| &blocks[s..]);
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
