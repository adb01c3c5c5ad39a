//! The x86-64 kernels and filters: `cpu` (the detection tokens), `spill`
//! (the kernel-to-filter contract), `ssse3`, `avx2`, `avx512` (the filters
//! and kernels of each extension), `lanes_checked` (what the lane kernels
//! share) and `shani`. A `#[target_feature]` function is reached only
//! through a method on its token, so each `unsafe` call rests on one local
//! check.

/// Declares a backend's detection token (see `token!`), made only after
/// CPUID (cached by `cpufeatures`) reported every one of `$features`: all
/// that its `#[target_feature]` code enables, implied ones included, since
/// a virtual machine's CPUID may report apart what real CPUs ship together.
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
