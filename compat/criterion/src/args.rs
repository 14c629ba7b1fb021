//! criterion's command line, turned into nbench's.
//!
//! Every flag of criterion 0.8 is taken: honoured as nbench's equivalent,
//! or accepted with one line on stderr saying it is ignored or that
//! `cargo nbench` does it. The filter is a regular expression, as in
//! criterion.

use crate::notice;
use crate::regex::Regex;
use nbench::__private::modes::args::takes_value;

/// What the bench binary does with its command line.
#[derive(Debug)]
pub(crate) enum Translated {
    /// Run nbench with these arguments.
    Run(Vec<String>),
    /// Exit with this code (after `--version`).
    Exit(u8),
}

/// criterion's flags that take a value nbench has no use for, and why.
const IGNORED_WITH_VALUE: &[(&str, &str)] = &[
    ("--save-baseline", BASELINES),
    ("--baseline", BASELINES),
    ("--baseline-lenient", BASELINES),
    ("--load-baseline", BASELINES),
    (
        "--profile-time",
        "nbench has no profiling mode; run a profiler on `--bench <filter>`",
    ),
    (
        "--sample-size",
        "nbench samples until its precision target or time limit (--min-samples, --max-time)",
    ),
    ("--nresamples", "nbench chooses its own statistics"),
    (
        "--noise-threshold",
        "set it with `cargo nbench --threshold` or nbench.toml",
    ),
    ("--confidence-level", "nbench's intervals are 95 %"),
    (
        "--significance-level",
        "cargo nbench decides significance over the whole run",
    ),
    ("--plotting-backend", "nbench draws no plots"),
];

/// criterion's flags without a value that nbench has no use for, and why.
const IGNORED_FLAGS: &[(&str, &str)] = &[
    ("--noplot", "nbench draws no plots"),
    ("--discard-baseline", BASELINES),
    (
        "--quick",
        "nbench stops at its precision target already (--precision, --max-time)",
    ),
    ("--verbose", "nbench's table has no verbose form"),
];

const BASELINES: &str =
    "baselines are kept by cargo nbench (`cargo nbench --save-baseline NAME`, `--compare NAME`)";

/// criterion's short flags, as their long names.
fn long(flag: &str) -> &str {
    match flag {
        "-c" => "--color",
        "-n" => "--noplot",
        "-s" => "--save-baseline",
        "-b" => "--baseline",
        "-v" => "--verbose",
        "-V" => "--version",
        f => f,
    }
}

/// Turns criterion's command line `args` (without the program name) into
/// nbench's; `ids` are the target's benchmarks, for the filter's regular
/// expressions. `Err` is a usage error.
pub(crate) fn translate(
    args: impl IntoIterator<Item = String>,
    ids: &[String],
) -> Result<Translated, String> {
    let mut out = Vec::new();
    let (mut filters, mut exact, mut test) = (Vec::new(), false, false);
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        if arg == "--" {
            filters.extend(it.by_ref());
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            filters.push(arg);
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let flag = long(&flag);
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("'{flag}' needs a value"))
        };
        match flag {
            "--version" => {
                println!("nbench-criterion {}", env!("CARGO_PKG_VERSION"));
                return Ok(Translated::Exit(0));
            }
            "--exact" => exact = true,
            "--test" => test = true,
            "--warm-up-time" => out.extend(["--warm-up".to_owned(), value()?]),
            "--measurement-time" => out.extend(["--max-time".to_owned(), value()?]),
            // nbench's flags (and libtest's) with a value: passed on with it.
            f if takes_value(f) => out.extend([f.to_owned(), value()?]),
            f => {
                if let Some((_, why)) = IGNORED_WITH_VALUE.iter().find(|(n, _)| *n == f) {
                    value()?;
                    notice::once(leak(format!("{f} is ignored: {why}")));
                } else if let Some((_, why)) = IGNORED_FLAGS.iter().find(|(n, _)| *n == f) {
                    notice::once(leak(format!("{f} is ignored: {why}")));
                } else {
                    // nbench's own flags, and its usage error for unknown ones.
                    out.push(arg);
                }
            }
        }
    }
    if test {
        // criterion's `--bench --test` runs each benchmark once, as a test.
        out.retain(|a| a != "--bench");
    }
    out.extend(selection(filters, exact, ids)?);
    Ok(Translated::Run(out))
}

/// nbench's filter arguments for criterion's filters: whole ids with
/// `--exact`, substrings when no filter uses a regular expression's
/// syntax, else the ids that the expressions match, as whole ids.
fn selection(filters: Vec<String>, exact: bool, ids: &[String]) -> Result<Vec<String>, String> {
    let plain = |f: &String| !f.chars().any(|c| "\\.+*?()|[]{}^$".contains(c));
    if exact || filters.iter().all(plain) {
        let mut out: Vec<String> = exact.then(|| "--exact".to_owned()).into_iter().collect();
        if !filters.is_empty() {
            out.push("--".to_owned());
            out.extend(filters);
        }
        return Ok(out);
    }
    let patterns = filters
        .iter()
        .map(|f| Regex::new(f).map_err(|e| format!("invalid filter '{f}': {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = vec!["--exact".to_owned(), "--".to_owned()];
    let matched = ids
        .iter()
        .filter(|id| patterns.iter().any(|p| p.is_match(id)));
    out.extend(matched.cloned());
    if out.len() == 2 {
        // Nothing matches: a whole id no benchmark has, so nothing runs.
        out.extend(filters);
    }
    Ok(out)
}

/// A note built at run time, kept for the rest of the process (each is said once).
fn leak(note: String) -> &'static str {
    Box::leak(note.into_boxed_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Vec<String> {
        let ids = ["fmt/u64/1", "fmt/u64/100", "parse/i8", "parse/u8"].map(String::from);
        match translate(args.iter().map(|a| a.to_string()), &ids) {
            Ok(Translated::Run(out)) => out,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn criterion_flags_become_nbench_flags_or_are_dropped() {
        assert_eq!(
            run(&[
                "--bench",
                "--noplot",
                "-s",
                "main",
                "--sample-size=10",
                "--measurement-time",
                "2"
            ]),
            ["--bench", "--max-time", "2"]
        );
        assert_eq!(run(&["--bench", "--test"]), Vec::<String>::new());
        assert_eq!(
            run(&["-c", "never", "--warm-up-time=1"]),
            ["--color", "never", "--warm-up", "1"]
        );
        assert_eq!(
            run(&["--list", "--format", "terse"]),
            ["--list", "--format", "terse"]
        );
        let counting = [
            "--nbench-count",
            "--nbench-count-iters",
            "4,1",
            "--nbench-count-apart",
            "0,1",
            "--exact",
            "--",
            "a",
        ];
        assert_eq!(run(&counting), counting);
    }

    #[test]
    fn filters_are_regular_expressions_as_in_criterion() {
        assert_eq!(run(&["--bench", "u64"]), ["--bench", "--", "u64"]);
        assert_eq!(
            run(&["--bench", "^parse/.8$"]),
            ["--bench", "--exact", "--", "parse/i8", "parse/u8"]
        );
        assert_eq!(run(&["u64/1$"]), ["--exact", "--", "fmt/u64/1"]);
        assert_eq!(run(&["--exact", "parse/i8"]), ["--exact", "--", "parse/i8"]);
        assert_eq!(run(&["^nothing"]), ["--exact", "--", "^nothing"]);
        let bad = translate(["(".to_owned()], &[]).unwrap_err();
        assert!(bad.contains("invalid filter '('"), "{bad}");
    }
}
