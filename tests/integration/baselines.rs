//! Baselines end to end: save, merge, list/show/delete, names, corruption, paired and stored comparison.

use crate::helpers::{Fixture, PAIRED, QUICK, Run, files_under};

fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["-p", "tunable"];
    v.extend_from_slice(QUICK);
    v.extend_from_slice(extra);
    v
}

fn paired_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["-p", "tunable"];
    v.extend_from_slice(PAIRED);
    v.extend_from_slice(extra);
    v
}

/// Saves `work/sum/1000` of the `tunable` package as baseline `name`.
fn save_sum(fx: &Fixture, name: &str) {
    let run = fx.nbench(&args(&[
        "work/sum/1000",
        "--exact",
        "--save-baseline",
        name,
    ]));
    assert_eq!(run.code, 0, "{}", run.all());
}

fn results(fx: &Fixture, name: &str) -> std::path::PathBuf {
    fx.dir
        .join("target/nbench/baselines")
        .join(name)
        .join("results.json")
}

/// The first target's comparison in a `--format json` run, checked to be
/// against stored samples for the reason given.
fn unpaired_target(run: &Run, because: &str) -> serde_json::Value {
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let t = doc["comparison"]["targets"][0].clone();
    let why = t["unpaired_because"].as_str().unwrap_or_default();
    assert!(why.contains(because), "{t}");
    t
}

#[test]
fn save_merge_list_show_delete() {
    let fx = Fixture::new("workspace").own_target_dir();
    save_sum(&fx, "main");
    let run = fx.nbench(&args(&[
        "work/sum/2000",
        "--exact",
        "--save-baseline",
        "main",
    ]));
    assert_eq!(run.code, 0, "{}", run.all());

    // A name longer than the column's usual width.
    let long = "main-before-the-allocator-change";
    save_sum(&fx, long);

    let list = fx.nbench(&["baseline", "list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    let row = list.line("main ");
    assert!(
        row.trim_end().ends_with(" 2"),
        "both filtered saves are kept: {row}"
    );
    // Every row's date starts under the header's.
    let lines: Vec<&str> = list.stdout.lines().collect();
    let date = lines[0].find("date").unwrap();
    assert!(date > long.len(), "{}", list.stdout);
    for l in &lines[1..] {
        assert!(
            l[date..].starts_with("20") && l[..date].ends_with("  "),
            "{}",
            list.stdout
        );
    }

    let show = fx.nbench(&["baseline", "show", "main"]);
    assert!(
        show.stdout.contains("work/sum/1000") && show.stdout.contains("work/sum/2000"),
        "{}",
        show.stdout
    );
    assert!(show.stdout.contains("executable saved"));
    let bins = std::fs::read_dir(fx.dir.join("target/nbench/baselines/main/bin"))
        .unwrap()
        .count();
    // The second save replaced the first one's files: the 16 link layouts
    // of the one target, its executable the first of them (the build
    // linked it so: one file).
    assert_eq!(
        bins, 16,
        "the one target's layouts, its executable among them"
    );

    // A build whose every benchmark fails, saved over it: the failure is
    // said, and the executables that made the saved benchmarks stay.
    let saved = |fx: &Fixture| {
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(results(fx, "main")).unwrap()).unwrap();
        (doc["executables"].clone(), doc["layouts"].clone())
    };
    let before = saved(&fx);
    fx.edit(
        "tunable/src/lib.rs",
        "let mut acc = 0u64;",
        "let mut acc = if n > 0 { panic!(\"a broken build\") } else { 0u64 };",
    );
    let broken = fx.nbench(&args(&["work/sum/", "--save-baseline", "main"]));
    assert_eq!(broken.code, 1, "{}", broken.all());
    assert!(broken.stderr.contains("a broken build"), "{}", broken.all());
    assert_eq!(saved(&fx), before);
    let show = fx.nbench(&["baseline", "show", "main"]);
    assert!(show.stdout.contains("work/sum/2000"), "{}", show.stdout);

    // The subcommands take cargo's --target-dir and --manifest-path too.
    let elsewhere = fx.nbench(&["baseline", "list", "--target-dir", "elsewhere"]);
    assert_eq!(elsewhere.code, 0, "{}", elsewhere.all());
    assert!(elsewhere.stderr.contains("no baselines saved yet"));
    let manifest = fx.dir.join("Cargo.toml");
    let from_outside = Run::exe(
        std::path::Path::new(env!("CARGO_BIN_EXE_cargo-nbench")),
        &std::env::temp_dir(),
        &[
            "nbench",
            "baseline",
            "show",
            "main",
            "--manifest-path",
            manifest.to_str().unwrap(),
            "--target-dir",
            fx.dir.join("target").to_str().unwrap(),
        ],
    );
    assert_eq!(from_outside.code, 0, "{}", from_outside.all());
    assert!(from_outside.stdout.contains("work/sum/2000"));

    let del = fx.nbench(&["baseline", "delete", "main"]);
    assert_eq!(del.code, 0, "{}", del.all());
    assert!(!results(&fx, "main").exists());
    let again = fx.nbench(&["baseline", "delete", "main"]);
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("no baseline named `main`"),
        "{}",
        again.stderr
    );
}

