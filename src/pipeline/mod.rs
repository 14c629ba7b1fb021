//! What every command that measures shares: discover → build → measure →
//! store → compare → report, as functions the commands call. Commands never
//! call each other; they call these.

mod build_failed;
pub mod history;
pub mod measure;
pub mod publish;
mod rev_baseline;
pub mod revision;
mod revision_said;
pub mod targets;
pub mod working_tree;

use console::style;
use std::path::PathBuf;

/// A `note:` line on stderr.
pub fn note(text: &str) {
    errln!("{}: {text}", style("note").cyan().bold());
}

/// A `warning:` line on stderr.
pub fn warn(text: &str) {
    errln!("{}: {text}", style("warning").for_stderr().yellow().bold());
}

/// A warning for each package binary a saved baseline runs by the path the
/// next build writes ([`crate::store::Kept::uncopied`]).
pub fn warn_uncopied(baseline: &str, bins: &[PathBuf]) {
    for bin in bins {
        let name = bin.file_name().unwrap_or_default().to_string_lossy();
        warn(&format!(
            "baseline `{baseline}` runs the next build's `{name}`, so a comparison reads no change in it: no copy of `{}` fits a path as long that ends as it does (a longer name would)",
            bin.display()
        ));
    }
}
