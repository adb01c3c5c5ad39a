//! The kernel that [`super`] runs: SHA-1 rounds on SHA-NI that store, as
//! they go, what the filter and the recompression read (a [`Spill`] per
//! block), in one lane or several interleaved; in one lane, also the
//! filter's window backwards ([`Mirror`]) for a per-block filter.

use crate::arch::x86_64::spill::{MIRROR_GROUPS, Mirror, Schedule, Spill};
use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_loadu_si128, _mm_or_si128, _mm_set_epi64x,
    _mm_sha1msg1_epu32, _mm_sha1msg2_epu32, _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32,
    _mm_shuffle_epi8, _mm_slli_epi32, _mm_srli_epi32, _mm_xor_si128,
};
use core::mem::MaybeUninit;

/// Blocks per batch: the kernel's rounds for this many blocks, then one
/// filter call for all of them.
pub(super) const BATCH: usize = 16;

/// Batches up to this long take the paired AVX-512 filter (two blocks a
/// pass): the sliced one costs the same for one block as for sixteen.
pub(super) const PAIRED_MAX: usize = 4;

/// Without a mirror, the one-lane kernel calls its `after_block` after
/// every this many blocks and after the last: a call saves and restores
/// the kernel's registers, which lengthens the round chain.
pub(super) const BLOCKS_A_CALL: usize = 4;

/// Slots per lane: room for a batch and a short remainder (the
/// one-shot's tail).
pub(super) const SLOTS: usize = BATCH + PAIRED_MAX;

/// A batch's spills, written by a kernel before they are read.
pub(super) type Slots = [MaybeUninit<Spill>; SLOTS];

/// The first `count` of `slots`.
///
/// # Safety
///
/// A kernel run wrote them.
pub(super) unsafe fn written(slots: &Slots, count: usize) -> &[Spill] {
    assert!(count <= SLOTS);
    // SAFETY: the caller's promise, and `MaybeUninit<Spill>` has
    // `Spill`'s layout.
    unsafe { core::slice::from_raw_parts(slots.as_ptr().cast(), count) }
}

/// A block's spill slot, filled as the groups are made; in several lanes
/// the kernel reads older groups back from it (sixteen registers cannot
/// hold four schedules). With `MIRROR`, the window goes to the mirror too.
#[derive(Clone, Copy)]
struct SlotWriter<const MIRROR: bool> {
    spill: *mut Spill,
    mirror: *mut Mirror,
}

impl<const MIRROR: bool> SlotWriter<MIRROR> {
    /// Group `k` of the schedule, from the slot.
    #[inline(always)]
    fn group(self, k: usize) -> __m128i {
        // SAFETY: `self.spill` points at a slot of the kernel's `spills`,
        // and group `k` (< 20) was stored before it is read. Volatile, so
        // that LLVM reloads it rather than keeping a copy elsewhere.
        unsafe {
            (&raw const (*self.spill).w)
                .cast::<__m128i>()
                .add(k)
                .read_volatile()
        }
    }

    /// Stores group `k` of the schedule.
    #[inline(always)]
    fn set_group(self, k: usize, words: __m128i) {
        // SAFETY: as in `group`: group `k` of the slot's schedule.
        unsafe { store((&raw mut (*self.spill).w).cast(), k, words) }
        if MIRROR && MIRROR_GROUPS.contains(&k) {
            // SAFETY: with `MIRROR`, `self.mirror` points at the kernel's
            // mirror, and the index is below its length.
            unsafe { store(self.mirror.cast(), MIRROR_GROUPS.end - 1 - k, words) }
        }
    }

    /// Stores ABCD before group 14 + `k` (`k` < 3).
    #[inline(always)]
    fn set_mid(self, k: usize, abcd: __m128i) {
        // SAFETY: as in `group`: vector `k` of the slot's three.
        unsafe { store((&raw mut (*self.spill).mid).cast(), k, abcd) }
    }

    /// Stores the state before the block.
    #[inline(always)]
    fn set_before(self, abcd: __m128i, e: __m128i) {
        // SAFETY: as in `group`: the slot's two vectors.
        unsafe {
            let before = (&raw mut (*self.spill).before).cast();
            store(before, 0, abcd);
            store(before, 1, e);
        }
    }
}

