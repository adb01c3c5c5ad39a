//! On AVX2: the filter on one block's words (`words`), the bit-sliced
//! filter on eight blocks (`sliced`), and the eight-lane kernel (`lanes`).

pub(crate) mod lanes;
pub(crate) mod sliced;
pub(crate) mod words;
