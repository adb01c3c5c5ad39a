//! sha1-fast's integration tests, as one binary (one link instead of six).
//!
//! `tests/miri.rs` stays a binary of its own: `cargo xtask miri` builds
//! only it, without the oracle crates these tests link.

mod api;
mod checked;
mod common;
mod differential;
mod digest_traits;
mod many;
mod vectors;
