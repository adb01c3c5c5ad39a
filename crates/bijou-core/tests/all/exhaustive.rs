//! Exhaustive sweeps, too slow for every `cargo test`: run with
//! `cargo test -p bijou-core --release --test all exhaustive -- --ignored` or
//! `cargo xtask conformance --exhaustive`.

use testkit::exhaustive::{decode_all_strings, u32_round_trip, u32_round_trip_all};
use testkit::oracle::Width;

#[test]
#[ignore = "16.7M strings per width; run in release"]
fn every_three_byte_string_of_every_width() {
    decode_all_strings::<u32>(&Width::b32(), 3).unwrap();
    decode_all_strings::<u64>(&Width::b64(), 3).unwrap();
    decode_all_strings::<u128>(&Width::b128(), 3).unwrap();
}

/// Cheap enough for every run: every 1- and 2-byte string, alone (the
/// careful path near the end of the input) and padded to a whole block
/// (the one-load path), against the oracle.
#[test]
fn every_two_byte_string_of_every_width() {
    for len in 1..=2 {
        decode_all_strings::<u32>(&Width::b32(), len).unwrap();
        decode_all_strings::<u64>(&Width::b64(), len).unwrap();
        decode_all_strings::<u128>(&Width::b128(), len).unwrap();
    }
}

#[test]
#[ignore = "4.3G values; run in release"]
fn every_u32_round_trips() {
    assert_eq!(u32_round_trip_all(2).unwrap(), 1 << 32);
}

#[test]
fn the_first_and_last_million_u32_round_trip() {
    // A cheap slice of the ignored sweep so the sweep code itself is tested.
    u32_round_trip(0..=1 << 20).unwrap();
    u32_round_trip(u32::MAX - (1 << 20)..=u32::MAX).unwrap();
}
