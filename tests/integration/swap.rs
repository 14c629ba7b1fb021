//! Revisions of a criterion project, built in cargo nbench's own worktrees
//! with nbench-criterion in criterion's place: the project itself is never
//! edited, whatever shape its manifests declare criterion in.

use crate::helpers::{Fixture, ONE_LAYOUT, PAIRED, Run, git, repo_root};
use serde_json::Value;
use std::path::Path;

/// `tests/fixtures/crit_shapes` as a repository: a first commit, and a second
/// in which the member's work takes 30 % more steps; then `more` on top, if
/// it commits something.
fn repository() -> Fixture {
    let fx = Fixture::new("crit_shapes").own_target_dir();
    fx.first_commit("target/\nCargo.lock\n");
    edit(
        &fx.dir.join("member/src/lib.rs"),
        "STEPS: u64 = 2000",
        "STEPS: u64 = 2600",
    );
    git(&fx.dir, &["commit", "--quiet", "-am", "30 % more steps"]);
    fx
}

fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{from} in {}", file.display());
    std::fs::write(file, text.replace(from, to)).unwrap();
}

/// A `file://` address of a git repository that is not there, as a git
/// source is with no network.
fn nowhere(fx: &Fixture) -> String {
    format!("file://{}", fx.dir.join("no-such-repository").display())
}

fn compat() -> String {
    repo_root().join("compat/criterion").display().to_string()
}

fn run(fx: &Fixture, args: &[&str], compat_env: bool) -> Run {
    let mut cmd = fx.nbench_command(args);
    cmd.args(PAIRED).args(ONE_LAYOUT);
    match compat_env {
        true => cmd.env("NBENCH_CRITERION", compat()),
        false => cmd.env_remove("NBENCH_CRITERION"),
    };
    Run::from(cmd.output().unwrap())
}

fn verdicts(json: &str) -> Vec<(String, String)> {
    let doc: Value = serde_json::from_str(json).unwrap();
    doc["comparison"]["targets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["rows"].as_array().unwrap().clone())
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_owned(),
                r["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_member_that_inherits_criterion_is_told_to_swap_the_workspaces_entry() {
    let fx = Fixture::new("crit_shapes");
    let mut cmd = fx.nbench_command(&["--list"]);
    let skipped = Run::from(cmd.env_remove("NBENCH_CRITERION").output().unwrap());
    assert_ne!(skipped.code, 0, "{}", skipped.all());
    let said = "skipped bench target `shapes-member/inherited`: it uses criterion; to run it \
                unchanged, put nbench-criterion in criterion's place in `[workspace.dependencies]` \
                of the workspace's Cargo.toml (`shapes-member` takes it from there): `criterion = {";
    assert!(skipped.stderr.contains(said), "{}", skipped.stderr);
    // The member that declares its own (renamed): its own entry.
    let own = "`shapes-benches/renamed`: it uses crit; to run it unchanged, put \
               nbench-criterion in crit's place: `crit = {";
    assert!(skipped.stderr.contains(own), "{}", skipped.stderr);
}

#[test]
fn two_revisions_of_an_untouched_criterion_project_compare_with_the_swap_said() {
    let fx = repository();
    // The newer revision denies warnings and has one: a compiler newer than
    // its code meets lints it did not know. It still builds, and says
    // nothing of it: a revision's lints are silenced.
    let lib = fx.dir.join("member/src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(
        &lib,
        format!("#![deny(warnings)]\nfn never_called() {{}}\n{text}"),
    )
    .unwrap();
    // It also takes serde_json without its default features, as bincode's
    // benches do: serde_json stops the build without `std` (or `alloc`),
    // which criterion's own serde_json turned on for the whole build.
    let benches = fx.dir.join("bench-crate/Cargo.toml");
    let manifest = std::fs::read_to_string(&benches).unwrap();
    let json = "serde_json = { version = \"1\", default-features = false }\n";
    std::fs::write(
        &benches,
        manifest.replacen("[[bench]]", &format!("{json}\n[[bench]]"), 1),
    )
    .unwrap();
    git(&fx.dir, &["commit", "--quiet", "-am", "denies warnings"]);
    let status = |dir: &Path| git(dir, &["status", "--porcelain", "--untracked-files=all"]);
    let before = status(&fx.dir);
    let r = run(
        &fx,
        &["compare", "--rev", "HEAD~2", "HEAD", "--format", "json"],
        true,
    );
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stderr.contains("[HEAD]     Finished"), "{}", r.stderr);
    assert!(!r.stderr.contains("never_called"), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "uses codspeed-criterion-compat and criterion: building it with nbench-criterion in \
             codspeed-criterion-compat's place and nbench-criterion in criterion's place \
             (Cargo.toml, bench-crate/Cargo.toml)"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(
            "(Cargo.toml, bench-crate/Cargo.toml); they ask for serde_json/std, which \
             codspeed-criterion-compat and criterion turned on for the whole build"
        ),
        "{}",
        r.stderr
    );
    // `bench-crate` takes criterion under two names: the second is an
    // alias of nbench-criterion, which cargo takes beside the first.
    assert!(
        r.stderr
            .contains("Compiling nbench-criterion-as-codspeed-criterion-compat"),
        "{}",
        r.stderr
    );
    let rows = verdicts(&r.stdout);
    let ids: Vec<&str> = rows.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "inherited/work",
            "codspeed/work",
            "renamed/work/1",
            "renamed/work/2"
        ],
        "{rows:?}"
    );
    assert!(rows.iter().all(|(_, v)| v == "regressed"), "{rows:?}");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    // Both sides ran on the same front end: nothing to warn of (each
    // build said it swapped, above).
    let warnings = doc["comparison"]["warnings"].to_string();
    assert!(!warnings.contains("nbench-criterion"), "{warnings}");
    assert_eq!(status(&fx.dir), before, "the checkout was touched");

    // The same revisions again: the swapped baselines are reused, as built.
    let again = run(&fx, &["compare", "--rev", "HEAD~2", "HEAD", "-q"], true);
    assert_eq!(again.code, 0, "{}", again.all());
    assert!(!again.stderr.contains("building `HEAD"), "{}", again.stderr);
}

