//! Where a [`Serializer`](crate::Serializer) writes: a `Vec`, a slice or a
//! `std::io::Write`.

use crate::{Error, ErrorKind};

pub(crate) mod sealed {
    use crate::Error;

    /// The writes a serializer makes. Sealed: the format's guarantees rest
    /// on every output writing exactly what it is given.
    pub trait Output {
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

        /// The bytes written so far, for the map-order check made when
        /// entries cannot be buffered and sorted.
        #[cfg(not(feature = "alloc"))]
        fn written(&self) -> &[u8];
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
        self.extend_from_slice(block);
        self.truncate(start + len);
        Ok(())
    }

    #[inline]
    fn position(&self) -> usize {
        self.len()
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

    #[cfg(not(feature = "alloc"))]
    fn written(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Output for SliceOutput<'_> {}

/// A `std::io::Write`, as [`to_writer`](crate::to_writer) uses. Each value
/// is written as it is encoded, in small pieces: give it a buffered writer.
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct IoOutput<W> {
    writer: W,
    written: usize,
}

#[cfg(feature = "std")]
impl<W: std::io::Write> IoOutput<W> {
    /// An output that writes to `writer`.
    #[must_use]
    pub fn new(writer: W) -> Self {
        IoOutput { writer, written: 0 }
    }

    /// The writer back.
    #[must_use]
    pub fn into_inner(self) -> W {
        self.writer
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write> sealed::Output for IoOutput<W> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
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

    fn write_byte(&mut self, byte: u8) -> Result<(), Error> {
        self.write(&[byte])
    }

    fn position(&self) -> usize {
        self.written
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write> Output for IoOutput<W> {}
