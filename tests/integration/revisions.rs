//! `--compare-rev`: a git revision built in a worktree and compared paired, reused the next
//! time, with the user's checkout left as it was; and the errors for what cannot be compared.

use crate::helpers::{Fixture, Run};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

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

#[test]
fn compare_rev_builds_the_revision_once_and_leaves_the_checkout_alone() {
    let fx = Fixture::new("revisions").own_target_dir();
    // Cargo.lock is written by the first build of the working tree, by cargo.
    std::fs::write(fx.dir.join(".gitignore"), "target/\nCargo.lock\n").unwrap();
    git(&fx.dir, &["init", "--quiet", "--initial-branch", "main"]);
    git(&fx.dir, &["add", "."]);
    git(&fx.dir, &["commit", "--quiet", "-m", "first"]);
    let lib = fx.dir.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(
        &lib,
        text.replace("B_STEPS: u64 = 2000", "B_STEPS: u64 = 2600"),
    )
    .unwrap();
    git(&fx.dir, &["commit", "--quiet", "-am", "b does 30 % more"]);
    let before = checkout_state(&fx.dir);

    let summary = fx.dir.join("target/summary.md");
    let run = nbench(
        &fx,
        &[
            "--compare-rev",
            "HEAD~1",
            "--fail-on-regression",
            "--summary",
            summary.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 4, "{}", run.all());
    assert!(run.stderr.contains("building `HEAD~1`"), "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
    let verdict = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap()["verdict"].clone();
    assert_eq!(verdict("chain/b"), "regressed", "{rows:?}");
    assert_eq!(verdict("chain/a"), "unchanged", "{rows:?}");
    let name = doc["comparison"]["baseline"].as_str().unwrap().to_owned();
    assert!(name.starts_with("rev-"), "{name}");
    assert!(
        std::fs::read_to_string(&summary)
            .unwrap()
            .contains("chain/b")
    );
    assert_eq!(checkout_state(&fx.dir), before, "the checkout is as it was");
    assert!(
        !git(&fx.dir, &["worktree", "list"]).contains("worktrees"),
        "the worktree is gone"
    );

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

    // A revision that is not there: one line, a hint, exit 2.
    let missing = fx.nbench(&["--compare-rev", "no-such-branch"]);
    assert_eq!(missing.code, 2, "{}", missing.all());
    assert!(
        missing
            .stderr
            .contains("git revision `no-such-branch` not found")
            && missing.stderr.contains("fetch-depth: 0"),
        "{}",
        missing.stderr
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
        run.stderr.contains("is not in a git repository"),
        "{}",
        run.stderr
    );
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
    assert_eq!(blocks.len(), 2, "GitHub Actions and GitLab CI");
    for block in &blocks {
        let parsed = yaml_rust2::YamlLoader::load_from_str(block)
            .unwrap_or_else(|e| panic!("not YAML: {e}\n{block}"));
        assert_eq!(parsed.len(), 1, "{block}");
        // The command the tests above run, with the flags they check.
        let command = block
            .lines()
            .find(|l| l.contains("cargo nbench --compare-rev"))
            .unwrap_or_else(|| panic!("no compare command in\n{block}"));
        for flag in ["--compare-rev", "--fail-on-regression", "--summary"] {
            assert!(command.contains(flag), "{command}");
        }
    }
    // The history the revision needs.
    assert!(blocks[0].contains("fetch-depth: 0"));
    assert!(blocks[1].contains("GIT_DEPTH: \"0\""));
    let gh = &yaml_rust2::YamlLoader::load_from_str(&blocks[0]).unwrap()[0];
    let steps = gh["jobs"]["bench"]["steps"].as_vec().expect("steps");
    assert!(
        steps
            .iter()
            .any(|s| s["uses"].as_str() == Some("actions/cache@v4"))
    );
}
