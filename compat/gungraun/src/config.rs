//! gungraun's configuration types, by name only. A suite imports them for
//! the `config = …` of its attributes and macros, which nbench-gungraun
//! accepts and does not compile: they choose Valgrind's tools, its
//! arguments and gungraun's output, and under cargo nbench `--metrics`
//! chooses what is measured. A configuration built outside those macros
//! (in a function of its own) does not compile against these types.

macro_rules! named {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
            pub struct $name;
        )*
    };
}

named!(
    /// A benchmark's, group's or `main!`'s `config`.
    LibraryBenchmarkConfig,
    /// Callgrind's settings.
    Callgrind,
    /// Cachegrind's settings.
    Cachegrind,
    /// DHAT's settings.
    Dhat,
    /// Memcheck's settings.
    Memcheck,
    /// Helgrind's settings.
    Helgrind,
    /// DRD's settings.
    Drd,
    /// Massif's settings.
    Massif,
    /// BBV's settings.
    Bbv,
    /// A Valgrind tool's settings (iai-callgrind's name).
    Tool,
    /// Which Valgrind tool.
    ValgrindTool,
    /// A Callgrind event.
    EventKind,
    /// A Cachegrind metric.
    CachegrindMetric,
    /// A DHAT metric.
    DhatMetric,
    /// What the terminal report shows.
    OutputFormat,
    /// Flamegraph output.
    FlamegraphConfig,
    /// Which flamegraphs.
    FlamegraphKind,
    /// Where Callgrind starts counting.
    EntryPoint,
    /// Flamegraph direction.
    Direction,
    /// Limits that fail a run on a regression.
    RegressionConfig,
    /// A regression limit.
    Limit,
    /// The benchmark's sandbox folder.
    Sandbox,
);
