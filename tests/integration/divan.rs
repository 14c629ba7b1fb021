//! A divan suite (`tests/fixtures/divan`) runs on nbench-divan with divan's
//! ids, compiles unchanged against real divan 0.1 too, and runs under
//! `cargo bench` and `cargo test --benches`, saying once what it accepts
//! and does not honour.

use crate::helpers::{DIVAN_LINE, Fixture, ONE_LAYOUT, QUICK, Run};
use serde_json::Value;

/// Every benchmark the suite registers, in the order listed.
const IDS: [&str; 24] = [
    "add",
    "chars::ab",
    "chars::abcdef",
    "contended::t=1",
    "contended::t=2",
    "counted_twice",
    "fill::1",
    "fill::8",
    "fill::64",
    "halved::2",
    "halved::3",
    "ignored",
    "pair::counted",
    "pair::local",
    "pair::local_values",
    "pair::sorted",
    "parse::u32",
    "parse::u64",
    "shift::2",
    "shift::4",
    "sorts::stable",
    "sorts::unstable",
    "sum::16",
    "sum::256",
];

#[test]
fn the_suite_compiles_unchanged_against_divan_itself() {
    let fx = Fixture::new("divan");
    fx.on_registry(DIVAN_LINE, |_| "divan = \"=0.1.21\"".into(), "divan.lock");
    let build = fx.cargo(&["check", "--benches", "--locked"]);
    assert_eq!(build.code, 0, "{}", build.all());
    // cargo nbench cannot drive divan itself, and says what to change.
    let skipped = fx.nbench(&["--list"]);
    assert_ne!(skipped.code, 0, "{}", skipped.all());
    assert!(
        skipped.stderr.contains(
            "skipped bench target `div/suite`: it uses divan; to run it unchanged, put \
             nbench-divan in divan's place: `divan = { package = \"nbench-divan\", git = \
             \"https://github.com/nbench-rs/cargo-nbench\" }`"
        ),
        "{}",
        skipped.stderr
    );
}

