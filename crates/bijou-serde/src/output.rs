//! Where a [`Serializer`](crate::Serializer) writes: a `Vec`, a slice or a
//! `std::io::Write`.

use crate::{Error, ErrorKind};

pub(crate) mod sealed {
    use crate::Error;

    /// The writes a serializer makes. Sealed: the format's guarantees rest
    /// on every output writing exactly what it is given.
    pub trait Output {
        /// Whether the output keeps the bytes it is given, so that a map
        /// can compare and sort its entries there: false only for the
        /// counter behind `serialized_size`, where order changes nothing.
        const KEEPS_BYTES: bool = true;

        /// Appends `bytes`.
        fn write(&mut self, bytes: &[u8]) -> Result<(), Error>;

        /// Appends one byte.
        fn write_byte(&mut self, byte: u8) -> Result<(), Error>;

        /// Appends the first `len` bytes of `block`. A `Vec` copies the
        /// whole block and truncates, a fixed-size copy instead of a call
        /// to `memcpy`.
        fn write_prefix<const N: usize>(
            &mut self,
            block: &[u8; N],
            len: usize,
        ) -> Result<(), Error> {
            self.write(&block[..len])
        }

        /// Bytes written so far.
        fn position(&self) -> usize;

        /// The bytes written from position `from` on, which is inside the
        /// map being written (an [`IoOutput`](super::IoOutput) holds a
        /// map back until it ends): maps compare and sort their keys there.
        fn written_from(&mut self, from: usize) -> &mut [u8];

        /// Replaces the `old` bytes written at position `at` with `new`,
        /// moving what follows: a map's count, when the one written first
        /// was not the count of its entries.
        fn splice(&mut self, at: usize, old: usize, new: &[u8]) -> Result<(), Error>;

        /// A map begins: what follows may be sorted in place until
        /// [`end_map`](Output::end_map).
        #[inline]
        fn begin_map(&mut self) {}

        /// The map begun last ends.
        #[inline]
        fn end_map(&mut self) -> Result<(), Error> {
            Ok(())
        }
    }
}

/// An output a [`Serializer`](crate::Serializer) can write to: `Vec<u8>`
/// (feature `alloc`), [`SliceOutput`] and `IoOutput` (feature `std`).
/// Sealed.
pub trait Output: sealed::Output {}

#[cfg(feature = "alloc")]
impl sealed::Output for alloc::vec::Vec<u8> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn write_byte(&mut self, byte: u8) -> Result<(), Error> {
        self.push(byte);
        Ok(())
    }

    #[inline]
    fn write_prefix<const N: usize>(&mut self, block: &[u8; N], len: usize) -> Result<(), Error> {
        let start = self.len();
        // The whole block only where it fits: a `Vec` sized by
        // `serialized_size` must not grow for the spare bytes.
        if self.capacity() - start >= N {
            self.extend_from_slice(block);
            self.truncate(start + len);
        } else {
            self.extend_from_slice(&block[..len]);
        }
        Ok(())
    }

    #[inline]
    fn position(&self) -> usize {
        self.len()
    }

    #[inline]
    fn written_from(&mut self, from: usize) -> &mut [u8] {
        &mut self[from..]
    }

    fn splice(&mut self, at: usize, old: usize, new: &[u8]) -> Result<(), Error> {
        drop(alloc::vec::Vec::splice(
            self,
            at..at + old,
            new.iter().copied(),
        ));
        Ok(())
    }
}

#[cfg(feature = "alloc")]
impl Output for alloc::vec::Vec<u8> {}

/// A slice filled from its start, as [`to_slice`](crate::to_slice) uses.
///
/// # Examples
///
/// ```
/// use bijou_serde::{Serializer, SliceOutput};
/// use serde::Serialize;
///
/// let mut buf = [0u8; 8];
/// let mut serializer = Serializer::new(SliceOutput::new(&mut buf));
/// 300u32.serialize(&mut serializer)?;
/// true.serialize(&mut serializer)?;
/// assert_eq!(serializer.into_inner().into_written(), &[0xFC, 0x30, 0x01]);
/// # Ok::<(), bijou_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct SliceOutput<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceOutput<'a> {
    /// An output that fills `buf` from its start.
    #[must_use]
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceOutput { buf, len: 0 }
    }

    /// Bytes written so far.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been written.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The written prefix of the slice.
    #[must_use]
    pub fn into_written(self) -> &'a mut [u8] {
        &mut self.buf[..self.len]
    }

    #[cold]
    fn full(&self, needed: usize) -> Error {
        ErrorKind::BufferFull {
            offset: self.len,
            needed: needed - (self.buf.len() - self.len),
        }
        .into()
    }
}

