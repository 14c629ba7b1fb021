//! The benchmark API end to end (fixture `api`): parameter products and names,
//! types, counters, checks, skips and futures — standalone, under `cargo nbench`,
//! in lockstep with a baseline, and in the JSON output.

use crate::helpers::{Fixture, ONE_LAYOUT, QUICK, Run};
use serde_json::Value;

const IDS: [&str; 11] = [
    "grid/fill/rows=2/cols=8",
    "grid/fill/rows=4/cols=8",
    "data/sort/sorted",
    "data/sort/reversed",
    "parse/str/u32",
    "parse/str/f64",
    "counted",
    "checked/right",
    "checked/wrong",
    "gpu",
    "async/sum",
];

fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = extra.to_vec();
    v.extend_from_slice(QUICK);
    v
}

/// [`args`] for a save or a comparison, on one link layout a side: what
/// layouts do is `layouts.rs`'s subject, and each one more is a link.
fn saving<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = args(extra);
    v.extend_from_slice(&ONE_LAYOUT);
    v
}

fn benchmark<'a>(target: &'a Value, id: &str) -> &'a Value {
    target["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == id)
        .unwrap_or_else(|| panic!("{id} not measured: {target:#}"))
}

/// The JSON records of `--bench target` run on its own and paired with the
/// baseline `base`, each with whether it was paired; both must exit with `code`.
fn fresh_and_paired(fx: &Fixture, target: &str, code: i32) -> Vec<(Value, bool)> {
    fresh_and_paired_with(fx, target, code, QUICK)
}

/// [`fresh_and_paired`] with other measurement settings.
fn fresh_and_paired_with(
    fx: &Fixture,
    target: &str,
    code: i32,
    settings: &[&str],
) -> Vec<(Value, bool)> {
    [false, true]
        .into_iter()
        .map(|paired| {
            let mut a = vec!["--bench", target, "--format", "json"];
            a.extend_from_slice(settings);
            if paired {
                a.extend(["--compare", "base"]);
                a.extend(ONE_LAYOUT);
            }
            let run = fx.nbench(&a);
            assert_eq!(run.code, code, "{}", run.all());
            (serde_json::from_str(&run.stdout).unwrap(), paired)
        })
        .collect()
}

/// The ids in a target record's list (`benchmarks`, `failures`, `skipped`).
fn ids<'a>(t: &'a Value, list: &str) -> Vec<&'a str> {
    t[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap())
        .collect()
}

/// The record's benchmarks, failures and skips, as the tests expect them.
fn check_record(t: &Value) {
    let measured = ids(t, "benchmarks");
    let expected: Vec<&str> = IDS
        .iter()
        .copied()
        .filter(|id| !["gpu", "checked/wrong"].contains(id))
        .collect();
    assert_eq!(measured, expected);
    assert_eq!(t["failures"][0]["id"], "checked/wrong");
    assert_eq!(
        t["failures"][0]["reason"],
        "check failed: 6 × 9 is 54, not 42"
    );
    assert_eq!(t["skipped"][0]["id"], "gpu");
    assert_eq!(t["skipped"][0]["reason"], "no GPU on this machine");

    let cells = &benchmark(t, "grid/fill/rows=4/cols=8")["counters"][0];
    assert_eq!(
        (&cells["name"], &cells["kind"], &cells["value"]),
        (
            &Value::from("cells"),
            &Value::from("per_iteration"),
            &Value::from(32.0)
        )
    );
    let counted = benchmark(t, "counted");
    let median = counted["median_ns"].as_f64().unwrap();
    let lookups = &counted["counters"][0];
    assert_eq!(lookups["kind"], "rate");
    // Two lookups an iteration: the rate shown is 2 per median time.
    let shown = lookups["shown"].as_f64().unwrap();
    assert!(
        (shown - 2e9 / median).abs() <= 1e-9 * shown,
        "{shown} vs {median}"
    );
    assert_eq!(counted["counters"][1]["binary"], true);
}

