//! The command line: cargo-style package, target and feature flags, filters, measurement and output.

use crate::report::Verbosity;
use clap::{Args, Parser};
use nbench::__private::stats::OutlierMode;
use std::path::PathBuf;
use std::time::Duration;

#[cfg(test)]
mod page;
mod values;

pub use values::{Color, FormatArg, PlacementArg, TimeUnitArg};
use values::{baseline_name, context_pair};
pub(crate) use values::{duration, metrics, outlier_mode, percent, timeout};

/// How cargo invokes a subcommand: `cargo-nbench nbench [ARGS]`.
#[derive(Debug, Parser)]
#[command(name = "cargo", bin_name = "cargo", styles = clap_cargo_styles())]
pub enum Cargo {
    /// Build and run nbench benchmarks, store the results, compare them
    Nbench(Cli),
}

const AFTER_HELP: &str = "\
Exit status:
  0  every selected benchmark ran
  1  a benchmark failed (panic, crash, timeout); the others still ran
  2  bad command line or configuration
  3  the bench targets did not compile
  4  a comparison found a regression (with --fail-on-regression)
  5  any other error (cargo could not be run, files could not be written)

Settings: every flag can also be given as an NBENCH_* environment variable (--warm-up is
NBENCH_WARM_UP), and the measurement and output ones in nbench.toml at the workspace root;
flags win over variables, variables over the file. `cargo nbench config` shows what is in effect.

Results of every run are stored in target/nbench/runs/ (the last 50 are kept), and
target/nbench/report/index.html shows them with plots.

A suite on criterion, divan, gungraun, tango, bencher or iai runs with no edit in a git
repository: the working tree is built as a commit of its own, with nbench's front end in the
library's place, in a worktree under target/nbench (your files, index and branch untouched).";

