//! A criterion suite, unchanged, on nbench-criterion: it compiles against
//! real criterion 0.8 too, and runs under `cargo bench`, `cargo test
//! --benches` and `cargo nbench` (listing, filters, baselines, paired
//! comparisons, revisions) with criterion's ids.

use crate::helpers::{COMPAT_LINE, Fixture, ONE_LAYOUT, PAIRED, QUICK, Run, git};
use serde_json::Value;

/// Every benchmark of the fixture's `suite` target, in the program's order.
const SUITE: &[&str] = &[
    "work/chain",
    "work/steady",
    "work/twice",
    "work/same_id",
    "fib/12",
    "borrowed/sum",
    "borrowed/mutated",
    "borrowed/moved",
    "sort/batched/small",
    "sort/batched/large",
    "sort/batched/8",
    "sort/batched_ref",
    "sort/with_setup",
    "sort/large_drop",
    "sort/batches",
    "sort/custom",
    "rate/bits",
    "rate/bytes",
    "rate/decimal",
    "rate/both",
    "async/futures",
    "async/smol",
    "async/tokio",
    "async/custom",
    "async/batched",
    "async/batched_ref",
    "async/with_setup",
    "async/large_drop",
    "work/same_id #2",
    "measured/custom",
    "measured/iter",
    "measured/wall",
];

fn quick<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    QUICK.iter().chain(extra).copied().collect()
}

/// The comparison settings over 4 link layouts a side (what layouts do is
/// `layouts.rs`'s subject; each one is the bench crate compiled once
/// more), then `extra`.
fn paired<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    (PAIRED.iter().chain(&["--layouts", "4"]).chain(extra))
        .copied()
        .collect()
}

