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

use crate::BinaryBenchmarkConfig;
use crate::beside::Beside;
use crate::command::{Command, Feed};
use std::fmt::Display;
use std::rc::Rc;

/// What runs before or after each run of a command.
pub(crate) type Hook = Rc<dyn Fn()>;

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
    config: BinaryBenchmarkConfig,
}

impl Bench {
    /// A bench of id `id`, with no command yet.
    pub fn new<T: Into<BenchmarkId>>(id: T) -> Self {
        Bench {
            id: id.into(),
            commands: Vec::new(),
            setup: None,
            teardown: None,
            config: BinaryBenchmarkConfig::default(),
        }
    }
    /// Its configuration, over its binary benchmark's.
    pub fn config<T: Into<BinaryBenchmarkConfig>>(&mut self, config: T) -> &mut Self {
        self.config = config.into();
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
    config: BinaryBenchmarkConfig,
}

impl BinaryBenchmark {
    /// A binary benchmark of id `id`, with no bench yet.
    pub fn new<T: Into<BenchmarkId>>(id: T) -> Self {
        BinaryBenchmark {
            id: id.into(),
            benches: Vec::new(),
            setup: None,
            teardown: None,
            config: BinaryBenchmarkConfig::default(),
        }
    }
    /// Its configuration, over its group's.
    pub fn config<T: Into<BinaryBenchmarkConfig>>(&mut self, config: T) -> &mut Self {
        self.config = config.into();
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

    /// Each command, its id below the group: `benchmark::bench`,
    /// `benchmark::bench_0`, … for several, or `benchmark` for a bench of
    /// no id; its configuration `outer`'s (`main!`'s and the group's) with
    /// the benchmark's and the bench's over it.
    pub(crate) fn each(&self, outer: &BinaryBenchmarkConfig) -> Vec<Each> {
        let mut out = Vec::new();
        for b in &self.benches {
            let config = outer.with(&self.config).with(&b.config);
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
                out.push(Each {
                    id,
                    make: Rc::clone(make),
                    hooks: (setup.clone(), teardown.clone()),
                    config: config.clone(),
                });
            }
        }
        out
    }
}

crate::command::from_refs!(Bench, BinaryBenchmark);

/// One command of a binary benchmark, as registered: one nbench benchmark.
pub(crate) struct Each {
    /// Its id below the group.
    pub id: String,
    pub make: Make,
    /// Its setup and teardown.
    pub hooks: (Option<Hook>, Option<Hook>),
    /// Its configuration, merged from `main!`'s to the bench's.
    pub config: BinaryBenchmarkConfig,
}

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
/// `teardown` closures over the bench's arguments, its `config` if any.
pub fn lazy_bench(
    id: &str,
    make: impl Fn() -> Command + 'static,
    (setup, teardown): (Option<Hook>, Option<Hook>),
    config: Option<BinaryBenchmarkConfig>,
) -> Bench {
    Bench {
        id: BenchmarkId::new(id),
        commands: vec![Rc::new(make)],
        setup,
        teardown,
        config: config.unwrap_or_default(),
    }
}

/// Runs when dropped, outside the timing, where nbench drops a routine's
/// output: a setup beside the command waited for (a failure panics, saying
/// so), then the command's teardown.
struct After(Option<Beside>, Option<Hook>);

impl Drop for After {
    fn drop(&mut self) {
        let finished = self.0.take().map_or(Ok(()), Beside::finish);
        if let Some(t) = &self.1 {
            t();
        }
        if let Err(why) = finished {
            panic!("{why}");
        }
    }
}

/// What a run of the command starts with: its setup's output, written to
/// its stdin, or the setup running beside it.
struct Start {
    input: Feed,
    beside: Option<Beside>,
}

/// Times the command `make` gives, one run an iteration, `setup` before
/// each (or beside it) and `teardown` after, both outside the timing and
/// the counts. `id`: the benchmark's whole id, which names its setup in a
/// process of its own.
pub(crate) fn time_command(b: &mut nbench::Bencher<'_>, each: &Each, id: &str) {
    let (setup, teardown) = &each.hooks;
    // Entered before the command is made: the function may read a fixture.
    let _sandbox =
        crate::sandbox::enter(each.config.sandbox.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    let command = (each.make)().configured(&each.config);
    let piped = command.piped_from_setup();
    let beside = command.setup_beside() && setup.is_some();
    let start = || {
        let started = match (setup, piped) {
            _ if beside => {
                let (b, stream) = Beside::start(id, piped).unwrap_or_else(|e| panic!("{e}"));
                Start {
                    input: stream.map_or(Feed::Bytes(Vec::new()), Feed::Stream),
                    beside: Some(b),
                }
            }
            // The setup runs to its end first; what it wrote, where the
            // command takes it, is piped into the command as it runs.
            (Some(s), Some(stream)) => Start {
                input: Feed::Bytes(
                    nbench::__private::command::capture(stream, || s())
                        .unwrap_or_else(|e| panic!("the setup's output for `Stdin::Setup`: {e}")),
                ),
                beside: None,
            },
            (Some(s), None) => {
                s();
                Start::default()
            }
            (None, _) => Start::default(),
        };
        if let Err(why) = command.waits_for().map_or(Ok(()), |d| d.wait()) {
            panic!("{why}");
        }
        started
    };
    b.batch_size(nbench::BatchSize::PerIteration)
        .iter_batched(start, |s| {
            command.run(s.input);
            After(s.beside, teardown.clone())
        });
}

impl Default for Start {
    fn default() -> Start {
        Start {
            input: Feed::Bytes(Vec::new()),
            beside: None,
        }
    }
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
        let mut mine = BinaryBenchmarkConfig::default();
        mine.env("BENCH", "d");
        bb.bench(lazy_bench(
            "",
            || Command::new("d"),
            (None, None),
            Some(mine),
        ));
        bb.config(BinaryBenchmarkConfig::default().env("BENCHMARK", "tool"));
        let mut outer = BinaryBenchmarkConfig::default();
        outer.env("GROUP", "g");
        let each = bb.each(&outer);
        let ids: Vec<&str> = each.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["tool::one", "tool::two_0", "tool::two_1", "tool"]);
        // A bench's own hooks first, then the benchmark's.
        assert!(each.iter().all(|e| e.hooks.0.is_some()));
        let torn: Vec<bool> = each.iter().map(|e| e.hooks.1.is_some()).collect();
        assert_eq!(torn, [false, true, true, false]);
        assert_eq!((each[2].make)(), Command::new("c"));
        // The group's configuration, the benchmark's over it, the bench's over both.
        let vars = |e: &Each| {
            e.config
                .envs
                .iter()
                .map(|(k, _)| k.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(vars(&each[0]), ["GROUP", "BENCHMARK"]);
        assert_eq!(vars(&each[3]), ["GROUP", "BENCHMARK", "BENCH"]);
        assert_eq!(BenchmarkId::with_parameter("n", 4).to_string(), "n_4");
    }
}
