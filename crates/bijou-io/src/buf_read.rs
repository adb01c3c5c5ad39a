//! `std::io::BufRead` extension: values decoded straight from the reader's
//! buffer.

use std::io::{self, BufRead, ErrorKind};

use bijou_core::{Bijou, DecodeError};

use crate::io::{read_value, value_required};

/// Reads bijou values from a [`std::io::BufRead`] (a
/// [`BufReader`](std::io::BufReader), a `&[u8]`, a locked stdin), decoding
/// each straight from [`fill_buf`](BufRead::fill_buf) and
/// [`consume`](BufRead::consume)-ing exactly its bytes: no copy into a
/// scratch buffer and no read call per byte.
///
/// The results, the errors and where the stream is left are those of
/// [`ReadExt`](crate::ReadExt), to which a value cut by the end of the
/// buffer is handed (it then reads the value in pieces, as it does from
/// any reader): `UnexpectedEof` when the stream ends inside a value,
/// `InvalidData` on overflow (the value's bytes consumed), the reader's
/// own errors as is before a value's first byte and inside a
/// [`MidValueError`](crate::MidValueError) after it, `Interrupted`
/// retried.
///
/// The methods have their own names, so importing this trait beside
/// `ReadExt` makes no call ambiguous.
///
/// # Examples
///
/// ```
/// use std::io::{BufReader, Read};
/// use bijou_io::BufReadExt;
///
/// let wire: &[u8] = &[0xF8, 0x34, 0x01, b'h', b'i'];
/// let mut reader = BufReader::new(wire);
/// assert_eq!(reader.read_bijou_buffered::<u64>()?, 300);
/// assert_eq!(reader.read_bijou_buffered::<i32>()?, -1);
/// let mut rest = String::new();
/// reader.read_to_string(&mut rest)?;
/// assert_eq!(rest, "hi");
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait BufReadExt: BufRead {
    /// Reads exactly one value of width `T` from the buffer.
    ///
    /// # Errors
    ///
    /// As [`ReadExt::read_bijou`](crate::ReadExt::read_bijou).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::{BufReader, ErrorKind};
    /// use bijou_io::{BufReadExt, DecodeError};
    ///
    /// let mut reader = BufReader::new(&[0xFD, 0x00, 0x5B, 0xF9, 0x01][..]);
    /// assert_eq!(reader.read_bijou_buffered::<i32>()?, -300);
    ///
    /// let error = reader.read_bijou_buffered::<u64>().unwrap_err();
    /// assert_eq!(error.kind(), ErrorKind::UnexpectedEof);
    /// let source = error.get_ref().and_then(|e| e.downcast_ref::<DecodeError>());
    /// assert_eq!(source, Some(&DecodeError::Truncated { needed: 3, available: 2 }));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[inline]
    fn read_bijou_buffered<T: Bijou>(&mut self) -> io::Result<T> {
        value_required(read_buffered(self))
    }

    /// Reads one value of width `T` from the buffer, or `Ok(None)` when
    /// the stream ends cleanly before its first byte.
    ///
    /// # Errors
    ///
    /// As [`ReadExt::try_read_bijou`](crate::ReadExt::try_read_bijou).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::BufReader;
    /// use bijou_io::BufReadExt;
    ///
    /// let mut reader = BufReader::new(&[0x01, 0x02, 0xFC, 0x00][..]);
    /// let mut values = Vec::new();
    /// while let Some(value) = reader.try_read_bijou_buffered::<u32>()? {
    ///     values.push(value);
    /// }
    /// assert_eq!(values, [1, 2, 252]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[inline]
    fn try_read_bijou_buffered<T: Bijou>(&mut self) -> io::Result<Option<T>> {
        read_buffered(self)
    }
}

impl<R: BufRead + ?Sized> BufReadExt for R {}

/// One value from the buffer when it holds the whole value; otherwise
/// (the buffer is empty or ends inside the value) the byte-wise reader
/// path, which sees the same bytes since nothing was consumed.
#[inline]
fn read_buffered<T: Bijou, R: BufRead + ?Sized>(reader: &mut R) -> io::Result<Option<T>> {
    let buffer = loop {
        match reader.fill_buf() {
            Ok(buffer) => break buffer,
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    };
    match T::decode(buffer) {
        Ok((value, len)) => {
            reader.consume(len);
            Ok(Some(value))
        }
        Err(DecodeError::Overflow) => {
            // An overflowing value is always MAX_BYTES long; `ReadExt`
            // consumes it too.
            reader.consume(T::MAX_BYTES);
            Err(DecodeError::Overflow.into())
        }
        Err(DecodeError::Truncated { .. }) => read_value(reader),
    }
}
