//! The bench binary's command line: libtest's flags, plus nbench's own measurement settings.

use crate::engine::Open;
use crate::engine::Settings;
use crate::select::{Filter, Ignored};
use crate::stats::OutlierMode;
use std::fmt;
use std::time::Duration;

/// What the binary was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// `--bench`: measure, print a table.
    Bench,
    /// No `--bench` (`cargo test --benches`): run each benchmark once.
    Test,
    /// `--list`, pretty or (`--format terse`) terse.
    List {
        /// One `id: benchmark` line each and nothing else.
        terse: bool,
    },
    /// `-h` / `--help`.
    Help,
    /// `--nbench-protocol <addr>`: driven by `cargo nbench` over a connection to `addr`.
    Protocol(String),
    /// `--nbench-count`: each benchmark's loop counted under callgrind,
    /// as `cargo nbench` told it.
    Count(Given),
}

/// What `cargo nbench` told a counting process of each benchmark, by the
/// order of the filters (its ids); the clock decides what it did not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given {
    /// The iterations of each one's first counted sample (`--nbench-count-iters`).
    pub iters: Vec<u64>,
    /// Whether each one's batches make their inputs uninstrumented
    /// (`--nbench-count-apart`).
    pub apart: Vec<bool>,
}

/// How `--bench` (and `--list`) print: libtest's `--format` values, and
/// criterion's `--output-format bencher`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Output {
    /// nbench's table (`--format pretty`, the default).
    #[default]
    Pretty,
    /// `--format terse`: with `--list`, one `id: benchmark` line each.
    Terse,
    /// `--format json`: libtest's JSON events, one per line.
    Json,
    /// `--format bencher` or `--output-format bencher`: libtest's
    /// `test ID ... bench: N ns/iter (+/- D)` lines.
    Bencher,
}

/// The parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    /// What to do.
    pub mode: Mode,
    /// Which benchmarks to run.
    pub filter: Filter,
    /// Measurement settings.
    pub settings: Settings,
    /// Which limits no flag set, so that a benchmark's own hint may scale them.
    pub open: Open,
    /// How many times each benchmark is measured (`--repetitions`), pooled.
    pub repetitions: usize,
    /// How results are printed.
    pub output: Output,
    /// `--logfile PATH`: the output is written there too.
    pub logfile: Option<String>,
}

/// A command-line mistake, worded for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// libtest flags that take a value and mean nothing to nbench.
const IGNORED_WITH_VALUE: &[&str] = &["--test-threads", "--color", "-Z", "--shuffle-seed"];

/// The flags of nbench's own (and `cargo nbench`'s) that take a value (as
/// the next argument, or after `=`); with libtest's in
/// [`IGNORED_WITH_VALUE`], every one the bench binary takes a value for.
/// A front end that reads its library's command line passes these on with
/// their values ([`takes_value`]).
pub const WITH_VALUE: &[&str] = &[
    crate::protocol::PROTOCOL_FLAG,
    crate::protocol::COUNT_ITERS_FLAG,
    crate::protocol::COUNT_APART_FLAG,
    "--skip",
    "--format",
    "--output-format",
    "--logfile",
    "--warm-up",
    "--min-time",
    "--max-time",
    "--precision",
    "--min-samples",
    "--max-samples",
    "--outliers",
    "--repetitions",
];

/// Whether the bench binary takes a value for `flag`: one of
/// [`WITH_VALUE`], or of libtest's it ignores.
pub fn takes_value(flag: &str) -> bool {
    WITH_VALUE.contains(&flag) || IGNORED_WITH_VALUE.contains(&flag)
}

/// libtest flags without a value that mean nothing to nbench.
const IGNORED_FLAGS: &[&str] = &[
    "--nocapture",
    "--no-capture",
    "--show-output",
    "-q",
    "--quiet",
    "--test",
    "--report-time",
    "--ensure-time",
    "--shuffle",
    "--exclude-should-panic",
    "--force-run-in-process",
];

