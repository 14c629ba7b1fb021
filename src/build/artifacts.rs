//! cargo's build of the bench targets, and the executables its JSON
//! messages name: each bench target's, and its package's binaries.

use super::wrap::WRAP_ENV;
use super::{BuildOptions, cargo_args, features, marked};
use crate::error::{Error, Result};
use crate::model::record::SkippedRecord;
use crate::model::target::{BenchTarget, Built, Kind};
use cargo_metadata::{Artifact, Message};
use std::io::BufReader;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::Stdio;

/// Builds `targets` and keeps those whose executable links the nbench
/// harness; the others are left out, with why.
/// `packages` are every package selected, which cargo turns features on over.
pub fn build_benches(
    opts: &BuildOptions,
    targets: &[BenchTarget],
    packages: &[String],
) -> Result<(Vec<Built>, Vec<SkippedRecord>)> {
    let (mut nbench, mut others) = (Vec::new(), Vec::new());
    for b in build(opts, targets, packages)? {
        match is_nbench_binary(&b.exe) {
            Ok(true) => nbench.push(b),
            Ok(false) => others.push(SkippedRecord {
                target: b.target.label(),
                reason: b.target.unlinked(),
            }),
            Err(e) => return Err(Error::io("could not read", &b.exe, e)),
        }
    }
    Ok((nbench, others))
}

/// Builds `targets`; cargo's progress and diagnostics go to stderr as cargo
/// shows them. Where link layouts are built, each target's executable is
/// linked as the first ([`super::wrap`]).
fn build(cli: &BuildOptions, targets: &[BenchTarget], packages: &[String]) -> Result<Vec<Built>> {
    let (mut cmd, cargo) = cli.cargo();
    if let Some(wrap) = cli.wrap_for(targets)? {
        if let Some(failed) = &wrap.failed {
            let _ = std::fs::remove_file(failed);
        }
        cmd.env(WRAP_ENV, wrap.encode());
    }
    // A revision's lines are marked with its name. Where stderr is no
    // terminal (a pipe, a log), the working tree's pass through here too:
    // cargo fails a build whose progress it cannot write, and a reader
    // that has gone (`2>&1 | head -1`) must not fail one. On a terminal
    // cargo draws its own progress bar.
    let through = cli.revision.is_some() || !std::io::stderr().is_terminal();
    let stderr = if through {
        Stdio::piped()
    } else {
        Stdio::inherit()
    };
    let mut child = cmd
        .args(cargo_args(cli, targets, packages))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .map_err(|source| Error::Spawn {
            program: cargo.clone(),
            source,
        })?;
    let mark = cli.revision.clone();
    let marked = (child.stderr.take())
        .map(|err| std::thread::spawn(move || marked::show(err, mark.as_deref())));
    let stdout = child.stdout.take().expect("stdout is piped");
    let (mut built, mut libs, mut bins) = (Vec::new(), Vec::new(), Vec::new());
    for message in Message::parse_stream(BufReader::new(stdout)).flatten() {
        if let Message::CompilerArtifact(a) = message {
            bins.extend(built_bin(&a));
            match built_target(&a, targets) {
                Some(b) => built.push(b),
                None => libs.extend(features::of_lib(&a)),
            }
        }
    }
    for b in &mut built {
        b.features
            .extend(features::of_dependencies(&b.target, &libs));
        b.bins = (bins.iter())
            .filter(|(root, _)| *root == b.target.package_root)
            .map(|(_, exe)| exe.clone())
            .collect();
    }
    let status = child.wait().map_err(|source| Error::Spawn {
        program: cargo,
        source,
    })?;
    // The working tree's error stands above in cargo's words, as on a terminal.
    let first_error =
        (marked.and_then(|thread| thread.join().ok().flatten())).filter(|_| cli.revision.is_some());
    if !status.success() {
        return Err(Error::Build(
            first_error.map(|e| format!(": {e}")).unwrap_or_default(),
        ));
    }
    // Keep discovery's order, so reports are stable.
    let mut ordered = Vec::new();
    for t in targets {
        match built.iter().find(|b| b.target == *t) {
            Some(b) => ordered.push(b.clone()),
            None => {
                return Err(Error::Build(format!(
                    ": cargo reported no executable for `{}`",
                    t.label()
                )));
            }
        }
    }
    Ok(ordered)
}

/// A package's binary as cargo built it: (the package's folder, the
/// executable, at the path a benchmark is given as `CARGO_BIN_EXE_<name>`).
fn built_bin(a: &Artifact) -> Option<(PathBuf, PathBuf)> {
    // Not a binary's unit tests (`cargo bench --bin NAME`).
    let exe = (a.executable.as_ref()).filter(|_| a.target.is_bin() && !a.profile.test)?;
    let root = a.manifest_path.parent()?.as_std_path().to_path_buf();
    Some((root, exe.as_std_path().to_path_buf()))
}

/// The target of `targets` whose executable `a` is: a bench target's, or
/// a library's or a binary's unit tests ([`Kind::Lib`], [`Kind::Bin`]).
pub(super) fn built_target(a: &Artifact, targets: &[BenchTarget]) -> Option<Built> {
    let exe = a.executable.as_ref()?;
    let kind = match &a.target {
        t if t.is_bench() => Kind::Bench,
        t if a.profile.test && (t.is_lib() || t.is_rlib()) => Kind::Lib,
        t if a.profile.test && t.is_bin() => Kind::Bin,
        _ => return None,
    };
    let root = a.manifest_path.parent()?.as_std_path();
    let target = targets.iter().find(|t| {
        t.kind == kind && t.package_root == root && (kind == Kind::Lib || t.name == a.target.name)
    })?;
    Some(Built {
        target: target.clone(),
        exe: exe.as_std_path().to_path_buf(),
        features: a.features.clone(),
        layouts: Vec::new(),
        bins: Vec::new(),
    })
}

/// Whether `exe` links the nbench harness (without running it).
pub fn is_nbench_binary(exe: &std::path::Path) -> std::io::Result<bool> {
    let bytes = std::fs::read(exe)?;
    let marker = nbench::__private::protocol::MARKER;
    Ok(bytes.windows(marker.len()).any(|w| w == marker))
}