#[test]
fn bad_names_are_refused_before_anything_is_written() {
    let fx = Fixture::new("workspace").own_target_dir();
    let before = files_under(&fx.dir.join("target"));
    for name in ["../x", "a/b", ".hidden", ""] {
        let run = fx.nbench(&args(&["--save-baseline", name]));
        assert_eq!(run.code, 2, "{name}: {}", run.all());
        // The name and the flag named once, by clap, and what a name may hold.
        let said = format!(
            "error: invalid value '{name}' for '--save-baseline <NAME>': use 1 to 64 letters"
        );
        assert!(run.stderr.starts_with(&said), "{}", run.stderr);
    }
    // `compare A B` takes names or, with --rev, revisions: it names the value itself.
    let run = fx.nbench(&["compare", "../x", "main"]);
    assert_eq!(run.code, 2, "{}", run.all());
    let said = "error: invalid baseline name '../x': use 1 to 64 letters";
    assert!(run.error_line().starts_with(said), "{}", run.stderr);
    assert_eq!(
        files_under(&fx.dir.join("target")),
        before,
        "nothing was built or written"
    );
}

#[test]
fn a_corrupt_baseline_is_reported_and_left_alone() {
    let fx = Fixture::new("workspace").own_target_dir();
    let path = results(&fx, "main");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{ not json").unwrap();
    for extra in [["--save-baseline", "main"], ["--compare", "main"]] {
        let run = fx.nbench(&args(&extra));
        assert_eq!(run.code, 2, "{}", run.all());
        let first = run.error_line();
        assert!(
            first.contains("results.json") && first.contains("corrupt"),
            "{}",
            run.stderr
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{ not json",
            "the file was touched"
        );
    }
}

#[test]
fn a_held_baseline_is_refused() {
    use std::io::Write;
    let fx = Fixture::new("workspace").own_target_dir();
    let dir = fx.dir.join("target/nbench/baselines");
    std::fs::create_dir_all(&dir).unwrap();
    // Held (an operating-system lock, as a running cargo nbench holds it): refused.
    let me = std::process::id().to_string();
    let mut held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(dir.join(".main.lock"))
        .unwrap();
    held.try_lock().unwrap();
    write!(held, "{me}").unwrap();
    let run = fx.nbench(&args(&["--save-baseline", "main"]));
    assert_eq!(run.code, 5, "{}", run.all());
    let expected = format!("baseline `main` is in use by another cargo nbench (pid {me})");
    assert!(run.stderr.contains(&expected), "{}", run.stderr);
    assert!(!results(&fx, "main").exists());
    drop(held);
    // A lock file nobody holds never blocks, whatever it says: empty, or the
    // pid of an unrelated live process (a crashed run's file, pid reused).
    for stale in ["", "1"] {
        std::fs::write(dir.join(".main.lock"), stale).unwrap();
        let run = fx.nbench(&args(&["--save-baseline", "main"]));
        assert_eq!(run.code, 0, "{stale:?}: {}", run.all());
        assert!(results(&fx, "main").exists());
    }
}

#[test]
fn paired_comparison_catches_a_real_slowdown_and_falls_back_to_stored_samples() {
    let fx = Fixture::new("workspace").own_target_dir();
    let save = fx.nbench(&args(&["--save-baseline", "base"]));
    assert_eq!(save.code, 0, "{}", save.all());

    // Twice the work: every benchmark must be called regressed, measured paired.
    let slow = fx.nbench(&paired_args(&[
        "--features",
        "slow",
        "--compare",
        "base",
        "--fail-on-regression",
    ]));
    assert_eq!(slow.code, 4, "{}", slow.all());
    for id in ["work/sum/1000 ", "work/sum/2000 "] {
        let row = slow.line(id);
        assert!(row.contains("regressed") && row.contains("paired"), "{row}");
    }
    assert!(
        slow.stdout.contains("compared with `base`: 2 regressed"),
        "{}",
        slow.stdout
    );

    // Without the executables the comparison uses the stored samples, and says so.
    // Its verdict is not asserted: unpaired numbers taken at different times
    // are exactly what a busy machine skews (the verdict rules have unit tests).
    let stored_medians: serde_json::Value =
        serde_json::from_slice(&std::fs::read(results(&fx, "base")).unwrap()).unwrap();
    std::fs::remove_dir_all(fx.dir.join("target/nbench/baselines/base/bin")).unwrap();
    let stored = fx.nbench(&args(&[
        "--features",
        "slow",
        "--compare",
        "base",
        "--format",
        "json",
    ]));
    assert_eq!(stored.code, 0, "no --fail-on-regression: {}", stored.all());
    let t = &unpaired_target(&stored, "no saved executable");
    let rows = t["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{t}");
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["kind"], "stored");
        let p = row["p_value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{row}");
        let (lo, mid, hi) = (
            row["change_ci"][0].as_f64().unwrap(),
            row["change"].as_f64().unwrap(),
            row["change_ci"][1].as_f64().unwrap(),
        );
        assert!(lo <= mid && mid <= hi, "{row}");
        let saved = &stored_medians["run"]["targets"][0]["benchmarks"][i];
        assert_eq!(row["id"], saved["id"]);
        assert_eq!(
            row["baseline_ns"], saved["median_ns"],
            "the baseline side is the stored median"
        );
    }
    let console = fx.nbench(&args(&["--features", "slow", "--compare", "base"]));
    let asked = fx.nbench(&args(&["--compare", "base", "--compare-stored"]));
    assert!(
        asked.stdout.contains(
            "compared with stored samples (less certain): asked for with --compare-stored"
        ),
        "{}",
        asked.stdout
    );
    assert!(
        console
            .stdout
            .contains("compared with stored samples (less certain)"),
        "{}",
        console.stdout
    );
}

