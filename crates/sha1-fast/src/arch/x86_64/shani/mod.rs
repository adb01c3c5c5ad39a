//! The SHA-NI kernels: `rounds` (plain, and the recompression's group
//! stepper), `spilling` and `checked` (the checked kernel and its filter
//! calls), `staged` (the kernel with the AVX-512 filter in stages),
//! `twin` (the twin test).

pub(crate) mod checked;
pub(crate) mod rounds;
pub(crate) mod spilling;
pub(crate) mod staged;
pub(crate) mod twin;
