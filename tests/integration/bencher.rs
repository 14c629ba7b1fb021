//! A bencher suite (`tests/fixtures/bencher`) runs on nbench-bencher under
//! bencher's names, with its `bytes` as a throughput, and compiles
//! unchanged against bencher itself. (The swap `compare --rev` makes is the
//! same for every front end: `tango.rs`, `divan.rs` and `gungraun.rs` run
//! it; `FRONT_ENDS` names bencher's.)

use crate::helpers::{BENCHER_LINE, Fixture, counted_run, counts_fib, listed};

/// Every benchmark the suite registers, in the order listed.
const IDS: [&str; 4] = ["fib_10", "fib_15", "checksum_4k", "nested::sum"];

#[test]
fn cargo_nbench_runs_a_bencher_suite_under_benchers_names_and_counts_it() {
    let fx = Fixture::new("bencher");
    assert_eq!(listed(&fx, "stable/suite"), IDS);
    let json = counted_run(&fx);
    counts_fib(&json, "fib_10", "fib_15");
    // `bytes`, set after `iter`, is the benchmark's throughput.
    let rows = json["targets"][0]["benchmarks"].as_array().unwrap();
    let checksum = rows.iter().find(|b| b["id"] == "checksum_4k").unwrap();
    assert_eq!(checksum["throughput"]["bytes"], 4096, "{checksum}");
    crate::helpers::runs_once(&fx, "nested::sum");
}

#[test]
fn the_suite_compiles_unchanged_against_bencher_itself() {
    let fx = Fixture::new("bencher");
    // cargo nbench cannot drive bencher itself, and says what to change.
    let said = "skipped bench target `stable/suite`: it uses bencher; to run it unchanged, put \
                nbench-bencher in bencher's place: `bencher = { package = \"nbench-bencher\", \
                git = \"https://github.com/nbench-rs/cargo-nbench\" }`";
    let library = (BENCHER_LINE, "bencher = \"=0.1.5\"", "bencher.lock");
    crate::helpers::compiles_against_the_library(&fx, library, said);
}