#[test]
fn every_feature_standalone_under_cargo_nbench_and_paired() {
    let fx = Fixture::new("api").own_target_dir();

    // The bench binary on its own: counters in the notes, the skip and the failed check in the table.
    let exe = fx.bench_exe("api");
    let run = Run::exe(&exe, &fx.dir, &args(&["--bench"]));
    assert_eq!(
        run.code,
        101,
        "the failed check fails the run\n{}",
        run.all()
    );
    assert!(
        run.line("grid/fill/rows=2/cols=8 ")
            .contains("  cells/iter 16")
    );
    assert!(run.line("counted ").contains("lookups/s "));
    assert!(run.line("counted ").contains("table 4.00Ki"));
    assert!(
        run.line("gpu ").contains("skipped")
            && run.line("gpu ").ends_with("no GPU on this machine")
    );
    assert!(
        run.line("checked/wrong ")
            .contains("check failed: 6 × 9 is 54, not 42")
    );
    assert!(run.line("async/sum ").contains(" × "));
    assert!(
        run.stdout
            .contains("9 measured; 1 failed; 1 skipped; 0 ignored"),
        "{}",
        run.stdout
    );
    // Test mode runs every check once and reports the skip as libtest does.
    let run = Run::exe(&exe, &fx.dir, &[]);
    assert_eq!(run.code, 101);
    assert!(
        run.stdout
            .contains("test gpu ... ignored, no GPU on this machine")
    );
    assert!(run.stdout.contains("test checked/right ... ok"));
    assert!(run.stdout.contains("test checked/wrong ... FAILED"));

    // Under cargo nbench: counters are columns of the table.
    let run = fx.nbench(&saving(&["--bench", "api", "--save-baseline", "base"]));
    assert_eq!(run.code, 1, "{}", run.all());
    let header = run.line("benchmark ");
    assert!(
        header.ends_with("cells/iter  lookups/s    table  notes"),
        "{header}"
    );
    // A counter's cell ends where its header does (right-aligned), counted in characters.
    let cell_under = |column: &str, row: &str| {
        let chars: Vec<char> = header.chars().collect();
        let at = (0..chars.len())
            .find(|&i| chars[i..].starts_with(&column.chars().collect::<Vec<_>>()[..]))
            .unwrap();
        let end = at + column.chars().count();
        let row: Vec<char> = run.line(row).chars().collect();
        let cell: String = row[..end].iter().collect();
        cell.rsplit(' ').next().unwrap().to_owned()
    };
    assert_eq!(cell_under("table", "counted "), "4.00Ki", "{}", run.stdout);
    assert_eq!(cell_under("cells/iter", "grid/fill/rows=4/cols=8 "), "32");
    assert!(run.line("gpu ").contains("skipped"));
    assert!(
        run.stdout.contains("1 failed; 1 skipped;"),
        "{}",
        run.stdout
    );
    // The HTML report shows the same counters and the skip.
    let page = std::fs::read_to_string(fx.dir.join("target/nbench/report/index.html")).unwrap();
    let card = page.split("<h4>counted</h4>").nth(1).unwrap();
    let card = &card[..card.find("</article>").unwrap()];
    assert!(card.contains("<dt>table</dt><dd>4.00Ki</dd>"), "{card}");
    assert!(card.contains("<dt>lookups/s</dt>"), "{card}");
    assert!(page.contains("gpu skipped: no GPU on this machine"));

    // The JSON record of a fresh run, and of a run paired with the baseline.
    for (doc, paired) in fresh_and_paired(&fx, "api", 1) {
        check_record(&doc["targets"][0]);
        if paired {
            let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
            assert!(
                rows.iter()
                    .any(|r| r["id"] == "counted" && r["kind"] == "paired"),
                "{rows:#?}"
            );
        }
    }
}

