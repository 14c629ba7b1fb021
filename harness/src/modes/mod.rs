//! What a bench binary does with its command line: measure, smoke-test, or list.

mod alone;
pub mod args;
mod bench;
pub mod count;
mod protocol;
pub mod relay;
mod test;

use crate::Registry;
use crate::registry::Benchmark;
use crate::select::Selected;
use args::{Args, Mode};
use std::process::ExitCode;

/// Exit code when every benchmark ran.
pub const EXIT_OK: u8 = 0;
/// Exit code when a benchmark failed (libtest's, so `cargo test` reads it the same way).
pub const EXIT_FAILED: u8 = 101;
/// Exit code for a bad command line.
pub const EXIT_USAGE: u8 = 2;

/// Parses `args` (without the program name) and runs `registry` accordingly.
pub fn run(registry: &Registry, args: impl IntoIterator<Item = String>) -> ExitCode {
    ExitCode::from(code(registry, args))
}

/// [`run`], its exit code as a number (for a process that ends by
/// `std::process::exit`).
pub fn code(registry: &Registry, args: impl IntoIterator<Item = String>) -> u8 {
    let args = match Args::parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}\n\nFor more information, try '--help'.");
            return EXIT_USAGE;
        }
    };
    let selected: Vec<&Benchmark> = registry
        .benches
        .iter()
        .filter(|b| args.filter.verdict(&b.id, b.ignored) != Selected::FilteredOut)
        .collect();
    let filtered_out = registry.benches.len() - selected.len();
    let ok = match args.mode {
        Mode::Help => {
            print!("{}", args::HELP);
            true
        }
        Mode::List { terse } => {
            list(&selected, terse);
            true
        }
        Mode::Bench => bench::run(&registry.benches, &selected, filtered_out, &args),
        Mode::Protocol(addr) => protocol::run(registry, &addr),
        Mode::Count(ref given) => count::run(&selected, &args, given),
        Mode::Test => test::run(&selected, filtered_out, &args),
    };
    if ok { EXIT_OK } else { EXIT_FAILED }
}

/// `--list`, written as libtest writes it; a reader that stops early
/// (`--list | head`) ends it quietly, not by a panic.
fn list(selected: &[&Benchmark], terse: bool) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    for b in selected {
        if writeln!(out, "{}: benchmark", b.id).is_err() {
            return;
        }
    }
    if !terse {
        let plural = if selected.len() == 1 { "" } else { "s" };
        let _ = writeln!(out, "\n0 tests, {} benchmark{plural}", selected.len());
    }
}
