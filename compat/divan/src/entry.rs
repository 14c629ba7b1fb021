//! The benchmarks the attributes listed, registered with nbench, and the
//! bench binary's `main`.

use crate::counter::Counter;
use std::collections::BTreeSet;
use std::fmt::Debug;

/// One `#[divan::bench]` function, as its attribute listed it.
pub struct Entry {
    /// `module_path!()` where it was written.
    pub module: &'static str,
    /// The function's name, or the `name = "…"` option.
    pub name: &'static str,
    /// `#[ignore]` or `ignore = true`.
    pub ignored: bool,
    /// Options it was given that nbench does not honour.
    pub unhonoured: &'static [&'static str],
    /// `threads = …`: the thread counts it runs on (0: all the machine has).
    pub threads: Option<fn() -> Vec<usize>>,
    /// Registers one nbench benchmark per type, constant and argument.
    pub register: fn(&mut Registrar<'_>),
}

/// Every `#[divan::bench]` of the program.
#[linkme::distributed_slice]
pub static BENCHES: [Entry];

/// One `#[divan::bench_group]` module.
pub struct Group {
    /// The module's own path.
    pub module: &'static str,
    /// `name = "…"`: what ids call the module instead of its name.
    pub name: Option<&'static str>,
    /// Options it was given that nbench does not honour.
    pub unhonoured: &'static [&'static str],
    /// `threads = …` for the benchmarks inside that give none themselves.
    pub threads: Option<fn() -> Vec<usize>>,
    /// `counters = …` (or `bytes_count = …`, …) for every benchmark inside.
    pub counters: Option<fn() -> Vec<Counter>>,
}

/// Every `#[divan::bench_group]` of the program.
#[linkme::distributed_slice]
pub static GROUPS: [Group];

/// Registers an entry's benchmarks under its divan path.
pub struct Registrar<'a> {
    registry: &'a mut nbench::Registry,
    /// The runner's: counters, benchmarks left out.
    divan: &'a crate::Divan,
    path: String,
    ignored: bool,
    /// The thread counts each benchmark runs on: one, or several each
    /// ending its id as divan shows them (`::t=4`).
    threads: Vec<usize>,
    /// The counters of the `#[bench_group]`s around it, outermost first.
    groups: Vec<Counter>,
}

impl Registrar<'_> {
    /// A benchmark named by the entry's path and `parts` (type, constant,
    /// argument, each if there is one), once per thread count, unless the
    /// runner leaves it out. The groups' counters are declared first; `f`
    /// declares the attribute's counters, then the runner's it is given
    /// (each standing over those of its kind before it), then runs.
    pub fn add<F>(&mut self, parts: &[Option<&str>], f: F)
    where
        F: Fn(&mut nbench::Bencher<'_>, &[Counter]) + 'static,
    {
        let mut id = self.path.clone();
        for p in parts.iter().flatten() {
            id.push_str("::");
            id.push_str(p);
        }
        if self.divan.skips.iter().any(|s| s.leaves_out(&id)) {
            return;
        }
        let counters = self.divan.counters.to_vec();
        let groups = self.groups.clone();
        let f = std::rc::Rc::new(move |b: &mut nbench::Bencher<'_>| {
            count_all(b, &groups);
            f(b, &counters)
        });
        for &n in &self.threads {
            let id = match self.threads.len() {
                1 => id.clone(),
                _ => format!("{id}::t={n}"),
            };
            let f = std::rc::Rc::clone(&f);
            // Every count is at least 1 (`threads::resolve`).
            let marks = (self.registry)
                .bench(&id, move |b| {
                    f(b);
                    nbench::__private::skip_if_untimed(b, NOT_TIMED);
                })
                .__threads(n);
            if self.ignored {
                marks.ignore();
            }
        }
    }
}

/// Why a benchmark whose function called none of the `Bencher`'s timing
/// methods is skipped: divan warns and leaves it out, and so does its
/// front end, rather than fail it.
const NOT_TIMED: &str = "its function timed nothing (it called no `bench` method): divan \
                         leaves such a benchmark out";

/// `module::function` below the crate's root, as divan names a benchmark:
/// a group module by its `name` where it has one.
fn path_of(e: &Entry) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut module = String::new();
    for (i, segment) in e.module.split("::").enumerate() {
        if i > 0 {
            module.push_str("::");
        }
        module.push_str(segment);
        if i == 0 {
            continue;
        }
        let named = GROUPS
            .iter()
            .find(|g| g.module == module)
            .and_then(|g| g.name);
        parts.push(named.unwrap_or(segment).to_owned());
    }
    parts.push(e.name.to_owned());
    parts.join("::")
}