/// The allocation counters of every benchmark in a record, `[allocs, deallocs, reallocs, bytes, peak]`.
fn alloc_counts(t: &Value) -> Vec<(String, [f64; 5])> {
    t["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let c = b["counters"].as_array().unwrap();
            let names: Vec<&str> = c.iter().map(|c| c["name"].as_str().unwrap()).collect();
            assert_eq!(names, ["allocs", "deallocs", "reallocs", "bytes", "peak"]);
            let v = |i: usize| c[i]["value"].as_f64().unwrap();
            (
                b["id"].as_str().unwrap().to_owned(),
                [v(0), v(1), v(2), v(3), v(4)],
            )
        })
        .collect()
}

#[test]
fn the_counting_allocator_counts_per_iteration_standalone_and_under_cargo_nbench() {
    let fx = Fixture::new("api").own_target_dir();
    let expected = [
        ("vec100", [1.0, 1.0, 0.0, 100.0, 100.0]),
        ("grow", [1.0, 1.0, 1.0, 32.0, 32.0]),
        ("batched", [0.0, 0.0, 0.0, 0.0, 0.0]),
        ("none", [0.0, 0.0, 0.0, 0.0, 0.0]),
    ]
    .map(|(id, c)| (id.to_owned(), c));

    let exe = fx.bench_exe("allocs");
    let run = Run::exe(&exe, &fx.dir, &args(&["--bench"]));
    assert_eq!(run.code, 0, "{}", run.all());
    let row = run.line("vec100 ");
    assert!(
        // Counters come first in the notes; a remark (time limit, …) may follow.
        row.contains("  allocs/iter 1, deallocs/iter 1, reallocs/iter 0, bytes/iter 100, peak 100"),
        "{row}"
    );

    let run = fx.nbench(&saving(&["--bench", "allocs", "--save-baseline", "base"]));
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(
        run.line("benchmark ")
            .contains("allocs/iter  deallocs/iter  reallocs/iter  bytes/iter     peak")
    );
    for (doc, paired) in fresh_and_paired(&fx, "allocs", 0) {
        assert_eq!(
            alloc_counts(&doc["targets"][0]),
            expected,
            "paired: {paired}"
        );
    }
    // Without the allocator installed there are no allocation columns.
    let run = fx.nbench(&args(&["--bench", "api", "counted"]));
    assert!(!run.stdout.contains("allocs"), "{}", run.stdout);
}

/// The counter named `name` of benchmark `id`: (kind, value).
fn counter(t: &Value, id: &str, name: &str) -> Option<(String, f64)> {
    let b = benchmark(t, id);
    b["counters"]
        .as_array()?
        .iter()
        .find(|c| c["name"] == name)
        .map(|c| {
            (
                c["kind"].as_str().unwrap().to_owned(),
                c["value"].as_f64().unwrap(),
            )
        })
}

#[cfg(target_os = "linux")]
#[test]
fn a_benchmark_with_threads_runs_on_every_cpu_the_rest_on_one() {
    let fx = Fixture::new("api").own_target_dir();
    let log = fx.dir.join("cpus.txt");
    // In the same processes: threads a benchmark started can outlive it a
    // while (a scope's threads are waited for, not joined), and the one
    // measured next must not run spread for them.
    let mut cmd = fx.nbench_command(&args(&["--bench", "threads", "cpus/"]));
    cmd.env("NBENCH_FIXTURE_CPUS", &log);
    let run = Run::from(cmd.output().expect("cargo nbench runs"));
    assert_eq!(run.code, 0, "{}", run.all());
    let noted = std::fs::read_to_string(&log).unwrap();
    let cpus = |what: &str| -> Vec<String> {
        (noted.lines())
            .filter_map(|l| l.strip_prefix(what))
            .map(|c| c.trim().to_owned())
            .collect()
    };
    // The CPUs this test may run on, as the kernel lists them (`0-1`).
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let here = (status.lines())
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim()
        .to_owned();
    let (alone, threads) = (cpus("alone "), cpus("threads "));
    let (spawning, worker) = (cpus("spawning "), cpus("worker "));
    assert!(
        [&alone, &threads, &spawning, &worker]
            .iter()
            .all(|noted| !noted.is_empty()),
        "{noted}"
    );
    // One thread: one CPU, so both sides of a comparison share a core.
    assert!(alone.iter().all(|c| c.parse::<usize>().is_ok()), "{noted}");
    // Two threads: every CPU the test had (on one, they would take turns).
    assert!(threads.iter().all(|c| *c == here), "{here}: {noted}");
    // A thread started by each call: the same, once the first call showed it.
    assert!(spawning.iter().all(|c| *c == here), "{here}: {noted}");
    // A worker its setup started, handed the work: the same.
    assert!(worker.iter().all(|c| *c == here), "{here}: {noted}");
}

