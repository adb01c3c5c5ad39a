//! Nothing here: the examples are the `.rs` files beside this one, each a
//! program that checks its own results and fails when one is wrong. Run
//! one with `cargo run -p bijou-examples --example framed_echo`.
