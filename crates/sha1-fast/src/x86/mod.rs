//! The x86-64 backends. Each module owns its CPU detection and hands out a
//! zero-sized token that proves the features are there; the only way into
//! its `#[target_feature]` code is through methods on that token, so the
//! `unsafe` calls inside are justified by a single, local check.

/// Declares a backend's detection token: a zero-sized `$token` that only
/// `$token::detect` makes, and only after CPUID (cached by `cpufeatures`)
/// reported every one of `$features`: the features the module's
/// `#[target_feature]` code enables and every feature rustc enables with
/// them (`avx2` implies `avx`, `sse4.2`, `sse4.1`, `ssse3`, `sse3` and
/// `sse2`), since a CPUID (a virtual machine's, say) may report features
/// apart that real CPUs only ship together (see `token!` for the rest).
macro_rules! detection_token {
    ($(#[$doc:meta])* $token:ident: $($feature:tt),+) => {
        cpufeatures::new!(cpuid, $($feature),+);
        token!($(#[$doc])* $token, cpuid::get());
    };
}

#[allow(unsafe_code)]
pub(crate) mod avx2_lanes;
#[allow(unsafe_code)]
pub(crate) mod avx512_lanes;
#[allow(unsafe_code)]
pub(crate) mod filter_avx2;
#[allow(unsafe_code)]
pub(crate) mod filter_avx512;
#[allow(unsafe_code)]
pub(crate) mod filter_sliced;
#[allow(unsafe_code)]
pub(crate) mod filter_words;
#[allow(unsafe_code)]
pub(crate) mod lanes_checked;
#[allow(unsafe_code)] // only the tests' helper
pub(crate) mod planes;
#[allow(unsafe_code)]
pub(crate) mod shani;
#[allow(unsafe_code)]
pub(crate) mod shani_checked;
#[allow(unsafe_code)]
pub(crate) mod shani_twin;
#[allow(unsafe_code)]
pub(crate) mod simd_schedule;
