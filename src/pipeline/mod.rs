//! What every command that measures shares: discover → build → measure →
//! store → compare → report, as functions the commands call. Commands never
//! call each other; they call these.

mod build_failed;
pub mod history;
pub mod measure;
pub mod publish;
pub mod revision;
pub mod targets;

use console::style;

/// A `note:` line on stderr.
pub fn note(text: &str) {
    eprintln!("{}: {text}", style("note").cyan().bold());
}

/// A `warning:` line on stderr.
pub fn warn(text: &str) {
    eprintln!("{}: {text}", style("warning").for_stderr().yellow().bold());
}
