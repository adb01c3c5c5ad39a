//! Run-time choice of the batch decoder's vector path.
//!
//! `decode_batch` decodes values whose lengths are unpredictable without
//! branching on their tiers; where the CPU has a vector path for the
//! width, it decodes a whole window of values per step instead of one
//! value per step ([`avx512`]: every width, with AVX-512 VBMI),
//! and bijou64's runs of one tier eight values a step (`avx512_run`), or
//! with AVX2 alone four a step (`avx2_run`); runs of single bytes, with
//! AVX2, 32 a step (`avx2_bytes`). Elsewhere the portable loop
//! runs two walks at once (`crate::chains`). Blocks whose tiers repeat
//! with a short period (`crate::periodic`) go to bijou64's record loop
//! with AVX-512 VBMI (`avx512_periodic`), or, on CPUs without that
//! window path, to a per-value loop whose branches the predictor learns;
//! the other widths keep the window path on AVX-512. The path is
//! chosen on the first batch and cached. Every path gives the same
//! results as the portable loop on every input (`tests` runs each
//! available window path, `run_tests` each run path, `avx2_bytes` its
//! own, `periodic_tests` the record loop, on the same inputs against
//! `decode`).
//!
//! With the `std` feature, `BIJOU_CORE_BATCH=portable` in the environment
//! (read once) turns the vector paths off, so a test run can prove the
//! portable loop on a CPU that has them.

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2_bytes;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2_run;
#[cfg(target_arch = "x86_64")]
mod run_loop;
// Compiled only by Rust 1.89 and later (`build.rs` sets `bijou_avx512`),
// which have the AVX-512 intrinsics that clippy checks against the
// crate's older `rust-version`.
#[cfg(all(target_arch = "x86_64", bijou_avx512))]
#[allow(unsafe_code, clippy::incompatible_msrv)]
pub(crate) mod avx512;
#[cfg(all(target_arch = "x86_64", bijou_avx512))]
#[allow(unsafe_code, clippy::incompatible_msrv)]
mod avx512_periodic;
#[cfg(all(target_arch = "x86_64", bijou_avx512))]
#[allow(unsafe_code, clippy::incompatible_msrv)]
mod avx512_run;
#[cfg(all(test, target_arch = "x86_64", bijou_avx512))]
mod periodic_tests;
#[cfg(all(test, target_arch = "x86_64"))]
mod run_tests;
#[cfg(all(test, target_arch = "x86_64", bijou_avx512))]
mod tests;

#[cfg(target_arch = "x86_64")]
use core::sync::atomic::{AtomicU8, Ordering};

use crate::periodic::Period;

/// Progress of a vector path over one block of a batch: it stops before
/// the window holding an overflowing value, so the portable loop that
/// takes over reports the error at its exact place.
#[derive(Default)]
pub(crate) struct VectorProgress {
    pub(crate) consumed: usize,
    pub(crate) written: usize,
    /// Values whose length differs from the previous value's.
    pub(crate) length_changes: usize,
}

/// A width's vector path for the batch decoder, if it has one.
pub(crate) trait VectorBatch: Sized {
    /// Decodes whole windows at the front of `input` into `out` until
    /// `limit` values are written (the last window's may go past it, never
    /// past `out`); `None` when this width has no vector path here. Slots
    /// past the reported `written` may hold values decoded from the
    /// stream (those of a window stopped at an overflow, say), never
    /// anything else: the portable loop that takes over rewrites them.
    fn decode_windows(_input: &[u8], _out: &mut [Self], _limit: usize) -> Option<VectorProgress> {
        None
    }

    /// Decodes the run of values with the multi-byte tag `tag` at the
    /// front of `input` into `out`, whole groups at a time, with the odd
    /// value of another tier inside it (`run_loop`); nothing when this
    /// width has no vector path here.
    fn decode_run(_input: &[u8], _out: &mut [Self], _tag: u8) -> VectorProgress {
        VectorProgress::default()
    }

    /// Copies single-byte values from the front of `input` to `out`
    /// while whole steps of them fit; returns how many it copied, 0 when
    /// this width has no vector path for them here.
    fn copy_single_bytes(_input: &[u8], _out: &mut [Self]) -> usize {
        0
    }

    /// Whether the batch decoder looks for periods in this width's
    /// unpredictable blocks here: when the record loop or the predicted
    /// per-value loop beats this CPU's unpredictable loop on them.
    fn looks_for_periods() -> bool {
        !has_windows()
    }

    /// The plan of the vector record loop for `period`; `None` when this
    /// width has no record loop here.
    fn record_plan(_period: &Period) -> Option<RecordPlan> {
        None
    }

    /// Decodes whole steps of `plan` at the front of `input` into `out`
    /// until `limit` values are written (the last step's may go past it,
    /// never past `out`) while the records' tags have the plan's tiers; a
    /// step that differs, or overflows, goes value by value, once in a
    /// row, and an overflowing value is left undecoded. (bytes consumed,
    /// values written), `(0, 0)` when this width has no record loop
    /// here. Slots past the values written may have been overwritten.
    fn decode_records(
        _input: &[u8],
        _out: &mut [Self],
        _limit: usize,
        _plan: &RecordPlan,
    ) -> (usize, usize) {
        (0, 0)
    }
}