impl Args {
    /// Parses the arguments after the program name.
    pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Args, UsageError> {
        let mut out = Args {
            mode: Mode::Test,
            filter: Filter::default(),
            settings: Settings::default(),
            open: Open::ALL,
            repetitions: 1,
            output: Output::Pretty,
            logfile: None,
        };
        let (mut bench, mut list, mut help, mut count) = (false, false, false, false);
        let mut protocol = None;
        let mut given = Given::default();
        let mut it = args.into_iter();
        while let Some(arg) = it.next() {
            if arg == "--" {
                out.filter.filters.extend(it.by_ref());
                break;
            }
            if !arg.starts_with('-') || arg == "-" {
                out.filter.filters.push(arg);
                continue;
            }
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
                _ => (arg.clone(), None),
            };
            let mut value = |name: &str| -> Result<String, UsageError> {
                // Front ends pass on what the list names with its value.
                debug_assert!(
                    takes_value(name),
                    "{name} takes a value: list it in WITH_VALUE or IGNORED_WITH_VALUE"
                );
                match inline.clone().or_else(|| it.next()) {
                    Some(v) => Ok(v),
                    None => Err(UsageError(format!("'{name}' needs a value"))),
                }
            };
            match flag.as_str() {
                "--bench" => bench = true,
                "--list" => list = true,
                "-h" | "--help" => help = true,
                "--exact" => out.filter.exact = true,
                crate::protocol::COUNT_FLAG => count = true,
                crate::protocol::COUNT_ITERS_FLAG => {
                    let v = value(crate::protocol::COUNT_ITERS_FLAG)?;
                    given.iters = iterations(&v)?;
                }
                crate::protocol::COUNT_APART_FLAG => {
                    given.apart = apart(&value(crate::protocol::COUNT_APART_FLAG)?)?;
                }
                crate::protocol::PROTOCOL_FLAG => {
                    protocol = Some(value(crate::protocol::PROTOCOL_FLAG)?)
                }
                "--ignored" => out.filter.ignored = Ignored::Only,
                "--include-ignored" => out.filter.ignored = Ignored::Include,
                "--skip" => out.filter.skip.push(value("--skip")?),
                "--format" | "--output-format" => out.output = output(&flag, &value(&flag)?)?,
                "--logfile" => out.logfile = Some(value("--logfile")?),
                f if out.measuring(f, &mut value)? => {}
                f if IGNORED_WITH_VALUE.contains(&f) => {
                    value(f)?;
                }
                f if IGNORED_FLAGS.contains(&f) => {}
                // `-Zunstable-options` is one word.
                f if f.starts_with("-Z") => {}
                f => {
                    return Err(UsageError(format!(
                        "unknown option '{f}' (nbench takes libtest's flags and its own; see --help)"
                    )));
                }
            }
        }
        out.mode = match count && !help && !list {
            true => Mode::Count(given),
            false => mode(protocol, help, list, bench, out.output),
        };
        Ok(out)
    }
}

