//! divan's runner configured in code: `Divan::from_args()…main()`.

use crate::counter::{BytesCount, CharsCount, Counter, CyclesCount, ItemsCount};
use crate::skip::{IntoRegex, Skip};
use std::time::Duration;

/// The benchmarks of the program, run as its command line and its code
/// ask: counters and thread counts for every benchmark, benchmarks left
/// out by name or pattern, ignored ones included or alone. What nbench
/// decides itself (samples, times) is accepted and said once on stderr.
#[derive(Debug, Clone, Default)]
pub struct Divan {
    /// Counters every benchmark declares after its attribute's own (so
    /// these stand over those, and a `Bencher::counter` over both).
    pub(crate) counters: Vec<Counter>,
    /// Thread counts for every benchmark, over its own `threads`.
    pub(crate) threads: Option<Vec<usize>>,
    /// Benchmarks left out.
    pub(crate) skips: Vec<Skip>,
    /// The flags nbench takes, in order.
    pub(crate) args: Vec<String>,
    /// Whether the command line has been read into this.
    pub(crate) read: bool,
    pub(crate) unhonoured: Vec<&'static str>,
    /// Settings that cannot run as given, each a sentence.
    pub(crate) faults: Vec<String>,
}

impl Divan {
    /// The runner with the command line read: settings made after this
    /// stand over the command line's.
    pub fn from_args() -> Self {
        Divan::default().config_with_args()
    }

    /// Reads the command line into the runner.
    pub fn config_with_args(self) -> Self {
        crate::cli::read(self, std::env::args().skip(1))
    }

    /// Runs as the command line asks; exits with its code.
    pub fn main(&self) {
        std::process::exit(crate::entry::run(self))
    }

    /// As [`Divan::main`].
    pub fn run_benches(&self) {
        self.main()
    }

    /// Runs each benchmark once, as `--test` does.
    pub fn test_benches(&self) {
        self.with_arg("--test").main()
    }

    /// Lists the benchmarks, as `--list` does.
    pub fn list_benches(&self) {
        self.with_arg("--list").main()
    }

    /// Runs the ignored benchmarks too.
    pub fn run_ignored(self) -> Self {
        self.with_arg("--include-ignored")
    }

    /// Runs only the ignored benchmarks.
    pub fn run_only_ignored(self) -> Self {
        self.with_arg("--ignored")
    }

    /// Leaves out the benchmark whose id is `filter`.
    pub fn skip_exact(mut self, filter: impl Into<String>) -> Self {
        self.skips.push(Skip::Exact(filter.into()));
        self
    }

    /// Leaves out the benchmarks whose ids `filter`, a regular expression,
    /// matches.
    pub fn skip_regex(mut self, filter: impl IntoRegex) -> Self {
        match filter.into_regex() {
            Ok(regex) => self.skips.push(Skip::Regex(regex)),
            Err(fault) => self.faults.push(format!("divan's `skip_regex`: {fault}")),
        }
        self
    }

    /// Runs every benchmark on each of these thread counts (0: all the
    /// machine has), over the benchmark's own `threads`.
    pub fn threads<T: IntoIterator<Item = usize>>(mut self, threads: T) -> Self {
        self.threads = Some(threads.into_iter().collect());
        self
    }

    /// Declares `counter` on every benchmark.
    pub fn counter<C: Into<Counter>>(mut self, counter: C) -> Self {
        self.counters.push(counter.into());
        self
    }

    /// Items every benchmark processes an iteration.
    pub fn items_count<C: Into<ItemsCount>>(self, count: C) -> Self {
        self.counter(count.into())
    }

    /// Bytes every benchmark processes an iteration.
    pub fn bytes_count<C: Into<BytesCount>>(self, count: C) -> Self {
        self.counter(count.into())
    }

    /// Characters every benchmark processes an iteration.
    pub fn chars_count<C: Into<CharsCount>>(self, count: C) -> Self {
        self.counter(count.into())
    }

    /// Cycles every benchmark takes an iteration, by the program's count.
    pub fn cycles_count<C: Into<CyclesCount>>(self, count: C) -> Self {
        self.counter(count.into())
    }

    /// divan's `color`: nbench's own output under `cargo bench` is plain
    /// text, and `cargo nbench` colours by the terminal, so this changes
    /// nothing.
    pub fn color(self, yes: impl Into<Option<bool>>) -> Self {
        let _ = yes.into();
        self
    }

    /// With `arg` before the command line's (which may end in `-- filters`).
    fn with_arg(&self, arg: &str) -> Self {
        let mut d = self.clone();
        d.args.insert(0, arg.to_owned());
        d
    }

    /// Notes `option` as accepted and not honoured (said once by `entry::run`).
    pub(crate) fn unhonoured(mut self, option: &'static str) -> Self {
        self.unhonoured.push(option);
        self
    }
}

/// Sampling settings nbench decides itself: accepted, and said once.
macro_rules! unhonoured {
    ($($name:ident($($arg:ident: $t:ty),*)),* $(,)?) => {
        impl Divan {$(
            #[doc = concat!("divan's `", stringify!($name), "`: accepted and not honoured \
                (cargo nbench decides how long and how often to sample).")]
            pub fn $name(self, $($arg: $t),*) -> Self {
                $(let _ = $arg;)*
                self.unhonoured(stringify!($name))
            }
        )*}
    };
}

unhonoured!(
    sample_count(count: u32),
    sample_size(count: u32),
    min_time(time: Duration),
    max_time(time: Duration),
    skip_ext_time(skip: bool),
);
