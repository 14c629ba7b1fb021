//! Registration: benchmarks, groups and parameter lists, flattened into ids like `sort/std/1000`.

use crate::Bencher;
use crate::family::Scaling;
use crate::group::{Group, NoArgs};

type BenchFn = Box<dyn Fn(&mut Bencher<'_>)>;

/// One registered benchmark, parameters already applied.
pub(crate) struct Benchmark {
    pub id: String,
    pub ignored: bool,
    pub func: BenchFn,
    /// Its place in a family marked with a complexity.
    pub scaling: Option<Scaling>,
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

    /// Starts a group: benchmarks registered through it get ids `group/name`.
    pub fn group(&mut self, name: &str) -> Group<'_, NoArgs> {
        Group {
            registry: self,
            name: name.to_owned(),
            args: NoArgs,
            threads: Vec::new(),
        }
    }

    /// The ids of all registered benchmarks, in order.
    pub fn ids(&self) -> Vec<&str> {
        self.benches.iter().map(|b| b.id.as_str()).collect()
    }

    pub(crate) fn push(&mut self, id: String, func: BenchFn, scaling: Option<Scaling>) {
        self.benches.push(Benchmark {
            id,
            ignored: false,
            func,
            scaling,
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
    pub fn ignore(self) {
        for b in &mut self.registry.benches[self.start..] {
            b.ignored = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
