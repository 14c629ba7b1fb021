//! A gungraun suite (`tests/fixtures/gungraun`) runs on nbench-gungraun
//! under gungraun's names, compiles unchanged against real gungraun too,
//! runs under iai-callgrind's name, and keeps its setup out of the counts.

use crate::helpers::{Fixture, GUNGRAUN_LINE, ONE_LAYOUT, QUICK, listed, per_iter};
use serde_json::Value;

/// Every benchmark the suite registers, in the order listed.
const IDS: [&str; 22] = [
    "numbers::fib::short",
    "numbers::fib::long",
    "numbers::fib::named",
    "numbers::add::pairs_0",
    "numbers::add::pairs_1",
    "numbers::borrowed::made",
    "numbers::filled::four",
    "numbers::filled::sizes_0",
    "numbers::filled::sizes_1",
    "numbers::parse::lines_0",
    "numbers::parse::lines_1",
    "numbers::parse::lines_2",
    "numbers::fib_each::each_0",
    "numbers::fib_each::each_1",
    "numbers::inner::deep",
    "numbers::plain",
    "bubble_sort::sort::four",
    "bubble_sort::sort::many_0",
    "bubble_sort::sort::many_1",
    "bubble_sort::sort::given",
    "bubble_sort::len_only::cheap",
    "apart::inner::deep",
];

#[test]
fn cargo_nbench_runs_a_gungraun_suite_under_gungrauns_names() {
    let fx = Fixture::new("gungraun");
    // Beside it, a target of iai-callgrind's first binary benchmarks
    // (revm-jit's suite), which nbench-gungraun does not build.
    let manifest = fx.dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let old = "\n[[bench]]\nname = \"old\"\nharness = false\n";
    std::fs::write(&manifest, text + old).unwrap();
    let source = "use gungraun::{binary_benchmark_group, main, Arg, BinaryBenchmarkGroup, Run};\n\
                  binary_benchmark_group!(\n    name = tool;\n    \
                  benchmark = |group: &mut BinaryBenchmarkGroup| {\n        \
                  group.bench(Run::with_cmd(\"echo\", Arg::new(\"a\", [\"1\"])));\n    }\n);\n\
                  main!(binary_benchmark_groups = tool);\n";
    std::fs::write(fx.dir.join("benches/old.rs"), source).unwrap();
    assert_eq!(listed(&fx, "gun/suite"), IDS);
    // Listing runs no group's `setup`.
    assert!(!fx.dir.join("group-setup-ran").exists());

    let mut args = vec!["--format", "json"];
    args.extend_from_slice(QUICK);
    let run = fx.nbench(&args);
    let said = "skipped bench target `gun/old`: it runs iai-callgrind's first binary benchmarks \
                (`benchmark = |group| …` with `Run` and `Arg`)";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    let doc = run.json();
    let target = &doc["targets"][0];
    let mut measured: Vec<&str> = (target["benchmarks"].as_array().unwrap().iter())
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    measured.sort();
    let mut want = IDS.to_vec();
    want.sort();
    // `sort`'s teardown panics on an unsorted output: every row measured
    // means each bench got its own arguments, through its setup.
    assert_eq!(measured, want, "{target}");
    assert_eq!(target["failures"], serde_json::json!([]), "{target}");
    // The group's `setup` ran where the benchmarks ran (the package's folder).
    assert!(fx.dir.join("group-setup-ran").exists());
}