/// Build and run nbench benchmarks, store the results, compare them.
#[derive(Debug, Clone, Args)]
#[command(version, about, after_help = AFTER_HELP, max_term_width = 100, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// Baseline management and comparing saved baselines (instead of running benchmarks)
    #[command(subcommand)]
    pub command: Option<Sub>,

    /// Run only benchmarks whose id contains one of these
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,

    /// Arguments for every bench binary; filters, --exact, --skip, --ignored, --include-ignored, --list, --nocapture and --output-format bencher here are taken as cargo nbench's own, as `cargo bench -- …` users write them
    #[arg(last = true, value_name = "ARGS")]
    pub bench_args: Vec<String>,

    /// Filters and --skip match whole benchmark ids
    #[arg(global = true, long, help_heading = "Selection")]
    pub exact: bool,
    /// Leave out benchmarks whose id contains TEXT
    #[arg(global = true, long, value_name = "TEXT", help_heading = "Selection")]
    pub skip: Vec<String>,
    /// Measure one shard of the selected benchmarks, for a CI matrix: count:M/N (round-robin within each bench target), hash:M/N (by a stable hash of package, target and id: adding a benchmark moves no other) or slice:M/N (round-robin across all targets); `cargo nbench merge` joins the shards' JSON
    #[arg(global = true, long, value_name = "KIND:M/N", value_parser = crate::model::partition::Partition::parse, help_heading = "Selection")]
    pub partition: Option<crate::model::partition::Partition>,
    /// Run only benchmarks marked ignored
    #[arg(
        global = true,
        long,
        help_heading = "Selection",
        conflicts_with = "include_ignored"
    )]
    pub ignored: bool,
    /// Run ignored benchmarks too
    #[arg(global = true, long, help_heading = "Selection")]
    pub include_ignored: bool,
    /// List the benchmarks instead of running them
    #[arg(global = true, long, help_heading = "Selection")]
    pub list: bool,

    /// Package(s) to benchmark
    #[arg(
        global = true,
        short = 'p',
        long = "package",
        value_name = "SPEC",
        help_heading = "Package Selection"
    )]
    pub packages: Vec<String>,
    /// Benchmark every package in the workspace
    #[arg(global = true, long, help_heading = "Package Selection")]
    pub workspace: bool,
    /// Exclude packages from --workspace
    #[arg(
        global = true,
        long,
        value_name = "SPEC",
        help_heading = "Package Selection",
        requires = "workspace"
    )]
    pub exclude: Vec<String>,

    /// Only the named bench target(s); a name may be a pattern (`parse_*`, `b?t`), as in cargo
    #[arg(
        global = true,
        long = "bench",
        value_name = "NAME",
        help_heading = "Target Selection"
    )]
    pub benches: Vec<String>,

    /// Only the library's own `#[bench]` functions (its unit tests, on nightly)
    #[arg(global = true, long, help_heading = "Target Selection")]
    pub lib: bool,

    /// Only the `#[bench]` functions in binary NAME's own source (its unit tests, on nightly)
    #[arg(
        global = true,
        long = "bin",
        value_name = "NAME",
        help_heading = "Target Selection"
    )]
    pub bins: Vec<String>,

    /// Space or comma separated list of features to activate
    #[arg(
        global = true,
        short = 'F',
        long,
        value_name = "FEATURES",
        help_heading = "Feature Selection"
    )]
    pub features: Vec<String>,
    /// Activate all available features
    #[arg(global = true, long, help_heading = "Feature Selection")]
    pub all_features: bool,
    /// Do not activate the `default` feature
    #[arg(global = true, long, help_heading = "Feature Selection")]
    pub no_default_features: bool,

    /// Build with the given profile
    #[arg(
        global = true,
        long,
        value_name = "PROFILE-NAME",
        default_value = "bench",
        help_heading = "Compilation Options"
    )]
    pub profile: String,
    /// Directory for all generated artifacts (and target/nbench/)
    #[arg(
        global = true,
        long,
        value_name = "DIRECTORY",
        help_heading = "Compilation Options"
    )]
    pub target_dir: Option<PathBuf>,
    /// Where code lands in bench builds: stable (functions, loops and jump targets aligned to 64 bytes and, on x86, no branch across a 32-byte boundary, so that code placement no longer moves benchmarks; the workspace's own crates in one codegen unit unless your profile or rustflags set a number; built in target/nbench/build, beside your own build) or linker (where the compiler and linker put it, in cargo's target folder)
    #[arg(global = true, long, value_enum, value_name = "HOW", default_value_t = PlacementArg::Stable, help_heading = "Compilation Options")]
    pub placement: PlacementArg,
    /// Number of parallel build jobs
    #[arg(
        global = true,
        short = 'j',
        long,
        value_name = "N",
        help_heading = "Compilation Options"
    )]
    pub jobs: Option<String>,

    /// Path to Cargo.toml
    #[arg(
        global = true,
        long,
        value_name = "PATH",
        help_heading = "Manifest Options"
    )]
    pub manifest_path: Option<PathBuf>,
    /// Assert that Cargo.lock will remain unchanged
    #[arg(global = true, long, help_heading = "Manifest Options")]
    pub locked: bool,
    /// Run without accessing the network
    #[arg(global = true, long, help_heading = "Manifest Options")]
    pub offline: bool,
    /// Equivalent to specifying both --locked and --offline
    #[arg(global = true, long, help_heading = "Manifest Options")]
    pub frozen: bool,

    /// Warm-up time per benchmark [default: 100ms]
    #[arg(global = true, long, value_name = "DUR", value_parser = duration, help_heading = "Measurement")]
    pub warm_up: Option<Duration>,
    /// Sampling time before the precision target counts [default: 400ms]
    #[arg(global = true, long, value_name = "DUR", value_parser = duration, help_heading = "Measurement")]
    pub min_time: Option<Duration>,
    /// Time limit of sampling per benchmark; compared in lockstep, it is shared among epochs of 25 ms each (fresh process pairs), so a longer limit buys more of them, and a pair slow to start (a benchmark's own setup) counts its start too; a change whose epochs are too few to claim it takes the limit once more [default: 800ms]
    #[arg(global = true, long, value_name = "DUR", value_parser = duration, help_heading = "Measurement")]
    pub max_time: Option<Duration>,
    /// Stop once the median's 95% CI is within ±PCT% [default: 1]
    #[arg(global = true, long, value_name = "PCT", value_parser = percent, help_heading = "Measurement")]
    pub precision: Option<f64>,
    /// Samples taken at least [default: 10]
    #[arg(global = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Measurement")]
    pub min_samples: Option<u32>,
    /// Samples taken at most [default: 100000]
    #[arg(global = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Measurement")]
    pub max_samples: Option<u32>,
    /// Samples the summary sets aside: none, top5 (slowest 5%), both5 (slowest and fastest 5%), iqr (beyond Tukey's 1.5×IQR fences) [default: none]
    #[arg(global = true, long, value_name = "MODE", value_parser = outlier_mode, help_heading = "Measurement")]
    pub outliers: Option<OutlierMode>,
    /// Measure each benchmark in N fresh processes (epochs), interleaved with the target's other benchmarks, each with 1/N of the time limits; the time shown is the fastest epoch's median (the machine's slow spells only add time) and its ±next where the next run's lands 90 % of the time, from the fastest epochs and the earlier runs of the same build; 1 measures in one process [default: 8, fewer when --max-samples is below 16]
    #[arg(global = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64), help_heading = "Measurement")]
    pub epochs: Option<u32>,
    /// What to measure, comma-separated: time (always), and instructions, counted under Valgrind's callgrind (each bench binary runs once more under it, its benchmarks' loops counted; Valgrind must be installed) [default: time]
    #[arg(global = true, long, value_name = "LIST", value_parser = metrics, help_heading = "Measurement")]
    pub metrics: Option<bool>,
    /// Measure each benchmark N times in a row and pool the samples; the spread of the N medians is reported [default: 1]
    #[arg(global = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Measurement")]
    pub repetitions: Option<u32>,
    /// Run each bench binary N times, in fresh processes, and pool each benchmark's measurements [default: 1]
    #[arg(global = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Measurement")]
    pub launches: Option<u32>,
    /// Measure a binary's benchmarks in SLICES rounds, each round in a new random order with 1/SLICES of the time limits, and pool them, so the machine's drift spreads over all [default: 4 when given without a value]
    #[arg(global = true, long, value_name = "SLICES", num_args = 0..=1, require_equals = true, default_missing_value = "4", value_parser = clap::value_parser!(u32).range(2..), help_heading = "Measurement")]
    pub interleave: Option<u32>,
    /// Kill a benchmark that runs longer than this and report it as timed out
    #[arg(global = true, long, value_name = "DUR", value_parser = timeout, default_value = "120s", help_heading = "Measurement")]
    pub timeout: Duration,

    /// Save this run, and copies of the bench executables, as baseline NAME
    #[arg(global = true, long, value_name = "NAME", value_parser = baseline_name, help_heading = "Baselines")]
    pub save_baseline: Option<String>,
    /// Compare with baseline NAME: its saved executables and the fresh ones are sampled in lockstep
    #[arg(global = true, long, value_name = "NAME", value_parser = baseline_name, help_heading = "Baselines")]
    pub compare: Option<String>,
    /// Compare with git revision REV (branch, tag, hash, HEAD~1): it is built in a worktree under target/nbench, saved as baseline rev-HASH (reused next time) and compared paired like --compare; a working tree whose suite still uses criterion, divan or another library nbench takes the place of is built as a revision too, with no edit
    #[arg(global = true, long, value_name = "REV", conflicts_with_all = ["compare", "compare_stored"], help_heading = "Baselines")]
    pub compare_rev: Option<String>,
    /// Link layouts to build of each bench target when saving or comparing a baseline: the same code, functions and constant data in another order each, so that a verdict covers code placement (more narrow an interval that placement keeps wide; the baseline needs them too); 1 keeps the linker's own order [default: 16 with --save-baseline or --compare, else 1]
    #[arg(global = true, long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=64), help_heading = "Baselines")]
    pub layouts: Option<u32>,
    /// Layout i shuffles the order of functions and constant data with seed SEED + i (with --layouts 1: shuffled with seed SEED + 1 instead of the linker's own order)
    #[arg(global = true, long, value_name = "SEED", help_heading = "Baselines")]
    pub layout_seed: Option<u64>,
    /// Compare with the baseline's stored samples instead of running its executables (less certain)
    #[arg(global = true, long, help_heading = "Baselines")]
    pub compare_stored: bool,
    /// Changes smaller than PCT% are reported as unchanged
    #[arg(global = true, long, value_name = "PCT", value_parser = percent, default_value = "0.5", help_heading = "Baselines")]
    pub noise_threshold: f64,
    /// Exit with code 4 if any benchmark regressed (with --compare or `compare A B`)
    #[arg(global = true, long, help_heading = "Baselines")]
    pub fail_on_regression: bool,

    /// Output format on stdout
    #[arg(global = true, long, value_enum, default_value_t = FormatArg::Console, help_heading = "Output")]
    pub format: FormatArg,
    /// Also write the report to FILE, in the format its extension names (.json, .jsonl, .csv, .md, .txt, .bencher, .html); repeatable
    #[arg(global = true, long, value_name = "FILE", help_heading = "Output")]
    pub out: Vec<PathBuf>,
    /// The format of every --out FILE, whatever its extension
    #[arg(
        global = true,
        long,
        value_enum,
        value_name = "FORMAT",
        help_heading = "Output"
    )]
    pub out_format: Option<FormatArg>,
    /// Show times in this unit instead of one per value
    #[arg(
        global = true,
        long,
        value_enum,
        value_name = "UNIT",
        help_heading = "Output"
    )]
    pub time_unit: Option<TimeUnitArg>,
    /// Append the report as Markdown to FILE (e.g. "$GITHUB_STEP_SUMMARY")
    #[arg(global = true, long, value_name = "FILE", help_heading = "Output")]
    pub summary: Option<PathBuf>,
    /// Coloring: auto, always, never (NO_COLOR is honoured)
    #[arg(global = true, long, value_enum, value_name = "WHEN", default_value_t = Color::Auto, help_heading = "Output")]
    pub color: Color,
    /// Show the benchmarks' own stdout and stderr as they run (else they are kept to show for a
    /// benchmark that fails, and what a benchmark writes to stdout while timed goes to /dev/null)
    #[arg(global = true, long, help_heading = "Output")]
    pub nocapture: bool,
    /// Add KEY=VALUE to the run's context (shown above the table, stored with the run); repeatable
    #[arg(global = true, long, value_name = "KEY=VALUE", value_parser = context_pair, help_heading = "Output")]
    pub context: Vec<(String, String)>,
    /// Print the tables only: no context, progress, notes or cargo's build lines
    #[arg(
        global = true,
        short,
        long,
        help_heading = "Output",
        conflicts_with = "verbose"
    )]
    pub quiet: bool,
    /// Also print the settings, the timer's resolution, each benchmark's cold time and loop overhead, and (in CI or a pipe) a progress line for every measurement
    #[arg(global = true, short, long, help_heading = "Output")]
    pub verbose: bool,
}

