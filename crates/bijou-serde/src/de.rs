//! The deserializer: refuses every byte string that is not the one
//! encoding of a value (docs/SERDE.md), so whatever it accepts re-encodes
//! to itself.

use bijou_core::{DecodeError, bijou32, bijou32s, bijou64, bijou64s, bijou128, bijou128s};
use serde::de::{self, Visitor};

use crate::{Error, ErrorKind, MAX_DEPTH, NAN_F32_BITS, NAN_F64_BITS};

mod access;

/// A serde `Deserializer` reading the bijou-serde format from a slice.
///
/// [`from_slice`](crate::from_slice) and
/// [`take_from_slice`](crate::take_from_slice) wrap one; use it directly to
/// read several values one after another. Strings and byte slices are
/// borrowed from the input when the type allows (`&str`, `&[u8]`,
/// `Cow<str>`).
///
/// # Examples
///
/// ```
/// use bijou_serde::Deserializer;
/// use serde::Deserialize;
///
/// let mut deserializer = Deserializer::from_slice(&[0x02, b'h', b'i', 0x01, 0xF8, 0x34]);
/// assert_eq!(<&str>::deserialize(&mut deserializer)?, "hi");
/// assert_eq!(Option::<u64>::deserialize(&mut deserializer)?, Some(300));
/// deserializer.end()?;
/// # Ok::<(), bijou_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct Deserializer<'de> {
    /// The input not yet consumed.
    rest: &'de [u8],
    /// The whole input's length: offsets are `len - rest.len()`.
    len: usize,
    /// Containers entered and not yet left.
    depth: usize,
}

/// `result`, with a serde impl's error placed at `mark`, the input that was
/// left when the value began (of an input `len` bytes long). Offsets are
/// worked out only for errors: marking a value costs a register copy.
#[inline]
fn at<T>(len: usize, mark: &[u8], result: Result<T, Error>) -> Result<T, Error> {
    result.map_err(|e| e.or_at(len - mark.len()))
}

