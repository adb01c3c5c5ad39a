//! Run-time choice of the batch decoder's vector path.
//!
//! `decode_batch` decodes values whose lengths are unpredictable without
//! branching on their tiers; where the CPU has a vector path for the
//! width, it decodes a whole chunk of values per step instead of one
//! value per step (bijou64: [`avx512`] with AVX-512 VBMI, 64-byte chunks;
//! [`ssse3`] otherwise, 16-byte chunks), and runs of one tier eight
//! values a step (`avx512_run`, AVX-512 VBMI only). The path is chosen
//! on the first batch and cached. Every path gives the same results as
//! the portable loop on every input (`tests` runs each available path on
//! the same inputs).
//!
//! With the `std` feature, `BIJOU_CORE_BATCH` in the environment (read
//! once) caps the paths, so a test run can prove the lower ones on a CPU
//! that has the higher: `portable` turns every vector path off, `ssse3`
//! turns AVX-512 off.

// Compiled only by Rust 1.89 and later (`build.rs` sets `bijou_avx512`),
// which have the AVX-512 intrinsics that clippy checks against the
// crate's older `rust-version`.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod avx2;
#[cfg(all(target_arch = "x86_64", bijou_avx512))]
#[allow(unsafe_code, clippy::incompatible_msrv)]
pub(crate) mod avx512;
#[cfg(all(target_arch = "x86_64", bijou_avx512))]
#[allow(unsafe_code, clippy::incompatible_msrv)]
mod avx512_run;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod ssse3;
#[cfg(all(test, target_arch = "x86_64"))]
mod tests;

#[cfg(target_arch = "x86_64")]
use core::sync::atomic::{AtomicU8, Ordering};

/// Progress of a vector path over one block of a batch: it stops before
/// the window holding an overflowing value, so the portable loop that
/// takes over reports the error at its exact place.
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
    /// past `out`); `None` when this width has no vector path here.
    fn decode_windows(_input: &[u8], _out: &mut [Self], _limit: usize) -> Option<VectorProgress> {
        None
    }

    /// Decodes whole groups of values at the front of `input` into `out`
    /// while they all have the multi-byte tag `tag`; (bytes consumed,
    /// values written), `(0, 0)` when this width has no vector path here.
    fn decode_run(_input: &[u8], _out: &mut [Self], _tag: u8) -> (usize, usize) {
        (0, 0)
    }
}

impl VectorBatch for u32 {}
impl VectorBatch for u128 {}

impl VectorBatch for u64 {
    #[inline]
    fn decode_windows(input: &[u8], out: &mut [u64], limit: usize) -> Option<VectorProgress> {
        #[cfg(all(target_arch = "x86_64", bijou_avx512))]
        if let Some(token) = avx512::Avx512Vbmi::detect().filter(|_| allowed(Path::Avx512Vbmi)) {
            return Some(token.decode_windows(input, out, limit));
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = avx2::Avx2::detect().filter(|_| allowed(Path::Avx2)) {
            return Some(token.decode_windows(input, out, limit));
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = ssse3::Ssse3::detect().filter(|_| allowed(Path::Ssse3)) {
            return Some(token.decode_windows(input, out, limit));
        }
        let _ = (input, out, limit);
        None
    }

    #[inline]
    fn decode_run(input: &[u8], out: &mut [u64], tag: u8) -> (usize, usize) {
        #[cfg(all(target_arch = "x86_64", bijou_avx512))]
        if let Some(token) = avx512::Avx512Vbmi::detect().filter(|_| allowed(Path::Avx512Vbmi)) {
            return token.decode_run(input, out, tag);
        }
        let _ = (input, out, tag);
        (0, 0)
    }
}

/// The name of the vector path `decode_batch` uses for bijou64 on this
/// CPU: `"avx512-vbmi"`, `"ssse3"`, or `"portable"` when there is none
/// (another architecture, a CPU without SSSE3, or `BIJOU_CORE_BATCH`
/// capping it). The other widths always take the portable loop. For
/// logs and benchmarks; results never depend on it.
///
/// # Examples
///
/// ```
/// assert!(["avx512-vbmi", "avx2", "ssse3", "portable"].contains(&bijou_core::batch_decoder()));
/// ```
#[must_use]
pub fn batch_decoder() -> &'static str {
    #[cfg(all(target_arch = "x86_64", bijou_avx512))]
    if avx512::Avx512Vbmi::detect().is_some() && allowed(Path::Avx512Vbmi) {
        return "avx512-vbmi";
    }
    #[cfg(target_arch = "x86_64")]
    if avx2::Avx2::detect().is_some() && allowed(Path::Avx2) {
        return "avx2";
    }
    #[cfg(target_arch = "x86_64")]
    if ssse3::Ssse3::detect().is_some() && allowed(Path::Ssse3) {
        return "ssse3";
    }
    "portable"
}

/// The vector paths, lowest first; `BIJOU_CORE_BATCH` caps them.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub(crate) enum Path {
    // Only `BIJOU_CORE_BATCH` (with `std`) asks for it.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    Portable = 1,
    Ssse3 = 2,
    Avx2 = 3,
    Avx512Vbmi = 4,
}

/// The environment variable that caps the vector paths (with `std`).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
const FORCE_VAR: &str = "BIJOU_CORE_BATCH";

/// [`allowed`]'s cached cap, a [`Path`]; 0 while undecided.
#[cfg(target_arch = "x86_64")]
static CAP: AtomicU8 = AtomicU8::new(0);

/// Whether `BIJOU_CORE_BATCH` (read once; never without `std`) lets
/// `path` run.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn allowed(path: Path) -> bool {
    let cap = match CAP.load(Ordering::Relaxed) {
        0 => decide_cap(),
        cap => cap,
    };
    path as u8 <= cap
}

#[cfg(target_arch = "x86_64")]
#[cold]
fn decide_cap() -> u8 {
    #[cfg(feature = "std")]
    let cap = match std::env::var_os(FORCE_VAR) {
        Some(value) if value == "portable" => Path::Portable,
        Some(value) if value == "ssse3" => Path::Ssse3,
        Some(value) if value == "avx2" => Path::Avx2,
        _ => Path::Avx512Vbmi,
    };
    #[cfg(not(feature = "std"))]
    let cap = Path::Avx512Vbmi;
    CAP.store(cap as u8, Ordering::Relaxed);
    cap as u8
}
