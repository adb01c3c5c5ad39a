//! Each rule of docs/SERDE.md on hand-picked values and on the inputs each
//! rule refuses, with the error and its offset.

use std::collections::{BTreeMap, HashMap};

use bijou_serde::{ErrorKind, from_slice, take_from_slice, to_slice, to_vec, to_writer};
use serde::{Deserialize, Serialize};

fn encodes<T: Serialize>(value: T, expected: &[u8]) {
    assert_eq!(to_vec(&value).unwrap(), expected);
}

fn refused<'de, T: Deserialize<'de> + core::fmt::Debug>(input: &'de [u8]) -> ErrorKind {
    from_slice::<T>(input)
        .expect_err("input must be refused")
        .into_kind()
}

#[test]
fn integers_are_bijou_and_u8_i8_raw_bytes() {
    encodes(0xFFu8, &[0xFF]);
    encodes(-1i8, &[0xFF]);
    encodes(251u16, &[0xFB]);
    encodes(252u16, &[0xFC, 0x00]);
    encodes(u16::MAX, &[0xFD, 0xFE, 0x03]);
    encodes(-1i16, &[0x01]);
    encodes(i16::MIN, &[0xFD, 0xFE, 0x03]);
    encodes(300u32, &[0xFC, 0x30]);
    encodes(300u64, &[0xF8, 0x34]);
    encodes(300u128, &[0xF0, 0x3C]);
    encodes(-300i32, &[0xFD, 0x00, 0x5B]);
    encodes(-300i64, &[0xF9, 0x00, 0x5F]);
    encodes(-300i128, &[0xF1, 0x00, 0x67]);
    assert_eq!(from_slice::<u16>(&[0xFD, 0xFE, 0x03]).unwrap(), u16::MAX);
    assert_eq!(from_slice::<i16>(&[0xFD, 0xFE, 0x03]).unwrap(), i16::MIN);
}

#[test]
fn integers_out_of_range_are_refused() {
    // 65536 is a valid bijou32 but not a u16.
    assert!(matches!(
        refused::<u16>(&[0xFD, 0xFE, 0x04]),
        ErrorKind::IntegerOverflow {
            offset: 0,
            ty: "u16"
        }
    ));
    // zigzag 65536 is 32768, one past i16::MAX.
    assert!(matches!(
        refused::<(u8, i16)>(&[0x00, 0xFD, 0xFE, 0x04]),
        ErrorKind::IntegerOverflow {
            offset: 1,
            ty: "i16"
        }
    ));
    assert!(matches!(
        refused::<u32>(&[0xFF; 5]),
        ErrorKind::IntegerOverflow {
            offset: 0,
            ty: "u32"
        }
    ));
    assert!(matches!(
        refused::<u64>(&[0xF9, 0x00]),
        ErrorKind::Truncated {
            offset: 2,
            needed: 1
        }
    ));
}

#[test]
fn bool_and_option_tags_are_0_or_1() {
    encodes(true, &[0x01]);
    encodes(None::<u8>, &[0x00]);
    encodes(Some(5u8), &[0x01, 0x05]);
    assert!(matches!(
        refused::<bool>(&[0x02]),
        ErrorKind::InvalidBool { offset: 0, byte: 2 }
    ));
    assert!(matches!(
        refused::<(bool, Option<u8>)>(&[0x00, 0x02, 0x05]),
        ErrorKind::InvalidOption { offset: 1, byte: 2 }
    ));
}

#[test]
fn char_is_a_scalar_value() {
    encodes('A', &[0x41]);
    encodes('\u{10FFFF}', &[0xFE, 0x0F, 0xFE, 0x03]);
    assert_eq!(
        from_slice::<char>(&[0xFE, 0x0F, 0xFE, 0x03]).unwrap(),
        '\u{10FFFF}'
    );
    let surrogate = to_vec(&0xD800u32).unwrap();
    assert!(matches!(
        refused::<char>(&surrogate),
        ErrorKind::InvalidChar {
            offset: 0,
            value: 0xD800
        }
    ));
    let too_big = to_vec(&0x11_0000u32).unwrap();
    assert!(matches!(
        refused::<char>(&too_big),
        ErrorKind::InvalidChar {
            value: 0x11_0000,
            ..
        }
    ));
}

