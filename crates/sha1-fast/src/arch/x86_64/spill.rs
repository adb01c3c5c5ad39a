//! What an x86-64 kernel hands a filter and the recompression, at the
//! bottom of the folder: [`Spill`] and [`Suspect`] (what the SHA-NI checked
//! kernel keeps of a block), [`ReversedGroups`] (the window as SSE registers
//! hold it), [`Mirror`] (its groups reversed, for the per-block AVX2
//! filter) and [`PLANE_BITS`].

use crate::checked::recompress::Midstates;
use core::arch::x86_64::__m128i;
use core::ops::Range;

/// The groups of W\[32..68\], W_{4k} in each top lane.
pub(crate) type ReversedGroups = [__m128i; 9];

/// The schedule groups in the [`Mirror`].
pub(crate) const MIRROR_GROUPS: Range<usize> = 8..18;

/// Groups 17 down to 8 of a block's schedule as the SHA-NI kernel holds
/// them (each group's words backwards): word 71 − t is W\[t\], for
/// W\[32..72\].
pub(crate) type Mirror = [__m128i; MIRROR_GROUPS.end - MIRROR_GROUPS.start];

pub(crate) use crate::checked::ubc::PLANE_BITS;

/// One block's expanded message as the kernel spills it: group k holds
/// W\[4k..4k+4\], W_{4k} in the top lane.
pub(crate) type Schedule = [__m128i; 20];

/// What the kernel keeps of one block.
#[derive(Clone, Copy)]
pub(crate) struct Spill {
    /// ABCD and E (in its top lane) before the block.
    pub(crate) before: [__m128i; 2],
    /// ABCD before groups 14, 15 and 16.
    pub(crate) mid: [__m128i; 3],
    pub(crate) w: Schedule,
}

/// The four lanes of `v`, lane 0 first.
pub(crate) fn lanes(v: __m128i) -> [u32; 4] {
    // SAFETY: both types are 16 bytes of plain bits.
    unsafe { core::mem::transmute(v) }
}

/// The vector of lanes `lanes`, lane 0 first.
#[cfg(test)]
fn vector(lanes: [u32; 4]) -> __m128i {
    // SAFETY: both types are 16 bytes of plain bits.
    unsafe { core::mem::transmute(lanes) }
}

/// Group `k` of `w` as the kernel holds it (W_{4k} in the top lane).
#[cfg(test)]
fn group(w: &[u32; 80], k: usize) -> __m128i {
    vector(core::array::from_fn(|j| w[4 * k + 3 - j]))
}

/// The state whose ABCD is `abcd` (A on top) and whose E is the top lane
/// of `e`.
pub(crate) fn state(abcd: __m128i, e: u32) -> [u32; 5] {
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
    pub(crate) fn ihv(&self) -> [u32; 5] {
        state(self.before[0], lanes(self.before[1])[3])
    }

    /// The expanded message, W\[0\] first.
    pub(crate) fn schedule(&self) -> [u32; 80] {
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
        let zero = vector([0; 4]);
        Spill {
            before: [zero; 2],
            mid: [zero; 3],
            w: core::array::from_fn(|k| group(w, k)),
        }
    }

    /// A spill of the block with expanded message `w` compressed from
    /// `ihv`, with the states the kernel keeps, for the recompression's
    /// tests.
    #[cfg(test)]
    pub(crate) fn of_block(ihv: &[u32; 5], w: &[u32; 80]) -> Spill {
        let abcd = |[a, b, c, d, _]: [u32; 5]| vector([d, c, b, a]);
        let at = |group| crate::checked::recompress::scalar_groups(*ihv, w, 0, group);
        Spill {
            before: [abcd(*ihv), vector([0, 0, 0, ihv[4]])],
            mid: [abcd(at(14)), abcd(at(15)), abcd(at(16))],
            ..Spill::of_schedule(w)
        }
    }

    /// The states before steps 60 and 64: E before a group is rotl30 of A
    /// before the group before it.
    pub(crate) fn midstates(&self) -> Midstates {
        let a = |k: usize| lanes(self.mid[k])[3].rotate_left(30);
        Midstates {
            at60: state(self.mid[1], a(0)),
            at64: state(self.mid[2], a(1)),
        }
    }
}

/// A block the filter let through, for the recompression: what the
/// kernel kept of it, the state after it and the filter's mask.
pub(crate) struct Suspect<'s> {
    spill: &'s Spill,
    pub(crate) output: [u32; 5],
    pub(crate) mask: u64,
}

impl<'s> Suspect<'s> {
    /// The suspect `spill`, whose block left the state `output` and
    /// passed the filter with `mask`.
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

/// W\[32..68\] of `w` as the SHA-NI kernel spills it, for the tests of
/// the filter's x86 forms.
#[cfg(test)]
pub(crate) fn reversed_groups(w: &[u32; 80]) -> ReversedGroups {
    core::array::from_fn(|g| group(w, 8 + g))
}

/// The mirror of the expanded message `w`, for the tests.
#[cfg(test)]
pub(crate) fn mirror_of(w: &[u32; 80]) -> Mirror {
    core::array::from_fn(|m| group(w, MIRROR_GROUPS.end - 1 - m))
}
