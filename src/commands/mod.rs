//! The commands, one file each; [`dispatch`] picks the one the settings name.

mod baseline;
mod compare;
#[cfg(test)]
mod guide;
mod merge;
mod report;
mod run;

use crate::config::{Command, Settings};
use crate::error::{Result, exit};

/// Runs the command `settings` name; returns the exit code.
pub fn dispatch(settings: &Settings) -> Result<u8> {
    match &settings.command {
        // A working tree that cannot run as it stands is built as a revision.
        Command::Run => match crate::pipeline::working_tree::as_revision(settings)? {
            (_, Some(tree)) if settings.compare.rev.is_some() => {
                compare::working_tree(settings, &tree)
            }
            (found, tree) => run::run(settings, found, tree.as_ref()),
        },
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
            out!("{}", settings.show());
            Ok(exit::SUCCESS)
        }
    }
}
