//! gungraun's configuration types. A suite builds its `config = …` from
//! them, in the macros' arguments or in a function of its own
//! (`fn config() -> LibraryBenchmarkConfig`); nbench-gungraun takes every
//! setting and honours none but a binary benchmark's (`binary_config`).
//! They choose Valgrind's tools, its arguments,
//! limits and gungraun's output; under cargo nbench `--metrics` chooses
//! what is measured, and a comparison's threshold what fails.

/// The settings every configuration type takes, each `&mut self` and
/// one value (or two, `env`), as gungraun's builders are called.
macro_rules! takes {
    ($($one:ident),* ; $($two:ident),*) => {
        $(
            #[doc = concat!("`", stringify!($one), "`: taken, not honoured.")]
            pub fn $one<T>(&mut self, _: T) -> &mut Self {
                self
            }
        )*
        $(
            #[doc = concat!("`", stringify!($two), "`: taken, not honoured.")]
            pub fn $two<K, V>(&mut self, _: K, _: V) -> &mut Self {
                self
            }
        )*
    };
}
pub(crate) use takes;

/// The constructors every configuration type has, each giving the
/// default (what they take is not honoured).
macro_rules! made {
    () => {
        /// Made with a tool's arguments (taken, not honoured).
        pub fn with_args<T>(_: T) -> Self {
            Self::default()
        }
        /// Made from a value (`Tool::new(ValgrindTool::DHAT)`,
        /// `Sandbox::new(true)`).
        pub fn new<T>(_: T) -> Self {
            Self::default()
        }
        /// iai-callgrind's, before tools had their own types.
        pub fn with_callgrind_args<T>(_: T) -> Self {
            Self::default()
        }
        /// iai-callgrind's, before `with_callgrind_args`.
        pub fn with_raw_callgrind_args<T>(_: T) -> Self {
            Self::default()
        }
    };
}
pub(crate) use made;

/// Configuration types: made as gungraun makes them, with every builder
/// setting gungraun (and iai-callgrind before it) gives any of them.
macro_rules! settings {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        $(
            $(#[$doc])*
            // Not a unit struct: `Callgrind::default()` reads as in gungraun,
            // with no lint against it.
            #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
            pub struct $name(());

            impl $name {
                made!();
                /// `truncate_description`: taken, not honoured (typed as
                /// gungraun's, so that `None` needs no annotation).
                pub fn truncate_description(&mut self, _: Option<usize>) -> &mut Self {
                    self
                }
                takes!(
                    default_tool, valgrind_args, env_clear, current_dir, envs,
                    pass_through_env, pass_through_envs, sandbox, tool, tool_override,
                    output_format, args, enable, format, limits, soft_limits, hard_limits,
                    fail_fast, entry_point, flamegraph, frames, sanitize_output, kind,
                    negate_differential, normalize_differential, event_kinds, direction,
                    title, subtitle, min_width, show_intermediate,
                    show_grid, tolerance, fixtures, callgrind_args, raw_callgrind_args,
                    regression, regression_limits, setup_parallelism, exit_with, setup_parallel;
                    env
                );
            }
        )*
    };
}

settings!(
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
    /// What the terminal report shows.
    OutputFormat,
    /// Flamegraph output.
    FlamegraphConfig,
    /// Limits that fail a run on a regression (iai-callgrind's).
    RegressionConfig,
);

