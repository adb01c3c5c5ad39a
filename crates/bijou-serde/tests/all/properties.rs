//! The guarantee as properties: every value of a rich derived type
//! round-trips (NaN coming back canonical), and every byte string the
//! decoder accepts re-encodes to itself, whether arbitrary or a mutation
//! of a valid encoding; a `HashMap` encodes the same in any order.

use std::collections::{BTreeMap, HashMap};

use bijou_serde::{NAN_F32_BITS, NAN_F64_BITS, from_slice, take_from_slice, to_vec};
use proptest::prelude::*;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

#[derive(Serialize, Deserialize, Debug, Clone)]
struct UnitStruct;

#[derive(Serialize, Deserialize, Debug, Clone)]
struct Newtype(u32);

#[derive(Serialize, Deserialize, Debug, Clone)]
enum Shape {
    Unit,
    Newtype(f64),
    Tuple(i16, char),
    Struct { name: String, size: Option<u64> },
}

#[derive(Serialize, Deserialize, Debug, Clone)]
struct Inner {
    ratio: f32,
    flags: BTreeMap<i32, Option<bool>>,
}

/// Every primitive, nested collections, maps and enums of each shape.
#[derive(Serialize, Deserialize, Debug, Clone)]
struct Rich {
    yes: bool,
    small: (u8, i8),
    u16: u16,
    u32: u32,
    u64: u64,
    u128: u128,
    i16: i16,
    i32: i32,
    i64: i64,
    i128: i128,
    f32: f32,
    f64: f64,
    letter: char,
    text: String,
    bytes: Vec<u8>,
    maybe: Option<i64>,
    unit: (),
    unit_struct: UnitStruct,
    newtype: Newtype,
    tuple: (u8, String, Option<char>),
    array: [u16; 3],
    nested: Vec<Vec<u16>>,
    map: BTreeMap<String, Vec<Shape>>,
    hash: HashMap<u64, i8>,
    shapes: Vec<Shape>,
    inner: Vec<Inner>,
}

/// Floats with the edges named: ±0, ±inf, subnormals, NaNs with any sign
/// and payload (every bit pattern), and ordinary values.
fn f64s() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(-0.0),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(f64::from_bits(1)),
        Just(-f64::MIN_POSITIVE / 2.0),
        Just(f64::NAN),
        any::<u64>().prop_map(|payload| f64::from_bits(0x7FF0_0000_0000_0001 | payload)),
        any::<u64>().prop_map(f64::from_bits),
        any::<f64>(),
    ]
}

fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0),
        Just(-0.0),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(f32::from_bits(1)),
        Just(-f32::MIN_POSITIVE / 2.0),
        any::<u32>().prop_map(|payload| f32::from_bits(0x7F80_0001 | payload)),
        any::<u32>().prop_map(f32::from_bits),
    ]
}

fn shapes() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Unit),
        f64s().prop_map(Shape::Newtype),
        (any::<i16>(), any::<char>()).prop_map(|(a, b)| Shape::Tuple(a, b)),
        (".{0,8}", any::<Option<u64>>()).prop_map(|(name, size)| Shape::Struct { name, size }),
    ]
}

fn inners() -> impl Strategy<Value = Inner> {
    (
        f32s(),
        prop::collection::btree_map(any::<i32>(), any::<Option<bool>>(), 0..4),
    )
        .prop_map(|(ratio, flags)| Inner { ratio, flags })
}