impl Cli {
    /// `-q`, `-v` or neither.
    pub fn verbosity(&self) -> Verbosity {
        match (self.quiet, self.verbose) {
            (true, _) => Verbosity::Quiet,
            (_, true) => Verbosity::Verbose,
            _ => Verbosity::Normal,
        }
    }
}

/// Subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum Sub {
    /// List, show, delete or prune saved baselines
    #[command(subcommand)]
    Baseline(BaselineCmd),
    /// Compare two saved baselines (or, with --rev, two git revisions): their executables in lockstep
    #[command(
        after_help = "The benchmarks of B are compared with those of A (A is the \"baseline\", B the \"current\" side).\nOnly the benchmarks the baselines hold are compared; FILTERs narrow that further.\nWhere either side's executables are missing or do not start, their stored samples are compared instead.\n\nWith --rev, A and B are git revisions (main, origin/main, HEAD~3, a tag, a hash): each is built\nin a worktree under target/nbench, as --compare-rev does, and saved as baseline rev-HASH, which\nthe next comparison of that commit reuses. The working tree is not used.\n\nThe comparison is printed (and written with --out / --summary), not added to target/nbench/runs/."
    )]
    Compare {
        /// The baseline (or revision) compared against
        a: String,
        /// The baseline (or revision) compared with A
        b: String,
        /// A and B are git revisions, built (once) in worktrees
        #[arg(long)]
        rev: bool,
        /// Compare only benchmarks whose id contains one of these
        #[arg(value_name = "FILTER")]
        filters: Vec<String>,
    },
    /// Merge the JSON of a suite's shards (--partition) into one report, p-values adjusted over all of them
    #[command(
        after_help = "Each FILE is one shard's run as `--out FILE.json` or `--format json` wrote it, made with\n--partition KIND:M/N (the same KIND and N for all). The merged report is printed (and written\nwith --out / --summary) in any --format; --fail-on-regression exits 4 on a merged \"regressed\".\nShards of different baselines or partition schemes, or that overlap, are refused; missing\nshards are named in a warning. Nothing is built or measured."
    )]
    Merge {
        /// The shards' JSON files
        #[arg(required = true, value_name = "FILE")]
        files: Vec<std::path::PathBuf>,
    },
    /// Print the effective settings and where each comes from (flag, NBENCH_* variable, settings file, built-in)
    #[command(
        after_help = "Settings are read from, in order: flags, NBENCH_* environment variables (one for every\nflag: --warm-up is NBENCH_WARM_UP), the settings file, built-in defaults.\n\nThe settings file is nbench.toml at the workspace root, or a [workspace.metadata.nbench]\nor [package.metadata.nbench] table in the root Cargo.toml. Its keys are the flags' names:\n\n    warm-up = \"50ms\"\n    max-time = \"2s\"\n    noise-threshold = 1\n    out = [\"target/bench.md\"]\n\n    [bench.slow_io]      # one bench target (NAME or package/NAME)\n    max-time = \"10s\""
    )]
    Config,
    /// Rebuild the HTML report (target/nbench/report/index.html) from the stored runs
    #[command(
        after_help = "Every run writes the report itself; this rebuilds it from the newest stored run,\nwith the history of all of them, and prints where it is. Nothing is built or measured."
    )]
    Report,
}

