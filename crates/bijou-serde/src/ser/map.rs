//! Maps: a count, then the entries in increasing order of their keys'
//! encoded bytes, so a `HashMap` encodes the same whatever its iteration
//! order.
//!
//! With `alloc`, entries are encoded into a scratch buffer, sorted by key
//! bytes and then written; two keys with equal encodings are an error.
//! Without it, entries are written as they come and each key must sort
//! after the one before it (a `BTreeMap` whose key order is the encoded
//! order, as for unsigned integers and strings).

use serde::ser::{self, Serialize};

use super::Serializer;
use crate::output::Output;
use crate::{Error, ErrorKind};

/// serde's `SerializeMap` for [`Serializer`].
#[cfg(feature = "alloc")]
pub struct MapSerializer<'a, O> {
    ser: &'a mut Serializer<O>,
    /// Where the map starts in the output, for errors.
    start: usize,
    scratch: Serializer<alloc::vec::Vec<u8>>,
    /// Per entry: key start, key end (= value start), value end in `scratch`.
    entries: alloc::vec::Vec<[usize; 3]>,
}

#[cfg(feature = "alloc")]
impl<'a, O: Output> MapSerializer<'a, O> {
    pub(super) fn new(ser: &'a mut Serializer<O>, len: Option<usize>) -> Result<Self, Error> {
        Ok(MapSerializer {
            start: ser.position(),
            ser,
            scratch: Serializer::new(alloc::vec::Vec::new()),
            // A hint from the value's own `Serialize`, capped all the same.
            entries: alloc::vec::Vec::with_capacity(len.unwrap_or(0).min(1024)),
        })
    }

    fn encode<T: ?Sized + Serialize>(&mut self, part: &T) -> Result<usize, Error> {
        part.serialize(&mut self.scratch)
            .map_err(|e| e.at(self.start))?;
        Ok(self.scratch.position())
    }
}

#[cfg(feature = "alloc")]
impl<O: Output> ser::SerializeMap for MapSerializer<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        let key_start = self.scratch.position();
        let key_end = self.encode(key)?;
        self.entries.push([key_start, key_end, key_end]);
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        let end = self.encode(value)?;
        if let Some(entry) = self.entries.last_mut() {
            entry[2] = end;
        }
        Ok(())
    }

    fn end(mut self) -> Result<(), Error> {
        let scratch = self.scratch.into_inner();
        let key = |&[start, end, _]: &[usize; 3]| &scratch[start..end];
        // Stable sort: linear on entries that are already in order.
        self.entries.sort_by(|a, b| key(a).cmp(key(b)));
        if self
            .entries
            .windows(2)
            .any(|pair| key(&pair[0]) == key(&pair[1]))
        {
            return Err(ErrorKind::DuplicateMapKey { offset: self.start }.into());
        }
        self.ser.len(self.entries.len())?;
        for &[start, _, end] in &self.entries {
            self.ser.out.write(&scratch[start..end])?;
        }
        Ok(())
    }
}

/// serde's `SerializeMap` for [`Serializer`].
#[cfg(not(feature = "alloc"))]
pub struct MapSerializer<'a, O> {
    ser: &'a mut Serializer<O>,
    /// The previous key's span in the output.
    previous: Option<(usize, usize)>,
    key_start: usize,
}

#[cfg(not(feature = "alloc"))]
impl<'a, O: Output> MapSerializer<'a, O> {
    pub(super) fn new(ser: &'a mut Serializer<O>, len: Option<usize>) -> Result<Self, Error> {
        let Some(len) = len else {
            return Err(ErrorKind::UnknownLength {
                offset: ser.position(),
            }
            .into());
        };
        ser.len(len)?;
        Ok(MapSerializer {
            ser,
            previous: None,
            key_start: 0,
        })
    }
}

#[cfg(not(feature = "alloc"))]
impl<O: Output> ser::SerializeMap for MapSerializer<'_, O> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        self.key_start = self.ser.position();
        key.serialize(&mut *self.ser)?;
        let key_end = self.ser.position();
        let written = self.ser.out.written();
        if let Some((start, end)) = self.previous {
            match written[start..end].cmp(&written[self.key_start..key_end]) {
                core::cmp::Ordering::Less => {}
                core::cmp::Ordering::Equal => {
                    return Err(ErrorKind::DuplicateMapKey {
                        offset: self.key_start,
                    }
                    .into());
                }
                core::cmp::Ordering::Greater => {
                    return Err(ErrorKind::UnsortedMapOutput {
                        offset: self.key_start,
                    }
                    .into());
                }
            }
        }
        self.previous = Some((self.key_start, key_end));
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }

    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}
