//! No `--bench` (`cargo test --benches`): each benchmark runs once, reported like libtest.

use super::alone;
use super::args::Args;
use crate::bencher::{Declared, Driver, LoopKind};
use crate::drive::guard::{Finish, run_guarded};
use crate::engine::Measure;
use crate::registry::Benchmark;
use crate::select::Selected;
use std::io::Write;
use std::time::Instant;

/// Runs the routine for a single iteration: proves it works, measures nothing.
pub struct OnceDriver;

impl Driver for OnceDriver {
    fn drive(&mut self, _kind: LoopKind, _: &Declared, m: &mut dyn Measure) {
        m.sample(1);
    }
}

/// Runs `bench` once. `shared` says whether a benchmark ran in this process
/// before: one that fails after one is run again in a fresh process
/// ([`alone`]).
fn tried(bench: &Benchmark, shared: &mut bool) -> Result<Finish, String> {
    // One the program reaches only in a process aimed at it is run there.
    if let Some(there) = bench.elsewhere.then(|| alone::tried(&bench.id)).flatten() {
        return there;
    }
    let here = run_guarded(bench, &mut OnceDriver);
    let again = (here.is_err() && *shared)
        .then(|| alone::tried(&bench.id))
        .flatten();
    *shared = true;
    again.unwrap_or(here)
}

/// Runs every selected benchmark once; returns whether all passed.
pub fn run(selected: &[&Benchmark], filtered_out: usize, args: &Args) -> bool {
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let plural = if selected.len() == 1 { "" } else { "s" };
    let _ = writeln!(out, "\nrunning {} benchmark{plural} once", selected.len());
    let (mut passed, mut ignored, mut failures) = (0, 0, Vec::new());
    let mut shared = false;
    for bench in selected {
        let status = if args.filter.verdict(&bench.id, bench.ignored) == Selected::Ignored {
            ignored += 1;
            "ignored".to_owned()
        } else {
            match tried(bench, &mut shared) {
                Ok(Finish::Timed(_)) => {
                    passed += 1;
                    "ok".to_owned()
                }
                // libtest's form for an ignored test with a reason.
                Ok(Finish::Skipped(reason)) => {
                    ignored += 1;
                    format!("ignored, {reason}")
                }
                Err(why) => {
                    failures.push((bench.id.as_str(), why));
                    "FAILED".to_owned()
                }
            }
        };
        let _ = writeln!(out, "test {} ... {status}", bench.id);
    }
    if !failures.is_empty() {
        let _ = writeln!(out, "\nfailures:\n");
        for (id, why) in &failures {
            let _ = writeln!(out, "---- {id} ----\n{why}\n");
        }
        let _ = writeln!(out, "failures:");
        for (id, _) in &failures {
            let _ = writeln!(out, "    {id}");
        }
    }
    let verdict = if failures.is_empty() { "ok" } else { "FAILED" };
    let _ = writeln!(
        out,
        "\ntest result: {verdict}. {passed} passed; {} failed; {ignored} ignored; 0 measured; {filtered_out} filtered out; finished in {:.2}s\n",
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    failures.is_empty()
}