/// `cargo nbench baseline …`
#[derive(Debug, Clone, clap::Subcommand)]
pub enum BaselineCmd {
    /// List saved baselines: name, date, git commit, number of benchmarks
    List,
    /// Show a baseline's context and results
    Show {
        /// The baseline
        #[arg(value_parser = baseline_name)]
        name: String,
    },
    /// Delete a baseline and its saved executables
    Delete {
        /// The baseline
        #[arg(value_parser = baseline_name)]
        name: String,
    },
    /// Delete the baselines no comparison has used for a while: those
    /// --compare-rev and compare --rev made (rev-…), or with --all every one
    #[command(
        after_help = "A baseline's last use is when it was saved or last compared with. CI that keeps\ntarget/ in a cache runs `cargo nbench baseline prune --older-than 7d` after its comparison."
    )]
    Prune {
        /// Delete those not saved or compared with for this long (such as 7d, 12h)
        #[arg(long, value_name = "DUR", value_parser = values::duration)]
        older_than: Duration,
        /// Named baselines too (--save-baseline NAME), not only revisions' (rev-…)
        #[arg(long)]
        all: bool,
    },
}

/// The command line's definition, with an `NBENCH_*` variable for every flag
/// (`--warm-up` ↔ `NBENCH_WARM_UP`), shown in `--help`.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let mut cargo = Cargo::command().mut_subcommand("nbench", |nbench| {
        nbench.mut_args(|arg| match arg.get_long() {
            Some(long) if !matches!(long, "help" | "version") => {
                let name = env_name(long);
                let arg = arg.env(name).hide_env(true);
                // A switch set by a variable takes what shells and CI
                // systems write: 1/0, yes/no, on/off, true/false.
                if matches!(arg.get_action(), clap::ArgAction::SetTrue) {
                    arg.value_parser(clap::builder::BoolishValueParser::new())
                } else {
                    arg
                }
            }
            _ => arg,
        })
    });
    // The global flags are in every subcommand once built; `baseline` and
    // `report` read the store and print, so their help shows only the flags
    // that say where the store is and how to print.
    cargo.build();
    cargo.mut_subcommand("nbench", |nbench| {
        nbench
            .mut_subcommand("report", only_where_and_how)
            .mut_subcommand("baseline", |baseline| {
                let names: Vec<String> = (baseline.get_subcommands())
                    .map(|c| c.get_name().to_owned())
                    .collect();
                (names.iter()).fold(only_where_and_how(baseline), |b, name| {
                    b.mut_subcommand(name, only_where_and_how)
                })
            })
    })
}

