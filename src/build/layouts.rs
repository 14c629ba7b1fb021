//! Link layouts: the same code with its functions in another order per
//! seed. The first of each bench target is the build's own executable,
//! linked so by cargo nbench as rustc's wrapper ([`super::wrap`]), else
//! built by `cargo rustc` on the target alone (no dependency is rebuilt);
//! the others are linked again from its link command ([`super::relink`]),
//! or built by cargo the same way where that cannot be done.

use super::artifacts::built_target;
use super::relink::{self, LinkLine, PRINT_LINK};
use super::wrap;
use super::{BuildOptions, align_sections_args, common_args};
use crate::error::{Error, Result};
use crate::model::target::{Built, Kind};
use cargo_metadata::Message;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// The linker options that order functions and constant data by `seed`:
/// rust-lld's (and GNU-compatible lld's) `--shuffle-sections`, through the
/// C compiler driver. Constant data too because what code counts can follow
/// where its data lies: minijinja's `render` copies text out of its
/// template, kept among the constants, and counted 533 585 instructions an
/// iteration in every function order of one build and 530 631 … 530 686
/// with the constants in three other orders, so two builds of code it does
/// not run read ±0.55 % apart by instructions, one way or the other as
/// the harness grew. (For time alone, data in another order per layout,
/// `.rodata*`, `.data*` and `.bss*`, left toml's real commit about as often
/// called the other way from run to run: 30 of 39 rows alike over two runs,
/// against 28 with code alone.)
pub fn shuffle(seed: impl std::fmt::Display) -> String {
    format!("-Wl,--shuffle-sections=.text*={seed},--shuffle-sections=.rodata*={seed}")
}

/// Whether `opts` build link layouts.
pub(super) fn wanted(opts: &BuildOptions) -> bool {
    opts.layouts > 1 || opts.layout_seed.is_some()
}

/// The seed of the first layout's order.
pub(super) fn first_seed(opts: &BuildOptions) -> u64 {
    opts.layout_seed.unwrap_or(0).wrapping_add(1)
}

/// rustc's options that link a layout: its `seed`'s order, and the
/// alignment `script` where there is one.
pub(super) fn layout_link(seed: u64, script: Option<&Path>) -> Vec<String> {
    let mut link = vec![format!("-Clink-arg={}", shuffle(seed))];
    link.extend(script.into_iter().flat_map(align_sections_args));
    link
}

/// Builds `opts.layouts` link layouts of each target. Fills each target's
/// `layouts`; `Ok(Some(why))` when the linker cannot shuffle (another
/// linker or platform), with every target left at one layout. The first is
/// the build's own executable where the build linked it so ([`wrap`]).
pub fn build_layouts(opts: &BuildOptions, built: &mut [Built]) -> Result<Option<String>> {
    if !wanted(opts) {
        return Ok(None);
    }
    let first_seed = first_seed(opts);
    let script = opts.align_sections_script()?;
    // The build's compiles failed with the first layout's options (and
    // passed without): a linker that cannot shuffle. `cargo rustc` would
    // compile each target again to fail the same way.
    if let Some(why) = opts.stable_dir.as_deref().and_then(wrap::take_failed) {
        return Ok(Some(why));
    }
    for b in built.iter_mut() {
        let mut layouts = Vec::new();
        let mut first = wrap::made_first(&b.exe, &shuffle(first_seed));
        if first.is_some() {
            layouts.push(b.exe.clone());
        }
        for i in layouts.len() as u64..opts.layouts.max(1) as u64 {
            let seed = first_seed.wrapping_add(i);
            if let Some(exe) = first.as_ref().and_then(|l| relinked(l, first_seed, seed)) {
                layouts.push(exe);
                continue;
            }
            let link = layout_link(seed, script.as_deref());
            // Only the first layout's rustc keeps its temporary folders.
            let deps = b.exe.parent().unwrap_or(Path::new("."));
            let before = (i == 0).then(|| relink::temporary_folders(deps));
            let made = build_layout(opts, b, &link, i == 0)?;
            if let Some(before) = &before {
                let line = made.as_ref().ok().and_then(|(_, l)| l.as_ref());
                relink::remove_left(deps, before, line);
            }
            match made {
                Ok((exe, line)) => {
                    first = first.or(line);
                    layouts.push(exe);
                }
                Err(why) if layouts.is_empty() => {
                    built.iter_mut().for_each(|b| b.layouts.clear());
                    return Ok(Some(why));
                }
                Err(why) => return Err(Error::Build(format!(" (layout {}): {why}", i + 1))),
            }
        }
        b.layouts = layouts;
    }
    Ok(None)
}

