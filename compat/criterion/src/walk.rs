//! Walking the program: how benchmarks that live inside the program's own
//! functions become benchmarks nbench can run in any order.
//!
//! criterion's closures borrow the locals around them, so they cannot be
//! stored and called later; they can only be called where the program
//! reaches them. What can be called again is the program itself: the
//! functions `criterion_group!` writes take no arguments. So a walk calls
//! them in order, and every `bench_function` the walk reaches asks [`reach`]
//! what to do with its benchmark:
//!
//! - listing (once, when the process starts): note its id and go on;
//! - aimed at one id: if this is the one, call its closure with the
//!   `Bencher` nbench handed over, else pass it by without calling it
//!   (an id that changed since the listing is looked for by its place,
//!   see `aimed_at`).
//!
//! Each benchmark is then an ordinary nbench benchmark whose body is a walk
//! aimed at it, so `cargo nbench` (and the standalone table) decides which
//! run, in which order, in which process, paired in lockstep or not; the
//! closure still runs inside the frame that owns its borrows.

use crate::limits::Limits;
use std::cell::RefCell;

/// One benchmark the listing walk reached.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    /// Its id, as criterion prints it (`group/function/parameter`).
    pub id: String,
    /// What its configuration says of how long it takes.
    pub limits: Limits,
}

/// What the walk in progress on this thread is doing.
enum Walk {
    /// None: the program reached a benchmark outside `criterion_main!`.
    Idle,
    /// Noting every benchmark reached.
    Listing(Vec<Found>),
    /// Looking for one benchmark, to call it with nbench's `Bencher`.
    Aimed {
        id: String,
        /// Where to look: by its id, or by its place (see [`aimed_at`]).
        by: Aim,
        /// Benchmarks reached so far in this walk.
        seen: usize,
        /// nbench's `Bencher`, alive for the whole walk (see [`aimed_at`]).
        bencher: *mut nbench::Bencher<'static>,
        /// Whether it was reached already (a repeated id runs once).
        reached: bool,
    },
}

/// How an aimed walk knows its benchmark.
#[derive(Clone, Copy)]
enum Aim {
    /// The benchmark with the listed id.
    Id,
    /// The benchmark reached at this place in the program's order (as
    /// listed), if its id differs from the listed one in its last part only.
    Place(usize),
}

thread_local! {
    static WALK: RefCell<Walk> = const { RefCell::new(Walk::Idle) };
}

/// Puts the thread back to [`Walk::Idle`] when a walk ends, also when a
/// benchmark panics through it.
struct EndOfWalk;

impl Drop for EndOfWalk {
    fn drop(&mut self) {
        WALK.with(|w| *w.borrow_mut() = Walk::Idle);
    }
}

/// Walks `groups` and returns every benchmark they reach, in order.
pub(crate) fn list(groups: &[fn()]) -> Vec<Found> {
    WALK.with(|w| *w.borrow_mut() = Walk::Listing(Vec::new()));
    let end = EndOfWalk;
    for group in groups {
        group();
    }
    let found = WALK.with(
        |w| match std::mem::replace(&mut *w.borrow_mut(), Walk::Idle) {
            Walk::Listing(found) => found,
            _ => Vec::new(),
        },
    );
    drop(end);
    found
}

/// Walks `groups` until benchmark `id`, listed `place`-th, which is called
/// with `bencher`; returns whether it was reached.
///
/// A benchmark whose id carries a value that changes each time the program
/// runs (criterion suites name benchmarks after a clock reading, as in
/// `BenchmarkId::new("with_display", Local::now())`) is not reached again by
/// its listed id. When no benchmark has that id, a second walk calls the one
/// reached at the same place if its id differs in the last part only (the
/// same group and function); it is measured under the listed id.
pub(crate) fn aimed_at(
    groups: &[fn()],
    (id, place): (&str, usize),
    bencher: &mut nbench::Bencher<'_>,
) -> bool {
    // SAFETY: only the lifetime is erased. The pointer lives in this
    // thread's walk state, which `EndOfWalk` clears before `walk` returns
    // (or unwinds), while `bencher` is still mutably borrowed here; `reach`
    // turns it back into a reference only for the call of the benchmark's
    // closure, inside the walk.
    let bencher = unsafe {
        std::mem::transmute::<*mut nbench::Bencher<'_>, *mut nbench::Bencher<'static>>(bencher)
    };
    [Aim::Id, Aim::Place(place)]
        .into_iter()
        .any(|by| walk(groups, id, by, bencher))
}

/// One aimed walk through `groups`; whether it reached its benchmark.
fn walk(groups: &[fn()], id: &str, by: Aim, bencher: *mut nbench::Bencher<'static>) -> bool {
    WALK.with(|w| {
        *w.borrow_mut() = Walk::Aimed {
            id: id.to_owned(),
            by,
            seen: 0,
            bencher,
            reached: false,
        }
    });
    let end = EndOfWalk;
    for group in groups {
        group();
    }
    let reached = WALK.with(|w| matches!(*w.borrow(), Walk::Aimed { reached: true, .. }));
    drop(end);
    reached
}

/// What the walk did with a benchmark the program reached.
pub(crate) enum Reached {
    /// It was called.
    Called,
    /// It was passed by (listed, or another is aimed at).
    Passed,
    /// No walk is in progress: the program's own `main` reached it.
    Outside,
}

/// The program reached benchmark `id`: `call` runs it with nbench's
/// `Bencher` when the walk is aimed at it.
pub(crate) fn reach(
    id: &str,
    limits: Limits,
    call: impl FnOnce(&mut nbench::Bencher<'static>),
) -> Reached {
    let bencher = WALK.with(|w| match &mut *w.borrow_mut() {
        Walk::Idle => Err(Reached::Outside),
        Walk::Listing(found) => {
            found.push(Found {
                id: id.to_owned(),
                limits,
            });
            Err(Reached::Passed)
        }
        Walk::Aimed {
            id: aim,
            by,
            seen,
            bencher,
            reached,
        } => {
            let place = *seen;
            *seen += 1;
            let this = match *by {
                Aim::Id => aim == id,
                Aim::Place(p) => p == place && nbench::__private::same_but_last(aim, id),
            };
            if *reached || !this {
                Err(Reached::Passed)
            } else {
                *reached = true;
                Ok(*bencher)
            }
        }
    });
    match bencher {
        Ok(bencher) => {
            // SAFETY: see `aimed_at`: the walk that stored the pointer is
            // in progress (it is what called us), and the borrow of the
            // walk state is released before the closure runs.
            call(unsafe { &mut *bencher });
            Reached::Called
        }
        Err(other) => other,
    }
}
