//! Maps: a count, then the entries in increasing order of their keys'
//! encoded bytes, so a `HashMap` encodes the same whatever its iteration
//! order.
//!
//! Entries are encoded straight into the output, each key compared with
//! the one before it as it is written. A map whose entries arrive in order
//! (a `BTreeMap` of unsigned integers, or of strings of one length) is
//! then written once and never moved. With `alloc`, entries out of order
//! are sorted where they stand when the map ends: their spans are sorted
//! by key bytes and the entries copied back in that order from a copy of
//! the map, in scratch space the [`Serializer`] keeps for every map of the
//! value, so no entry is allocated on its own. Without `alloc`, an entry
//! out of order is an error ([`ErrorKind::UnsortedMapOutput`]). Two keys
//! with equal encodings are an error either way.
//!
//! The count comes first: the length the map announced, replaced when the
//! map ends if it announced none or a wrong one.

use bijou_core::bijou64;
use serde::ser::{self, Serialize};

use super::Serializer;
use crate::keys::compare_keys;
use crate::output::Output;
use crate::{Error, ErrorKind};

/// Entries whose spans a map keeps in itself; a longer map moves them to
/// the serializer's [`Scratch`].
#[cfg(feature = "alloc")]
const INLINE_ENTRIES: usize = 8;

/// Scratch space for sorting maps, kept by a [`Serializer`] across the
/// maps of a value; empty (unallocated) until a map needs it.
#[cfg(feature = "alloc")]
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// Key spans of maps longer than [`INLINE_ENTRIES`]: a stack, an
    /// inner map's above its outer map's.
    spans: alloc::vec::Vec<[usize; 2]>,
    /// Entries being sorted: key start, key end, entry end, relative to
    /// the map's first entry.
    entries: alloc::vec::Vec<[usize; 3]>,
    /// A copy of the entries being sorted.
    bytes: alloc::vec::Vec<u8>,
}

/// The spans of a map's keys (start and end positions in the output), in
/// the order written.
#[cfg(feature = "alloc")]
struct Spans {
    inline: [[usize; 2]; INLINE_ENTRIES],
    /// Where this map's spans start in [`Scratch::spans`], once there are
    /// more than [`INLINE_ENTRIES`].
    spilled_at: usize,
}

/// serde's `SerializeMap` for [`Serializer`].
pub struct MapSerializer<'a, O> {
    ser: &'a mut Serializer<O>,
    /// Where the map starts in the output: its count.
    start: usize,
    /// The count written at `start`, if the map announced its length.
    announced: Option<usize>,
    /// Where the first entry starts.
    #[cfg(feature = "alloc")]
    entries_start: usize,
    /// Entries so far.
    len: usize,
    /// The last key's span in the output.
    last_key: [usize; 2],
    /// Whether every key so far sorts after the one before it.
    in_order: bool,
    #[cfg(feature = "alloc")]
    spans: Spans,
}

impl<'a, O: Output> MapSerializer<'a, O> {
    #[inline]
    pub(super) fn new(ser: &'a mut Serializer<O>, len: Option<usize>) -> Result<Self, Error> {
        let start = ser.position();
        ser.out.begin_map();
        if let Some(len) = len {
            ser.len(len)?;
        }
        Ok(MapSerializer {
            start,
            announced: len,
            #[cfg(feature = "alloc")]
            entries_start: ser.position(),
            ser,
            len: 0,
            last_key: [0; 2],
            in_order: true,
            #[cfg(feature = "alloc")]
            spans: Spans {
                inline: [[0; 2]; INLINE_ENTRIES],
                spilled_at: 0,
            },
        })
    }

    /// Compares the key just written (`key`) with the one before it:
    /// equal is an error, smaller means the map must be sorted (without
    /// `alloc`, an error).
    #[inline]
    fn check_order(&mut self, key: [usize; 2]) -> Result<(), Error> {
        let [last_start, last_end] = self.last_key;
        let written = self.ser.out.written_from(last_start);
        let last = &written[..last_end - last_start];
        let this = &written[key[0] - last_start..key[1] - last_start];
        match compare_keys(last, this) {
            core::cmp::Ordering::Less => Ok(()),
            core::cmp::Ordering::Equal => {
                Err(ErrorKind::DuplicateMapKey { offset: self.start }.into())
            }
            core::cmp::Ordering::Greater if cfg!(feature = "alloc") => {
                self.in_order = false;
                Ok(())
            }
            core::cmp::Ordering::Greater => {
                Err(ErrorKind::UnsortedMapOutput { offset: key[0] }.into())
            }
        }
    }

    /// Puts the count of entries at the map's start, if the one there is
    /// not it.
    fn write_count(&mut self) -> Result<(), Error> {
        if self.announced == Some(self.len) {
            return Ok(());
        }
        let (block, len) = bijou64::encode_array(self.len as u64);
        let old = self.announced.map_or(0, |n| bijou64::encoded_len(n as u64));
        self.ser.out.splice(self.start, old, &block[..len])
    }
}