#[test]
fn a_skipped_target_is_said_to_use_the_library_its_source_uses() {
    // As glam declares its suites: criterion and gungraun both, and a
    // `[[bench]]` of helpers with `bench = false`, which `cargo bench`
    // does not run. And as lz4_flex: a binggan suite beside them.
    let fx = Fixture::new("gungraun");
    let manifest = fx.dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let line = text.lines().find(|l| l.starts_with(GUNGRAUN_LINE)).unwrap();
    let text = text.replace(
        line,
        "gungraun = \"0.19\"\ncriterion = \"0.8\"\nbinggan = \"0.17\"",
    );
    let helpers = "\n[[bench]]\nname = \"support\"\nbench = false\n";
    let binggan = "\n[[bench]]\nname = \"counted\"\nharness = false\n";
    // And as papaya's `latency`: a program of its own, printing percentiles
    // (and as arc-swap's `int-access`, taking criterion's `black_box`).
    let own = "\n[[bench]]\nname = \"latency\"\nharness = false\n";
    std::fs::write(&manifest, text + helpers + binggan + own).unwrap();
    let program = "use criterion::black_box;\nfn main() {\n    \
                   let t = std::time::Instant::now();\n    black_box(1);\n    \
                   println!(\"{:?}\", t.elapsed());\n}\n";
    std::fs::write(fx.dir.join("benches/latency.rs"), program).unwrap();
    std::fs::write(fx.dir.join("benches/support.rs"), "pub fn help() {}\n").unwrap();
    // Its `main` written out, as lz4_flex's binggan suite drives binggan.
    let counted = "fn main() {\n    let mut runner = binggan::BenchRunner::new();\n    \
                   runner.bench_function(\"one\", |_| 1);\n}\n";
    std::fs::write(fx.dir.join("benches/counted.rs"), counted).unwrap();
    let run = fx.nbench(&["--list"]);
    assert_eq!(run.code, 2, "{}", run.all());
    let said = "skipped bench target `gun/suite`: it uses gungraun; to run it unchanged, put \
                nbench-gungraun in gungraun's place";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    let said = "skipped bench target `gun/counted`: it uses binggan, a benchmark library \
                nbench has no front end for";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    let said = "skipped bench target `gun/latency`: its `main` is its own and uses no \
                benchmark library: a program, which `cargo bench --bench latency` runs as it is";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    assert!(!run.stderr.contains("support"), "{}", run.stderr);
    // Named, it is run as cargo bench would (and left out for its harness).
    let named = fx.nbench(&["--list", "--bench", "support"]);
    assert!(named.stderr.contains("`gun/support`"), "{}", named.stderr);
}

/// The binary benchmarks `commands.rs` registers, of the package's
/// `steps` command.
const COMMANDS: [&str; 15] = [
    "tool::steps::few",
    "tool::steps::many",
    "tool::steps::sandboxed",
    "tool::fails::expected",
    "tool::unexpected",
    "tool::configured::all",
    "tool::piped",
    "tool::beside::later",
    "tool::nested",
    "low::steps::few",
    "low::steps::many",
    "low::steps::sandboxed",
    "low::by_hand::pair_0",
    "low::by_hand::pair_1",
    "low::by_hand::failing",
];

/// `commands.rs` declared as bench target `commands`.
fn with_commands(fx: &Fixture) {
    let manifest = fx.dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let target = "\n[[bench]]\nname = \"commands\"\npath = \"commands.rs\"\nharness = false\n";
    std::fs::write(&manifest, text + target).unwrap();
}

