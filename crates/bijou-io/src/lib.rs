#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// The docs describe every feature, and docs.rs builds them with all of
// them; with a feature off, links to the items it gates cannot resolve.
#![cfg_attr(
    not(all(feature = "std", feature = "bytes", feature = "tokio")),
    allow(rustdoc::broken_intra_doc_links)
)]

/// Calls `$callback!` with every width: module name, integer type, and
/// the names of its shorthand methods (`macro_rules!` cannot build
/// identifiers, so they are listed).
/// Every per-width named method of the extension traits comes from this list.
#[cfg(any(feature = "bytes", feature = "std"))]
macro_rules! with_widths {
    ($callback:ident) => {
        $callback! {
            bijou32: u32 => [try_get_bijou32, get_bijou32, put_bijou32, read_bijou32, try_read_bijou32, write_bijou32],
            bijou64: u64 => [try_get_bijou64, get_bijou64, put_bijou64, read_bijou64, try_read_bijou64, write_bijou64],
            bijou128: u128 => [try_get_bijou128, get_bijou128, put_bijou128, read_bijou128, try_read_bijou128, write_bijou128],
            bijou32s: i32 => [try_get_bijou32s, get_bijou32s, put_bijou32s, read_bijou32s, try_read_bijou32s, write_bijou32s],
            bijou64s: i64 => [try_get_bijou64s, get_bijou64s, put_bijou64s, read_bijou64s, try_read_bijou64s, write_bijou64s],
            bijou128s: i128 => [try_get_bijou128s, get_bijou128s, put_bijou128s, read_bijou128s, try_read_bijou128s, write_bijou128s],
        }
    };
}

#[cfg(feature = "bytes")]
mod across_chunks;
#[cfg(feature = "tokio")]
mod async_io;
#[cfg(feature = "bytes")]
mod buf;
#[cfg(feature = "std")]
mod buf_read;
#[cfg(feature = "bytes")]
mod buf_values;
#[cfg(feature = "tokio")]
mod codec;
mod frame;
#[cfg(feature = "std")]
mod io;
mod stream;

// Everything the re-exported `Bijou` trait names, so a bijou-io user needs
// no bijou-core dependency of their own.
pub use bijou_core::{BatchDecodeError, Bijou, DecodeError, EncodeError, Encoded, MAX_ENCODED_LEN};

#[cfg(feature = "tokio")]
pub use async_io::{AsyncReadBijouExt, AsyncWriteBijouExt, ReadBijou, TryReadBijou, WriteBijou};
#[cfg(feature = "bytes")]
pub use buf::{BufExt, BufMutExt};
#[cfg(feature = "std")]
pub use buf_read::BufReadExt;
#[cfg(feature = "bytes")]
pub use buf_values::BufValues;
#[cfg(feature = "tokio")]
pub use codec::ValueCodec;
#[cfg(feature = "tokio")]
pub use frame::FrameCodec;
pub use frame::{DEFAULT_MAX_FRAME_LEN, FrameError};
#[cfg(feature = "bytes")]
pub use frame::{FrameDecoder, FrameEncoder};
#[cfg(feature = "std")]
pub use frame::{FrameReader, FrameWriter};
#[cfg(feature = "std")]
pub use io::{MidValueError, ReadExt, WriteExt};
pub use stream::{StreamDecoder, Values};

/// The panic behind every `get_*` method of [`BufExt`]: one cold, never
/// inlined function so the getters' fast paths stay small.
#[cfg(feature = "bytes")]
#[cold]
#[inline(never)]
#[track_caller]
fn panic_decode(name: &str, error: DecodeError) -> ! {
    panic!("get_{name}: {error}")
}
