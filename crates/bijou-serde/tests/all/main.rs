//! bijou-serde's integration tests, as one binary (one link instead of
//! three).

mod format;
mod properties;
mod vectors;
