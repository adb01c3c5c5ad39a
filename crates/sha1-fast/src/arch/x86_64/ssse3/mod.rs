//! On SSSE3: the filter's bit planes from SSE registers, and the
//! SIMD-schedule kernel (the schedule on the vector unit, the rounds in
//! scalar registers) for CPUs without the SHA extensions.

pub(crate) mod planes;
pub(crate) mod simd_schedule;