#[test]
fn a_working_tree_that_made_the_swap_compares_with_a_revision_that_has_not() {
    let fx = repository();
    // The user's one-line swap, in the workspace's declaration.
    edit(
        &fx.dir.join("Cargo.toml"),
        "criterion = { version = \"0.8\", default-features = false }",
        &format!(
            "criterion = {{ package = \"nbench-criterion\", path = {:?} }}",
            compat()
        ),
    );
    edit(
        &fx.dir.join("bench-crate/Cargo.toml"),
        "crit = { package = \"criterion\", version = \"0.8\", default-features = false, \
         features = [\"html_reports\"] }",
        &format!(
            "crit = {{ package = \"nbench-criterion\", path = {:?} }}",
            compat()
        ),
    );
    // nbench-criterion's source is the working tree's: no variable needed.
    let r = run(&fx, &["--compare-rev", "HEAD~1", "-q"], false);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stdout.contains("inherited/work"), "{}", r.stdout);
    assert!(r.stdout.contains("regressed"), "{}", r.stdout);
    // Both sides ran on nbench-criterion, one swapped by cargo nbench, the
    // other by its manifest: nothing to warn of.
    assert!(
        !r.stdout.contains("the baseline is a revision"),
        "{}",
        r.stdout
    );
}

/// What is said as a revision, or the working tree as a commit, is built.
const BUILDING: &str = "in a worktree, saved as baseline";

