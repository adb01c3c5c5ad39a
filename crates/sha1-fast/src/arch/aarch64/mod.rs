//! The aarch64 backends. As in `x86`, each module owns its CPU detection
//! and hands out a zero-sized token that proves the features are there;
//! its `#[target_feature]` code is reachable only through methods on that
//! token, so the `unsafe` calls inside are justified by a single, local
//! check.

/// Declares a backend's detection token: a zero-sized `$token` that only
/// `$token::detect` makes, and only after the OS reported every one of
/// `$features`. With `std` that is `is_aarch64_feature_detected!` (on
/// Linux `AT_HWCAP`, for `sha2` both its SHA-1 and SHA-256 bits), without
/// it `cpufeatures` (`AT_HWCAP` on Linux and Android, always true on Apple
/// targets, the compile-time features elsewhere); both cache the answer,
/// and both are true at compile time when the build enables the features
/// (as every Apple target does for `sha2`). See `token!` for the rest.
macro_rules! detection_token {
    ($(#[$doc:meta])* $token:ident: $($feature:tt),+) => {
        #[cfg(not(feature = "std"))]
        cpufeatures::new!(hwcap, $($feature),+);
        #[cfg(feature = "std")]
        token!($(#[$doc])* $token, $(std::arch::is_aarch64_feature_detected!($feature))&&+);
        #[cfg(not(feature = "std"))]
        token!($(#[$doc])* $token, hwcap::get());
    };
}

#[allow(unsafe_code)]
pub(crate) mod armsha;
pub(crate) mod cpu;
#[allow(unsafe_code)] // only the tests' helper
pub(crate) mod planes;
