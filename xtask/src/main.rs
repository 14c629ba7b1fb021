//! Developer chores, run as `cargo xtask <command>` (alias in `.cargo/config.toml`).

mod front_end;
mod layers;
mod layouts;
mod overhead;
mod refdata;
mod reference;
mod screenshots;
mod stability;
mod verdicts;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  reference [--runs N]   run the reference workloads (benches/reference.rs) N times
                         (default 3) and print: total time, the empty body's time,
                         sum2000 / sum1000, nbench's dependency count, and the clean
                         build time of a one-bench fixture crate
  front-end [--runs N]   time an empty and a 5 ns body through nbench's API and through
                         criterion's (benches/front_end_*.rs) in the same `cargo nbench`
                         runs (default 10); print each one's median over the runs
  docs                   write docs/command-line.md from cargo nbench's clap definitions
                         (a unit test fails while the committed page differs)
  layers                 check that src/'s imports point one way (commands → pipeline →
                         config → cli → report, run → compare, build → store, discover
                         → model, error) and that no file of src/ is over 600 lines
  layouts [--runs N]     on tests/fixtures/layouts, per round (default 10): compare one
                         link layout with another of the same source, 16 layouts with
                         16 others, identical binaries, a build that only adds code (one
                         layout and 16), and a 5 % slower build; print how often each
                         claimed a change, per-benchmark layout spread, measuring and
                         build time
  overhead [--runs N]    time `cargo nbench` on tests/fixtures/basic with nothing to
                         rebuild (default 5 runs) and print what it adds beyond the
                         benchmarks' own measuring time
  refdata [--check]      compute reference values for nbench::__private::stats with NumPy and
                         SciPy (pip, in a virtual environment under target/) into
                         harness/tests/data/reference.json; --check recomputes and
                         fails if anything differs from the committed file
  screenshots            the guide's pictures (docs/images/console.png, report.png) from a
                         real comparison of tests/fixtures/verdicts, drawn by Chromium
  stability [--runs N] [--epochs E,E,…]
                         run the reference workloads as N separate `cargo nbench`
                         runs (default 10) per --epochs value (default 8), taking
                         turns, from an empty history and again rebuilt; print per
                         workload and window of five runs how often run k+1 lands
                         in run k's ±next, how far the ± swings, its width over the
                         runs' spread, and seconds per run
  verdicts [--runs N] [--paired] [-- NBENCH_ARGS]
                         save a baseline of tests/fixtures/verdicts, then compare it N
                         times (default 20) with itself and with builds 1 % and 5 %
                         slower, paired and (without --paired) against stored
                         samples; print how often each verdict came out, for the
                         workloads written with nbench's API and with criterion's;
                         NBENCH_ARGS (`--layouts 32 --max-time 3s`) go to every
                         baseline and comparison
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("reference") => reference::run(&args[1..]),
        Some("overhead") => overhead::run(&args[1..]),
        Some("layers") => layers::run(&args[1..]),
        Some("layouts") => layouts::run(&args[1..]),
        Some("verdicts") => verdicts::run(&args[1..]),
        Some("front-end") => front_end::run(&args[1..]),
        Some("stability") => stability::run(&args[1..]),
        Some("refdata") => refdata::run(&args[1..]),
        Some("screenshots") => screenshots::run(&args[1..]),
        Some("docs") => docs(&args[1..]),
        Some("-h" | "--help") | None => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some(other) => Err(format!("unknown command '{other}'\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo xtask docs`: the unit test that checks docs/command-line.md, told
/// to write it instead.
fn docs(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask docs".into());
    }
    let status = cargo()
        .args([
            "test",
            "--quiet",
            "-p",
            "cargo-nbench",
            "--lib",
            "cli::page",
        ])
        .env("NBENCH_BLESS_DOCS", "1")
        .current_dir(root())
        .status()
        .map_err(|e| e.to_string())?;
    match status.success() {
        true => Ok(()),
        false => Err("writing docs/command-line.md failed".into()),
    }
}

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The cargo that runs this xtask.
fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// Builds cargo-nbench in release mode; returns its executable.
fn build_nbench() -> Result<PathBuf, String> {
    let status = cargo()
        .args(["build", "--release", "--quiet", "-p", "cargo-nbench"])
        .current_dir(root())
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("building cargo-nbench failed".into());
    }
    Ok(root().join("target/release/cargo-nbench"))
}

/// `--runs N`, or `default` when absent.
fn runs_arg(args: &[String], default: usize, usage: &str) -> Result<usize, String> {
    match args {
        [] => Ok(default),
        [flag, n] if flag == "--runs" => n.parse().map_err(|_| format!("bad --runs value '{n}'")),
        _ => Err(format!("usage: {usage}")),
    }
}
