//! `--compare-rev`: a git revision built in a worktree and compared paired, reused the next
//! time, with the user's checkout left as it was; and the errors for what cannot be compared.

use crate::helpers::{Fixture, QUICK, Run, git};
use serde_json::Value;
use std::path::Path;

/// Everything `git` says about the checkout: branch, HEAD, index and files.
fn checkout_state(dir: &Path) -> String {
    git(
        dir,
        &[
            "status",
            "--porcelain=v2",
            "--branch",
            "--untracked-files=all",
        ],
    )
}

fn nbench(fx: &Fixture, extra: &[&str]) -> Run {
    fx.nbench_paired(extra)
}

/// The fixture as a git repository: a first commit, and a second in which
/// `chain/b` does 30 % more work and `more` does `second` (if given).
fn repository(more: impl FnOnce(&Path)) -> Fixture {
    let fx = Fixture::new("revisions").own_target_dir();
    // Cargo.lock is written by the first build of the working tree, by cargo.
    fx.first_commit("target/\nCargo.lock\n");
    edit(
        &fx.dir.join("src/lib.rs"),
        "B_STEPS: u64 = 2000",
        "B_STEPS: u64 = 2600",
    );
    more(&fx.dir);
    git(&fx.dir, &["add", "."]);
    git(&fx.dir, &["commit", "--quiet", "-m", "b does 30 % more"]);
    fx
}

fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{from} in {}", file.display());
    std::fs::write(file, text.replace(from, to)).unwrap();
}

/// What is left in git's list of worktrees, and under target/nbench/worktrees
/// what is not the kept checkout of a saved baseline (or its lock file).
fn leftover_worktrees(fx: &Fixture) -> Vec<String> {
    let listed = git(&fx.dir, &["worktree", "list"]);
    let mut left: Vec<String> = listed
        .lines()
        .filter(|l| l.contains("worktrees"))
        .map(str::to_owned)
        .collect();
    let baselines = fx.dir.join("target/nbench/baselines");
    if let Ok(dir) = std::fs::read_dir(fx.dir.join("target/nbench/worktrees")) {
        for path in dir.map(|e| e.unwrap().path()) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let name = name.trim_end_matches(".lock");
            if !baselines.join(name).join("results.json").is_file() {
                left.push(path.display().to_string());
            }
        }
    }
    left
}

/// The checkout kept with revision baseline `name`: its bench reads a file
/// from it by the path it was built at.
fn kept_checkout(fx: &Fixture, name: &str) -> std::path::PathBuf {
    let kept = fx.dir.join("target/nbench/worktrees").join(name);
    let file = walk_to(&kept, "a_steps.txt").unwrap_or_else(|| panic!("nothing kept in {kept:?}"));
    assert!(
        !file
            .parent()
            .unwrap()
            .parent()
            .unwrap()
            .join(".git")
            .exists(),
        "a kept checkout is out of git's list"
    );
    kept
}

/// The folders rustc keeps for a link (`rustc…` in a `deps` folder) below
/// `dir` that no link command kept beside them (`*.link`) names.
fn unread_rustc_folders(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut unread = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if !path.is_dir() || path.is_symlink() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "deps") {
            let files: Vec<_> = std::fs::read_dir(&path).unwrap().flatten().collect();
            let lines: String = (files.iter())
                .filter(|f| f.file_name().to_string_lossy().ends_with(".link"))
                .filter_map(|f| std::fs::read_to_string(f.path()).ok())
                .collect();
            unread.extend(
                (files.iter())
                    .filter(|f| f.file_name().to_string_lossy().starts_with("rustc"))
                    .map(|f| f.path())
                    .filter(|p| p.is_dir() && !lines.contains(&p.display().to_string())),
            );
        } else {
            unread.extend(unread_rustc_folders(&path));
        }
    }
    unread
}

fn walk_to(dir: &Path, file: &str) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == file) {
            return Some(path);
        }
        if path.is_dir()
            && !path.is_symlink()
            && let Some(found) = walk_to(&path, file)
        {
            return Some(found);
        }
    }
    None
}

