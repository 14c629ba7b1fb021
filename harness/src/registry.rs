//! Registration: benchmarks, groups and parameter lists, flattened into ids like `sort/std/1000`.

use crate::Bencher;
use crate::engine::Hint;
use crate::family::Scaling;

pub(crate) type BenchFn = Box<dyn Fn(&mut Bencher<'_>)>;

/// One registered benchmark, parameters already applied.
pub(crate) struct Benchmark {
    pub id: String,
    pub ignored: bool,
    pub func: BenchFn,
    /// Its place in a family marked with a complexity.
    pub scaling: Option<Scaling>,
    /// Its group and variant (parameter and thread count part of the id):
    /// members of a group with the same variant are compared with the
    /// group's baseline of that variant.
    pub member: Option<Member>,
    /// Whether it is its group's baseline ([`Marks::baseline`]).
    pub baseline: bool,
    /// What its own configuration says of how long it takes.
    pub hint: Option<Hint>,
    /// Whether it runs only in another process of this executable, aimed
    /// at it (see [`Marks::__elsewhere`]): its `func` is not its body.
    pub elsewhere: bool,
    /// The threads it runs on ([`Bencher::threads`]): 1, or a count from
    /// [`Group::threads`](crate::Group::threads).
    pub threads: usize,
}

/// Where a benchmark sits in its group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    pub group: String,
    /// The id's parts after the benchmark's name (`1000/threads=2`), maybe empty.
    pub variant: String,
}

/// The baseline `b` is compared with: the benchmark of the same group and
/// variant marked [`Marks::baseline`], when there is one and it is not `b`.
pub(crate) fn baseline_of<'a>(benches: &'a [Benchmark], b: &Benchmark) -> Option<&'a Benchmark> {
    let member = b.member.as_ref()?;
    if b.baseline {
        return None;
    }
    benches
        .iter()
        .find(|o| o.baseline && o.member.as_ref() == Some(member))
}

/// Whether ids `a` and `b` name the same benchmark under a value that
/// changed: both have a `/` and agree up to their last one (the same group
/// and function, another parameter). The one rule nbench-criterion's walk
/// and [`Registry::__ids_may_change`] go by.
pub fn same_but_last(a: &str, b: &str) -> bool {
    match (a.rsplit_once('/'), b.rsplit_once('/')) {
        (Some((a, _)), Some((b, _))) => a == b,
        _ => false,
    }
}

/// `id`, or where `taken` says another benchmark has it, `id #2` (`#3`, …
/// the first one free), as criterion titles benchmarks given one id: each
/// is listed, measured and compared apart. The one rule the registry and
/// nbench-criterion's listing go by.
pub fn numbered(id: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(id) {
        return id.to_owned();
    }
    (2..)
        .map(|k| format!("{id} #{k}"))
        .find(|title| !taken(title))
        .unwrap_or_default()
}

