//! Message padding (FIPS 180-4 §5.1.1), shared by the one-shot path, the
//! streaming hasher and the many-message lanes.

/// The padded end of a message, on the stack or in a lane: its last bytes,
/// `0x80`, zeros and the length in bits, big-endian, in one block or two.
pub(crate) struct Padded {
    blocks: [[u8; 64]; 2],
    count: usize,
}

impl Padded {
    /// No blocks yet; [`Padded::fill`] writes them.
    pub(crate) const EMPTY: Padded = Padded {
        blocks: [[0; 64]; 2],
        count: 0,
    };

    /// The padded end of a message of `blocks` whole blocks (mod 2^58, so
    /// that the byte count is mod 2^64) followed by `tail`, shorter than a
    /// block.
    #[inline]
    pub(crate) fn after_blocks(blocks: u64, tail: &[u8]) -> Padded {
        let len = blocks.wrapping_mul(64).wrapping_add(tail.len() as u64);
        let mut padded = Padded::EMPTY;
        padded.fill(tail, len);
        padded
    }

    /// Pads `rest`, the partial block at the end of a message of
    /// `message_len` bytes, into `self`.
    ///
    /// The buffer is rewritten where it lives, never built elsewhere and
    /// moved: reading 16-byte words back from a fresh mix of narrower
    /// stores stalls the core until they reach the cache, so the blocks
    /// must be read where they were written, as late as possible.
    ///
    /// # Panics
    ///
    /// If `rest` is a whole block or longer.
    #[inline(always)]
    pub(crate) fn fill(&mut self, rest: &[u8], message_len: u64) {
        assert!(rest.len() < 64, "a partial block");
        self.blocks = [[0; 64]; 2];
        self.count = if rest.len() < 64 - 8 { 1 } else { 2 };
        let bytes = self.blocks.as_flattened_mut();
        copy_short(bytes, rest);
        bytes[rest.len()] = 0x80;
        let end = 64 * self.count;
        bytes[end - 8..end].copy_from_slice(&message_len.wrapping_mul(8).to_be_bytes());
    }

    /// The one or two padded blocks.
    #[inline(always)]
    pub(crate) fn blocks(&self) -> &[[u8; 64]] {
        &self.blocks[..self.count]
    }
}

/// Copies `src`, shorter than a block, to the start of `dst` in a few
/// fixed-size pieces that may overlap: no call to `memcpy`, whose dispatch
/// on the length costs more than the copy for these sizes.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let len = src.len();
    let dst = &mut dst[..len];
    if len >= 16 {
        // Whole 16-byte pieces, then the last 16 bytes (overlapping).
        for at in [0, 16, 32] {
            if at + 16 <= len {
                dst[at..at + 16].copy_from_slice(&src[at..at + 16]);
            }
        }
        dst[len - 16..].copy_from_slice(&src[len - 16..]);
    } else if len >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[len - 8..].copy_from_slice(&src[len - 8..]);
    } else if len >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[len - 4..].copy_from_slice(&src[len - 4..]);
    } else if len > 0 {
        dst[0] = src[0];
        dst[len / 2] = src[len / 2];
        dst[len - 1] = src[len - 1];
    }
}

#[cfg(test)]
mod tests {
    use super::Padded;

    #[test]
    fn padding_fits_one_or_two_blocks() {
        for len in 0..64 {
            let data: [u8; 64] = core::array::from_fn(|i| i as u8 | 1);
            let mut padded = Padded::EMPTY;
            padded.fill(&data[..len], 1000 + len as u64);
            let blocks = padded.blocks();
            assert_eq!(blocks.len(), if len + 9 <= 64 { 1 } else { 2 }, "{len}");
            let bytes = blocks.as_flattened();
            assert_eq!(&bytes[..len], &data[..len]);
            assert_eq!(bytes[len], 0x80);
            let (zeros, bits) = bytes[len + 1..].split_at(bytes.len() - len - 9);
            assert!(zeros.iter().all(|&b| b == 0), "{len}");
            assert_eq!(bits, (8 * (1000 + len as u64)).to_be_bytes());
        }
    }

    /// The length field is the bit count modulo 2^64 (FIPS 180-4 limits a
    /// message to 2^64 − 1 bits; beyond that every implementation we know
    /// of, the `sha1` crate included, wraps).
    #[test]
    fn bit_length_wraps_modulo_2_pow_64() {
        for (message_len, bits) in [
            (1u64 << 61, 0u64),
            ((1 << 61) + 3, 24),
            (u64::MAX, u64::MAX - 7),
            ((1 << 61) - 1, u64::MAX - 7),
        ] {
            let mut padded = Padded::EMPTY;
            padded.fill(b"", message_len);
            assert_eq!(
                padded.blocks()[0][56..],
                bits.to_be_bytes(),
                "{message_len}"
            );
        }
    }
}