/// A period's constants for the vector record loop, built once per
/// period.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(all(target_arch = "x86_64", bijou_avx512)), allow(dead_code))]
pub(crate) struct RecordPlan {
    /// Values one step decodes: whole records.
    pub(crate) values: usize,
    #[cfg(all(target_arch = "x86_64", bijou_avx512))]
    plan: avx512_periodic::RecordPlan,
}

/// Whether the CPU has the AVX-512 window path, which decodes periodic
/// blocks faster than a per-value loop.
#[inline]
fn has_windows() -> bool {
    #[cfg(all(target_arch = "x86_64", bijou_avx512))]
    if avx512_vbmi().is_some() {
        return true;
    }
    false
}

/// The AVX-512 VBMI token, unless the CPU lacks it or the vector paths
/// are turned off.
#[cfg(all(target_arch = "x86_64", bijou_avx512))]
#[inline]
fn avx512_vbmi() -> Option<avx512::Avx512Vbmi> {
    avx512::Avx512Vbmi::detect().filter(|_| !forced_portable())
}

/// The AVX2 token, unless the CPU lacks it or the vector paths are
/// turned off.
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2() -> Option<avx2_run::Avx2> {
    avx2_run::Avx2::detect().filter(|_| !forced_portable())
}

/// [`VectorBatch::decode_windows`] on the AVX-512 chunk decoder, for
/// the widths it serves.
macro_rules! chunk_windows {
    () => {
        #[inline]
        fn decode_windows(input: &[u8], out: &mut [Self], limit: usize) -> Option<VectorProgress> {
            #[cfg(all(target_arch = "x86_64", bijou_avx512))]
            if let Some(token) = avx512_vbmi() {
                return Some(token.decode_windows(input, out, limit));
            }
            let _ = (input, out, limit);
            None
        }
    };
}

impl VectorBatch for u32 {
    chunk_windows!();
}

impl VectorBatch for u128 {
    chunk_windows!();
}

impl VectorBatch for u64 {
    chunk_windows!();

    #[inline]
    fn decode_run(input: &[u8], out: &mut [u64], tag: u8) -> VectorProgress {
        #[cfg(all(target_arch = "x86_64", bijou_avx512))]
        if let Some(token) = avx512_vbmi() {
            return token.decode_run(input, out, tag);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = avx2() {
            return token.decode_run(input, out, tag);
        }
        let _ = (input, out, tag);
        VectorProgress::default()
    }

    #[inline]
    fn copy_single_bytes(input: &[u8], out: &mut [u64]) -> usize {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = avx2() {
            return token.copy_single_bytes(input, out);
        }
        let _ = (input, out);
        0
    }

    #[inline]
    fn looks_for_periods() -> bool {
        true
    }

    #[inline]
    fn record_plan(period: &Period) -> Option<RecordPlan> {
        #[cfg(all(target_arch = "x86_64", bijou_avx512))]
        if avx512_vbmi().is_some() {
            let plan = avx512_periodic::RecordPlan::new(period);
            return Some(RecordPlan {
                values: plan.values(),
                plan,
            });
        }
        let _ = period;
        None
    }

    #[inline]
    fn decode_records(
        input: &[u8],
        out: &mut [u64],
        limit: usize,
        plan: &RecordPlan,
    ) -> (usize, usize) {
        #[cfg(all(target_arch = "x86_64", bijou_avx512))]
        if let Some(token) = avx512_vbmi() {
            return token.decode_records(input, out, limit, &plan.plan);
        }
        let _ = (input, out, limit, plan);
        (0, 0)
    }
}

/// The name of the vector path `decode_batch` uses on this CPU:
/// `"avx512-vbmi"` (every width's windows, bijou64's runs, runs of
/// single bytes and periodic records, Rust 1.89 and later), `"avx2"`
/// (bijou64's runs of one tier and of single bytes), or `"portable"` when there is none (another
/// architecture, a CPU without AVX2, or `BIJOU_CORE_BATCH=portable`).
/// For logs and benchmarks; results never depend on it.
///
/// # Examples
///
/// ```
/// let paths = ["avx512-vbmi", "avx2", "portable"];
/// assert!(paths.contains(&bijou_core::batch_decoder()));
/// ```
#[must_use]
pub fn batch_decoder() -> &'static str {
    #[cfg(all(target_arch = "x86_64", bijou_avx512))]
    if avx512_vbmi().is_some() {
        return "avx512-vbmi";
    }
    #[cfg(target_arch = "x86_64")]
    if avx2().is_some() {
        return "avx2";
    }
    "portable"
}

/// The environment variable that turns the vector paths off (with `std`).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
const FORCE_VAR: &str = "BIJOU_CORE_BATCH";

/// [`forced_portable`]'s cached answer: 0 undecided, 1 no, 2 yes.
#[cfg(target_arch = "x86_64")]
static FORCED: AtomicU8 = AtomicU8::new(0);

/// Whether `BIJOU_CORE_BATCH=portable` is set (read once; never without
/// `std`). Only builds with a vector path ask.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn forced_portable() -> bool {
    match FORCED.load(Ordering::Relaxed) {
        0 => decide_forced(),
        state => state == 2,
    }
}

#[cfg(target_arch = "x86_64")]
#[cold]
fn decide_forced() -> bool {
    #[cfg(feature = "std")]
    let forced = std::env::var_os(FORCE_VAR).is_some_and(|v| v == "portable");
    #[cfg(not(feature = "std"))]
    let forced = false;
    FORCED.store(if forced { 2 } else { 1 }, Ordering::Relaxed);
    forced
}