/// `$read`: a `$width` varint. With a whole longest encoding left in the
/// input, every tier decodes inline from one fixed-size block (bijou-core's
/// branch-free path, its bounds checks folded away); within
/// `MAX_BYTES` of the end, `$near_end` does, kept out of line.
macro_rules! varint {
    ($($read:ident, $near_end:ident: $width:ident;)*) => {$(
        #[inline(always)]
        fn $read(&mut self, ty: &'static str) -> Result<$read, Error> {
            if let Some(block) = self.rest.first_chunk::<{ $width::MAX_BYTES }>() {
                return match $width::decode(block) {
                    Ok((value, used)) => {
                        self.rest = &self.rest[used..];
                        Ok(value)
                    }
                    Err(error) => Err(self.varint_error(error, ty)),
                };
            }
            self.$near_end(ty)
        }

        #[inline(never)]
        fn $near_end(&mut self, ty: &'static str) -> Result<$read, Error> {
            match $width::decode(self.rest) {
                Ok((value, used)) => {
                    self.rest = &self.rest[used..];
                    Ok(value)
                }
                Err(error) => Err(self.varint_error(error, ty)),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> {
    /// A deserializer reading `input` from its start.
    #[must_use]
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer {
            rest: input,
            len: input.len(),
            depth: 0,
        }
    }

    /// Bytes consumed so far.
    #[must_use]
    pub fn position(&self) -> usize {
        self.len - self.rest.len()
    }

    /// The offset of `mark`, a remainder of the input taken earlier.
    #[cold]
    fn offset_of(&self, mark: &[u8]) -> usize {
        self.len - mark.len()
    }

    /// The input not yet consumed.
    #[must_use]
    pub fn remaining(&self) -> &'de [u8] {
        self.rest
    }

    /// Checks that the whole input was consumed.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TrailingBytes`] when some is left.
    pub fn end(&self) -> Result<(), Error> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(ErrorKind::TrailingBytes {
                offset: self.position(),
                extra: self.rest.len(),
            }
            .into())
        }
    }

    #[cold]
    fn truncated(&self, needed: usize) -> Error {
        ErrorKind::Truncated {
            offset: self.len,
            needed,
        }
        .into()
    }

    #[inline]
    fn byte(&mut self) -> Result<u8, Error> {
        match self.rest.split_first() {
            Some((&byte, rest)) => {
                self.rest = rest;
                Ok(byte)
            }
            None => Err(self.truncated(1)),
        }
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        match self.rest.split_first_chunk::<N>() {
            Some((&array, rest)) => {
                self.rest = rest;
                Ok(array)
            }
            None => Err(self.truncated(N - self.rest.len())),
        }
    }

    /// Maps a bijou-core error at the current position.
    #[cold]
    fn varint_error(&self, error: DecodeError, ty: &'static str) -> Error {
        match error {
            DecodeError::Truncated { needed, available } => self.truncated(needed - available),
            DecodeError::Overflow => ErrorKind::IntegerOverflow {
                offset: self.position(),
                ty,
            }
            .into(),
        }
    }

    varint! {
        u32, u32_near_end: bijou32;
        u64, u64_near_end: bijou64;
    }

    #[inline]
    fn u128(&mut self, ty: &'static str) -> Result<u128, Error> {
        match bijou128::decode(self.rest) {
            Ok((value, used)) => {
                self.rest = &self.rest[used..];
                Ok(value)
            }
            Err(error) => Err(self.varint_error(error, ty)),
        }
    }

    /// A length prefix and that many bytes, refused before anything is
    /// sliced or allocated when the input is shorter than the length.
    #[inline(always)]
    fn length_prefixed(&mut self) -> Result<&'de [u8], Error> {
        let start = self.rest;
        let len = self.u64("a length")?;
        match usize::try_from(len)
            .ok()
            .and_then(|n| self.rest.split_at_checked(n))
        {
            Some((bytes, rest)) => {
                self.rest = rest;
                Ok(bytes)
            }
            None => Err(ErrorKind::LengthExceedsInput {
                offset: self.offset_of(start),
                len,
                available: self.rest.len(),
            }
            .into()),
        }
    }

    /// Runs `f` one container deeper, refusing to go past [`MAX_DEPTH`].
    /// Only the containers a recursive type must pass through (options,
    /// sequences, maps, enums: its base case is a choice or a count)
    /// count; structs, tuples and newtypes are free.
    #[inline]
    fn nested<T>(
        &mut self,
        start: &'de [u8],
        f: impl FnOnce(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        if self.depth == MAX_DEPTH {
            return Err(ErrorKind::TooDeep {
                offset: self.offset_of(start),
            }
            .into());
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        at(self.len, start, result)
    }

    /// `len` values in a row (tuples, structs, their variants).
    #[inline]
    fn fixed_seq<V: Visitor<'de>>(&mut self, len: usize, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        let result = visitor.visit_seq(access::Seq::new(self, len as u64));
        at(self.len, start, result)
    }

    #[cold]
    fn not_self_describing(&self, method: &'static str) -> Error {
        ErrorKind::NotSelfDescribing {
            offset: self.position(),
            method,
        }
        .into()
    }
}

/// `deserialize_$method` for an integer read by `$read` and converted
/// to `$ty` by `$convert`, refused as overflow when it does not fit.
macro_rules! integer {
    ($($method:ident => $visit:ident: $ty:ty = $read:ident($convert:expr);)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            let start = self.rest;
            let raw = self.$read(stringify!($ty))?;
            #[allow(clippy::redundant_closure_call)]
            match ($convert)(raw) {
                Some(value) => at(self.len, start, visitor.$visit(value)),
                None => Err(ErrorKind::IntegerOverflow { offset: self.offset_of(start), ty: stringify!($ty) }.into()),
            }
        }
    )*};
}

