//! The x86-64 kernels and filters.
//!
//! - `cpu`: every detection token and the vendor fact the choice reads;
//! - `spill`: what a kernel hands a filter (the spilled schedule, its
//!   mirror, the plane layout);
//! - `ssse3`, `avx2`, `avx512`: the filters of each vector extension, and
//!   the kernels that run on it (the SIMD-schedule kernel, the eight- and
//!   sixteen-lane kernels);
//! - `lanes_checked`: what the two lane kernels share;
//! - `shani`: the SHA-NI kernels, plain and checked, and the twin test.
//!
//! Each token proves its features are there; the only way into a
//! `#[target_feature]` function is through a method on its token, so the
//! `unsafe` call inside is justified by a single, local check.

/// Declares a backend's detection token: a zero-sized `$token` that only
/// `$token::detect` makes, and only after CPUID (cached by `cpufeatures`)
/// reported every one of `$features`: the features the module's
/// `#[target_feature]` code enables and every feature rustc enables with
/// them (`avx2` implies `avx`, `sse4.2`, `sse4.1`, `ssse3`, `sse3` and
/// `sse2`), since a CPUID (a virtual machine's, say) may report features
/// apart that real CPUs only ship together (see `token!` for the rest).
macro_rules! detection_token {
    ($(#[$doc:meta])* $token:ident in $cache:ident: $($feature:tt),+) => {
        cpufeatures::new!($cache, $($feature),+);
        token!($(#[$doc])* $token, $cache::get());
    };
}

#[allow(unsafe_code)]
pub(crate) mod avx2;
#[allow(unsafe_code)]
pub(crate) mod avx512;
#[allow(unsafe_code)]
pub(crate) mod cpu;
#[allow(unsafe_code)]
pub(crate) mod lanes_checked;
#[allow(unsafe_code)]
pub(crate) mod shani;
#[allow(unsafe_code)]
pub(crate) mod spill;
#[allow(unsafe_code)]
pub(crate) mod ssse3;