/// The global flags a command that only reads the store and prints takes.
const WHERE_AND_HOW: [&str; 5] = ["manifest-path", "target-dir", "color", "quiet", "verbose"];

/// `command` with every other global flag left out of its help.
fn only_where_and_how(command: clap::Command) -> clap::Command {
    command.mut_args(|arg| match arg.get_long() {
        Some(long) if arg.is_global_set() && !WHERE_AND_HOW.contains(&long) => arg.hide(true),
        _ => arg,
    })
}

/// `NBENCH_` and the flag's long name in upper case, `-` as `_`.
pub fn env_name(long: &str) -> String {
    format!("NBENCH_{}", long.to_ascii_uppercase().replace('-', "_"))
}

/// Parses `args` (`cargo-nbench nbench …`): the options, and how each got its value.
pub fn parse_from<I, T>(args: I) -> Result<(Cli, clap::ArgMatches), clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::FromArgMatches;
    let matches = command().try_get_matches_from(args)?;
    let Cargo::Nbench(cli) = Cargo::from_arg_matches(&matches)?;
    let nbench = matches
        .subcommand_matches("nbench")
        .cloned()
        .unwrap_or_default();
    Ok((cli, nbench))
}

/// The command line with nothing on it and no variable read: the flags' defaults.
pub fn defaults() -> Cli {
    use clap::Parser;
    let Cargo::Nbench(cli) =
        Cargo::try_parse_from(["cargo-nbench", "nbench"]).expect("an empty command line parses");
    cli
}

