//! What the collision-checking lane kernels (`avx512_lanes`, sixteen
//! lanes; `avx2_lanes`, eight) share: what a step keeps for the filter
//! and the recompression ([`Kept`]), the bit transpose of each lane's
//! W\[33..=64\] into the bit-sliced filter's planes ([`planes_by_swaps!`]),
//! and the hand-off of the lanes the filter lets through ([`suspects`]).

use crate::checked::recompress::Midstates;
use crate::checked::recompress::SuspectBlock;
use crate::checked::sliced::to_mask;
use core::arch::x86_64::{__m256i, __m512i};

/// A vector of [`LaneVector::LANES`] 32-bit lanes.
///
/// # Safety
///
/// Implementors are plain bits, `4 * LANES` bytes with an alignment that
/// `u32`'s divides: every bit pattern is a valid value, and a value may
/// be read as `[u32; LANES]`.
pub(crate) unsafe trait LaneVector: Copy {
    /// 32-bit lanes in the vector.
    const LANES: usize;
}

// SAFETY: 32 bytes of plain bits, 32-byte aligned.
unsafe impl LaneVector for __m256i {
    const LANES: usize = 8;
}

// SAFETY: 64 bytes of plain bits, 64-byte aligned.
unsafe impl LaneVector for __m512i {
    const LANES: usize = 16;
}

/// A lane kernel with the collision filter (`avx512/lanes.rs`,
/// `avx2/lanes.rs`).
pub(crate) trait CheckedLanes: Copy {
    /// The messages through [`crate::lanes::run_flagging`] on the
    /// kernel's lanes: a message is flagged when `is_attack` says one of
    /// its blocks is an attack block (or when `compress`, which hashes the
    /// last few messages alone, says so); `finish` makes each result.
    fn digest_many_checked<T>(
        self,
        messages: &[&[u8]],
        out: &mut [T],
        is_attack: impl Fn(&SuspectBlock) -> bool,
        compress: impl FnMut(&mut [u32; 5], &[&[[u8; 64]]]) -> bool,
        finish: impl FnMut(usize, [u32; 5], bool) -> T,
    );
}

/// What a step keeps for the filter and the recompression, lane `l` of
/// each vector belonging to block `l`.
pub(crate) struct Kept<V> {
    /// W\[0..80\].
    pub(crate) w: [V; 80],
    /// The states before steps 60 and 64.
    pub(crate) at60: [V; 5],
    pub(crate) at64: [V; 5],
}

impl<V: LaneVector> Kept<V> {
    pub(crate) fn zeroed() -> Kept<V> {
        // SAFETY: `Kept` holds only `LaneVector`s, for which every bit
        // pattern is valid, zeros too.
        unsafe { core::mem::zeroed() }
    }
}

/// Lane `lane` of each of `vectors`, read from memory.
fn column<V: LaneVector, const N: usize>(vectors: &[V; N], lane: usize) -> [u32; N] {
    assert!(lane < V::LANES);
    let words = vectors.as_ptr().cast::<u32>();
    // SAFETY: a `LaneVector` may be read as `V::LANES` `u32`s, so `N` of
    // them are `N * V::LANES` readable, aligned `u32`s; `lane < LANES`.
    core::array::from_fn(|t| unsafe { words.add(t * V::LANES + lane).read() })
}

/// The lanes in `passed` whose block `is_attack` finds to be an attack
/// block; `masks` has the filter's sliced mask of each lane, `ihv` and
/// `output` the states before and after the step. Rare, so out of line.
#[cold]
#[inline(never)]
pub(crate) fn suspects<V: LaneVector, const LANES: usize>(
    passed: u32,
    masks: &[u32; LANES],
    ihv: &[[u32; 5]; LANES],
    output: &[[u32; 5]; LANES],
    kept: &Kept<V>,
    is_attack: &impl Fn(&SuspectBlock) -> bool,
) -> u32 {
    const { assert!(LANES <= 32) };
    let mut attacked = 0;
    let mut rest = passed;
    while rest != 0 {
        let lane = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let suspect = SuspectBlock {
            ihv: ihv[lane],
            output: output[lane],
            w: column(&kept.w, lane),
            mid: Midstates {
                at60: column(&kept.at60, lane),
                at64: column(&kept.at64, lane),
            },
            mask: to_mask(masks[lane]),
        };
        if is_attack(&suspect) {
            attacked |= 1 << lane;
        }
    }
    attacked
}

