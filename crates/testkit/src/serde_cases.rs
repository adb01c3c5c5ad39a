//! The bijou-serde vectors (`vectors/serde/`): their parser, the types
//! they name, and the check of one vector against `bijou-serde`.

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::records::{VectorError, error, parse_hex, records};

/// What a vector expects from decoding its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SerdeExpect {
    /// Decodes to a value whose `Debug` is this text, and that value
    /// encodes to exactly the bytes.
    Value(String),
    /// Decoding fails with this `bijou_serde::Error` variant, naming this
    /// byte offset.
    Error {
        /// The variant's name.
        variant: String,
        /// The offset the error names.
        offset: usize,
    },
}

/// One line of a bijou-serde vector file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SerdeCase {
    /// 1-based line in the file.
    pub line: usize,
    /// A name from [`TYPES`].
    pub ty: String,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Expected outcome.
    pub expect: SerdeExpect,
}

/// A unit struct.
#[derive(Serialize, Deserialize, Debug)]
pub struct UnitStruct;

/// A newtype struct.
#[derive(Serialize, Deserialize, Debug)]
pub struct Newtype(pub u32);

/// An enum with a variant of each shape.
#[derive(Serialize, Deserialize, Debug)]
#[allow(missing_docs)]
pub enum Shape {
    Unit,
    Newtype(u8),
    Tuple(u8, bool),
    Struct { a: u8, b: Option<u8> },
}

/// A struct with a string, a sequence and a float.
#[derive(Serialize, Deserialize, Debug)]
#[allow(missing_docs)]
pub struct Record {
    pub id: u64,
    pub name: String,
    pub tags: Vec<String>,
    pub score: f32,
}

/// A byte string through serde's `bytes` methods (a `Vec<u8>` is a
/// sequence of `u8`).
#[derive(Debug)]
pub struct Bytes(pub Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
        }
        deserializer.deserialize_byte_buf(Visitor)
    }
}

/// Calls `$run::<T>()` for the type a vector names, or `$unknown`.
macro_rules! by_type {
    ($name:expr, $run:ident, $unknown:expr; $($ty_name:literal => $ty:ty,)*) => {
        match $name {
            $($ty_name => $run::<$ty>(),)*
            _ => $unknown,
        }
    };
}

/// `by_type!` with the vector files' type names.
macro_rules! vector_types {
    ($name:expr, $run:ident, $unknown:expr) => {
        by_type!($name, $run, $unknown;
            "bool" => bool,
            "u8" => u8,
            "i8" => i8,
            "u16" => u16,
            "i16" => i16,
            "u32" => u32,
            "i32" => i32,
            "u64" => u64,
            "i64" => i64,
            "u128" => u128,
            "i128" => i128,
            "f32" => f32,
            "f64" => f64,
            "char" => char,
            "string" => String,
            "bytes" => Bytes,
            "option_u32" => Option<u32>,
            "unit" => (),
            "unit_struct" => UnitStruct,
            "newtype" => Newtype,
            "tuple" => (u8, String, bool),
            "array_u8_3" => [u8; 3],
            "vec_u16" => Vec<u16>,
            "record" => Record,
            "shape" => Shape,
            "nested" => Vec<Option<Shape>>,
            "map_u32_bool" => BTreeMap<u32, bool>,
            "map_string_u8" => BTreeMap<String, u8>,
            "map_i32_unit" => BTreeMap<i32, ()>,
        )
    };
}

/// Whether a vector file may name `ty`.
pub fn is_type(ty: &str) -> bool {
    // Only the match on the name matters here; the type is unused.
    #[allow(clippy::extra_unused_type_parameters)]
    fn known<T>() -> bool {
        true
    }
    vector_types!(ty, known, false)
}

/// Parses a bijou-serde vector file: `#` comments and blank lines, then
/// lines of `TYPE HEX EXPECTED`, where EXPECTED (the rest of the line) is a
/// value's `Debug` text or `error:VARIANT@OFFSET`.
pub fn parse(source_name: &str, text: &str) -> Result<Vec<SerdeCase>, VectorError> {
    let mut cases = Vec::new();
    for (line, fields) in records(text) {
        let [ty, hex, expected @ ..] = &fields[..] else {
            return Err(error(source_name, line, "expected `TYPE HEX EXPECTED`"));
        };
        if expected.is_empty() {
            return Err(error(source_name, line, "expected `TYPE HEX EXPECTED`"));
        }
        if !is_type(ty) {
            return Err(error(source_name, line, format!("unknown type `{ty}`")));
        }
        let bytes =
            parse_hex(hex).ok_or_else(|| error(source_name, line, format!("bad hex `{hex}`")))?;
        let expected = expected.join(" ");
        let expect = match expected.strip_prefix("error:") {
            None => SerdeExpect::Value(expected),
            Some(error_text) => {
                let parsed = error_text
                    .split_once('@')
                    .and_then(|(variant, offset)| Some((variant, offset.parse().ok()?)))
                    .filter(|(variant, _)| variant.bytes().all(|b| b.is_ascii_alphanumeric()));
                let Some((variant, offset)) = parsed else {
                    return Err(error(
                        source_name,
                        line,
                        format!("bad error `{expected}`: expected error:VARIANT@OFFSET"),
                    ));
                };
                SerdeExpect::Error {
                    variant: variant.to_owned(),
                    offset,
                }
            }
        };
        cases.push(SerdeCase {
            line,
            ty: (*ty).to_owned(),
            bytes,
            expect,
        });
    }
    if cases.is_empty() {
        return Err(error(source_name, 0, "no vectors found"));
    }
    Ok(cases)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

/// Checks one vector: decoding its bytes as its type gives the expected
/// value, which encodes back to the bytes, or the expected error.
///
/// # Errors
///
/// A message naming the input, what was expected and what happened.
pub fn run(case: &SerdeCase) -> Result<(), String> {
    let check = || -> Result<(), String> {
        fn typed<T: Serialize + DeserializeOwned + Debug>() -> fn(&SerdeCase) -> Result<(), String>
        {
            check::<T>
        }
        let checker = vector_types!(
            case.ty.as_str(),
            typed,
            return Err(format!("unknown type `{}`", case.ty))
        );
        checker(case)
    };
    check().map_err(|e| format!("{} {}: {e}", case.ty, hex(&case.bytes)))
}

fn check<T: Serialize + DeserializeOwned + Debug>(case: &SerdeCase) -> Result<(), String> {
    let decoded = bijou_serde::from_slice::<T>(&case.bytes);
    match (&case.expect, decoded) {
        (SerdeExpect::Value(expected), Ok(value)) => {
            let shown = format!("{value:?}");
            if shown != *expected {
                return Err(format!("expected {expected}, decoded {shown}"));
            }
            let encoded =
                bijou_serde::to_vec(&value).map_err(|e| format!("re-encoding failed: {e}"))?;
            if encoded != case.bytes {
                return Err(format!("{shown} re-encodes to {}", hex(&encoded)));
            }
            Ok(())
        }
        (SerdeExpect::Value(expected), Err(error)) => {
            Err(format!("expected {expected}, got error {error:?}"))
        }
        (SerdeExpect::Error { variant, offset }, Err(error)) => {
            let shown = format!("{error:?}");
            let name = shown.split([' ', '(']).next().unwrap_or("");
            if name != variant || error.offset() != *offset {
                return Err(format!("expected error {variant}@{offset}, got {shown}"));
            }
            Ok(())
        }
        (SerdeExpect::Error { variant, offset }, Ok(value)) => Err(format!(
            "expected error {variant}@{offset}, decoded {value:?}"
        )),
    }
}