#[test]
fn an_untouched_working_tree_compares_with_a_revision_as_a_commit_of_its_own() {
    let fx = repository();
    // Not committed: 30 % more steps again, and a file git does not know.
    let lib = fx.dir.join("member/src/lib.rs");
    edit(&lib, "STEPS: u64 = 2600", "STEPS: u64 = 3400");
    std::fs::write(fx.dir.join("scratch.txt"), "not added\n").unwrap();
    // A baseline it does not have: said alone, before any note of what it
    // would build.
    let none = run(&fx, &["--compare", "nosuch"], true);
    assert_eq!(none.code, 2, "{}", none.all());
    assert!(
        none.stderr.starts_with("error: no baseline named `nosuch`"),
        "{}",
        none.stderr
    );
    let status = |dir: &Path| git(dir, &["status", "--porcelain", "--untracked-files=all"]);
    let before = (
        status(&fx.dir),
        std::fs::read(fx.dir.join(".git/index")).unwrap(),
    );
    let r = run(&fx, &["--compare-rev", "HEAD", "--format", "json"], true);
    assert_eq!(r.code, 0, "{}", r.all());
    let said = "the working tree's bench targets use criterion: it is compared as a revision, \
                commit ";
    assert!(r.stderr.contains(said), "{}", r.stderr);
    assert!(
        r.stderr.contains("building the working tree (as commit "),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("[working tree]     Finished"),
        "{}",
        r.stderr
    );
    let rows = verdicts(&r.stdout);
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.iter().all(|(_, v)| v == "regressed"), "{rows:?}");
    // Its code is said as the user's: `HEAD` with uncommitted changes.
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    let head = git(&fx.dir, &["rev-parse", "HEAD"]);
    assert_eq!(
        doc["context"]["git_commit"],
        head.trim(),
        "{}",
        doc["context"]
    );
    assert_eq!(doc["context"]["git_dirty"], true, "{}", doc["context"]);
    let after = (
        status(&fx.dir),
        std::fs::read(fx.dir.join(".git/index")).unwrap(),
    );
    assert!(after == before, "the checkout or its index was touched");
    let baselines = || {
        let dir = fx.dir.join("target/nbench/baselines");
        let mut names: Vec<String> = (std::fs::read_dir(dir).unwrap().flatten())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("rev-"))
            .collect();
        names.sort();
        names
    };
    let first = baselines();
    assert_eq!(first.len(), 2, "{first:?}");
    // Listed from both sides, as built: nothing is built again.
    let listed = run(&fx, &["--compare-rev", "HEAD", "--list"], true);
    assert_eq!(listed.code, 0, "{}", listed.all());
    assert!(
        listed
            .stdout
            .contains("shapes-member/inherited: inherited/work"),
        "{}",
        listed.stdout
    );
    assert!(!listed.stderr.contains(BUILDING), "{}", listed.stderr);

    // Another edit: the revision's baseline is reused, and the working
    // tree's from before is deleted, not kept beside the new one.
    edit(&lib, "STEPS: u64 = 3400", "STEPS: u64 = 3000");
    let again = run(&fx, &["--compare-rev", "HEAD", "-q"], true);
    assert_eq!(again.code, 0, "{}", again.all());
    assert!(!again.stderr.contains("[HEAD]"), "{}", again.stderr);
    let second = baselines();
    assert_eq!(second.len(), 2, "{second:?}");
    assert_eq!(
        first.iter().filter(|n| second.contains(n)).count(),
        1,
        "{first:?} {second:?}"
    );

    // A plain run, and a saved baseline, of the same untouched tree: its
    // build is reused, and the run is stored as any run is.
    let runs = || std::fs::read_dir(fx.dir.join("target/nbench/runs")).map_or(0, |d| d.count());
    let saved = run(
        &fx,
        &["--save-baseline", "edited", "--format", "json"],
        true,
    );
    assert_eq!(saved.code, 0, "{}", saved.all());
    let said = "the working tree's bench targets use criterion: it is run as a revision, commit ";
    assert!(saved.stderr.contains(said), "{}", saved.stderr);
    assert!(!saved.stderr.contains(BUILDING), "{}", saved.stderr);
    let reused = "note: the working tree (as commit ";
    assert!(saved.stderr.contains(reused), "{}", saved.stderr);
    assert!(saved.stderr.contains("already built"), "{}", saved.stderr);
    let doc: Value = serde_json::from_str(&saved.stdout).unwrap();
    let ids: Vec<&str> = (doc["targets"].as_array().unwrap().iter())
        .flat_map(|t| t["benchmarks"].as_array().unwrap())
        .filter_map(|b| b["id"].as_str())
        .collect();
    assert_eq!(ids.len(), 4, "{ids:?}");
    assert_eq!(doc["context"]["git_dirty"], true, "{}", doc["context"]);
    assert_eq!(runs(), 1);
    // Back at `HEAD` (2600 steps), compared with the saved 3000: faster,
    // and `HEAD`'s own build runs.
    edit(&lib, "STEPS: u64 = 3000", "STEPS: u64 = 2600");
    std::fs::remove_file(fx.dir.join("scratch.txt")).unwrap();
    let compared = run(&fx, &["--compare", "edited", "--format", "json"], true);
    assert_eq!(compared.code, 0, "{}", compared.all());
    assert!(!compared.stderr.contains(BUILDING), "{}", compared.stderr);
    let rows = verdicts(&compared.stdout);
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.iter().all(|(_, v)| v == "improved"), "{rows:?}");
    assert_eq!(runs(), 2);
    assert_eq!(status(&fx.dir), "", "the checkout was touched");

    // A revision git does not know stops it before anything is made or said.
    let unknown = run(&fx, &["--compare-rev", "no-such-rev"], true);
    assert_eq!(unknown.code, 2, "{}", unknown.all());
    assert!(
        unknown
            .stderr
            .starts_with("error: git revision `no-such-rev` not found"),
        "{}",
        unknown.stderr
    );
    assert_eq!(baselines(), second);

    // A target left out by its features is said as the working tree's,
    // with what to do, not as a revision's to compare with another.
    let member = fx.dir.join("member/Cargo.toml");
    edit(
        &member,
        "harness = false",
        "harness = false\nrequired-features = [\"gate\"]\n\n[features]\ngate = []",
    );
    let gated = run(&fx, &["-p", "shapes-member", "--list"], true);
    assert_eq!(gated.code, 2, "{}", gated.all());
    let why = "skipped bench target `shapes-member/inherited`: its required features are off: \
               add `--features gate`";
    assert!(gated.stderr.contains(why), "{}", gated.stderr);
    let line = gated.error_line();
    assert!(
        line.starts_with("error: the working tree (as commit "),
        "{line}"
    );
    assert!(
        line.ends_with("left out, for the reason its note above gives"),
        "{line}"
    );
    assert!(!gated.stderr.contains("compare with"), "{}", gated.stderr);
}

