//! The commands, one file each; [`dispatch`] picks the one the settings name.

mod baseline;
mod compare;
mod merge;
mod publish;
mod report;
mod revision;
mod run;

use crate::config::{Command, Settings};
use crate::error::{Result, exit};
use console::style;

/// Runs the command `settings` name; returns the exit code.
pub fn dispatch(settings: &Settings) -> Result<u8> {
    match &settings.command {
        Command::Run => run::run(settings),
        Command::Compare {
            a,
            b,
            revisions,
            filters,
        } => compare::run(settings, a, b, *revisions, filters),
        Command::Baseline(action) => baseline::run(settings, action),
        Command::Merge { files } => merge::run(settings, files),
        Command::Report => report::run(settings),
        Command::Config => {
            print!("{}", settings.show()?);
            Ok(exit::SUCCESS)
        }
    }
}

/// A `note:` line on stderr.
fn note(text: &str) {
    eprintln!("{}: {text}", style("note").cyan().bold());
}

/// A `warning:` line on stderr.
fn warn(text: &str) {
    eprintln!("{}: {text}", style("warning").for_stderr().yellow().bold());
}