/// Stores `words` as vector `k` from `first`, without reading it. One
/// volatile 16-byte store per register: plain ones LLVM merges into `zmm`
/// copies, which would leave the upper halves dirty for the next SHA
/// instructions (`cargo xtask asm-check`).
///
/// # Safety
///
/// `first.add(k)` is valid for a 16-byte aligned write.
#[inline(always)]
unsafe fn store(first: *mut __m128i, k: usize, words: __m128i) {
    // SAFETY: the caller's promise.
    unsafe { first.add(k).write_volatile(words) }
}

/// Group `$k` of the schedule as an input: from registers in one lane,
/// where the schedule's chain is on the critical path; from the slot in
/// several.
macro_rules! older {
    ($w:ident, $slot:ident, $lanes:expr, $k:expr) => {
        if $lanes == 1 { $w[$k] } else { $slot.group($k) }
    };
}

/// Schedule group `$k` from the four before it, on the SHA unit.
macro_rules! msg {
    ($w:ident, $slot:ident, $lanes:expr, $k:literal) => {{
        let a = older!($w, $slot, $lanes, $k - 4);
        let b = older!($w, $slot, $lanes, $k - 3);
        let c = older!($w, $slot, $lanes, $k - 2);
        $w[$k] = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(a, b), c), $w[$k - 1]);
        $slot.set_group($k, $w[$k]);
    }};
}

/// Schedule group `$k` (8–19): in one lane by the rotl2 recurrence
/// (W\[t−6..t−2\] straddles groups k − 2 and k − 1), in several on the
/// SHA unit (`docs/sha1-checked.md`).
macro_rules! expand {
    ($w:ident, $slot:ident, $lanes:expr, $k:literal) => {{
        if $lanes == 1 {
            let minus6 = _mm_alignr_epi8::<8>($w[$k - 2], $w[$k - 1]);
            let x = _mm_xor_si128(
                _mm_xor_si128(minus6, $w[$k - 4]),
                _mm_xor_si128($w[$k - 7], $w[$k - 8]),
            );
            $w[$k] = _mm_or_si128(_mm_slli_epi32::<2>(x), _mm_srli_epi32::<30>(x));
            $slot.set_group($k, $w[$k]);
        } else {
            msg!($w, $slot, $lanes, $k);
        }
    }};
}

/// Group `$k` of the rounds with round function `$f` in every lane, after
/// scheduling what the list names (a group three ahead), keeping ABCD for
/// the midstates where the group is 14–16. The lanes' instructions
/// alternate, so that independent `sha1rnds4` chains overlap.
macro_rules! group {
    ($k:literal, $f:literal, $abcd:ident, $prev:ident, $w:ident, $slots:ident $(, $op:ident $n:literal)?) => {
        for lane in 0..$abcd.len() {
            let w = &mut $w[lane];
            let slot = $slots[lane];
            $($op!(w, slot, $abcd.len(), $n);)?
            if 14 <= $k && $k <= 16 {
                slot.set_mid($k - 14, $abcd[lane]);
            }
            let e = _mm_sha1nexte_epu32($prev[lane], older!(w, slot, $abcd.len(), $k));
            $prev[lane] = $abcd[lane];
            $abcd[lane] = _mm_sha1rnds4_epu32::<$f>($abcd[lane], e);
        }
    };
}

/// A run of blocks in two parts (a body and its padded tail), read as one.
pub(super) type Parts<'b> = [&'b [[u8; 64]]; 2];

/// Blocks `start..start + n` of `parts`, in two parts again.
pub(super) fn window<'b>([first, second]: Parts<'b>, start: usize, n: usize) -> Parts<'b> {
    let end = start + n;
    let split = first.len();
    [
        &first[start.min(split)..end.min(split)],
        &second[start.saturating_sub(split)..end.saturating_sub(split)],
    ]
}

/// Block `i` of `parts`.
#[inline(always)]
fn nth_block<'b>([first, second]: Parts<'b>, i: usize) -> &'b [u8; 64] {
    match first.get(i) {
        Some(block) => block,
        None => &second[i - first.len()],
    }
}

