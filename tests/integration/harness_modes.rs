//! The bench binary on its own: `cargo bench`, `cargo test --benches`, `--list`, filters, failures.

use crate::helpers::{Fixture, QUICK, Run};

fn bench_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--bench"];
    args.extend_from_slice(QUICK);
    args.extend_from_slice(extra);
    args
}

#[test]
fn bench_mode_prints_a_row_per_benchmark_and_survives_a_panic() {
    let fx = Fixture::new("basic");
    let exe = fx.bench_exe("basic");
    let run = Run::exe(&exe, &fx.dir, &bench_args(&[]));
    assert_eq!(
        run.code, 101,
        "a failed benchmark sets the exit code\n{}",
        run.stdout
    );
    let header = run.line("benchmark ");
    for col in [
        "median",
        "±CI",
        "throughput",
        "samples × iters",
        "set aside",
        "notes",
    ] {
        assert!(header.contains(col), "{col} missing in {header}");
    }
    for id in [
        "add ",
        "sum/u64/10 ",
        "sum/u64/100 ",
        "sort/batched ",
        "custom ",
    ] {
        let row = run.line(id);
        assert!(
            [" ps", " ns", " µs"].iter().any(|u| row.contains(u)),
            "no time in {row}"
        );
        assert!(row.contains(" × "), "no samples × iters in {row}");
    }
    assert!(run.line("sum/u64/100 ").contains("elem/s"));
    let failed = run.line("panics ");
    assert!(failed.contains("FAILED") && failed.contains("deliberate failure in the fixture"));
    assert!(run.line("slow ").contains("ignored"));
    assert!(
        run.stdout
            .contains("bench result: FAILED. 5 measured; 1 failed; 1 ignored; 0 filtered out")
    );
    // The panic is reported in the table, not sprayed over stderr.
    assert!(!run.stderr.contains("deliberate failure"), "{}", run.stderr);
}

#[test]
fn filters_select_like_libtest() {
    let fx = Fixture::new("basic");
    let exe = fx.bench_exe("basic");
    let run = Run::exe(&exe, &fx.dir, &bench_args(&["sum", "--skip", "100"]));
    assert_eq!(run.code, 0, "{}", run.stdout);
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("sum/"))
        .collect();
    assert_eq!(rows.len(), 1, "{}", run.stdout);
    assert!(rows[0].starts_with("sum/u64/10 "));
    assert!(
        run.stdout
            .contains("1 measured; 0 failed; 0 ignored; 6 filtered out")
    );

    let run = Run::exe(&exe, &fx.dir, &bench_args(&["sum/u64/1", "--exact"]));
    assert!(run.stdout.contains("0 measured"), "{}", run.stdout);

    let run = Run::exe(&exe, &fx.dir, &bench_args(&["--ignored"]));
    assert_eq!(run.code, 0);
    assert!(run.line("slow ").contains(" ms"), "{}", run.stdout);
    assert!(run.stdout.contains("1 measured"));
}

#[test]
fn test_mode_runs_each_benchmark_once_like_libtest() {
    let fx = Fixture::new("basic");
    let exe = fx.bench_exe("basic");
    let run = Run::exe(&exe, &fx.dir, &["--nocapture", "--test-threads", "1"]);
    assert_eq!(run.code, 101);
    assert_eq!(run.line("test add "), "test add ... ok");
    assert_eq!(run.line("test panics "), "test panics ... FAILED");
    assert_eq!(run.line("test slow "), "test slow ... ignored");
    assert!(run.stdout.contains("deliberate failure in the fixture"));
    assert!(run.stdout.contains(
        "test result: FAILED. 5 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out"
    ));

    let run = Run::exe(&exe, &fx.dir, &["--skip", "panics"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("test result: ok. 5 passed; 0 failed; 1 ignored; 0 measured; 1 filtered out")
    );
}

#[test]
fn list_modes() {
    let fx = Fixture::new("basic");
    let exe = fx.bench_exe("basic");
    let run = Run::exe(&exe, &fx.dir, &["--list", "--format", "terse"]);
    assert_eq!(run.code, 0);
    let expected = "add: benchmark\nsum/u64/10: benchmark\nsum/u64/100: benchmark\nsort/batched: benchmark\n\
                    custom: benchmark\npanics: benchmark\nslow: benchmark\n";
    assert_eq!(run.stdout, expected);
    let run = Run::exe(&exe, &fx.dir, &["--list", "sum"]);
    assert_eq!(
        run.stdout,
        "sum/u64/10: benchmark\nsum/u64/100: benchmark\n\n0 tests, 2 benchmarks\n"
    );
    // `--list | head -1`: the reader gone, the list ends without a panic.
    let mut cmd = std::process::Command::new(&exe);
    let cut = crate::helpers::with_a_closed_pipe(cmd.arg("--list").current_dir(&fx.dir), |c| {
        drop(c.stdout.take())
    });
    assert_eq!(cut.code, 0, "{}", cut.all());
}

#[test]
fn bad_flag_values_are_usage_errors() {
    let fx = Fixture::new("basic");
    let exe = fx.bench_exe("basic");
    let run = Run::exe(&exe, &fx.dir, &["--bench", "--max-time", "forever"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("error: invalid value 'forever' for '--max-time'"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
    let run = Run::exe(&exe, &fx.dir, &["--bench", "--min-samples", "0"]);
    assert_eq!(run.code, 2);
    let run = Run::exe(&exe, &fx.dir, &["--bench", "--outliers", "most"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("invalid value 'most' for '--outliers': expected none, top5, both5 or iqr"),
        "{}",
        run.stderr
    );
    let run = Run::exe(&exe, &fx.dir, &["--frobnicate"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown option '--frobnicate'"));
    let run = Run::exe(&exe, &fx.dir, &["--help"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("--max-time <DUR>"));
}

#[test]
fn cargo_bench_and_cargo_test_drive_the_binary() {
    let fx = Fixture::new("basic");
    let mut args = vec!["bench", "--bench", "basic", "--", "--skip", "panics"];
    args.extend_from_slice(QUICK);
    let run = fx.cargo(&args);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.line("add ").contains(" × "));

    let run = fx.cargo(&["test", "--benches"]);
    assert_ne!(run.code, 0, "the panicking benchmark fails cargo test");
    assert!(
        run.stdout.contains("test panics ... FAILED"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("test add ... ok"));
}
