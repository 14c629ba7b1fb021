//! Shapes real repositories have (`tests/fixtures/shapes`): a package that is in its own
//! dependency graph in two versions, a virtual workspace whose benches are a package of their
//! own, bench targets of one name in two packages, `required-features`, a build script, a bench
//! file in a subfolder, `.cargo/config.toml` with rustflags and a target directory, a custom
//! `[profile.bench]`, and a dependency by relative path outside the repository; each through a
//! run, `--save-baseline`, `--compare`, `--compare-rev` and `compare --rev`.

use crate::helpers::{Fixture, Run, git};
use serde_json::Value;

/// Tiny limits: these runs check what is built and compared, not numbers.
const TINY: &[&str] = &[
    "--layouts",
    "2",
    "--epochs",
    "2",
    "--warm-up",
    "5ms",
    "--min-time",
    "10ms",
    "--max-time",
    "40ms",
];

fn shapes() -> Fixture {
    let fx = Fixture::new("shapes").projects_target_dir();
    let ws = fx.dir.join("ws");
    std::fs::write(ws.join(".gitignore"), "build-out/\nCargo.lock\n").unwrap();
    git(&ws, &["init", "--quiet", "--initial-branch", "main"]);
    git(&ws, &["add", "."]);
    git(&ws, &["commit", "--quiet", "-m", "first"]);
    fx
}

fn nbench(fx: &Fixture, args: &[&str]) -> Run {
    let args: Vec<&str> = TINY.iter().chain(args).copied().collect();
    fx.nbench_in("ws", &args)
}

fn json(run: &Run) -> Value {
    assert_eq!(run.code, 0, "{}", run.all());
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.all()))
}

/// `package/target` → its benchmarks' ids, from a run's JSON.
fn measured(doc: &Value) -> Vec<(String, Vec<String>)> {
    doc["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let ids = t["benchmarks"].as_array().unwrap().iter();
            let ids = ids.map(|b| b["id"].as_str().unwrap().to_owned()).collect();
            (t["target"].as_str().unwrap().to_owned(), ids)
        })
        .collect()
}

/// Each compared target's verdicts, `package/target` → (id, verdict).
fn verdicts(doc: &Value) -> Vec<(String, Vec<(String, String)>)> {
    doc["comparison"]["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let rows = t["rows"].as_array().unwrap().iter().map(|r| {
                (
                    r["id"].as_str().unwrap().to_owned(),
                    r["verdict"].as_str().unwrap().to_owned(),
                )
            });
            (t["target"].as_str().unwrap().to_owned(), rows.collect())
        })
        .collect()
}

#[test]
fn the_shapes_of_real_repositories_run_save_compare_and_compare_revisions() {
    let fx = shapes();
    let ws = fx.dir.join("ws");
    // cargo itself cannot take the bare name: two versions of `twice` are in the graph.
    let cargo = fx.cargo(&[
        "bench",
        "--no-run",
        "--manifest-path",
        "ws/Cargo.toml",
        "-p",
        "twice",
    ]);
    assert!(cargo.stderr.contains("ambiguous"), "{}", cargo.all());

    let list = fx.nbench_in("ws", &["--workspace", "--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    assert_eq!(
        list.stdout.lines().collect::<Vec<_>>(),
        [
            "twice/speed: work",
            "twice/speed: old",
            "suite/speed: suite_work"
        ],
        "{}",
        list.all()
    );
    assert!(
        list.stderr.contains(
            "skipped bench target `suite/gated`: its required features are off: add `--features gate`"
        ),
        "{}",
        list.all()
    );
    // `suite` alone: `twice`'s feature `extra` that `tools` turns on is off.
    let gated = fx.nbench_in(
        "ws",
        &["-p", "suite", "--features", "gate,twice/extra", "--list"],
    );
    assert!(
        gated.stdout.contains("suite/gated: gated_work"),
        "{}",
        gated.all()
    );

    // A run: same-named targets apart, the config's target directory used.
    let run = json(&nbench(&fx, &["--workspace", "--format", "json"]));
    let twice = (
        "twice/speed".to_owned(),
        vec!["work".to_owned(), "old".to_owned()],
    );
    let suite = ("suite/speed".to_owned(), vec!["suite_work".to_owned()]);
    assert_eq!(measured(&run), [twice.clone(), suite.clone()]);
    assert_eq!(
        run["skipped"][0]["target"], "suite/gated",
        "{}",
        run["skipped"]
    );
    let build = &run["context"]["build"];
    assert_eq!(
        build["rustflags"],
        serde_json::json!(["--cfg", "shapes_flag"]),
        "{build}"
    );
    // Its bench profile chose its codegen units: none added.
    assert!(
        !build["added"].to_string().contains("codegen-units"),
        "{build}"
    );
    assert!(ws.join("build-out/nbench/runs").is_dir());
    assert!(
        !ws.join("target").exists(),
        "the configured target-dir is used"
    );

    // A baseline, then a comparison with it.
    let saved = nbench(&fx, &["--workspace", "--save-baseline", "base"]);
    assert_eq!(saved.code, 0, "{}", saved.all());
    let compared = json(&nbench(
        &fx,
        &["--workspace", "--compare", "base", "--format", "json"],
    ));
    let names: Vec<String> = verdicts(&compared).into_iter().map(|(t, _)| t).collect();
    assert_eq!(names, ["twice/speed", "suite/speed"]);
    assert_eq!(compared["comparison"]["warnings"], serde_json::json!([]));

    // The revision, with its dependency outside the repository.
    let rev = json(&nbench(
        &fx,
        &["--workspace", "--compare-rev", "HEAD", "--format", "json"],
    ));
    let rows: usize = verdicts(&rev).iter().map(|(_, r)| r.len()).sum();
    assert_eq!(rows, 3, "{}", rev["comparison"]);
    let layouts = &rev["comparison"]["targets"][0]["layouts"];
    assert_eq!(
        layouts,
        &serde_json::json!([2, 2]),
        "the revision has the layouts asked for"
    );

    // Two revisions, one package's one target; its feature that `tools`
    // turns on is off with that package alone, as under `cargo bench -p`.
    let two = json(&nbench(
        &fx,
        &[
            "compare",
            "--rev",
            "HEAD",
            "HEAD",
            "-p",
            "twice",
            "--features",
            "extra",
            "--bench",
            "speed",
            "--format",
            "json",
        ],
    ));
    assert_eq!(verdicts(&two).len(), 1, "{}", two["comparison"]);
    assert_eq!(verdicts(&two)[0].0, "twice/speed");
    let layouts = &two["comparison"]["targets"][0]["layouts"];
    assert_eq!(
        layouts,
        &serde_json::json!([2, 2]),
        "revisions built as --layouts says"
    );
    assert_eq!(
        git(&ws, &["worktree", "list"]).lines().count(),
        1,
        "no worktree left"
    );
}
