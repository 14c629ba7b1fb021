//! Limits that must hold whatever a benchmark does: the time limit over the sample count, the
//! connect wait within `--timeout`, no bench process outliving a killed `cargo nbench`, room
//! for a deep stack.

use crate::helpers::{Fixture, QUICK, Run};
use std::time::{Duration, Instant};

/// The 300 ms benchmark alone, in one process, with the shortest warm-up.
const SLOW: &[&str] = &[
    "--bench",
    "limits",
    "slow",
    "--epochs",
    "1",
    "--warm-up",
    "1ms",
    "--min-time",
    "1ms",
];

#[test]
fn the_time_limit_wins_over_the_minimum_sample_count() {
    let fx = Fixture::new("limits").own_target_dir();
    let args = [SLOW, &["--max-time", "200ms", "--min-samples", "10"]].concat();
    let run = fx.nbench(&[&args[..], &["--format", "json"]].concat());
    let doc = run.json();
    let slow = &doc["targets"][0]["benchmarks"][0];
    assert_eq!(slow["stop"], "too_few_samples", "{slow}");
    assert!(slow["samples"].as_u64().unwrap() < 10, "{slow}");
    // Ten samples of 300 ms would have taken 3 s; the first call, the
    // calibration and one sample take about 1 s.
    let elapsed = slow["elapsed_s"].as_f64().unwrap();
    assert!(elapsed < 2.5, "{elapsed} s");
    let console = fx.nbench(&args);
    assert!(
        console.line("slow ").contains("time limit after"),
        "{}",
        console.stdout
    );
}

#[test]
fn the_wait_for_a_binary_to_connect_follows_timeout() {
    let fx = Fixture::new("limits").own_target_dir();
    // Built first, so that the clock below times only the wait.
    let list = fx.nbench(&["--bench", "limits", "--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    let began = Instant::now();
    let run = fx.nbench(&["--bench", "silent", "--timeout", "2s"]);
    let took = began.elapsed();
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(
        run.all().contains("did not connect within 2 s"),
        "{}",
        run.all()
    );
    // The build check and the run take a few seconds; the old wait was 30.
    assert!(took < Duration::from_secs(20), "{took:?}");
    // Saved so, its failure is what listing the comparison says of it,
    // once a baseline.
    let saved = fx.nbench(&[
        "--bench",
        "silent",
        "--timeout",
        "2s",
        "--save-baseline",
        "a",
    ]);
    assert_eq!(saved.code, 1, "{}", saved.all());
    let list = fx.nbench(&["compare", "a", "a", "--list"]);
    assert_eq!(list.code, 1, "{}", list.all());
    let said = "failed: bench target limits/silent in `a`: the bench binary did not connect \
                within 2 s (--timeout)";
    assert_eq!(list.stderr.matches(said).count(), 1, "{}", list.all());
}

/// The processes whose executable lies under `dir` and that run in protocol mode.
#[cfg(target_os = "linux")]
fn bench_processes_under(dir: &std::path::Path) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let exe = std::fs::read_link(entry.path().join("exe")).unwrap_or_default();
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let protocol = String::from_utf8_lossy(&cmdline).contains("--nbench-protocol");
        if protocol && exe.starts_with(dir) && !is_zombie(pid) {
            found.push(pid);
        }
    }
    found
}

/// Whether `pid` has died and only waits to be reaped (or is gone).
#[cfg(target_os = "linux")]
fn is_zombie(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => true,
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_cargo_nbench_takes_its_bench_process_with_it() {
    let fx = Fixture::new("limits").own_target_dir();
    let target = fx.dir.join("target");
    let mut cmd = fx.nbench_command(&["--bench", "limits", "--ignored", "--timeout", "120s"]);
    let mut child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The build comes first: wait for the endless benchmark's process.
    let began = Instant::now();
    let bench = loop {
        if let Some(pid) = bench_processes_under(&target).first() {
            break *pid;
        }
        assert!(
            began.elapsed() < Duration::from_secs(240),
            "no bench process appeared"
        );
        assert!(child.try_wait().unwrap().is_none(), "cargo nbench ended");
        std::thread::sleep(Duration::from_millis(50));
    };
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let killed = Instant::now();
    while !is_zombie(bench) && killed.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        is_zombie(bench),
        "bench process {bench} still runs {:?} after cargo nbench was killed",
        killed.elapsed()
    );
}

