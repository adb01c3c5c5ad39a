//! The aarch64 backends: as on x86-64, `#[target_feature]` code is reached
//! only through methods on a detection token.

/// Declares a backend's detection token (see `token!`), made only after
/// the OS reported every one of `$features`: with `std` through
/// `is_aarch64_feature_detected!`, without it through `cpufeatures`; both
/// cache the answer.
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
