//! bijou-serde's canonical property on arbitrary bytes: decoding never
//! panics, and whatever `from_slice` accepts, `to_vec` returns unchanged;
//! whatever `take_from_slice` accepts from the front of the input
//! re-encodes to exactly the bytes it consumed. Checked for several types
//! that between them use every part of the format (each integer width,
//! floats, chars, strings, bytes, options, sequences, tuples, structs,
//! enums of each variant shape, maps with sorted keys).
//!
//! `cargo xtask fuzz` runs this target with `-malloc_limit_mb=1`, and the
//! replay of the kept corpus checks the same bound: the decoder sizes
//! nothing by a length the input has not shown it holds, and inputs are
//! far below 1 MiB.
//!
//! Input: byte 0 picks the type (modulo [`TYPES`]' length); the rest is
//! the encoding.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize, de::DeserializeOwned};

#[derive(Serialize, Deserialize, Debug)]
enum Shape {
    Unit,
    Newtype(f64),
    Tuple(i16, char),
    Struct { name: String, size: Option<u64> },
}

#[derive(Serialize, Deserialize, Debug)]
struct Unit;

#[derive(Serialize, Deserialize, Debug)]
struct Record {
    id: u128,
    delta: i128,
    small: (u8, i8, u16, i32, i64),
    ratio: f32,
    flags: Vec<bool>,
    unit: Unit,
    #[serde(with = "bytes")]
    blob: Vec<u8>,
    shapes: Vec<Shape>,
    index: BTreeMap<u32, Option<Shape>>,
}

/// `Vec<u8>` through serde's bytes methods rather than as a sequence.
mod bytes {
    pub(super) fn serialize<S: serde::Serializer>(value: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(value)
    }

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        <&[u8]>::deserialize(d).map(<[u8]>::to_vec)
    }

    use serde::Deserialize;
}

/// The property for one type.
fn check<T: Serialize + DeserializeOwned + std::fmt::Debug>(input: &[u8]) {
    if let Ok(value) = bijou_serde::from_slice::<T>(input) {
        let encoded = bijou_serde::to_vec(&value).expect("a decoded value encodes");
        assert_eq!(encoded, input, "{value:?} re-encodes differently");
    }
    if let Ok((value, rest)) = bijou_serde::take_from_slice::<T>(input) {
        let used = &input[..input.len() - rest.len()];
        let encoded = bijou_serde::to_vec(&value).expect("a decoded value encodes");
        assert_eq!(encoded, used, "{value:?} re-encodes differently from its prefix");
    }
}

/// The types byte 0 picks from.
pub const TYPES: [fn(&[u8]); 8] = [
    check::<(bool, Option<char>, i16, String)>,
    check::<Vec<Shape>>,
    check::<BTreeMap<i32, f32>>,
    check::<HashMap<String, Option<u8>>>,
    check::<Record>,
    check::<(f64, f32, u64, u32)>,
    check::<Vec<Vec<u8>>>,
    check::<Option<BTreeMap<(u8, String), Vec<Shape>>>>,
];

/// Runs the checks on one input; panics if any fails.
pub fn run(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    TYPES[usize::from(selector) % TYPES.len()](input);
}
