//! A bencher suite (`tests/fixtures/bencher`) runs on nbench-bencher under
//! bencher's names, with its `bytes` as a throughput, and compiles
//! unchanged against bencher itself. (The swap `compare --rev` makes is the
//! same for every front end: `tango.rs`, `divan.rs` and `gungraun.rs` run
//! it; `FRONT_ENDS` names bencher's.)

use crate::helpers::{BENCHER_LINE, Fixture, QUICK, listed, per_iter};

/// Every benchmark the suite registers, in the order listed.
const IDS: [&str; 4] = ["fib_10", "fib_15", "checksum_4k", "nested::sum"];

#[test]
fn cargo_nbench_runs_a_bencher_suite_under_benchers_names_and_counts_it() {
    let fx = Fixture::new("bencher");
    assert_eq!(listed(&fx, "stable/suite"), IDS);
    let mut args = vec!["--format", "json", "--metrics", "time,instructions"];
    args.extend_from_slice(QUICK);
    let run = fx.nbench(&args);
    assert_eq!(run.code, 0, "{}", run.all());
    let json = run.json();
    assert_eq!(json["targets"][0]["failures"], serde_json::json!([]));
    // fibonacci(15) makes 1973 calls, fibonacci(10) 177: the counts say so.
    let (short, long) = (per_iter(&json, "fib_10"), per_iter(&json, "fib_15"));
    assert!(long / short > 8.0 && long / short < 14.0, "{short} {long}");
    // `bytes`, set after `iter`, is the benchmark's throughput.
    let rows = json["targets"][0]["benchmarks"].as_array().unwrap();
    let checksum = rows.iter().find(|b| b["id"] == "checksum_4k").unwrap();
    assert_eq!(checksum["throughput"]["bytes"], 4096, "{checksum}");
    // `cargo test --benches` runs each once.
    let test = fx.cargo(&["test", "--benches"]);
    assert_eq!(test.code, 0, "{}", test.all());
    assert!(test.stdout.contains("nested::sum"), "{}", test.stdout);
}

#[test]
fn the_suite_compiles_unchanged_against_bencher_itself() {
    let fx = Fixture::new("bencher");
    fx.on_registry(
        BENCHER_LINE,
        |_| "bencher = \"=0.1.5\"".into(),
        "bencher.lock",
    );
    let build = fx.cargo(&["check", "--benches", "--locked"]);
    assert_eq!(build.code, 0, "{}", build.all());
    // cargo nbench cannot drive bencher itself, and says what to change.
    let skipped = fx.nbench(&["--list"]);
    assert_ne!(skipped.code, 0, "{}", skipped.all());
    let said = "skipped bench target `stable/suite`: it uses bencher; to run it unchanged, put \
                nbench-bencher in bencher's place: `bencher = { package = \"nbench-bencher\", \
                git = \"https://github.com/nbench-rs/cargo-nbench\" }`";
    assert!(skipped.stderr.contains(said), "{}", skipped.stderr);
}