/// The benchmarks of a JSON run's target `label`, in order.
fn benchmarks(json: &str, label: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let target = v["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["target"] == label)
        .unwrap_or_else(|| panic!("no {label} in {v}"));
    target["benchmarks"].as_array().unwrap().clone()
}

/// Their ids.
fn ids(json: &str, label: &str) -> Vec<String> {
    benchmarks(json, label)
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_suite_compiles_unchanged_against_criterion_itself() {
    let fx = Fixture::new("criterion");
    let real = |line: &str| {
        let features = &line[line.find("features").unwrap()..];
        format!("criterion = {{ version = \"0.8\", {features}")
    };
    fx.on_registry(COMPAT_LINE, real, "criterion.lock");
    // Type-checked as cargo bench would build it (checking spares the
    // release build of criterion's dependencies; no executable is needed).
    let build = fx.cargo(&["check", "--benches", "--locked"]);
    assert_eq!(build.code, 0, "{}", build.all());
    // cargo nbench cannot drive criterion itself (this is it), and says what
    // to change: once for the package's six bench targets.
    let skipped = fx.nbench(&["--list"]);
    assert_ne!(skipped.code, 0, "{}", skipped.all());
    assert_eq!(skipped.stderr.matches("skipped bench target").count(), 1);
    assert!(
        skipped
            .stderr
            .contains("skipped bench targets `crit/contended`, `crit/legacy`, `crit/once`"),
        "{}",
        skipped.stderr
    );
    assert!(
        skipped.stderr.contains(
            "`crit/suite` (each for this reason): it uses criterion; to run it unchanged, put nbench-criterion in criterion's place"
        ),
        "{}",
        skipped.stderr
    );
    // The line it gives is the README's, where the package is published
    // (nbench-criterion is on no registry: a version alone would not resolve).
    let line = "`criterion = { package = \"nbench-criterion\", git = \"https://github.com/nbench-rs/cargo-nbench\" }`";
    assert!(skipped.stderr.contains(line), "{}", skipped.stderr);
    // And the way to try it with no edit.
    let no_edit = "or with no edit at all from a git repository";
    assert!(skipped.stderr.contains(no_edit), "{}", skipped.stderr);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(&line[..line.len() - 3].replace('`', "")),
        "the README gives another source"
    );
}

#[test]
fn cargo_nbench_runs_a_criterion_suite_with_criterions_ids() {
    let fx = Fixture::new("criterion");
    let list = fx.nbench(&["--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    let listed: Vec<&str> = list
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("crit/suite: "))
        .collect();
    assert_eq!(listed, SUITE, "{}", list.stdout);
    assert!(list.stdout.contains("crit/second: small/steady"));

    let run = fx.nbench(&quick(&["--format", "json"]));
    assert_eq!(run.code, 0, "{}", run.all());
    assert_eq!(ids(&run.stdout, "crit/suite"), SUITE);
    let suite = benchmarks(&run.stdout, "crit/suite");
    for b in &suite {
        assert!(b["median_ns"].as_f64().is_some(), "{b}");
    }
    // The group's throughput reaches the record.
    let sort = suite.iter().find(|b| b["id"] == "sort/custom").unwrap();
    assert_eq!(sort["throughput"]["items"], 256, "{sort}");
    // A closure with two timing calls is timed by its first (the same work
    // as `work/steady`), not failed and not by its 100 times longer second.
    let median = |id: &str| {
        let b = suite.iter().find(|b| b["id"] == id).unwrap();
        b["median_ns"].as_f64().unwrap()
    };
    let (twice, steady) = (median("work/twice"), median("work/steady"));
    assert!(twice < 10.0 * steady, "{twice} ns against {steady} ns");
    // An id given twice is two benchmarks, each measured: the second does
    // ten times the first's work.
    let (first, second) = (median("work/same_id"), median("work/same_id #2"));
    assert!(second > 3.0 * first, "{second} ns against {first} ns");

    // Two shards measure the suite between them, each benchmark once.
    let mut shards: Vec<String> = Vec::new();
    for shard in ["slice:1/2", "slice:2/2"] {
        let part = fx.nbench(&quick(&[
            "--format",
            "json",
            "--bench",
            "suite",
            "--partition",
            shard,
        ]));
        assert_eq!(part.code, 0, "{}", part.all());
        shards.extend(ids(&part.stdout, "crit/suite"));
    }
    shards.sort();
    let mut all: Vec<String> = SUITE.iter().map(|s| s.to_string()).collect();
    all.sort();
    assert_eq!(shards, all);

    // cargo nbench's filters select by criterion's ids.
    let filtered = fx.nbench(&quick(&[
        "--format",
        "json",
        "--bench",
        "suite",
        "sort/batched/",
    ]));
    assert_eq!(filtered.code, 0, "{}", filtered.all());
    assert_eq!(
        ids(&filtered.stdout, "crit/suite"),
        ["sort/batched/small", "sort/batched/large", "sort/batched/8"]
    );
}

#[test]
fn cargo_bench_and_cargo_test_take_criterions_command_line() {
    let fx = Fixture::new("criterion");
    let bench = |args: &[&str]| {
        let mut all = vec!["bench", "--bench", "suite", "--"];
        all.extend_from_slice(args);
        fx.cargo(&all)
    };
    // A regular expression as criterion's filter, and criterion's own flags.
    let table = bench(&[
        "--noplot",
        "--save-baseline",
        "x",
        "--sample-size",
        "10",
        "--warm-up-time",
        "0.005",
        "--measurement-time",
        "0.02",
        "^sort/batched/(small|8)$",
    ]);
    assert_eq!(table.code, 0, "{}", table.all());
    assert!(
        table.line("sort/batched/small ").contains(" ns"),
        "{}",
        table.stdout
    );
    assert!(table.line("sort/batched/8 ").contains("Gelem/s") || table.stdout.contains("elem/s"));
    assert!(
        !table.stdout.contains("sort/batched/large"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("2 measured"), "{}", table.stdout);
    for note in [
        "note: --noplot is ignored: nbench draws no plots",
        "note: --save-baseline is ignored: baselines are kept by cargo nbench",
        "note: --sample-size is ignored",
        "note: significance_level is ignored",
    ] {
        assert_eq!(
            table.stderr.matches(note).count(),
            1,
            "{note}: {}",
            table.stderr
        );
    }

    let exact = bench(&["--list", "--exact", "work/chain"]);
    assert_eq!(
        exact.stdout.trim(),
        "work/chain: benchmark\n\n0 tests, 1 benchmark".trim(),
        "{}",
        exact.all()
    );
    let bencher = bench(&["--output-format", "bencher", "--max-time", "20ms", "fib"]);
    assert!(
        bencher.stdout.contains("test fib/12 ... bench:"),
        "{}",
        bencher.all()
    );
    let bad = bench(&["(unclosed"]);
    assert_eq!(bad.code, 2, "{}", bad.all());
    assert!(
        bad.stderr.contains("error: invalid filter '(unclosed'"),
        "{}",
        bad.stderr
    );

    // `cargo test --benches` runs each benchmark once, as a test.
    let test = fx.cargo(&["test", "--benches"]);
    assert_eq!(test.code, 0, "{}", test.all());
    for id in SUITE {
        assert!(
            test.stdout.contains(&format!("test {id} ... ok")),
            "{id}: {}",
            test.stdout
        );
    }
    let once = bench(&["--test", "work/"]);
    assert!(
        once.stdout.contains("test work/chain ... ok"),
        "{}",
        once.all()
    );
}

#[test]
fn a_benchmark_named_after_a_clock_reading_is_measured_and_compared_as_new() {
    let fx = Fixture::new("criterion");
    // Each process names it anew: the listing's process, the measuring one,
    // and the walk that reaches it again inside a process.
    let stamped = |ids: Vec<String>| -> Vec<String> {
        ids.into_iter()
            .filter(|id| id.starts_with("stamped/clock/"))
            .collect()
    };
    let run = fx.nbench(&quick(&["--format", "json", "--bench", "second"]));
    assert_eq!(run.code, 0, "{}", run.all());
    let measured = benchmarks(&run.stdout, "crit/second");
    let ids: Vec<String> = measured
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(stamped(ids).len(), 1, "{}", run.stdout);
    assert!(
        measured.iter().all(|b| b["median_ns"].as_f64().is_some()),
        "{measured:?}"
    );

    // Paired with a baseline: the clock reading differs, so it is new, and
    // the run still succeeds (no verdict is asserted: brief, one layout).
    let run_paired = |extra: &[&str]| fx.nbench(&quick(&[&ONE_LAYOUT, extra].concat()));
    let save = run_paired(&["--save-baseline", "stamped", "--bench", "second"]);
    assert_eq!(save.code, 0, "{}", save.all());
    let cmp = run_paired(&[
        "--compare",
        "stamped",
        "--bench",
        "second",
        "--format",
        "json",
    ]);
    let v = cmp.json();
    let target = &v["comparison"]["targets"][0];
    let new: Vec<String> = (target["new"].as_array().unwrap().iter())
        .map(|id| id.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(stamped(new).len(), 1, "{target}");
    assert!(
        (target["rows"].as_array().unwrap().iter()).any(|r| r["id"] == "small/steady"),
        "{target}"
    );

    // In one process too (criterion's own way of running).
    let test = fx.cargo(&["bench", "--bench", "second", "--", "--test"]);
    assert_eq!(test.code, 0, "{}", test.all());
    assert!(
        test.stdout
            .lines()
            .any(|l| l.starts_with("test stamped/clock/") && l.ends_with("... ok")),
        "{}",
        test.stdout
    );
}

#[test]
fn an_id_over_two_lines_is_shown_on_one_and_kept_whole() {
    // A group named by a string literal that runs over two lines.
    let fx = Fixture::new("criterion");
    let shown = r"lines\n    /two";
    let list = fx.nbench(&["--list", "--bench", "second", "lines"]);
    assert_eq!(list.code, 0, "{}", list.all());
    assert_eq!(list.stdout.trim_end(), format!("crit/second: {shown}"));
    let run = fx.nbench(&quick(&["--bench", "second", "lines"]));
    assert_eq!(run.code, 0, "{}", run.all());
    let row = run.line(shown);
    assert!(row.contains(" ns ") || row.contains(" µs "), "{row}");
    let progress = (run.stderr.lines()).find(|l| l.starts_with("measuring"));
    assert!(
        progress.is_some_and(|l| l.ends_with(shown)),
        "{}",
        run.stderr
    );
    assert!(
        !run.all().lines().any(|l| l.starts_with("    /two")),
        "{}",
        run.all()
    );
    let markdown = fx.nbench(&quick(&[
        "--bench", "second", "lines", "--format", "markdown",
    ]));
    assert_eq!(markdown.code, 0, "{}", markdown.all());
    assert!(
        markdown.line(&format!("| `{shown}` |")).contains(" | "),
        "{}",
        markdown.stdout
    );
    // The id itself is kept: in JSON, and so in the store; and it is
    // counted (a count is labelled with the id on one line).
    let json = fx.nbench(&quick(&[
        "--bench",
        "second",
        "lines",
        "--metrics",
        "time,instructions",
        "--format",
        "json",
    ]));
    assert_eq!(json.code, 0, "{}", json.all());
    assert_eq!(ids(&json.stdout, "crit/second"), ["lines\n    /two"]);
    let counted = &benchmarks(&json.stdout, "crit/second")[0]["metrics"]["instructions"];
    assert!(
        counted["per_iter"].as_f64().is_some_and(|n| n > 100.0),
        "{counted}"
    );
}

#[test]
fn a_benchmark_runs_its_own_functions_code_not_the_whole_suites() {
    // A group's code outside its closures (building inputs) runs once in the
    // listing, and again only for the benchmarks it holds: measuring
    // `small/steady` does not build what `stamped` builds.
    let fx = Fixture::new("criterion");
    let exe = fx.bench_exe("second");
    let log = fx.dir.join("ran.txt");
    let ran = |args: &[&str]| -> Vec<String> {
        let _ = std::fs::remove_file(&log);
        let out = std::process::Command::new(&exe)
            .args(args)
            .current_dir(&fx.dir)
            .env("CRIT_RAN", &log)
            .output()
            .unwrap();
        let run = Run::from(out);
        assert_eq!(run.code, 0, "{}", run.all());
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        text.lines().map(str::to_owned).collect()
    };
    assert_eq!(ran(&["--list"]), ["small", "stamped"]);
    assert_eq!(
        ran(&["--test", "small/steady"]),
        ["small", "stamped", "small"]
    );
    assert_eq!(
        ran(&["--test", "stamped/"]),
        ["small", "stamped", "stamped", "stamped"],
        "the clock's id is not found by its name, and then by its place in `stamped`"
    );
}

#[test]
fn a_global_a_benchmark_function_sets_once_per_process_is_set_once_for_each_benchmark() {
    // `once/before` runs before the global is set, `once/after` and
    // `once/later` after; setting it twice in one process panics. Each is
    // measured: the listing is walked for in a copy of the process (and in
    // a process of its own), a walk ends at its benchmark, and `later`,
    // which fails where `after` ran before it, is measured in processes of
    // its own.
    let fx = Fixture::new("criterion");
    let run = fx.nbench(&quick(&[
        "--features",
        "once",
        "--bench",
        "once",
        "--format",
        "json",
    ]));
    assert_eq!(run.code, 0, "{}", run.all());
    let measured: Vec<String> = benchmarks(&run.stdout, "crit/once")
        .iter()
        .filter(|b| b["median_ns"].as_f64().is_some())
        .map(|b| b["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        measured,
        ["once/before", "once/after", "once/later"],
        "{}",
        run.all()
    );

    // Compared: each process of a pair is the first of its executable (a
    // link layout, copied), and lists the suite in a copy of itself.
    let once = ["--features", "once", "--bench", "once", "--layouts", "2"];
    let saved = fx.nbench(&[QUICK, &once, &["--save-baseline", "once"]].concat());
    assert_eq!(saved.code, 0, "{}", saved.all());
    let compared = fx.nbench(&[QUICK, &once, &["--compare", "once", "--format", "json"]].concat());
    assert_eq!(compared.code, 0, "{}", compared.all());
    let doc: Value = serde_json::from_str(&compared.stdout).unwrap();
    let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{}", doc["comparison"]);

    // `cargo bench` and `cargo test --benches` run a target's benchmarks in
    // one process, as criterion does: `later` fails there after `after`,
    // and runs again in a fresh process of its own.
    let cargo = |mode: &str, tail: &[&str]| {
        let head = [mode, "--features", "once", "--bench", "once", "--"];
        fx.cargo(&[&head[..], tail].concat())
    };
    let table = cargo("bench", &["--max-time", "50ms"]);
    assert_eq!(table.code, 0, "{}", table.all());
    for id in ["once/before", "once/after", "once/later"] {
        assert!(
            table.line(&format!("{id} ")).contains("s "),
            "{id}: {}",
            table.stdout
        );
    }
    assert!(
        table.stdout.contains("3 measured; 0 failed"),
        "{}",
        table.all()
    );
    let tested = cargo("test", &[]);
    assert_eq!(tested.code, 0, "{}", tested.all());
    assert!(
        tested.stdout.contains("test once/later ... ok"),
        "{}",
        tested.all()
    );
}

#[test]
fn the_processes_of_a_comparison_list_the_suite_once_for_each_side_whatever_its_layouts() {
    // Listing runs every benchmark function's code; a comparison starts a
    // fresh pair of processes for each of its epochs, over 4 link layouts
    // a side. A side's executables (the build, its layouts, the links a
    // comparison runs them through) keep one listing between them, in a
    // directory of the run's own that is gone when the run ends.
    let fx = Fixture::new("criterion");
    let log = fx.dir.join("ran.txt");
    let tmp = fx.dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["--bench", "second", "--metrics", "time,instructions"];
        args.extend(extra);
        args.push("small/steady");
        let mut cmd = fx.nbench_command(&paired(&args));
        cmd.env("CRIT_RAN", &log).env("TMPDIR", &tmp);
        Run::from(cmd.output().unwrap())
    };
    let save = run(&["--save-baseline", "listed"]);
    assert_eq!(save.code, 0, "{}", save.all());
    std::fs::remove_file(&log).unwrap();
    let cmp = run(&["--compare", "listed"]);
    assert_eq!(cmp.code, 0, "{}", cmp.all());
    assert!(
        cmp.stderr.contains("building 4 link layouts"),
        "{}",
        cmp.all()
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let count = |f: &str| text.lines().filter(|l| *l == f).count();
    // `stamped` runs only where a process lists; `small` there too, and in
    // each process that measured or counted `small/steady`. Each side lists
    // once (listed apart: 10 listings, one an executable).
    let (listings, measured) = (count("stamped"), count("small") - count("stamped"));
    assert!(
        listings == 2 && measured >= 8 + 6,
        "{listings} listings, {measured} processes measured or counted:\n{}",
        cmp.all()
    );
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_slower_criterion_benchmark_is_the_only_one_called_regressed() {
    let fx = Fixture::new("criterion");
    let run_paired = |extra: &[&str]| fx.nbench(&paired(extra));
    let save = run_paired(&["--save-baseline", "crit-slower", "work/", "small/"]);
    assert_eq!(save.code, 0, "{}", save.all());
    // The slower build doubles `work/chain`; its other benchmarks are the
    // same code in another build, which on a loaded VM read up to ~1 %
    // apart (`work/steady` +1.09 % [+0.63 %, +1.56 %] once): a 5 %
    // threshold keeps that from deciding the verdict, not the doubling.
    let slow = run_paired(&[
        "--features",
        "slow",
        "--compare",
        "crit-slower",
        "--noise-threshold",
        "5",
        "--fail-on-regression",
        "work/",
        "small/",
    ]);
    assert_eq!(slow.code, 4, "{}", slow.all());
    let chain = slow.line("work/chain ");
    assert!(
        chain.contains("regressed") && chain.contains("paired"),
        "{chain}"
    );
    assert!(
        !slow.line("work/steady ").contains("regressed"),
        "{}",
        slow.stdout
    );
    assert!(
        !slow.line("small/steady ").contains("regressed"),
        "{}",
        slow.stdout
    );
    assert!(
        slow.line("small/only_slow ").contains("new"),
        "{}",
        slow.stdout
    );
    assert!(
        slow.stdout
            .contains("compared with `crit-slower`: 1 regressed"),
        "{}",
        slow.stdout
    );
}

#[test]
fn a_criterion_suite_compares_with_a_git_revision() {
    // Another name: this copy's package changes, and in the shared target
    // directory every other copy's `crit` has the same file names.
    let fx = Fixture::new("criterion");
    let manifest = fx.dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let renamed = text.replace("name = \"crit\"", "name = \"crit_rev\"");
    std::fs::write(&manifest, renamed + "\n[lib]\nname = \"crit\"\n").unwrap();
    fx.first_commit("target/\n");
    let lib = fx.dir.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    let slower = text.replace("{ 2 * n } else { n }", "{ 2 * n } else { 2 * n }");
    assert_ne!(text, slower);
    std::fs::write(&lib, slower).unwrap();
    git(
        &fx.dir,
        &["commit", "--quiet", "-am", "chain does twice the work"],
    );

    // At a 5 % threshold: the unchanged benchmarks of another build read
    // up to ~1 % apart on a loaded machine; the doubled chain stays far past it.
    let run: Run = fx.nbench(&paired(&[
        "--compare-rev",
        "HEAD~1",
        "--noise-threshold",
        "5",
        "--bench",
        "suite",
        "work/chain",
        "work/steady",
    ]));
    assert_eq!(run.code, 0, "{}", run.all());
    let chain = run.line("work/chain ");
    assert!(
        chain.contains("regressed") && chain.contains("paired"),
        "{}",
        run.all()
    );
    assert!(
        !run.line("work/steady ").contains("regressed"),
        "{}",
        run.stdout
    );

    // Two revisions, neither the working tree (the chain alone: the row
    // that tells).
    let args = [
        "compare",
        "--rev",
        "HEAD~1",
        "HEAD",
        "--bench",
        "suite",
        "work/chain",
    ];
    let revs = fx.nbench(&[&args[..], &paired(&[])].concat());
    assert_eq!(revs.code, 0, "{}", revs.all());
    // `HEAD~1`, built above, is reused: the suite names nbench-criterion
    // already, so no swap is missing from that build.
    assert!(
        !revs.stderr.contains("building `HEAD~1`"),
        "{}",
        revs.stderr
    );
    assert!(
        revs.line("work/chain ").contains("regressed"),
        "{}",
        revs.stdout
    );
}

#[test]
fn group_settings_reach_cargo_nbench_as_hints_on_its_limits() {
    use nbench::__private::protocol::{
        Command, Event, PROTOCOL_FLAG, TOKEN_ENV, read_message, write_message,
    };
    use std::io::{BufReader, BufWriter};
    let fx = Fixture::new("criterion");
    let exe = fx.bench_exe("suite");
    // Speak the protocol as cargo nbench does, and list.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let mut child = std::process::Command::new(&exe)
        .args([PROTOCOL_FLAG, &addr])
        .env(TOKEN_ENV, "t")
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (stream, _) = listener.accept().unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = BufWriter::new(stream);
    let hello = read_message::<Event>(&mut reader).unwrap();
    assert!(matches!(hello, Some(Event::Hello { .. })), "{hello:?}");
    write_message(&mut writer, &Command::List).unwrap();
    let Some(Event::List(listed)) = read_message::<Event>(&mut reader).unwrap() else {
        panic!("no list");
    };
    write_message(&mut writer, &Command::Quit).unwrap();
    assert!(child.wait().unwrap().success());
    let hint = |id: &str| listed.iter().find(|l| l.id == id).unwrap().hint;
    assert_eq!(hint("work/chain"), None, "no settings, no hint");
    // `sort`: sample_size(20), measurement_time(2s) and warm_up_time(500ms),
    // shorter than criterion's defaults: only the sample count counts.
    let sort = hint("sort/custom").expect("a hint");
    assert_eq!((sort.time, sort.warm_up, sort.samples), (1.0, 1.0, 0.2));
    // The `configured` group's config: sample_size(10).
    assert_eq!(hint("measured/iter").map(|h| h.samples), Some(0.1));
}

#[test]
fn criterion_0_3_definitions_run_under_the_ids_criterion_0_3_gave_them() {
    // `Benchmark`, `ParameterizedBenchmark`, `Fun` and the `Criterion`
    // methods that run them, removed in criterion 0.4.
    let fx = Fixture::new("criterion");
    let legacy = ["--features", "legacy", "--bench", "legacy"];
    let run = fx.nbench(&quick(&[&legacy[..], &["--format", "json"]].concat()));
    assert_eq!(run.code, 0, "{}", run.all());
    let rows = benchmarks(&run.stdout, "crit/legacy");
    let ids: Vec<&str> = rows.iter().map(|b| b["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "sum/small",
            "sum/large",
            "over/8",
            "over/64",
            "bytes/sum/64",
            "bytes/sum/256",
            "strings/copy",
            "strings/own",
        ],
        "{}",
        run.all()
    );
    for row in &rows {
        assert!(row["median_ns"].as_f64().is_some(), "{row}");
    }
    // The parameter's throughput, per parameter.
    let bytes = |id: &str| rows.iter().find(|b| b["id"] == id).unwrap()["throughput"].clone();
    assert_ne!(
        bytes("bytes/sum/64"),
        bytes("bytes/sum/256"),
        "{}",
        run.stdout
    );

    let tested = fx.cargo(&["test", "--features", "legacy", "--bench", "legacy"]);
    assert_eq!(tested.code, 0, "{}", tested.all());
    assert!(
        tested.stdout.contains("test strings/own ... ok"),
        "{}",
        tested.all()
    );
}

#[test]
fn a_suite_with_a_main_of_its_own_runs_each_benchmark_where_its_main_reaches_it() {
    let fx = Fixture::new("criterion");
    let own = ["--features", "own_main", "--bench", "own_main"];
    let wanted = ["own/sum/16", "own/sum/4096", "grouped"];
    // Measured and counted under the ids its `main` gives, each with its
    // own closure and input (the counts tell the two sums apart).
    let counted = ["--metrics", "time,instructions", "--format", "json"];
    let run = fx.nbench(&quick(&[&own[..], &counted[..]].concat()));
    assert_eq!(run.code, 0, "{}", run.all());
    assert_eq!(ids(&run.stdout, "crit/own_main"), wanted, "{}", run.all());
    let rows = benchmarks(&run.stdout, "crit/own_main");
    let count = |i: usize| rows[i]["metrics"]["instructions"]["per_iter"].as_f64();
    let (small, large) = (count(0).unwrap_or(0.0), count(1).unwrap_or(0.0));
    assert!(
        small > 0.0 && large > 50.0 * small,
        "{small} {large}: {}",
        run.all()
    );
    assert!(
        rows.iter().all(|r| r["median_ns"].as_f64().is_some()),
        "{}",
        run.stdout
    );

    // Compared in pairs: each process of a pair goes on, for each
    // benchmark, as a fresh image of itself aimed at it.
    let own = [&own[..], &ONE_LAYOUT].concat();
    let saved = fx.nbench(&[PAIRED, &own, &["--save-baseline", "own"]].concat());
    assert_eq!(saved.code, 0, "{}", saved.all());
    let compared = fx.nbench(&[PAIRED, &own, &["--compare", "own", "--format", "json"]].concat());
    assert_eq!(compared.code, 0, "{}", compared.all());
    let doc: Value = serde_json::from_str(&compared.stdout).unwrap();
    let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{}", doc["comparison"]);

    // `cargo bench` and `cargo test --benches`: each in a process aimed at it.
    let table = fx.cargo(&[
        "bench",
        own[0],
        own[1],
        own[2],
        own[3],
        "--",
        "--max-time",
        "50ms",
    ]);
    assert_eq!(table.code, 0, "{}", table.all());
    let tested = fx.cargo(&["test", own[0], own[1], own[2], own[3]]);
    assert_eq!(tested.code, 0, "{}", tested.all());
    for id in wanted {
        assert!(
            table.line(&format!("{id} ")).contains("s "),
            "{id}: {}",
            table.all()
        );
        assert!(
            tested.stdout.contains(&format!("test {id} ... ok")),
            "{}",
            tested.all()
        );
    }
}

#[test]
fn a_benchmark_measured_beside_threads_its_scope_stops_after_it_ends() {
    // As arc-swap's contended rows: threads spin in a scope until the code
    // after the benchmark stops them. Ending the walk by unwinding there
    // waited for them for ever (each row timed out).
    let fx = Fixture::new("criterion");
    let contended = ["--features", "contended", "--bench", "contended"];
    let json = ["--timeout", "30s", "--format", "json"];
    let run = fx.nbench(&quick(&[&contended[..], &json[..]].concat()));
    assert_eq!(run.code, 0, "{}", run.all());
    let rows = benchmarks(&run.stdout, "crit/contended");
    let measured: Vec<&str> = (rows.iter())
        .filter(|b| b["median_ns"].as_f64().is_some())
        .map(|b| b["id"].as_str().unwrap_or_default())
        .collect();
    let wanted = ["contended/one", "contended/two", "contended/alone"];
    assert_eq!(measured, wanted, "{}", run.all());

    // And compared in pairs.
    let pair = [PAIRED, &contended, &["--timeout", "60s", "--layouts", "1"]].concat();
    let saved = fx.nbench(&[&pair[..], &["--save-baseline", "spin"]].concat());
    assert_eq!(saved.code, 0, "{}", saved.all());
    let compared = fx.nbench(&[&pair[..], &["--compare", "spin", "--format", "json"]].concat());
    assert_eq!(compared.code, 0, "{}", compared.all());
    let doc: Value = serde_json::from_str(&compared.stdout).unwrap();
    let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{}", doc["comparison"]);
}

#[test]
fn a_suite_swapped_by_hand_that_leaned_on_criterions_features_is_told_what_to_add() {
    // As bincode's benches do: serde_json without its default features.
    // criterion's own serde_json turned `std` on for the whole build;
    // nbench-criterion takes no serde_json, and serde_json stops the build.
    let fx = Fixture::new("criterion");
    let manifest = fx.dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let json = "serde_json = { version = \"1\", default-features = false }\n";
    let text = text.replace(
        "[dev-dependencies]\n",
        &format!("[dev-dependencies]\n{json}"),
    );
    std::fs::write(&manifest, &text).unwrap();
    let run = fx.nbench(&["--bench", "second"]);
    assert_eq!(run.code, 3, "{}", run.all());
    let hint = (run.stderr.lines())
        .find(|l| l.trim_start().starts_with("hint:"))
        .unwrap_or_else(|| panic!("no hint:\n{}", run.all()));
    for said in [
        "criterion turned on `serde_json/std` for the whole build",
        "add `features = [\"std\"]` to its entry in `Cargo.toml`",
    ] {
        assert!(hint.contains(said), "{said:?} in {hint}");
    }
    // With the feature asked for, it builds.
    let json_std =
        "serde_json = { version = \"1\", default-features = false, features = [\"std\"] }\n";
    std::fs::write(&manifest, text.replace(json, json_std)).unwrap();
    let run = fx.nbench(&["--bench", "second", "--list"]);
    assert_eq!(run.code, 0, "{}", run.all());
}