/// A kernel, once per feature set: in each of `N` lanes, `count` blocks
/// into the lane's state, each block's [`Spill`] into its slot. In one
/// lane, `after_block` gets the index of a block it has finished and the
/// spills so far: with `MIRROR` after every block, with its mirror, else
/// after every [`BLOCKS_A_CALL`] blocks and the last.
macro_rules! spilling_rounds {
    ($(#[$doc:meta])* $name:ident, $features:literal) => {
        $(#[$doc])*
        #[target_feature(enable = $features)]
        pub(super) fn $name<const N: usize, const MIRROR: bool>(
            abcd_e: &mut [[__m128i; 2]; N],
            blocks: [Parts<'_>; N],
            spills: &mut [Slots; N],
            count: usize,
            mut after_block: impl FnMut(usize, &[Spill], Option<&Mirror>),
        ) {
            const { assert!(N == 1 || !MIRROR, "one lane has a mirror") };
            let mut mirror = MaybeUninit::<Mirror>::uninit();
            let big_endian_words = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F);
            let (mut abcd, mut e) = (abcd_e.map(|[abcd, _]| abcd), abcd_e.map(|[_, e]| e));
            let count = count.min(SLOTS);
            for i in 0..count {
                let (abcd_in, e_in) = (abcd, e);
                // A loop, not `array::from_fn`: LLVM left that call out of
                // line.
                let mut slots = [SlotWriter::<MIRROR> {
                    spill: core::ptr::null_mut(),
                    mirror: mirror.as_mut_ptr(),
                }; N];
                for (slot, spills) in slots.iter_mut().zip(spills.iter_mut()) {
                    slot.spill = spills[i].as_mut_ptr();
                }
                let mut w: [Schedule; N] = [[_mm_set_epi64x(0, 0); 20]; N];
                for lane in 0..N {
                    let block = nth_block(blocks[lane], i);
                    for (q, bytes) in block.as_chunks::<16>().0.iter().enumerate() {
                        // SAFETY: `bytes` is 16 readable bytes; `loadu`
                        // needs no alignment.
                        let words = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
                        w[lane][q] = _mm_shuffle_epi8(words, big_endian_words);
                        slots[lane].set_group(q, w[lane][q]);
                    }
                    slots[lane].set_before(abcd_in[lane], e_in[lane]);
                }
                let mut prev = abcd;
                for lane in 0..N {
                    let e = _mm_add_epi32(e[lane], w[lane][0]);
                    abcd[lane] = _mm_sha1rnds4_epu32::<0>(abcd[lane], e);
                }
                group!(1, 0, abcd, prev, w, slots, msg 4);
                group!(2, 0, abcd, prev, w, slots, msg 5);
                group!(3, 0, abcd, prev, w, slots, msg 6);
                group!(4, 0, abcd, prev, w, slots, msg 7);
                group!(5, 1, abcd, prev, w, slots, expand 8);
                group!(6, 1, abcd, prev, w, slots, expand 9);
                group!(7, 1, abcd, prev, w, slots, expand 10);
                group!(8, 1, abcd, prev, w, slots, expand 11);
                group!(9, 1, abcd, prev, w, slots, expand 12);
                group!(10, 2, abcd, prev, w, slots, expand 13);
                group!(11, 2, abcd, prev, w, slots, expand 14);
                group!(12, 2, abcd, prev, w, slots, expand 15);
                group!(13, 2, abcd, prev, w, slots, expand 16);
                group!(14, 2, abcd, prev, w, slots, expand 17);
                group!(15, 3, abcd, prev, w, slots, expand 18);
                group!(16, 3, abcd, prev, w, slots, expand 19);
                group!(17, 3, abcd, prev, w, slots);
                group!(18, 3, abcd, prev, w, slots);
                group!(19, 3, abcd, prev, w, slots);
                for lane in 0..N {
                    // E after 80 rounds is rotl30 of A before the last four.
                    e[lane] = _mm_sha1nexte_epu32(prev[lane], e_in[lane]);
                    abcd[lane] = _mm_add_epi32(abcd[lane], abcd_in[lane]);
                }
                if N == 1 && (MIRROR || (i + 1) % BLOCKS_A_CALL == 0 || i + 1 == count) {
                    // SAFETY: the blocks so far stored every part of their
                    // slots, and with `MIRROR` every group of the mirror.
                    let (spills, mirror) = unsafe {
                        let mirror = MIRROR.then(|| mirror.assume_init_ref());
                        (written(&spills[0], i + 1), mirror)
                    };
                    after_block(i, spills, mirror);
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
