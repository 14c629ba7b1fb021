//! Groups: a name prefix, optionally a parameter list (values, products, named values) and types.

use crate::Bencher;
use crate::family::Scaling;
use crate::params::{Product, type_label};
use crate::registry::{BenchFn, Marks, Member, Registry};
use crate::stats::Complexity;
use std::fmt::Display;
use std::rc::Rc;

impl Registry {
    /// Starts a group: benchmarks registered through it get ids `group/name`.
    pub fn group(&mut self, name: &str) -> Group<'_, NoArgs> {
        Group {
            registry: self,
            name: name.to_owned(),
            args: NoArgs,
            threads: Vec::new(),
        }
    }
}

/// A group without parameters; see [`Group::args`] to add some.
pub struct NoArgs;

/// A group's parameter list, and the complexity its benchmarks are fitted to.
pub struct Args<A> {
    /// Each value with the parts of its label (one part per list of a product).
    values: Vec<(Rc<A>, Vec<String>)>,
    complexity: Option<(Complexity, Vec<f64>)>,
}

impl<A> Args<A> {
    fn new(values: impl IntoIterator<Item = (A, Vec<String>)>) -> Self {
        Args {
            values: values.into_iter().map(|(v, l)| (Rc::new(v), l)).collect(),
            complexity: None,
        }
    }
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
    pub(crate) registry: &'r mut Registry,
    pub(crate) name: String,
    pub(crate) args: P,
    /// Thread counts from [`Group::threads`]; empty when not given.
    pub(crate) threads: Vec<usize>,
}

impl<P> Group<'_, P> {
    /// Runs each benchmark of the group once per thread count, with
    /// `/threads=N` ending its id; the benchmark times its routine with
    /// [`Bencher::iter_threads`], and its setup and teardown run once per
    /// thread count. Ids keep the suffix even for a count of 1, so results
    /// line up across counts.
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// r.group("sum").args([1000u64]).threads([1, 2]).bench("atomic", |b, &n| {
    ///     let total = std::sync::atomic::AtomicU64::new(0);
    ///     b.iter_threads(|_| || for i in 0..n { total.fetch_add(i, std::sync::atomic::Ordering::Relaxed); });
    /// });
    /// assert_eq!(r.ids(), ["sum/atomic/1000/threads=1", "sum/atomic/1000/threads=2"]);
    /// ```
    ///
    /// # Panics
    /// If a count is zero.
    pub fn threads(mut self, counts: impl IntoIterator<Item = usize>) -> Self {
        self.threads = counts.into_iter().collect();
        assert!(
            self.threads.iter().all(|&n| n > 0),
            "threads: a thread count must be at least 1"
        );
        self
    }

    /// Registers `name` with the parameter part `variant` of its id (once
    /// per thread count, when there are some).
    fn push(
        &mut self,
        name: &str,
        variant: &str,
        f: Rc<dyn Fn(&mut Bencher<'_>)>,
        scaling: Option<Scaling>,
    ) {
        let join = |a: &str, b: &str| match (a.is_empty(), b.is_empty()) {
            (_, true) => a.to_owned(),
            (true, false) => b.to_owned(),
            (false, false) => format!("{a}/{b}"),
        };
        let mut register = |variant: String, func: BenchFn, scaling: Option<Scaling>, threads| {
            let id = join(&format!("{}/{name}", self.name), &variant);
            self.registry.push(id, func, scaling);
            let pushed = self.registry.benches.last_mut().expect("just pushed");
            pushed.threads = threads;
            pushed.member = Some(Member {
                group: self.name.clone(),
                variant,
            });
        };
        if self.threads.is_empty() {
            register(variant.to_owned(), Box::new(move |b| f(b)), scaling, 1);
            return;
        }
        for &n in &self.threads {
            let f = Rc::clone(&f);
            // A family's members of one thread count are fitted together.
            let scaling = scaling.clone().map(|mut s| {
                s.family = format!("{}/threads={n}", s.family);
                s
            });
            register(
                join(variant, &format!("threads={n}")),
                Box::new(move |b| f(b)),
                scaling,
                n,
            );
        }
    }
}

