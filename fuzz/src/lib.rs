//! The fuzz targets' checks ([`targets`]) and the helpers they share.
//!
//! - [`FuzzWidth`] and [`each_width!`]: the six bijou widths behind one
//!   trait, so each target writes its checks once, generically;
//! - [`split_chunks`]: the input format of the targets that feed bytes in
//!   pieces, so the fuzzer controls the chunking as well as the bytes;
//! - [`ChunkedBuf`] and [`ChunkedReader`]: a `bytes::Buf` and a
//!   `std::io::Read` that hand those pieces out one at a time.
//!
//! The seed corpora are written by `cargo xtask fuzz` (`xtask/src/fuzz/seeds.rs`),
//! which must produce the formats documented here.

use std::io::{self, IoSlice, Read};

use bijou_core::Bijou;
use bytes::Buf;
use testkit::oracle::{Width, zigzag};

pub mod targets;

/// A bijou width as the fuzz targets see it: `bijou-core`'s [`Bijou`] plus
/// what is needed to check it against the naive oracle in `testkit` and to
/// build values from raw fuzz bytes.
pub trait FuzzWidth: Bijou {
    /// Bytes in the integer type (4, 8 or 16).
    const SIZE: usize;

    /// The naive oracle for the unsigned format under this width.
    fn oracle() -> Width;

    /// The value in the oracle's unsigned domain: the value itself, or its
    /// zigzag form computed by `testkit` (not by `bijou-core`).
    fn to_oracle(self) -> u128;

    /// The value whose little-endian bytes are `bytes` (exactly
    /// [`SIZE`](Self::SIZE) of them).
    fn from_le(bytes: &[u8]) -> Self;
}

macro_rules! fuzz_width {
    ($($ty:ty => $oracle:ident, |$v:ident| $to_oracle:expr;)*) => {$(
        impl FuzzWidth for $ty {
            const SIZE: usize = core::mem::size_of::<$ty>();

            fn oracle() -> Width {
                Width::$oracle()
            }

            fn to_oracle(self) -> u128 {
                let $v = self;
                $to_oracle
            }

            fn from_le(bytes: &[u8]) -> Self {
                <$ty>::from_le_bytes(bytes.try_into().expect("exactly SIZE bytes"))
            }
        }
    )*};
}

fuzz_width! {
    u32 => b32, |v| u128::from(v);
    u64 => b64, |v| u128::from(v);
    u128 => b128, |v| v;
    i32 => b32, |v| zigzag(i128::from(v), i32::BITS);
    i64 => b64, |v| zigzag(i128::from(v), i64::BITS);
    i128 => b128, |v| zigzag(v, i128::BITS);
}

/// `[f::<u32>, f::<u64>, f::<u128>, f::<i32>, f::<i64>, f::<i128>]`: a
/// generic check instantiated for every width, as an array of function
/// pointers (the array literal coerces the six function items).
///
/// The order is part of the `bijou_roundtrip` input format (its first byte
/// picks an entry) and `cargo xtask fuzz` relies on it for the seeds.
#[macro_export]
macro_rules! each_width {
    ($check:ident) => {
        [
            $check::<u32>,
            $check::<u64>,
            $check::<u128>,
            $check::<i32>,
            $check::<i64>,
            $check::<i128>,
        ]
    };
}

/// Splits a fuzz input into the pieces it is to be fed in.
///
/// Format: byte 0 is a count `k`; the next `k` bytes are the lengths of the
/// first `k` pieces (each clamped to the bytes left, so zero-length pieces
/// happen and are meant to); the rest of the input is the last piece. An
/// empty input gives no pieces. Concatenating the pieces gives
/// `data[1 + k..]` back.
pub fn split_chunks(data: &[u8]) -> Vec<&[u8]> {
    let Some((&count, rest)) = data.split_first() else {
        return Vec::new();
    };
    let (lengths, mut payload) = rest.split_at(usize::from(count).min(rest.len()));
    let mut chunks = Vec::with_capacity(lengths.len() + 1);
    for &len in lengths {
        let (chunk, tail) = payload.split_at(usize::from(len).min(payload.len()));
        chunks.push(chunk);
        payload = tail;
    }
    chunks.push(payload);
    chunks
}

/// A `Buf` made of several chunks, like a rope or a `Chain` of many
/// buffers. With `vectored`, `chunks_vectored` exposes every chunk (as
/// `Chain` and `VecDeque` do); without, only the current one (the trait's
/// default), which forces readers to consume bytes to see past a chunk.
#[derive(Debug, Clone)]
pub struct ChunkedBuf<'a> {
    /// The non-empty chunks not yet fully consumed, current first.
    chunks: Vec<&'a [u8]>,
    remaining: usize,
    vectored: bool,
}