/// The bit-sliced filter's eleven planes of each lane from `$window`, its
/// W\[33..=64\] (`[V; 32]`): plane p, bit t − 33, is bit
/// `PLANE_BITS[p]` of W\[t\], row t − 33 of a 32×32 bit matrix per lane,
/// transposed by five stages of row swaps. `$swap!(D, low, a, b)` swaps
/// the bits of rows `a` and `b = r + D` across columns `D` apart: it gives
/// `(low ? a : b << D, low ? a >> D : b)`, `low` holding the columns with
/// bit `D` clear.
///
/// The stages commute: 1, 2 and 4 run on eight rows at a time, in
/// registers, and 8 and 16 last, where LLVM drops what no plane reads.
macro_rules! planes_by_swaps {
    ($window:expr, $swap:ident) => {{
        use $crate::arch::x86_64::lanes_checked::swap_rows;
        let mut x = $window;
        $crate::checked::ubc::unrolled!(|G| {
            swap_rows!(x, $swap, 1, 0x5555_5555, 8 * G; 0 2 4 6);
            swap_rows!(x, $swap, 2, 0x3333_3333, 8 * G; 0 1 4 5);
            swap_rows!(x, $swap, 4, 0x0F0F_0F0F, 8 * G; 0 1 2 3);
        }; 0 1 2 3);
        swap_rows!(x, $swap, 8, 0x00FF_00FF, 0; 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23);
        swap_rows!(x, $swap, 16, 0x0000_FFFF, 0; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        // Indexed by constants, one by one, so that LLVM sees which rows
        // are read (a `map` with a closure may stay out of line).
        const B: [u32; 11] = $crate::arch::x86_64::spill::PLANE_BITS;
        [
            x[B[0] as usize], x[B[1] as usize], x[B[2] as usize], x[B[3] as usize],
            x[B[4] as usize], x[B[5] as usize], x[B[6] as usize], x[B[7] as usize],
            x[B[8] as usize], x[B[9] as usize], x[B[10] as usize],
        ]
    }};
}

/// Part of a stage of [`planes_by_swaps!`]: rows `$base + r` and
/// `$base + r + D` for each listed `r`.
macro_rules! swap_rows {
    ($x:ident, $swap:ident, $d:literal, $low:literal, $base:expr; $($r:literal)*) => {
        $({
            let r = $base + $r;
            ($x[r], $x[r + $d]) = $swap!($d, $low, $x[r], $x[r + $d]);
        })*
    };
}

/// For each lane kernel's tests: `step` (a checked step on `LANES` lanes)
/// with every count of busy lanes, on random blocks and the collision
/// files' first blocks, against the scalar steps: exactly the busy lanes
/// the reference filter lets through reach `is_attack`, with every field
/// right, and the lanes it accepts come back flagged.
#[cfg(test)]
pub(crate) fn steps_equal_the_scalar_steps<const LANES: usize>(
    mut step: impl FnMut(
        &mut [[u32; 5]; LANES],
        &[&[u8; 64]; LANES],
        usize,
        &dyn Fn(&SuspectBlock) -> bool,
    ) -> u32,
) {
    use crate::checked::recompress::compress as compress_stepwise;
    use crate::checked::recompress::expand;
    use crate::checked::recompress::scalar_groups;
    use crate::checked::test_data::{COLLISION_FILES, collision_file, noise};
    use crate::checked::ubc::dv_mask_reference;

    // The attack blocks pass the filter whatever the chaining value.
    let mut data = noise(0x0123_4567_89AB_CDEF, 64 * LANES * 40);
    for file in COLLISION_FILES {
        data.extend(collision_file(file).iter().take(64 * LANES * 4));
    }
    let blocks = data.as_chunks::<64>().0;
    let mut suspects = 0;
    for (round, batch) in blocks.chunks_exact(LANES).enumerate() {
        let active = LANES - round % LANES;
        let mut states: [[u32; 5]; LANES] = core::array::from_fn(|l| {
            core::array::from_fn(|j| ((round * 977 + l * 31 + j) as u32).wrapping_mul(0x9E37_79B9))
        });
        let before = states;
        let batch: [&[u8; 64]; LANES] = core::array::from_fn(|l| &batch[l]);
        let seen = core::cell::Cell::new(0u32);
        let flagged = step(&mut states, &batch, active, &|s: &SuspectBlock| {
            let lane = (0..LANES)
                .find(|&l| before[l] == s.ihv && expand(batch[l]) == s.w)
                .expect("one lane's block");
            assert!(lane < active, "round {round}: idle lane {lane}");
            assert_eq!(s.mask, dv_mask_reference(&s.w), "round {round} lane {lane}");
            assert_eq!(s.output, compress_stepwise(&s.ihv, &s.w));
            assert_eq!(s.mid, Midstates::stepped(&s.ihv, &s.w, scalar_groups));
            seen.set(seen.get() | 1 << lane);
            // Accept every other suspect, to see the flags come back.
            lane % 2 == 0
        });
        let seen = seen.get();
        for (lane, block) in batch.iter().enumerate() {
            let w = expand(block);
            assert_eq!(
                states[lane],
                compress_stepwise(&before[lane], &w),
                "round {round}"
            );
            let passes = lane < active && dv_mask_reference(&w) != 0;
            assert_eq!(seen >> lane & 1 == 1, passes, "round {round} lane {lane}");
        }
        assert_eq!(flagged, seen & 0x5555_5555);
        suspects += seen.count_ones();
    }
    assert!(suspects > 20, "the blocks have suspects: {suspects}");
}

/// Makes `$token` a lane kernel of `$lanes` lanes, plain and
/// [`CheckedLanes`], from its module's `compress_lanes`, `step_checked`
/// (which returns the lanes it flags), `MIN_LANES` and `$features`; and
/// tests its step with `steps_equal_the_scalar_steps`.
macro_rules! lane_kernel {
    ($token:ident, $features:literal, $lanes:expr) => {
        impl $token {
            /// [`crate::digest_many_into`] on the lanes, `compress` (the
            /// engine's single-stream compressor) hashing the last few
            /// messages alone; `out` has one slot per message.
            #[inline]
            pub(crate) fn digest_many(
                self,
                messages: &[&[u8]],
                out: &mut [$crate::Digest],
                compress: impl FnMut(&mut [u32; 5], &[&[[u8; 64]]]),
            ) {
                // SAFETY: `self` exists, so its `detect` saw the features
                // that `digest_lanes` enables.
                unsafe { digest_lanes(messages, out, compress) }
            }
        }

        /// Many messages, one block of each per step; idle lanes hash a
        /// dummy block into a state nobody reads.
        #[target_feature(enable = $features)]
        fn digest_lanes(
            messages: &[&[u8]],
            out: &mut [$crate::Digest],
            compress: impl FnMut(&mut [u32; 5], &[&[[u8; 64]]]),
        ) {
            $crate::lanes::run::<$lanes>(
                messages,
                out,
                MIN_LANES,
                |states, blocks, _| compress_lanes(states, blocks),
                compress,
            );
        }

        impl $crate::arch::x86_64::lanes_checked::CheckedLanes for $token {
            #[inline]
            fn digest_many_checked<T>(
                self,
                messages: &[&[u8]],
                out: &mut [T],
                is_attack: impl Fn(&SuspectBlock) -> bool,
                compress: impl FnMut(&mut [u32; 5], &[&[[u8; 64]]]) -> bool,
                finish: impl FnMut(usize, [u32; 5], bool) -> T,
            ) {
                // SAFETY: `self` exists, so its `detect` saw the features
                // that `digest_lanes_checked` enables.
                unsafe { digest_lanes_checked(messages, out, is_attack, compress, finish) }
            }
        }

        /// `CheckedLanes::digest_many_checked`, a checked step at a time.
        #[target_feature(enable = $features)]
        fn digest_lanes_checked<T>(
            messages: &[&[u8]],
            out: &mut [T],
            is_attack: impl Fn(&SuspectBlock) -> bool,
            compress: impl FnMut(&mut [u32; 5], &[&[[u8; 64]]]) -> bool,
            finish: impl FnMut(usize, [u32; 5], bool) -> T,
        ) {
            let mut kept = Kept::zeroed();
            $crate::lanes::run_flagging::<$lanes, T>(
                messages,
                out,
                MIN_LANES,
                |states, blocks, active| {
                    step_checked(states, blocks, active, &mut kept, &is_attack)
                },
                compress,
                finish,
            );
        }

        #[cfg(test)]
        mod checked_lanes_tests {
            use super::{Kept, step_checked, $token};

            #[test]
            fn checked_steps_equal_the_scalar_steps() {
                let Some(_token) = $token::detect() else {
                    return;
                };
                $crate::arch::x86_64::lanes_checked::steps_equal_the_scalar_steps(
                    |states, blocks, active, is_attack| {
                        // SAFETY: `_token` exists, so `detect` saw the
                        // features that `step_checked` enables.
                        unsafe {
                            step_checked(states, blocks, active, &mut Kept::zeroed(), &is_attack)
                        }
                    },
                );
            }
        }
    };
}

pub(crate) use {lane_kernel, planes_by_swaps, swap_rows};
