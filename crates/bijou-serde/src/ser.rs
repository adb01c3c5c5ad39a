//! The serializer: each serde data-model type to its one encoding
//! (docs/SERDE.md). Maps are sorted in [`map`].

use bijou_core::{bijou32, bijou32s, bijou64, bijou64s, bijou128, bijou128s};
use serde::ser::{self, Serialize};

use crate::output::Output;
use crate::{Error, ErrorKind, NAN_F32_BITS, NAN_F64_BITS};

mod map;

/// A serde `Serializer` writing the bijou-serde format to an [`Output`].
///
/// `to_vec`, [`to_slice`](crate::to_slice) and `to_writer` wrap one;
/// use it directly to write
/// several values one after another.
///
/// # Examples
///
/// ```
/// use bijou_serde::Serializer;
/// use serde::Serialize;
///
/// let mut serializer = Serializer::new(Vec::new());
/// "hi".serialize(&mut serializer)?;
/// Some(300u64).serialize(&mut serializer)?;
/// assert_eq!(serializer.into_inner(), [0x02, b'h', b'i', 0x01, 0xF8, 0x34]);
/// # Ok::<(), bijou_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct Serializer<O> {
    out: O,
    /// Space for sorting maps, reused by every map of the value.
    #[cfg(feature = "alloc")]
    maps: map::Scratch,
}

/// `$int`: a `$width` varint, single bytes pushed directly.
macro_rules! varint {
    ($($int:ident: $width:ident;)*) => {$(
        #[inline]
        fn $int(&mut self, value: $int) -> Result<(), Error> {
            if value < $int::from($width::THRESHOLD) {
                return self.out.write_byte(value as u8);
            }
            let (block, len) = $width::encode_array(value);
            self.out.write_prefix(&block, len)
        }
    )*};
}

impl<O: Output> Serializer<O> {
    /// A serializer appending to `out`.
    pub fn new(out: O) -> Self {
        Serializer {
            out,
            #[cfg(feature = "alloc")]
            maps: map::Scratch::default(),
        }
    }

    /// The output back.
    pub fn into_inner(self) -> O {
        self.out
    }

    /// Bytes written to the output so far.
    pub fn position(&self) -> usize {
        self.out.position()
    }

    varint! {
        u32: bijou32;
        u64: bijou64;
    }

    #[inline]
    fn len(&mut self, len: usize) -> Result<(), Error> {
        self.u64(len as u64)
    }

    #[inline]
    fn length_prefixed(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.len(bytes.len())?;
        self.out.write(bytes)
    }
}

/// Writes a value whose length must be known in advance twice through
/// `fmt`: once to count, once to write (`collect_str` without an allocator).
struct Counter(usize);

impl core::fmt::Write for Counter {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// The second pass of `collect_str`: the text, into the output.
struct Writer<'a, O> {
    out: &'a mut O,
    left: usize,
    error: Option<Error>,
}

impl<O: Output> core::fmt::Write for Writer<'_, O> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        // A `Display` that writes more the second time would make the
        // length prefix a lie.
        let Some(left) = self.left.checked_sub(s.len()) else {
            return Err(core::fmt::Error);
        };
        self.left = left;
        self.out.write(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            core::fmt::Error
        })
    }
}

/// `serialize_$float`: the IEEE bits, little-endian, every NaN as `$nan`.
macro_rules! float {
    ($($method:ident: $float:ty => $nan:expr;)*) => {$(
        #[inline]
        fn $method(self, v: $float) -> Result<(), Error> {
            let bits = if v.is_nan() { $nan } else { v.to_bits() };
            self.out.write(&bits.to_le_bytes())
        }
    )*};
}