impl sealed::Output for SliceOutput<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        match self.buf.get_mut(self.len..self.len + bytes.len()) {
            Some(dest) => {
                dest.copy_from_slice(bytes);
                self.len += bytes.len();
                Ok(())
            }
            None => Err(self.full(bytes.len())),
        }
    }

    #[inline]
    fn write_byte(&mut self, byte: u8) -> Result<(), Error> {
        match self.buf.get_mut(self.len) {
            Some(dest) => {
                *dest = byte;
                self.len += 1;
                Ok(())
            }
            None => Err(self.full(1)),
        }
    }

    #[inline]
    fn position(&self) -> usize {
        self.len
    }

    #[inline]
    fn written_from(&mut self, from: usize) -> &mut [u8] {
        &mut self.buf[from..self.len]
    }

    fn splice(&mut self, at: usize, old: usize, new: &[u8]) -> Result<(), Error> {
        let len = self.len - old + new.len();
        if len > self.buf.len() {
            return Err(self.full(new.len() - old));
        }
        self.buf.copy_within(at + old..self.len, at + new.len());
        self.buf[at..at + new.len()].copy_from_slice(new);
        self.len = len;
        Ok(())
    }
}

impl Output for SliceOutput<'_> {}

/// A `std::io::Write`, as [`to_writer`](crate::to_writer) uses. Each value
/// is written as it is encoded, in small pieces: give it a buffered writer.
/// A map is held back in memory until it ends, and then written: its
/// entries may need sorting.
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct IoOutput<W> {
    writer: W,
    /// Bytes given to the writer.
    written: usize,
    /// The maps begun and not ended; while there are any, writes go to
    /// `held`.
    maps: usize,
    held: alloc::vec::Vec<u8>,
}

#[cfg(feature = "std")]
impl<W: std::io::Write> IoOutput<W> {
    /// An output that writes to `writer`.
    #[must_use]
    pub fn new(writer: W) -> Self {
        IoOutput {
            writer,
            written: 0,
            maps: 0,
            held: alloc::vec::Vec::new(),
        }
    }

    /// The writer back.
    #[must_use]
    pub fn into_inner(self) -> W {
        self.writer
    }

    fn write_through(&mut self, bytes: &[u8]) -> Result<(), Error> {
        match self.writer.write_all(bytes) {
            Ok(()) => {
                self.written += bytes.len();
                Ok(())
            }
            Err(source) => Err(ErrorKind::Io {
                offset: self.written,
                source,
            }
            .into()),
        }
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write> sealed::Output for IoOutput<W> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        if self.maps > 0 {
            self.held.extend_from_slice(bytes);
            return Ok(());
        }
        self.write_through(bytes)
    }

    fn write_byte(&mut self, byte: u8) -> Result<(), Error> {
        self.write(&[byte])
    }

    fn position(&self) -> usize {
        self.written + self.held.len()
    }

    fn written_from(&mut self, from: usize) -> &mut [u8] {
        &mut self.held[from - self.written..]
    }

    fn splice(&mut self, at: usize, old: usize, new: &[u8]) -> Result<(), Error> {
        let at = at - self.written;
        drop(self.held.splice(at..at + old, new.iter().copied()));
        Ok(())
    }

    fn begin_map(&mut self) {
        self.maps += 1;
    }

    fn end_map(&mut self) -> Result<(), Error> {
        self.maps -= 1;
        if self.maps > 0 {
            return Ok(());
        }
        let held = core::mem::take(&mut self.held);
        let result = self.write_through(&held);
        self.held = held;
        self.held.clear();
        result
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write> Output for IoOutput<W> {}

/// Counts the bytes a value encodes to, for
/// [`serialized_size`](crate::serialized_size): maps need no sorting here,
/// their size is the same in any order.
#[derive(Debug, Default)]
pub(crate) struct SizeCounter {
    len: usize,
}

impl SizeCounter {
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl sealed::Output for SizeCounter {
    const KEEPS_BYTES: bool = false;

    #[inline]
    fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.len += bytes.len();
        Ok(())
    }

    #[inline]
    fn write_byte(&mut self, _byte: u8) -> Result<(), Error> {
        self.len += 1;
        Ok(())
    }

    #[inline]
    fn write_prefix<const N: usize>(&mut self, _block: &[u8; N], len: usize) -> Result<(), Error> {
        self.len += len;
        Ok(())
    }

    #[inline]
    fn position(&self) -> usize {
        self.len
    }

    fn written_from(&mut self, _from: usize) -> &mut [u8] {
        &mut []
    }

    #[inline]
    fn splice(&mut self, _at: usize, old: usize, new: &[u8]) -> Result<(), Error> {
        self.len = self.len - old + new.len();
        Ok(())
    }
}

impl Output for SizeCounter {}