impl Args {
    /// Takes `flag` if it is one of the measurement settings (with its
    /// value from `value`); returns whether it was.
    fn measuring(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut(&str) -> Result<String, UsageError>,
    ) -> Result<bool, UsageError> {
        let s = &mut self.settings;
        match flag {
            "--warm-up" => {
                s.warm_up = duration(flag, &value(flag)?)?;
                self.open.warm_up = false;
            }
            "--min-time" => {
                s.min_time = duration(flag, &value(flag)?)?;
                self.open.time = false;
            }
            "--max-time" => {
                s.max_time = duration(flag, &value(flag)?)?;
                self.open.time = false;
            }
            "--precision" => s.precision = percent(flag, &value(flag)?)? / 100.0,
            "--min-samples" => {
                s.min_samples = count(flag, &value(flag)?)?;
                self.open.min_samples = false;
            }
            "--max-samples" => s.max_samples = count(flag, &value(flag)?)?,
            "--outliers" => s.outliers = outlier_mode(&value(flag)?)?,
            "--repetitions" => self.repetitions = count(flag, &value(flag)?)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// What the flags ask the binary to do, the first that applies: talk to
/// `cargo nbench`, help, list, measure, or (none of those) smoke-test.
fn mode(protocol: Option<String>, help: bool, list: bool, bench: bool, output: Output) -> Mode {
    if let Some(addr) = protocol {
        Mode::Protocol(addr)
    } else if help {
        Mode::Help
    } else if list {
        Mode::List {
            terse: output == Output::Terse,
        }
    } else if bench {
        Mode::Bench
    } else {
        Mode::Test
    }
}

/// A `--format` (libtest's) or `--output-format` (criterion's) value.
fn output(flag: &str, text: &str) -> Result<Output, UsageError> {
    match (flag, text) {
        ("--format", "pretty") | ("--output-format", "criterion") => Ok(Output::Pretty),
        ("--format", "terse") => Ok(Output::Terse),
        ("--format", "json") => Ok(Output::Json),
        (_, "bencher") => Ok(Output::Bencher),
        ("--format", _) => Err(UsageError(format!(
            "invalid value '{text}' for '--format': expected pretty, terse, json or bencher"
        ))),
        _ => Err(UsageError(format!(
            "invalid value '{text}' for '--output-format': expected criterion or bencher"
        ))),
    }
}

/// What a duration is written as, for errors.
pub const DURATION_EXPECTED: &str =
    "expected a duration such as 0.5, 500ms, 2s, 10m, 1h or 7d (seconds without a unit)";

/// `0.5`, `500ms`, `2s`, `250us`, `10m` (or `10min`), `1h`, `7d`: seconds
/// when no unit is given.
pub fn duration(flag: &str, text: &str) -> Result<Duration, UsageError> {
    let t = text.trim();
    // Longer suffixes first: `ms` before `s`, `min` before `m`.
    let (num, scale) = [
        ("ms", 1e-3),
        ("us", 1e-6),
        ("µs", 1e-6),
        ("ns", 1e-9),
        ("min", 60.0),
        ("s", 1.0),
        ("m", 60.0),
        ("h", 3600.0),
        ("d", 86400.0),
    ]
    .iter()
    .find_map(|&(suffix, scale)| t.strip_suffix(suffix).map(|n| (n, scale)))
    .unwrap_or((t, 1.0));
    match num.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 && v * scale < 1e7 => {
            Ok(Duration::from_secs_f64(v * scale))
        }
        _ => Err(UsageError(format!(
            "invalid value '{text}' for '{flag}': {DURATION_EXPECTED}"
        ))),
    }
}

/// `1`, `0.5%`: a percentage above 0 and at most 100.
pub fn percent(flag: &str, text: &str) -> Result<f64, UsageError> {
    let t = text.trim().trim_end_matches('%');
    match t.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 100.0 => Ok(v),
        _ => Err(UsageError(format!(
            "invalid value '{text}' for '{flag}': {PERCENT_EXPECTED}"
        ))),
    }
}

/// What a percentage must look like, for error messages.
pub const PERCENT_EXPECTED: &str =
    "expected a percentage above 0 and at most 100, such as 1 or 0.5%";

/// Parses an `--outliers` value.
pub fn outlier_mode(text: &str) -> Result<OutlierMode, UsageError> {
    OutlierMode::parse(text.trim()).ok_or_else(|| {
        UsageError(format!(
            "invalid value '{text}' for '--outliers': {OUTLIERS_EXPECTED}"
        ))
    })
}

/// What an `--outliers` value must be, for error messages.
pub const OUTLIERS_EXPECTED: &str = "expected none, top5, both5 or iqr";

/// `--nbench-count-iters`'s value: iteration counts, comma-separated, each at least 1.
fn iterations(text: &str) -> Result<Vec<u64>, UsageError> {
    (text.split(',').filter(|t| !t.is_empty()))
        .map(|t| match t.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(UsageError(format!(
                "invalid value '{t}' for '{}': expected iteration counts like 4,64,1",
                crate::protocol::COUNT_ITERS_FLAG
            ))),
        })
        .collect()
}

/// `--nbench-count-apart`'s value: `0` or `1` for each benchmark, comma-separated.
fn apart(text: &str) -> Result<Vec<bool>, UsageError> {
    (text.split(',').filter(|t| !t.is_empty()))
        .map(|t| match t.trim() {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(UsageError(format!(
                "invalid value '{t}' for '{}': expected 0 or 1 for each benchmark, like 0,1,0",
                crate::protocol::COUNT_APART_FLAG
            ))),
        })
        .collect()
}