#[test]
fn floats_are_fixed_width_with_one_nan() {
    encodes(1.0f32, &1.0f32.to_le_bytes());
    encodes(-0.0f64, &(-0.0f64).to_le_bytes());
    let odd_nan = f64::from_bits(0xFFF8_0000_0000_0001);
    assert!(odd_nan.is_nan());
    encodes(odd_nan, &bijou_serde::NAN_F64_BITS.to_le_bytes());
    encodes(-f32::NAN, &bijou_serde::NAN_F32_BITS.to_le_bytes());
    assert!(
        from_slice::<f32>(&bijou_serde::NAN_F32_BITS.to_le_bytes())
            .unwrap()
            .is_nan()
    );
    assert!(matches!(
        refused::<(u8, f64)>(&[&[0u8][..], &0xFFF8_0000_0000_0001u64.to_le_bytes()].concat()),
        ErrorKind::NonCanonicalNan { offset: 1 }
    ));
    assert!(matches!(
        refused::<f32>(&0x7FC0_0001u32.to_le_bytes()),
        ErrorKind::NonCanonicalNan { offset: 0 }
    ));
    // -0.0 is its own value, not 0.0.
    assert_eq!(
        from_slice::<f64>(&(-0.0f64).to_le_bytes())
            .unwrap()
            .to_bits(),
        (-0.0f64).to_bits()
    );
    assert!(matches!(
        refused::<f64>(&[0; 7]),
        ErrorKind::Truncated {
            offset: 7,
            needed: 1
        }
    ));
}

#[test]
fn strings_and_bytes_are_length_prefixed() {
    encodes("hé", &[0x03, b'h', 0xC3, 0xA9]);
    encodes(serde_bytes_like(&[1, 2]), &[0x02, 0x01, 0x02]);
    assert_eq!(from_slice::<&str>(&[0x03, b'h', 0xC3, 0xA9]).unwrap(), "hé");
    assert!(matches!(
        refused::<String>(&[0x02, 0xC3, 0x28]),
        ErrorKind::InvalidUtf8 { offset: 1 }
    ));
    assert!(matches!(
        refused::<(u8, String)>(&[0x09, 0xF8, 0x00, b'a']),
        ErrorKind::LengthExceedsInput {
            offset: 1,
            len: 248,
            available: 1
        }
    ));
    // A length no input could hold is refused before anything is allocated.
    let mut huge = vec![0xFF];
    huge.extend_from_slice(&[0xFE; 7]);
    huge.push(0x07);
    assert!(matches!(
        refused::<String>(&huge),
        ErrorKind::LengthExceedsInput {
            len: u64::MAX,
            available: 0,
            ..
        }
    ));
}

/// A byte string through `serialize_bytes`, without a helper crate.
fn serde_bytes_like(bytes: &[u8]) -> impl Serialize + '_ {
    struct Bytes<'a>(&'a [u8]);
    impl Serialize for Bytes<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    Bytes(bytes)
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Unit;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Newtype(u32);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Unit,
    Newtype(u8),
    Tuple(u8, bool),
    Struct { a: u8, b: Option<u8> },
}

#[test]
fn units_structs_tuples_and_enums() {
    encodes((), &[]);
    encodes(Unit, &[]);
    encodes(Newtype(300), &[0xFC, 0x30]);
    encodes((1u8, 2u16, "x"), &[0x01, 0x02, 0x01, b'x']);
    encodes(Shape::Unit, &[0x00]);
    encodes(Shape::Newtype(7), &[0x01, 0x07]);
    encodes(Shape::Tuple(7, true), &[0x02, 0x07, 0x01]);
    encodes(Shape::Struct { a: 7, b: None }, &[0x03, 0x07, 0x00]);
    encodes(vec![1u16, 300], &[0x02, 0x01, 0xFC, 0x30]);
    encodes([9u8; 3], &[9, 9, 9]);
    assert_eq!(
        from_slice::<Vec<Shape>>(&[0x02, 0x00, 0x03, 0x07, 0x01, 0x08]).unwrap(),
        [Shape::Unit, Shape::Struct { a: 7, b: Some(8) }]
    );
    let unknown = refused::<(u8, Shape)>(&[0x00, 0x04]);
    assert!(
        matches!(unknown, ErrorKind::Custom { offset: 1, .. }),
        "{unknown:?}"
    );
    assert!(unknown.to_string().contains("integer `4`"), "{unknown}");
}