#[cfg(target_os = "linux")]
#[test]
fn what_a_benchmark_writes_to_stdout_while_timed_goes_nowhere_unless_shown() {
    let fx = Fixture::new("api");
    let log = fx.dir.join("stdout.txt");
    // Where its stdout went, in each process: (while it set up, while timed).
    let where_to = |extra: &[&str]| -> Vec<(String, String)> {
        let _ = std::fs::remove_file(&log);
        let mut cmd = fx.nbench_command(&args(&[&["--bench", "threads", "out/"], extra].concat()));
        let run = Run::from(cmd.env("NBENCH_FIXTURE_CPUS", &log).output().unwrap());
        assert_eq!(run.code, 0, "{}", run.all());
        let noted = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = noted.lines().collect();
        (lines.chunks(2))
            .map(|two| match two {
                [setup, timed] => (
                    setup.trim_start_matches("setup ").to_owned(),
                    timed.trim_start_matches("timed ").to_owned(),
                ),
                _ => panic!("{noted}"),
            })
            .collect()
    };
    let hidden = where_to(&[]);
    assert!(
        !hidden.is_empty()
            && (hidden.iter()).all(|(s, t)| s.starts_with("pipe:") && t == "/dev/null"),
        "{hidden:?}"
    );
    let shown = where_to(&["--nocapture"]);
    assert!(
        !shown.is_empty() && (shown.iter()).all(|(s, t)| s.starts_with("pipe:") && t == s),
        "{shown:?}"
    );
}