impl<'r> Group<'r, NoArgs> {
    fn with<A>(self, args: Args<A>) -> Group<'r, Args<A>> {
        Group {
            registry: self.registry,
            name: self.name,
            args,
            threads: self.threads,
        }
    }

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
        let values = values.into_iter().map(|v| {
            let label = vec![v.to_string()];
            (v, label)
        });
        self.with(Args::new(values))
    }

    /// A parameter list whose values are shown by the names given with them:
    /// for values that have no `Display` (data sets, configurations) or whose
    /// text would make a poor id.
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// let sorted: Vec<u32> = (0..1000).collect();
    /// let reversed: Vec<u32> = (0..1000).rev().collect();
    /// r.group("sort")
    ///     .args_named([("sorted", sorted), ("reversed", reversed)])
    ///     .bench("std", |b, v| b.iter_batched(|| v.clone(), |mut v| v.sort()));
    /// assert_eq!(r.ids(), ["sort/std/sorted", "sort/std/reversed"]);
    /// ```
    pub fn args_named<N, A, I>(self, values: I) -> Group<'r, Args<A>>
    where
        N: Display,
        A: 'static,
        I: IntoIterator<Item = (N, A)>,
    {
        let values = values.into_iter().map(|(n, v)| (v, vec![n.to_string()]));
        self.with(Args::new(values))
    }

    /// Every combination of two or three parameter lists (Google Benchmark's
    /// `ArgsProduct`), the last varying fastest; the benchmark receives a
    /// tuple and the id shows each value (`group/name/a/b`).
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// r.group("matrix")
    ///     .args_product(([16, 64], ["row", "col"]))
    ///     .bench("walk", |b, &(n, order)| {
    ///         let m = vec![1u32; n * n];
    ///         b.iter(|| match order {
    ///             "row" => (0..n * n).map(|i| m[i]).sum::<u32>(),
    ///             _ => (0..n * n).map(|i| m[(i % n) * n + i / n]).sum(),
    ///         })
    ///     });
    /// assert_eq!(r.ids(), ["matrix/walk/16/row", "matrix/walk/16/col", "matrix/walk/64/row", "matrix/walk/64/col"]);
    /// ```
    pub fn args_product<P>(self, lists: P) -> Group<'r, Args<P::Item>>
    where
        P: Product,
        P::Item: 'static,
    {
        self.with(Args::new(lists.combinations()))
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
        self.push(name, "", Rc::new(f), None);
        Marks::new(self.registry, start)
    }

    /// Registers `group/name/T` for a generic benchmark function instantiated
    /// at type `T`, whose name the id shows ([`type_label`]);
    /// [`bench_types!`](crate::bench_types) registers one per type of a list.
    ///
    /// ```
    /// fn parse<T: std::str::FromStr>(b: &mut nbench::Bencher) {
    ///     b.iter(|| "12345".parse::<T>().is_ok());
    /// }
    /// # let mut r = nbench::Registry::new();
    /// let mut g = r.group("parse");
    /// g.bench_typed::<u32>("str", parse::<u32>);
    /// g.bench_typed::<f64>("str", parse::<f64>);
    /// assert_eq!(r.ids(), ["parse/str/u32", "parse/str/f64"]);
    /// ```
    pub fn bench_typed<T: ?Sized>(
        &mut self,
        name: &str,
        f: impl Fn(&mut Bencher<'_>) + 'static,
    ) -> Marks<'_> {
        self.bench(&format!("{name}/{}", type_label::<T>()), f)
    }
}

impl<A: 'static> Group<'_, Args<A>> {
    /// Names the parameters in ids: `group/name/n=16` instead of
    /// `group/name/16`, one name per list of a product.
    ///
    /// ```
    /// # let mut r = nbench::Registry::new();
    /// r.group("grid")
    ///     .args_product(([2, 4], [8]))
    ///     .names(["rows", "cols"])
    ///     .bench("fill", |b, &(r, c)| b.iter(|| vec![0u8; r * c]));
    /// assert_eq!(r.ids(), ["grid/fill/rows=2/cols=8", "grid/fill/rows=4/cols=8"]);
    /// ```
    ///
    /// # Panics
    /// If the number of names is not the number of lists.
    pub fn names<const N: usize>(mut self, names: [&str; N]) -> Self {
        for (_, parts) in &mut self.args.values {
            assert_eq!(
                parts.len(),
                N,
                "names: {N} names given for parameters of {} parts",
                parts.len()
            );
            for (part, name) in parts.iter_mut().zip(names) {
                *part = format!("{name}={part}");
            }
        }
        self
    }