impl<'a> ChunkedBuf<'a> {
    /// A buffer holding `chunks` in order.
    pub fn new(chunks: &[&'a [u8]], vectored: bool) -> Self {
        // `chunk()` must be non-empty whenever bytes remain, so empty
        // chunks are dropped here rather than exposed.
        let mut chunks: Vec<&[u8]> = chunks.iter().copied().filter(|c| !c.is_empty()).collect();
        chunks.reverse(); // pop from the back = consume from the front
        let remaining = chunks.iter().map(|c| c.len()).sum();
        ChunkedBuf {
            chunks,
            remaining,
            vectored,
        }
    }
}

impl Buf for ChunkedBuf<'_> {
    fn remaining(&self) -> usize {
        self.remaining
    }

    fn chunk(&self) -> &[u8] {
        self.chunks.last().copied().unwrap_or_default()
    }

    fn advance(&mut self, mut cnt: usize) {
        assert!(cnt <= self.remaining, "advance past the end of the buffer");
        self.remaining -= cnt;
        while cnt > 0 {
            let current = self
                .chunks
                .last_mut()
                .expect("remaining counts these bytes");
            let take = cnt.min(current.len());
            *current = &current[take..];
            cnt -= take;
            if current.is_empty() {
                self.chunks.pop();
            }
        }
    }

    fn chunks_vectored<'s>(&'s self, dst: &mut [IoSlice<'s>]) -> usize {
        let exposed = if self.vectored { self.chunks.len() } else { 1 };
        let mut count = 0;
        for (slot, chunk) in dst.iter_mut().zip(self.chunks.iter().rev().take(exposed)) {
            *slot = IoSlice::new(chunk);
            count += 1;
        }
        count
    }
}

/// A `Read` that returns at most one chunk per call. An empty chunk becomes
/// an `Interrupted` error, which every well-behaved reader loop must retry
/// (or, for a non-blocking source, `WouldBlock`).
#[derive(Debug, Clone)]
pub struct ChunkedReader<'a> {
    chunks: std::slice::Iter<'a, &'a [u8]>,
    current: &'a [u8],
    empty_chunk: io::ErrorKind,
}

impl<'a> ChunkedReader<'a> {
    /// A reader yielding `chunks` in order, then end of file.
    pub fn new(chunks: &'a [&'a [u8]]) -> Self {
        ChunkedReader {
            chunks: chunks.iter(),
            current: &[],
            empty_chunk: io::ErrorKind::Interrupted,
        }
    }

    /// The same reader as a non-blocking source: empty chunks become
    /// `WouldBlock`, which the caller sees and answers by calling again.
    pub fn would_block_on_empty_chunks(mut self) -> Self {
        self.empty_chunk = io::ErrorKind::WouldBlock;
        self
    }
}

impl Read for ChunkedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.current.is_empty() {
            match self.chunks.next() {
                None => return Ok(0),
                Some([]) => return Err(self.empty_chunk.into()),
                Some(chunk) => self.current = chunk,
            }
        }
        let take = buf.len().min(self.current.len());
        buf[..take].copy_from_slice(&self.current[..take]);
        self.current = &self.current[take..];
        Ok(take)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_chunks_follows_the_format() {
        assert!(split_chunks(&[]).is_empty());
        assert_eq!(split_chunks(&[0, 1, 2]), [&[1u8, 2][..]]);
        assert_eq!(
            split_chunks(&[2, 1, 0, 7, 8, 9]),
            [&[7u8][..], &[], &[8, 9]]
        );
        // Lengths past the end are clamped; a count past the end too.
        assert_eq!(split_chunks(&[1, 9, 7]), [&[7u8][..], &[]]);
        assert_eq!(split_chunks(&[5, 1]), [&[] as &[u8], &[]]);
    }

    #[test]
    fn chunked_buf_and_reader_yield_the_bytes() {
        let chunks: [&[u8]; 3] = [&[1, 2], &[], &[3]];
        for vectored in [false, true] {
            let mut buf = ChunkedBuf::new(&chunks, vectored);
            assert_eq!(buf.remaining(), 3);
            assert_eq!(buf.chunk(), &[1, 2]);
            buf.advance(2);
            assert_eq!(buf.chunk(), &[3]);
            buf.advance(1);
            assert!(buf.chunk().is_empty());
        }
        let mut out = Vec::new();
        let mut reader = ChunkedReader::new(&chunks);
        loop {
            match reader.read_to_end(&mut out) {
                Ok(_) => break,
                Err(e) => assert_eq!(e.kind(), io::ErrorKind::Interrupted),
            }
        }
        assert_eq!(out, [1, 2, 3]);
    }
}