#[cfg(feature = "alloc")]
impl<O: Output> MapSerializer<'_, O> {
    /// Keeps the span of the key just written, for sorting.
    #[inline]
    fn push_span(&mut self, span: [usize; 2]) {
        let len = self.len;
        if let Some(slot) = self.spans.inline.get_mut(len) {
            *slot = span;
            return;
        }
        let stack = &mut self.ser.maps.spans;
        if len == INLINE_ENTRIES {
            self.spans.spilled_at = stack.len();
            // Room for the length announced, within reason, at once.
            stack.reserve(self.announced.unwrap_or(0).clamp(2 * INLINE_ENTRIES, 1024));
            stack.extend_from_slice(&self.spans.inline);
        }
        // Drops what an inner map left behind if a `Serialize` impl
        // carried on after its error.
        stack.truncate(self.spans.spilled_at + len);
        stack.push(span);
    }

    /// Sorts the entries by key bytes, refusing equal keys: a short map's
    /// by insertion where they stand, a longer one's through the scratch.
    fn sort(&mut self) -> Result<(), Error> {
        if self.len <= INLINE_ENTRIES {
            self.insertion_sort()
        } else {
            self.sort_through_scratch()
        }
    }

    /// Insertion sort of at most [`INLINE_ENTRIES`] entries, each moved
    /// into place by rotating the bytes from where it goes to its end: no
    /// allocation, and few bytes moved for a short map.
    fn insertion_sort(&mut self) -> Result<(), Error> {
        let base = self.entries_start;
        let end = self.ser.position();
        let written = self.ser.out.written_from(base);
        let spans = &mut self.spans.inline[..self.len];
        for span in spans.iter_mut() {
            *span = [span[0] - base, span[1] - base];
        }
        for i in 1..spans.len() {
            let [start, key_end] = spans[i];
            let entry_end = spans.get(i + 1).map_or(end - base, |next| next[0]);
            let key = |[start, end]: [usize; 2]| start..end;
            // The entries before `i` are in order: find where `i` goes.
            let this = &written[start..key_end];
            let mut at = i;
            let mut order = core::cmp::Ordering::Less;
            while at > 0 {
                order = compare_keys(&written[key(spans[at - 1])], this);
                if order.is_le() {
                    break;
                }
                at -= 1;
            }
            if order.is_eq() {
                return Err(ErrorKind::DuplicateMapKey { offset: self.start }.into());
            }
            if at == i {
                continue;
            }
            let moved = entry_end - start;
            let to = spans[at][0];
            written[to..entry_end].rotate_right(moved);
            for j in (at..i).rev() {
                spans[j + 1] = [spans[j][0] + moved, spans[j][1] + moved];
            }
            spans[at] = [to, to + key_end - start];
        }
        Ok(())
    }

    /// Sorts the spans in the scratch and copies the entries back in that
    /// order from a copy of the map.
    fn sort_through_scratch(&mut self) -> Result<(), Error> {
        let base = self.entries_start;
        let end = self.ser.position();
        let maps = &mut self.ser.maps;
        let spans = &maps.spans[self.spans.spilled_at..self.spans.spilled_at + self.len];
        // Each entry ends where the next key starts.
        maps.entries.clear();
        maps.entries.reserve(self.len);
        maps.entries.extend(
            spans
                .iter()
                .zip(spans.iter().skip(1).map(|s| s[0]).chain([end]))
                .map(|(&[key_start, key_end], entry_end)| {
                    [key_start - base, key_end - base, entry_end - base]
                }),
        );
        let written = self.ser.out.written_from(base);
        let key = |&[start, end, _]: &[usize; 3]| &written[start..end];
        maps.entries
            .sort_unstable_by(|a, b| compare_keys(key(a), key(b)));
        if maps
            .entries
            .windows(2)
            .any(|pair| key(&pair[0]) == key(&pair[1]))
        {
            return Err(ErrorKind::DuplicateMapKey { offset: self.start }.into());
        }
        maps.bytes.clear();
        maps.bytes.extend_from_slice(written);
        let mut at = 0;
        for &[start, _, end] in &maps.entries {
            written[at..at + end - start].copy_from_slice(&maps.bytes[start..end]);
            at += end - start;
        }
        Ok(())
    }
}

impl<O: Output> ser::SerializeMap for MapSerializer<'_, O> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        let key_start = self.ser.position();
        key.serialize(&mut *self.ser)?;
        let span = [key_start, self.ser.position()];
        if O::KEEPS_BYTES && self.len > 0 && self.in_order {
            self.check_order(span)?;
        }
        #[cfg(feature = "alloc")]
        if O::KEEPS_BYTES {
            self.push_span(span);
        }
        self.last_key = span;
        self.len += 1;
        Ok(())
    }

    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }

    fn end(mut self) -> Result<(), Error> {
        #[cfg(feature = "alloc")]
        {
            if !self.in_order {
                self.sort()?;
            }
            if self.len > INLINE_ENTRIES {
                self.ser.maps.spans.truncate(self.spans.spilled_at);
            }
        }
        self.write_count()?;
        self.ser.out.end_map()
    }
}
