//! gungraun's binary benchmarks: a benchmark whose work is a whole
//! command. `#[binary_benchmark]` makes a [`BinaryBenchmark`] of its
//! function, as the low-level API (`BinaryBenchmark::new(…).bench(…)`)
//! does by hand; either is registered as one nbench benchmark per
//! command, `group::benchmark::bench`.
//!
//! The function that builds a command runs once, when its benchmark
//! starts (not while listing). Each iteration then runs `setup`, the
//! command, and `teardown`, only the command inside the timing and the
//! counts.

use crate::command::Command;
use std::fmt::Display;
use std::rc::Rc;

/// What runs before or after each run of a command.
type Hook = Rc<dyn Fn()>;

/// What makes a command: its benchmark's function, called when the
/// benchmark starts.
type Make = Rc<dyn Fn() -> Command>;

/// A benchmark's or a bench's id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BenchmarkId(String);

impl BenchmarkId {
    /// The id `id`.
    pub fn new<T: Into<String>>(id: T) -> Self {
        BenchmarkId(id.into())
    }
    /// `id_parameter`.
    pub fn with_parameter<T: AsRef<str>, P: Display>(id: T, parameter: P) -> Self {
        BenchmarkId(format!("{}_{parameter}", id.as_ref()))
    }
    /// Always valid under nbench, which takes any id.
    pub fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

impl Display for BenchmarkId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<T: AsRef<str>> From<T> for BenchmarkId {
    fn from(id: T) -> Self {
        BenchmarkId(id.as_ref().to_owned())
    }
}

/// One bench of a binary benchmark: its commands (one nbench benchmark
/// each), and what runs before and after each run.
#[derive(Clone)]
pub struct Bench {
    id: BenchmarkId,
    commands: Vec<Make>,
    setup: Option<Hook>,
    teardown: Option<Hook>,
}

impl Bench {
    /// A bench of id `id`, with no command yet.
    pub fn new<T: Into<BenchmarkId>>(id: T) -> Self {
        Bench {
            id: id.into(),
            commands: Vec::new(),
            setup: None,
            teardown: None,
        }
    }
    /// Its configuration: taken, not honoured.
    pub fn config<T>(&mut self, _: T) -> &mut Self {
        self
    }
    /// One more command: a bench of several runs each as `id_0`, `id_1`, ….
    pub fn command<T: Into<Command>>(&mut self, command: T) -> &mut Self {
        let command = command.into();
        self.commands.push(Rc::new(move || command.clone()));
        self
    }
    /// More commands.
    pub fn commands<I: IntoIterator<Item = T>, T: Into<Command>>(
        &mut self,
        commands: I,
    ) -> &mut Self {
        for c in commands {
            self.command(c);
        }
        self
    }
    /// Runs before each run of its commands, outside the timing.
    pub fn setup(&mut self, setup: fn()) -> &mut Self {
        self.setup = Some(Rc::new(setup));
        self
    }
    /// Runs after each run of its commands, outside the timing.
    pub fn teardown(&mut self, teardown: fn()) -> &mut Self {
        self.teardown = Some(Rc::new(teardown));
        self
    }
    /// One command for each line of the file at `path`, as `generator`
    /// makes it of the line.
    pub fn file<T: AsRef<std::path::Path>>(
        &mut self,
        path: T,
        generator: fn(String) -> Result<Command, String>,
    ) -> Result<&mut Self, String> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read {}: {e}", self.id, path.display()))?;
        for line in text.lines() {
            let command = generator(line.to_owned())?;
            self.command(command);
        }
        Ok(self)
    }
}

/// A binary benchmark: its benches, and what runs before and after each
/// run of theirs where a bench says nothing.
#[derive(Clone)]
pub struct BinaryBenchmark {
    id: BenchmarkId,
    benches: Vec<Bench>,
    setup: Option<Hook>,
    teardown: Option<Hook>,
}

impl BinaryBenchmark {
    /// A binary benchmark of id `id`, with no bench yet.
    pub fn new<T: Into<BenchmarkId>>(id: T) -> Self {
        BinaryBenchmark {
            id: id.into(),
            benches: Vec::new(),
            setup: None,
            teardown: None,
        }
    }
    /// Its configuration: taken, not honoured.
    pub fn config<T>(&mut self, _: T) -> &mut Self {
        self
    }
    /// One more bench.
    pub fn bench<T: Into<Bench>>(&mut self, bench: T) -> &mut Self {
        self.benches.push(bench.into());
        self
    }
    /// Runs before each command of a bench that has no setup of its own.
    pub fn setup(&mut self, setup: fn()) -> &mut Self {
        self.setup = Some(Rc::new(setup));
        self
    }
    /// Runs after each command of a bench that has no teardown of its own.
    pub fn teardown(&mut self, teardown: fn()) -> &mut Self {
        self.teardown = Some(Rc::new(teardown));
        self
    }