/// The values gungraun's settings take, by gungraun's names.
macro_rules! choices {
    ($($(#[$doc:meta])* $name:ident { $($variant:ident $(($field:ty))?),* $(,)? }),* $(,)?) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, PartialEq)]
            #[allow(clippy::upper_case_acronyms)]
            pub enum $name {
                $(
                    #[allow(missing_docs)]
                    $variant $(($field))?,
                )*
            }
        )*
    };
}

choices!(
    /// Which Valgrind tool.
    ValgrindTool { Callgrind, Cachegrind, DHAT, Memcheck, Helgrind, DRD, Massif, BBV },
    /// A Callgrind event.
    EventKind {
        Ir, Dr, Dw, I1mr, D1mr, D1mw, ILmr, DLmr, DLmw, I1MissRate, LLiMissRate, D1MissRate,
        LLdMissRate, LLMissRate, L1hits, LLhits, RamHits, L1HitRate, LLHitRate, RamHitRate,
        TotalRW, EstimatedCycles, SysCount, SysTime, SysCpuTime, Ge, Bc, Bcm, Bi, Bim, ILdmr,
        DLdmr, DLdmw, AcCost1, AcCost2, SpLoss1, SpLoss2,
    },
    /// A Cachegrind metric.
    CachegrindMetric {
        Ir, Dr, Dw, I1mr, D1mr, D1mw, ILmr, DLmr, DLmw, I1MissRate, LLiMissRate, D1MissRate,
        LLdMissRate, LLMissRate, L1hits, LLhits, RamHits, L1HitRate, LLHitRate, RamHitRate,
        TotalRW, EstimatedCycles, Bc, Bcm, Bi, Bim,
    },
    /// A group of Cachegrind metrics.
    CachegrindMetrics {
        Default, CacheMisses, CacheMissRates, CacheHits, CacheHitRates, CacheSim, BranchSim, All,
        None, SingleEvent(CachegrindMetric),
    },
    /// A group of Callgrind metrics.
    CallgrindMetrics {
        Default, CacheMisses, CacheMissRates, CacheHits, CacheHitRates, CacheSim, CacheUse,
        SystemCalls, BranchSim, WriteBackBehaviour, All, None, SingleEvent(EventKind),
    },
    /// An error metric (Memcheck, Helgrind, DRD).
    ErrorMetric { Errors, Contexts, SuppressedErrors, SuppressedContexts },
    /// A DHAT metric.
    DhatMetric {
        TotalUnits, TotalEvents, TotalBytes, TotalBlocks, AtTGmaxBytes, AtTGmaxBlocks,
        AtTEndBytes, AtTEndBlocks, ReadsBytes, WritesBytes, TotalLifetimes, MaximumBytes,
        MaximumBlocks,
    },
    /// A group of DHAT metrics.
    DhatMetrics { Default, All, SingleMetric(DhatMetric) },
    /// Which flamegraphs.
    FlamegraphKind { Regular, Differential, All, None },
    /// Whether output files are rewritten to the entry point.
    SanitizeOutput { No, KeepOrig, Yes },
    /// Where Callgrind starts counting.
    EntryPoint { None, Default, Custom(String) },
    /// Flamegraph direction.
    Direction { TopToBottom, BottomToTop },
    /// A regression limit.
    Limit { Int(u64), Float(f64) },
);

/// Valgrind's client requests, as gungraun gives them (its
/// `client_requests` feature). Under cargo nbench they do nothing: the
/// harness switches counting on around each benchmark's measured calls,
/// so a count also holds what a benchmark keeps out with them, on both
/// sides of a comparison alike.
pub mod client_requests {
    /// Callgrind's.
    pub mod callgrind {
        /// Does nothing under nbench.
        pub fn start_instrumentation() {}
        /// Does nothing under nbench.
        pub fn stop_instrumentation() {}
        /// Does nothing under nbench.
        pub fn toggle_collect() {}
        /// Does nothing under nbench.
        pub fn zero_stats() {}
        /// Does nothing under nbench.
        pub fn dump_stats() {}
        /// Does nothing under nbench.
        pub fn dump_stats_at<T>(_: T) {}
    }
    /// Cachegrind's.
    pub mod cachegrind {
        /// Does nothing under nbench.
        pub fn start_instrumentation() {}
        /// Does nothing under nbench.
        pub fn stop_instrumentation() {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sandbox;

    /// The type names in the macro call of `text` that starts with
    /// `start`: a line's one word (`settings!`), or the word before ` {`
    /// (`choices!`).
    fn names(text: &str, start: &str) -> Vec<String> {
        let body = &text[text.find(start).unwrap() + start.len()..];
        let body = &body[..body.find("\n);").unwrap()];
        let mut depth = 0;
        let mut found = Vec::new();
        for l in body
            .lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("///"))
        {
            let name = match l.split_once(" {") {
                Some((name, _)) => Some(name),
                None => l.strip_suffix(',').filter(|w| !w.contains([',', ' '])),
            };
            if let Some(name) = name.filter(|_| depth == 0) {
                found.push(name.to_owned());
            }
            depth += l.matches('{').count();
            depth -= l.matches('}').count();
        }
        found
    }

    #[test]
    fn the_macros_know_every_configuration_type_by_name() {
        let text = include_str!("config.rs");
        let mut here = names(text, "settings!(\n");
        here.extend(names(text, "choices!(\n"));
        // Those honoured, types of their own.
        here.extend(["BinaryBenchmarkConfig", "Sandbox"].map(String::from));
        here.sort();
        let macros = include_str!("../../gungraun-macros/src/config.rs");
        let mut theirs: Vec<String> = (macros.lines().map(str::trim))
            .filter_map(|l| Some(l.strip_prefix('"')?.strip_suffix("\",")?.to_owned()))
            .collect();
        theirs.sort();
        assert!(here.len() > 20, "{here:?}");
        assert_eq!(here, theirs);
    }

    #[test]
    fn a_configuration_built_as_suites_build_it_compiles() {
        // As gungraun's guide and real suites write them.
        let mut config = LibraryBenchmarkConfig::default();
        config
            .tool(Callgrind::with_args(["--cache-sim=no"]).entry_point(EntryPoint::None))
            .env("KEY", "value")
            .output_format(OutputFormat::default().truncate_description(Some(0)));
        let mut callgrind = Callgrind::default();
        callgrind
            .soft_limits([(EventKind::Ir, 5.0)])
            .hard_limits([(EventKind::EstimatedCycles, Limit::Int(10))])
            .fail_fast(true)
            .format([CallgrindMetrics::Default, CallgrindMetrics::BranchSim])
            .flamegraph(FlamegraphConfig::default().kind(FlamegraphKind::All));
        config.tool(callgrind).tool(Tool::new(ValgrindTool::DHAT));
        config.sandbox(Sandbox::new(true).fixtures(["benches/inputs.txt"]));
        let entry = EntryPoint::Custom("*fib*".into());
        assert_eq!(entry, EntryPoint::Custom("*fib*".to_owned()));
        client_requests::callgrind::start_instrumentation();
        client_requests::callgrind::stop_instrumentation();
        assert_eq!(config, LibraryBenchmarkConfig::default());
    }
}