/// Layout `seed` linked from the first layout's command `first` (seed
/// `first_seed`), or as linked before since that command was kept: its
/// executable; `None` where the link fails.
fn relinked(first: &LinkLine, first_seed: u64, seed: u64) -> Option<PathBuf> {
    let exe = first.output()?;
    let out = PathBuf::from(format!("{}.layout-{seed}", exe.display()));
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let since = modified(&relink::line_file(exe))?;
    if modified(&out).is_some_and(|m| m >= since) {
        return Some(out);
    }
    let line = first.with(&shuffle(first_seed), &shuffle(seed), &out)?;
    line.run().ok()?;
    Some(out)
}

/// `args` for a build of the package at `dir` alone: its own manifest,
/// and no `--features` but those it was built with (`Built::features`,
/// which hold the user's where they reached it). Without resolver 2, cargo
/// takes `--features` for the package of the manifest it is given, whatever
/// `--package` says: snap's suite, a member beside a 2018 root package, had
/// its dependencies' features refused as the root's.
fn for_package(args: Vec<String>, dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        if a == "--features" || a == "--manifest-path" {
            args.next();
        } else {
            out.push(a);
        }
    }
    let manifest = dir.join("Cargo.toml").display().to_string();
    out.extend(["--manifest-path".to_owned(), manifest]);
    out
}

/// One layout of `target`, linked with `link` (the order's seed, the
/// alignment): its executable and, for the `first` layout, its link
/// command, kept (printed now, or kept when it was last linked); or what
/// cargo said when it failed.
fn build_layout(
    opts: &BuildOptions,
    built: &Built,
    link: &[String],
    first: bool,
) -> Result<std::result::Result<(PathBuf, Option<LinkLine>), String>> {
    let target = &built.target;
    let (mut cmd, cargo) = opts.cargo();
    let mut args: Vec<String> = ["rustc", "--message-format", "json-render-diagnostics"]
        .map(str::to_owned)
        .to_vec();
    args.extend(["--package".into(), target.spec.clone()]);
    match target.kind {
        Kind::Bench => args.extend(["--bench".into(), target.name.clone()]),
        Kind::Lib => args.push("--lib".into()),
        Kind::Bin => args.extend(["--bin".into(), target.name.clone()]),
    }
    // Built for its package alone: with the features it was built with
    // among every package selected.
    if !built.features.is_empty() {
        args.extend(["--features".into(), built.features.join(",")]);
    }
    args.extend(for_package(common_args(opts), &target.package_root));
    if !opts.quiet {
        args.push("--quiet".to_owned());
    }
    args.push("--".into());
    args.extend(link.iter().cloned());
    if first {
        args.extend(PRINT_LINK.map(str::to_owned));
    }
    let out = cmd
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| Error::Spawn {
            program: cargo.clone(),
            source,
        })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let why = stderr
            .lines()
            .find(|l| l.contains("error") || l.contains("unknown"))
            .unwrap_or("cargo rustc failed")
            .trim()
            .to_owned();
        return Ok(Err(why));
    }
    let targets = std::slice::from_ref(target);
    let exe = Message::parse_stream(out.stdout.as_slice())
        .flatten()
        .find_map(|m| match m {
            Message::CompilerArtifact(a) => built_target(&a, targets).map(|b| b.exe),
            _ => None,
        });
    let Some(exe) = exe else {
        return Ok(Err("cargo reported no executable".to_owned()));
    };
    let line = first.then(
        || match LinkLine::find(&String::from_utf8_lossy(&out.stdout), &exe) {
            Some(printed) => relink::keep(&exe, &printed).then_some(printed),
            None => relink::kept_for(&exe),
        },
    );
    Ok(Ok((exe, line.flatten())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_is_built_from_its_own_package_with_the_features_it_was_built_with() {
        let common: Vec<String> = [
            "--features",
            "fast",
            "--all-features",
            "--manifest-path",
            "/ws/Cargo.toml",
            "--profile",
            "bench",
        ]
        .map(str::to_owned)
        .to_vec();
        let args = for_package(common, Path::new("/ws/bench"));
        let want = [
            "--all-features",
            "--profile",
            "bench",
            "--manifest-path",
            "/ws/bench/Cargo.toml",
        ];
        assert_eq!(args, want);
    }
}