    /// Each command as `(id, make, setup, teardown)`, the id below the
    /// group: `benchmark::bench`, `benchmark::bench_0`, … for several, or
    /// `benchmark` for a bench of no id.
    pub(crate) fn each(&self) -> Vec<(String, Make, Option<Hook>, Option<Hook>)> {
        let mut out = Vec::new();
        for b in &self.benches {
            let name = match b.id.0.is_empty() {
                true => self.id.0.clone(),
                false => format!("{}::{}", self.id, b.id),
            };
            let setup = b.setup.clone().or_else(|| self.setup.clone());
            let teardown = b.teardown.clone().or_else(|| self.teardown.clone());
            let many = b.commands.len() > 1;
            for (i, make) in b.commands.iter().enumerate() {
                let id = match many {
                    true => format!("{name}_{i}"),
                    false => name.clone(),
                };
                out.push((id, Rc::clone(make), setup.clone(), teardown.clone()));
            }
        }
        out
    }
}

crate::command::from_refs!(Bench, BinaryBenchmark);

/// What a `binary_benchmark_group!`'s `benchmarks = |group| …` fills.
#[derive(Default)]
pub struct BinaryBenchmarkGroup {
    benchmarks: Vec<BinaryBenchmark>,
}

impl BinaryBenchmarkGroup {
    /// What the closure added, for the group's registration.
    #[doc(hidden)]
    pub fn into_benchmarks(self) -> Vec<BinaryBenchmark> {
        self.benchmarks
    }

    /// One more binary benchmark.
    pub fn binary_benchmark<T: Into<BinaryBenchmark>>(&mut self, b: T) -> &mut Self {
        self.benchmarks.push(b.into());
        self
    }
    /// More binary benchmarks.
    pub fn binary_benchmarks<I: IntoIterator<Item = T>, T: Into<BinaryBenchmark>>(
        &mut self,
        bs: I,
    ) -> &mut Self {
        for b in bs {
            self.binary_benchmark(b);
        }
        self
    }
}

/// A bench as `#[bench::id(…)]` of a `#[binary_benchmark]` makes it: its
/// command made by `make` when its benchmark starts, `setup` and
/// `teardown` closures over the bench's arguments.
pub fn lazy_bench(
    id: &str,
    make: impl Fn() -> Command + 'static,
    setup: Option<Hook>,
    teardown: Option<Hook>,
) -> Bench {
    Bench {
        id: BenchmarkId::new(id),
        commands: vec![Rc::new(make)],
        setup,
        teardown,
    }
}

/// Runs `after` when dropped: a command's teardown, outside the timing,
/// where nbench drops a routine's output.
struct After(Option<Hook>);

impl Drop for After {
    fn drop(&mut self) {
        if let Some(t) = &self.0 {
            t();
        }
    }
}

/// Times the command `make` gives, one run an iteration, `setup` before
/// each and `teardown` after, both outside the timing and the counts.
pub(crate) fn time_command(
    b: &mut nbench::Bencher<'_>,
    make: &Make,
    (setup, teardown): (&Option<Hook>, &Option<Hook>),
) {
    let command = make();
    if let Some(why) = command.unsupported() {
        panic!("{why}");
    }
    b.batch_size(nbench::BatchSize::PerIteration).iter_batched(
        || {
            if let Some(s) = setup {
                s();
            }
        },
        |()| {
            command.run();
            After(teardown.clone())
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_benchmarks_commands_are_named_below_it() {
        let mut bb = BinaryBenchmark::new("tool");
        bb.setup(|| {})
            .bench(Bench::new("one").command(Command::new("a")))
            .bench(
                Bench::new("two")
                    .commands([Command::new("b"), Command::new("c")])
                    .teardown(|| {}),
            );
        bb.bench(lazy_bench("", || Command::new("d"), None, None));
        let each = bb.each();
        let ids: Vec<&str> = each.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(ids, ["tool::one", "tool::two_0", "tool::two_1", "tool"]);
        // A bench's own hooks first, then the benchmark's.
        assert!(each.iter().all(|e| e.2.is_some()));
        let torn: Vec<bool> = each.iter().map(|e| e.3.is_some()).collect();
        assert_eq!(torn, [false, true, true, false]);
        assert_eq!((each[2].1)(), Command::new("c"));
        assert_eq!(BenchmarkId::with_parameter("n", 4).to_string(), "n_4");
    }
}
