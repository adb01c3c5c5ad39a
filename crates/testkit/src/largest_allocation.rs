//! The largest single allocation each thread makes, for tests that prove a
//! decoder never allocated what an attacker's length announced.
//!
//! [`RecordLargest`] is the system allocator plus a record of sizes; a test
//! binary installs it, then brackets the code under test with [`reset`] and
//! [`get`]:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: testkit::largest_allocation::RecordLargest =
//!     testkit::largest_allocation::RecordLargest;
//!
//! testkit::largest_allocation::reset();
//! decode(untrusted);
//! assert!(testkit::largest_allocation::get() < 1 << 20);
//! ```
//!
//! The record is per thread, so tests running in parallel do not see each
//! other's allocations.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

/// Forgets what this thread allocated so far.
pub fn reset() {
    LARGEST.with(|largest| largest.set(0));
}

/// The largest allocation, in bytes, this thread made since [`reset`]; 0
/// unless a test binary installed [`RecordLargest`].
pub fn get() -> usize {
    LARGEST.with(Cell::get)
}

fn record(size: usize) {
    // `try_with`: never fail inside the allocator, even during teardown.
    let _ = LARGEST.try_with(|largest| largest.set(largest.get().max(size)));
}

/// The system allocator, recording each thread's largest request (a
/// `realloc` counts its new size). Install it with `#[global_allocator]`.
#[derive(Clone, Copy, Debug, Default)]
pub struct RecordLargest;

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees carry over; recording a size in a
// const-initialised thread-local neither allocates nor unwinds.
unsafe impl GlobalAlloc for RecordLargest {
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

#[cfg(test)]
mod tests {
    use std::hint::black_box;

    use super::{RecordLargest, get, reset};

    #[global_allocator]
    static ALLOCATOR: RecordLargest = RecordLargest;

    #[test]
    fn records_the_largest_request_since_reset() {
        drop(black_box(vec![0u8; 1 << 20]));
        reset();
        assert_eq!(get(), 0);
        drop(black_box(vec![0u8; 300]));
        drop(black_box(vec![0u8; 100]));
        assert_eq!(get(), 300);

        let mut grown = black_box(Vec::<u8>::with_capacity(10));
        grown.reserve_exact(5000);
        assert!(get() >= 5000, "a realloc counts its new size");
        reset();
        drop(black_box(vec![0u64; 1000]));
        assert_eq!(get(), 8000, "bytes, not elements");
    }

    #[test]
    fn each_thread_has_its_own_record() {
        reset();
        std::thread::spawn(|| drop(black_box(vec![0u8; 1 << 16])))
            .join()
            .unwrap();
        assert!(get() < 1 << 16, "{}", get());
    }
}
