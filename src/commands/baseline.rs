//! `cargo nbench baseline list|show|delete`.

use crate::build::worktree::remove_kept;
use crate::config::{BaselineAction, Settings};
use crate::error::{Error, Result, exit};
use crate::report;
use crate::store::Store;
use crate::store::baselines::{Baseline, Baselines};
use console::style;
use std::path::Path;
use std::time::Duration;

/// Runs a baseline subcommand.
pub fn run(s: &Settings, cmd: &BaselineAction) -> Result<u8> {
    let store = Store::new(&s.target_dir());
    let baselines = store.baselines();
    match cmd {
        BaselineAction::List => list(&baselines),
        BaselineAction::Show(name) => show(&baselines, name),
        BaselineAction::Delete(name) => delete(&baselines, &store.root().join("worktrees"), name),
        BaselineAction::Prune { older_than, all } => prune(
            &baselines,
            &store.root().join("worktrees"),
            *older_than,
            *all,
        ),
    }
}

/// `baseline list`: name, date, commit and benchmarks of each.
fn list(baselines: &Baselines) -> Result<u8> {
    let all = baselines.list()?;
    if all.is_empty() {
        errln!("no baselines saved yet; save one with `cargo nbench --save-baseline NAME`");
        return Ok(exit::SUCCESS);
    }
    // The names set the first column's width: `rev-…` names run to 25
    // characters and more.
    let width = (all.iter().flatten())
        .map(|b| b.name.chars().count())
        .fold("name".len(), usize::max);
    outln!(
        "{:<width$}  {:<20}  {:<12}  {:>10}",
        "name",
        "date",
        "commit",
        "benchmarks"
    );
    let mut code = exit::SUCCESS;
    for b in all {
        match b {
            Ok(b) => outln!(
                "{:<width$}  {:<20}  {:<12}  {:>10}",
                b.name,
                b.run.context.date,
                commit(&b),
                b.run
                    .targets
                    .iter()
                    .map(|t| t.held_ids().count())
                    .sum::<usize>()
            ),
            Err(e) => {
                errln!("{}: {e}", style("error").red().bold());
                code = e.exit_code();
            }
        }
    }
    Ok(code)
}

/// `baseline show NAME`: its context, its results as a run's table, and
/// which targets' executables it holds.
fn show(baselines: &Baselines, name: &str) -> Result<u8> {
    let b = baselines.get(name)?;
    let c = &b.run.context;
    outln!("baseline {}", style(&b.name).bold());
    outln!("  date      {}", c.date);
    outln!("  commit    {}", commit(&b));
    outln!("  rustc     {}", c.rustc.as_deref().unwrap_or("?"));
    outln!(
        "  host      {} ({}, {})",
        c.host.as_deref().unwrap_or("?"),
        c.cores_label(),
        c.cpu_model.as_deref().unwrap_or("?")
    );
    outln!("  profile   {}", c.profile);
    outln!();
    out!("{}", report::console::render(&b.run, None, false));
    outln!("executables");
    for t in &b.run.targets {
        let saved = match baselines.executable(&b, &t.target) {
            Some(_) => "executable saved",
            None => "no executable (compared by its stored samples)",
        };
        outln!("  {}: {saved}", t.target);
    }
    Ok(exit::SUCCESS)
}

/// `baseline delete NAME`: its results and executables, and for a
/// revision's baseline the checkout kept with it (under `worktrees`).
fn delete(baselines: &Baselines, worktrees: &Path, name: &str) -> Result<u8> {
    let lock = baselines.lock(name)?;
    if !baselines.delete(name, &lock)? {
        return Err(Error::NoBaseline(name.to_owned()));
    }
    remove_kept(worktrees, name);
    errln!("deleted baseline `{name}`");
    Ok(exit::SUCCESS)
}

/// `baseline prune --older-than DUR [--all]`: each baseline (a
/// revision's, unless `all`) last used longer than `older_than` ago,
/// deleted as `delete` does; one another run holds is kept.
fn prune(baselines: &Baselines, worktrees: &Path, older_than: Duration, all: bool) -> Result<u8> {
    let unused = baselines.unused_for(older_than, all)?;
    let (which, many) = match all {
        true => ("baseline", "baselines"),
        false => ("revision baseline (rev-…)", "revision baselines (rev-…)"),
    };
    if unused.is_empty() {
        errln!("no {which} unused for {}", ago(older_than));
        return Ok(exit::SUCCESS);
    }
    let mut deleted = 0;
    for (name, unused_for) in &unused {
        let lock = match baselines.lock(name) {
            Err(Error::InUse { pid, .. }) => {
                errln!("kept baseline `{name}`: another cargo nbench (pid {pid}) is using it");
                continue;
            }
            other => other?,
        };
        if baselines.delete(name, &lock)? {
            remove_kept(worktrees, name);
            deleted += 1;
            errln!(
                "deleted baseline `{name}` (last used {} ago)",
                ago(*unused_for)
            );
        }
    }
    errln!(
        "pruned {deleted} {}",
        if deleted == 1 { which } else { many }
    );
    Ok(exit::SUCCESS)
}

/// `9 days`, `5 hours`, `40 minutes`: a duration as a person says it.
fn ago(d: Duration) -> String {
    let (secs, plural) = (d.as_secs(), |n: u64, unit: &str| {
        format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
    });
    match secs {
        s if s >= 2 * 86_400 => plural(s / 86_400, "day"),
        s if s >= 2 * 3_600 => plural(s / 3_600, "hour"),
        s if s >= 120 => plural(s / 60, "minute"),
        s => plural(s, "second"),
    }
}

fn commit(b: &Baseline) -> String {
    match (&b.run.context.git_commit, b.run.context.git_dirty) {
        (Some(c), dirty) => format!(
            "{}{}",
            &c[..c.len().min(10)],
            if dirty == Some(true) { "+" } else { "" }
        ),
        (None, _) => "-".to_owned(),
    }
}
