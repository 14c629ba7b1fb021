//! `profiler`: criterion's `Profiler` trait, accepted and never called
//! (nbench has no profiling mode; run a profiler on `--bench <filter>`).

use std::path::Path;

/// Hooks around a benchmark in criterion's `--profile-time` mode.
pub trait Profiler {
    /// Called before the benchmark runs.
    fn start_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
    /// Called after it ran.
    fn stop_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
}

/// The profiler that does nothing (criterion's default).
#[derive(Debug, Clone, Copy, Default)]
pub struct ExternalProfiler;

impl Profiler for ExternalProfiler {
    fn start_profiling(&mut self, _: &str, _: &Path) {}
    fn stop_profiling(&mut self, _: &str, _: &Path) {}
}
