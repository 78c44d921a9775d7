//! A counting global allocator for the heap measurements (`benches/heap.rs` here, and
//! `crates/frontier/examples/seen_memory.rs`, which includes this file by path): the system
//! allocator, counting live bytes and their peak. Including this module installs it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting live bytes and their peak.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

/// Starts a measurement: the peak is reset to the bytes live now, which are returned.
pub fn mark() -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    before
}

/// Bytes live now, above `before` (from [`mark`]).
#[allow(
    dead_code,
    reason = "used by seen_memory.rs, which shares this file; heap.rs reads peaks only"
)]
pub fn live_since(before: usize) -> usize {
    LIVE.load(Ordering::Relaxed).saturating_sub(before)
}

/// The peak of live bytes since [`mark`], above `before`.
pub fn peak_since(before: usize) -> usize {
    PEAK.load(Ordering::Relaxed).saturating_sub(before)
}

#[allow(
    unsafe_code,
    reason = "a global allocator is unsafe to implement; this one only forwards to System"
)]
// SAFETY: every method forwards to `System` with the caller's arguments unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}
