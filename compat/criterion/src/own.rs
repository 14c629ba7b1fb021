//! A `main` of the program's own: benchmarks reached where it calls them.
//!
//! Some suites write `main` themselves (`Criterion::default()
//! .configure_from_args()`, then their functions) instead of
//! `criterion_main!`. Their benchmarks can be reached only as that `main`
//! runs, once a process, so each is run in a process of its own:
//!
//! - a process started plainly lists: its `main` runs to its end with every
//!   benchmark noted and none called; at its end (`atexit`) the command line
//!   is served, each benchmark run in a process aimed at it
//!   ([`AIM_ENV`](nbench::__private::modes::AIM_ENV));
//! - a process aimed at one passes the others by and serves the command
//!   line where `main` reaches it, then ends there: what `main` does after
//!   it is not done. One that never reaches it serves at `main`'s end,
//!   saying so for that benchmark.
//!
//! Where `cargo nbench` keeps the run's listing ([`listing`]), a plain
//! process does not list again: it is aimed at the first benchmark.
//! A process that counts instructions (under Valgrind, which follows no
//! other process) counts each benchmark where `main` reaches it and goes on.

use crate::limits::Limits;
use crate::listing;
use crate::walk::{Found, Spot};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

/// Set by `criterion_main!`'s `main`: a benchmark reached outside its walks
/// is then not the program's own `main`'s.
pub(crate) static BY_MACRO: AtomicBool = AtomicBool::new(false);

/// What this process does with the benchmarks its `main` reaches.
enum Role {
    /// None reached yet.
    Unset,
    /// Noting each (the ids as numbered so far).
    Listing(Vec<Found>),
    /// Passing each by until `aim` (the ids so far, numbered as listed;
    /// `aim`'s place in the kept listing, if known).
    Aimed {
        aim: String,
        place: Option<usize>,
        seen: Vec<String>,
    },
    /// Counting each as reached (the ids so far; whether one failed).
    Counting { seen: Vec<String>, failed: bool },
    /// Serving the command line already.
    Serving,
}

static ROLE: Mutex<Role> = Mutex::new(Role::Unset);

/// A benchmark's closure, handed to the registry the process serves from
/// inside the frame that owns it (see [`serve`]).
type Call<'a> = &'a mut dyn FnMut(&mut nbench::Bencher<'static>);

/// The program's own `main` reached benchmark `id`: noted, passed by,
/// counted, or (where this process is aimed at it) served here; the process
/// then ends there, or goes on to a benchmark it was asked for that `main`
/// reaches later.
pub(crate) fn reach(id: &str, limits: Limits, call: Call<'_>) {
    if BY_MACRO.load(Ordering::Relaxed) {
        crate::notice::once(
            "a benchmark reached outside `criterion_main!`'s groups (from another thread, or after them) is not run",
        );
        return;
    }
    let mut role = ROLE.lock().unwrap_or_else(|e| e.into_inner());
    if let Role::Unset = *role {
        *role = first_role();
        // SAFETY: registers a function taking nothing, run once as the
        // process exits.
        unsafe { c::atexit(at_end) };
    }
    match &mut *role {
        Role::Listing(found) => {
            let id = nbench::__private::numbered(id, |id| found.iter().any(|f| f.id == id));
            let place = found.len();
            found.push(Found {
                id,
                limits,
                spot: Spot::default(),
                place: (place, place),
            });
        }
        Role::Aimed { aim, place, seen } => {
            let id = nbench::__private::numbered(id, |id| seen.iter().any(|s| s == id));
            // An id made from a clock reading differs in its last part
            // from the listed one: found at its place (as `walk` does).
            let this = id == *aim
                || (*place == Some(seen.len()) && nbench::__private::same_but_last(aim, &id));
            seen.push(id);
            if this {
                let (aim, seen) = (std::mem::take(aim), std::mem::take(seen));
                *role = Role::Serving;
                drop(role);
                let code = serve(&aim, Some((limits, call)));
                // Asked for one the program reaches later: carry on to it.
                let Some(next) = nbench::__private::modes::onward() else {
                    std::process::exit(code.into());
                };
                *ROLE.lock().unwrap_or_else(|e| e.into_inner()) = aimed(next, seen);
            }
        }
        Role::Counting { seen, .. } => {
            let id = nbench::__private::numbered(id, |id| seen.iter().any(|s| s == id));
            seen.push(id.clone());
            let found = vec![Found {
                id: id.clone(),
                limits,
                spot: Spot::default(),
                place: (0, 0),
            }];
            // Unlocked while it runs: the benchmark's closure is the program's.
            let during = std::mem::replace(&mut *role, Role::Serving);
            drop(role);
            let ok = served(found, Some(&id), Some(call), Vec::new())
                == nbench::__private::modes::EXIT_OK;
            let mut role = ROLE.lock().unwrap_or_else(|e| e.into_inner());
            *role = during;
            if let (Role::Counting { failed, .. }, false) = (&mut *role, ok) {
                *failed = true;
            }
        }
        Role::Unset | Role::Serving => {}
    }
}

/// What a process does from its first benchmark on: counting where it
/// counts, else aimed as it was started, else at the first kept one, else
/// listing.
fn first_role() -> Role {
    let flag = nbench::__private::protocol::COUNT_FLAG;
    if std::env::args().any(|a| a == flag) {
        return Role::Counting {
            seen: Vec::new(),
            failed: false,
        };
    }
    let aim = nbench::__private::modes::aim().or_else(|| Some(kept().first()?.id.clone()));
    match aim {
        Some(aim) => aimed(aim, Vec::new()),
        None => Role::Listing(Vec::new()),
    }
}

/// The listing an earlier process of this run kept (empty where none),
/// read once a process.
fn kept() -> &'static [Found] {
    static KEPT: OnceLock<Vec<Found>> = OnceLock::new();
    KEPT.get_or_init(|| listing::kept().unwrap_or_default())
}

