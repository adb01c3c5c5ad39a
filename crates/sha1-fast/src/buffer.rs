//! The byte side of a streaming hasher: whole blocks go to a core straight
//! from the caller's data and a partial block waits here. Both
//! [`crate::Sha1`] and [`crate::checked::Sha1`] keep one; their cores
//! count the blocks.

pub(crate) const BLOCK: usize = 64;

#[derive(Clone)]
pub(crate) struct BlockBuffer {
    bytes: [u8; BLOCK],
    /// How many of `bytes` are filled; always below [`BLOCK`].
    filled: usize,
}

impl BlockBuffer {
    pub(crate) const EMPTY: BlockBuffer = BlockBuffer {
        bytes: [0; BLOCK],
        filled: 0,
    };

    /// A buffer holding `tail`, shorter than a block.
    #[cfg(feature = "digest")]
    pub(crate) fn with_tail(tail: &[u8]) -> BlockBuffer {
        let mut buffer = BlockBuffer::EMPTY;
        buffer.bytes[..tail.len()].copy_from_slice(tail);
        buffer.filled = tail.len();
        buffer
    }

    /// Appends `data`, handing every block it completes to `compress`: the
    /// buffered one alone, then the rest as one slice of `data`.
    #[inline]
    pub(crate) fn update(&mut self, mut data: &[u8], mut compress: impl FnMut(&[[u8; BLOCK]])) {
        if self.filled > 0 {
            let take = data.len().min(BLOCK - self.filled);
            self.bytes[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled < BLOCK {
                return;
            }
            compress(core::slice::from_ref(&self.bytes));
            self.filled = 0;
        }
        let (blocks, rest) = data.as_chunks::<BLOCK>();
        if !blocks.is_empty() {
            compress(blocks);
        }
        self.bytes[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    /// The bytes waiting for a block.
    #[inline]
    pub(crate) fn tail(&self) -> &[u8] {
        &self.bytes[..self.filled]
    }
}

/// `std::io::Write` for a hasher type whose `update` takes every byte: no
/// write fails or is short, and `flush` does nothing.
macro_rules! hasher_io_write {
    ($(#[$doc:meta])* $hasher:ty) => {
        $(#[$doc])*
        #[cfg(feature = "std")]
        impl std::io::Write for $hasher {
            #[inline]
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.update(buf);
                Ok(buf.len())
            }

            #[inline]
            fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
                self.update(buf);
                Ok(())
            }

            #[inline]
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
    };
}

pub(crate) use hasher_io_write;
