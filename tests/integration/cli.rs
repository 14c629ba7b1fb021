//! `cargo nbench` end to end: discovery, selection, faults, formats, storage, errors.

use crate::helpers::{Fixture, ONE_LAYOUT, QUICK, Run};

fn with_quick<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.extend_from_slice(QUICK);
    v
}

#[test]
fn default_members_run_and_foreign_targets_are_skipped() {
    let fx = Fixture::new("workspace");
    let run = fx.nbench(&with_quick(&[]));
    assert_eq!(run.code, 0, "{}", run.all());
    for target in ["alpha/alpha_a", "alpha/alpha_b", "beta/beta"] {
        assert!(
            run.stdout.lines().any(|l| l == target),
            "no table for {target}\n{}",
            run.all()
        );
    }
    for id in ["add ", "sum/u64/10 ", "sum/u64/100 ", "mul ", "xor/4KiB "] {
        assert!(run.line(id).contains(" × "), "{id}: {}", run.stdout);
    }
    assert!(run.line("xor/4KiB ").contains("iB/s"));
    assert!(run.line("later ").contains("ignored"));
    assert!(
        !run.stdout.contains("faults"),
        "faults is not a default member"
    );
    // The hand-written target is recognised without being run.
    assert!(
        run.stderr.contains("skipped bench target `beta/handmade`"),
        "{}",
        run.stderr
    );
    assert!(
        !fx.dir.join("beta/HANDMADE_RAN").exists(),
        "the hand-written bench was run"
    );
    assert!(
        run.stdout
            .contains("ok. 5 measured; 0 failed; 1 ignored; 0 filtered out"),
        "{}",
        run.stdout
    );
}

#[test]
fn package_target_and_filter_selection() {
    let fx = Fixture::new("workspace");
    let run = fx.nbench(&with_quick(&["-p", "beta"]));
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(run.stdout.contains("beta/beta") && !run.stdout.contains("alpha/"));

    let run = fx.nbench(&with_quick(&["--bench", "alpha_b"]));
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(run.stdout.contains("mul ") && !run.stdout.contains("add "));

    let run = fx.nbench(&with_quick(&["-p", "alpha", "sum", "--skip", "100"]));
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(run.stdout.contains("sum/u64/10 ") && !run.stdout.contains("sum/u64/100 "));
    assert!(
        run.stdout
            .contains("1 measured; 0 failed; 0 ignored; 4 filtered out"),
        "{}",
        run.stdout
    );

    // From a member's directory, cargo's rule: that package only.
    let run = fx.nbench_in("beta", &with_quick(&[]));
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(
        run.stdout.contains("beta/beta") && !run.stdout.contains("alpha/"),
        "{}",
        run.stdout
    );

    let run = fx.nbench(&[
        "--workspace",
        "--exclude",
        "faults",
        "--exclude",
        "impostor",
        "--exclude",
        "tunable",
        "--list",
    ]);
    assert_eq!(run.code, 0, "{}", run.all());
    let listed: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        listed,
        [
            "alpha/alpha_a: add",
            "alpha/alpha_a: sum/u64/10",
            "alpha/alpha_a: sum/u64/100",
            "alpha/alpha_b: mul",
            "alpha/alpha_b: later",
            "beta/beta: xor/4KiB"
        ]
    );

    // What `cargo bench` users write after `--` selects and lists, as
    // cargo nbench's own flags do; other flags reach the bench binary,
    // whose own error is quoted; baselines are cargo nbench's.
    let after = |line: &[&str]| {
        let mut args = with_quick(&["-p", "alpha"]);
        args.push("--");
        args.extend(line);
        fx.nbench(&args)
    };
    let run = after(&["sum", "--skip", "100", "--list"]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert_eq!(
        run.stdout.trim(),
        "alpha/alpha_a: sum/u64/10",
        "{}",
        run.all()
    );
    let run = after(&["add", "--output-format", "bencher"]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(
        run.stdout.contains("test alpha/alpha_a::add ... bench:"),
        "{}",
        run.stdout
    );
    let run = after(&["--bogus", "add"]);
    assert_ne!(run.code, 0, "{}", run.all());
    assert!(
        run.stderr.contains("error: unknown option '--bogus'"),
        "{}",
        run.stderr
    );
    let run = after(&["--save-baseline", "main"]);
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.error_line()
            .ends_with("`cargo nbench --save-baseline NAME`"),
        "{}",
        run.stderr
    );

    // A target's name as a pattern, as cargo takes it.
    let run = fx.nbench(&[
        "--workspace",
        "--bench",
        "alpha_?",
        "--bench",
        "*ta",
        "--list",
    ]);
    assert_eq!(run.code, 0, "{}", run.all());
    let targets: Vec<&str> = (run.stdout.lines())
        .filter_map(|l| Some(l.split_once(':')?.0))
        .collect();
    assert_eq!(
        targets,
        [
            "alpha/alpha_a",
            "alpha/alpha_a",
            "alpha/alpha_a",
            "alpha/alpha_b",
            "alpha/alpha_b",
            "beta/beta"
        ]
    );
}

