//! Nothing here but the workspace README, whose Rust snippets run as this
//! crate's doc tests: the examples are the `.rs` files beside this one,
//! each a program that checks its own results. Run one with
//! `cargo run -p bijou-examples --example framed_echo`.
#![doc = include_str!("../README.md")]