#[test]
fn maps_are_sorted_by_encoded_key_and_checked() {
    // 300 encodes as FC 30, 5 as 05: numeric order is memcmp order.
    let map: BTreeMap<u32, bool> = [(300, true), (5, false)].into();
    encodes(&map, &[0x02, 0x05, 0x00, 0xFC, 0x30, 0x01]);
    // Signed keys sort in zigzag order: 1 (02) after -1 (01).
    let signed: BTreeMap<i32, ()> = [(1, ()), (-1, ())].into();
    encodes(&signed, &[0x02, 0x01, 0x02]);
    // Strings by length first, since the length comes first.
    let strings: BTreeMap<&str, u8> = [("b", 1), ("aa", 2)].into();
    encodes(&strings, &[0x02, 0x01, b'b', 0x01, 0x02, b'a', b'a', 0x02]);
    assert_eq!(
        from_slice::<BTreeMap<&str, u8>>(&[0x02, 0x01, b'b', 0x01, 0x02, b'a', b'a', 0x02])
            .unwrap(),
        strings
    );
    assert!(matches!(
        refused::<BTreeMap<u32, bool>>(&[0x02, 0xFC, 0x30, 0x01, 0x05, 0x00]),
        ErrorKind::UnsortedMapKey { offset: 4 }
    ));
    assert!(matches!(
        refused::<HashMap<u32, bool>>(&[0x02, 0x05, 0x01, 0x05, 0x00]),
        ErrorKind::DuplicateMapKey { offset: 3 }
    ));
}

#[test]
fn a_hash_map_encodes_the_same_whatever_its_order() {
    let pairs: Vec<(String, u64)> = (0..200).map(|i| (format!("k{i}"), i * 1000)).collect();
    let forward: HashMap<String, u64> = pairs.iter().cloned().collect();
    let backward: HashMap<String, u64> = pairs.iter().rev().cloned().collect();
    // The expected bytes, built by hand: the entries sorted by their
    // encoded keys (length first, so "k9" before "k10").
    let mut entries: Vec<(Vec<u8>, Vec<u8>)> = pairs
        .iter()
        .map(|(k, v)| (to_vec(k).unwrap(), to_vec(v).unwrap()))
        .collect();
    entries.sort();
    let mut expected = to_vec(&entries.len()).unwrap();
    for (key, value) in &entries {
        expected.extend_from_slice(key);
        expected.extend_from_slice(value);
    }
    assert_eq!(to_vec(&forward).unwrap(), expected);
    assert_eq!(to_vec(&backward).unwrap(), expected);
    let decoded: HashMap<String, u64> = from_slice(&expected).unwrap();
    assert_eq!(decoded, forward);
}

#[test]
fn keys_that_encode_equal_are_an_encoding_error() {
    // Two different NaN keys (by bits) both encode as the canonical NaN.
    let mut map = std::collections::BTreeMap::new();
    map.insert(OrderedBits(f64::NAN.to_bits()), 1u8);
    map.insert(
        OrderedBits(f64::from_bits(0x7FF8_0000_0000_0001).to_bits()),
        2,
    );
    assert!(matches!(
        to_vec(&map).map_err(bijou_serde::Error::into_kind),
        Err(ErrorKind::DuplicateMapKey { offset: 0 })
    ));
}

/// An f64 key, ordered by its bits.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct OrderedBits(u64);

impl Serialize for OrderedBits {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(f64::from_bits(self.0))
    }
}

