//! The SHA-NI kernels: the plain rounds (one stream and interleaved
//! lanes), the checked kernel that spills what the filter and the
//! recompression read, and the recompression's twin test on the SHA unit.
//!
//! - `rounds`: the plain kernel, and the group stepper the recompression
//!   shares;
//! - `spilling`: the checked kernel's rounds;
//! - `checked`: the checked kernel's batches and the filter it calls;
//! - `twin`: the twin test.

pub(crate) mod checked;
pub(crate) mod rounds;
pub(crate) mod spilling;
pub(crate) mod twin;