/// The counters of the `#[bench_group]`s around `e`, outermost first.
fn group_counters(e: &Entry) -> Vec<Counter> {
    let mut around: Vec<&Group> = (GROUPS.iter())
        .filter(|g| crate::threads::within(e.module, g.module))
        .collect();
    around.sort_by_key(|g| g.module.len());
    (around.iter())
        .filter_map(|g| g.counters)
        .flat_map(|c| c())
        .collect()
}

/// An argument as the function takes it: by value (cloned from the list)
/// or by reference to it.
pub trait Pass<P> {
    fn pass(self) -> P;
}

impl<A: Clone> Pass<A> for &'static A {
    fn pass(self) -> A {
        self.clone()
    }
}

/// Arguments listed by reference (`args = SLICE`), the function taking values.
impl<A: Clone> Pass<A> for &'static &'static A {
    fn pass(self) -> A {
        (*self).clone()
    }
}

impl<A> Pass<&'static A> for &'static A {
    fn pass(self) -> &'static A {
        self
    }
}

/// The argument `arg` as the benchmark function's parameter wants it.
pub fn pass<A, P>(arg: &'static A) -> P
where
    &'static A: Pass<P>,
{
    arg.pass()
}

/// An argument or constant as an id names it: by `Display` where it has
/// one, else by `Debug` (a string without its quotes). The macros call
/// `(&&Shown(value)).shown()`, which method resolution takes from
/// [`ByDisplay`] when it applies and from [`ByDebug`] otherwise.
pub struct Shown<'a, T: ?Sized>(pub &'a T);

/// `Display`'s name for a value.
pub trait ByDisplay {
    fn shown(&self) -> String;
}

impl<T: std::fmt::Display + ?Sized> ByDisplay for &Shown<'_, T> {
    fn shown(&self) -> String {
        self.0.to_string()
    }
}

/// `Debug`'s name for a value, for what has no `Display`.
pub trait ByDebug {
    fn shown(&self) -> String;
}

impl<T: Debug + ?Sized> ByDebug for Shown<'_, T> {
    fn shown(&self) -> String {
        let debug = format!("{:?}", self.0);
        match debug.strip_prefix('"').and_then(|d| d.strip_suffix('"')) {
            Some(inner) => inner.to_owned(),
            None => debug,
        }
    }
}

/// Declares a counter on the benchmark about to run.
pub fn count(b: &mut nbench::Bencher<'_>, counter: impl Into<Counter>) {
    counter.into().declare(b);
}

/// Declares the runner's counters, after the attribute's (so they stand
/// over those of their kind, as in divan).
pub fn count_all(b: &mut nbench::Bencher<'_>, runner: &[Counter]) {
    for c in runner {
        c.declare(b);
    }
}

/// The bench binary as `divan` configured it: registers every entry, says
/// once what is not honoured, runs as the command line asks; the exit code.
pub fn run(divan: &crate::Divan) -> i32 {
    let divan = match divan.read {
        true => divan.clone(),
        false => crate::cli::read(divan.clone(), std::env::args().skip(1)),
    };
    if !divan.faults.is_empty() {
        for fault in &divan.faults {
            eprintln!("error: {fault}");
        }
        return 2;
    }
    let mut registry = nbench::Registry::new();
    let mut unhonoured: BTreeSet<&str> = divan.unhonoured.iter().copied().collect();
    let mut entries: Vec<&Entry> = BENCHES.iter().collect();
    entries.sort_by_key(|e| path_of(e));
    for e in entries {
        unhonoured.extend(e.unhonoured.iter().copied());
        let mut r = Registrar {
            registry: &mut registry,
            divan: &divan,
            path: path_of(e),
            ignored: e.ignored,
            threads: crate::threads::counts_for(e, divan.threads.as_deref()),
            groups: group_counters(e),
        };
        (e.register)(&mut r);
    }
    for g in GROUPS.iter() {
        unhonoured.extend(g.unhonoured.iter().copied());
    }
    let protocol = divan.args.iter().any(|a| a.starts_with("--nbench"));
    if !protocol {
        for option in unhonoured {
            eprintln!(
                "note: divan's `{option}` is accepted and not honoured: cargo nbench decides how \
                 long and how often each benchmark is sampled"
            );
        }
    }
    let code = nbench::__private::modes::run(&registry, divan.args.clone());
    if code == std::process::ExitCode::SUCCESS {
        0
    } else {
        1
    }
}