#[test]
fn a_store_that_cannot_be_written_costs_no_result() {
    let fx = Fixture::new("limits").own_target_dir();
    // Where the runs directory should be, a file: the store cannot be written.
    std::fs::create_dir_all(fx.dir.join("target/nbench")).unwrap();
    std::fs::write(fx.dir.join("target/nbench/runs"), "in the way").unwrap();
    let out = fx.dir.join("out.md");
    let run = fx.nbench(&[SLOW, &["--max-time", "1ms", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(run.code, 5, "{}", run.all());
    assert!(
        run.line("slow ").contains("ms"),
        "the table is shown: {}",
        run.all()
    );
    assert!(
        std::fs::read_to_string(&out).unwrap().contains("slow"),
        "--out is written"
    );
    assert!(
        run.stderr.contains("error: could not create"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_revision_whose_target_could_not_be_listed_is_listed_again() {
    let fx = Fixture::new("limits").own_target_dir();
    fx.first_commit("target/\n");
    let args = [
        "compare",
        "--rev",
        "HEAD",
        "HEAD",
        "--bench",
        "silent",
        "--timeout",
        "2s",
        "--layouts",
        "1",
        "--list",
    ];
    let first = fx.nbench(&args);
    assert_eq!(first.code, 1, "{}", first.all());
    let said = "the bench binary did not connect within 2 s (--timeout)";
    assert!(first.stderr.contains(said), "{}", first.all());
    // Not taken as built: a longer --timeout may list it now, and a
    // filter is checked against what it lists.
    let again = fx.nbench(&args);
    let built_again = "is built again: bench target limits/silent did not connect in time to be \
                       listed when it was built (the bench binary did not connect within 2 s";
    assert!(again.stderr.contains(built_again), "{}", again.all());
}

#[test]
fn whole_targets_that_fail_or_register_nothing_are_named() {
    let fx = Fixture::new("limits").own_target_dir();
    let run = fx.nbench(&["--bench", "empty", "--bench", "silent", "--timeout", "2s"]);
    assert_eq!(run.code, 1, "{}", run.all());
    let empty = run
        .stdout
        .find("limits/empty")
        .expect("the empty target is named");
    assert!(
        run.stdout[empty..].contains("registers no benchmarks"),
        "{}",
        run.stdout
    );
    let silent = run
        .stdout
        .find("limits/silent")
        .expect("the failed target is named");
    assert!(
        run.stdout[silent..]
            .contains("FAILED  the whole bench target: the bench binary did not connect"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_time_limit_bounds_every_epoch_together() {
    let fx = Fixture::new("limits").own_target_dir();
    // Eight epochs by default; one sample of 300 ms is longer than the whole
    // limit, so one epoch is all there is room for.
    let args = [
        "--bench",
        "limits",
        "slow",
        "--warm-up",
        "1ms",
        "--max-time",
        "200ms",
        "--format",
        "json",
    ];
    let run = fx.nbench(&args);
    let doc = run.json();
    let slow = &doc["targets"][0]["benchmarks"][0];
    // One epoch: the first call, the calibration and a sample, about 1 s;
    // eight took 8 s.
    let elapsed = slow["elapsed_s"].as_f64().unwrap();
    assert!(elapsed < 2.5, "{elapsed} s");
    assert_eq!(slow["cut_short"], 8, "{slow}");
    let console = fx.nbench(&args[..args.len() - 2]);
    assert!(
        console
            .line("slow ")
            .contains("time limit after 1 of 8 runs"),
        "{}",
        console.stdout
    );
}

#[test]
fn a_pair_slow_to_start_counts_its_start_against_the_time_limit() {
    let fx = Fixture::new("limits").own_target_dir();
    let base = [
        "--bench",
        "limits",
        "costly_start",
        "--layouts",
        "1",
        "--max-time",
        "400ms",
    ];
    save(&fx, &base, "start");
    let run = fx.nbench(&[&base[..], &["--compare", "start", "--format", "json"]].concat());
    let doc = run.json();
    let row = &doc["comparison"]["targets"][0]["rows"][0];
    let bench = &doc["targets"][0]["benchmarks"][0];
    // Each pair spends 200 ms in setup before its 25 ms of sampling: past
    // the first epoch that counts, so 400 ms buy a few epochs, not the 16
    // (and more, in doubt) that took 16 × 0.2 s of setup and more. (On a
    // busy machine the setup takes longer, and 2 epochs fit.)
    let epochs = row["epochs"].as_u64().unwrap();
    assert!((1..8).contains(&epochs), "{epochs} epochs");
    let elapsed = bench["elapsed_s"].as_f64().unwrap();
    assert!(elapsed < 3.0, "{elapsed} s");
}

/// `--compare` of the `copies` target's benchmark `id` with a baseline saved
/// just before, one layout a side, for the whole time limit (its 32 epochs:
/// an A/A comparison of processes ±4 % apart settles early, by chance, one
/// time in twenty or so): (the comparison, how long it took).
fn compare_copies(fx: &crate::helpers::Fixture, id: &str) -> (crate::helpers::Run, Duration) {
    let times = ["--min-time", "800ms", "--max-time", "800ms"];
    let base = [&["--bench", "copies", id, "--layouts", "1"][..], &times].concat();
    save(fx, &base, "copies");
    let began = Instant::now();
    let run = fx.nbench(&[&base[..], &["--compare", "copies", "--format", "json"]].concat());
    (run, began.elapsed())
}

#[cfg(target_os = "linux")]
#[test]
fn epochs_that_spread_go_on_in_copies_of_their_processes() {
    let fx = Fixture::new("limits").own_target_dir();
    let (run, _) = compare_copies(&fx, "per_process");
    let doc = run.json();
    let row = &doc["comparison"]["targets"][0]["rows"][0];
    // 16 epochs of fresh processes spread past 1 %: the next samples in
    // copies of its pair, and so do the rest while copies cost little
    // (four or five each, 8 runs of 8 on a quiet machine; with both cores
    // busy 5–52 in all: a busy machine makes copies slow, and copying stops).
    let (epochs, copies) = (row["epochs"].as_u64().unwrap(), row["copies"].as_u64());
    assert!(epochs >= 20, "{row}");
    assert!(copies.is_some_and(|c| c >= 2), "{row}");
    assert!(bench_processes_under(&fx.dir.join("target")).is_empty());
}

#[cfg(target_os = "linux")]
#[test]
fn a_benchmark_that_fails_in_a_copy_fails_at_once_and_leaves_nothing_running() {
    let fx = Fixture::new("limits").own_target_dir();
    let (run, took) = compare_copies(&fx, "fails_in_a_copy");
    assert_eq!(run.code, 1, "{}", run.all());
    assert!(
        run.all().contains("deliberate failure in a copy"),
        "{}",
        run.all()
    );
    // Told by the copy, not found by the 120 s timeout.
    assert!(took < Duration::from_secs(60), "{took:?}");
    assert!(bench_processes_under(&fx.dir.join("target")).is_empty());
}

#[test]
fn a_comparison_in_doubt_is_measured_further_and_says_so() {
    let fx = Fixture::new("limits").own_target_dir();
    let base = [
        "--bench",
        "copies",
        "steady",
        "per_process",
        "--layouts",
        "1",
        "--min-time",
        "100ms",
        "--max-time",
        "400ms",
    ];
    save(&fx, &base, "doubt");
    let out = fx.dir.join("doubt.json").display().to_string();
    let run = fx.nbench(&[&base[..], &["--compare", "doubt", "--out", &out]].concat());
    assert_eq!(run.code, 0, "{}", run.all());
    // The first pass numbers every benchmark once, in order.
    let first: Vec<&str> = (run.stderr.lines())
        .filter(|l| l.starts_with("measuring ["))
        .collect();
    assert_eq!(first.len(), 2, "{}", run.stderr);
    assert!(first[0].starts_with("measuring [1/2] limits/copies › per_process"));
    assert!(first[1].starts_with("measuring [2/2] limits/copies › steady"));
    // `steady` settles at once (the same 1 µs on both sides) and leaves
    // time that `per_process` (processes 0–10 % apart) is given when its
    // first pass leaves it in doubt: a pass of its own, numbered anew.
    assert!(run.line("steady ").contains("unchanged"), "{}", run.stdout);
    let further: Vec<&str> = (run.stderr.lines())
        .filter(|l| l.starts_with("measuring further"))
        .collect();
    let once = ["measuring further [1/1] limits/copies › per_process"];
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let row = &doc["comparison"]["targets"][0]["rows"][0];
    assert_eq!(row["id"], "per_process", "{row}");
    // A doubt is what the time limit leaves undecided at its own p-value;
    // adjusted over both rows, a claim it made can still fall short.
    let claimed_alone = row["p_value"].as_f64().unwrap() < 0.05;
    if row["verdict"] == "inconclusive" && !claimed_alone {
        assert_eq!(further, once, "{}", run.stderr);
    } else {
        // Decided by chance in its first pass (about one run in twenty),
        // or in the pass of its own; or claimed at its own p-value and left
        // inconclusive by the adjusted one (one busy run in CI).
        assert!(further.is_empty() || further == once, "{}", run.stderr);
    }
}

#[test]
fn a_change_too_few_epochs_claim_is_measured_for_its_time_limit_once_more() {
    let fx = Fixture::new("limits").own_target_dir();
    let base = [
        "--bench",
        "limits",
        "halves",
        "--layouts",
        "1",
        "--warm-up",
        "1ms",
        "--min-time",
        "1ms",
        "--max-time",
        "200ms",
    ];
    let halved = [&base[..], &["--features", "halved"]].concat();
    save(&fx, &halved, "halved");
    let out = fx.dir.join("halved.json").display().to_string();
    let run = fx.nbench(&[&base[..], &["--compare", "halved", "--out", &out]].concat());
    assert_eq!(run.code, 0, "{}", run.all());
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let row = &doc["comparison"]["targets"][0]["rows"][0];
    // One epoch (40 ms against 80 ms, two rounds a side) fills the time
    // limit and claims nothing; no other benchmark leaves time over, but
    // its rounds read a change, so it takes its time limit once more.
    let epochs = row["epochs"].as_u64().unwrap();
    assert!(epochs >= 2, "{row}");
    let further = "measuring further [1/1] limits/limits › halves";
    assert!(run.stderr.contains(further), "{}", run.stderr);
    assert_eq!(row["verdict"], "regressed", "{row}");
    let change = row["change"].as_f64().unwrap();
    assert!((0.8..1.2).contains(&change), "{row}");
}

#[test]
fn the_sides_set_up_in_turns() {
    let fx = Fixture::new("limits").own_target_dir();
    let base = [
        "--bench",
        "copies",
        "order_of_setup",
        "--layouts",
        "1",
        "--max-time",
        "400ms",
    ];
    save(&fx, &base, "order");
    let run = fx.nbench(&[&base[..], &["--compare", "order", "--format", "json"]].concat());
    let doc = run.json();
    let row = &doc["comparison"]["targets"][0]["rows"][0];
    // The same executable on both sides, 1 % slower in whichever process
    // of an epoch sets up first. Set up always in the same order, one side
    // read 1 % slower in every epoch: "regressed" (as ropey's
    // `index_convert/byte_to_line` read +0.1 … +1.7 % in 6 runs of 6).
    // In turns, half its epochs read +1 % and half −1 %.
    let ratios: Vec<f64> = (row["unit_ratios"].as_array().unwrap().iter())
        .map(|r| r.as_f64().unwrap())
        .collect();
    let slower = ratios.iter().filter(|r| **r > 1.0).count();
    assert!(
        slower * 4 >= ratios.len() && slower * 4 <= 3 * ratios.len(),
        "{ratios:?}"
    );
    let verdict = row["verdict"].as_str().unwrap();
    assert!(
        !["regressed", "improved"].contains(&verdict),
        "{verdict} {}",
        row["change"]
    );
    // A process that set up alone (the saving run's) left its file: the
    // files of runs that have ended go.
    for entry in std::fs::read_dir(&fx.dir).into_iter().flatten() {
        let path = entry.map(|e| e.path()).unwrap_or_default();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if let Some(pid) = name.strip_prefix("nbench-fixture-setup-")
            && !std::path::Path::new("/proc").join(pid).exists()
        {
            let _ = std::fs::remove_file(&path);
        }
    }
}

#[test]
fn both_sides_run_from_paths_of_one_length() {
    let fx = Fixture::new("limits").own_target_dir();
    let base = [
        "--bench",
        "copies",
        "path_length",
        "--layouts",
        "1",
        "--max-time",
        "200ms",
    ];
    // Two baselines of the same executable whose folders' names differ by
    // one byte: their executables' paths are of other lengths.
    for name in ["a", "ab"] {
        save(&fx, &base, name);
    }
    let run = fx.nbench(&["compare", "a", "ab", "--format", "json"]);
    let doc = run.json();
    let row = &doc["comparison"]["targets"][0]["rows"][0];
    // The routine takes 1 % longer where its path is of odd length: run
    // from their own paths, one side read 1 % slower in every epoch.
    assert_eq!(row["id"], "path_length");
    let verdict = row["verdict"].as_str().unwrap();
    assert_eq!(row["change"].as_f64(), Some(0.0), "{verdict}");
    assert!(!["regressed", "improved"].contains(&verdict), "{verdict}");
}

/// Saves baseline `name` of the benchmarks `args` select, which must succeed.
#[test]
fn the_processes_of_an_epoch_draw_the_same_random_bytes_and_each_epoch_others() {
    // Each process draws 1000 or 1010 ns an iteration from std's random
    // seed, as a suite draws its inputs. Both processes of an epoch draw
    // alike: every epoch reads the same, and the epochs draw both.
    let fx = Fixture::new("limits").own_target_dir();
    let base = ["--bench", "copies", "drawn", "--layouts", "1"];
    save(&fx, &base, "drawn");
    let run = fx.nbench(&[&base[..], &["--compare", "drawn", "--format", "json"]].concat());
    assert_eq!(run.code, 0, "{}", run.all());
    let doc = run.json();
    let row = &doc["comparison"]["targets"][0]["rows"][0];
    let ratios: Vec<f64> = (row["unit_ratios"].as_array().unwrap().iter())
        .map(|r| r.as_f64().unwrap())
        .collect();
    assert!(
        ratios.len() >= 4 && ratios.iter().all(|r| (r - 1.0).abs() < 1e-9),
        "{ratios:?}"
    );
    assert_eq!(row["verdict"], "unchanged", "{row}");
    let levels: Vec<f64> = (row["baseline_per_iter_ns"].as_array().unwrap().iter())
        .map(|t| (t.as_f64().unwrap() / 10.0).round() * 10.0)
        .collect();
    assert!(
        levels.contains(&1000.0) && levels.contains(&1010.0),
        "{levels:?}"
    );
}

fn save(fx: &crate::helpers::Fixture, args: &[&str], name: &str) {
    let saved = fx.nbench(&[args, &["--save-baseline", name]].concat());
    assert_eq!(saved.code, 0, "{}", saved.all());
}

/// `cmd` run under a shell that first sets the stack's soft limit to 8 MiB,
/// the usual start on Linux, whatever the test machine's own; the hard
/// limit, which a process may raise its soft limit to, stays.
fn with_usual_stack(cmd: &std::process::Command) -> Run {
    let mut sh = std::process::Command::new("sh");
    sh.args(["-c", "ulimit -S -s 8192 && exec \"$@\"", "sh"])
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (key, value) in cmd.get_envs() {
        match value {
            Some(v) => sh.env(key, v),
            None => sh.env_remove(key),
        };
    }
    sh.current_dir(cmd.get_current_dir().unwrap());
    Run::from(sh.output().unwrap())
}

#[test]
fn a_routine_that_needs_a_deep_stack_is_measured_and_counted() {
    let fx = Fixture::new("limits").own_target_dir();
    // Run alone, with the stack a process usually starts with, it overflows.
    let exe = fx.bench_exe("stack");
    let mut alone = std::process::Command::new(&exe);
    alone.arg("--bench").current_dir(&fx.dir);
    let alone = with_usual_stack(&alone);
    assert_ne!(alone.code, 0, "{}", alone.all());
    assert!(
        alone.all().contains("overflowed its stack"),
        "{}",
        alone.all()
    );
    // cargo nbench gives its bench processes room, Valgrind's included, up
    // to the hard limit.
    let hard = std::process::Command::new("sh")
        .args(["-c", "ulimit -H -s"])
        .output()
        .unwrap();
    let hard = String::from_utf8_lossy(&hard.stdout).trim().to_owned();
    if hard.parse::<u64>().is_ok_and(|kib| kib < 64 << 10) {
        eprintln!("skipped: the stack's hard limit here is {hard} KiB");
        return;
    }
    let counted = crate::counts::valgrind_here();
    let metrics = if counted { "time,instructions" } else { "time" };
    let args = ["--bench", "stack", "--metrics", metrics, "--format", "json"];
    let run = with_usual_stack(&fx.nbench_command(&[&args[..], QUICK].concat()));
    assert_eq!(run.code, 0, "{}", run.all());
    let deep = &run.json()["targets"][0]["benchmarks"][0];
    assert_eq!(deep["id"], "deep", "{deep}");
    if counted {
        let per_iter = &deep["metrics"]["instructions"]["per_iter"];
        assert!(per_iter.as_f64().is_some_and(|n| n > 0.0), "{deep}");
    }
}