prop_compose! {
    fn riches()(
        numbers in (any::<bool>(), any::<(u8, i8)>(), any::<u16>(), any::<u32>(), any::<u64>(), any::<u128>(),
                    any::<i16>(), any::<i32>(), any::<i64>(), any::<i128>()),
        floats in (f32s(), f64s()),
        letter in any::<char>(),
        text in ".{0,12}",
        bytes in prop::collection::vec(any::<u8>(), 0..12),
        maybe in any::<Option<i64>>(),
        newtype in any::<u32>(),
        tuple in (any::<u8>(), ".{0,4}", any::<Option<char>>()),
        array in any::<[u16; 3]>(),
        nested in prop::collection::vec(prop::collection::vec(any::<u16>(), 0..4), 0..4),
        map in prop::collection::btree_map(".{0,6}", prop::collection::vec(shapes(), 0..3), 0..4),
        hash in prop::collection::hash_map(any::<u64>(), any::<i8>(), 0..6),
        shapes in prop::collection::vec(shapes(), 0..4),
        inner in prop::collection::vec(inners(), 0..3),
    ) -> Rich {
        let (yes, small, u16, u32, u64, u128, i16, i32, i64, i128) = numbers;
        Rich {
            yes, small, u16, u32, u64, u128, i16, i32, i64, i128,
            f32: floats.0, f64: floats.1, letter, text, bytes, maybe, unit: (), unit_struct: UnitStruct,
            newtype: Newtype(newtype), tuple, array, nested, map, hash, shapes, inner,
        }
    }
}

/// `value` with its NaNs made canonical, as decoding gives it back: `Debug`
/// shows every NaN alike, so the bits are checked through the encoding.
/// The `HashMap` is compared apart (its `Debug` order is its own).
fn debug_without_hash(value: &Rich) -> String {
    let mut value = value.clone();
    value.hash.clear();
    format!("{value:?}")
}

/// Whatever `input` decodes to as a `T` re-encodes to `input`, and
/// whatever a prefix of it decodes to re-encodes to that prefix.
fn accepted_reencodes<T: Serialize + DeserializeOwned>(input: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(value) = from_slice::<T>(input) {
        prop_assert_eq!(
            to_vec(&value).unwrap(),
            input,
            "accepted bytes re-encode differently"
        );
    }
    if let Ok((value, rest)) = take_from_slice::<T>(input) {
        let prefix = &input[..input.len() - rest.len()];
        prop_assert_eq!(
            to_vec(&value).unwrap(),
            prefix,
            "an accepted prefix re-encodes differently"
        );
    }
    Ok(())
}

/// [`accepted_reencodes`] for several types, small ones first, so that
/// arbitrary bytes are often accepted by at least one.
fn accepted_reencodes_as_each(input: &[u8]) -> Result<(), TestCaseError> {
    accepted_reencodes::<u64>(input)?;
    accepted_reencodes::<(bool, Option<bool>, char)>(input)?;
    accepted_reencodes::<(f64, f32)>(input)?;
    accepted_reencodes::<(u16, i16, i128)>(input)?;
    accepted_reencodes::<(i16, Option<char>, String)>(input)?;
    accepted_reencodes::<Shape>(input)?;
    accepted_reencodes::<Vec<Shape>>(input)?;
    accepted_reencodes::<BTreeMap<i32, f32>>(input)?;
    accepted_reencodes::<HashMap<String, Option<u8>>>(input)?;
    accepted_reencodes::<(f64, Vec<u16>, Inner)>(input)?;
    accepted_reencodes::<Rich>(input)
}

/// Bytes weighted towards those the format gives meaning to: small
/// values (tags, counts, bools), varint tags (`F0`–`FF`) and any byte.
fn format_bytes() -> impl Strategy<Value = u8> {
    prop_oneof![any::<u8>(), 0u8..4, 0xF0u8..=0xFF]
}

/// One edit of `bytes`: a byte replaced, deleted or inserted, or a cut.
#[derive(Debug, Clone)]
enum Mutation {
    Replace(usize, u8),
    Delete(usize),
    Insert(usize, u8),
    Truncate(usize),
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let one = prop_oneof![
        (any::<usize>(), format_bytes()).prop_map(|(at, b)| Mutation::Replace(at, b)),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), format_bytes()).prop_map(|(at, b)| Mutation::Insert(at, b)),
        any::<usize>().prop_map(Mutation::Truncate),
    ];
    prop::collection::vec(one, 1..4)
}

