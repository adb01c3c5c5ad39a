//! serde's access traits: the elements of sequences, the entries of maps
//! (and the check that their keys increase), enum variants.

use serde::de::{self, DeserializeSeed, Visitor};

use super::Deserializer;
use crate::keys::compare_keys;
use crate::{Error, ErrorKind};

/// The size hint for `left` more elements or entries: never more than
/// the bytes left, so a collection preallocates no more elements than the
/// input could hold.
fn hint(left: u64, de: &Deserializer<'_>) -> Option<usize> {
    Some(
        usize::try_from(left)
            .unwrap_or(usize::MAX)
            .min(de.rest.len()),
    )
}

/// The elements of a sequence, tuple or struct: `left` more, then none.
pub(super) struct Seq<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: u64,
}

impl<'a, 'de> Seq<'a, 'de> {
    pub(super) fn new(de: &'a mut Deserializer<'de>, left: u64) -> Self {
        Seq { de, left }
    }
}

impl<'de> de::SeqAccess<'de> for Seq<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        hint(self.left, self.de)
    }
}

/// The entries of a map, each key's encoding checked to sort strictly
/// after the previous key's: equal keys and any other order are refused.
pub(super) struct Map<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: u64,
    /// The previous key's bytes, borrowed from the input.
    previous: Option<&'de [u8]>,
}

impl<'a, 'de> Map<'a, 'de> {
    pub(super) fn new(de: &'a mut Deserializer<'de>, left: u64) -> Self {
        Map {
            de,
            left,
            previous: None,
        }
    }
}

impl<'de> de::MapAccess<'de> for Map<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let before = self.de.rest;
        let offset = self.de.position();
        let key = seed.deserialize(&mut *self.de)?;
        let encoded = &before[..before.len() - self.de.rest.len()];
        if let Some(previous) = self.previous {
            match compare_keys(previous, encoded) {
                core::cmp::Ordering::Less => {}
                core::cmp::Ordering::Equal => {
                    return Err(ErrorKind::DuplicateMapKey { offset }.into());
                }
                core::cmp::Ordering::Greater => {
                    return Err(ErrorKind::UnsortedMapKey { offset }.into());
                }
            }
        }
        self.previous = Some(encoded);
        Ok(Some(key))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(&mut *self.de)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        hint(self.left, self.de)
    }
}

/// An enum: its variant index (read as an identifier), then the content.
pub(super) struct Enum<'a, 'de>(pub(super) &'a mut Deserializer<'de>);

impl<'a, 'de> de::EnumAccess<'de> for Enum<'a, 'de> {
    type Error = Error;
    type Variant = Self;

    #[inline]
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let variant = seed.deserialize(&mut *self.0)?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for Enum<'_, 'de> {
    type Error = Error;

    #[inline]
    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self.0)
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        self.0.fixed_seq(len, visitor)
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.fixed_seq(fields.len(), visitor)
    }
}