#[test]
fn a_comparison_too_slow_for_its_timeout_says_so() {
    // 400 ms an iteration: a comparison's first pair of processes runs
    // five of them a side, more than 3 s holds.
    let fx = Fixture::new("workspace");
    let slow = [
        &["-p", "faults", "--features", "slow", "h_slow"][..],
        &ONE_LAYOUT,
    ]
    .concat();
    let saved = fx.nbench(&[&slow[..], &["--save-baseline", "b", "--max-time", "100ms"]].concat());
    assert_eq!(saved.code, 0, "{}", saved.all());
    let compared = fx.nbench(&[&slow[..], &["--compare", "b", "--timeout", "3s"]].concat());
    assert_eq!(compared.code, 1, "{}", compared.all());
    let said = "timed out after 3 s (the --timeout limit): its first call took";
    assert!(compared.all().contains(said), "{}", compared.all());
    assert!(
        compared.all().contains("raise --timeout"),
        "{}",
        compared.all()
    );
}

#[test]
fn each_fault_costs_only_its_benchmark() {
    let fx = Fixture::new("workspace");
    let run = fx.nbench(&with_quick(&["-p", "faults", "--timeout", "3s"]));
    assert_eq!(
        run.code,
        1,
        "a failed benchmark gives exit code 1\n{}",
        run.all()
    );
    for id in ["a_before ", "b_noisy ", "g_after "] {
        assert!(
            run.line(id).contains(" × "),
            "{id} not measured\n{}",
            run.all()
        );
    }
    let reason = |id: &str| run.line(id).to_owned();
    assert!(
        reason("c_panics ").contains("deliberate panic in c_panics"),
        "{}",
        run.stdout
    );
    assert!(reason("d_aborts ").contains("SIGABRT"), "{}", run.stdout);
    assert!(reason("e_segfaults ").contains("SIGSEGV"), "{}", run.stdout);
    assert!(
        reason("f_hangs ").contains("timed out after 3 s (the --timeout limit)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("3 measured; 4 failed"),
        "{}",
        run.stdout
    );
    // What the benchmarks print stays off the table, and the channel survives it.
    assert!(!run.stdout.contains("stdout line"), "{}", run.stdout);
    // A failed benchmark's own output is shown with it.
    assert!(run.stderr.contains("about to panic"), "{}", run.stderr);
    assert!(run.stderr.contains("about to abort"), "{}", run.stderr);
}

#[test]
fn a_build_failure_shows_the_compiler_error_and_its_exit_code() {
    let fx = Fixture::new("broken");
    let run = fx.nbench(&[]);
    assert_eq!(run.code, 3, "{}", run.all());
    assert!(
        run.stderr.contains("undefined_function_in_fixture"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("error: build failed"), "{}", run.stderr);

    // Building link layouts, the code's own error fails its one compile:
    // rustc is not run again without the first layout's link options.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let (log, script) = (fx.dir.join("rustc.log"), fx.dir.join("rustc.sh"));
        let text = format!("#!/bin/sh\necho \"$@\" >> {log:?}\nexec rustc \"$@\"\n");
        std::fs::write(&script, text).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = fx.nbench_command(&["--save-baseline", "x"]);
        let run = Run::from(cmd.env("RUSTC", &script).output().unwrap());
        assert_eq!(run.code, 3, "{}", run.all());
        assert!(
            run.stderr.contains("undefined_function_in_fixture"),
            "{}",
            run.stderr
        );
        let log = std::fs::read_to_string(&log).unwrap();
        let compiles = log
            .lines()
            .filter(|l| l.contains("benches/broken.rs"))
            .count();
        assert_eq!(compiles, 1, "{log}");
    }
}

#[test]
fn json_output_and_the_stored_run() {
    let fx = Fixture::new("workspace").own_target_dir();
    let out = fx.dir.join("out.json");
    let run = fx.nbench(&with_quick(&[
        "-p",
        "alpha",
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert_eq!(run.code, 0, "{}", run.all());
    let doc: serde_json::Value =
        serde_json::from_str(&run.stdout).expect("stdout is one JSON document");
    assert_eq!(doc["schema"], 1);
    for key in [
        "date",
        "rustc",
        "profile",
        "host",
        "cores",
        "nbench_version",
        "settings",
    ] {
        assert!(!doc["context"][key].is_null(), "context.{key} missing");
    }
    assert_eq!(doc["context"]["profile"], "bench");
    let first = &doc["targets"][0];
    assert_eq!(first["target"], "alpha/alpha_a");
    let bench = &first["benchmarks"][0];
    assert_eq!(bench["id"], "add");
    let samples = bench["per_iter_ns"].as_array().unwrap();
    // Every sample is stored; the summary counts those the outlier mode kept.
    let summarised = bench["samples"].as_u64().unwrap() + bench["set_aside"].as_u64().unwrap();
    assert_eq!(samples.len() as u64, summarised);
    assert_eq!(bench["outlier_mode"], "none");
    assert_eq!(doc["context"]["settings"]["outliers"], "none");
    assert!(bench["median_ns"].as_f64().unwrap() >= 0.0);
    // --out holds the same document; the store holds it too.
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(written, doc);
    let runs: Vec<_> = std::fs::read_dir(fx.dir.join("target/nbench/runs"))
        .unwrap()
        .collect();
    assert_eq!(runs.len(), 1);
    let stored: serde_json::Value =
        serde_json::from_slice(&std::fs::read(runs[0].as_ref().unwrap().path()).unwrap()).unwrap();
    assert_eq!(stored, doc);
    // `--outliers both5` sets aside ⌊n/20⌋ at each end; the mode travels to the binary and back.
    let run = fx.nbench(&with_quick(&[
        "-p",
        "alpha",
        "--format",
        "json",
        "--outliers",
        "both5",
        "add",
    ]));
    let doc = run.json();
    let bench = &doc["targets"][0]["benchmarks"][0];
    assert_eq!(bench["outlier_mode"], "both5");
    let all = bench["per_iter_ns"].as_array().unwrap().len() as u64;
    assert_eq!(bench["set_aside"].as_u64().unwrap(), 2 * (all / 20));
    assert_eq!(bench["samples"].as_u64().unwrap(), all - 2 * (all / 20));
}

#[test]
fn usage_errors_are_one_line_and_exit_2() {
    let fx = Fixture::new("workspace");
    let run = fx.nbench(&["--max-time", "soon"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("invalid value 'soon' for '--max-time <DUR>'"),
        "{}",
        run.stderr
    );
    let run = fx.nbench(&["--outliers", "5%"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("expected none, top5, both5 or iqr"),
        "{}",
        run.stderr
    );
    let run = fx.nbench(&["-p", "nope"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("package `nope` is not a member of the workspace"),
        "{}",
        run.stderr
    );
    // Which members could be meant.
    assert!(
        run.stderr
            .contains("hint: the members with bench targets are `alpha`, `beta`, `faults`, `impostor`, `tunable`\n"),
        "{}",
        run.stderr
    );
    let run = fx.nbench(&["--bench", "nope"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("no bench target named `nope`"),
        "{}",
        run.stderr
    );
    let run = fx.nbench(&["--bench", "nop*"]);
    assert_eq!(run.code, 2);
    assert!(
        (run.stderr).contains("no bench target of the selected packages matches `nop*`"),
        "{}",
        run.stderr
    );
    let run = fx.nbench(&["--lib"]);
    assert_eq!(run.code, 2);
    assert!(
        (run.stderr).contains("no library of the selected packages holds `#[bench]` functions"),
        "{}",
        run.stderr
    );
    for flag in ["--fail-on-regression", "--compare-stored"] {
        let run = fx.nbench(&[flag]);
        assert_eq!(run.code, 2, "{}", run.all());
        assert!(
            run.stderr
                .contains(&format!("{flag} needs a comparison: add --compare NAME")),
            "{}",
            run.stderr
        );
    }
    let run = fx.nbench(&["compare", "a"]);
    assert_eq!(run.code, 2, "compare needs two baselines: {}", run.all());
    let run = fx.nbench(&["--help"]);
    assert_eq!(run.code, 0);
    for text in [
        "--package",
        "--features",
        "--profile",
        "--timeout",
        "Exit status:",
        "regression",
    ] {
        assert!(run.stdout.contains(text), "--help lacks {text}");
    }
}

#[test]
fn channel_faults_are_clear_errors() {
    let fx = Fixture::new("workspace");
    let run = fx.nbench(&with_quick(&["-p", "impostor", "--timeout", "3s"]));
    assert_eq!(run.code, 1, "{}", run.all());
    let future = run
        .stderr
        .lines()
        .find(|l| l.contains("impostor/future_protocol"))
        .unwrap_or_else(|| panic!("{}", run.all()));
    for part in [
        "nbench 9.9.9",
        "protocol 999",
        "speaks protocol 1",
        "cargo nbench 0.1.0",
    ] {
        assert!(future.contains(part), "{part} missing in {future}");
    }
    let garbage = run
        .stderr
        .lines()
        .find(|l| l.contains("impostor/garbage"))
        .unwrap();
    assert!(garbage.contains("malformed message"), "{garbage}");
    let quiet = (run.stderr.lines())
        .find(|l| l.contains("impostor/quiet_main"))
        .unwrap_or_else(|| panic!("{}", run.all()));
    assert!(
        quiet.contains("ended (exited with code 0) without running its benchmarks"),
        "{quiet}"
    );
    assert!(
        garbage.contains("{\\\"event\\\":\\\"list\\\""),
        "the line is quoted for context: {garbage}"
    );
}

#[test]
fn colour_follows_the_flag() {
    let fx = Fixture::new("workspace");
    let run = fx.nbench(&with_quick(&["--bench", "alpha_b", "--color", "always"]));
    assert!(run.stdout.contains("\u{1b}["), "{}", run.stdout);
    let run = fx.nbench(&with_quick(&["--bench", "alpha_b"]));
    assert!(
        !run.stdout.contains('\u{1b}'),
        "no colour in a pipe: {}",
        run.stdout
    );
}

#[test]
fn formats_stream_and_several_outs() {
    let fx = Fixture::new("basic");
    let dir = &fx.dir;
    let outs = ["r.csv", "r.bencher", "r.md", "r.json", "r.txt", "r.jsonl"];
    let mut args = vec!["--bench", "basic", "--format", "jsonl", "--time-unit", "us"];
    for o in &outs {
        args.extend(["--out", o]);
    }
    let run = fx.nbench(&with_quick(&args));
    assert_eq!(run.code, 1, "`panics` fails the run: {}", run.all());

    // stdout: one event per line, the benchmarks as they finish, `finished` last.
    let events: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each stdout line is JSON"))
        .collect();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "benchmark").count(),
        5,
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&"failed") && kinds.contains(&"ignored"),
        "{kinds:?}"
    );
    assert_eq!(kinds.last(), Some(&"finished"));
    assert_eq!(events.last().unwrap()["measured"], 5);

    // CSV: read by Python's csv module, one row per measured benchmark, unit
    // in the header. (`add`, a sub-nanosecond body, may read 0 once the
    // loop's overhead is taken off on a busy machine; `sum/u64/100` takes
    // some 20 ns.)
    let script = "import csv,sys\nrows=list(csv.DictReader(open(sys.argv[1],newline='')))\n\
                  by={r['id']: float(r['median_us']) for r in rows}\n\
                  print(len(rows), rows[0]['id'], by['add'] >= 0 and by['sum/u64/100'] > 0, sep='|')";
    let py = std::process::Command::new("python3")
        .args(["-c", script, dir.join("r.csv").to_str().unwrap()])
        .output()
        .expect("python3 runs");
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&py.stdout).trim(), "5|add|True");

    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let bencher = read("r.bencher");
    let bench_lines: Vec<_> = bencher
        .lines()
        .filter(|l| l.contains(" ... bench:"))
        .collect();
    assert_eq!(bench_lines.len(), 5, "{bencher}");
    for l in bench_lines {
        assert!(
            l.starts_with("test basic/basic::") && l.contains(" ns/iter (+/- "),
            "{l}"
        );
    }
    assert!(read("r.md").contains("| `sum/u64/10` |"));
    let doc: serde_json::Value = serde_json::from_str(&read("r.json")).unwrap();
    assert_eq!(doc["targets"][0]["benchmarks"].as_array().unwrap().len(), 5);
    let text = read("r.txt");
    assert!(
        text.contains(" µs ") && !text.contains('\u{1b}'),
        "plain text in µs: {text}"
    );
    assert_eq!(
        read("r.jsonl")
            .lines()
            .last()
            .map(|l| l.contains("\"finished\"")),
        Some(true)
    );

    // An extension that names no format stops the run before anything is built.
    let run = fx.nbench(&["--out", "report.xyz"]);
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.stderr
            .contains("cannot tell the format of --out `report.xyz`"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--out-format"), "{}", run.stderr);
    assert!(!run.stderr.contains("Compiling"), "{}", run.stderr);
    let run = fx.nbench(&with_quick(&[
        "--bench",
        "basic",
        "add",
        "--out",
        "add.log",
        "--out-format",
        "bencher",
    ]));
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(read("add.log").contains("\ntest basic/basic::add ... bench:"));
}

#[test]
fn context_above_the_table_quiet_and_verbose() {
    let fx = Fixture::new("basic");
    let normal = fx.nbench(&with_quick(&[
        "--bench",
        "basic",
        "sum/u64/10",
        "--context",
        "runner=ci-large",
        "--context",
        "pr=12",
        "--format",
        "console",
    ]));
    assert_eq!(normal.code, 0, "{}", normal.all());
    let first = normal.stdout.lines().next().unwrap();
    assert!(
        first.starts_with("nbench ") && first.contains(" · profile bench · "),
        "{first}"
    );
    assert!(
        normal.stdout.contains("\ncontext: pr=12 runner=ci-large\n"),
        "{}",
        normal.stdout
    );
    assert!(normal.stderr.contains("/nbench/runs/"), "{}", normal.stderr);
    let stored = normal
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("saved "))
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(stored).unwrap()).unwrap();
    assert_eq!(doc["context"]["user"]["runner"], "ci-large");

    let quiet = fx.nbench(&with_quick(&["--bench", "basic", "sum/u64/10", "-q"]));
    assert_eq!(quiet.code, 0, "{}", quiet.all());
    assert!(
        quiet.stdout.starts_with("basic/basic\nbenchmark "),
        "{}",
        quiet.stdout
    );
    let lines: Vec<&str> = quiet.stdout.lines().filter(|l| !l.is_empty()).collect();
    // The target, the header, two rows and the line saying what `±next` is.
    assert_eq!(lines.len(), 5, "the table only:\n{}", quiet.stdout);
    assert!(
        quiet.stderr.is_empty(),
        "nothing on stderr: {}",
        quiet.stderr
    );

    let verbose = fx.nbench(&with_quick(&["--bench", "basic", "sum/u64/10", "-v"]));
    assert_eq!(verbose.code, 0, "{}", verbose.all());
    assert!(
        verbose
            .line("settings: warm-up 0.005s, min-time 0.005s, max-time 0.02s")
            .contains("outliers none")
    );
    assert!(verbose.line("timer: resolution ").contains(" per reading"));
    assert!(
        verbose
            .line("  sum/u64/10: first call ")
            .contains("/iter, ")
    );

    // In CI, a plain line per benchmark instead of a line redrawn in place.
    let mut cmd = fx.nbench_command(&with_quick(&[
        "--bench",
        "basic",
        "sum/u64/10",
        "--epochs",
        "1",
    ]));
    let ci = crate::helpers::Run::from(cmd.env("CI", "true").output().unwrap());
    assert!(
        ci.stderr
            .contains("measuring [1/2] basic/basic › sum/u64/10\n"),
        "{}",
        ci.stderr
    );
    assert!(
        ci.stderr
            .contains("measuring [2/2] basic/basic › sum/u64/100, ~"),
        "{}",
        ci.stderr
    );

    let bad = fx.nbench(&["--context", "no-equals-sign"]);
    assert_eq!(bad.code, 2, "{}", bad.all());
    assert!(bad.stderr.contains("expected KEY=VALUE"), "{}", bad.stderr);
}

#[test]
fn an_option_before_a_subcommand_and_a_run_that_measures_nothing() {
    let fx = Fixture::new("workspace").own_target_dir();
    let runs = || {
        std::fs::read_dir(fx.dir.join("target/nbench/runs"))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    let save = fx.nbench(&with_quick(
        &[
            &["-p", "tunable", "--save-baseline", "main"][..],
            &ONE_LAYOUT,
        ]
        .concat(),
    ));
    assert_eq!(save.code, 0, "{}", save.all());
    let stored = runs();
    // Options first, then the subcommand: still the subcommand, not filters.
    let list = fx.nbench(&["-q", "baseline", "list"]);
    assert!(list.stdout.contains("main"), "{}", list.all());
    let elsewhere = fx.dir.join("target").display().to_string();
    let delete = fx.nbench(&["--target-dir", &elsewhere, "baseline", "delete", "main"]);
    assert_eq!(delete.code, 0, "{}", delete.all());
    assert!(
        delete.stderr.contains("deleted baseline `main`"),
        "{}",
        delete.all()
    );
    assert!(!fx.dir.join("target/nbench/baselines/main").exists());
    assert_eq!(runs(), stored, "no run was made");
    // A selection with nothing in it (no ignored benchmark to run): reported,
    // not stored. (A filter that matches nothing is an error of its own.)
    let nothing = fx.nbench(&with_quick(&["-p", "tunable", "--ignored"]));
    assert_eq!(nothing.code, 0, "{}", nothing.all());
    assert!(
        nothing.stderr.contains("nothing was measured"),
        "{}",
        nothing.all()
    );
    assert_eq!(runs(), stored, "an empty run keeps the history as it was");
}

#[test]
fn switches_from_variables_take_what_shells_write() {
    let fx = Fixture::new("workspace");
    for on in ["1", "yes", "on", "true"] {
        let mut cmd = fx.nbench_command(&["-p", "tunable", "--list"]);
        let run = crate::helpers::Run::from(cmd.env("NBENCH_QUIET", on).output().unwrap());
        assert_eq!(run.code, 0, "NBENCH_QUIET={on}: {}", run.all());
    }
    let mut cmd = fx.nbench_command(&["-p", "tunable", "--list"]);
    let run = crate::helpers::Run::from(cmd.env("NBENCH_QUIET", "maybe").output().unwrap());
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(run.stderr.contains("NBENCH_QUIET=maybe"), "{}", run.stderr);
    assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
}

#[test]
fn progress_reaches_a_pipe_as_plain_lines() {
    let fx = Fixture::new("basic");
    let mut cmd = fx.nbench_command(&with_quick(&[
        "--bench",
        "basic",
        "sum/u64/10",
        "--epochs",
        "1",
    ]));
    // Not in CI, stderr a pipe: a plain line per benchmark, not silence.
    let run = crate::helpers::Run::from(cmd.env_remove("CI").output().unwrap());
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(
        run.stderr
            .contains("measuring [1/2] basic/basic › sum/u64/10"),
        "{}",
        run.stderr
    );

    // The reader gone (`2>&1 | head -1`): the run neither panics nor stops
    // short; it measures and reports where it still can. An edit first, so
    // that cargo has a crate to compile and says so (a build whose progress
    // cargo could not write once failed).
    fx.edit("src/lib.rs", "pub fn sum(", "// Edited.\npub fn sum(");
    let mut cmd = fx.nbench_command(&with_quick(&[
        "--bench", "basic", "sum/u64", "--epochs", "1",
    ]));
    let cut = crate::helpers::with_a_closed_pipe(cmd.env_remove("CI"), |c| drop(c.stderr.take()));
    assert_eq!(cut.code, 0, "{}", cut.all());
    assert!(cut.stdout.contains("sum/u64/10"), "{}", cut.stdout);
    assert!(cut.stdout.contains("sum/u64/100 "), "{}", cut.stdout);
    // And `--list | head -1` with stdout gone.
    let cut = crate::helpers::with_a_closed_pipe(&mut fx.nbench_command(&["--list"]), |c| {
        drop(c.stdout.take())
    });
    assert_eq!(cut.code, 0, "{}", cut.all());
    assert!(!cut.stderr.contains("panicked"), "{}", cut.stderr);
}

#[test]
fn smaller_things_said_truly() {
    let fx = Fixture::new("basic").own_target_dir();
    // A settings table for a bench target the workspace does not have.
    std::fs::write(
        fx.dir.join("nbench.toml"),
        "[bench.nosuch]\nmax-time = \"1s\"\n",
    )
    .unwrap();
    let listed = fx.nbench(&["--list"]);
    assert_eq!(listed.code, 0, "{}", listed.all());
    assert!(
        listed
            .stderr
            .contains("[bench.nosuch] table, but the workspace has no bench target `nosuch`"),
        "{}",
        listed.stderr
    );
    std::fs::remove_file(fx.dir.join("nbench.toml")).unwrap();

    // --target-dir naming a file is a usage error, not "build failed".
    let file = fx.dir.join("not-a-dir");
    std::fs::write(&file, "").unwrap();
    let run = fx.nbench(&["--target-dir", file.to_str().unwrap(), "--list"]);
    assert_eq!(run.code, 2, "{}", run.all());
    assert!(
        run.stderr.contains("is a file; give a directory"),
        "{}",
        run.stderr
    );

    // A repository without commits is called that, not "not a git checkout".
    let init = std::process::Command::new("git")
        .args(["init", "--quiet"])
        .current_dir(&fx.dir)
        .status()
        .unwrap();
    assert!(init.success());
    let measure = |extra: &[&str]| fx.nbench(&with_quick(&[&["add"][..], extra].concat()));
    let fresh = measure(&[]);
    assert_eq!(fresh.code, 0, "{}", fresh.all());
    assert!(
        fresh.stdout.contains("· no commits yet"),
        "{}",
        fresh.stdout
    );

    // A stored run that cannot be read is named, unless -q.
    std::fs::write(fx.dir.join("target/nbench/runs/broken.json"), "{").unwrap();
    let noisy = measure(&[]);
    assert!(noisy.stderr.contains("left stored run"), "{}", noisy.stderr);
    let quiet = measure(&["-q"]);
    assert_eq!(quiet.code, 0, "{}", quiet.all());
    assert!(
        !quiet.stderr.contains("left stored run"),
        "{}",
        quiet.stderr
    );
}

#[test]
fn a_new_users_mistakes_are_usage_errors_that_change_nothing() {
    // Outside any cargo project: said once, a usage error.
    let nowhere = std::env::temp_dir().join(format!("nbench-nowhere-{}", std::process::id()));
    std::fs::create_dir_all(&nowhere).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-nbench"))
        .arg("nbench")
        .current_dir(&nowhere)
        .output()
        .unwrap();
    let outside = Run::from(out);
    assert_eq!(outside.code, 2, "{}", outside.all());
    assert_eq!(
        outside.stderr.matches("error").count(),
        1,
        "{}",
        outside.all()
    );
    assert!(
        outside.stderr.contains("could not find `Cargo.toml`"),
        "{}",
        outside.all()
    );
    std::fs::remove_dir_all(&nowhere).unwrap();

    let fx = Fixture::new("basic").own_target_dir();
    let quick = |extra: &[&'static str]| [QUICK, &["--bench", "basic", "add"], extra].concat();
    let saved = fx.nbench(&quick(&["--save-baseline", "main", "--layouts", "2"]));
    assert_eq!(saved.code, 0, "{}", saved.all());
    let report = fx.dir.join("target/nbench/report/index.html");
    let runs = fx.dir.join("target/nbench/runs");
    let before = (
        std::fs::read(&report).unwrap(),
        std::fs::read_dir(&runs).unwrap().count(),
    );
    // A CI gate with a typo in its filter.
    let typo = fx.nbench(
        &[
            QUICK,
            &[
                "--compare",
                "main",
                "--fail-on-regression",
                "add",
                "nosuchfilter",
            ],
        ]
        .concat(),
    );
    assert_eq!(typo.code, 2, "{}", typo.all());
    assert!(
        typo.stderr
            .contains("no benchmark matches the filter `nosuchfilter`"),
        "{}",
        typo.all()
    );
    assert!(
        !typo.stderr.contains("link layouts"),
        "nothing more was built: {}",
        typo.all()
    );
    let after = (
        std::fs::read(&report).unwrap(),
        std::fs::read_dir(&runs).unwrap().count(),
    );
    assert!(
        before == after,
        "the report and the stored runs are untouched"
    );

    // `compare A B` takes a run's flags where they mean something, and says why not elsewhere.
    let again = fx.nbench(&quick(&["--save-baseline", "other", "--layouts", "2"]));
    assert_eq!(again.code, 0, "{}", again.all());
    for (args, says) in [
        (
            vec!["compare", "main", "other", "nosuch"],
            "matches the filter `nosuch`",
        ),
        (
            vec!["compare", "main", "other", "--features", "x"],
            "builds nothing, so --features",
        ),
        (
            vec!["compare", "main", "other", "--bench", "nosuch"],
            "no bench target named `nosuch`",
        ),
        (
            vec!["compare", "main", "other", "--save-baseline", "x"],
            "does not take --save-baseline",
        ),
    ] {
        let r = fx.nbench(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.all());
        assert!(r.stderr.contains(says), "{args:?}: {}", r.all());
    }
    let picked = fx.nbench(
        &[
            QUICK,
            &[
                "compare", "main", "other", "--bench", "basic", "-p", "basic",
            ],
        ]
        .concat(),
    );
    assert_eq!(picked.code, 0, "{}", picked.all());
    assert!(
        picked.stdout.contains("basic/basic vs baseline `main`"),
        "{}",
        picked.all()
    );
}

#[test]
fn a_root_package_without_benchmarks_names_the_members_that_have_them() {
    let fx = Fixture::new("rooted");
    // As `cargo bench` from the root: the root package, which has none.
    // (`compare --rev` asks each revision: a revision's root package may
    // have held the suite before it moved to a member, as nom's did.)
    let run = fx.nbench(&[]);
    assert_eq!(run.code, 2, "{}", run.all());
    let said = "error: package `rooted` has no bench targets\n";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    let hint = "add `-p rooted-bench`, or `--workspace`";
    assert!(run.stderr.contains(hint), "{}", run.stderr);
    let listed = fx.nbench(&["-p", "rooted-bench", "--list"]);
    assert_eq!(listed.code, 0, "{}", listed.all());
    assert!(listed.stdout.contains("triple"), "{}", listed.all());
}

#[test]
fn a_member_beside_a_2018_root_package_is_built_in_its_link_layouts() {
    let fx = Fixture::new("rooted");
    // As snap's: a 2018 root package (resolver 1, where cargo takes
    // `--features` for the package of the manifest, not of `--package`)
    // whose features the suite's build turned on.
    fx.edit("Cargo.toml", "edition = \"2024\"", "edition = \"2018\"");
    let features = "publish = false\n\n[features]\ndefault = [\"fast\"]\nfast = []";
    fx.edit("Cargo.toml", "publish = false", features);
    let run = fx.nbench_paired(&["-p", "rooted-bench", "--layouts", "2"]);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(
        run.stderr.contains("building 2 link layouts"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("one link layout"), "{}", run.stderr);
}

#[test]
fn a_suite_kept_out_of_the_workspace_is_named_with_the_flag_that_reaches_it() {
    let fx = Fixture::new("rooted");
    // As hex-conservative's `benches/`: a package below the root that the
    // workspace excludes, which `cargo bench` reaches by its manifest alone.
    fx.edit(
        "Cargo.toml",
        "members = [\"bench\"]",
        "exclude = [\"bench\"]",
    );
    // A workspace of its own: cargo would otherwise take this checkout's
    // workspace, further up, for its own.
    fx.edit(
        "bench/Cargo.toml",
        "harness = false",
        "harness = false\n\n[workspace]",
    );
    let run = fx.nbench(&[]);
    assert_eq!(run.code, 2, "{}", run.all());
    let said = "error: no bench targets in this workspace; `bench/Cargo.toml` below it is a \
                package of its own with bench targets\n";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    let hint = "only through its manifest: add `--manifest-path bench/Cargo.toml`\n";
    assert!(run.stderr.contains(hint), "{}", run.stderr);
    // Named with `-p`, as a member would be: the same way to it.
    let run = fx.nbench(&["-p", "rooted-bench", "--list"]);
    assert_eq!(run.code, 2, "{}", run.all());
    let said = "error: package `rooted-bench` is not a member of the workspace\n  hint: \
                `bench/Cargo.toml` is that package, kept out of the workspace; like `cargo \
                bench`, cargo nbench reaches a package kept out of the workspace only through \
                its manifest: add `--manifest-path bench/Cargo.toml` instead of `-p \
                rooted-bench`\n";
    assert!(run.stderr.contains(said), "{}", run.stderr);
    let listed = fx.nbench(&["--manifest-path", "bench/Cargo.toml", "--list"]);
    assert_eq!(listed.code, 0, "{}", listed.all());
    assert!(listed.stdout.contains("triple"), "{}", listed.all());
}
