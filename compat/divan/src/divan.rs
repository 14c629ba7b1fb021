//! divan's runner configured in code: `Divan::from_args()…main()`.

use crate::counter::{BytesCount, CharsCount, Counter, CyclesCount, ItemsCount};
use std::time::Duration;

/// The benchmarks of the program, run as its command line asks, with what
/// the code set: counters every benchmark declares (its own declared
/// after them, so its own stand), ignored ones included or alone. What
/// nbench decides itself (samples, times, threads, colour) is accepted and
/// said once on stderr.
#[derive(Debug, Clone, Default)]
pub struct Divan {
    pub(crate) counters: Vec<Counter>,
    pub(crate) args: Vec<String>,
    pub(crate) unhonoured: Vec<&'static str>,
}

impl Divan {
    /// The runner; the command line is read when it runs.
    pub fn from_args() -> Self {
        Divan::default()
    }

    /// As [`Divan::from_args`]: the command line is read when it runs.
    pub fn config_with_args(self) -> Self {
        self
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

    /// Leaves out benchmarks whose id is `filter`.
    pub fn skip_exact(self, filter: impl Into<String>) -> Self {
        self.with_arg("--skip").with_arg(&filter.into())
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

    fn with_arg(&self, arg: &str) -> Self {
        let mut d = self.clone();
        d.args.push(arg.to_owned());
        d
    }

    /// Notes `option` as accepted and not honoured (said once by `entry::run`).
    fn unhonoured(mut self, option: &'static str) -> Self {
        self.unhonoured.push(option);
        self
    }
}

/// Settings nbench decides itself: accepted, and said once.
macro_rules! unhonoured {
    ($($name:ident($($arg:ident: $t:ty),*)),* $(,)?) => {
        impl Divan {$(
            #[doc = concat!("divan's `", stringify!($name), "`: accepted and not honoured.")]
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
    color(yes: impl Into<Option<bool>>),
    skip_regex(filter: impl std::fmt::Display),
);

impl Divan {
    /// divan's `threads`: accepted and not honoured.
    pub fn threads<T: IntoIterator<Item = usize>>(self, threads: T) -> Self {
        drop(threads.into_iter());
        self.unhonoured("threads")
    }
}
