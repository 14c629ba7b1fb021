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
//!
//! An aimed walk ends where its benchmark has run (where panics unwind):
//! what the program does after it (a `set_global_default(..).expect(..)`
//! before its next benchmark, as tracing's suite does, which panics when
//! done twice in one process) is not done for it. But where threads the
//! walk started still run there, unwinding could wait for them for ever:
//! arc-swap measures its contended rows inside a scope whose threads spin
//! until the code after the benchmark stops them, and a scope joins its
//! threads as it unwinds. There the benchmark returns as in criterion, and
//! the walk ends at the next benchmark reached with those threads gone
//! (passing by the others), or where the program's functions return.
//!
//! An aimed walk calls only the group function, and inside it only the
//! benchmark function (`criterion_group!`'s target, see [`enter_target`]),
//! where the listing reached its benchmark: what the other functions do
//! besides benchmarking (building their inputs) is not done again for it.
//! Only where that narrow walk does not reach it (a group function written
//! by hand that reaches other benchmarks each time) is the whole program
//! walked.

use crate::limits::Limits;
use std::cell::{Cell, RefCell};

/// One benchmark the listing walk reached.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    /// Its id, as criterion prints it (`group/function/parameter`).
    pub id: String,
    /// What its configuration says of how long it takes.
    pub limits: Limits,
    /// Where the program reached it.
    pub spot: Spot,
    /// Its place in the listing, and the place of the first benchmark
    /// listed at its spot.
    pub place: (usize, usize),
}

/// Where in the program a walk is: which group function (by its place in
/// `criterion_main!`) and which of its benchmark functions, where
/// `criterion_group!` wrote it (a group function written by hand says not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Spot {
    pub group: usize,
    pub target: Option<usize>,
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
        /// The one benchmark function to enter, where the walk is narrowed
        /// to one.
        target: Option<usize>,
        /// Benchmarks reached so far in this walk.
        seen: usize,
        /// nbench's `Bencher`, alive for the whole walk (see [`aimed_at`]).
        bencher: *mut nbench::Bencher<'static>,
        /// Whether it was reached already (a repeated id runs once).
        reached: bool,
        /// The threads of the process when the walk began, where the
        /// platform says: another at its end, and unwinding may wait on it.
        threads: Option<Vec<u32>>,
    },
}

/// How an aimed walk knows its benchmark.
#[derive(Clone, Copy)]
enum Aim {
    /// The benchmark with the listed id.
    Id,
    /// The benchmark reached at this place in the program's order (as
    /// listed), if its id differs from the listed one in its last part
    /// only, or is the listed one without the ` #2` the listing added to
    /// an id given twice.
    Place(usize),
}

thread_local! {
    static WALK: RefCell<Walk> = const { RefCell::new(Walk::Idle) };
    static SPOT: Cell<Spot> = const { Cell::new(Spot { group: 0, target: None }) };
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
    call(groups, 0..groups.len());
    let found = WALK.with(
        |w| match std::mem::replace(&mut *w.borrow_mut(), Walk::Idle) {
            Walk::Listing(found) => found,
            _ => Vec::new(),
        },
    );
    drop(end);
    found
}

/// Calls the group functions `which` of `groups`, each with the walk's spot
/// set to it.
fn call(groups: &[fn()], which: std::ops::Range<usize>) {
    for group in which {
        SPOT.with(|s| {
            s.set(Spot {
                group,
                target: None,
            })
        });
        groups[group]();
    }
}

/// `criterion_group!`'s function is about to call its benchmark function
/// `target` (counted from 0): whether to. Every one is called but where a
/// walk is aimed at a benchmark listed in another.
pub(crate) fn enter_target(target: usize) -> bool {
    SPOT.with(|s| {
        s.set(Spot {
            target: Some(target),
            ..s.get()
        })
    });
    WALK.with(|w| match &*w.borrow() {
        Walk::Aimed {
            target: Some(t), ..
        } => *t == target,
        _ => true,
    })
}

/// Walks `groups` until benchmark `found`, which is called with `bencher`;
/// returns whether it was reached. The walk is narrowed to where the
/// listing reached it first, and goes through all of `groups` only where
/// that does not reach it.
///
/// A benchmark whose id carries a value that changes each time the program
/// runs (criterion suites name benchmarks after a clock reading, as in
/// `BenchmarkId::new("with_display", Local::now())`) is not reached again by
/// its listed id. When no benchmark has that id, a second walk calls the one
/// reached at the same place if its id differs in the last part only (the
/// same group and function); it is measured under the listed id.
pub(crate) fn aimed_at(groups: &[fn()], found: &Found, bencher: &mut nbench::Bencher<'_>) -> bool {
    // SAFETY: only the lifetime is erased. The pointer lives in this
    // thread's walk state, which `EndOfWalk` clears before `walk` returns
    // (or unwinds), while `bencher` is still mutably borrowed here; `reach`
    // turns it back into a reference only for the call of the benchmark's
    // closure, inside the walk.
    let bencher = unsafe {
        std::mem::transmute::<*mut nbench::Bencher<'_>, *mut nbench::Bencher<'static>>(bencher)
    };
    let (place, first) = found.place;
    let narrow = Narrow {
        groups: found.spot.group..found.spot.group + 1,
        target: found.spot.target,
        seen: first,
    };
    let whole = Narrow {
        groups: 0..groups.len(),
        target: None,
        seen: 0,
    };
    // An id the listing numbered (`x #2`) is not the program's: look by place.
    let by_id = (first_name(&found.id) == found.id).then_some(Aim::Id);
    [narrow, whole].into_iter().any(|within| {
        [by_id, Some(Aim::Place(place))]
            .into_iter()
            .flatten()
            .any(|by| walk(groups, (&found.id, by), within.clone(), bencher))
    })
}