/// `deserialize_$float`: the IEEE bits, little-endian; a NaN other than
/// `$nan` is refused.
macro_rules! float {
    ($($method:ident => $visit:ident: $float:ty = $bits:ty, $nan:expr;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            let start = self.rest;
            let value = <$float>::from_bits(<$bits>::from_le_bytes(self.array()?));
            if value.is_nan() && value.to_bits() != $nan {
                return Err(ErrorKind::NonCanonicalNan {
                    offset: self.offset_of(start),
                }
                .into());
            }
            at(self.len, start, visitor.$visit(value))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Error> {
        Err(self.not_self_describing("deserialize_any"))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Error> {
        Err(self.not_self_describing("deserialize_ignored_any"))
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        match self.byte()? {
            0 => at(self.len, start, visitor.visit_bool(false)),
            1 => at(self.len, start, visitor.visit_bool(true)),
            byte => Err(ErrorKind::InvalidBool {
                offset: self.offset_of(start),
                byte,
            }
            .into()),
        }
    }

    #[inline]
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        let byte = self.byte()?;
        at(self.len, start, visitor.visit_u8(byte))
    }

    #[inline]
    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        let byte = self.byte()?;
        at(self.len, start, visitor.visit_i8(byte as i8))
    }

    integer! {
        deserialize_u16 => visit_u16: u16 = u32(|v| u16::try_from(v).ok());
        deserialize_u32 => visit_u32: u32 = u32(Some);
        deserialize_u64 => visit_u64: u64 = u64(Some);
        deserialize_u128 => visit_u128: u128 = u128(Some);
        deserialize_i16 => visit_i16: i16 = u32(|v| i16::try_from(bijou32s::unzigzag(v)).ok());
        deserialize_i32 => visit_i32: i32 = u32(|v| Some(bijou32s::unzigzag(v)));
        deserialize_i64 => visit_i64: i64 = u64(|v| Some(bijou64s::unzigzag(v)));
        deserialize_i128 => visit_i128: i128 = u128(|v| Some(bijou128s::unzigzag(v)));
    }

    float! {
        deserialize_f32 => visit_f32: f32 = u32, NAN_F32_BITS;
        deserialize_f64 => visit_f64: f64 = u64, NAN_F64_BITS;
    }

    #[inline]
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        let value = self.u32("char")?;
        match char::from_u32(value) {
            Some(c) => at(self.len, start, visitor.visit_char(c)),
            None => Err(ErrorKind::InvalidChar {
                offset: self.offset_of(start),
                value,
            }
            .into()),
        }
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        let bytes = self.length_prefixed()?;
        match crate::utf8::from_utf8(bytes) {
            Some(s) => at(self.len, start, visitor.visit_borrowed_str(s)),
            None => Err(ErrorKind::InvalidUtf8 {
                offset: self.position() - bytes.len(),
            }
            .into()),
        }
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        let bytes = self.length_prefixed()?;
        at(self.len, start, visitor.visit_borrowed_bytes(bytes))
    }

    #[inline]
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        match self.byte()? {
            0 => at(self.len, start, visitor.visit_none()),
            1 => self.nested(start, |de| visitor.visit_some(de)),
            byte => Err(ErrorKind::InvalidOption {
                offset: self.offset_of(start),
                byte,
            }
            .into()),
        }
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        at(self.len, self.rest, visitor.visit_unit())
    }

    #[inline]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let start = self.rest;
        let result = visitor.visit_newtype_struct(&mut *self);
        at(self.len, start, result)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        let count = self.u64("a count")?;
        self.nested(start, |de| visitor.visit_seq(access::Seq::new(de, count)))
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        self.fixed_seq(len, visitor)
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.fixed_seq(len, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.fixed_seq(fields.len(), visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        let count = self.u64("a count")?;
        self.nested(start, |de| visitor.visit_map(access::Map::new(de, count)))
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let start = self.rest;
        self.nested(start, |de| visitor.visit_enum(access::Enum(de)))
    }

    /// A variant index (bijou32); derived enums read theirs here.
    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let start = self.rest;
        let index = self.u32("a variant index")?;
        at(self.len, start, visitor.visit_u32(index))
    }
}