#[test]
fn a_revision_whose_suite_needs_what_nbench_criterion_lacks_fails_naming_it() {
    let fx = repository();
    let bench = fx.dir.join("member/benches/inherited.rs");
    edit(
        &bench,
        "fn inherited(c: &mut Criterion) {",
        "fn inherited(c: &mut Criterion) {\n    let _ = criterion::BenchmarkFilter::Regex;",
    );
    git(&fx.dir, &["commit", "--quiet", "-am", "a filter by regex"]);
    let r = run(&fx, &["compare", "--rev", "HEAD~1", "HEAD", "-q"], true);
    assert_eq!(r.code, 3, "{}", r.all());
    assert!(
        r.stderr.contains("error: revision `HEAD` (")
            && r.stderr.contains(
                "does not build with nbench-criterion in codspeed-criterion-compat's place and \
                 nbench-criterion in criterion's place: it lacks `Regex`"
            ),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("[HEAD] error[E0599]"), "{}", r.stderr);

    // A revision whose own library does not compile: its code, not the front end.
    edit(
        &fx.dir.join("member/src/lib.rs"),
        "x ^= x >> 29;",
        "x ^= x >> 29 +;",
    );
    git(&fx.dir, &["commit", "--quiet", "-am", "a typo"]);
    let r = run(&fx, &["compare", "--rev", "HEAD", "HEAD~1", "-q"], true);
    assert_eq!(r.code, 3, "{}", r.all());
    let error = r.error_line();
    assert!(
        error.contains("error: revision `HEAD` (")
            && error.contains("failed to build: error: expected expression")
            && error.ends_with("(compiling `shapes-member` (lib))"),
        "{}",
        r.stderr
    );
    assert!(
        !r.stderr.contains("nbench-criterion in criterion's place"),
        "{}",
        r.stderr
    );

    // A suite that imports what another crate lacks (a dependency whose
    // newest version cargo resolves today moved it): not the front end.
    edit(
        &fx.dir.join("member/src/lib.rs"),
        "x ^= x >> 29 +;",
        "x ^= x >> 29;",
    );
    edit(
        &bench,
        "fn inherited(c: &mut Criterion) {",
        "use std::collections::NoSuchMap;\nfn inherited(c: &mut Criterion) {",
    );
    git(
        &fx.dir,
        &["commit", "--quiet", "-am", "an import std lacks"],
    );
    let r = run(&fx, &["compare", "--rev", "HEAD", "HEAD~3", "-q"], true);
    assert_eq!(r.code, 3, "{}", r.all());
    let error = r.error_line();
    assert!(
        error.contains(
            "failed to build: error[E0432]: unresolved import `std::collections::NoSuchMap`"
        ),
        "{}",
        r.stderr
    );
    // The standard library comes with the toolchain, not with a lock file.
    assert!(
        r.stderr
            .contains("does not build with this toolchain, or not on its own"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_revision_whose_dependency_cargo_cannot_get_says_so() {
    let fx = repository();
    // The newer revision takes a dependency from a repository that is not
    // there (as a git source is, with no network).
    let nowhere = nowhere(&fx);
    edit(
        &fx.dir.join("member/Cargo.toml"),
        "[dev-dependencies]",
        &format!("[dev-dependencies]\nghost = {{ git = {nowhere:?} }}"),
    );
    git(
        &fx.dir,
        &["commit", "--quiet", "-am", "a dependency from elsewhere"],
    );
    // Built first, so that nothing else is built.
    let r = run(&fx, &["compare", "--rev", "HEAD", "HEAD~1", "-q"], true);
    assert_eq!(r.code, 3, "{}", r.all());
    assert!(
        r.stderr.contains("error: revision `HEAD` (")
            && r.stderr.contains("): cargo could not get `ghost`"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("the revision builds where cargo can reach `ghost`'s source"),
        "{}",
        r.stderr
    );
    // Not blamed on the front end.
    assert!(!r.stderr.contains("it lacks"), "{}", r.stderr);
}

#[test]
fn a_front_end_cargo_cannot_get_is_named_with_the_variable_that_points_to_one() {
    let fx = repository();
    // The working tree's swap names a repository that is not there; the
    // revisions take their front end from it.
    let nowhere = nowhere(&fx);
    edit(
        &fx.dir.join("Cargo.toml"),
        "criterion = { version = \"0.8\", default-features = false }",
        &format!("criterion = {{ package = \"nbench-criterion\", git = {nowhere:?} }}"),
    );
    let r = run(&fx, &["compare", "--rev", "HEAD~1", "HEAD", "-q"], false);
    assert_eq!(r.code, 3, "{}", r.all());
    let said = format!(
        "could not get nbench-criterion from `criterion = {{ git = {nowhere:?}, package = \"nbench-criterion\" }}`"
    );
    assert!(r.stderr.contains(&said), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "set NBENCH_CRITERION to a folder holding nbench-criterion (`compat/criterion` in \
             cargo nbench's repository) to build without the network"
        ),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("it lacks"), "{}", r.stderr);

    // A variable naming a folder without the front end: said before building.
    let mut cmd = fx.nbench_command(&["compare", "--rev", "HEAD~1", "HEAD", "-q"]);
    let missing = fx.dir.join("no-front-end-here");
    cmd.args(PAIRED).env("NBENCH_CRITERION", &missing);
    let r = Run::from(cmd.output().unwrap());
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(
        r.stderr.contains(&format!(
            "error: NBENCH_CRITERION names `{}`, which holds no nbench-criterion",
            missing.display()
        )),
        "{}",
        r.stderr
    );
}

#[test]
fn a_suite_on_criterion2_compares_under_the_crate_name_its_code_uses() {
    // criterion2's crate is `criterion`: the line to swap it by hand is
    // under that name.
    let fx = Fixture::new("crit_fork").own_target_dir();
    let mut cmd = fx.nbench_command(&["--list"]);
    let skipped = Run::from(cmd.env_remove("NBENCH_CRITERION").output().unwrap());
    assert_ne!(skipped.code, 0, "{}", skipped.all());
    let said = "skipped bench target `fork/fork`: it uses criterion2, whose crate is \
                `criterion`; to run it unchanged, put nbench-criterion in criterion2's place, \
                under that name: `criterion = { package = \"nbench-criterion\"";
    assert!(skipped.stderr.contains(said), "{}", skipped.stderr);
    // Two revisions, swapped by cargo nbench with its `codspeed` feature
    // kept: the second does 30 % more steps.
    fx.last_commit_changes(
        "target/\nCargo.lock\n",
        "src/lib.rs",
        "STEPS: u64 = 2000",
        "STEPS: u64 = 2600",
    );
    let r = run(
        &fx,
        &["compare", "--rev", "HEAD~1", "HEAD", "--format", "json"],
        true,
    );
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.stderr
            .contains("uses criterion2: building it with nbench-criterion in criterion2's place"),
        "{}",
        r.stderr
    );
    let rows = verdicts(&r.stdout);
    let ids: Vec<&str> = rows.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["work/iter", "work/wrapper"], "{rows:?}");
    assert!(rows.iter().all(|(_, v)| v == "regressed"), "{rows:?}");
}
