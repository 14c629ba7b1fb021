//! A suite of libtest's own `#[bench]` functions (`tests/fixtures/libtest`,
//! `#![feature(test)]`, libtest's harness) runs unchanged: cargo nbench
//! builds nbench-libtest and gives it to the compiler as `test`. The
//! machine's toolchain is stable: `RUSTC_BOOTSTRAP=1` lets it take the
//! suite's `#![feature(test)]` as a nightly one would, and
//! `RUSTC_BOOTSTRAP=-1` makes any toolchain refuse it, as stable does.

use crate::helpers::{Fixture, PAIRED, QUICK, Run, git};

/// Every benchmark of the suite, as libtest names them (sorted).
const IDS: [&str; 5] = [
    "copy_4k",
    "parse::fails",
    "parse::number",
    "parse::slow",
    "sum_1k",
];

/// `cargo nbench <args>` on a toolchain that takes `#![feature]` (`1`) or
/// refuses it (`-1`).
fn nbench(fx: &Fixture, bootstrap: &str, args: &[&str]) -> Run {
    let mut cmd = fx.nbench_command(args);
    cmd.env("RUSTC_BOOTSTRAP", bootstrap);
    Run::from(cmd.output().unwrap())
}

#[test]
fn a_libtest_suite_runs_unchanged_under_libtests_names_and_is_counted() {
    let fx = Fixture::new("libtest");
    let list = nbench(&fx, "1", &["--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    let listed: Vec<&str> = (list.stdout.lines())
        .filter_map(|l| l.strip_prefix("nightly/suite: "))
        .collect();
    assert_eq!(listed, IDS, "{}", list.all());

    let mut args = vec!["--format", "json", "--metrics", "time,instructions"];
    args.extend_from_slice(QUICK);
    let run = nbench(&fx, "1", &args);
    // `parse::fails` returns an `Err`: it fails, as under libtest.
    assert_eq!(run.code, 1, "{}", run.all());
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let targets = json["targets"].as_array().unwrap();
    let target = (targets.iter().find(|t| t["target"] == "nightly/suite")).unwrap();
    let failures = target["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{target}");
    assert_eq!(failures[0]["id"], "parse::fails");
    let rows = target["benchmarks"].as_array().unwrap();
    let ids: Vec<&str> = rows.iter().filter_map(|b| b["id"].as_str()).collect();
    assert_eq!(ids, ["copy_4k", "parse::number", "sum_1k"], "{target}");
    // `b.bytes` is the throughput; `#[ignore]` leaves `parse::slow` out.
    let copy = &rows[0];
    assert_eq!(copy["throughput"]["bytes"], 4096, "{copy}");
    let per_iter = |b: &serde_json::Value| b["metrics"]["instructions"]["per_iter"].as_f64();
    let (number, sum) = (per_iter(&rows[1]).unwrap(), per_iter(&rows[2]).unwrap());
    // A thousand steps of a fold against one short parse.
    assert!(sum > 20.0 * number, "{number} {sum}");
}

#[test]
fn a_suite_whose_benches_a_macro_writes_is_one() {
    // `benches/by_macro.rs` takes libtest and calls a macro that writes
    // its `#[bench]` functions (RustCrypto's `digest::bench_update!`).
    let fx = Fixture::new("libtest");
    let list = nbench(&fx, "1", &["--bench", "by_macro", "--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    let listed: Vec<&str> = (list.stdout.lines())
        .filter_map(|l| l.strip_prefix("nightly/by_macro: "))
        .collect();
    assert_eq!(listed, ["sum_10", "sum_100"], "{}", list.all());
}

#[test]
fn a_librarys_own_benches_run_under_the_feature_that_builds_them() {
    let fx = Fixture::new("libtest");
    // Its crate root takes libtest under `feature = "nightly"` alone.
    let list = nbench(&fx, "1", &["--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    let said = "skipped bench target `nightly/lib`: its library's `#[bench]` functions are built \
                under feature `nightly` only: add `--features nightly`";
    assert!(list.stderr.contains(said), "{}", list.stderr);
    assert!(!list.stdout.contains("nightly/lib"), "{}", list.stdout);
    // So is a suite whose crate root is under it (uuid's `v4`): built
    // without it, it holds nothing.
    let said = "skipped bench target `nightly/gated`: its source is built only with feature \
                `nightly` (its `#![cfg(…)]`): add `--features nightly`";
    assert!(list.stderr.contains(said), "{}", list.stderr);
    let on = nbench(&fx, "1", &["--list", "--features", "nightly"]);
    assert!(
        on.stdout.contains("nightly/gated: gated_sum"),
        "{}",
        on.all()
    );

    // `--lib`, as `cargo bench --lib`: the library's unit tests alone.
    let mut args = vec!["--lib", "--features", "nightly", "--format", "json"];
    args.extend_from_slice(QUICK);
    // Its `#[test]` is not a benchmark.
    let (ids, _) = the_only_target(&nbench(&fx, "1", &args), "nightly/lib");
    assert_eq!(ids, ["benches::sum_1k"]);
}

/// The ids of the one target a run measured, `label`, and its rows.
fn the_only_target(run: &Run, label: &str) -> (Vec<String>, Vec<serde_json::Value>) {
    assert_eq!(run.code, 0, "{}", run.all());
    let json = run.json();
    let targets = json["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 1, "{json}");
    assert_eq!(targets[0]["target"], label, "{json}");
    let rows = targets[0]["benchmarks"].as_array().unwrap().clone();
    let ids = rows
        .iter()
        .filter_map(|b| b["id"].as_str().map(str::to_owned));
    (ids.collect(), rows)
}

#[test]
fn a_binarys_own_benches_run_as_cargo_bench_bin_runs_them() {
    let fx = Fixture::new("libtest");
    // Found with the bench targets, named as the binary.
    let list = nbench(&fx, "1", &["--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    assert!(
        list.stdout
            .contains("nightly/tool: work::benches::steps_1k"),
        "{}",
        list.all()
    );
    // `--bin tool`, as `cargo bench --bin tool`: its unit tests alone.
    let mut args = vec!["--bin", "tool", "--format", "json"];
    args.extend(["--metrics", "time,instructions"]);
    args.extend_from_slice(QUICK);
    let (ids, rows) = the_only_target(&nbench(&fx, "1", &args), "nightly/tool");
    assert_eq!(ids, ["work::benches::steps_1k"]);
    // A thousand steps of three shifts and three xors.
    let counted = rows[0]["metrics"]["instructions"]["per_iter"].as_f64();
    assert!(counted.is_some_and(|c| c > 3000.0), "{:?}", rows[0]);
    // A binary of that name with no `#[bench]` is none to run.
    let none = nbench(&fx, "1", &["--bin", "absent", "--list"]);
    assert_eq!(none.code, 2, "{}", none.all());
    assert!(
        none.error_line().contains("no bench target named `absent`"),
        "{}",
        none.stderr
    );
}

#[test]
fn on_a_stable_toolchain_a_libtest_suite_is_left_out_saying_to_take_nightly() {
    let fx = Fixture::new("libtest");
    let run = nbench(&fx, "-1", &["--list"]);
    assert_eq!(run.code, 2, "{}", run.all());
    // The suites, and the binary whose source holds `#[bench]`.
    let said = "skipped bench targets `nightly/by_macro`, `nightly/suite`, `nightly/tool` (each \
                for this reason): \
                it uses libtest's `#[bench]` (`#![feature(test)]`), which builds on a nightly \
                toolchain only: run `cargo +nightly nbench`";
    assert!(run.stderr.contains(said), "{}", run.stderr);
}

#[test]
fn two_revisions_of_a_libtest_suite_compare_with_no_edit() {
    let fx = Fixture::new("libtest");
    fx.last_commit_changes(
        "target/\n",
        "src/lib.rs",
        "a.wrapping_add(x ^ (a >> 3))",
        "a.wrapping_add(x ^ (a >> 3)).rotate_left((x & 7) as u32)",
    );
    // The suite's `sum_1k`, the library's own (`--features nightly`) and
    // the binary's `steps_1k`, whose code did not change.
    let mut args = vec!["compare", "--rev", "HEAD~1", "HEAD", "--metrics"];
    args.extend([
        "time,instructions",
        "sum_1k",
        "steps_1k",
        "--format",
        "json",
    ]);
    args.extend(["--features", "nightly"]);
    args.extend_from_slice(PAIRED);
    let run = nbench(&fx, "1", &args);
    assert_eq!(run.code, 0, "{}", run.all());
    let json = run.json();
    let targets = json["comparison"]["targets"].as_array().unwrap();
    let found: Vec<(&str, &str)> = (targets.iter())
        .flat_map(|t| {
            let rows = t["rows"].as_array().unwrap();
            rows.iter()
                .map(|r| (t["target"].as_str().unwrap(), r["id"].as_str().unwrap()))
        })
        .collect();
    let expected = [
        ("nightly/suite", "sum_1k"),
        ("nightly/lib", "benches::sum_1k"),
        ("nightly/tool", "work::benches::steps_1k"),
    ];
    assert_eq!(found, expected, "{json}");
    // `gated` matches no filter: its target has no row.
    for t in targets {
        for row in t["rows"].as_array().unwrap() {
            // The new fold does more work each step: more instructions,
            // whatever the clock says on a busy machine. The binary's
            // code is the same: so is its count.
            let more = row["instructions"]["change"].as_f64().unwrap();
            match t["target"] == "nightly/tool" {
                true => assert_eq!(more, 0.0, "{row}"),
                false => assert!(more > 0.05, "{row}"),
            }
        }
    }
    assert_eq!(git(&fx.dir, &["status", "--porcelain"]), "");
}