#[test]
fn threads_and_cpu_clocks_standalone_under_cargo_nbench_and_paired() {
    let fx = Fixture::new("api").own_target_dir();
    let exe = fx.bench_exe("threads");
    let run = Run::exe(&exe, &fx.dir, &args(&["--bench"]));
    assert_eq!(run.code, 101, "{}", run.all());
    assert!(
        run.line("spin/sum/threads=1 ")
            .contains("ops/iter 1, keys 64")
    );
    assert!(
        run.line("spin/sum/threads=2 ")
            .contains("ops/iter 2, keys 64")
    );
    assert!(
        run.line("misuse/iter/threads=2 ")
            .ends_with("registered for 2 threads: time it with iter_threads")
    );
    let panicked = run.line("panics/one/threads=2 ");
    assert!(
        panicked.contains("on thread 1: panicked at benches/threads.rs:")
            && panicked.ends_with(": thread one fails"),
        "{panicked}"
    );
    assert!(run.line("clock/sleep ").contains("  cpu "));
    let by_cpu = run.line("clock/sleep_by_cpu ");
    assert!(
        by_cpu.contains("  wall ") && by_cpu.contains("cpu time"),
        "{by_cpu}"
    );
    // Test mode runs each thread count's routine on its threads once.
    let run = Run::exe(&exe, &fx.dir, &[]);
    assert!(
        run.stdout.contains("test spin/sum/threads=2 ... ok"),
        "{}",
        run.all()
    );
    assert!(run.stdout.contains("test panics/one/threads=2 ... FAILED"));

    // cargo runs through a script that notes its arguments.
    let log = fx.dir.join("cargo-args.log");
    let wrapper = fx.dir.join("cargo-wrapper.sh");
    let real = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    std::fs::write(
        &wrapper,
        format!("#!/bin/sh\necho \"$*\" >> {log:?}\nexec {real:?} \"$@\"\n"),
    )
    .unwrap();
    std::process::Command::new("chmod")
        .args(["+x", wrapper.to_str().unwrap()])
        .status()
        .unwrap();
    let mut cmd = fx.nbench_command(&saving(&["--bench", "threads", "--save-baseline", "base"]));
    let run = Run::from(cmd.env("CARGO", &wrapper).output().unwrap());
    assert_eq!(run.code, 1, "{}", run.all());
    // The fixture's own package and its path dependency are built in one
    // codegen unit (its profile chose no number); nothing else is.
    let logged = std::fs::read_to_string(&log).unwrap();
    let build = (logged.lines())
        .find(|l| l.contains("bench --no-run"))
        .unwrap_or_else(|| panic!("{logged}"));
    let unit = |p: &str| format!("--config profile.\"bench\".package.\"{p}\".codegen-units=1");
    assert!(
        build.contains(&unit("api")) && build.contains(&unit("nbench")),
        "{build}"
    );
    assert_eq!(build.matches("codegen-units").count(), 2, "{build}");
    let header = run.line("benchmark ");
    assert!(
        header.contains("  cpu  ") && header.contains("  wall  "),
        "{header}"
    );

    for (doc, paired) in fresh_and_paired(&fx, "threads", 1) {
        // Recorded as built in one codegen unit.
        let added = &doc["context"]["build"]["added"];
        assert!(
            (added.as_array().unwrap())
                .contains(&"codegen-units=1 (the workspace's own packages)".into()),
            "{added}"
        );
        let t = &doc["targets"][0];
        let failures = ids(t, "failures");
        assert_eq!(failures, ["misuse/iter/threads=2", "panics/one/threads=2"]);
        // Throughput and counters are what both threads together do an iteration.
        let two = benchmark(t, "spin/sum/threads=2");
        assert_eq!(two["throughput"]["items"], 200, "{two:#}");
        assert_eq!(
            counter(t, "spin/sum/threads=2", "ops"),
            Some(("per_iteration".into(), 2.0))
        );
        assert_eq!(
            counter(t, "spin/sum/threads=2", "keys"),
            Some(("value".into(), 64.0))
        );
        assert_eq!(
            counter(t, "spin/sum/threads=1", "ops"),
            Some(("per_iteration".into(), 1.0))
        );
        let median = |id: &str| benchmark(t, id)["median_ns"].as_f64().unwrap();
        // Values carry their metric; wall time, what older files mean, is left out.
        assert_eq!(benchmark(t, "clock/sleep_by_cpu")["metric"], "cpu_time");
        assert!(benchmark(t, "clock/sleep").get("metric").is_none());
        if paired {
            let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
            let row = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap();
            assert_eq!(row("clock/sleep_by_cpu")["metric"], "cpu_time");
            assert!(row("clock/sleep").get("metric").is_none());
            // A paired comparison compares the time; the other clock is not read.
            assert_eq!(counter(t, "clock/sleep", "cpu"), None);
            // Timed by CPU on both sides: a sleep of 200 µs costs far less CPU.
            assert!(
                median("clock/sleep_by_cpu") < 150e3,
                "{}",
                median("clock/sleep_by_cpu")
            );
            continue;
        }
        // A 200 µs sleep: wall time above it, CPU time well below it.
        let (kind, cpu) = counter(t, "clock/sleep", "cpu").unwrap();
        assert_eq!(kind, "time");
        assert!(median("clock/sleep") >= 200e3 && cpu < 150e3, "{cpu}");
        let (_, wall) = counter(t, "clock/sleep_by_cpu", "wall").unwrap();
        assert!(
            wall >= 200e3 && median("clock/sleep_by_cpu") < 150e3,
            "{wall}"
        );
        // The process clock sees the spawned thread's millisecond of work; the thread clock only the spawn.
        let (_, own) = counter(t, "clock/spawned/thread", "cpu").unwrap();
        let (_, all) = counter(t, "clock/spawned/process", "cpu").unwrap();
        assert!(all > 3.0 * own, "process {all} ns, thread {own} ns");
    }
}