impl<'a, O: Output> ser::Serializer for &'a mut Serializer<O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = map::MapSerializer<'a, O>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.write_byte(u8::from(v))
    }

    /// One raw byte, like `u8`.
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.out.write_byte(v as u8)
    }

    #[inline]
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.u32(bijou32s::zigzag(i32::from(v)))
    }

    #[inline]
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.u32(bijou32s::zigzag(v))
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.u64(bijou64s::zigzag(v))
    }

    #[inline]
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        let (block, len) = bijou128s::encode_array(v);
        self.out.write_prefix(&block, len)
    }

    /// One raw byte: never longer than a varint, and `Vec<u8>` stays one
    /// byte per element.
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.out.write_byte(v)
    }

    #[inline]
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.u32(u32::from(v))
    }

    #[inline]
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.u32(v)
    }

    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.u64(v)
    }

    #[inline]
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        let (block, len) = bijou128::encode_array(v);
        self.out.write_prefix(&block, len)
    }

    float! {
        serialize_f32: f32 => NAN_F32_BITS;
        serialize_f64: f64 => NAN_F64_BITS;
    }

    #[inline]
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.u32(u32::from(v))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.length_prefixed(v.as_bytes())
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.length_prefixed(v)
    }

    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.out.write_byte(0)
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        self.out.write_byte(1)?;
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<(), Error> {
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Ok(())
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
    ) -> Result<(), Error> {
        self.u32(index)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.u32(index)?;
        value.serialize(self)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Error> {
        let Some(len) = len else {
            return Err(ErrorKind::UnknownLength {
                offset: self.position(),
            }
            .into());
        };
        self.len(len)?;
        Ok(self)
    }

    #[inline]
    fn serialize_tuple(self, _len: usize) -> Result<Self, Error> {
        Ok(self)
    }

    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self, Error> {
        Ok(self)
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self, Error> {
        self.u32(index)?;
        Ok(self)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        map::MapSerializer::new(self, len)
    }

    #[inline]
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self, Error> {
        Ok(self)
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self, Error> {
        self.u32(index)?;
        Ok(self)
    }

    /// Formats `value` twice, to count and then to write, so no allocator
    /// is needed; a `Display` impl that writes something different the
    /// second time is an error.
    fn collect_str<T: ?Sized + core::fmt::Display>(self, value: &T) -> Result<(), Error> {
        use core::fmt::Write as _;
        let mut counter = Counter(0);
        // Writing to a counter cannot fail unless `Display` does.
        write!(counter, "{value}")
            .map_err(|_| <Error as ser::Error>::custom("a Display impl failed"))?;
        self.len(counter.0)?;
        let mut writer = Writer {
            out: &mut self.out,
            left: counter.0,
            error: None,
        };
        let written = write!(writer, "{value}");
        match (writer.error, written, writer.left) {
            (Some(error), _, _) => Err(error),
            (None, Ok(()), 0) => Ok(()),
            _ => Err(<Error as ser::Error>::custom(
                "a Display impl wrote different lengths on two calls",
            )
            .or_at(self.position())),
        }
    }
}

/// The element and field writers: every compound is its parts in order.
macro_rules! compound {
    ($($trait:ident :: $method:ident),* $(,)?) => {$(
        impl<O: Output> ser::$trait for &mut Serializer<O> {
            type Ok = ();
            type Error = Error;

            #[inline]
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
                value.serialize(&mut **self)
            }

            #[inline]
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        }
    )*};
}

compound! {
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
}

/// Struct fields are positional: a skipped one is an error, not a gap.
macro_rules! fields {
    ($($trait:ident),* $(,)?) => {$(
        impl<O: Output> ser::$trait for &mut Serializer<O> {
            type Ok = ();
            type Error = Error;

            #[inline]
            fn serialize_field<T: ?Sized + Serialize>(&mut self, _key: &'static str, value: &T) -> Result<(), Error> {
                value.serialize(&mut **self)
            }

            fn skip_field(&mut self, field: &'static str) -> Result<(), Error> {
                Err(ErrorKind::SkippedField {
                    offset: self.position(),
                    field,
                }.into())
            }

            #[inline]
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);
