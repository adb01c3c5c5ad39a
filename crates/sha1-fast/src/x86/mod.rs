//! The x86-64 backends. Each module owns its CPU detection and hands out a
//! zero-sized token that proves the features are there; the only way into
//! its `#[target_feature]` code is through methods on that token, so the
//! `unsafe` calls inside are justified by a single, local check.

#[allow(unsafe_code)]
pub(crate) mod avx2_lanes;
#[allow(unsafe_code)]
pub(crate) mod shani;
#[allow(unsafe_code)]
pub(crate) mod simd_schedule;