/// Aimed at `aim`, past the benchmarks `seen`.
fn aimed(aim: String, seen: Vec<String>) -> Role {
    Role::Aimed {
        place: kept().iter().position(|f| f.id == aim),
        aim,
        seen,
    }
}

/// The program's `main` ended (or it called `exit`): a listing process
/// serves now, each benchmark run elsewhere; one aimed at a benchmark it
/// did not reach serves, saying so for it.
extern "C" fn at_end() {
    let role = std::mem::replace(
        &mut *ROLE.lock().unwrap_or_else(|e| e.into_inner()),
        Role::Serving,
    );
    let code = match role {
        Role::Listing(found) => {
            listing::keep(&found);
            served(found, None, None, Vec::new())
        }
        Role::Aimed { aim, .. } => serve(&aim, None),
        Role::Counting { failed: true, .. } => nbench::__private::modes::EXIT_FAILED,
        Role::Counting { .. } | Role::Unset | Role::Serving => return,
    };
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: ends the process without running the exit handlers again
    // (this is one).
    unsafe { c::_exit(code.into()) }
}

/// Serves the command line aimed at `aim`: with its closure where `here`
/// holds it (and the program goes on past it: the benchmarks listed after
/// it lie ahead), else saying it was not reached.
fn serve(aim: &str, here: Option<(Limits, Call<'_>)>) -> u8 {
    let mut found = kept().to_vec();
    let at = match found.iter().position(|f| f.id == aim) {
        Some(at) => at,
        None => {
            let limits = here.as_ref().map(|(l, _)| *l).unwrap_or_default();
            let place = found.len();
            found.push(Found {
                id: aim.to_owned(),
                limits,
                spot: Spot::default(),
                place: (place, place),
            });
            place
        }
    };
    let ahead = match here {
        Some(_) => found[at + 1..].iter().map(|f| f.id.clone()).collect(),
        None => Vec::new(),
    };
    served(found, Some(aim), here.map(|(_, call)| call), ahead)
}

/// Serves the command line with the benchmarks `found`: `aim` run here
/// (by `call`, else failing as not reached), the others elsewhere, those
/// `ahead` reached later in this process.
fn served(found: Vec<Found>, aim: Option<&str>, call: Option<Call<'_>>, ahead: Vec<String>) -> u8 {
    let ids: Vec<String> = found.iter().map(|f| f.id.clone()).collect();
    let args = match crate::args::translate(std::env::args().skip(1), &ids) {
        Ok(crate::args::Translated::Run(args)) => args,
        Ok(crate::args::Translated::Exit(code)) => return code,
        Err(e) => {
            eprintln!("error: {e}\n\nFor more information, try '--help'.");
            return nbench::__private::modes::EXIT_USAGE;
        }
    };
    // SAFETY: only the lifetime is erased. The registry that holds the
    // pointer lives in this function, called from the frame that owns the
    // closure (see `reach`).
    let call = call.map(|c| unsafe {
        std::mem::transmute::<Call<'_>, *mut dyn FnMut(&mut nbench::Bencher<'static>)>(c)
    });
    // Its ids are the listed ones, as `cargo nbench` asks for them (one
    // whose id changed is found at its place, see `reach`): none is taken
    // for another that differs in its last part.
    let mut registry = nbench::Registry::new();
    registry.__elsewhere_too();
    registry.__ahead(ahead);
    for f in found {
        let this = Some(f.id.as_str()) == aim;
        let marks = match (this, call) {
            (true, Some(call)) => registry.bench(&f.id, move |b| {
                // SAFETY: as above; the `Bencher` outlives the call, and
                // only its lifetime is erased, as the walks do.
                let b = unsafe {
                    std::mem::transmute::<&mut nbench::Bencher<'_>, &mut nbench::Bencher<'static>>(b)
                };
                unsafe { (*call)(b) }
            }),
            (true, None) => registry.bench(&f.id, |_| {
                panic!(
                    "the program's `main` did not reach this benchmark again: it reaches other benchmarks each time it runs"
                )
            }),
            (false, _) => registry
                .bench(&f.id, |_| {
                    panic!("this benchmark runs in a process of its own, which could not be started")
                })
                .__elsewhere(),
        };
        if let Some(hint) = f.limits.hint() {
            marks.__hint(hint);
        }
    }
    nbench::__private::modes::code(&registry, args)
}

/// What the C library gives for a process's end.
mod c {
    unsafe extern "C" {
        /// Registers `f` to run when the process exits.
        pub fn atexit(f: extern "C" fn()) -> i32;
        /// Ends the process at once, running no exit handler.
        pub fn _exit(code: i32) -> !;
    }
}