fn count(flag: &str, text: &str) -> Result<usize, UsageError> {
    match text.trim().parse::<usize>() {
        Ok(v) if v >= 1 => Ok(v),
        _ => Err(UsageError(format!(
            "invalid value '{text}' for '{flag}': expected a whole number of at least 1"
        ))),
    }
}

/// What `--help` prints.
pub const HELP: &str = "\
Benchmarks written with nbench.

Usage: <bench-binary> [OPTIONS] [FILTER]...

Without --bench each benchmark runs once, as a test (what `cargo test --benches`
does); with --bench each is measured and a table is printed (what `cargo bench`
does). `cargo nbench` drives this binary for you and compares runs.

Selection:
  [FILTER]...              Run benchmarks whose id contains any filter
      --exact              Filters and --skip match whole ids
      --skip <TEXT>        Leave out benchmarks whose id contains TEXT (repeatable)
      --ignored            Run only benchmarks marked ignored
      --include-ignored    Run ignored benchmarks too
      --list               List benchmarks instead of running them

Output:
      --format <FORMAT>    pretty: the table [default]; terse: with --list, one
                           `id: benchmark` line each; json: libtest's JSON events,
                           one per line; bencher: libtest's bench lines
                           `test ID ... bench: N ns/iter (+/- D)` (D: the 5th to
                           95th percentile, at most N; spaces in ids become _)
      --output-format bencher
                           The same as --format bencher (criterion's spelling)
      --logfile <PATH>     Write the output to PATH as well

Measurement (with --bench):
      --warm-up <DUR>      Warm-up time per benchmark [default: 100ms]
      --min-time <DUR>     Sampling time before the precision target counts [default: 400ms]
      --max-time <DUR>     Time limit of sampling per benchmark [default: 800ms]
      --precision <PCT>    Stop once the median's 95% CI is within ±PCT% [default: 1]
      --min-samples <N>    Samples taken at least [default: 10]
      --max-samples <N>    Samples taken at most [default: 100000]
      --outliers <MODE>    Samples the summary sets aside: none, top5 (slowest 5%),
                           both5 (slowest and fastest 5%), iqr (beyond Tukey's
                           1.5×IQR fences) [default: none]
      --repetitions <N>    Measure each benchmark N times, one after the other, and
                           pool the samples; the notes give the spread of the N
                           medians (`3 runs: cv 0.41%`) [default: 1]

Durations are seconds, or take a unit: 500ms, 2s, 250us.
libtest flags such as --nocapture, --show-output, --test-threads N, -q,
-Z unstable-options and --color WHEN are accepted and ignored.

Exit status: 0 all passed, 101 a benchmark failed, 2 bad command line.
";

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Args, UsageError> {
        Args::parse(line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn durations_take_the_units_people_write() {
        let d = |t: &str| duration("--timeout", t).map(|d| d.as_secs_f64());
        assert_eq!(d("0.5"), Ok(0.5));
        assert_eq!(d("500ms"), Ok(0.5));
        assert_eq!(d("250us"), Ok(0.00025));
        assert_eq!(d("2s"), Ok(2.0));
        assert_eq!(d("10m"), Ok(600.0));
        assert_eq!(d("10min"), Ok(600.0));
        assert_eq!(d("1.5h"), Ok(5400.0));
        assert_eq!(d("7d"), Ok(604_800.0));
        let e = d("soon").unwrap_err();
        assert!(e.0.contains("'soon'") && e.0.contains("10m"), "{e}");
        assert!(d("-1s").is_err() && d("200d").is_err());
    }

    #[test]
    fn modes() {
        assert_eq!(parse("").unwrap().mode, Mode::Test);
        assert_eq!(parse("--bench").unwrap().mode, Mode::Bench);
        assert_eq!(
            parse("--list --format terse").unwrap().mode,
            Mode::List { terse: true }
        );
        assert_eq!(
            parse("--bench --list").unwrap().mode,
            Mode::List { terse: false }
        );
        assert_eq!(parse("--bench -h").unwrap().mode, Mode::Help);
        let given = |iters: &[u64], apart: &[bool]| {
            let (iters, apart) = (iters.to_vec(), apart.to_vec());
            Mode::Count(Given { iters, apart })
        };
        assert_eq!(parse("--nbench-count").unwrap().mode, given(&[], &[]));
        let counted = parse("--nbench-count --nbench-count-iters 4,1 --exact -- a b").unwrap();
        assert_eq!(counted.mode, given(&[4, 1], &[]));
        let told = parse("--nbench-count --nbench-count-iters 4,1 --nbench-count-apart 0,1 -- a b");
        assert_eq!(told.unwrap().mode, given(&[4, 1], &[false, true]));
        let e = parse("--nbench-count --nbench-count-apart 0,yes").unwrap_err();
        assert!(
            e.0.contains("'yes'") && e.0.contains("--nbench-count-apart"),
            "{e}"
        );
        assert_eq!(counted.filter.filters, ["a", "b"]);
        let e = parse("--nbench-count --nbench-count-iters 4,0").unwrap_err();
        assert!(
            e.0.contains("'0'") && e.0.contains("--nbench-count-iters"),
            "{e}"
        );
    }

    #[test]
    fn every_flag_listed_as_taking_a_value_takes_one() {
        for flag in WITH_VALUE.iter().chain(IGNORED_WITH_VALUE) {
            assert!(takes_value(flag), "{flag}");
            let e = parse(&format!("--bench {flag}")).unwrap_err();
            assert!(e.0.contains("needs a value"), "{flag}: {e}");
        }
        assert!(!takes_value("--exact") && !takes_value(crate::protocol::COUNT_FLAG));
    }

    #[test]
    fn output_formats_of_libtest_and_criterion() {
        let out = |line: &str| parse(line).map(|a| a.output);
        assert_eq!(out("--bench"), Ok(Output::Pretty));
        assert_eq!(
            out("--bench -Z unstable-options --format json"),
            Ok(Output::Json)
        );
        assert_eq!(out("--bench --output-format bencher"), Ok(Output::Bencher));
        assert_eq!(out("--bench --format=bencher"), Ok(Output::Bencher));
        assert_eq!(out("--bench --output-format criterion"), Ok(Output::Pretty));
        let e = out("--bench --format bogus").unwrap_err();
        assert!(e.0.contains("'bogus'") && e.0.contains("--format"), "{e}");
        assert!(out("--bench --output-format json").is_err());
        let a = parse("--bench --logfile out.txt").unwrap();
        assert_eq!(a.logfile.as_deref(), Some("out.txt"));
    }

    #[test]
    fn filters_and_libtest_flags() {
        let a = parse("--bench sort --nocapture --test-threads 4 --color=never -Zunstable-options --skip std -q fib --exact").unwrap();
        assert_eq!(a.filter.filters, ["sort", "fib"]);
        assert_eq!(a.filter.skip, ["std"]);
        assert!(a.filter.exact);
        assert_eq!(
            parse("--include-ignored").unwrap().filter.ignored,
            Ignored::Include
        );
        assert_eq!(parse("-- --weird").unwrap().filter.filters, ["--weird"]);
    }

    #[test]
    fn settings() {
        let a = parse("--warm-up 250ms --max-time=2 --precision 0.5% --min-samples 30").unwrap();
        assert_eq!(a.settings.warm_up, Duration::from_millis(250));
        assert_eq!(a.settings.max_time, Duration::from_secs(2));
        assert!((a.settings.precision - 0.005).abs() < 1e-15);
        assert_eq!(a.settings.min_samples, 30);
    }

    #[test]
    fn bad_values_are_clear_errors() {
        let e = parse("--max-time soon").unwrap_err();
        assert!(e.0.contains("'soon'") && e.0.contains("--max-time"), "{e}");
        assert!(parse("--max-time -1").is_err());
        assert!(parse("--precision 0").is_err());
        assert!(parse("--min-samples 0").is_err());
        assert!(parse("--max-time").unwrap_err().0.contains("needs a value"));
        assert!(
            parse("--frobnicate")
                .unwrap_err()
                .0
                .contains("unknown option '--frobnicate'")
        );
    }
}
