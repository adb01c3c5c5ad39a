//! Reading a value that the current chunk of a `bytes::Buf` holds only part
//! of: peeked at across chunks where the `Buf` lets us, else copied out.

use bijou_core::{Bijou, DecodeError, MAX_ENCODED_LEN};
use bytes::Buf;

/// The slow half of [`BufExt::try_get_bijou`](crate::BufExt::try_get_bijou)
/// and of [`BufValues`](crate::BufValues): the current chunk holds only
/// part of the value (or is empty). Errors consume nothing, except an
/// overflowing value whose bytes the `Buf` cannot show without advancing
/// (`try_get_bijou`'s docs give the rule): then exactly its bytes.
#[cold]
#[inline(never)]
pub(crate) fn get_across_chunks<T: Bijou, B: Buf + ?Sized>(buf: &mut B) -> Result<T, DecodeError> {
    let available = buf.remaining();
    let Some(&tag) = buf.chunk().first() else {
        // `chunk()` is empty only when `remaining()` is 0.
        return Err(DecodeError::Truncated {
            needed: 1,
            available: 0,
        });
    };
    let needed = T::len_from_tag(tag);
    if available < needed {
        return Err(DecodeError::Truncated { needed, available });
    }
    let mut scratch = [0u8; MAX_ENCODED_LEN];
    let bytes = &mut scratch[..needed];
    if peek(buf, bytes) {
        // Decode first, advance only on success: Overflow consumes nothing.
        let (value, _) = T::decode(bytes)?;
        buf.advance(needed);
        return Ok(value);
    }
    let copied = copy_consuming(buf, bytes);
    if copied < needed {
        // Only reachable for a `Buf` whose `remaining()` overstated its chunks.
        return Err(DecodeError::Truncated {
            needed,
            available: copied,
        });
    }
    T::decode(bytes).map(|(value, _)| value)
}

/// Fills `out` from the buffer's chunks without advancing, if
/// `chunks_vectored` exposes enough of them.
#[cfg(feature = "std")]
fn peek<B: Buf + ?Sized>(buf: &B, out: &mut [u8]) -> bool {
    let mut slices = [std::io::IoSlice::new(&[]); MAX_ENCODED_LEN];
    let count = buf.chunks_vectored(&mut slices);
    let mut filled = 0;
    for slice in slices.iter().take(count) {
        let take = slice.len().min(out.len() - filled);
        out[filled..filled + take].copy_from_slice(&slice[..take]);
        filled += take;
        if filled == out.len() {
            return true;
        }
    }
    false
}

/// Without `std`, `Buf` offers no way to look past the current chunk.
#[cfg(not(feature = "std"))]
fn peek<B: Buf + ?Sized>(_buf: &B, _out: &mut [u8]) -> bool {
    false
}

/// Copies `out.len()` bytes out of the buffer, advancing past them; returns
/// how many were copied (fewer only if a chunk came back empty early).
fn copy_consuming<B: Buf + ?Sized>(buf: &mut B, out: &mut [u8]) -> usize {
    let mut filled = 0;
    while filled < out.len() {
        let chunk = buf.chunk();
        if chunk.is_empty() {
            break;
        }
        let take = chunk.len().min(out.len() - filled);
        out[filled..filled + take].copy_from_slice(&chunk[..take]);
        buf.advance(take);
        filled += take;
    }
    filled
}
