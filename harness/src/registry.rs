//! Registration: benchmarks, groups and parameter lists, flattened into ids like `sort/std/1000`.

use crate::Bencher;
use std::fmt::Display;
use std::rc::Rc;

type BenchFn = Box<dyn Fn(&mut Bencher<'_>)>;

/// One registered benchmark, parameters already applied.
pub(crate) struct Benchmark {
    pub id: String,
    pub ignored: bool,
    pub func: BenchFn,
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
        self.push(name.to_owned(), Box::new(f));
        Marks::new(self, start)
    }

    /// Starts a group: benchmarks registered through it get ids `group/name`.
    pub fn group(&mut self, name: &str) -> Group<'_, NoArgs> {
        Group {
            registry: self,
            name: name.to_owned(),
            args: NoArgs,
        }
    }

    /// The ids of all registered benchmarks, in order.
    pub fn ids(&self) -> Vec<&str> {
        self.benches.iter().map(|b| b.id.as_str()).collect()
    }

    fn push(&mut self, id: String, func: BenchFn) {
        self.benches.push(Benchmark {
            id,
            ignored: false,
            func,
        });
    }
}

/// A group without parameters; see [`Group::args`] to add some.
pub struct NoArgs;

/// A group's parameter list.
pub struct Args<A>(Vec<Rc<A>>);

/// A group of benchmarks sharing a name prefix and, optionally, parameters.
pub struct Group<'r, P> {
    registry: &'r mut Registry,
    name: String,
    args: P,
}

impl<'r> Group<'r, NoArgs> {
    /// Gives the group a parameter list: each benchmark of the group runs once
    /// per value, which is passed to it and shown in the id (`group/name/value`).
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// r.group("sort").args([10, 100]).bench("std", |b, &n| {
    ///     let v: Vec<u32> = (0..n).rev().collect();
    ///     b.iter_batched(|| v.clone(), |mut v| v.sort());
    /// });
    /// assert_eq!(r.ids(), ["sort/std/10", "sort/std/100"]);
    /// ```
    pub fn args<A, I>(self, values: I) -> Group<'r, Args<A>>
    where
        A: Display + 'static,
        I: IntoIterator<Item = A>,
    {
        Group {
            registry: self.registry,
            name: self.name,
            args: Args(values.into_iter().map(Rc::new).collect()),
        }
    }

    /// Registers `group/name`.
    pub fn bench<F>(&mut self, name: &str, f: F) -> Marks<'_>
    where
        F: Fn(&mut Bencher<'_>) + 'static,
    {
        let start = self.registry.benches.len();
        self.registry
            .push(format!("{}/{name}", self.name), Box::new(f));
        Marks::new(self.registry, start)
    }
}

impl<A: Display + 'static> Group<'_, Args<A>> {
    /// Registers `group/name/value` for every value of the parameter list.
    pub fn bench<F>(&mut self, name: &str, f: F) -> Marks<'_>
    where
        F: Fn(&mut Bencher<'_>, &A) + 'static,
    {
        let start = self.registry.benches.len();
        let f = Rc::new(f);
        for value in &self.args.0 {
            let id = format!("{}/{name}/{value}", self.name);
            let (f, value) = (Rc::clone(&f), Rc::clone(value));
            self.registry.push(id, Box::new(move |b| f(b, &value)));
        }
        Marks::new(self.registry, start)
    }
}

/// Marks that apply to the benchmarks one `bench` call just registered.
pub struct Marks<'r> {
    registry: &'r mut Registry,
    start: usize,
}

impl<'r> Marks<'r> {
    fn new(registry: &'r mut Registry, start: usize) -> Self {
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
