//! The arguments after `--`, read as `cargo bench`'s users write them.
//!
//! `cargo bench -- sort --exact` hands `sort --exact` to each bench binary,
//! which selects by them. Under `cargo nbench` a bench binary runs what
//! cargo nbench asks of it, so a filter there would select nothing: its
//! words and selection flags (`--exact`, `--skip`, `--ignored`,
//! `--include-ignored`), `--list`, `--nocapture` and a request for
//! libtest's `bencher` lines are taken as cargo nbench's own. A library's
//! baseline flags (criterion's `--save-baseline`), `--help` and `--test`
//! are refused with the command that does what they ask. Every other
//! argument is passed on, with its value.

use crate::cli::{Cli, FormatArg};
use crate::error::{Error, Result};

/// Flags of the libraries nbench's front ends stand in for that take a
/// value (criterion's and divan's); nbench's and libtest's are the
/// harness's own list ([`nbench::__private::modes::args::takes_value`]).
const LIBRARY_WITH_VALUE: &[&str] = &[
    "--warm-up-time",
    "--measurement-time",
    "--profile-time",
    "--sample-size",
    "--nresamples",
    "--noise-threshold",
    "--confidence-level",
    "--significance-level",
    "--plotting-backend",
    "-c",
    "--sample-count",
    "--timer",
    "--bytes-format",
    "--sort",
    "--sortr",
    "--threads",
    "--items-count",
    "--bytes-count",
    "--chars-count",
    "--cycles-count",
];

/// Flags after `--` that a driven bench binary would not honour, and what
/// does it instead: criterion's baseline flags, help, and a run as tests.
const REFUSED: &[(&str, &str)] = &[
    ("--save-baseline", BASELINES_SAVED),
    ("-s", BASELINES_SAVED),
    ("--baseline", BASELINES_COMPARED),
    ("-b", BASELINES_COMPARED),
    ("--baseline-lenient", BASELINES_COMPARED),
    (
        "--load-baseline",
        "is criterion's; cargo nbench keeps baselines itself: `cargo nbench compare NAME OTHER`",
    ),
    (
        "--discard-baseline",
        "is criterion's; cargo nbench saves a baseline only where asked (--save-baseline)",
    ),
    ("--help", HELP),
    ("-h", HELP),
    (
        "--test",
        "would reach the bench binaries, which cargo nbench drives to measure: `cargo test \
         --benches` runs each benchmark once, as a test",
    ),
];

const BASELINES_SAVED: &str =
    "is criterion's; cargo nbench keeps baselines itself: `cargo nbench --save-baseline NAME`";
const BASELINES_COMPARED: &str =
    "is criterion's; cargo nbench keeps baselines itself: `cargo nbench --compare NAME`";
const HELP: &str = "would reach the bench binaries, which cargo nbench drives: `cargo nbench \
                    --help` gives its flags, `cargo bench --bench NAME -- --help` a bench binary's";

/// Takes out of `cli.bench_args` what selects benchmarks, lists them or
/// shows their output, into `cli`'s own settings; an error for a flag of
/// [`REFUSED`] there.
pub fn take(cli: &mut Cli) -> Result<()> {
    let mut rest = Vec::new();
    let mut it = std::mem::take(&mut cli.bench_args).into_iter();
    while let Some(arg) = it.next() {
        if arg == "--" {
            cli.filters.extend(it.by_ref());
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            cli.filters.push(arg);
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        if let Some((_, instead)) = REFUSED.iter().find(|(f, _)| *f == flag) {
            return Err(Error::Usage(format!("`{flag}` after `--` {instead}")));
        }
        let bencher = value_is(&inline, it.as_slice(), "bencher");
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| Error::Usage(format!("`{flag}` after `--` needs a value")))
        };
        match flag {
            "--exact" => cli.exact = true,
            "--skip" => cli.skip.push(value()?),
            "--ignored" => cli.ignored = true,
            "--include-ignored" => cli.include_ignored = true,
            "--list" => cli.list = true,
            "--nocapture" | "--no-capture" => cli.nocapture = true,
            // `cargo bench -- --output-format bencher`, for tools that read
            // libtest's lines: cargo nbench writes them itself.
            "--format" | "--output-format" if bencher => {
                value()?;
                cli.format = FormatArg::Bencher;
            }
            f if nbench::__private::modes::args::takes_value(f)
                || LIBRARY_WITH_VALUE.contains(&f) =>
            {
                let value = value()?;
                match inline {
                    Some(_) => rest.push(arg.clone()),
                    None => rest.extend([arg.clone(), value]),
                }
            }
            _ => rest.push(arg.clone()),
        }
    }
    cli.bench_args = rest;
    Ok(())
}