#[test]
fn binary_benchmarks_time_and_count_their_command_and_fail_where_it_exits_otherwise() {
    // A command-line tool's suite (`#[binary_benchmark]`, and the
    // low-level `BinaryBenchmark`) times and counts its binary. Its own
    // target folder: the other tests build the fixture's `steps` too, in
    // the one they share, unchanged. The path of `steps` as long as the
    // one whose last 8 bytes, copied as a constant in the code, once named
    // a baseline's copy that did not exist.
    let steps = "target/nbench/build/release/steps";
    let fx = Fixture::with_path_length("gungraun", steps, 7).own_target_dir();
    with_commands(&fx);
    assert_eq!(listed(&fx, "gun/commands"), COMMANDS);
    let mut args = vec!["--bench", "commands", "--metrics", "time,instructions"];
    args.extend_from_slice(QUICK);
    // One link layout a side: what layouts do is `layouts.rs`'s subject.
    args.extend_from_slice(&ONE_LAYOUT);
    let mut saving = args.clone();
    // The high-level group (the low-level one is listed above), and a
    // low-level bench that its configuration expects to fail. The
    // configurations of `main!`, the group, the benchmark and the bench
    // set the environment `tool::configured::all` checks,
    // `tool::steps::sandboxed` reads a fixture its sandbox alone holds,
    // `tool::piped` fails unless its setup's stdout reaches its stdin, and
    // `tool::beside::later` unless it waits for what its setup makes.
    saving.extend_from_slice(&["--format", "json", "--save-baseline", "before"]);
    saving.extend_from_slice(&["tool::", "low::by_hand::failing"]);
    let run = fx.nbench(&saving);
    assert_eq!(run.code, 1, "{}", run.all());
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    let failures = &json["targets"][0]["failures"];
    assert_eq!(failures.as_array().map(Vec::len), Some(1), "{failures}");
    assert_eq!(failures[0]["id"], "tool::unexpected", "{failures}");
    let why = failures[0]["reason"].as_str().unwrap();
    assert!(
        why.contains("exited with exit status: 3, where success was expected"),
        "{why}"
    );
    let said = "it said: steps: told to fail, run as ";
    assert!(why.contains(said), "{why}");
    assert!(why.ends_with("/target/nbench/build/release/steps"), "{why}");
    // The command's own instructions are counted: a quarter million steps
    // more than the run that only starts and exits, and as many again.
    let alone = per_iter(&json, "tool::fails::expected");
    let few = per_iter(&json, "tool::steps::few");
    let many = per_iter(&json, "tool::steps::many");
    assert!(few - alone > 750_000.0, "{alone} {few}");
    let second = (many - few) / (few - alone);
    assert!((0.8..1.25).contains(&second), "{alone} {few} {many}");
    // Its setup's output read as its input: a thousand steps more.
    let piped = per_iter(&json, "tool::piped");
    assert!(piped > alone, "{alone} {piped}");
    // The command's, not its setup's beside it: a thousand steps, as
    // `piped`'s (their inputs are as long, and read as fast).
    let later = per_iter(&json, "tool::beside::later");
    assert!(
        (later - piped).abs() < 0.05 * (piped - alone),
        "{alone} {piped} {later}"
    );
    // And those of the processes it starts.
    let nested = per_iter(&json, "tool::nested");
    assert!(
        nested - alone > 0.9 * (few - alone),
        "{alone} {few} {nested}"
    );
    // Each run's setup made the input it read, and its teardown removed it.
    assert!(!fx.dir.join("few.txt").exists() && !fx.dir.join("many.txt").exists());
    assert!(!fx.dir.join("input.txt").exists() && !fx.dir.join("later.txt").exists());

    // The command takes a tenth more steps: compared with the baseline,
    // whose copy of the command runs, counted a side at a time where
    // both sides' runs of the setup met in the package's folder.
    fx.edit(
        "src/bin/steps.rs",
        "for i in 0..n {",
        "for i in 0..n + n / 10 {",
    );
    args.extend_from_slice(&[
        "--format",
        "json",
        "--compare",
        "before",
        "tool::steps::few",
    ]);
    let compared = fx.nbench(&args);
    let doc = compared.json();
    let target = &doc["comparison"]["targets"][0];
    let rows = target["rows"].as_array().unwrap();
    // What it says of a benchmark it did not compare comes first: CI's
    // log keeps the start and end of a long message.
    let not = &target["not_compared"];
    assert_eq!(rows.len(), 1, "{not}\n{}", compared.all());
    for row in rows {
        let change = row["instructions"]["change"].as_f64();
        assert!(
            change.is_some_and(|c| (0.08..0.12).contains(&c)),
            "{rows:?}"
        );
    }

    // Where cargo nbench gives a process a temporary folder of its own,
    // the package's binary starts from a link in it, of one length on both
    // sides of a comparison: where it runs from moves what its start
    // counts (a baseline's copy, at another path, counted 1.5 % more).
    let exe = built_exe(
        &fx.dir.join("target/nbench/build/release/deps"),
        "commands-",
    );
    let own = fx.dir.join("own");
    std::fs::create_dir_all(&own).unwrap();
    let mut cmd = std::process::Command::new(&exe);
    cmd.args(["--bench", "--exact", "tool::unexpected"])
        .args(QUICK)
        .env("TMPDIR", &own)
        .env("NBENCH_OWN_TMP", "1");
    let run = crate::helpers::Run::from(cmd.output().unwrap());
    let linked = (std::fs::read_dir(&own).unwrap().flatten().next())
        .expect("a link in the process's own temporary folder")
        .path();
    let said = format!("run as {}", linked.join("steps").display());
    assert!(run.stdout.contains(&said), "{said}\n{}", run.all());
}

/// The bench executable in `deps` whose name begins `stem`, not a layout's.
fn built_exe(deps: &std::path::Path, stem: &str) -> std::path::PathBuf {
    let mut found = std::fs::read_dir(deps).unwrap().flatten().map(|e| e.path());
    let executable = |p: &std::path::PathBuf| {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        name.starts_with(stem) && !name.contains('.')
    };
    found
        .find(executable)
        .expect("the bench target's executable")
}

#[test]
fn arguments_and_setup_stay_out_of_the_counts_as_in_gungraun() {
    let fx = Fixture::new("gungraun");
    let args = [
        "--metrics",
        "time,instructions",
        "--max-time",
        "100ms",
        "--format",
        "json",
        "len_only",
        "fib::",
    ];
    let json = fx.nbench(&args).json();
    // The setup runs a loop of 20 000 steps; the benchmark reads a length.
    let cheap = per_iter(&json, "bubble_sort::len_only::cheap");
    assert!(cheap < 2_000.0, "{cheap}");
    crate::helpers::counts_fib(&json, "numbers::fib::short", "numbers::fib::long");
}

