//! The bijou-io integration suite, one binary: buffer shapes, std io,
//! the stream decoder, frames (and frames written from several slices),
//! and (feature `tokio`) the
//! async extensions and the codecs.

#[cfg(feature = "tokio")]
mod async_io;
mod buf_shapes;
mod buf_values;
mod common;
mod frames;
mod io;
mod stream;
#[cfg(feature = "tokio")]
mod tokio_codec;
mod vectored;

// Lets a test prove that a refused frame length was never allocated
// (`testkit::largest_allocation`).
#[global_allocator]
static ALLOCATOR: testkit::largest_allocation::RecordLargest =
    testkit::largest_allocation::RecordLargest;
