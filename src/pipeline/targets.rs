//! The bench targets a command works on: discovered, built (with their
//! link layouts), each given its plan, and the context a run is stored with.

use super::{note, warn};
use crate::build::libtest;
use crate::config::{Settings, settings_record};
use crate::discover;
use crate::error::{Error, Result};
use crate::model::context::Context;
use crate::model::few::by_reason;
use crate::model::record::SkippedRecord;
use crate::model::target::{BenchTarget, Built, Skipped};
use crate::run::Plan;
use crate::run::counter::CountError;
use console::style;
use std::collections::BTreeSet;
use std::sync::Mutex;

/// The bench targets to build of those `found`, and those left out (said
/// in notes where none is left to build).
pub fn selected(found: discover::Discovery) -> Result<(discover::Discovery, Vec<SkippedRecord>)> {
    let skipped = records(found.skipped.iter());
    if found.targets.is_empty() {
        note_skipped(&skipped);
        let skipped = skipped.len();
        return Err(Error::NoTargets { skipped });
    }
    Ok((found, skipped))
}

/// The bench targets of those `found` where the working tree is built as
/// a revision is, with nbench's front ends in their libraries' places
/// ([`super::working_tree`]), and those left out for another reason.
pub fn swapped(found: discover::Discovery) -> (discover::Discovery, Vec<SkippedRecord>) {
    let skipped = records(found.skipped.iter().filter(|k| k.library.is_none()));
    (found, skipped)
}

/// The records of targets left out.
fn records<'a>(skipped: impl Iterator<Item = &'a Skipped>) -> Vec<SkippedRecord> {
    skipped
        .map(|s| SkippedRecord {
            target: s.label.clone(),
            reason: s.reason.clone(),
        })
        .collect()
}

/// The bench targets these settings select, and those left out, with
/// nothing said of either.
pub fn discover_quietly(s: &Settings) -> Result<discover::Discovery> {
    discover::discover(&s.selection, features(s), &s.manifest, &s.meta)
}

/// The feature flags as discovery reads them.
fn features(s: &Settings) -> discover::Features<'_> {
    discover::Features {
        list: &s.build.features,
        all: s.build.all_features,
        no_default: s.build.no_default_features,
    }
}

/// Notes the targets left out, one note for those left out for the same
/// reason (a package's many bench files that all use criterion), each
/// note once a process: a comparison of revisions discovers the same
/// targets in every checkout it builds.
fn note_skipped(skipped: &[SkippedRecord]) {
    for line in skipped_lines(skipped) {
        if first_time(&line) {
            note(&line);
        }
    }
}

/// The notes of [`note_skipped`], in the order their reasons first come.
fn skipped_lines(skipped: &[SkippedRecord]) -> Vec<String> {
    let reasons = by_reason(
        skipped
            .iter()
            .map(|s| (s.reason.as_str(), s.target.as_str())),
    );
    (reasons.into_iter())
        .map(|(reason, targets)| match targets.as_slice() {
            [one] => format!("skipped bench target `{one}`: {reason}"),
            many => format!(
                "skipped bench targets `{}` (each for this reason): {reason}",
                many.join("`, `")
            ),
        })
        .collect()
}

/// Whether this process has not said `line` before.
fn first_time(line: &str) -> bool {
    static SAID: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    said.insert(line.to_owned())
}

/// Builds the targets; those whose executable does not link nbench join
/// `skipped`. Then the filters are checked and the link layouts built.
pub fn build(
    s: &Settings,
    found: &discover::Discovery,
    skipped: &mut Vec<SkippedRecord>,
) -> Result<Vec<Built>> {
    let mut opts = s.build.clone();
    let targets = with_libtest(&mut opts, found, skipped)?;
    if targets.is_empty() {
        note_skipped(skipped);
        let skipped = skipped.len();
        return Err(Error::NoTargets { skipped });
    }
    let built = crate::build::build_benches(&opts, &targets, &found.packages);
    let (mut nbench_targets, others) = match built {
        Err(Error::Build(why)) if opts.revision.is_none() => return Err(failed(found, why)),
        built => built?,
    };
    skipped.extend(others);
    note_skipped(skipped);
    if nbench_targets.is_empty() {
        let skipped = skipped.len();
        return Err(Error::NoTargets { skipped });
    }
    if !s.list {
        super::measure::check_filters(s.plan(), &nbench_targets)?;
    }
    let k = s.build.layouts;
    if k > 1 && !s.output.quiet() {
        let what = format!(
            "building {k} link layouts of {} bench target{}",
            nbench_targets.len(),
            if nbench_targets.len() == 1 { "" } else { "s" }
        );
        match &s.build.revision {
            Some(mark) => errln!("{}", style(format!("[{mark}] {what}")).dim()),
            None => errln!("{}", style(what).dim()),
        }
    }
    if let Some(why) = crate::build::build_layouts(&opts, &mut nbench_targets)? {
        warn(&format!(
            "the link layouts could not be built ({why}): comparing in one link layout"
        ));
    }
    Ok(nbench_targets)
}

