//! bijou-serde's integration tests, as one binary (one link instead of
//! three).

mod format;
mod maps;
mod properties;
mod vectors;
