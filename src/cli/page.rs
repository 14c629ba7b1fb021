//! `docs/command-line.md`, made from the clap definitions, so the guide's
//! reference page lists every flag with its help. The test fails when the
//! page and the definitions differ; `NBENCH_BLESS_DOCS=1` (what
//! `cargo xtask docs` sets) writes the page instead.

use super::Cargo;
use clap::{Arg, ArgAction, Command, CommandFactory};
use std::fmt::Write;
use std::path::PathBuf;

/// The whole page.
fn page() -> String {
    let cargo = Cargo::command();
    let nbench = cargo
        .find_subcommand("nbench")
        .expect("the nbench subcommand");
    let mut out = String::from(
        "# The command line\n\n\
         _Made from `cargo nbench --help` by `cargo xtask docs`; a test fails when the two differ._\n\n\
         ```\ncargo nbench [OPTIONS] [FILTER]... [-- <ARGS>...]\n```\n\n",
    );
    let about = nbench
        .get_about()
        .map(ToString::to_string)
        .unwrap_or_default();
    writeln!(out, "{about}.\n").unwrap();
    options(&mut out, nbench, "##");
    out.push_str("## Commands\n\n");
    for sub in nbench.get_subcommands() {
        command(&mut out, sub, "cargo nbench");
    }
    let after = nbench
        .get_after_help()
        .map(ToString::to_string)
        .unwrap_or_default();
    writeln!(out, "## Exit status and settings\n\n```\n{after}\n```").unwrap();
    out
}

/// A subcommand's heading, usage and options, then its own subcommands.
fn command(out: &mut String, cmd: &Command, parent: &str) {
    let name = format!("{parent} {}", cmd.get_name());
    let about = cmd.get_about().map(ToString::to_string).unwrap_or_default();
    writeln!(out, "### `{name}`\n\n{about}.\n").unwrap();
    options(out, cmd, "####");
    for sub in cmd.get_subcommands() {
        command(out, sub, &name);
    }
}

/// One table per help heading, in the order clap shows them.
fn options(out: &mut String, cmd: &Command, level: &str) {
    let args: Vec<&Arg> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !matches!(a.get_id().as_str(), "help" | "version"))
        .collect();
    let mut headings: Vec<Option<&str>> = Vec::new();
    for a in &args {
        if !headings.contains(&a.get_help_heading()) {
            headings.push(a.get_help_heading());
        }
    }
    for heading in headings {
        if let Some(h) = heading {
            writeln!(out, "{level} {h}\n").unwrap();
        }
        out.push_str("| flag | what |\n|---|---|\n");
        for a in args.iter().filter(|a| a.get_help_heading() == heading) {
            writeln!(out, "| `{}` | {} |", spelling(a), what(a)).unwrap();
        }
        out.push('\n');
    }
}

/// `-p, --package <SPEC>`, `--interleave[=<SLICES>]`, `[FILTER]...`.
fn spelling(a: &Arg) -> String {
    let value = a
        .get_value_names()
        .map(|v| {
            v.iter()
                .map(|n| format!("<{n}>"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    let takes = !matches!(
        a.get_action(),
        ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count
    );
    let Some(long) = a.get_long() else {
        let name = a
            .get_value_names()
            .and_then(|v| v.first())
            .map(ToString::to_string)
            .unwrap_or_else(|| a.get_id().to_string());
        let many = matches!(a.get_action(), ArgAction::Append);
        let dots = if many { "..." } else { "" };
        return match a.is_required_set() {
            true => format!("<{name}>{dots}"),
            false => format!("[{name}]{dots}"),
        };
    };
    let mut s = match a.get_short() {
        Some(c) => format!("-{c}, --{long}"),
        None => format!("--{long}"),
    };
    if takes && !value.is_empty() {
        let optional = a.get_num_args().is_some_and(|n| n.min_values() == 0);
        if optional {
            write!(s, "[={value}]").unwrap();
        } else {
            write!(s, " {value}").unwrap();
        }
    }
    s
}

/// The long help on one line, with the possible values and the default.
fn what(a: &Arg) -> String {
    let help = a
        .get_long_help()
        .or(a.get_help())
        .map(ToString::to_string)
        .unwrap_or_default();
    let mut text = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let values: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    if !values.is_empty() && !matches!(a.get_action(), ArgAction::SetTrue) {
        write!(text, " (one of {})", values.join(", ")).unwrap();
    }
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|d| d.to_string_lossy().into_owned())
        .collect();
    if !defaults.is_empty() && !text.contains("[default:") {
        write!(text, " [default: {}]", defaults.join(", ")).unwrap();
    }
    text.replace('|', "\\|")
}

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/command-line.md")
}

#[test]
fn the_command_line_page_is_made_from_the_definitions() {
    let want = page();
    if std::env::var_os("NBENCH_BLESS_DOCS").is_some() {
        std::fs::write(path(), &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(path()).unwrap_or_default();
    assert!(
        have == want,
        "docs/command-line.md differs from the clap definitions: run `cargo xtask docs`"
    );
}