/// The targets to build. Where some are suites of libtest's `#[bench]`
/// functions, nbench-libtest is built for them and `opts` give it to the
/// compiler; where it cannot be (a stable toolchain, a failed build), they
/// join `skipped`, with why.
fn with_libtest(
    opts: &mut crate::build::BuildOptions,
    found: &discover::Discovery,
    skipped: &mut Vec<SkippedRecord>,
) -> Result<Vec<BenchTarget>> {
    let (libtest, targets): (Vec<BenchTarget>, Vec<BenchTarget>) = (found.targets.iter())
        .cloned()
        .partition(|t| t.front_ends.iter().any(|f| f == discover::LIBTEST_PACKAGE));
    if libtest.is_empty() {
        return Ok(targets);
    }
    let why = match libtest::takes_features() {
        false => libtest::NEEDS_NIGHTLY.to_owned(),
        true => match opts.build_libtest(&found.workspace_root)? {
            Ok(shim) => {
                opts.libtest = Some(shim);
                return Ok(found.targets.clone());
            }
            Err(said) => format!(
                "it uses libtest's `#[bench]`, and nbench-libtest, which takes libtest's place, \
                 did not build: {said}"
            ),
        },
    };
    skipped.extend(libtest.iter().map(|t| SkippedRecord {
        target: t.label(),
        reason: why.clone(),
    }));
    Ok(targets)
}

/// The working tree's failed build, with a hint where its manifests take a
/// front end by hand and turn off a feature the library it replaced turned
/// on for the whole build (`build::unified::left_off`).
fn failed(found: &discover::Discovery, why: String) -> Error {
    let root = &found.workspace_root;
    let mut manifests = vec![root.join("Cargo.toml")];
    for t in &found.targets {
        let m = t.package_root.join("Cargo.toml");
        if !manifests.contains(&m) {
            manifests.push(m);
        }
    }
    let left = crate::build::unified::left_off(&manifests);
    if left.is_empty() {
        return Error::Build(why);
    }
    let hint = crate::build::unified::left_off_hint(&left, root);
    Error::BuildLeftOff { why, hint }
}

/// With `--metrics time,instructions`: something here counts them (the
/// CPU's counter, or Valgrind); said before anything is built.
pub fn check_counting(s: &Settings) -> Result<()> {
    if !s.counts_instructions() || s.list {
        return Ok(());
    }
    match crate::run::counter::source() {
        Ok(_) => Ok(()),
        Err(e) => {
            let hint = e.hint();
            Err(match e {
                CountError::Chosen { why, .. } => Error::CounterChosen { why, hint },
                CountError::NoValgrind(why) | CountError::Failed(why) => {
                    Error::NoValgrind { why, hint }
                }
            })
        }
    }
}

/// Each target's plan: `[bench.NAME]` tables of the settings file give a
/// target settings of its own.
pub fn plans(s: &Settings, targets: &[Built]) -> Vec<Plan> {
    targets.iter().map(|b| s.plan_for(&b.target)).collect()
}

/// What is stored with the run of `s`: gathered before the driver is
/// pinned to one CPU, which would make the cores available look like one,
/// and when the run starts.
pub fn gather_context(s: &Settings, found: &discover::Discovery) -> Context {
    let mut context = Context::gather(
        &found.workspace_root,
        &s.build.profile,
        settings_record(s.plan()),
        &s.output.context,
    );
    let mut build = s.build.record(&std::env::current_dir().unwrap_or_default());
    build.front_ends = found.front_ends.clone();
    context.build = Some(build);
    context
}

#[cfg(test)]
mod tests {
    use super::{SkippedRecord, first_time, skipped_lines};

    #[test]
    fn targets_left_out_for_one_reason_share_a_note() {
        let skipped = |target: &str, reason: &str| SkippedRecord {
            target: target.to_owned(),
            reason: reason.to_owned(),
        };
        let lines = skipped_lines(&[
            skipped("rkyv/log", "it uses divan"),
            skipped("rkyv/bench", "uses libtest's bench harness"),
            skipped("rkyv/mesh", "it uses divan"),
        ]);
        assert_eq!(
            lines,
            [
                "skipped bench targets `rkyv/log`, `rkyv/mesh` (each for this reason): it uses divan",
                "skipped bench target `rkyv/bench`: uses libtest's bench harness",
            ]
        );
    }

    #[test]
    fn a_note_is_said_once_a_process() {
        let line = "skipped bench target `p/once`: a test's own reason";
        assert!(first_time(line));
        assert!(!first_time(line));
        assert!(first_time("skipped bench target `p/once`: another reason"));
    }
}
