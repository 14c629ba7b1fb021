//! divan's `AllocProfiler`: nbench's counting allocator.

use std::alloc::{GlobalAlloc, Layout, System};

/// The global allocator that counts allocations per iteration; nbench's
/// table then shows them beside each benchmark.
pub struct AllocProfiler<A = System>(nbench::CountingAlloc<A>);

impl AllocProfiler {
    /// Counting over the system allocator.
    pub const fn system() -> Self {
        AllocProfiler(nbench::CountingAlloc::new(System))
    }
}

impl<A> AllocProfiler<A> {
    /// Counting over `alloc`.
    pub const fn new(alloc: A) -> Self {
        AllocProfiler(nbench::CountingAlloc::new(alloc))
    }
}

// SAFETY: every call goes to nbench's counting allocator, itself a
// `GlobalAlloc` over `A`.
unsafe impl<A: GlobalAlloc> GlobalAlloc for AllocProfiler<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { self.0.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { self.0.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe { self.0.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { self.0.realloc(ptr, layout, new_size) }
    }
}
