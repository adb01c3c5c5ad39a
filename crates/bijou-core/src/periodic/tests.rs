use super::{MAX_VALUES, Period, find};
use crate::bijou64::{self, OFFSETS, THRESHOLD};
use std::vec::Vec;

/// `records` records of one value per tier of `tiers`, the first of
/// each tier.
fn stream(tiers: &[u8], records: usize) -> Vec<u8> {
    let values: Vec<u64> = (0..records)
        .flat_map(|_| tiers.iter().map(|&t| OFFSETS[usize::from(t)]))
        .collect();
    let mut input = Vec::new();
    bijou64::encode_batch(&values, &mut input);
    input
}

#[test]
fn finds_the_shortest_period_of_tiers() {
    let period = find(&stream(&[2, 0, 0, 5, 8], 4), THRESHOLD);
    let tiers = [2, 0, 0, 5, 8, 0, 0, 0];
    assert_eq!(
        period,
        Some(Period {
            values: 5,
            bytes: 20,
            tiers
        })
    );
    // A period and its multiples: the shortest wins.
    assert_eq!(
        find(&stream(&[1, 0, 1, 0], 4), THRESHOLD).map(|p| p.values),
        Some(2)
    );
    for values in 2..=MAX_VALUES {
        let tiers: Vec<u8> = (0..values as u8).collect();
        assert_eq!(
            find(&stream(&tiers, 16 / values + 1), THRESHOLD).map(|p| p.values),
            Some(values)
        );
    }
}

#[test]
fn rejects_runs_long_records_short_input_and_no_period() {
    assert_eq!(find(&stream(&[3], 20), THRESHOLD), None);
    assert_eq!(find(&stream(&[0], 20), THRESHOLD), None);
    // Seven top-tier values and a two-byte one: 65 bytes a record.
    assert_eq!(find(&stream(&[8, 8, 8, 8, 8, 8, 8, 1], 3), THRESHOLD), None);
    assert_eq!(find(&stream(&[1, 2], 7), THRESHOLD), None);
    let mut input = stream(&[1, 2], 8);
    input.truncate(input.len() - 3);
    assert_eq!(find(&input, THRESHOLD), None);
    let mut input = stream(&[1, 2], 8);
    input[15] = 0xF9; // value 6: tier 1 becomes 2
    assert_eq!(find(&input, THRESHOLD), None);
    assert_eq!(find(&[], THRESHOLD), None);
}