fn runs_stored(fx: &Fixture) -> usize {
    std::fs::read_dir(fx.dir.join("target/nbench/runs")).map_or(0, |d| d.count())
}

#[test]
fn compare_two_saved_baselines() {
    let fx = Fixture::new("workspace").own_target_dir();
    for (name, features) in [("fast", "extra"), ("slow", "slow")] {
        let run = fx.nbench(&args(&["--features", features, "--save-baseline", name]));
        assert_eq!(run.code, 0, "{}", run.all());
    }
    let before = runs_stored(&fx);
    let summary = fx.dir.join("summary.md");
    let summary_arg = summary.to_str().unwrap();
    let page = fx.dir.join("compared.html");

    // Nothing is built: the saved executables are run in lockstep.
    let cmp = fx.nbench(
        &[
            &["compare", "fast", "slow", "--fail-on-regression"][..],
            &["--summary", summary_arg, "--out", page.to_str().unwrap()],
            PAIRED,
        ]
        .concat(),
    );
    assert_eq!(cmp.code, 4, "{}", cmp.all());
    assert!(!cmp.stderr.contains("Compiling"), "{}", cmp.stderr);
    for id in ["work/sum/1000 ", "work/sum/2000 "] {
        let row = cmp.line(id);
        assert!(row.contains("regressed") && row.contains("paired"), "{row}");
    }
    assert!(cmp.line("extra ").contains("gone"), "{}", cmp.stdout);
    assert_eq!(runs_stored(&fx), before, "compare A B adds no stored run");
    // Its HTML page, though no run is stored: both rows' verdicts.
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("Compared with baseline"), "{html}");
    for id in ["work/sum/1000", "work/sum/2000"] {
        let card = html.split(id).nth(1).unwrap_or_default();
        assert!(card.contains("regressed"), "{id}: {html}");
    }

    // The other way round, as Markdown on stdout, filtered: `extra` is new.
    let md = fx.nbench(
        &[
            &["compare", "slow", "fast", "--format", "markdown"][..],
            PAIRED,
        ]
        .concat(),
    );
    assert_eq!(md.code, 0, "{}", md.all());
    assert!(md.stdout.contains("### nbench: compared with `slow`"));
    assert!(
        md.stdout
            .contains("| benchmark | baseline | current | change | 95% CI | p (BH) | verdict |"),
        "{}",
        md.stdout
    );
    let row = md.line("| `work/sum/1000` |");
    assert!(row.contains("improved"), "{}", md.stdout);
    // New, with the time B's executable took for it in this run.
    let extra = md.line("| `extra` | | ");
    let time = extra.split('|').nth(3).unwrap_or_default().trim();
    assert!(extra.ends_with(" | | | | new |"), "{}", md.stdout);
    assert!(
        time.split(' ')
            .next()
            .is_some_and(|t| t.parse::<f64>().is_ok()),
        "{extra}"
    );

    // Without B's executables both sides' stored samples are compared.
    std::fs::remove_dir_all(fx.dir.join("target/nbench/baselines/slow/bin")).unwrap();
    let stored = fx.nbench(&["compare", "fast", "slow", "work/sum/1000", "--format=json"]);
    assert_eq!(stored.code, 0, "{}", stored.all());
    let t = &unpaired_target(&stored, "baseline `slow` has no saved executable");
    let rows = t["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "the filter leaves one benchmark: {t}");
    assert_eq!(rows[0]["kind"], "stored");

    let missing = fx.nbench(&["compare", "fast", "nope"]);
    assert_eq!(missing.code, 2, "{}", missing.all());
    assert!(missing.stderr.contains("no baseline named `nope`"));

    // --summary appended the Markdown table.
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(
        text.contains("| `work/sum/2000` |") && text.contains("**regressed**"),
        "{text}"
    );
}