    /// Registers `group/name/value` for every value of the parameter list.
    pub fn bench<F>(&mut self, name: &str, f: F) -> Marks<'_>
    where
        F: Fn(&mut Bencher<'_>, &A) + 'static,
    {
        let start = self.registry.benches.len();
        let f = Rc::new(f);
        let family = format!("{}/{name}", self.name);
        for i in 0..self.args.values.len() {
            let (value, parts) = &self.args.values[i];
            let variant = parts.join("/");
            let scaling = self
                .args
                .complexity
                .as_ref()
                .map(|(c, sizes)| Scaling::new(family.clone(), sizes[i], *c));
            let (f, value) = (Rc::clone(&f), Rc::clone(value));
            self.push(name, &variant, Rc::new(move |b| f(b, &value)), scaling);
        }
        Marks::new(self.registry, start)
    }

    /// Registers `group/name/T/value` for every value, for a generic
    /// benchmark function instantiated at `T` (see [`Group::bench_typed`]
    /// without parameters).
    ///
    /// ```
    /// fn sum<T: Copy + std::iter::Sum<T> + From<u8>>(b: &mut nbench::Bencher, &n: &usize) {
    ///     let v = vec![T::from(1u8); n];
    ///     b.iter(|| v.iter().copied().sum::<T>());
    /// }
    /// # let mut r = nbench::Registry::new();
    /// nbench::bench_types!(r.group("sum").args([10, 100]), "vec", sum, [u32, f64]);
    /// assert_eq!(r.ids(), ["sum/vec/u32/10", "sum/vec/u32/100", "sum/vec/f64/10", "sum/vec/f64/100"]);
    /// ```
    pub fn bench_typed<T: ?Sized>(
        &mut self,
        name: &str,
        f: impl Fn(&mut Bencher<'_>, &A) + 'static,
    ) -> Marks<'_> {
        self.bench(&format!("{name}/{}", type_label::<T>()), f)
    }
}

impl<A: Size + 'static> Group<'_, Args<A>> {
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
        let sizes = self.args.values.iter().map(|(v, _)| v.size()).collect();
        self.args.complexity = Some((complexity, sizes));
        self
    }
}

/// Registers one benchmark per type of a list with a generic benchmark
/// function: `bench_types!(group, "name", function, [T1, T2, …])` calls
/// `group.bench_typed::<T>("name", function::<T>)` for each type, so ids read
/// `group/name/T` (or `group/name/T/value` in a group with parameters).
///
/// ```
/// use std::collections::{BTreeSet, HashSet};
/// fn insert<S: Default + Extend<u32>>(b: &mut nbench::Bencher) {
///     b.iter(|| {
///         let mut s = S::default();
///         s.extend(0..100);
///         s
///     });
/// }
/// # let mut r = nbench::Registry::new();
/// nbench::bench_types!(r.group("set"), "insert", insert, [HashSet<u32>, BTreeSet<u32>]);
/// assert_eq!(r.ids(), ["set/insert/HashSet<u32>", "set/insert/BTreeSet<u32>"]);
/// ```
#[macro_export]
macro_rules! bench_types {
    ($group:expr, $name:expr, $($func:ident)::+, [$($t:ty),+ $(,)?]) => {{
        let mut group = $group;
        $crate::bench_types!(@each group, $name, [$($func)::+] $(, $t)+);
    }};
    // One type at a time: the function's path repeats independently of the types.
    (@each $g:ident, $name:expr, [$($func:tt)*], $t:ty $(, $rest:ty)*) => {
        $g.bench_typed::<$t>($name, $($func)*::<$t>);
        $crate::bench_types!(@each $g, $name, [$($func)*] $(, $rest)*);
    };
    (@each $g:ident, $name:expr, [$($func:tt)*]) => {};
}
