//! A tango suite (`tests/fixtures/tango`) runs on nbench-tango under
//! tango's names, compiles unchanged against tango itself, runs in the
//! style of tango's newer `tango_benchmarks!` (no `tango_main!`) too, and
//! two commits of it compare with the swap made by cargo nbench.

use crate::helpers::{Fixture, QUICK, TANGO_LINE, counted_run, counts_fib, listed, per_iter};
use serde_json::Value;

/// Every benchmark the suite registers, in the order listed.
const IDS: [&str; 5] = [
    "fib/10",
    "fib/15",
    "fib/15/stopwatch",
    "sort/100",
    "sort/1000",
];

/// Benchmark `id` of a run's JSON.
fn benchmark<'a>(json: &'a Value, id: &str) -> &'a Value {
    let rows = json["targets"][0]["benchmarks"].as_array().unwrap();
    let row = rows.iter().find(|b| b["id"] == id);
    row.unwrap_or_else(|| panic!("no {id} in {json}"))
}

#[test]
fn cargo_nbench_runs_a_tango_suite_under_tangos_names_and_counts_it() {
    let fx = Fixture::new("tango");
    assert_eq!(listed(&fx, "tangled/suite"), IDS);
    let json = counted_run(&fx);
    for id in IDS {
        assert!(per_iter(&json, id) > 0.0, "{id}");
    }
    counts_fib(&json, "fib/10", "fib/15");
    // A metric of the suite's own times the same work: it is counted the same.
    let (own, long) = (
        per_iter(&json, "fib/15/stopwatch"),
        per_iter(&json, "fib/15"),
    );
    assert!((own / long - 1.0).abs() < 0.05, "{own} {long}");
}

#[test]
fn the_suite_compiles_unchanged_against_tango_itself() {
    let fx = Fixture::new("tango");
    // cargo nbench cannot drive tango-bench itself, and says what to change.
    let said = "skipped bench target `tangled/suite`: it uses tango-bench; to run it unchanged, \
                put nbench-tango in tango-bench's place: `tango-bench = { package = \
                \"nbench-tango\", git = \"https://github.com/nbench-rs/cargo-nbench\" }`";
    let library = (TANGO_LINE, "tango-bench = \"=0.7.2\"", "tango.lock");
    crate::helpers::compiles_against_the_library(&fx, library, said);
}

#[test]
fn a_suite_in_tangos_newer_style_runs_under_cargo_bench_cargo_test_and_cargo_nbench() {
    let fx = Fixture::new("tango");
    // tango's newer `tango_benchmarks!` writes `main`; a benchmark timed by
    // the thread's CPU time.
    let suite = std::fs::read_to_string(fx.dir.join("benches/suite.rs")).unwrap();
    let (before, _) = suite.split_once("tango_main!(").unwrap();
    let newer = before.replace(
        "    ]\n}\n\nfn sort_benchmarks",
        "        benchmark_fn(\"fib/15/cpu\", |b| {\n            \
         b.metric::<tango_bench::metrics::CpuTime>().iter(|| fib(black_box(15)))\n        \
         }),\n    ]\n}\n\nfn sort_benchmarks",
    );
    let newer = (newer
        .replace("MeasurementSettings, ", "")
        .replace("tango_main,", ""))
    .replace("use tangled::", "use newer::");
    std::fs::write(fx.dir.join("benches/suite.rs"), newer).unwrap();
    // Another package name: the fixture's copies share a target directory.
    fx.edit("Cargo.toml", "name = \"tangled\"", "name = \"newer\"");

    let list = fx.cargo(&["bench", "--bench", "suite", "--", "--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    assert!(
        list.stdout.contains("fib/15/cpu: benchmark"),
        "{}",
        list.stdout
    );
    crate::helpers::runs_once(&fx, "sort/1000");

    let mut args = vec!["--format", "json", "fib/15/cpu"];
    args.extend_from_slice(QUICK);
    let json = fx.nbench(&args).json();
    assert_eq!(
        benchmark(&json, "fib/15/cpu")["metric"],
        "cpu_time",
        "{json}"
    );
}

#[test]
fn two_revisions_of_an_untouched_tango_suite_compare_with_the_swap_said() {
    let fx = Fixture::new("tango").own_target_dir();
    let said = "uses tango-bench: building it with nbench-tango in tango-bench's place \
                (Cargo.toml)";
    crate::helpers::compare_swapped_fib(
        &fx,
        (TANGO_LINE, "tango-bench = \"0.7\"", "tango.lock"),
        ("NBENCH_TANGO", "compat/tango"),
        ("fib/", said),
        ("fib/10", "fib/15"),
    );
}