fn clap_cargo_styles() -> clap::builder::Styles {
    use clap::builder::styling::{AnsiColor, Effects};
    clap::builder::Styles::styled()
        .header(AnsiColor::Green.on_default().effects(Effects::BOLD))
        .usage(AnsiColor::Green.on_default().effects(Effects::BOLD))
        .literal(AnsiColor::Cyan.on_default().effects(Effects::BOLD))
        .placeholder(AnsiColor::Cyan.on_default())
        .error(AnsiColor::Red.on_default().effects(Effects::BOLD))
        .valid(AnsiColor::Cyan.on_default().effects(Effects::BOLD))
        .invalid(AnsiColor::Yellow.on_default().effects(Effects::BOLD))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        let argv = ["cargo", "nbench"]
            .into_iter()
            .chain(line.split_whitespace());
        Cargo::try_parse_from(argv).map(|Cargo::Nbench(cli)| cli)
    }

    #[test]
    fn definition_is_consistent() {
        Cargo::command().debug_assert();
    }

    #[test]
    fn cargo_style_flags() {
        let cli = parse(
            "sort -p a -p b --bench x --features f1,f2 --profile release -j 2 --max-time 2s -- --x",
        )
        .unwrap();
        assert_eq!(cli.filters, ["sort"]);
        assert_eq!(cli.packages, ["a", "b"]);
        assert_eq!(cli.benches, ["x"]);
        assert_eq!(cli.profile, "release");
        assert_eq!(cli.max_time, Some(Duration::from_secs(2)));
        assert_eq!(cli.bench_args, ["--x"]);
    }

    #[test]
    fn a_command_that_reads_the_store_shows_only_the_flags_it_takes() {
        let help = |line: &str| {
            let argv = ["cargo", "nbench"]
                .into_iter()
                .chain(line.split_whitespace());
            command()
                .try_get_matches_from(argv)
                .unwrap_err()
                .to_string()
        };
        for line in ["baseline prune --help", "baseline --help", "report --help"] {
            let shown = help(line);
            assert!(
                shown.contains("--target-dir")
                    && shown.contains("--manifest-path")
                    && !shown.contains("--warm-up")
                    && !shown.contains("--max-time <DUR>"),
                "{line}: {shown}"
            );
        }
        assert!(help("baseline prune --help").contains("--older-than"));
        for line in ["--help", "compare --help"] {
            assert!(help(line).contains("--warm-up"), "{line}");
        }
    }

    #[test]
    fn bad_values_are_refused() {
        let e = parse("--max-time soon").unwrap_err().to_string();
        assert!(e.contains("soon") && e.contains("--max-time"), "{e}");
        assert!(parse("--precision 0").is_err());
        assert!(parse("--min-samples 0").is_err());
        assert!(parse("--exclude x").is_err(), "--exclude needs --workspace");
    }
}