#[test]
fn cargo_nbench_runs_a_divan_suite_with_divans_ids() {
    let fx = Fixture::new("divan");
    let list = fx.nbench(&["--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    let listed: Vec<&str> = list
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("div/suite: "))
        .collect();
    assert_eq!(listed, IDS, "{}", list.stdout);

    let mut args = vec!["--format", "json", "--save-baseline", "before"];
    args.extend(ONE_LAYOUT);
    args.extend_from_slice(QUICK);
    let run = fx.nbench(&args);
    let doc = run.json();
    let target = &doc["targets"][0];
    let measured: Vec<&str> = target["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    let unmeasured = ["halved::3", "ignored", "pair::local", "pair::local_values"];
    let mut want: Vec<&str> = IDS
        .iter()
        .copied()
        .filter(|i| !unmeasured.contains(i))
        .collect();
    want.sort();
    let mut got = measured.clone();
    got.sort();
    assert_eq!(got, want);
    assert_eq!(target["ignored"], serde_json::json!(["ignored"]));
    let bench = |id: &str| {
        target["benchmarks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["id"] == id)
            .unwrap()
            .clone()
    };
    // Counters as throughput: items for `sum`, bytes of the input for the sort.
    assert_eq!(
        bench("sum::256")["throughput"]["items"],
        256,
        "{}",
        bench("sum::256")
    );
    assert_eq!(bench("sorts::unstable")["throughput"]["bytes"], 1024);
    // The group's counter, on every benchmark inside.
    for id in ["sorts::stable", "sorts::unstable"] {
        let counters = bench(id)["counters"].clone();
        let chars = (counters.as_array().unwrap().iter()).find(|c| c["name"] == "chars");
        assert_eq!(
            chars.map(|c| c["value"].as_f64()),
            Some(Some(2048.0)),
            "{counters}"
        );
    }
    // The runner's own counter (`Divan::items_count`) where a benchmark has
    // none, and over its attribute's (`items_count = 5`), as in divan.
    assert_eq!(bench("add")["throughput"]["items"], 1, "{}", bench("add"));
    assert_eq!(bench("counted_twice")["throughput"]["items"], 1);
    // `threads`: a group's two threads each do an item an iteration; a
    // loop divan runs on the current thread only is skipped, saying why.
    assert_eq!(bench("pair::counted")["throughput"]["items"], 2);
    // Inputs on each of the two threads: 64 items each.
    assert_eq!(bench("pair::sorted")["throughput"]["items"], 128);
    let skipped = |id: &str| {
        let all = target["skipped"].as_array().unwrap();
        let found = all.iter().find(|s| s["id"] == id);
        found.map(|s| s["reason"].as_str().unwrap().to_owned())
    };
    let why = skipped("pair::local").unwrap_or_else(|| panic!("{target}"));
    assert!(why.contains("`bench_local` on 2 threads"), "{why}");
    assert!(why.ends_with("time it with `bench`"), "{why}");
    let why = skipped("pair::local_values").unwrap_or_else(|| panic!("{target}"));
    assert!(why.ends_with("time it with `bench_values`"), "{why}");
    // A function that times nothing for an input is left out, as divan
    // leaves it out with a warning, rather than failed.
    assert_eq!(target["failures"], serde_json::json!([]));
    let why = skipped("halved::3").unwrap_or_else(|| panic!("{}", target["skipped"]));
    assert!(why.contains("timed nothing"), "{why}");
    // Compared, it is neither new nor measured: not compared, saying why,
    // paired or with the stored samples.
    for stored in [false, true] {
        let mut args = vec!["--compare", "before", "--format", "json", "halved::3"];
        args.extend(ONE_LAYOUT);
        args.extend(stored.then_some("--compare-stored"));
        let cmp = &fx.nbench(&args).json()["comparison"]["targets"][0];
        assert_eq!(cmp["new"], serde_json::json!([]), "{cmp}");
        assert_eq!(cmp["not_compared"][0]["id"], "halved::3", "{cmp}");
        let why = cmp["not_compared"][0]["reason"].as_str().unwrap();
        assert!(
            why.starts_with("skipped: its function timed nothing"),
            "{why}"
        );
    }
    // AllocProfiler counts: one allocation of 64 bytes per iteration.
    let counters = bench("fill::64")["counters"].clone();
    let counter = |name: &str| {
        let found = counters
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name);
        found.map(|c| c["value"].as_f64().unwrap())
    };
    assert_eq!(counter("allocs"), Some(1.0), "{counters}");
    assert_eq!(counter("bytes"), Some(64.0), "{counters}");
}

#[test]
fn cargo_bench_and_cargo_test_take_divans_command_line_and_say_what_they_ignore() {
    let fx = Fixture::new("divan");
    let table = fx.cargo(&[
        "bench",
        "--bench",
        "suite",
        "--",
        "--sample-count",
        "10",
        "--timer=tsc",
        "--max-time",
        "0.05",
        "--exact",
        "fill::8",
    ]);
    assert_eq!(table.code, 0, "{}", table.all());
    assert!(table.line("fill::8 ").contains(" ns"), "{}", table.stdout);
    assert!(!table.stdout.contains("fill::64"), "{}", table.stdout);
    for said in [
        "note: divan's `--sample-count` is accepted and not honoured under nbench",
        "note: divan's `--timer` is accepted and not honoured under nbench",
        "note: divan's `sample_count` is accepted and not honoured",
        "note: divan's `max_time` is accepted and not honoured",
    ] {
        assert_eq!(
            table.stderr.matches(said).count(),
            1,
            "{said}\n{}",
            table.stderr
        );
    }
    crate::helpers::runs_once(&fx, "sorts::unstable");
}

#[test]
fn divans_own_flags_set_threads_and_counters_and_bad_values_stop_the_run() {
    let fx = Fixture::new("divan");
    let bench = |args: &str| {
        let mut line = vec!["bench", "--bench", "suite", "--", "--list"];
        line.extend(args.split(' '));
        fx.cargo(&line)
    };
    // `--threads` stands over each benchmark's own, as in divan.
    let list = bench("--threads 1,3");
    assert_eq!(list.code, 0, "{}", list.all());
    for id in [
        "add::t=3: benchmark",
        "contended::t=3: benchmark",
        "pair::counted::t=1: benchmark",
    ] {
        assert!(list.stdout.contains(id), "{id}\n{}", list.stdout);
    }
    assert!(!list.stdout.contains("t=2"), "{}", list.stdout);
    for (flag, said) in [
        (
            "--threads=x",
            "error: divan's `--threads`: `x` is not a thread count",
        ),
        (
            "--bytes-count=-1",
            "error: divan's `--bytes-count`: `-1` is not a count",
        ),
    ] {
        let bad = bench(flag);
        assert_ne!(bad.code, 0, "{}", bad.all());
        assert!(bad.stderr.contains(said), "{said}\n{}", bad.stderr);
        assert!(!bad.stderr.contains("panicked"), "{}", bad.stderr);
    }
    // A pattern that is none, under cargo nbench: the binary's own words.
    let mut cmd = fx.nbench_command(&["--list"]);
    let listed = Run::from(cmd.env("SUITE_SKIP", "(left_out").output().unwrap());
    assert_ne!(listed.code, 0, "{}", listed.all());
    assert!(
        listed.stderr.contains(
            "the bench binary exited before connecting (exited with code 2): error: divan's \
             `skip_regex`: `(left_out` is not a regular expression"
        ),
        "{}",
        listed.stderr
    );
}

#[test]
fn two_revisions_of_an_untouched_divan_suite_compare_with_the_swap_said() {
    let fx = Fixture::new("divan").own_target_dir();
    fx.on_registry(DIVAN_LINE, |_| "divan = \"=0.1.21\"".into(), "divan.lock");
    // Fills 64 times more.
    let (from, to) = ("vec![7u8; black_box(n)]", "vec![7u8; black_box(n) * 64]");
    fx.last_commit_changes("target/\n", "benches/suite.rs", from, to);
    let args = ["--format", "json", "fill::64", "halved::3"];
    let r = fx.compare_last_commit(("NBENCH_DIVAN", "compat/divan"), &args);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.stderr
            .contains("uses divan: building it with nbench-divan in divan's place (Cargo.toml)"),
        "{}",
        r.stderr
    );
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    let row = &doc["comparison"]["targets"][0]["rows"][0];
    assert_eq!(row["id"], "fill::64");
    assert_eq!(row["verdict"], "regressed", "{row}");
    let skipped = &doc["comparison"]["targets"][0]["not_compared"][0];
    assert_eq!(skipped["id"], "halved::3", "{skipped}");
    // Both sides ran on nbench-divan: nothing to warn of.
    let warnings = doc["comparison"]["warnings"].to_string();
    assert!(!warnings.contains("nbench-divan"), "{warnings}");
}