/// The benchmarks of one bench target, in registration order.
///
/// ```
/// let mut r = nbench::Registry::new();
/// r.bench("add", |b| b.iter(|| 2 + 2));
/// r.group("sum")
///     .args([16, 1000])
///     .bench("u64", |b, &n| {
///         let v: Vec<u64> = (0..n).collect();
///         b.iter(|| v.iter().sum::<u64>())
///     });
/// assert_eq!(r.ids(), ["add", "sum/u64/16", "sum/u64/1000"]);
/// ```
#[derive(Default)]
pub struct Registry {
    pub(crate) benches: Vec<Benchmark>,
    /// Whether an id may carry a value that changes from run to run (see
    /// [`Registry::__ids_may_change`]).
    ids_may_change: bool,
    /// Whether an id it does not hold may still be reached in another
    /// process of this executable (see [`Registry::__elsewhere_too`]).
    pub(crate) elsewhere_too: bool,
    /// Benchmarks run elsewhere that the program reaches later in this
    /// process (see [`Registry::__ahead`]).
    pub(crate) ahead: Vec<String>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a benchmark outside any group; its id is `name`.
    pub fn bench<F>(&mut self, name: &str, f: F) -> Marks<'_>
    where
        F: Fn(&mut Bencher<'_>) + 'static,
    {
        let start = self.benches.len();
        self.push(name.to_owned(), Box::new(f), None);
        Marks::new(self, start)
    }

    /// The ids of all registered benchmarks, in order.
    pub fn ids(&self) -> Vec<&str> {
        self.benches.iter().map(|b| b.id.as_str()).collect()
    }

    /// Says that the ids were made by running the program (as
    /// nbench-criterion makes criterion's), so one may carry a value that
    /// changes from run to run, such as a clock reading. `cargo nbench`
    /// lists a target's ids in one process and measures each in another;
    /// asked for an id no benchmark has, this registry then answers with the
    /// one benchmark whose id differs from it in the last `/` part only.
    #[doc(hidden)]
    pub fn __ids_may_change(&mut self) {
        self.ids_may_change = true;
    }

    /// The benchmark `cargo nbench` means by `id`: the one with that id, or
    /// under [`Registry::__ids_may_change`] the only one that differs from
    /// it in the last part.
    /// Says that a benchmark this registry does not hold may be reached in
    /// another process of this executable, aimed at it (a front end that
    /// reaches its benchmarks only where the program's own `main` does):
    /// protocol mode hands a command for one to such a process instead of
    /// answering that there is none.
    #[doc(hidden)]
    pub fn __elsewhere_too(&mut self) {
        self.elsewhere_too = true;
    }

    /// Says which of the benchmarks run elsewhere the program reaches later
    /// in this process: protocol mode ends its serving with a command for
    /// one kept ([`onward`](crate::modes::relay::onward)), for the front
    /// end to serve it there, instead of starting another process.
    #[doc(hidden)]
    pub fn __ahead(&mut self, ids: Vec<String>) {
        self.ahead = ids;
    }

    /// Whether benchmark `id` is run by another process of this executable.
    pub(crate) fn elsewhere(&self, id: &str) -> bool {
        match self.find(id) {
            Some(b) => b.elsewhere,
            None => self.elsewhere_too,
        }
    }

    pub(crate) fn find(&self, id: &str) -> Option<&Benchmark> {
        let exact = self.benches.iter().find(|b| b.id == id);
        if exact.is_some() || !self.ids_may_change {
            return exact;
        }
        let mut like = (self.benches.iter()).filter(|b| same_but_last(&b.id, id));
        match (like.next(), like.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }

    /// Registers a benchmark; an id registered already is numbered
    /// ([`numbered`]) rather than shadowed.
    pub(crate) fn push(&mut self, id: String, func: BenchFn, scaling: Option<Scaling>) {
        let id = numbered(&id, |id| self.benches.iter().any(|b| b.id == id));
        self.benches.push(Benchmark {
            id,
            ignored: false,
            func,
            scaling,
            member: None,
            baseline: false,
            hint: None,
            elsewhere: false,
            threads: 1,
        });
    }
}

/// Marks that apply to the benchmarks one `bench` call just registered.
pub struct Marks<'r> {
    registry: &'r mut Registry,
    start: usize,
}

impl<'r> Marks<'r> {
    pub(crate) fn new(registry: &'r mut Registry, start: usize) -> Self {
        Marks { registry, start }
    }

    /// Skips these benchmarks unless the binary is run with `--ignored` or
    /// `--include-ignored`, as `#[ignore]` does for tests.
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// r.bench("slow", |b| b.iter(|| std::thread::sleep(std::time::Duration::from_millis(1))))
    ///     .ignore();
    /// ```
    pub fn ignore(self) -> Self {
        for b in &mut self.registry.benches[self.start..] {
            b.ignored = true;
        }
        self
    }

    /// Scales these benchmarks' measuring limits by `hint` where nobody set
    /// them (what nbench-criterion makes of criterion's group settings).
    #[doc(hidden)]
    pub fn __hint(self, hint: Hint) -> Self {
        for b in &mut self.registry.benches[self.start..] {
            b.hint = Some(hint);
        }
        self
    }

    /// Says these benchmarks run only in another process of this
    /// executable, started (or re-executed) aimed at each
    /// ([`AIM_ENV`](crate::modes::relay::AIM_ENV)): their bodies here only
    /// say they could not be reached.
    #[doc(hidden)]
    pub fn __elsewhere(self) -> Self {
        for b in &mut self.registry.benches[self.start..] {
            b.elsewhere = true;
        }
        self
    }

    /// Runs these benchmarks on `threads` threads, their ids unchanged (what
    /// nbench-divan makes of divan's `threads`); they time their routine
    /// with [`Bencher::iter_threads`].
    ///
    /// # Panics
    /// If `threads` is 0.
    #[doc(hidden)]
    pub fn __threads(self, threads: usize) -> Self {
        assert!(threads > 0, "threads: a thread count must be at least 1");
        for b in &mut self.registry.benches[self.start..] {
            b.threads = threads;
        }
        self
    }

