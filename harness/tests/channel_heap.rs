//! The channel's messages leave the heap as they found it, whatever numbers
//! they carry: a paired comparison relies on both processes giving the
//! benchmark the same heap, and an allocation whose size hung on a measured
//! figure (a sample of 75123.5 ns against one of 75123.456789 ns) moved
//! where one process's benchmark then allocated.

use nbench::__private::protocol::{Command, Event, read_message, write_message};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};

/// Records the sizes this thread asks for while recording is on.
struct Recording;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static SIZES: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

fn note(size: usize) {
    // `try_with`: the thread-locals may be gone while a thread exits.
    if ON.try_with(Cell::get).unwrap_or(false) {
        ON.with(|on| on.set(false));
        SIZES.with(|s| s.borrow_mut().push(size));
        ON.with(|on| on.set(true));
    }
}

unsafe impl GlobalAlloc for Recording {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Recording = Recording;

/// The sizes `f` allocated, in order.
fn sizes(f: impl FnOnce()) -> Vec<usize> {
    SIZES.with(|s| s.borrow_mut().clear());
    ON.with(|on| on.set(true));
    f();
    ON.with(|on| on.set(false));
    SIZES.with(|s| s.borrow().clone())
}

fn written(ns: f64) -> Vec<usize> {
    let mut out = Vec::with_capacity(4096);
    sizes(|| write_message(&mut out, &Event::Sampled { ns }).unwrap())
}

fn read(line: &[u8]) -> Vec<usize> {
    sizes(|| {
        let _: Command = read_message(&mut &line[..]).unwrap().unwrap();
    })
}

#[test]
fn a_sample_is_written_with_the_same_allocations_whatever_its_figure() {
    let short = written(75.0);
    assert!(
        !short.is_empty(),
        "the recorder sees the message's allocations"
    );
    for ns in [
        75_123.5,
        75_123.456_789_012_3,
        1.234_567_890_123_456e-7,
        9e15,
    ] {
        assert_eq!(written(ns), short, "{ns}");
    }
}

#[test]
fn a_command_is_read_with_the_same_allocations_whatever_its_figures() {
    let line = |c: &Command| {
        let mut v = Vec::new();
        write_message(&mut v, c).unwrap();
        v
    };
    let short = read(&line(&Command::Sample { iters: 1 }));
    for iters in [12, 123_456, u64::from(u32::MAX) * 1000] {
        assert_eq!(read(&line(&Command::Sample { iters })), short, "{iters}");
    }
}