#[test]
fn group_members_are_measured_as_ratios_to_their_baseline() {
    // Long enough for a few hundred rounds: the ratio's CI must be tight
    // even on a busy two-core machine running other tests.
    let settings = [
        "--warm-up",
        "20ms",
        "--min-time",
        "100ms",
        "--max-time",
        "300ms",
    ];
    let with = |extra: &[&'static str]| [extra, &settings[..]].concat();
    let fx = Fixture::new("api").own_target_dir();
    let exe = fx.bench_exe("versus");
    let run = Run::exe(&exe, &fx.dir, &with(&["--bench"]));
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(run.line("benchmark ").contains("  ratio"));
    assert!(run.line("sum/once/1000 ").contains("  baseline"));
    let twice = run.line("sum/twice/1000 ");
    assert!(twice.contains("] *"), "{twice}");
    assert!(!run.line("alone/sum ").contains('['));
    // Filtered down to one member, it is still measured against its baseline.
    let run = Run::exe(&exe, &fx.dir, &with(&["--bench", "twice"]));
    assert!(run.line("sum/twice/1000 ").contains("] *"), "{}", run.all());

    let saved = with(&["--bench", "versus", "--save-baseline", "base"]);
    let run = fx.nbench(&[&saved[..], &ONE_LAYOUT].concat());
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(run.line("benchmark ").contains("  ratio  notes"));
    assert!(run.line("sum/twice/1000 ").contains("] *"), "{}", run.all());

    // A paired comparison has its own schedule (process pairs in lockstep): said, not silently ignored.
    let run = fx.nbench(&saving(&[
        "--bench",
        "versus",
        "--compare",
        "base",
        "--repetitions",
        "2",
    ]));
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(
        run.stderr.contains(
            "warning: --repetitions, --launches and --interleave shape fresh measurements"
        ),
        "{}",
        run.stderr
    );

    for (doc, paired) in fresh_and_paired_with(&fx, "versus", 0, &settings) {
        let t = &doc["targets"][0];
        let versus = |id: &str| &benchmark(t, id)["versus"];
        if paired {
            // Against stored executables the comparison is between versions, not members.
            assert!(versus("sum/twice/1000").is_null());
            continue;
        }
        assert_eq!(benchmark(t, "sum/once/1000")["is_baseline"], true);
        assert!(versus("sum/once/1000").is_null());
        assert!(versus("alone/sum").is_null());
        let twice = versus("sum/twice/1000");
        assert_eq!(twice["baseline"], "sum/once/1000");
        let ratio = twice["ratio"].as_f64().unwrap();
        let ci = [
            twice["ci"][0].as_f64().unwrap(),
            twice["ci"][1].as_f64().unwrap(),
        ];
        assert!((1.6..2.4).contains(&ratio), "{twice:#}");
        assert!(
            ci[0] <= ratio && ratio <= ci[1] && twice["significant"] == true,
            "{twice:#}"
        );
        let again = versus("sum/again/1000")["ratio"].as_f64().unwrap();
        assert!((0.8..1.25).contains(&again), "{again}");
    }
}

/// Each benchmark's pooled medians in a JSON record.
fn repeat_medians(t: &Value) -> Vec<(String, usize)> {
    t["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let n = b["repeats"]["medians_ns"].as_array().map_or(0, Vec::len);
            (b["id"].as_str().unwrap().to_owned(), n)
        })
        .collect()
}

