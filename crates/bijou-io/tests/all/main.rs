//! The bijou-io integration suite, one binary: buffer shapes, std io,
//! the stream decoder, frames, and (feature `tokio`) the codecs.

mod buf_shapes;
mod common;
mod frames;
mod io;
mod stream;
#[cfg(feature = "tokio")]
mod tokio_codec;

/// Records the largest allocation made by the current thread, so a test can
/// prove that a refused frame length was never allocated.
mod largest_allocation {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static LARGEST: Cell<usize> = const { Cell::new(0) };
    }

    /// Forgets what this thread allocated so far.
    pub(crate) fn reset() {
        LARGEST.with(|largest| largest.set(0));
    }

    /// The largest allocation, in bytes, this thread made since `reset`.
    pub(crate) fn get() -> usize {
        LARGEST.with(Cell::get)
    }

    fn record(size: usize) {
        // `try_with`: never fail inside the allocator, even during teardown.
        let _ = LARGEST.try_with(|largest| largest.set(largest.get().max(size)));
    }

    struct Tracking;

    // SAFETY: every method forwards to `System` with the caller's arguments
    // unchanged, so `System`'s guarantees carry over; recording a size in a
    // const-initialised thread-local neither allocates nor unwinds.
    unsafe impl GlobalAlloc for Tracking {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            record(layout.size());
            // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
            unsafe { System.alloc(layout) }
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            record(layout.size());
            // SAFETY: the caller upholds `GlobalAlloc::alloc_zeroed`'s contract.
            unsafe { System.alloc_zeroed(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract.
            unsafe { System.dealloc(ptr, layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            record(new_size);
            // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static ALLOCATOR: Tracking = Tracking;
}
