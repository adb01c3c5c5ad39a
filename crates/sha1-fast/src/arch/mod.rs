//! The hardware kernels, one folder per instruction set. Nothing here
//! chooses: the engine (`engine.rs`) is the only importer of these
//! modules and decides, per CPU, which kernel and filter run.
//!
//! Inside a folder imports run downward only: the detection tokens and
//! the kernel-to-filter contract at the bottom, the filters above them,
//! the kernels above the filters.

// Before the backend modules, which use its macro.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[macro_use]
mod token;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm32;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;