#[test]
fn compare_rev_builds_the_revision_once_and_leaves_the_checkout_alone() {
    let fx = repository(|_| {});
    let before = checkout_state(&fx.dir);

    let summary = fx.dir.join("target/summary.md");
    let run = nbench(
        &fx,
        &[
            "--compare-rev",
            "HEAD~1",
            "--fail-on-regression",
            // Unchanged code in another build reads up to ~1 % apart on a
            // loaded machine; `chain/b`'s 30 % stays far past 5 %.
            "--noise-threshold",
            "5",
            "--summary",
            summary.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 4, "{}", run.all());
    assert!(run.stderr.contains("building `HEAD~1`"), "{}", run.stderr);
    // The repository ignores Cargo.lock: the working tree's, written by
    // its build, holds the revision's dependencies too.
    assert!(
        run.stderr
            .contains("keeps no Cargo.lock: building it with the working tree's"),
        "{}",
        run.stderr
    );
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
    let verdict = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap()["verdict"].clone();
    assert_eq!(verdict("chain/b"), "regressed", "{rows:?}");
    // Unchanged code: no change claimed (inconclusive when the busy machine kept its interval wide).
    assert!(
        ["unchanged", "inconclusive"].contains(&verdict("chain/a").as_str().unwrap()),
        "{rows:?}"
    );
    let name = doc["comparison"]["baseline"].as_str().unwrap().to_owned();
    assert!(name.starts_with("rev-"), "{name}");
    assert!(
        std::fs::read_to_string(&summary)
            .unwrap()
            .contains("chain/b")
    );
    assert_eq!(checkout_state(&fx.dir), before, "the checkout is as it was");
    assert_eq!(leftover_worktrees(&fx), Vec::<String>::new());
    let kept = kept_checkout(&fx, &name);

    // Again: the revision's baseline is reused, nothing is built for it.
    let again = nbench(&fx, &["--compare-rev", "HEAD~1", "chain/a"]);
    assert_eq!(again.code, 0, "{}", again.all());
    assert!(
        !again.stderr.contains("building `HEAD~1`"),
        "{}",
        again.stderr
    );
    assert!(again.stderr.contains("already built"), "{}", again.stderr);
    assert!(
        again.stdout.contains(&format!("vs baseline `{name}`")),
        "{}",
        again.stdout
    );
    assert_eq!(checkout_state(&fx.dir), before);

    // Its checkout gone, the revision is built again, and its checkout kept.
    std::fs::remove_dir_all(&kept).unwrap();
    let rebuilt = nbench(&fx, &["--compare-rev", "HEAD~1", "chain/a"]);
    assert_eq!(rebuilt.code, 0, "{}", rebuilt.all());
    let said = "is built again: its checkout, which its executables may read files from, is gone";
    assert!(rebuilt.stderr.contains(said), "{}", rebuilt.stderr);
    kept_checkout(&fx, &name);
    // Saved by a cargo nbench that did not keep the package binaries its
    // executables run (`bins_kept` absent): built again, not reused.
    let results = fx
        .dir
        .join("target/nbench/baselines")
        .join(&name)
        .join("results.json");
    let text = std::fs::read_to_string(&results).unwrap();
    let older = text.replace("\"bins_kept\": true", "\"bins_kept\": false");
    assert_ne!(older, text, "{text}");
    std::fs::write(&results, older).unwrap();
    let rebuilt = nbench(&fx, &["--compare-rev", "HEAD~1", "chain/a"]);
    assert_eq!(rebuilt.code, 0, "{}", rebuilt.all());
    let said = "is built again: it was saved before baselines kept the package binaries";
    assert!(rebuilt.stderr.contains(said), "{}", rebuilt.stderr);
    // Deleting the baseline deletes the checkout kept with it.
    let deleted = fx.nbench(&["baseline", "delete", &name]);
    assert_eq!(deleted.code, 0, "{}", deleted.all());
    assert!(!kept.exists(), "{kept:?} outlived its baseline");
    assert_eq!(checkout_state(&fx.dir), before);
    #[cfg(unix)]
    saved_in_one_layout_says_how_to_build_it_again(&fx);

    // A revision that is not there: one line, a hint, exit 2.
    let missing = fx.nbench(&["--compare-rev", "no-such-branch"]);
    assert_eq!(missing.code, 2, "{}", missing.all());
    assert!(
        missing
            .stderr
            .contains("git revision `no-such-branch` not found")
            && missing.stderr.contains("hint: check the name"),
        "{}",
        missing.stderr
    );
}

/// A revision built where its link layouts fail (a linker that cannot
/// shuffle sections, as on another platform) is reused as saved, in one
/// layout, and its note says how to build it again.
#[cfg(unix)]
fn saved_in_one_layout_says_how_to_build_it_again(fx: &Fixture) {
    use std::os::unix::fs::PermissionsExt;
    // The C compiler rustc links with, found on `PATH` first: a linker
    // given by name or in cargo's configuration would rebuild every crate.
    // It refuses to shuffle while `NO_SHUFFLE` is set.
    let real = std::process::Command::new("sh")
        .args(["-c", "command -v cc"])
        .output()
        .unwrap();
    let real = String::from_utf8(real.stdout).unwrap().trim().to_owned();
    assert!(!real.is_empty(), "no cc on PATH");
    let bin = fx.dir.join("target/no-shuffle");
    std::fs::create_dir_all(&bin).unwrap();
    let script = format!(
        "#!/bin/sh\n[ -n \"$NO_SHUFFLE\" ] && for a in \"$@\"; do case \"$a\" in \
         *--shuffle-sections*) echo 'unknown option' >&2; exit 1;; esac; done\n\
         exec {real} \"$@\"\n"
    );
    let linker = bin.join("cc");
    std::fs::write(&linker, script).unwrap();
    std::fs::set_permissions(&linker, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let compare = |refuse: bool| {
        let args: Vec<&str> = (crate::helpers::PAIRED.iter().copied())
            .chain(["--compare-rev", "HEAD~1", "--layouts", "2", "chain/a"])
            .collect();
        let mut cmd = fx.nbench_command(&args);
        cmd.env("PATH", &path);
        if refuse {
            cmd.env("NO_SHUFFLE", "1");
        }
        Run::from(cmd.output().unwrap())
    };
    let first = compare(true);
    assert_eq!(first.code, 0, "{}", first.all());
    let failed = "the link layouts could not be built";
    assert!(first.stderr.contains(failed), "{}", first.stderr);
    // The link that failed kept nothing: each of rustc's folders left in
    // a build's `deps` is one a kept link command reads.
    let unread = unread_rustc_folders(&fx.dir.join("target"));
    assert!(unread.is_empty(), "{unread:?}");
    let second = compare(false);
    assert_eq!(second.code, 0, "{}", second.all());
    let said = "already built, in one link layout (its layouts could not be built then; `cargo \
                nbench baseline delete rev-";
    assert!(second.stderr.contains(said), "{}", second.stderr);
}

#[test]
fn a_revision_whose_package_is_in_no_workspace_of_its_checkout_builds_as_its_own() {
    // The first commit's package has no `[workspace]`: in its own checkout
    // it stands alone, while its worktree, under the working tree's
    // `target/`, has the working tree's workspace above it.
    let fx = Fixture::new("revisions").own_target_dir();
    std::fs::write(fx.dir.join(".gitignore"), "target/\nCargo.lock\n").unwrap();
    let manifest = fx.dir.join("Cargo.toml");
    edit(&manifest, "\n[workspace]\n", "\n");
    git(&fx.dir, &["init", "--quiet", "--initial-branch", "main"]);
    git(&fx.dir, &["add", "."]);
    git(&fx.dir, &["commit", "--quiet", "-m", "no workspace table"]);
    edit(
        &manifest,
        "publish = false\n",
        "publish = false\n\n[workspace]\n",
    );
    let run = nbench(
        &fx,
        &["--compare-rev", "HEAD", "chain/a", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.all());
    let said = "`Cargo.toml` is in no workspace of its checkout: building it as a workspace of \
                its own";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    let rows = &run.json()["comparison"]["targets"][0]["rows"];
    assert_eq!(rows.as_array().map(Vec::len), Some(1), "{rows}");
    // The checkout keeps the commit's manifest as it was.
    assert!(!git(&fx.dir, &["show", "HEAD:Cargo.toml"]).contains("[workspace]"));
    assert!(leftover_worktrees(&fx).is_empty());
}

#[test]
fn compare_two_revisions_without_the_working_tree() {
    // The second commit also adds a bench target, which the first lacks.
    let fx = repository(add_extra_target);
    // The working tree makes b ten times slower; the revisions do not see it.
    edit(
        &fx.dir.join("src/lib.rs"),
        "B_STEPS: u64 = 2600",
        "B_STEPS: u64 = 26000",
    );
    let before = checkout_state(&fx.dir);

    // Two comparisons at once: each revision is built once, the other run
    // waits for it and uses it.
    let both: Vec<_> = (0..2)
        .map(|_| {
            fx.nbench_command(&[
                "compare", "--rev", "HEAD~1", "HEAD", "chain/a", "-q", "--format", "json",
            ])
            .args(crate::helpers::PAIRED)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
        })
        .collect();
    let both: Vec<Run> = both
        .into_iter()
        .map(|c| Run::from(c.wait_with_output().unwrap()))
        .collect();
    // The machine's cores, though the driver pinned itself to one CPU
    // before measuring the second revision.
    let cores = std::thread::available_parallelism().unwrap().get();
    let head = crate::helpers::git(&fx.dir, &["rev-parse", "HEAD"]);
    for run in &both {
        let doc = run.json();
        assert_eq!(doc["context"]["cores"], cores, "{}", doc["context"]);
        // The code measured is HEAD's, as committed; not the edited checkout's.
        assert_eq!(
            doc["context"]["git_commit"],
            head.trim(),
            "{}",
            doc["context"]
        );
        assert_eq!(doc["context"]["git_dirty"], false, "{}", doc["context"]);
    }
    let built = |r: &Run| r.stderr.matches("building `").count();
    assert_eq!(
        built(&both[0]) + built(&both[1]),
        0,
        "-q keeps the builds quiet: {}",
        both[0].all()
    );
    let names: Vec<_> = std::fs::read_dir(fx.dir.join("target/nbench/baselines"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("rev-"))
        .collect();
    assert_eq!(names.len(), 2, "one baseline per revision: {names:?}");

    let run = nbench(
        &fx,
        &[
            "compare",
            "--rev",
            "HEAD~1",
            "HEAD",
            "--fail-on-regression",
            "--noise-threshold",
            "5",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 4, "{}", run.all());
    assert_eq!(
        run.stderr.matches("already built").count(),
        2,
        "{}",
        run.stderr
    );
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let targets = doc["comparison"]["targets"].as_array().unwrap();
    let target = |label: &str| {
        targets
            .iter()
            .find(|t| t["target"] == label)
            .unwrap_or_else(|| panic!("{label} in {targets:?}"))
    };
    let rows = target("revisions/revisions")["rows"].as_array().unwrap();
    let row = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap().clone();
    let a = row("chain/a")["verdict"].as_str().unwrap().to_owned();
    assert!(
        ["unchanged", "inconclusive"].contains(&a.as_str()),
        "{rows:?}"
    );
    assert_eq!(row("chain/b")["verdict"], "regressed", "{rows:?}");
    let change = row("chain/b")["change"].as_f64().unwrap();
    assert!(
        change < 1.0,
        "HEAD's 30 %, not the working tree's: {change}"
    );
    // A bench target the first revision lacks is new, and nothing claims
    // to be compared with stored samples for it.
    let extra = target("revisions/extra");
    assert_eq!(extra["new"], serde_json::json!(["extra/one"]), "{extra}");
    assert!(extra["unpaired_because"].is_null(), "{extra}");
    assert_eq!(checkout_state(&fx.dir), before, "the checkout is as it was");
    assert_eq!(leftover_worktrees(&fx), Vec::<String>::new());

    // A bench target selected by name that the revision lacks is new too
    // (the revision's baseline holds all its targets, built or reused).
    let selected = nbench(&fx, &["--bench", "extra", "--compare-rev", "HEAD~1"]);
    assert_eq!(selected.code, 0, "{}", selected.all());
    let line = (selected.stdout.lines()).find(|l| l.starts_with("extra/one  "));
    assert!(
        line.is_some_and(|l| l.ends_with("  new (not in the baseline)")
            && l.split_whitespace()
                .nth(1)
                .is_some_and(|t| t.parse::<f64>().is_ok())),
        "{}",
        selected.stdout
    );
    // A package the revision does not have (the pull request adds it) is
    // a baseline holding nothing: every benchmark is new against it.
    let sub = fx.dir.join("sub");
    std::fs::create_dir_all(sub.join("benches")).unwrap();
    let harness = crate::helpers::repo_root().join("harness");
    std::fs::write(
        sub.join("Cargo.toml"),
        format!(
            "[package]\nname = \"sub\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n\n\
             [dev-dependencies]\nnbench = {{ path = {:?} }}\n\n[[bench]]\nname = \"sub\"\nharness = false\n",
            harness.display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(
        sub.join("benches/sub.rs"),
        "fn benches(r: &mut nbench::Registry) { r.bench(\"nothing\", |b| b.iter(|| 1)); }\nnbench::main!(benches);\n",
    )
    .unwrap();
    let absent = fx.nbench_in("sub", &[&["--compare-rev", "HEAD~1"][..], QUICK].concat());
    assert_eq!(absent.code, 0, "{}", absent.all());
    let said = "has no `sub/Cargo.toml`: every benchmark is new against it";
    assert!(absent.stderr.contains(said), "{}", absent.stderr);
    let line = (absent.stdout.lines()).find(|l| l.starts_with("nothing  "));
    assert!(
        line.is_some_and(|l| l.ends_with("  new (not in the baseline)")),
        "{}",
        absent.stdout
    );
    assert_eq!(leftover_worktrees(&fx), Vec::<String>::new());
}

/// `extra`, a second bench target, written into the fixture at `dir`.
fn add_extra_target(dir: &Path) {
    std::fs::write(
        dir.join("benches/extra.rs"),
        "fn benches(r: &mut nbench::Registry) {\n    \
         r.bench(\"extra/one\", |b| b.iter(|| revisions::chain(nbench::black_box(500), 3)));\n}\n\
         nbench::main!(benches);\n",
    )
    .unwrap();
    let manifest = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        manifest,
        text + "\n[[bench]]\nname = \"extra\"\nharness = false\n",
    )
    .unwrap();
}

#[test]
fn a_revision_is_built_for_the_bench_targets_named_and_again_for_others() {
    let fx = repository(add_extra_target);
    let compare = |benches: &[&str]| {
        let mut args = vec!["--compare-rev", "HEAD", "--layouts", "2"];
        for b in benches {
            args.extend(["--bench", b]);
        }
        let run = nbench(&fx, &args);
        assert_eq!(run.code, 0, "{}", run.all());
        run.stderr
    };
    let built = |stderr: &str, targets: &str| {
        stderr.contains(&format!("[HEAD] building 2 link layouts of {targets}"))
    };
    // One target named: the revision builds that one alone.
    let first = compare(&["extra"]);
    assert!(built(&first, "1 bench target\n"), "{first}");
    // Its baseline is listed, not measured: the comparison measures alone.
    assert!(
        !first.contains("[HEAD] measuring") && first.contains("\nmeasuring [1/"),
        "{first}"
    );
    // Another: built again, saying why.
    let other = compare(&["revisions"]);
    assert!(
        other.contains("is built again: it holds bench target `extra` only"),
        "{other}"
    );
    assert!(built(&other, "1 bench target\n"), "{other}");
    // None named: all of them; then any one is held.
    let all = compare(&[]);
    assert!(
        all.contains("is built again: it holds bench target `revisions` only"),
        "{all}"
    );
    assert!(built(&all, "2 bench targets"), "{all}");
    let held = compare(&["extra"]);
    assert!(held.contains("already built"), "{held}");
    assert!(!held.contains("[HEAD] building"), "{held}");
}

#[test]
fn a_revision_that_fails_to_build_is_named_and_cleaned_up() {
    let fx = repository(|dir| {
        edit(&dir.join("src/lib.rs"), "x ^= x >> 29;", "x ^= x >> 29 +;");
    });
    // The working tree is mended; the committed revision is not.
    edit(
        &fx.dir.join("src/lib.rs"),
        "x ^= x >> 29 +;",
        "x ^= x >> 29;",
    );
    let run = fx.nbench(&["--compare-rev", "HEAD"]);
    assert_eq!(run.code, 3, "{}", run.all());
    let error = run.error_line();
    assert!(
        error.contains("revision `HEAD`")
            && error.contains("failed to build")
            && error.ends_with("(compiling `revisions` (lib))"),
        "{error}"
    );
    // The compiler's own words, marked with the revision.
    assert!(
        run.stderr
            .lines()
            .any(|l| l.starts_with("[HEAD]") && l.contains("expected expression")),
        "{}",
        run.stderr
    );
    assert_eq!(leftover_worktrees(&fx), Vec::<String>::new());
    // Nothing half-made is kept as that revision's baseline.
    let baselines = std::fs::read_dir(fx.dir.join("target/nbench/baselines"))
        .map(|d| d.count())
        .unwrap_or(0);
    let rev_dirs = std::fs::read_dir(fx.dir.join("target/nbench/baselines"))
        .map(|d| d.filter(|e| e.as_ref().unwrap().path().is_dir()).count())
        .unwrap_or(0);
    assert_eq!(rev_dirs, 0, "{baselines} entries");

    // A build script that needs a file a setup step makes, which git does
    // not track: the working tree has it, the revision's checkout does not.
    std::fs::write(
        fx.dir.join("build.rs"),
        "fn main() {\n    if !std::path::Path::new(\"setup.out\").exists() {\n        \
         panic!(\"setup.out is missing: run the setup step\");\n    }\n}\n",
    )
    .unwrap();
    std::fs::write(
        fx.dir.join(".gitignore"),
        "target/\nCargo.lock\nsetup.out\n",
    )
    .unwrap();
    git(&fx.dir, &["add", "."]);
    git(&fx.dir, &["commit", "--quiet", "-m", "a setup step"]);
    std::fs::write(fx.dir.join("setup.out"), "").unwrap();
    let run = fx.nbench(&["--compare-rev", "HEAD"]);
    assert_eq!(run.code, 3, "{}", run.all());
    let error = run.error_line();
    assert!(
        error.contains("revision `HEAD`")
            && error.contains("failed to run custom build command for `revisions v0.1.0`")
            && error
                .ends_with("panicked at build.rs:3:9: setup.out is missing: run the setup step"),
        "{error}"
    );
    assert!(run.stderr.contains("git does not track"), "{}", run.stderr);
}

#[test]
fn a_revision_runs_in_its_own_checkout_and_reads_its_own_files() {
    // The newer commit moves the file the suite reads by a path relative to
    // its package: the older revision's executable finds it only in its own
    // (kept) checkout, as `cargo bench` there would.
    let fx = repository(|dir| {
        let benches = dir.join("benches");
        std::fs::rename(benches.join("links.txt"), benches.join("chain_links.txt")).unwrap();
        edit(
            &benches.join("revisions.rs"),
            "\"benches/links.txt\"",
            "\"benches/chain_links.txt\"",
        );
    });
    let compared = |run: &Run| {
        assert_eq!(run.code, 0, "{}", run.all());
        let doc: Value = serde_json::from_str(&run.stdout).unwrap();
        let target = &doc["comparison"]["targets"][0];
        let rows = target["rows"].as_array().unwrap();
        let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["chain/a", "chain/b"], "{}", target["not_compared"]);
    };
    compared(&nbench(
        &fx,
        &["--compare-rev", "HEAD~1", "--format", "json"],
    ));
    // Two revisions, neither of them the working tree's build.
    let args = ["compare", "--rev", "HEAD~1", "HEAD", "--format", "json"];
    let mut both = fx.nbench_command(&args);
    compared(&Run::from(
        both.args(crate::helpers::PAIRED).output().unwrap(),
    ));
}

#[test]
fn a_benchmark_the_baseline_fails_and_this_build_mends_is_measured_not_failed() {
    // As minijinja's `loop_map_items` panicked at 6cc6fea8 (a bug the next
    // commit fixed): the pull request that mends it is not failed for it.
    let fx = Fixture::new("revisions").own_target_dir();
    let bench = fx.dir.join("benches/revisions.rs");
    let (works, fails) = (
        "b.iter(|| chain(black_box(B_STEPS), links))",
        "b.iter(|| chain(black_box(B_STEPS), links.checked_sub(u64::MAX).unwrap()))",
    );
    edit(&bench, works, fails);
    fx.first_commit("target/\nCargo.lock\n");
    edit(&bench, fails, works);
    let run = nbench(&fx, &["--compare-rev", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.all());
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let target = &doc["comparison"]["targets"][0];
    let ids = |key: &str| -> Vec<String> {
        (target[key].as_array().unwrap().iter())
            .map(|r| r["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids("rows"), ["chain/a"], "{target}");
    assert_eq!(ids("not_compared"), ["chain/b"], "{target}");
    let why = target["not_compared"][0]["reason"].as_str().unwrap();
    assert!(
        why.starts_with("the baseline fails it (") && why.contains("called `Option::unwrap()`"),
        "{why}"
    );
    let measured = &doc["targets"][0]["benchmarks"];
    let b = (measured.as_array().unwrap().iter()).find(|r| r["id"] == "chain/b");
    assert!(
        b.is_some_and(|b| b["median_ns"].as_f64() > Some(0.0)),
        "{measured}"
    );
    // Where this build fails it too, it is this build's failure.
    edit(&bench, works, fails);
    let run = nbench(&fx, &["--compare-rev", "HEAD"]);
    assert_ne!(run.code, 0, "{}", run.all());
    let failed = "failed: revisions/revisions › chain/b: panicked";
    assert!(run.stderr.contains(failed), "{}", run.all());
}

#[test]
fn a_revision_is_built_with_its_submodules_at_the_commits_it_records() {
    // `b`'s steps come from a submodule; the second commit moves it on to
    // a commit that raises them 30 %. `git worktree add` leaves a
    // submodule's folder empty: the revision's build needs its files, at
    // the commit the revision records, not the working tree's.
    let fx = Fixture::new("revisions").own_target_dir();
    fx.first_commit("target/\nCargo.lock\n");
    let name = fx.dir.file_name().unwrap().to_string_lossy().into_owned();
    let steps = fx.dir.with_file_name(format!("{name}-steps"));
    std::fs::create_dir_all(&steps).unwrap();
    std::fs::write(steps.join("b_steps.rs"), "2000\n").unwrap();
    git(&steps, &["init", "--quiet", "--initial-branch", "main"]);
    git(&steps, &["add", "."]);
    git(&steps, &["commit", "--quiet", "-m", "2000"]);
    let from = steps.to_str().unwrap();
    let add = [
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "--quiet",
    ];
    git(&fx.dir, &[&add[..], &[from, "vendor/steps"]].concat());
    edit(
        &fx.dir.join("src/lib.rs"),
        "B_STEPS: u64 = 2000",
        "B_STEPS: u64 = include!(\"../vendor/steps/b_steps.rs\")",
    );
    git(&fx.dir, &["add", "."]);
    git(
        &fx.dir,
        &["commit", "--quiet", "-m", "steps from a submodule"],
    );
    std::fs::write(steps.join("b_steps.rs"), "2600\n").unwrap();
    git(&steps, &["commit", "--quiet", "-am", "2600"]);
    let vendored = fx.dir.join("vendor/steps");
    git(
        &vendored,
        &["-c", "protocol.file.allow=always", "pull", "--quiet"],
    );
    git(&fx.dir, &["commit", "--quiet", "-am", "b does 30 % more"]);
    let before = checkout_state(&vendored);
    let run = nbench(
        &fx,
        &[
            "--compare-rev",
            "HEAD~1",
            "--noise-threshold",
            "5",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.all());
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
    let b = rows.iter().find(|r| r["id"] == "chain/b").unwrap();
    assert_eq!(b["verdict"], "regressed", "{b}");
    // The working tree's copy of the submodule is as it was.
    assert_eq!(checkout_state(&vendored), before);
    // Moved: the revision's submodule is at a path the working tree no
    // longer has, and comes from the repository git keeps under its name.
    git(&fx.dir, &["mv", "vendor/steps", "steps"]);
    edit(&fx.dir.join("src/lib.rs"), "../vendor/steps/", "../steps/");
    git(
        &fx.dir,
        &["commit", "--quiet", "-am", "the submodule moved"],
    );
    let run = nbench(&fx, &["--compare-rev", "HEAD~1", "--format", "json"]);
    std::fs::remove_dir_all(&steps).unwrap();
    assert_eq!(run.code, 0, "{}", run.all());
}

#[test]
fn a_revision_reads_an_input_git_does_not_track_from_the_working_tree() {
    // As Advent of Code suites keep their puzzle input: out of git, taken
    // by `include_str!`. A checkout of the revision lacks it.
    let fx = repository(|dir| {
        let lib = dir.join("src/lib.rs");
        let text = std::fs::read_to_string(&lib).unwrap();
        let input = "/// The input's length.\npub const INPUT: usize = include_str!(\"input.txt\").len();\n";
        std::fs::write(&lib, format!("{text}{input}")).unwrap();
        std::fs::write(dir.join(".gitignore"), "target/\nCargo.lock\ninput.txt\n").unwrap();
    });
    let input = fx.dir.join("src/input.txt");
    std::fs::write(&input, "12345\n").unwrap();
    let run = nbench(&fx, &["--compare-rev", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(
        run.stderr.contains(
            "reads `src/input.txt`, which git does not track: copied the working tree's into its \
             checkout, building it again"
        ),
        "{}",
        run.stderr
    );
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        doc["comparison"]["targets"][0]["rows"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let again = nbench(&fx, &["--compare-rev", "HEAD", "-q"]);
    assert_eq!(again.code, 0, "{}", again.all());
    // Another input: the revision is built again with it.
    std::fs::write(&input, "678\n").unwrap();
    let changed = nbench(&fx, &["--compare-rev", "HEAD"]);
    assert_eq!(changed.code, 0, "{}", changed.all());
    assert!(
        changed.stderr.contains(
            "is built again: `src/input.txt` (which git does not track, copied from the working \
             tree) has changed since"
        ),
        "{}",
        changed.stderr
    );
    // A file git tracks is the revision's own to have: committed after it,
    // it is not taken from the working tree.
    std::fs::write(&input, "9\n").unwrap();
    git(&fx.dir, &["add", "--force", "src/input.txt"]);
    git(&fx.dir, &["commit", "--quiet", "-m", "the input"]);
    let tracked = nbench(&fx, &["--compare-rev", "HEAD~1"]);
    assert_eq!(tracked.code, 3, "{}", tracked.all());
    assert!(
        tracked
            .error_line()
            .contains("couldn't read `src/input.txt`"),
        "{}",
        tracked.all()
    );
    assert!(
        tracked.stderr.contains("`src/input.txt` was not there"),
        "{}",
        tracked.stderr
    );
}

#[test]
fn a_revision_runs_beside_the_files_git_does_not_track_that_its_benchmarks_read() {
    // An input read as the benchmarks run, by a path from the package's
    // folder, that `.gitignore` keeps out: the revision's checkout lacks it.
    let fx = repository(|dir| {
        std::fs::write(
            dir.join(".gitignore"),
            "target/\nCargo.lock\nbenches/links.txt\n",
        )
        .unwrap();
        git(dir, &["rm", "--cached", "--quiet", "benches/links.txt"]);
    });
    let links = fx.dir.join("benches/links.txt");
    assert!(links.is_file());
    let said = "of baseline `rev-";
    let copied =
        "which lacks `benches/links.txt`: git does not track it; copied the working tree's";
    let first = nbench(&fx, &["--compare-rev", "HEAD", "--format", "json"]);
    assert_eq!(first.code, 0, "{}", first.all());
    assert!(
        first.stderr.contains(said) && first.stderr.contains(copied),
        "{}",
        first.stderr
    );
    let run = nbench(&fx, &["--compare-rev", "HEAD"]);
    assert_eq!(run.code, 0, "{}", run.all());
    // Copied already, as it is now: nothing to say.
    assert!(!run.stderr.contains(copied), "{}", run.stderr);
    assert!(run.stderr.contains("already built"), "{}", run.stderr);
    // Changed in the working tree: copied again, the revision not rebuilt.
    std::fs::write(&links, "4\n").unwrap();
    let changed = nbench(&fx, &["--compare-rev", "HEAD"]);
    assert_eq!(changed.code, 0, "{}", changed.all());
    assert!(changed.stderr.contains(copied), "{}", changed.stderr);
    assert!(
        changed.stderr.contains("already built"),
        "{}",
        changed.stderr
    );
    // Two revisions compared, neither the working tree.
    std::fs::write(&links, "5\n").unwrap();
    let both = nbench(&fx, &["compare", "--rev", "HEAD", "HEAD"]);
    assert_eq!(both.code, 0, "{}", both.all());
    assert!(both.stderr.contains(copied), "{}", both.stderr);
    // The first commit tracks it: its own is left as it is.
    let own = nbench(&fx, &["--compare-rev", "HEAD~1"]);
    assert_eq!(own.code, 0, "{}", own.all());
    assert!(!own.stderr.contains(copied), "{}", own.stderr);
}

#[test]
fn a_revision_that_cannot_be_checked_out_is_said_before_the_working_tree_is_built() {
    let fx = repository(|dir| std::fs::write(dir.join("data.txt"), "data\n").unwrap());
    // The revision's `data.txt` is lost from the repository (as in a
    // partial copy), and the working tree does not build: a build before
    // the checkout would say the compiler's error instead.
    let blob = git(&fx.dir, &["rev-parse", "HEAD:data.txt"]);
    let blob = blob.trim();
    let object = fx
        .dir
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::remove_file(&object).unwrap();
    edit(
        &fx.dir.join("src/lib.rs"),
        "x ^= x >> 29;",
        "x ^= x >> 29 +;",
    );
    let run = fx.nbench(&["--compare-rev", "HEAD"]);
    assert_eq!(run.code, 2, "{}", run.all());
    let error = run.error_line();
    assert!(error.contains("could not check out"), "{}", run.stderr);
    assert!(
        !run.stderr.contains("Compiling revisions") && !run.stderr.contains("expected expression"),
        "the working tree was built first:\n{}",
        run.stderr
    );
    assert_eq!(leftover_worktrees(&fx), Vec::<String>::new());
}

#[test]
fn compare_two_revisions_checks_both_before_building_either() {
    let fx = repository(|_| {});
    for args in [["HEAD", "no-such-branch"], ["no-such-branch", "HEAD"]] {
        let run = fx.nbench(&[&["compare", "--rev"][..], &args].concat());
        assert_eq!(run.code, 2, "{}", run.all());
        assert!(
            run.stderr
                .contains("git revision `no-such-branch` not found"),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("building"), "{}", run.stderr);
    }
    let baselines = fx.dir.join("target/nbench/baselines");
    assert!(
        !baselines.exists() || std::fs::read_dir(&baselines).unwrap().next().is_none(),
        "nothing built for the revision that exists"
    );
}

#[test]
fn compare_rev_outside_a_git_repository_says_so() {
    let fx = Fixture::new("revisions").own_target_dir();
    // The fixture's copy lives under the build's target directory, inside
    // this repository's checkout: a repository of its own that git cannot
    // see past (GIT_CEILING_DIRECTORIES) stands in for "no repository".
    let mut cmd = fx.nbench_command(&["--compare-rev", "HEAD"]);
    let parent = fx.dir.parent().unwrap().to_path_buf();
    let run = Run::from(
        cmd.env("GIT_CEILING_DIRECTORIES", &parent)
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.stderr
            .contains("is not in a git repository, so there is no revision `HEAD` to check out"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_revision_before_the_first_benchmark_makes_every_benchmark_new() {
    // The pull request that adds a suite's first benchmarks, with the CI
    // job that compares it with its base: the base has no bench target.
    let fx = Fixture::new("revisions").own_target_dir();
    let manifest = fx.dir.join("Cargo.toml");
    let with_benches = std::fs::read_to_string(&manifest).unwrap();
    let (before, _) = with_benches.split_once("[[bench]]").unwrap();
    std::fs::write(&manifest, before).unwrap();
    let benches = fx.dir.join("benches");
    // Aside where git does not look, for the first commit.
    let aside = fx.dir.join("target/benches-aside");
    std::fs::create_dir_all(fx.dir.join("target")).unwrap();
    std::fs::rename(&benches, &aside).unwrap();
    fx.first_commit("target/\nCargo.lock\n");
    std::fs::rename(&aside, &benches).unwrap();
    std::fs::write(&manifest, &with_benches).unwrap();
    git(&fx.dir, &["add", "."]);
    git(
        &fx.dir,
        &["commit", "--quiet", "-m", "the first benchmarks"],
    );

    let mut args = vec!["--compare-rev", "HEAD~1", "--fail-on-regression"];
    args.extend_from_slice(QUICK);
    args.extend_from_slice(&crate::helpers::ONE_LAYOUT);
    let said = "`HEAD~1` (";
    let nothing =
        ") has no bench target for this command to run: every benchmark is new against it";
    let run = fx.nbench(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(run.code, 0, "{}", run.all());
    let note = run.stderr.lines().find(|l| l.contains(nothing));
    assert!(
        note.is_some_and(|l| l.starts_with(&format!("note: {said}"))),
        "{}",
        run.stderr
    );
    let doc = run.json();
    let target = &doc["comparison"]["targets"][0];
    assert_eq!(
        target["new"],
        serde_json::json!(["chain/a", "chain/b"]),
        "{target}"
    );
    assert_eq!(target["rows"].as_array().map(Vec::len), Some(0), "{target}");

    // Again: the empty baseline is reused, and each new row shows its time.
    let again = fx.nbench(&args);
    assert_eq!(again.code, 0, "{}", again.all());
    assert!(again.stderr.contains("already built"), "{}", again.stderr);
    assert!(again.stderr.contains(nothing), "{}", again.stderr);
    for id in ["chain/a", "chain/b"] {
        let line = again
            .stdout
            .lines()
            .find(|l| l.starts_with(id))
            .unwrap_or_default();
        let time = line.split_whitespace().nth(1).unwrap_or_default();
        assert!(
            time.parse::<f64>().is_ok_and(|t| t > 0.0),
            "{line}\n{}",
            again.stdout
        );
        assert!(line.ends_with("new (not in the baseline)"), "{line}");
    }
}

#[test]
fn a_package_the_base_lacks_has_its_benchmarks_new_and_the_others_compared() {
    // The pull request adds `beta` to the workspace; `-p alpha -p beta`.
    let fx = Fixture::new("workspace").own_target_dir();
    let manifest = fx.dir.join("Cargo.toml");
    let with_beta = std::fs::read_to_string(&manifest).unwrap();
    let without = (with_beta.replace("\"alpha\", \"beta\", ", "\"alpha\", "))
        .replace("[\"alpha\", \"beta\"]", "[\"alpha\"]");
    assert!(!without.contains("beta"), "{without}");
    std::fs::write(&manifest, without).unwrap();
    let (beta, aside) = (fx.dir.join("beta"), fx.dir.join("target/beta-aside"));
    std::fs::rename(&beta, &aside).unwrap();
    fx.first_commit("target/\nCargo.lock\n");
    std::fs::rename(&aside, &beta).unwrap();
    std::fs::write(&manifest, &with_beta).unwrap();
    git(&fx.dir, &["add", "."]);
    git(&fx.dir, &["commit", "--quiet", "-m", "beta"]);

    let args = |packages: &[&'static str]| {
        let mut args = vec!["--compare-rev", "HEAD~1", "--format", "json"];
        args.extend_from_slice(packages);
        args.extend_from_slice(QUICK);
        args.extend_from_slice(&crate::helpers::ONE_LAYOUT);
        args
    };
    let both = fx.nbench(&args(&[
        "-p", "alpha", "-p", "beta", "--bench", "alpha_a", "--bench", "beta",
    ]));
    assert_eq!(both.code, 0, "{}", both.all());
    let said = "has no package `beta`: their benchmarks are new against it";
    assert!(both.stderr.contains(said), "{}", both.stderr);
    let doc = both.json();
    let targets = doc["comparison"]["targets"].as_array().unwrap();
    let target = |label: &str| targets.iter().find(|t| t["target"] == label).unwrap();
    assert!(
        !target("alpha/alpha_a")["rows"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{targets:?}"
    );
    assert_eq!(
        target("beta/beta")["new"],
        serde_json::json!(["xor/4KiB"]),
        "{targets:?}"
    );

    let alone = fx.nbench(&args(&["-p", "beta", "--bench", "beta"]));
    assert_eq!(alone.code, 0, "{}", alone.all());
    let said = "has no package `beta`: every benchmark is new against it";
    assert!(alone.stderr.contains(said), "{}", alone.stderr);
}

/// The fenced `yaml` blocks of docs/ci.md.
fn yaml_blocks(doc: &str) -> Vec<String> {
    doc.split("```yaml\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn the_ci_recipes_are_yaml_and_run_the_tested_command() {
    let doc = std::fs::read_to_string(crate::helpers::repo_root().join("docs/ci.md")).unwrap();
    let blocks = yaml_blocks(&doc);
    assert_eq!(
        blocks.len(),
        5,
        "GitHub Actions and GitLab CI, one job and sharded, and the steps that add counts"
    );
    // Counts on a hosted runner: Valgrind installed, then both signals.
    let counts = &blocks[4];
    assert!(counts.contains("apt-get install -y valgrind"), "{counts}");
    assert!(counts.contains("--metrics time,instructions"), "{counts}");
    for block in &blocks {
        let parsed = yaml_rust2::YamlLoader::load_from_str(block)
            .unwrap_or_else(|e| panic!("not YAML: {e}\n{block}"));
        assert_eq!(parsed.len(), 1, "{block}");
        // The command the tests above run, with the flags they check.
        let command = block
            .lines()
            .find(|l| l.contains("cargo nbench --compare-rev"))
            .unwrap_or_else(|| panic!("no compare command in\n{block}"));
        assert!(command.contains("--compare-rev"), "{command}");
    }
    for block in &blocks[..2] {
        let command = block.lines().find(|l| l.contains("--compare-rev")).unwrap();
        for flag in ["--fail-on-regression", "--summary"] {
            assert!(command.contains(flag), "{command}");
        }
    }
    // The sharded jobs: a partition per job, and the gate on the merged shards
    // (as partition::merged_shards_report_as_one_run_with_one_adjustment runs them).
    for block in &blocks[2..4] {
        let shard = block.lines().find(|l| l.contains("--compare-rev")).unwrap();
        assert!(
            shard.contains("--partition") && shard.contains("--out"),
            "{shard}"
        );
        let merge = block
            .lines()
            .find(|l| l.contains("cargo nbench merge"))
            .unwrap_or_else(|| panic!("no merge in\n{block}"));
        assert!(
            merge.contains("--fail-on-regression") && merge.contains("--summary"),
            "{merge}"
        );
    }
    // The history the revision needs.
    for gh in [0, 2] {
        assert!(blocks[gh].contains("fetch-depth: 0"));
    }
    for gl in [1, 3] {
        assert!(blocks[gl].contains("GIT_DEPTH: \"0\""));
    }
    let matrix = &yaml_rust2::YamlLoader::load_from_str(&blocks[2]).unwrap()[0];
    assert_eq!(matrix["jobs"]["merge"]["needs"].as_str(), Some("bench"));
    let gitlab = &yaml_rust2::YamlLoader::load_from_str(&blocks[3]).unwrap()[0];
    assert_eq!(gitlab["bench"]["parallel"].as_i64(), Some(3));
    let gh = &yaml_rust2::YamlLoader::load_from_str(&blocks[0]).unwrap()[0];
    let steps = gh["jobs"]["bench"]["steps"].as_vec().expect("steps");
    assert!(
        steps
            .iter()
            .any(|s| s["uses"].as_str() == Some("actions/cache@v4"))
    );
    // Pushes to the base branch save the cache pull requests read, keyed on the base commit,
    // which is what they compare with.
    for block in [&blocks[0], &blocks[2]] {
        let y = &yaml_rust2::YamlLoader::load_from_str(block).unwrap()[0];
        assert_eq!(
            y["on"]["push"]["branches"][0].as_str(),
            Some("main"),
            "{block}"
        );
        assert!(!y["on"]["pull_request"].is_badvalue(), "{block}");
        let base = y["env"]["BASE"].as_str().unwrap_or_default();
        assert!(
            base.contains("github.event.pull_request.base.sha"),
            "{block}"
        );
        assert!(block.contains("--compare-rev \"$BASE\""), "{block}");
        assert!(
            block.contains("key: bench-${{ runner.os }}-") && block.contains("${{ env.BASE }}")
        );
    }
    for block in [&blocks[1], &blocks[3]] {
        assert!(
            block.contains("{CI_MERGE_REQUEST_DIFF_BASE_SHA:-"),
            "{block}"
        );
        assert!(
            block.contains("$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH"),
            "{block}"
        );
    }
    // cargo nbench pinned, and its binary cached, wherever it is installed.
    for block in &blocks[..4] {
        for install in block.lines().filter(|l| l.contains("cargo install")) {
            assert!(install.contains("--tag \"$CARGO_NBENCH_TAG\""), "{install}");
        }
        assert!(
            block.contains("cargo-nbench") && block.contains(".cargo/bin"),
            "{block}"
        );
    }
    // A shard with a failing benchmark still uploads, and the merge still runs.
    let jobs = &matrix["jobs"];
    assert_eq!(jobs["merge"]["if"].as_str(), Some("always()"));
    let upload = jobs["bench"]["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .find(|s| s["uses"].as_str() == Some("actions/upload-artifact@v4"));
    assert_eq!(upload.unwrap()["if"].as_str(), Some("always()"));
    assert_eq!(
        gitlab["bench"]["artifacts"]["when"].as_str(),
        Some("always")
    );
    for rule in gitlab["merge"]["rules"].as_vec().unwrap() {
        assert_eq!(rule["when"].as_str(), Some("always"), "{rule:?}");
    }
}

#[test]
fn a_killed_compare_rev_leaves_a_worktree_that_the_next_run_removes() {
    let fx = repository(|_| {});
    let args: Vec<&str> = crate::helpers::PAIRED
        .iter()
        .copied()
        .chain(["--compare-rev", "HEAD~1"])
        .collect();
    let mut cmd = fx.nbench_command(&args);
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().unwrap();
    let worktrees = fx.dir.join("target/nbench/worktrees");
    // Killed once the revision is checked out (its manifest is there).
    let checked_out = crate::helpers::wait_for(std::time::Duration::from_secs(120), || {
        let checkouts = |dir: &Path| std::fs::read_dir(dir).into_iter().flatten().flatten();
        checkouts(&worktrees)
            .any(|folder| checkouts(&folder.path()).any(|c| c.path().join("Cargo.toml").is_file()))
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(checked_out, "no worktree appeared");
    assert!(
        git(&fx.dir, &["worktree", "list"]).contains("worktrees"),
        "the killed run left its worktree"
    );

    // A live run's worktree (its lock held) is never taken away.
    let live = worktrees.join("0123456789ab-1");
    std::fs::create_dir_all(&live).unwrap();
    let lock = std::fs::File::create(worktrees.join("0123456789ab-1.lock")).unwrap();
    lock.lock().unwrap();
    let next = nbench(&fx, &["--compare-rev", "HEAD~1", "chain/a"]);
    assert_eq!(next.code, 0, "{}", next.all());
    let mut left = leftover_worktrees(&fx);
    left.sort();
    assert_eq!(
        left,
        [
            live.display().to_string(),
            worktrees.join("0123456789ab-1.lock").display().to_string()
        ],
        "only the live run's worktree is left"
    );
    drop(lock);
}

#[test]
fn a_revision_is_counted_by_the_comparison_not_while_it_is_saved() {
    let fx = repository(|_| {});
    let counted = ["--metrics", "time,instructions", "--format", "json"];
    let doc = nbench(
        &fx,
        &[&["--compare-rev", "HEAD~1", "--layouts", "2"], &counted[..]].concat(),
    )
    .json();
    let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
    assert!(!rows.is_empty(), "{doc}");
    for row in rows {
        let counted = row["instructions"]["baseline"].as_f64().unwrap_or_default();
        assert!(counted > 0.0, "{row}");
    }
    // Its baseline lists them and holds no samples, so no counts: measuring
    // or counting them there was time spent twice.
    let dir = fx.dir.join("target/nbench/baselines");
    let saved: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().join("results.json"))
        .filter(|p| p.is_file())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let stored: Value = serde_json::from_slice(&std::fs::read(&saved[0]).unwrap()).unwrap();
    let target = &stored["run"]["targets"][0];
    assert_eq!(target["benchmarks"], serde_json::json!([]), "{target}");
    let mut listed: Vec<&str> = (target["listed"].as_array().unwrap().iter())
        .map(|id| id.as_str().unwrap())
        .collect();
    let mut compared: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    listed.sort_unstable();
    compared.sort_unstable();
    assert_eq!(listed, compared, "{target}");
}

#[test]
fn a_revision_whose_targets_are_all_left_out_says_why_not_that_it_predates_them() {
    // The newer commit gates the bench target behind a feature; the
    // working tree takes the gate off again.
    let manifest = |fx_dir: &Path| fx_dir.join("Cargo.toml");
    let fx = repository(|dir| {
        edit(
            &manifest(dir),
            "harness = false",
            "harness = false\nrequired-features = [\"gate\"]\n\n[features]\ngate = []",
        );
    });
    edit(&manifest(&fx.dir), "required-features = [\"gate\"]", "");
    let run = nbench(&fx, &["--compare-rev", "HEAD", "--layouts", "1"]);
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.stderr.contains(
            "skipped bench target `revisions/revisions`: its required features are off: add \
             `--features gate`"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.error_line().ends_with(
            "every bench target selected there was left out, for the reason its note above gives"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("predates"), "{}", run.stderr);
}

#[test]
fn a_feature_a_revision_predates_is_left_out_of_its_build_alone() {
    // The newer commit adds feature `gate`; the older has none.
    let fx = repository(|dir| {
        edit(
            &dir.join("Cargo.toml"),
            "harness = false",
            "harness = false\n\n[features]\ngate = []",
        );
    });
    let mut args = vec!["compare", "--rev", "HEAD~1", "HEAD", "chain/a"];
    args.extend(["--features", "gate", "--layouts", "1", "--format", "json"]);
    args.extend(crate::helpers::PAIRED);
    let run = fx.nbench(&args);
    assert_eq!(run.code, 0, "{}", run.all());
    let first = short_commit(&fx, "HEAD~1");
    assert!(
        run.stderr.contains(&format!(
            "`HEAD~1` ({first}) has no feature `gate`: building it without"
        )),
        "{}",
        run.stderr
    );
    assert_eq!(
        run.stderr.matches("has no feature").count(),
        1,
        "{}",
        run.stderr
    );
    let rows = run.json()["comparison"]["targets"][0]["rows"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(rows, 1, "{}", run.stdout);
}

fn short_commit(fx: &Fixture, rev: &str) -> String {
    git(&fx.dir, &["rev-parse", rev]).trim()[..12].to_owned()
}

#[test]
fn a_package_the_revisions_workspace_does_not_take_is_said_to_be_outside_it() {
    // As http's `benches`: its folder there at the older commit, which
    // its workspace's members leave out.
    let fx = Fixture::new("workspace");
    let (all, default) = (
        "members = [\"alpha\", \"beta\", \"faults\", \"impostor\", \"tunable\"]",
        "default-members = [\"alpha\", \"beta\"]",
    );
    let (fewer, default_fewer) = (
        "members = [\"alpha\", \"faults\", \"impostor\", \"tunable\"]",
        "default-members = [\"alpha\"]",
    );
    fx.edit("Cargo.toml", all, fewer);
    fx.edit("Cargo.toml", default, default_fewer);
    fx.first_commit("target/\n");
    fx.edit("Cargo.toml", fewer, all);
    fx.edit("Cargo.toml", default_fewer, default);
    git(&fx.dir, &["commit", "--quiet", "-am", "beta joins"]);
    let run = fx.nbench(&["compare", "--rev", "HEAD~1", "HEAD", "-p", "beta"]);
    assert_eq!(run.code, 2, "{}", run.all());
    let said = "package `beta` is at `HEAD~1`";
    assert!(run.error_line().contains(said), "{}", run.stderr);
    let said = "in `beta/Cargo.toml`, but the workspace there does not take it as a member";
    assert!(run.error_line().contains(said), "{}", run.stderr);
    assert!(!run.stderr.contains("predates"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("cargo builds only a workspace's members"),
        "{}",
        run.stderr
    );
}