#[test]
fn self_describing_features_are_refused_clearly() {
    #[derive(Serialize, Deserialize, Debug)]
    #[serde(untagged)]
    enum Untagged {
        A(u8),
    }
    let bytes = to_vec(&Untagged::A(1)).unwrap();
    let error = refused::<Untagged>(&bytes);
    assert!(matches!(
        error,
        ErrorKind::NotSelfDescribing {
            offset: 0,
            method: "deserialize_any"
        }
    ));
    assert!(error.to_string().contains("untagged"), "{error}");

    #[derive(Serialize, Deserialize, Debug)]
    struct Skips {
        #[serde(skip_serializing_if = "Option::is_none")]
        a: Option<u8>,
        b: u8,
    }
    assert!(matches!(
        to_vec(&Skips { a: None, b: 1 }).map_err(bijou_serde::Error::into_kind),
        Err(ErrorKind::SkippedField {
            offset: 0,
            field: "a"
        })
    ));
    assert_eq!(
        to_vec(&Skips { a: Some(2), b: 1 }).unwrap(),
        [0x01, 0x02, 0x01]
    );
}

#[test]
fn a_sequence_without_a_length_is_an_encoding_error() {
    struct Unsized;
    impl Serialize for Unsized {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq((0..3u8).filter(|&x| x > 0))
        }
    }
    assert!(matches!(
        to_vec(&(1u8, Unsized)).map_err(bijou_serde::Error::into_kind),
        Err(ErrorKind::UnknownLength { offset: 1 })
    ));
}

#[test]
fn collect_str_writes_a_length_and_the_text() {
    struct Shown;
    impl Serialize for Shown {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("{}-{}", 12, "ab"))
        }
    }
    encodes(Shown, &[0x05, b'1', b'2', b'-', b'a', b'b']);
}

#[test]
fn whole_input_and_prefix_decoding() {
    assert!(matches!(
        refused::<u8>(&[0x01, 0x02, 0x03]),
        ErrorKind::TrailingBytes {
            offset: 1,
            extra: 2
        }
    ));
    assert_eq!(
        take_from_slice::<u8>(&[0x01, 0x02, 0x03]).unwrap(),
        (1, &[0x02, 0x03][..])
    );
    assert!(matches!(
        refused::<u8>(&[]),
        ErrorKind::Truncated {
            offset: 0,
            needed: 1
        }
    ));
}

#[test]
fn every_output_writes_the_same_bytes() {
    let value = (Shape::Tuple(1, false), "text", Some(-5i64), vec![1.5f32]);
    let expected = to_vec(&value).unwrap();
    let mut buf = [0u8; 64];
    assert_eq!(to_slice(&value, &mut buf).unwrap(), &expected[..]);
    let mut written = Vec::new();
    to_writer(&value, &mut written).unwrap();
    assert_eq!(written, expected);
    for short in 0..expected.len() {
        let mut buf = vec![0u8; short];
        let error = to_slice(&value, &mut buf).unwrap_err();
        assert!(
            matches!(error.kind(), ErrorKind::BufferFull { .. }),
            "{error:?}"
        );
        assert!(error.offset() <= short, "{error:?}");
    }
}

#[test]
fn a_failing_writer_reports_the_offset() {
    let mut buf = [0u8; 3];
    let error = to_writer(&"hello", &mut buf[..]).unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::Io { offset: 1, .. }),
        "{error:?}"
    );
    assert_eq!(
        std::io::Error::from(error).kind(),
        std::io::ErrorKind::WriteZero
    );
}

#[test]
fn nesting_is_bounded() {
    #[derive(Serialize, Deserialize, Debug)]
    struct Nest(Option<Box<Nest>>);
    let deep = (0..200).fold(Nest(None), |inner, _| Nest(Some(Box::new(inner))));
    let bytes = to_vec(&deep).unwrap();
    let error = refused::<Nest>(&bytes);
    assert!(matches!(error, ErrorKind::TooDeep { .. }), "{error:?}");
    let shallow = (0..40).fold(Nest(None), |inner, _| Nest(Some(Box::new(inner))));
    from_slice::<Nest>(&to_vec(&shallow).unwrap()).unwrap();
}

#[test]
fn counts_larger_than_the_input_preallocate_nothing_large() {
    // A count of u64::MAX u64s, with three bytes after it: refused as
    // truncated after at most those three elements.
    let mut input = vec![0xFF, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0x07];
    input.extend_from_slice(&[1, 2, 3]);
    assert!(matches!(
        refused::<Vec<u64>>(&input),
        ErrorKind::Truncated { offset: 12, .. }
    ));
    assert!(matches!(
        refused::<HashMap<u8, u8>>(&input),
        ErrorKind::Truncated { .. }
    ));
}