    /// Makes these benchmarks their group's baseline: every other member
    /// of the group (with the same parameter value and thread count) is
    /// measured interleaved with it, sample by sample, and reports its time
    /// as a ratio to it, with a CI and a mark when the difference is
    /// significant. A group has one baseline per parameter value.
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// let mut g = r.group("sort").args([1000u32]);
    /// g.bench("stable", |b, &n| {
    ///     let v: Vec<u32> = (0..n).rev().collect();
    ///     b.iter_batched(|| v.clone(), |mut v| v.sort())
    /// })
    /// .baseline();
    /// g.bench("unstable", |b, &n| {
    ///     let v: Vec<u32> = (0..n).rev().collect();
    ///     b.iter_batched(|| v.clone(), |mut v| v.sort_unstable())
    /// });
    /// ```
    ///
    /// # Panics
    /// If a benchmark is not in a group, or its group already has a
    /// baseline for the same parameter value and thread count.
    pub fn baseline(self) -> Self {
        let (before, these) = self.registry.benches.split_at_mut(self.start);
        for b in these.iter_mut() {
            let member = b.member.as_ref().unwrap_or_else(|| {
                panic!(
                    "baseline: `{}` is not in a group; register it with Registry::group",
                    b.id
                )
            });
            if let Some(other) = before
                .iter()
                .find(|o| o.baseline && o.member.as_ref() == Some(member))
            {
                panic!(
                    "baseline: `{}` and `{}` are both baselines of one group",
                    other.id, b.id
                );
            }
            b.baseline = true;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_registered_again_is_numbered_not_shadowed() {
        let mut r = Registry::new();
        for id in ["a", "b", "a", "a", "a #2"] {
            r.bench(id, |b| b.iter(|| ()));
        }
        r.group("g").args([1, 1]).bench("f", |b, _| b.iter(|| ()));
        assert_eq!(
            r.ids(),
            ["a", "b", "a #2", "a #3", "a #2 #2", "g/f/1", "g/f/1 #2"]
        );
        assert_eq!(r.find("a #3").map(|b| b.id.as_str()), Some("a #3"));
    }

    #[test]
    fn a_benchmark_run_elsewhere_is_told_from_one_run_here() {
        let mut r = Registry::new();
        r.bench("sum/16", |b| b.iter(|| ()));
        r.bench("sum/4096", |b| b.iter(|| ())).__elsewhere();
        assert!(!r.elsewhere("sum/16") && r.elsewhere("sum/4096"));
        // An id it does not hold is nobody's, unless said to be reached elsewhere.
        assert!(!r.elsewhere("grouped"));
        r.__elsewhere_too();
        assert!(r.elsewhere("grouped") && !r.elsewhere("sum/16"));
    }

    #[test]
    fn ids_and_ignore_marks() {
        let mut r = Registry::new();
        r.bench("a", |b| b.iter(|| ()));
        let mut g = r.group("g").args(["x", "y"]);
        g.bench("one", |b, _| b.iter(|| ())).ignore();
        g.bench("two", |b, _| b.iter(|| ()));
        r.group("h").bench("z", |b| b.iter(|| ()));
        assert_eq!(
            r.ids(),
            ["a", "g/one/x", "g/one/y", "g/two/x", "g/two/y", "h/z"]
        );
        let ignored: Vec<bool> = r.benches.iter().map(|b| b.ignored).collect();
        assert_eq!(ignored, [false, true, true, false, false, false]);
    }

    #[test]
    fn an_id_whose_last_part_changed_is_found_only_when_allowed_and_unique() {
        let mut r = Registry::new();
        r.bench("format/display/12:00:01", |b| b.iter(|| ()));
        r.bench("sum/16", |b| b.iter(|| ()));
        r.bench("sum/32", |b| b.iter(|| ()));
        let found = |r: &Registry, id: &str| r.find(id).map(|b| b.id.clone());
        assert_eq!(found(&r, "sum/16").as_deref(), Some("sum/16"));
        assert_eq!(found(&r, "format/display/12:00:07"), None);
        r.__ids_may_change();
        assert_eq!(
            found(&r, "format/display/12:00:07").as_deref(),
            Some("format/display/12:00:01")
        );
        // Two benchmarks differ from it in the last part: neither is meant.
        assert_eq!(found(&r, "sum/64"), None);
        assert_eq!(found(&r, "format/other/1"), None);
        assert_eq!(found(&r, "plain"), None);
    }
}
