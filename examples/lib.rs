//! The library of the examples package: `#![no_std]`, with no `alloc`,
//! so that [`reading`], the code of the `stack_encode` example, is built
//! without either (`cargo build -p bijou-examples --lib`). The other
//! examples are the `.rs` files beside this one, each a program that
//! checks its own results (`cargo run -p bijou-examples --example
//! framed_echo`). The workspace README follows; its Rust snippets run as
//! this crate's doc tests.
//!
#![doc = include_str!("../README.md")]
#![no_std]

pub mod reading;