#[test]
fn repetitions_launches_and_interleaved_slices_are_pooled() {
    let fx = Fixture::new("api").own_target_dir();
    let ids = [
        "sum/once/1000",
        "sum/twice/1000",
        "sum/again/1000",
        "alone/sum",
    ];
    let each = |n: usize| ids.iter().map(|id| (id.to_string(), n)).collect::<Vec<_>>();

    // The harness on its own: --repetitions pools and reports the spread.
    let exe = fx.bench_exe("versus");
    let run = Run::exe(
        &exe,
        &fx.dir,
        &[
            "--bench",
            "alone",
            "--repetitions",
            "3",
            "--max-time",
            "10ms",
        ],
    );
    assert!(
        run.line("alone/sum ").contains("3 runs: cv "),
        "{}",
        run.all()
    );

    let run = fx.nbench(&args(&[
        "--bench",
        "versus",
        "--repetitions",
        "2",
        "--launches",
        "2",
        "--epochs",
        "1",
        "--format",
        "json",
    ]));
    let doc = run.json();
    assert_eq!(repeat_medians(&doc["targets"][0]), each(4));
    let settings = &doc["context"]["settings"];
    assert_eq!(
        (&settings["repetitions"], &settings["launches"]),
        (&Value::from(2), &Value::from(2))
    );
    // Pooled: the samples of all four measurements, and still the ratio to the baseline.
    let twice = benchmark(&doc["targets"][0], "sum/twice/1000");
    assert!(
        twice["versus"]["ratio"].as_f64().unwrap() > 1.5,
        "{twice:#}"
    );
    // The HTML report plots each benchmark's runs and each member's ratio, and they render.
    let report = fx.dir.join("target/nbench/report/index.html");
    let page = std::fs::read_to_string(&report).unwrap();
    assert_eq!(page.matches("data-kind=\"runs\"").count(), 4);
    assert_eq!(page.matches("data-kind=\"ratio\"").count(), 2);
    assert!(page.contains("4 runs pooled: their medians have mean "));
    // Rendered too where a browser is (always in CI; elsewhere the report
    // test shows as ignored in the summary when none is).
    if cfg!(nbench_browser) {
        let found = crate::report::check(&crate::report::chromium(), &report);
        assert_eq!(found["errors"], serde_json::json!([]), "{found}");
        assert_eq!(found["blank"], serde_json::json!([]), "{found}");
        assert_eq!(found["flat"], serde_json::json!([]), "{found}");
        assert_eq!(found["kinds"]["runs"], 4, "{found}");
        assert_eq!(found["kinds"]["ratio"], 2, "{found}");
    }

    // Interleaved: three rounds, each measuring every benchmark once, in
    // random orders. The time limit bounds all three slices together, and
    // a sample a loaded machine stretches past a third of it leaves room
    // for fewer (seen once at 20 ms: `sum/again/1000` measured in one
    // slice): 300 ms leaves room for all three.
    let mut cmd = fx.nbench_command(&[
        "--bench",
        "versus",
        "--interleave=3",
        "--epochs",
        "1",
        "--out",
        "run.json",
        "--warm-up",
        "5ms",
        "--min-time",
        "5ms",
        "--max-time",
        "300ms",
        "-v",
    ]);
    // With `-v`, the console format's progress lines name each measurement
    // as it starts.
    let out = cmd.env("CI", "true").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(fx.dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(repeat_medians(&doc["targets"][0]), each(3));
    assert_eq!(doc["context"]["settings"]["slices"], 3);
    let order: Vec<&str> = stderr
        .lines()
        .filter_map(|l| {
            l.strip_prefix("measuring ")?
                .split(" › ")
                .nth(1)?
                .split(',')
                .next()
        })
        .collect();
    assert_eq!(order.len(), 12, "{stderr}");
    for round in order.chunks(4) {
        let mut r = round.to_vec();
        r.sort();
        let mut all = ids.to_vec();
        all.sort();
        assert_eq!(r, all, "every benchmark once a round: {order:?}");
    }
    // Three rounds in the listed order would happen once in 24³ runs.
    assert_ne!(order, [ids, ids, ids].concat(), "the order is shuffled");

    // Bad values are refused by the flag's parser.
    let run = fx.nbench(&["--bench", "versus", "--interleave=1"]);
    assert_eq!(run.code, 2, "{}", run.all());
    let run = fx.nbench(&["--bench", "versus", "--repetitions", "0"]);
    assert_eq!(run.code, 2, "{}", run.all());
}
