//! An opt-in counting global allocator: allocations, reallocations and bytes per iteration, peak bytes.
//!
//! Nothing here runs unless a bench target installs [`CountingAlloc`]: the
//! timing loops never read these counters, and the harness measures
//! allocations in one extra sample after timing, only when it sees the
//! allocator at work.

use crate::counter::Counter;
use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Set by the first allocation through a [`CountingAlloc`].
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Whether allocations are being counted (only inside the harness's counting sample).
static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static DEALLOCS: AtomicU64 = AtomicU64::new(0);
static REALLOCS: AtomicU64 = AtomicU64::new(0);
/// Bytes asked for by allocations and by growing reallocations.
static BYTES: AtomicU64 = AtomicU64::new(0);
/// Bytes live now (allocated through this allocator and not yet freed).
static LIVE: AtomicU64 = AtomicU64::new(0);
/// The most bytes live since the counting sample began.
static PEAK: AtomicU64 = AtomicU64::new(0);

/// A global allocator that counts what passes through it to `A`, so that
/// reports show allocations, deallocations, reallocations and bytes per
/// iteration and the peak bytes live, as columns of their own. Install it in
/// a bench target:
///
/// ```
/// use std::alloc::System;
///
/// #[global_allocator]
/// static ALLOC: nbench::CountingAlloc<System> = nbench::CountingAlloc::new(System);
/// ```
///
/// The counts come from one extra run of the routine after its timing
/// (the samples themselves run exactly as without it); allocations made by
/// [`iter_batched`](crate::Bencher::iter_batched)'s setup are left out, as
/// they are from the time. Counts are process-wide: threads the routine
/// starts count too. Each allocation costs a few atomic additions more, so
/// times of allocating routines rise slightly with it installed.
pub struct CountingAlloc<A> {
    inner: A,
}

impl<A> CountingAlloc<A> {
    /// Counts allocations made through `inner`.
    pub const fn new(inner: A) -> Self {
        CountingAlloc { inner }
    }
}

fn on_alloc(size: usize) {
    if !INSTALLED.load(Relaxed) {
        INSTALLED.store(true, Relaxed);
    }
    let live = LIVE.fetch_add(size as u64, Relaxed) + size as u64;
    if COUNTING.load(Relaxed) {
        BYTES.fetch_add(size as u64, Relaxed);
        PEAK.fetch_max(live, Relaxed);
    }
}

fn on_dealloc(size: usize) {
    LIVE.fetch_sub(size as u64, Relaxed);
}

// SAFETY: every call is passed on to `inner` unchanged; the counting only
// reads the sizes.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAlloc<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` hold for `inner` too.
        let p = unsafe { self.inner.alloc(layout) };
        if !p.is_null() {
            count(&ALLOCS);
            on_alloc(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { self.inner.alloc_zeroed(layout) };
        if !p.is_null() {
            count(&ALLOCS);
            on_alloc(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `inner` with `layout` (the caller's guarantee).
        unsafe { self.inner.dealloc(ptr, layout) };
        count(&DEALLOCS);
        on_dealloc(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's guarantees for `ptr`, `layout` and `new_size` hold for `inner`.
        let p = unsafe { self.inner.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(&REALLOCS);
            on_dealloc(layout.size());
            on_alloc(new_size);
            // Only growth asks for new bytes; `on_alloc` counted all of them.
            if COUNTING.load(Relaxed) {
                BYTES.fetch_sub(new_size.min(layout.size()) as u64, Relaxed);
            }
        }
        p
    }
}

fn count(counter: &AtomicU64) {
    if COUNTING.load(Relaxed) {
        counter.fetch_add(1, Relaxed);
    }
}

/// Whether a [`CountingAlloc`] is the global allocator (it has allocated).
pub fn installed() -> bool {
    INSTALLED.load(Relaxed)
}

/// Stops counting (the batched loop's setup is not the routine's) and
/// says whether it was on, for [`resume`].
pub(crate) fn pause() -> bool {
    installed() && COUNTING.swap(false, Relaxed)
}

/// Counts again if [`pause`] found counting on.
pub(crate) fn resume(was_counting: bool) {
    if was_counting {
        COUNTING.store(true, Relaxed);
    }
}

/// Counts allocations while `run` runs `iters` iterations, and returns them
/// per iteration as counters (none without a [`CountingAlloc`]).
pub(crate) fn measure(iters: u64, run: impl FnOnce(u64)) -> Vec<Counter> {
    if !installed() {
        return Vec::new();
    }
    for c in [&ALLOCS, &DEALLOCS, &REALLOCS, &BYTES] {
        c.store(0, Relaxed);
    }
    let start = LIVE.load(Relaxed);
    PEAK.store(start, Relaxed);
    COUNTING.store(true, Relaxed);
    run(iters);
    COUNTING.store(false, Relaxed);
    let per_iter = |c: &AtomicU64| c.load(Relaxed) as f64 / iters as f64;
    vec![
        Counter::per_iteration("allocs", per_iter(&ALLOCS)),
        Counter::per_iteration("deallocs", per_iter(&DEALLOCS)),
        Counter::per_iteration("reallocs", per_iter(&REALLOCS)),
        Counter::per_iteration("bytes", per_iter(&BYTES)).binary(),
        Counter::value("peak", PEAK.load(Relaxed).saturating_sub(start) as f64).binary(),
    ]
}

/// Iterations for the counting sample when no pilot has chosen them:
/// about a millisecond's worth, judged by the first call, 1 to 1000.
pub(crate) fn iters_for(cold: f64) -> u64 {
    (1e6 / cold.max(1.0)).clamp(1.0, 1000.0) as u64
}
