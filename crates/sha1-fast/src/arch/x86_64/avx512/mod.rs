//! On AVX-512: the bit-sliced filter on sixteen blocks (`sliced`), its
//! two-block form for short batches (`paired`), and the sixteen-lane
//! kernel (`lanes`).

pub(crate) mod lanes;
pub(crate) mod paired;
pub(crate) mod sliced;