#[test]
fn filtered_baselines_compare_only_what_they_hold() {
    let fx = Fixture::new("workspace").own_target_dir();
    for (name, features) in [("a", "extra"), ("b", "slow")] {
        let save = args(&[
            "--features",
            features,
            "--save-baseline",
            name,
            "work/sum/1000",
        ]);
        let run = fx.nbench(&save);
        assert_eq!(run.code, 0, "{}", run.all());
    }
    // Both hold one benchmark; their executables register three.
    let cmp = fx.nbench(&[&["compare", "a", "b", "--format", "json"][..], PAIRED].concat());
    let doc = cmp.json();
    let measured: Vec<_> = doc["targets"][0]["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].clone())
        .collect();
    assert_eq!(measured, ["work/sum/1000"], "{}", cmp.stdout);
    // The machine as it is, not as the pinned driver sees it; and its name.
    let cores = std::thread::available_parallelism().unwrap().get();
    assert_eq!(doc["context"]["cores"], cores, "{}", doc["context"]);
    let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    assert_eq!(
        doc["context"]["hostname"],
        hostname.trim(),
        "{}",
        doc["context"]
    );
    let console = fx.nbench(&[&["compare", "a", "b"][..], PAIRED].concat());
    let label = if cores == 1 {
        "1 core ".to_owned()
    } else {
        format!("{cores} cores ")
    };
    assert!(console.stdout.contains(&label), "{}", console.stdout);
    let t = &doc["comparison"]["targets"][0];
    assert_eq!(t["rows"].as_array().unwrap().len(), 1, "{t}");
    assert_eq!(t["new"], serde_json::json!([]), "{t}");
    assert_eq!(t["gone"], serde_json::json!([]), "{t}");

    // A benchmark the baseline's results lack is new, even though its
    // executable registers it; nothing was compared with stored samples.
    let other = fx.nbench(&paired_args(&[
        "--compare",
        "a",
        "work/sum/2000",
        "--format",
        "json",
    ]));
    let doc = other.json();
    let t = &doc["comparison"]["targets"][0];
    assert_eq!(t["new"], serde_json::json!(["work/sum/2000"]), "{t}");
    assert_eq!(t["rows"], serde_json::json!([]), "{t}");
    assert!(t["unpaired_because"].is_null(), "{t}");

    // An id its executable registers no more (one made from the time the
    // suite started, say): not compared, and said why.
    let path = results(&fx, "b");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    doc["run"]["targets"][0]["benchmarks"][0]["id"] = "work/sum/1000/12:03:40".into();
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let cmp = fx.nbench(&[&["compare", "a", "b", "--format", "json"][..], PAIRED].concat());
    let doc = cmp.json();
    let t = &doc["comparison"]["targets"][0];
    assert_eq!(t["not_compared"][0]["id"], "work/sum/1000/12:03:40", "{t}");
    let why = t["not_compared"][0]["reason"].as_str().unwrap();
    assert!(why.contains("registers it no more"), "{why}");
    assert_eq!(t["gone"], serde_json::json!(["work/sum/1000"]), "{t}");

    // Where the baseline's own id of it differs in its digits alone (the
    // time each run started, as chrono's), it is said once, not also gone.
    let path = results(&fx, "a");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let ids = doc["run"]["targets"][0]["benchmarks"]
        .as_array_mut()
        .unwrap();
    let sum = ids.iter_mut().find(|b| b["id"] == "work/sum/1000").unwrap();
    sum["id"] = "work/sum/1000/12:03:31".into();
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let cmp = fx.nbench(&[&["compare", "a", "b", "--format", "json"][..], PAIRED].concat());
    let doc = cmp.json();
    let t = &doc["comparison"]["targets"][0];
    let why = t["not_compared"][0]["reason"].as_str().unwrap();
    assert!(
        why.contains("the baseline saved `work/sum/1000/12:03:31`"),
        "{why}"
    );
    assert_eq!(t["gone"], serde_json::json!([]), "{t}");
}

#[test]
fn new_gone_and_a_baseline_from_another_machine() {
    let fx = Fixture::new("workspace").own_target_dir();
    let save = fx.nbench(&args(&["--features", "extra", "--save-baseline", "base"]));
    assert_eq!(save.code, 0, "{}", save.all());
    // Pretend the baseline was made elsewhere.
    let path = results(&fx, "base");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    doc["run"]["context"]["cpu_model"] = "Imaginary CPU 9000".into();
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();

    let cmp = fx.nbench(&args(&["--compare", "base"]));
    assert_eq!(cmp.code, 0, "{}", cmp.all());
    assert!(
        cmp.line("warning: ")
            .contains("the baseline was made with another CPU model: Imaginary CPU 9000"),
        "{}",
        cmp.stdout
    );
    assert!(cmp.line("extra ").contains("gone (only in the baseline)"));
    for id in ["work/sum/1000 ", "work/sum/2000 "] {
        assert!(cmp.line(id).contains("paired"), "{}", cmp.stdout);
    }

    let save = fx.nbench(&args(&["--save-baseline", "small"]));
    assert_eq!(save.code, 0, "{}", save.all());
    let cmp = fx.nbench(&args(&["--features", "extra", "--compare", "small"]));
    assert!(
        cmp.line("extra ").contains("new (not in the baseline)"),
        "{}",
        cmp.stdout
    );
    assert!(
        !cmp.stdout.contains("warning: "),
        "same machine: {}",
        cmp.stdout
    );
}

#[test]
fn an_id_the_baseline_saved_but_no_executable_lists_now_is_gone() {
    // As an id made at run time (a date) would be: saved under one name,
    // listed by both executables under another.
    let fx = Fixture::new("workspace").own_target_dir();
    let save = fx.nbench(&args(&["--save-baseline", "base", "work/sum/"]));
    assert_eq!(save.code, 0, "{}", save.all());
    let path = results(&fx, "base");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"work/sum/1000\""), "{text}");
    std::fs::write(&path, text.replace("\"work/sum/1000\"", "\"work/sum/999\"")).unwrap();

    let cmp = fx.nbench(&args(&["--compare", "base", "work/sum/"]));
    assert_eq!(cmp.code, 0, "{}", cmp.all());
    for (id, says) in [
        ("work/sum/999 ", "gone (only in the baseline)"),
        ("work/sum/1000 ", "new (not in the baseline)"),
        ("work/sum/2000 ", "paired"),
    ] {
        assert!(cmp.line(id).contains(says), "{id}: {}", cmp.stdout);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_save_leaves_the_previous_baseline_intact() {
    let fx = Fixture::new("workspace").own_target_dir();
    let save = fx.nbench(&args(&["--save-baseline", "main"]));
    assert_eq!(save.code, 0, "{}", save.all());
    let dir = fx.dir.join("target/nbench/baselines/main");
    let snapshot = |dir: &std::path::Path| -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<_> = std::fs::read_dir(dir.join("bin"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .chain([dir.join("results.json")])
            .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
            .collect();
        files.sort();
        files
    };
    let before = snapshot(&dir);

    // A slower build saving into the same baseline, killed while it measures.
    let mut child = fx
        .nbench_command(&[
            "-p",
            "tunable",
            "--features",
            "slow",
            "--save-baseline",
            "main",
            "--max-time",
            "5s",
            "--min-time",
            "5s",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let measuring = crate::helpers::wait_for(std::time::Duration::from_secs(120), || {
        crate::helpers::children(child.id())
            .iter()
            .any(|c| c.contains("tunable-"))
    });
    // TERM, not INT: a test suite started in the background by a
    // non-interactive shell inherits SIGINT ignored, and INT would do nothing.
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    assert!(measuring, "the run never started measuring");
    assert!(!status.success());

    assert_eq!(snapshot(&dir), before, "the saved baseline changed");
    let show = fx.nbench(&["baseline", "show", "main"]);
    assert_eq!(show.code, 0, "{}", show.all());
    // The killed run's lock is stale: the next save takes it over.
    let again = fx.nbench(&args(&["--save-baseline", "main"]));
    assert_eq!(again.code, 0, "{}", again.all());
}

#[test]
fn numbers_json_cannot_hold_read_back_as_n_a() {
    let fx = Fixture::new("workspace").own_target_dir();
    let saved = fx.nbench(&args(&["--save-baseline", "main"]));
    assert_eq!(saved.code, 0, "{}", saved.all());
    // An older cargo nbench wrote an infinite interval (a median below the
    // clock's step) as `null`, in the baseline and in the stored run.
    let runs = fx.dir.join("target/nbench/runs");
    let run_file = std::fs::read_dir(&runs)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    for file in [results(&fx, "main"), run_file] {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let targets = match doc.get_mut("run") {
            Some(run) => &mut run["targets"],
            None => &mut doc["targets"],
        };
        let bench = &mut targets[0]["benchmarks"][0];
        bench["median_ci_ns"][1] = serde_json::Value::Null;
        bench["mean_ns"] = serde_json::Value::Null;
        std::fs::write(&file, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    }
    let show = fx.nbench(&["baseline", "show", "main"]);
    assert_eq!(show.code, 0, "{}", show.all());
    assert!(show.stdout.contains("n/a"), "{}", show.all());
    let compared = fx.nbench(&args(&["--compare", "main", "--compare-stored"]));
    assert_eq!(compared.code, 0, "{}", compared.all());
    let report = fx.nbench(&["report"]);
    assert_eq!(report.code, 0, "{}", report.all());
    assert!(
        !report.stderr.contains("left stored run"),
        "{}",
        report.all()
    );
    // Saving again over it still writes a file that reads back.
    let again = fx.nbench(&args(&["--save-baseline", "main"]));
    assert_eq!(again.code, 0, "{}", again.all());
    let list = fx.nbench(&["baseline", "list"]);
    assert!(list.stdout.contains("main"), "{}", list.all());
}

#[test]
fn a_baseline_runs_the_package_binary_it_was_built_with() {
    // The benchmark runs the package's `work` binary by the path cargo
    // gave it; the next build writes a new `work` to that path. Before
    // baselines kept their own copy, 4× the steps compared as unchanged:
    // both sides ran the new binary. The path's last 8 bytes are copied as
    // a constant in the benchmark's code, at a length 7 past a multiple
    // of 16: the copy's path ends as the binary's does.
    let work = "target/nbench/build/release/work";
    let fx = Fixture::with_path_length("own_bin", work, 7).own_target_dir();
    let paired = |extra: &[&str]| fx.nbench(&[PAIRED, extra].concat());
    let save = paired(&["--save-baseline", "before"]);
    assert_eq!(save.code, 0, "{}", save.all());
    fx.edit(
        "src/bin/work.rs",
        "const STEPS: u64 = 1_000_000;",
        "const STEPS: u64 = 4_000_000;",
    );
    let run = paired(&["--compare", "before", "--format", "json"]);
    let doc = run.json();
    let row = &doc["comparison"]["targets"][0]["rows"][0];
    // Each iteration starts a process: on a machine busy with other tests
    // the interval may reach below 0 (−3 … +296 % once), and the row is
    // `inconclusive`; the same binary on both sides would read about 0.
    assert!(
        ["regressed", "inconclusive"].contains(&row["verdict"].as_str().unwrap()),
        "{row}"
    );
    assert!(row["change"].as_f64().unwrap() > 0.5, "{row}");
    // The copy the baseline runs sits beside the build's binary; the
    // working tree's binary is the new one.
    let kept_dir = fx.dir.join("target/nbench/build/r");
    let kept = files_under(&kept_dir);
    assert_eq!(kept.len(), 1, "{kept:?}");
    // Copies are shared by content and removed with the last baseline
    // naming them: `after` and `again` name one copy, `before` another.
    for name in ["after", "again"] {
        let save = paired(&["--save-baseline", name]);
        assert_eq!(save.code, 0, "{}", save.all());
    }
    let paths = |files: Vec<(std::path::PathBuf, std::time::SystemTime)>| -> Vec<_> {
        files.into_iter().map(|(p, _)| p).collect()
    };
    let mut theirs = paths(files_under(&kept_dir));
    assert_eq!(theirs.len(), 2, "{theirs:?}");
    theirs.retain(|p| *p != kept[0].0);
    let delete = |name: &str| {
        let out = fx.nbench(&["baseline", "delete", name]);
        assert_eq!(out.code, 0, "{}", out.all());
        paths(files_under(&kept_dir))
    };
    assert_eq!(delete("before"), theirs, "before's copy goes");
    // A baseline saved before baselines listed their copies has its
    // executables read instead.
    let again = fx.dir.join("target/nbench/baselines/again/results.json");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&again).unwrap()).unwrap();
    let listed = doc.as_object_mut().unwrap().remove("kept_bins");
    assert!(listed.is_some(), "{doc}");
    std::fs::write(&again, serde_json::to_vec(&doc).unwrap()).unwrap();
    assert_eq!(delete("after"), theirs, "again's executables still name it");
    // Its benchmark still runs: a missing copy would fail it.
    let after = fx.nbench(&["--compare", "again", "--format", "json"]);
    assert_eq!(after.code, 0, "{}", after.all());
    let row = &after.json()["comparison"]["targets"][0]["rows"][0];
    assert!(row["change"].is_f64(), "{row}");
}

#[test]
fn prune_deletes_the_baselines_no_comparison_used_for_a_while() {
    let fx = Fixture::new("workspace").own_target_dir();
    for name in ["named", "rev-old", "rev-new", "rev-compared"] {
        save_sum(&fx, name);
    }
    // Saved ten days ago, as far as their files say.
    let ten_days_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(10 * 86_400);
    for name in ["named", "rev-old", "rev-compared"] {
        let file = std::fs::File::options()
            .write(true)
            .open(results(&fx, name))
            .unwrap();
        file.set_modified(ten_days_ago).unwrap();
    }
    // A comparison uses a baseline: it is kept.
    let compared = fx.nbench(&args(&[
        "work/sum/1000",
        "--exact",
        "--compare",
        "rev-compared",
    ]));
    assert_eq!(compared.code, 0, "{}", compared.all());
    let names = || {
        let list = fx.nbench(&["baseline", "list"]);
        let mut names: Vec<String> = (list.stdout.lines().skip(1))
            .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
            .collect();
        names.sort();
        names
    };
    let prune = fx.nbench(&["baseline", "prune", "--older-than", "7d"]);
    assert_eq!(prune.code, 0, "{}", prune.all());
    assert!(
        prune
            .stderr
            .contains("deleted baseline `rev-old` (last used 10 days ago)")
            && prune.stderr.contains("pruned 1 revision baseline (rev-…)"),
        "{}",
        prune.all()
    );
    assert_eq!(names(), ["named", "rev-compared", "rev-new"]);
    let again = fx.nbench(&["baseline", "prune", "--older-than", "7d"]);
    assert!(
        again
            .stderr
            .contains("no revision baseline (rev-…) unused for 7 days"),
        "{}",
        again.all()
    );
    let all = fx.nbench(&["baseline", "prune", "--older-than", "7d", "--all"]);
    assert_eq!(all.code, 0, "{}", all.all());
    assert!(all.stderr.contains("pruned 1 baseline\n"), "{}", all.all());
    assert_eq!(names(), ["rev-compared", "rev-new"]);
    let bad = fx.nbench(&["baseline", "prune", "--older-than", "soon"]);
    assert_eq!(bad.code, 2, "{}", bad.all());
    assert!(
        bad.stderr.contains("expected a duration such as"),
        "{}",
        bad.all()
    );
}

#[test]
fn compare_lists_what_it_would_compare_and_what_one_side_alone_holds() {
    let fx = Fixture::new("workspace").own_target_dir();
    // `a` holds both benchmarks, `b` one of them.
    for (name, ids) in [("a", &["work/sum"][..]), ("b", &["work/sum/2000"][..])] {
        let run = fx.nbench(&args(&[ids, &["--save-baseline", name]].concat()));
        assert_eq!(run.code, 0, "{}", run.all());
    }
    let list = fx.nbench(&["compare", "a", "b", "--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    let lines: Vec<&str> = list.stdout.lines().collect();
    let expected = [
        "tunable/tunable: work/sum/2000",
        "tunable/tunable: work/sum/1000",
    ];
    assert_eq!(lines, expected, "{}", list.all());
    let said = "1 only in `a` (gone), 0 only in `b` (new)";
    assert!(list.stderr.contains(said), "{}", list.all());
    let one = fx.nbench(&["compare", "a", "b", "--list", "2000"]);
    assert_eq!(one.stdout.trim(), expected[0], "{}", one.all());
    assert!(!one.stderr.contains("only in"), "{}", one.all());
    let none = fx.nbench(&["compare", "a", "b", "--list", "9999"]);
    assert_eq!(none.code, 2, "{}", none.all());
    let hint = "`cargo nbench compare a b --list` shows their ids";
    assert!(none.stderr.contains(hint), "{}", none.all());
}
