//! criterion 0.3's way of defining benchmarks, removed in 0.4 and still in
//! suites that stayed on 0.3: [`Benchmark`], [`ParameterizedBenchmark`] and
//! [`Fun`], run by [`Criterion::bench`], `bench_function_over_inputs` and
//! `bench_functions`. Each benchmark gets the id criterion 0.3 gave it:
//! `group/function/parameter`, without the function where it is the only
//! one and named as the group, and without the parameter where there is
//! only one.

use crate::criterion::Criterion;
use crate::limits::Limits;
use crate::measurement::WallTime;
use crate::{Bencher, Throughput};
use std::fmt::Debug;

/// A closure taking the bencher and the parameter, named.
type Routine<T, M> = (String, Box<dyn FnMut(&mut Bencher<'_, M>, &T)>);
/// The work one iteration does on a parameter.
type PerValue<T> = Box<dyn Fn(&T) -> Throughput>;

/// What [`Criterion::bench`] runs (criterion 0.3's trait).
pub trait BenchmarkDefinition<M>: Sized {
    /// Reaches each of its benchmarks in group `group_id`.
    fn run(self, group_id: &str, c: &mut Criterion<M>);
}

/// Benchmarks without parameters, one a function (criterion 0.3).
pub struct Benchmark<M = WallTime> {
    routines: Vec<Routine<(), M>>,
    limits: Limits,
    throughput: Option<Throughput>,
}

/// Benchmarks of each function on each parameter (criterion 0.3).
pub struct ParameterizedBenchmark<T, M = WallTime> {
    routines: Vec<Routine<T, M>>,
    values: Vec<T>,
    limits: Limits,
    throughput: Option<PerValue<T>>,
}

/// A named function for [`Criterion::bench_functions`] (criterion 0.3).
pub struct Fun<I, M = WallTime> {
    routine: Routine<I, M>,
}

impl<I, M> Fun<I, M> {
    /// `f`, named `name`.
    pub fn new<F>(name: &str, f: F) -> Fun<I, M>
    where
        F: FnMut(&mut Bencher<'_, M>, &I) + 'static,
    {
        Fun {
            routine: (name.to_owned(), Box::new(f)),
        }
    }
}

impl<M> Benchmark<M> {
    crate::limits::settings!([mut] self -> Self, plots);

    /// Benchmark `id`: `f` is called with a [`Bencher`] when it is measured.
    pub fn new<S, F>(id: S, f: F) -> Benchmark<M>
    where
        S: Into<String>,
        F: FnMut(&mut Bencher<'_, M>) + 'static,
    {
        let none = Benchmark {
            routines: Vec::new(),
            limits: Limits::default(),
            throughput: None,
        };
        none.with_function(id, f)
    }

    /// Another function, benchmark `group/id`.
    pub fn with_function<S, F>(mut self, id: S, mut f: F) -> Benchmark<M>
    where
        S: Into<String>,
        F: FnMut(&mut Bencher<'_, M>) + 'static,
    {
        self.routines
            .push((id.into(), Box::new(move |b, _: &()| f(b))));
        self
    }

    /// The work one iteration does, shown as a rate.
    pub fn throughput(mut self, throughput: Throughput) -> Benchmark<M> {
        self.throughput = Some(throughput);
        self
    }
}

impl<T: Debug, M> ParameterizedBenchmark<T, M> {
    crate::limits::settings!([mut] self -> Self, plots);

    /// Benchmark `id` on each of `parameters`.
    pub fn new<S, F, I>(id: S, f: F, parameters: I) -> ParameterizedBenchmark<T, M>
    where
        S: Into<String>,
        F: FnMut(&mut Bencher<'_, M>, &T) + 'static,
        I: IntoIterator<Item = T>,
    {
        let none = ParameterizedBenchmark {
            routines: Vec::new(),
            values: parameters.into_iter().collect(),
            limits: Limits::default(),
            throughput: None,
        };
        none.with_function(id, f)
    }

    /// Another function, on the same parameters.
    pub fn with_function<S, F>(mut self, id: S, f: F) -> ParameterizedBenchmark<T, M>
    where
        S: Into<String>,
        F: FnMut(&mut Bencher<'_, M>, &T) + 'static,
    {
        self.routines.push((id.into(), Box::new(f)));
        self
    }

    /// The work one iteration does on each parameter, shown as a rate.
    pub fn throughput<F>(mut self, throughput: F) -> ParameterizedBenchmark<T, M>
    where
        F: Fn(&T) -> Throughput + 'static,
    {
        self.throughput = Some(Box::new(throughput));
        self
    }
}

impl<M> BenchmarkDefinition<M> for Benchmark<M> {
    fn run(self, group_id: &str, c: &mut Criterion<M>) {
        let throughput = self.throughput;
        let each = ParameterizedBenchmark {
            routines: self.routines,
            values: vec![()],
            limits: self.limits,
            throughput: throughput.map(|t| Box::new(move |_: &()| t.clone()) as Box<_>),
        };
        each.run(group_id, c);
    }
}

impl<T: Debug, M> BenchmarkDefinition<M> for ParameterizedBenchmark<T, M> {
    fn run(mut self, group_id: &str, c: &mut Criterion<M>) {
        let limits = self.limits.over(c.limits);
        let one_routine = self.routines.len() == 1;
        let one_value = self.values.len() == 1;
        for (name, f) in &mut self.routines {
            for value in &self.values {
                let mut id = group_id.to_owned();
                if !(one_routine && name == group_id) {
                    id = format!("{id}/{name}");
                }
                if !one_value {
                    id = format!("{id}/{value:?}");
                }
                let throughput = self.throughput.as_ref().map(|t| t(value));
                c.reach(&id, limits, throughput, |b| f(b, value));
            }
        }
    }
}

impl<M> Criterion<M> {
    /// Reaches the benchmarks of `benchmark` in group `group_id` (criterion 0.3).
    pub fn bench<B: BenchmarkDefinition<M>>(&mut self, group_id: &str, benchmark: B) -> &mut Self {
        benchmark.run(group_id, self);
        self
    }

    /// Benchmark `id/input` for each of `inputs` (criterion 0.3).
    pub fn bench_function_over_inputs<I, F>(&mut self, id: &str, f: F, inputs: I) -> &mut Self
    where
        I: IntoIterator,
        I::Item: Debug + 'static,
        F: FnMut(&mut Bencher<'_, M>, &I::Item) + 'static,
    {
        self.bench(id, ParameterizedBenchmark::new(id, f, inputs))
    }

    /// Benchmark `id/name` for each of `funs`, on `input` (criterion 0.3).
    pub fn bench_functions<I>(&mut self, id: &str, funs: Vec<Fun<I, M>>, input: I) -> &mut Self
    where
        I: Debug + 'static,
    {
        let all = ParameterizedBenchmark {
            routines: funs.into_iter().map(|f| f.routine).collect(),
            values: vec![input],
            limits: Limits::default(),
            throughput: None,
        };
        self.bench(id, all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk;

    /// Each form of criterion 0.3, as its suites wrote them.
    fn group() {
        let mut c = Criterion::default();
        c.bench("alone", Benchmark::new("alone", |b| b.iter(|| 1)));
        c.bench(
            "two",
            Benchmark::new("fast", |b| b.iter(|| 1))
                .with_function("slow", |b| b.iter(|| 2))
                .sample_size(10),
        );
        c.bench_function_over_inputs("over", |b, n| b.iter(|| *n), vec![16, 64]);
        c.bench_function_over_inputs("one", |b, n| b.iter(|| *n), vec![16]);
        c.bench(
            "sizes",
            ParameterizedBenchmark::new(
                "sum",
                |b, v: &Vec<u8>| b.iter(|| v.len()),
                vec![vec![1u8]],
            )
            .with_function("max", |b, v: &Vec<u8>| b.iter(|| v.len()))
            .throughput(|v| Throughput::Bytes(v.len() as u64)),
        );
        let funs = vec![
            Fun::new("copy", |b, s: &&str| b.iter(|| s.len())),
            Fun::new("own", |b, s: &&str| b.iter(|| s.to_owned())),
        ];
        c.bench_functions("strings", funs, "text");
    }

    #[test]
    fn each_benchmark_has_the_id_criterion_0_3_gave_it() {
        let found = walk::list(&[group]);
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "alone",
                "two/fast",
                "two/slow",
                "over/16",
                "over/64",
                "one",
                "sizes/sum",
                "sizes/max",
                "strings/copy",
                "strings/own",
            ]
        );
        let two = &found[1].limits;
        assert_eq!(two.sample_size, Some(10), "a definition's settings");
    }
}
