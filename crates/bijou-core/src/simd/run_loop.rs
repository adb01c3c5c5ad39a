//! The loop that bijou64's run paths (`avx512_run`, `avx2_run`) share.
//!
//! A run path's step decodes the next few values of a run of one tier at
//! once and says where the run's stride broke, if it did. A stride that
//! breaks at a value of another tier (a small id among hashes, a 2-byte
//! size among 3-byte ones) need not end the run: that value is decoded on
//! its own, and the run goes on after it. The step's branch mispredicts
//! there once, where leaving the run and coming back would cost several
//! calls and mispredictions. Values of other tiers are counted as length
//! changes, so the batch decoder still leaves the branchy loop when they
//! are frequent, and a run stops by itself when they come too often.

use super::VectorProgress;
use crate::bijou64::{MAX_BYTES, decode};

/// Values of other tiers a run takes in its stride before it asks that
/// they average at most one in [`OTHER_SPACING`] values.
pub(crate) const FREE_OTHERS: usize = 4;

/// See [`FREE_OTHERS`]: denser than this, the unpredictable loop is
/// faster than a misprediction per value of another tier.
pub(crate) const OTHER_SPACING: usize = 16;

/// What a step found among its values.
pub(crate) enum Step {
    /// Every value has the run's tag and none carried: all are decoded.
    Whole,
    /// The first `before` values are decoded; value `before` has another
    /// tag, or (if `carried`) the run's tag and a sum that carried.
    Broken { before: usize, carried: bool },
}

/// Runs `step` over the front of `input`, `VALUES` values of `len` bytes
/// a step while `READ` bytes and `VALUES` slots of `out` are left, with
/// values of other tiers decoded in between (see the module docs).
///
/// Stops before a value of another tier that follows one (or starts the
/// run), before a value that overflows, or after a value of another tier
/// that came too soon after the others. Slots of `out` past the values
/// written may have been overwritten.
#[inline(always)]
pub(crate) fn run_loop<const VALUES: usize, const READ: usize>(
    input: &[u8],
    out: &mut [u64],
    len: usize,
    mut step: impl FnMut(&[u8; READ], &mut [u64; VALUES]) -> Step,
) -> VectorProgress {
    const { assert!(READ >= (VALUES - 1) * MAX_BYTES + MAX_BYTES) };
    let mut progress = VectorProgress::default();
    let mut others = 0;
    // Whether the last value decoded had another tier (or none was): two
    // such values in a row mean that the run has ended.
    let mut after_other = true;
    while let (Some(bytes), Some(dest)) = (
        input[progress.consumed..].first_chunk::<READ>(),
        out[progress.written..].first_chunk_mut::<VALUES>(),
    ) {
        let (before, carried) = match step(bytes, dest) {
            Step::Whole => (VALUES, false),
            Step::Broken { before, carried } => (before, carried),
        };
        progress.consumed += before * len;
        progress.written += before;
        if before == VALUES {
            after_other = false;
            continue;
        }
        if carried || (before == 0 && after_other) {
            break;
        }
        // A whole MAX_BYTES block is within the step's bytes (the const
        // assertion), so the only error is an overflow, left to the
        // caller's scalar loop to report.
        let Ok((other, other_len)) = decode(&bytes[before * len..]) else {
            break;
        };
        dest[before] = other;
        progress.consumed += other_len;
        progress.written += 1;
        progress.length_changes += 2;
        others += 1;
        after_other = true;
        if others > FREE_OTHERS && others * OTHER_SPACING > progress.written {
            break;
        }
    }
    progress
}
