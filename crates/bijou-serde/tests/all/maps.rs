//! Maps through every output: entries sorted by encoded key in place
//! (spans kept in the map, or in the serializer's scratch past eight
//! entries, maps nested in maps), counts announced wrongly or not at all,
//! and `serialized_size` equal to the encoding's length. The reference is
//! the rule transcribed naively: each entry encoded on its own, the
//! entries sorted as byte strings and concatenated after the count.

use std::collections::{BTreeMap, HashMap};

use bijou_serde::{ErrorKind, serialized_size, to_slice, to_vec, to_writer};
use proptest::prelude::*;
use serde::Serialize;
use serde::ser::SerializeMap;

/// The encoding of a map with these entries, by the rule alone.
fn sorted_by_hand<K: Serialize, V: Serialize>(entries: &[(K, V)]) -> Vec<u8> {
    let mut encoded: Vec<Vec<u8>> = entries
        .iter()
        .map(|(k, v)| [to_vec(k).unwrap(), to_vec(v).unwrap()].concat())
        .collect();
    // Keys are distinct, so sorting whole entries sorts by key.
    encoded.sort();
    [to_vec(&encoded.len()).unwrap(), encoded.concat()].concat()
}

/// `value`'s encoding through `to_vec`, checked against `to_slice` (into a
/// buffer of `serialized_size` bytes and `slack` more), `to_writer` and
/// `serialized_size`.
fn every_output<T: Serialize + ?Sized>(value: &T, slack: usize) -> Vec<u8> {
    let encoded = to_vec(value).unwrap();
    assert_eq!(serialized_size(value).unwrap(), encoded.len());
    let mut buf = vec![0; encoded.len() + slack];
    assert_eq!(to_slice(value, &mut buf).unwrap(), &encoded[..]);
    let mut written = Vec::new();
    to_writer(value, &mut written).unwrap();
    assert_eq!(written, encoded);
    encoded
}

/// A map whose `Serialize` announces `announced` as its length (or none),
/// whatever its entries.
struct Announcing {
    announced: Option<usize>,
    entries: Vec<(String, u32)>,
}

impl Serialize for Announcing {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(self.announced)?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[test]
fn a_wrong_or_missing_count_is_replaced_by_the_count_of_entries() {
    let entries: Vec<(String, u32)> = (0..300).map(|i| (format!("k{i}"), i)).collect();
    for len in [0, 1, 2, 9, 247, 248, 300] {
        let entries = entries[..len].to_vec();
        let expected = sorted_by_hand(&entries);
        for announced in [None, Some(0), Some(len), Some(len + 1), Some(1 << 20)] {
            let map = Announcing {
                announced,
                entries: entries.clone(),
            };
            // A count announced longer than the real one takes its room
            // until the map ends.
            let slack = bijou_core::bijou64::encoded_len(announced.unwrap_or(0) as u64);
            assert_eq!(
                every_output(&map, slack),
                expected,
                "{len} entries, {announced:?}"
            );
        }
    }
}

#[test]
fn a_count_that_grows_past_the_slice_is_buffer_full() {
    let map = Announcing {
        announced: None,
        entries: vec![("a".into(), 1)],
    };
    let mut buf = [0; 3];
    let error = to_slice(&map, &mut buf).unwrap_err();
    assert!(matches!(
        error.kind(),
        ErrorKind::BufferFull { needed: 1, .. }
    ));
    let mut buf = [0; 4];
    assert_eq!(to_slice(&map, &mut buf).unwrap(), [0x01, 0x01, b'a', 0x01]);
}

#[test]
fn equal_keys_are_found_in_order_and_out_of_order() {
    let keys = |keys: &[&str]| keys.iter().map(|k| (*k).to_owned()).collect::<Vec<_>>();
    for keys in [
        // In order, out of order in a short map, out of order in a long one.
        keys(&["b", "b"]),
        keys(&["cc", "a", "cc"]),
        (0..12).rev().map(|i| format!("k{}", i % 10)).collect(),
    ] {
        let map = Announcing {
            announced: Some(keys.len()),
            entries: keys.iter().cloned().zip(0..).collect(),
        };
        let error = to_vec(&(7u8, &map)).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::DuplicateMapKey { offset: 1 }),
            "{keys:?}: {error}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn maps_encode_as_their_entries_sorted_by_key_bytes(
        pairs in prop::collection::hash_map(
            ".{0,5}",
            prop::collection::hash_map(any::<u16>(), ".{0,3}", 0..12),
            0..24,
        ),
    ) {
        // Out of order (a HashMap), in order (a BTreeMap of u16 keys), and
        // nested: each inner map is sorted inside an outer entry that
        // moves afterwards.
        let inner: Vec<(String, Vec<u8>)> = pairs
            .iter()
            .map(|(k, v)| {
                let entries: Vec<(u16, &String)> = v.iter().map(|(a, b)| (*a, b)).collect();
                (k.clone(), sorted_by_hand(&entries))
            })
            .collect();
        let mut expected: Vec<Vec<u8>> = inner
            .iter()
            .map(|(k, v)| [to_vec(k).unwrap(), v.clone()].concat())
            .collect();
        expected.sort();
        let expected = [to_vec(&expected.len()).unwrap(), expected.concat()].concat();
        prop_assert_eq!(every_output(&pairs, 0), expected.clone());
        let sorted: BTreeMap<&String, BTreeMap<u16, &String>> = pairs
            .iter()
            .map(|(k, v)| (k, v.iter().map(|(a, b)| (*a, b)).collect()))
            .collect();
        prop_assert_eq!(every_output(&sorted, 0), expected);
    }

    #[test]
    fn maps_in_a_sequence_reuse_the_scratch_alike(
        maps in prop::collection::vec(prop::collection::hash_map(any::<i32>(), any::<bool>(), 0..20), 0..6),
    ) {
        let maps: Vec<HashMap<i32, bool>> = maps;
        let expected: Vec<u8> = [
            to_vec(&maps.len()).unwrap(),
            maps.iter()
                .map(|m| sorted_by_hand(&m.iter().collect::<Vec<_>>()))
                .collect::<Vec<_>>()
                .concat(),
        ]
        .concat();
        prop_assert_eq!(every_output(&maps, 0), expected);
    }
}