/// The part of the program an aimed walk goes through: some group
/// functions, maybe one benchmark function in them, and how many benchmarks
/// the listing reached before it.
#[derive(Clone)]
struct Narrow {
    groups: std::ops::Range<usize>,
    target: Option<usize>,
    seen: usize,
}

/// One aimed walk through `within`; whether it reached its benchmark.
fn walk(
    groups: &[fn()],
    (id, by): (&str, Aim),
    within: Narrow,
    bencher: *mut nbench::Bencher<'static>,
) -> bool {
    WALK.with(|w| {
        *w.borrow_mut() = Walk::Aimed {
            id: id.to_owned(),
            by,
            target: within.target,
            seen: within.seen,
            bencher,
            reached: false,
            threads: nbench::__private::live_threads(),
        }
    });
    let end = EndOfWalk;
    let walked =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| call(groups, within.groups)));
    if let Err(payload) = walked
        && !payload.is::<Done>()
    {
        std::panic::resume_unwind(payload);
    }
    let reached = WALK.with(|w| matches!(*w.borrow(), Walk::Aimed { reached: true, .. }));
    drop(end);
    reached
}

/// What ends an aimed walk where its benchmark has run: unwound out of the
/// program's functions (their locals dropped, as on return), caught by
/// [`walk`]. Where panics abort, the walk runs on to the program's end.
struct Done;

/// Ends the aimed walk in progress, its benchmark run ([`Done`]), unless
/// threads it started still run ([`threads_started`]).
fn end_walk() {
    if cfg!(panic = "unwind") && !threads_started() {
        // `resume_unwind`: no panic hook, nothing printed.
        std::panic::resume_unwind(Box::new(Done));
    }
}

/// Whether a thread the aimed walk in progress started still runs: the
/// program's, which a scope it is in would wait for as it unwinds. Where
/// the platform does not say, none.
fn threads_started() -> bool {
    let now = nbench::__private::live_threads();
    WALK.with(|w| match (&*w.borrow(), now) {
        (
            Walk::Aimed {
                threads: Some(began),
                ..
            },
            Some(now),
        ) => now.iter().any(|t| !began.contains(t)),
        _ => false,
    })
}

/// `id` without the ` #2` the listing may have added: the id the program
/// gives the benchmark. (Found at its place only, so a benchmark named so
/// by the program itself is not mistaken.)
fn first_name(id: &str) -> &str {
    match id.rsplit_once(" #") {
        Some((name, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => id,
    }
}

/// What the walk did with a benchmark the program reached.
pub(crate) enum Reached {
    /// It was called.
    Called,
    /// It was passed by (listed, or another is aimed at).
    Passed,
    /// It was reached after the walk's benchmark ran: the walk ends here,
    /// or passes it by.
    Tail,
    /// No walk is in progress: the program's own `main` reached it.
    Outside,
}

/// The program reached benchmark `id`: `call` runs it with nbench's
/// `Bencher` when the walk is aimed at it.
pub(crate) fn reach(
    id: &str,
    limits: Limits,
    mut call: impl FnMut(&mut nbench::Bencher<'static>),
) -> Reached {
    let bencher = WALK.with(|w| match &mut *w.borrow_mut() {
        Walk::Idle => Err(Reached::Outside),
        Walk::Listing(found) => {
            let spot = SPOT.with(Cell::get);
            let place = found.len();
            // A spot's benchmarks are listed one after another.
            let first = match found.last() {
                Some(last) if last.spot == spot => last.place.1,
                _ => place,
            };
            found.push(Found {
                // criterion's title for an id given again (`x #2`), so
                // that each is measured, not the first one twice.
                id: nbench::__private::numbered(id, |id| found.iter().any(|f| f.id == id)),
                limits,
                spot,
                place: (place, first),
            });
            Err(Reached::Passed)
        }
        Walk::Aimed {
            id: aim,
            by,
            seen,
            bencher,
            reached,
            ..
        } => {
            let place = *seen;
            *seen += 1;
            let this = match *by {
                Aim::Id => aim == id,
                Aim::Place(p) => {
                    p == place
                        && (aim == id
                            || first_name(aim) == id
                            || nbench::__private::same_but_last(aim, id))
                }
            };
            if *reached {
                Err(Reached::Tail)
            } else if !this {
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
            end_walk();
            Reached::Called
        }
        // Past the benchmark, where the walk could not end (see `end_walk`).
        Err(Reached::Tail) => {
            end_walk();
            Reached::Passed
        }
        Err(other) => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_given_again_is_numbered_as_criterion_titles_it() {
        let mut found: Vec<Found> = Vec::new();
        for id in ["a", "b", "a", "a", "a #2"] {
            let id = nbench::__private::numbered(id, |id| found.iter().any(|f| f.id == id));
            found.push(Found {
                id,
                limits: Limits::default(),
                spot: Spot::default(),
                place: (found.len(), 0),
            });
        }
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "a #2", "a #3", "a #2 #2"]);
        assert_eq!(first_name("a #3"), "a");
        assert_eq!(first_name("a #2 #2"), "a #2");
        for kept in ["a", "a #", "a #x", "issue #12a", "#3"] {
            assert_eq!(first_name(kept), kept);
        }
    }
}