#[test]
fn the_suite_compiles_unchanged_against_gungraun_itself() {
    let fx = Fixture::new("gungraun");
    // Its binary benchmarks too.
    with_commands(&fx);
    // cargo nbench cannot drive gungraun itself, and says what to change.
    let said = "skipped bench targets `gun/commands`, `gun/suite` (each for this reason): it \
                uses gungraun; to run it unchanged, put nbench-gungraun in gungraun's place: \
                `gungraun = { package = \"nbench-gungraun\", git = \
                \"https://github.com/nbench-rs/cargo-nbench\" }`";
    let library = (GUNGRAUN_LINE, "gungraun = \"=0.19.1\"", "gungraun.lock");
    crate::helpers::compiles_against_the_library(&fx, library, said);
}

#[test]
fn a_suite_written_for_iai_callgrind_runs_under_that_name() {
    let fx = Fixture::new("gungraun");
    fx.edit("Cargo.toml", "\ngungraun = {", "\niai-callgrind = {");
    fx.edit("benches/suite.rs", "use gungraun::", "use iai_callgrind::");
    assert_eq!(listed(&fx, "gun/suite"), IDS);
}

#[test]
fn cargo_bench_and_cargo_test_run_it_and_say_once_what_they_ignore() {
    let fx = Fixture::new("gungraun");
    let list = fx.cargo(&["bench", "--bench", "suite", "--", "--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    assert!(
        list.stdout.contains("numbers::fib::short: benchmark"),
        "{}",
        list.stdout
    );
    let said = "note: gungraun's `config` is accepted and not honoured";
    assert_eq!(list.stderr.matches(said).count(), 1, "{}", list.stderr);
    crate::helpers::runs_once(&fx, "bubble_sort::sort::many_1");
}

#[test]
fn two_revisions_of_an_untouched_iai_callgrind_suite_compare_with_the_swap_said() {
    let fx = Fixture::new("gungraun").own_target_dir();
    fx.on_registry(
        GUNGRAUN_LINE,
        |_| "iai-callgrind = \"0.16\"".into(),
        "gungraun.lock",
    );
    std::fs::remove_file(fx.dir.join("Cargo.lock")).unwrap();
    fx.edit("benches/suite.rs", "use gungraun::", "use iai_callgrind::");
    // And its binary benchmarks, whose command the commit leaves alone.
    with_commands(&fx);
    fx.edit("commands.rs", "gungraun::", "iai_callgrind::");
    let (from, to) = ("#[bench::short(10)]", "#[bench::short(16)]");
    fx.last_commit_changes("target/\nCargo.lock\n", "benches/suite.rs", from, to);
    let args = ["--metrics", "time,instructions", "--format", "json"];
    let filters = ["fib::short", "fib::long", "tool::steps::few"];
    let front = ("NBENCH_GUNGRAUN", "compat/gungraun");
    let r = fx.compare_last_commit(front, &[&args[..], &filters].concat());
    assert_eq!(r.code, 0, "{}", r.all());
    let said = "uses iai-callgrind: building it with nbench-gungraun in iai-callgrind's place \
                (Cargo.toml)";
    assert!(r.stderr.contains(said), "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    let targets = doc["comparison"]["targets"].as_array().unwrap();
    let rows: Vec<Value> = (targets.iter())
        .flat_map(|t| t["rows"].as_array().unwrap().clone())
        .collect();
    let row = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap().clone();
    // fibonacci(16) makes 11 times the calls of fibonacci(10).
    assert_eq!(
        row("numbers::fib::short")["verdict"],
        "regressed",
        "{rows:?}"
    );
    let counted = row("numbers::fib::short")["instructions"]["change"].as_f64();
    assert!(counted.is_some_and(|c| c > 5.0), "{rows:?}");
    assert_eq!(
        row("numbers::fib::long")["instructions"]["change"],
        0.0,
        "{rows:?}"
    );
    // The command, built and run from each revision's own folder, counts
    // the same but for the length of its path (its `argv[0]`).
    let command = row("tool::steps::few")["instructions"]["change"].as_f64();
    assert!(command.is_some_and(|c| c.abs() < 0.01), "{rows:?}");
}