fn mutate(bytes: &mut Vec<u8>, mutations: &[Mutation]) {
    for mutation in mutations {
        let len = bytes.len();
        match *mutation {
            Mutation::Replace(at, b) if len > 0 => bytes[at % len] = b,
            Mutation::Delete(at) if len > 0 => {
                bytes.remove(at % len);
            }
            Mutation::Insert(at, b) => bytes.insert(at % (len + 1), b),
            Mutation::Truncate(at) => bytes.truncate(at % (len + 1)),
            _ => {}
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn rich_values_round_trip(value in riches()) {
        let encoded = to_vec(&value).unwrap();
        let decoded: Rich = from_slice(&encoded).unwrap();
        prop_assert_eq!(debug_without_hash(&decoded), debug_without_hash(&value));
        prop_assert_eq!(&decoded.hash, &value.hash);
        prop_assert_eq!(to_vec(&decoded).unwrap(), encoded);
        prop_assert_eq!(decoded.f32.to_bits(), if value.f32.is_nan() { NAN_F32_BITS } else { value.f32.to_bits() });
        prop_assert_eq!(decoded.f64.to_bits(), if value.f64.is_nan() { NAN_F64_BITS } else { value.f64.to_bits() });
    }

    #[test]
    fn floats_round_trip_bit_for_bit_with_one_nan(x in f64s(), y in f32s()) {
        let (a, b): (f64, f32) = from_slice(&to_vec(&(x, y)).unwrap()).unwrap();
        prop_assert_eq!(a.to_bits(), if x.is_nan() { NAN_F64_BITS } else { x.to_bits() });
        prop_assert_eq!(b.to_bits(), if y.is_nan() { NAN_F32_BITS } else { y.to_bits() });
    }

    #[test]
    fn serialized_size_is_the_length_of_the_encoding(value in riches()) {
        let encoded = to_vec(&value).unwrap();
        prop_assert_eq!(bijou_serde::serialized_size(&value).unwrap(), encoded.len());
        let mut exact = vec![0; encoded.len()];
        prop_assert_eq!(bijou_serde::to_slice(&value, &mut exact).unwrap(), &encoded[..]);
    }

    #[test]
    fn arbitrary_bytes_that_decode_reencode_to_themselves(input in prop::collection::vec(format_bytes(), 0..48)) {
        accepted_reencodes_as_each(&input)?;
    }

    #[test]
    fn mutated_encodings_that_decode_reencode_to_themselves(value in riches(), edits in mutations()) {
        let mut bytes = to_vec(&value).unwrap();
        mutate(&mut bytes, &edits);
        accepted_reencodes::<Rich>(&bytes)?;
    }

    #[test]
    fn mutated_small_encodings_that_decode_reencode_to_themselves(
        value in (any::<bool>(), any::<Option<bool>>(), any::<i16>(), any::<Option<char>>(), ".{0,4}", f64s(), f32s()),
        map in prop::collection::btree_map(any::<i32>(), f32s(), 0..4),
        edits in mutations(),
    ) {
        let mut bytes = to_vec(&value).unwrap();
        mutate(&mut bytes, &edits);
        accepted_reencodes::<(bool, Option<bool>, i16, Option<char>, String, f64, f32)>(&bytes)?;
        let mut bytes = to_vec(&map).unwrap();
        mutate(&mut bytes, &edits);
        accepted_reencodes::<BTreeMap<i32, f32>>(&bytes)?;
    }

    #[test]
    fn a_hash_map_encodes_the_same_in_any_order(
        pairs in prop::collection::vec((".{0,6}", any::<i64>()), 0..24),
        rotation in any::<usize>(),
    ) {
        let mut rotated = pairs.clone();
        if !rotated.is_empty() {
            let len = rotated.len();
            rotated.rotate_left(rotation % len);
        }
        let map: HashMap<String, i64> = pairs.iter().cloned().collect();
        let other: HashMap<String, i64> = rotated.into_iter().rev().collect();
        // Later duplicates win in `collect`; keep the maps equal.
        prop_assume!(map == other);
        let btree: BTreeMap<String, i64> = map.clone().into_iter().collect();
        let encoded = to_vec(&map).unwrap();
        prop_assert_eq!(&to_vec(&other).unwrap(), &encoded);
        prop_assert_eq!(&to_vec(&btree).unwrap(), &encoded);
        prop_assert_eq!(from_slice::<HashMap<String, i64>>(&encoded).unwrap(), map);
    }
}
