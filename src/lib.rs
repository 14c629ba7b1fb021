//! `cargo nbench`: find bench targets, build them, drive them over the channel, store and report.
//!
//! Imports point one way: [`commands`] → [`config`] (the only reader of
//! [`cli`]) → the stages ([`discover`], [`build`], [`run`], [`compare`],
//! [`store`], [`report`]) → [`model`], the data they share.

#[macro_use]
mod say;

pub(crate) mod build;
pub(crate) mod cli;
pub(crate) mod commands;
pub(crate) mod compare;
pub(crate) mod config;
pub(crate) mod discover;
pub(crate) mod error;
pub(crate) mod model;
pub(crate) mod pipeline;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod store;

use console::style;
use error::Error;
use std::process::ExitCode;

/// Parses the command line, runs the command, and turns the outcome into an
/// exit code; or, run by cargo as rustc's wrapper in cargo nbench's own
/// builds, runs rustc ([`build::wrap`]).
pub fn main() -> ExitCode {
    if let Some(code) = build::wrap::as_wrapper() {
        return code;
    }
    let args = std::env::args_os().collect();
    let done = config::resolve(args).and_then(|settings| commands::dispatch(&settings));
    run::listings::remove();
    match done {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            report_error(&e);
            ExitCode::from(e.exit_code())
        }
    }
}

/// `error: …` and its `hint: …` on stderr (clap words its own, usage included).
fn report_error(e: &Error) {
    if let Error::Cli(clap) = e {
        let _ = clap.print();
        return;
    }
    errln!("{}: {e}", style("error").red().bold());
    if let Some(hint) = e.hint() {
        errln!("  {}: {hint}", style("hint").cyan().bold());
    }
}
