//! Registration: benchmarks, groups and parameter lists, flattened into ids like `sort/std/1000`.

use crate::Bencher;
use crate::family::Scaling;
use crate::stats::Complexity;
use std::fmt::Display;
use std::rc::Rc;

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
        }
    }

    /// The ids of all registered benchmarks, in order.
    pub fn ids(&self) -> Vec<&str> {
        self.benches.iter().map(|b| b.id.as_str()).collect()
    }

    fn push(&mut self, id: String, func: BenchFn, scaling: Option<Scaling>) {
        self.benches.push(Benchmark {
            id,
            ignored: false,
            func,
            scaling,
        });
    }
}

/// A group without parameters; see [`Group::args`] to add some.
pub struct NoArgs;

/// A group's parameter list, and the complexity its benchmarks are fitted to.
pub struct Args<A> {
    values: Vec<Rc<A>>,
    complexity: Option<(Complexity, Vec<f64>)>,
}

/// A parameter that is a size `N`, for [`Group::complexity`].
pub trait Size {
    /// The size as a number.
    fn size(&self) -> f64;
}

macro_rules! size_as_f64 {
    ($($t:ty),*) => {$(
        impl Size for $t {
            fn size(&self) -> f64 {
                *self as f64
            }
        }
    )*};
}
size_as_f64!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

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
            args: Args {
                values: values.into_iter().map(Rc::new).collect(),
                complexity: None,
            },
        }
    }

    /// Parameters `lo`, the powers of 8 between, and `hi`
    /// ([`crate::params::range`]); [`Group::range_by`] takes another multiplier.
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// r.group("fill").range(8, 8 << 10).bench("vec", |b, &n| b.iter(|| vec![0u8; n as usize]));
    /// assert_eq!(r.ids(), ["fill/vec/8", "fill/vec/64", "fill/vec/512", "fill/vec/4096", "fill/vec/8192"]);
    /// ```
    pub fn range(self, lo: u64, hi: u64) -> Group<'r, Args<u64>> {
        self.range_by(lo, hi, 8)
    }

    /// Parameters `lo`, the powers of `multiplier` between, and `hi`.
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// r.group("fill").range_by(1, 1000, 10).bench("vec", |b, &n| b.iter(|| vec![0u8; n as usize]));
    /// assert_eq!(r.ids(), ["fill/vec/1", "fill/vec/10", "fill/vec/100", "fill/vec/1000"]);
    /// ```
    pub fn range_by(self, lo: u64, hi: u64, multiplier: u64) -> Group<'r, Args<u64>> {
        self.args(crate::params::range(lo, hi, multiplier))
    }

    /// Parameters `lo`, `lo + step`, … up to `hi` ([`crate::params::dense_range`]).
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// r.group("threads").dense_range(1, 4, 1).bench("spawn", |b, &n| {
    ///     b.iter(|| (0..n).map(|_| std::thread::spawn(|| ())).for_each(|h| h.join().unwrap()))
    /// });
    /// assert_eq!(r.ids().len(), 4);
    /// ```
    pub fn dense_range(self, lo: u64, hi: u64, step: u64) -> Group<'r, Args<u64>> {
        self.args(crate::params::dense_range(lo, hi, step))
    }

    /// Registers `group/name`.
    pub fn bench<F>(&mut self, name: &str, f: F) -> Marks<'_>
    where
        F: Fn(&mut Bencher<'_>) + 'static,
    {
        let start = self.registry.benches.len();
        self.registry
            .push(format!("{}/{name}", self.name), Box::new(f), None);
        Marks::new(self.registry, start)
    }
}

impl<A: Display + Size + 'static> Group<'_, Args<A>> {
    /// Marks the group's benchmarks as families over the size `N` (the
    /// parameter) to be fitted to `complexity`: after measuring, the report
    /// gives, per family, the shape, its coefficient and the RMS of the fit
    /// (as Google Benchmark's `BigO` and `RMS` rows do). `Complexity::Auto`
    /// picks the shape with the lowest RMS; `Complexity::Custom` takes a
    /// function of your own.
    ///
    /// ```
    /// use nbench::Complexity;
    /// # let mut r = nbench::Registry::new();
    /// r.group("sort")
    ///     .args([1u32 << 10, 1 << 12, 1 << 14])
    ///     .complexity(Complexity::Auto)
    ///     .bench("unstable", |b, &n| {
    ///         let v: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2654435761)).collect();
    ///         b.iter_batched(|| v.clone(), |mut v| v.sort_unstable());
    ///     });
    /// r.group("lookup")
    ///     .args([16u64, 256, 4096])
    ///     .complexity(Complexity::Custom("√N", f64::sqrt))
    ///     .bench("scan", |b, &n| b.iter(|| (0..n).step_by(64).sum::<u64>()));
    /// ```
    pub fn complexity(mut self, complexity: Complexity) -> Self {
        let sizes = self.args.values.iter().map(|v| v.size()).collect();
        self.args.complexity = Some((complexity, sizes));
        self
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
        let family = format!("{}/{name}", self.name);
        for (i, value) in self.args.values.iter().enumerate() {
            let id = format!("{family}/{value}");
            let scaling = self
                .args
                .complexity
                .as_ref()
                .map(|(c, sizes)| Scaling::new(family.clone(), sizes[i], *c));
            let (f, value) = (Rc::clone(&f), Rc::clone(value));
            self.registry
                .push(id, Box::new(move |b| f(b, &value)), scaling);
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