/// Whether a flag's value, given after `=` (`inline`) or as the next
/// argument (the first of `next`), is `wanted`.
fn value_is(inline: &Option<String>, next: &[String], wanted: &str) -> bool {
    inline.as_deref().or(next.first().map(String::as_str)) == Some(wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taken(line: &[&str]) -> Result<Cli> {
        let mut args = vec!["cargo-nbench", "nbench"];
        args.extend(line);
        let (mut cli, _) = crate::cli::parse_from(args).map_err(Error::Cli)?;
        take(&mut cli)?;
        Ok(cli)
    }

    #[test]
    fn cargo_benchs_selection_after_the_separator_is_cargo_nbenchs_own() {
        let cli = taken(&["own", "--", "sort", "--exact", "--skip", "x", "--list"]).unwrap();
        assert_eq!(cli.filters, ["own", "sort"]);
        assert_eq!(cli.skip, ["x"]);
        assert!(cli.exact && cli.list && !cli.nocapture && !cli.ignored);
        assert!(cli.bench_args.is_empty(), "{:?}", cli.bench_args);
        let cli = taken(&[
            "--",
            "--skip=y",
            "--include-ignored",
            "--nocapture",
            "--",
            "-z",
        ])
        .unwrap();
        assert_eq!(
            (cli.skip, cli.filters),
            (vec!["y".to_owned()], vec!["-z".to_owned()])
        );
        assert!(cli.include_ignored && cli.nocapture);
        for line in [
            &["--", "--output-format", "bencher"][..],
            &["--", "--format=bencher"],
        ] {
            let cli = taken(line).unwrap();
            assert_eq!(cli.format, FormatArg::Bencher);
            assert!(cli.bench_args.is_empty(), "{:?}", cli.bench_args);
        }
        let cli = taken(&["--", "--format", "terse"]).unwrap();
        assert_eq!(
            (cli.format, cli.bench_args),
            (
                FormatArg::Console,
                vec!["--format".to_owned(), "terse".to_owned()]
            )
        );
    }

    #[test]
    fn other_flags_go_on_with_their_values_and_are_not_filters() {
        let line = [
            "--",
            "--warm-up-time",
            "3",
            "--threads=2",
            "--sample-count",
            "10",
            "--noplot",
            "word",
            "--measurement-time",
        ];
        let e = taken(&line).err().unwrap().to_string();
        assert!(
            e.contains("`--measurement-time` after `--` needs a value"),
            "{e}"
        );
        let cli = taken(&line[..line.len() - 1]).unwrap();
        assert_eq!(
            cli.bench_args,
            [
                "--warm-up-time",
                "3",
                "--threads=2",
                "--sample-count",
                "10",
                "--noplot"
            ]
        );
        assert_eq!(cli.filters, ["word"]);
    }

    #[test]
    fn a_baseline_flag_says_which_of_cargo_nbenchs_does_it() {
        let e = taken(&["--", "--save-baseline", "main"]).err().unwrap();
        assert!(matches!(e, Error::Usage(_)));
        assert!(
            e.to_string()
                .contains("`cargo nbench --save-baseline NAME`"),
            "{e}"
        );
        let e = taken(&["--", "-b", "main"]).err().unwrap().to_string();
        assert!(e.contains("`cargo nbench --compare NAME`"), "{e}");
        let e = taken(&["--", "--help"]).err().unwrap().to_string();
        assert!(e.contains("`cargo nbench --help` gives its flags"), "{e}");
        let e = taken(&["--", "--test"]).err().unwrap().to_string();
        assert!(e.contains("`cargo test --benches`"), "{e}");
    }
}
