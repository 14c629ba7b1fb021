//! `--metrics time,instructions`: each benchmark's instructions per
//! iteration, counted under Valgrind's callgrind, beside its time.

use crate::helpers::{Fixture, ONE_LAYOUT, Run};
use serde_json::Value;

/// Whether Valgrind runs here. CI installs it (`.ci/run`), so there its
/// absence fails the test instead of skipping it.
pub fn valgrind_here() -> bool {
    let found = std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "CI must have Valgrind: .ci/run installs it"
    );
    found
}

/// The `metrics.instructions` of benchmark `id` in a run's JSON.
fn instructions(json: &Value, id: &str) -> Value {
    let benches = json["targets"][0]["benchmarks"].as_array().unwrap();
    let b = benches.iter().find(|b| b["id"] == id);
    b.unwrap_or_else(|| panic!("no {id} in {json}"))["metrics"]["instructions"].clone()
}

#[test]
fn a_loop_of_known_additions_counts_the_instructions_it_executes() {
    if !valgrind_here() {
        eprintln!("skipped: no Valgrind here");
        return;
    }
    let f = Fixture::new("counts");
    let args = ["--metrics", "time,instructions", "--max-time", "100ms"];
    let run = f.nbench(&[&args[..], &["--format", "json"]].concat());
    let json = run.json();
    // Ten thousand additions, and the call around them: within ±0.1 %.
    let adds = instructions(&json, "adds/10000");
    let per_iter = adds["per_iter"].as_f64().unwrap();
    assert!((per_iter - 10_000.0).abs() <= 10.0, "{adds}");
    // The loop's own instructions were taken off, as its time is.
    assert!(adds["overhead"].as_f64().unwrap() >= 1.0, "{adds}");
    assert!(adds.get("note").is_none(), "{adds}");
    // A batch's setup (20 000 additions an input) is left out of the count.
    let after = instructions(&json, "adds/after_setup")["per_iter"]
        .as_f64()
        .unwrap();
    assert!((10_000.0..10_100.0).contains(&after), "{after}");
    // Counted on two threads one after the other: said not to tell.
    let par = instructions(&json, "par/adds/threads=2");
    let note = par["note"].as_str().unwrap_or_default();
    assert!(note.contains("several threads"), "{par}");
    // A million additions on a thread of its own, the timing thread waiting:
    // every thread is counted, so the count is the additions' (and the
    // channel's).
    let elsewhere = instructions(&json, "elsewhere/adds");
    let per_iter = elsewhere["per_iter"].as_f64().unwrap();
    assert!(
        (1_000_000.0..1_010_000.0).contains(&per_iter),
        "{elsewhere}"
    );
    assert!(elsewhere.get("note").is_none(), "{elsewhere}");
    assert_eq!(elsewhere["every_thread"], true, "{elsewhere}");
    // The same count the next time: the figure is the executable's, one
    // that follows only its map's seeds too, and one that draws its work by
    // the system call (a run's counting process draws the same bytes each
    // time).
    let again = f.nbench(&[&args[..], &["--format", "json"]].concat());
    let again: Value = serde_json::from_str(&again.stdout).unwrap();
    for id in ["adds/10000", "first/256", "drawn/4096"] {
        let (first, second) = (instructions(&json, id), instructions(&again, id));
        assert_eq!(second["per_iter"], first["per_iter"], "{id}");
    }
    // A map made in each iteration, each drawing the next keys: its count
    // is their average over the iterations counted, a power of two that
    // follows the time a busy machine took, so another run can take twice
    // as many (93 443.5, 93 444.19 and 93 453.5 an iteration: 0.01 % apart;
    // 93 454.86 and 93 503.58 in a loaded CI run: 0.052 %), within 0.1 %
    // (the kernel's seeds: 93 496 and 93 706, 0.22 % apart).
    let per_iter = |j: &Value| instructions(j, "hashed/256")["per_iter"].as_f64().unwrap();
    let (first, second) = (per_iter(&json), per_iter(&again));
    assert!((second / first - 1.0).abs() < 1e-3, "{first} {second}");
    // The console has a column for it.
    let table = f.nbench(&[&args[..], &["adds/10000"]].concat());
    assert!(table.stdout.contains("instructions"), "{}", table.all());
    assert!(table.line("adds/10000").contains(" k"), "{}", table.all());
    // Counting is shown as it goes, as measuring is.
    let shown = "counting [1/1] counts/counts › 1 benchmark under callgrind";
    assert!(table.stderr.contains(shown), "{}", table.stderr);
}

#[test]
fn a_benchmark_that_ends_its_counting_process_costs_only_its_own_count() {
    if !valgrind_here() {
        eprintln!("skipped: no Valgrind here");
        return;
    }
    let f = Fixture::new("counts").own_target_dir();
    // `litter` leaves a file named from its random seeds in the temporary
    // folder, here one of the test's own.
    let tmp = f.dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let nbench = |args: &[&str]| {
        let mut cmd = f.nbench_command(args);
        crate::helpers::Run::from(cmd.env("TMPDIR", &tmp).output().unwrap())
    };
    let quick = ["--max-time", "100ms", "--features", "dies,litter,slow"];
    // One link layout a side: what layouts do is `layouts.rs`'s subject.
    let saved = nbench(&[&quick[..], &ONE_LAYOUT, &["--save-baseline", "base"]].concat());
    assert_eq!(saved.code, 0, "{}", saved.all());
    let counted = ["--metrics", "time,instructions", "--format", "json"];
    let run = nbench(&[&quick[..], &counted[..]].concat());
    assert_eq!(run.code, 0, "{}", run.all());
    let json = run.json();
    // Those before it and those after it are counted.
    for id in ["adds/10000", "stride", "litter"] {
        let n = instructions(&json, id)["per_iter"].as_f64();
        assert!(n.is_some_and(|n| n > 1000.0), "{id}: {json}");
    }
    let dies = instructions(&json, "dies/counted");
    assert!(dies["per_iter"].is_null(), "{dies}");
    let why = "`dies/counted` has no instruction count: counting instructions failed in it: \
               the counting run was killed by signal 6 (SIGABRT, aborted)";
    assert!(dies["note"].to_string().contains("SIGABRT"), "{dies}");
    assert!(run.stderr.contains(why), "{}", run.all());
    // One that waits counts too little of its time to tell it.
    let waits = instructions(&json, "sleeps/2ms");
    let note = waits["note"].as_str().unwrap_or_default();
    assert!(note.contains("where the count does not reach"), "{waits}");
    // An iteration of 60 ms is left to time.
    let slow = instructions(&json, "sleeps/60ms");
    assert!(slow["per_iter"].is_null(), "{slow}");
    let why = "counted, an iteration would take over 50.00 ms natively";
    assert!(slow["note"].to_string().contains(why), "{slow}");
    // An input of 20 ms made for each iteration, hundreds of times the
    // routine, is made uninstrumented: the routine's additions are
    // counted, and the input's are not.
    let setup = instructions(&json, "adds/slow_setup");
    let per_iter = setup["per_iter"].as_f64();
    assert!(
        per_iter.is_some_and(|n| (10_000.0..10_100.0).contains(&n)),
        "{setup}"
    );
    // Compared: the same, once for the row, and the other rows judged on
    // their counts.
    let compared = nbench(
        &[
            &quick[..],
            &counted[..],
            &ONE_LAYOUT,
            &["--compare", "base"],
        ]
        .concat(),
    );
    assert_eq!(compared.code, 0, "{}", compared.all());
    let json = compared.json();
    let warnings = json["comparison"]["warnings"].to_string();
    assert!(
        warnings.contains("`dies/counted` has no instruction count"),
        "{warnings}"
    );
    // Not said for the whole target (`adds/slow_setup` may join
    // `sleeps/60ms` where a busy machine stretched its wall time).
    assert!(
        !warnings.contains("`counts/counts` has no instruction counts"),
        "{warnings}"
    );
    let rows = rows(&json);
    assert!(
        rows["dies/counted"]["instructions"].is_null(),
        "{}",
        rows["dies/counted"]
    );
    assert_eq!(
        rows["stride"]["instructions"]["change"], 0.0,
        "{}",
        rows["stride"]
    );
    // Each counting process had a temporary folder of its own: `litter`'s
    // processes, which draw the same seeds on both sides at once, met no
    // file of another's, and the folders went with them.
    let litter = &rows["litter"]["instructions"];
    assert_eq!(litter["change"], 0.0, "{}", rows["litter"]);
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(
        left.iter()
            .all(|n| n.to_string_lossy().starts_with("counts-litter-")),
        "{left:?}"
    );
}

#[test]
fn an_instruction_valgrind_does_not_know_in_a_build_for_this_cpu_says_what_to_do() {
    if !valgrind_here() || !cfg!(target_arch = "x86_64") {
        eprintln!("skipped: no Valgrind or not x86_64 here");
        return;
    }
    let f = Fixture::new("counts");
    let config = f.dir.join(".cargo/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        "[build]\nrustflags = [\"-C\", \"target-cpu=native\"]\n",
    )
    .unwrap();
    let args = [
        "--max-time",
        "100ms",
        "--features",
        "unknown",
        "--metrics",
        "time,instructions",
        "unknown/",
    ];
    let run = f.nbench(&args);
    assert_eq!(run.code, 0, "{}", run.all());
    // Valgrind's words, then what to do; on a CPU with AVX-512 the whole
    // binary may use it, and then no benchmark is counted.
    let said = "Valgrind does not know an instruction the bench binary runs in `";
    let warning = (run.stderr.lines())
        .find(|l| l.starts_with("warning:") && l.contains(said))
        .unwrap_or_else(|| panic!("{}", run.all()));
    // An EVEX prefix (0x62) begins every AVX-512 instruction; what follows
    // it, and where the first one lies, is the CPU's choice.
    assert!(warning.contains("(bytes 0x62 0x"), "{warning}");
    assert!(
        warning.contains("(`-C target-cpu=native` in its rustflags)")
            && warning.contains("RUSTFLAGS=\"-C target-cpu=x86-64-v3\""),
        "{warning}"
    );
}

/// The comparison rows of a run's JSON, by id.
fn rows(json: &Value) -> std::collections::BTreeMap<String, Value> {
    let rows = json["comparison"]["targets"][0]["rows"].as_array().unwrap();
    (rows.iter())
        .map(|r| (r["id"].as_str().unwrap().to_owned(), r.clone()))
        .collect()
}

#[test]
fn a_comparison_judges_time_and_instructions_together() {
    if !valgrind_here() {
        eprintln!("skipped: no Valgrind here");
        return;
    }
    let f = Fixture::new("counts").own_target_dir();
    let quick = ["--max-time", "200ms", "--layouts", "4"];
    let saved = f.nbench(&[&quick[..], &["--save-baseline", "base"]].concat());
    assert_eq!(saved.code, 0, "{}", saved.all());
    let counted = [
        "--metrics",
        "time,instructions",
        "--compare",
        "base",
        "--format",
        "json",
    ];
    // The same source: the counts do not move, and nothing is claimed.
    let same_out = f.dir.join("same.json");
    let same_arg = format!("--out={}", same_out.display());
    let same = f.nbench(&[&quick[..], &counted[..4], &[&same_arg]].concat());
    assert_eq!(same.code, 0, "{}", same.all());
    // A third process counts the rows whose first two processes leave
    // open, after those listed before them; here one at most is open: each
    // pair of processes counted alike (the `k`-th of each side drew the
    // same seeds), or the counts do not tell, but for `elsewhere/adds`,
    // whose count holds a channel's handoff between two threads (its
    // waiting moves it some 0.1 %). How many benchmarks each process of
    // a side runs, as its progress line says.
    let processes = |run: &Run, k: &str| {
        let line = format!("counting [{k}] counts/counts › ");
        (run.stderr.lines())
            .filter_map(|l| l.strip_prefix(line.as_str()))
            .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
            .collect::<Vec<_>>()
    };
    let first = processes(&same, "1/2");
    assert!(matches!(first.as_slice(), [n] if *n > 5), "{}", same.stderr);
    assert!(same.stderr.contains("counting [2/2]"), "{}", same.stderr);
    let third = processes(&same, "3/3");
    assert!(
        third.len() <= 1 && third.iter().all(|n| (1..=first[0]).contains(n)),
        "{}",
        same.stderr
    );
    let same: Value = serde_json::from_str(&std::fs::read_to_string(&same_out).unwrap()).unwrap();
    // A benchmark that times itself is not counted in a comparison, and says why.
    let custom = instructions(&same, "custom/adds");
    assert!(custom["per_iter"].is_null(), "{custom}");
    assert!(
        custom["note"].as_str().unwrap().contains("times itself"),
        "{custom}"
    );
    // Counted: no note suggests counting.
    let notes = same["comparison"]["notes"].to_string();
    assert!(!notes.contains("on time alone"), "{notes}");
    let same = rows(&same);
    // The other thread's additions, counted on both sides alike.
    let elsewhere = &same["elsewhere/adds"]["instructions"];
    let change = elsewhere["change"].as_f64().unwrap();
    assert!(change.abs() < 0.002, "{elsewhere}");
    for id in [
        "adds/10000",
        "adds/after_setup",
        "stride",
        "grows",
        "first/256",
    ] {
        let r = &same[id];
        // Each pair of processes drew its own seeds, and counted alike;
        // `adds/after_setup` too, whose inputs every process makes
        // uninstrumented, or none does: a batch's own instructions count
        // 24 apart the two ways, and processes that each decided by their
        // own clock counted 10020.04 or 10020.13 an iteration.
        for key in ["change", "spread"] {
            assert_eq!(r["instructions"][key], 0.0, "{r}");
        }
        assert!(r["decided_by"].is_string(), "{r}");
        // `grows` does more work the more iterations ran before, so its
        // time per iteration is as erratic as its samples are uneven
        // (57 … 734 ns in one epoch of a busy suite): at 200 ms its time
        // alone once read -2.5 % on the same executables. Its counts are
        // what it is here for.
        if id != "grows" {
            assert!(
                !["regressed", "improved"].contains(&r["verdict"].as_str().unwrap()),
                "{r}"
            );
        }
    }
    // An iteration whose count depends on how many ran before: the second
    // process of each side, over twice the iterations, counts otherwise,
    // but as the other side's second process does. Paired, the change
    // holds from process to process: the same work.
    let grows = &same["grows"];
    assert_eq!(grows["instructions"]["change"], 0.0, "{grows}");
    assert_eq!(grows["instructions"]["spread"], 0.0, "{grows}");
    // 0.6 % more additions, and reads 512 values apart: the table on
    // stdout, the JSON in a file.
    let out = f.dir.join("changed.json");
    let out_arg = format!("--out={}", out.display());
    let args = [
        &quick[..],
        &counted[..4],
        &["--features", "more,strided", &out_arg],
    ]
    .concat();
    let console = f.nbench(&args);
    assert_eq!(console.code, 0, "{}", console.all());
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let changed = rows(&json);
    // Here `first/256`, whose seeds moved, and at most `hashed/256`, whose
    // seeds may move too, `adds/after_setup`, whose setup's share may
    // differ with the iterations, and `elsewhere/adds`, whose channel's
    // handoff moves its count; not the 5 others, whose processes count
    // alike on each side, or in each pair.
    let third = processes(&console, "3/3");
    assert!(
        matches!(third.as_slice(), [n] if (1..=first[0]).contains(n)),
        "{}",
        console.stderr
    );
    let adds = &changed["adds/10000"];
    let more = adds["instructions"]["change"].as_f64().unwrap();
    assert!((0.0055..0.0065).contains(&more), "{adds}");
    // Counts decide it, unless another row's time, decided, went against
    // its own counts: a busy machine once timed `adds/after_setup` −2.0 %
    // (its counts +0.6 %) at these short settings, and then counts that
    // rose decide nothing in this comparison, and the row says why.
    let contrary = &adds["instructions"]["contrary"];
    match adds["verdict"].as_str().unwrap() {
        "regressed" => {}
        "inconclusive" => assert!(
            contrary["counted"].as_f64().unwrap() > 0.0
                && contrary["timed"].as_f64().unwrap() < 0.0
                && adds["notes"].to_string().contains("they do not decide"),
            "{adds}"
        ),
        _ => panic!("{adds}"),
    }
    // One hash map more before `first/256` moved its map's seeds, not its
    // code: its counts differ as far as the seeds move them, from pair to
    // pair of processes, and decide nothing (with one sequence of seeds for
    // all three processes, they read −94.1 % alike in each pair).
    let first = &changed["first/256"];
    let (change, spread) = (
        &first["instructions"]["change"],
        &first["instructions"]["spread"],
    );
    let (change, spread) = (change.as_f64().unwrap(), spread.as_f64().unwrap());
    // (Their mean may come out the same on both sides: where the seeds of
    // one side's processes are those of the other's in another order.)
    assert!(spread > 0.0 && change.abs() <= 2.0 * spread, "{first}");
    assert_ne!(first["decided_by"], "instructions", "{first}");
    // The stride's change is outside the instruction stream: the counts do
    // not move, so only time may decide, and still counts never call it
    // unchanged (time's interval is far from ruling out ±2 %).
    let stride = &changed["stride"];
    let counts = stride["instructions"]["change"].as_f64().unwrap();
    assert!(counts.abs() < 0.001, "{stride}");
    let verdict = stride["verdict"].as_str().unwrap();
    assert!(["regressed", "inconclusive"].contains(&verdict), "{stride}");
    match stride["decided_by"].as_str() {
        Some("time") => {}
        // A busy machine once timed the stride only +2.5 … +12.7 % (its
        // epochs 1.02–1.18 apart): within what relinking the same code
        // moves, so the counts, the same, hold time's claim back. They
        // never claim anything themselves.
        Some("instructions") => assert!(
            verdict == "inconclusive"
                && stride["inconclusive"]
                    .as_str()
                    .is_some_and(|w| w.contains("both builds run the same instructions")),
            "{stride}"
        ),
        _ => panic!("{stride}"),
    }
    // Where time saw it (a busy machine may leave it inconclusive over 4
    // layouts), the table says where the change lies.
    if verdict == "regressed" {
        let said = console.stdout.contains("outside the instruction stream");
        assert!(said, "{}", console.all());
    }
    // Threads' counts are not compared.
    let par = &changed["par/adds/threads=2"];
    assert!(
        par["instructions"]["note"]
            .as_str()
            .unwrap_or_default()
            .contains("threads"),
        "{par}"
    );
}

#[test]
fn without_valgrind_counting_is_refused_before_anything_is_built() {
    let f = Fixture::new("counts");
    let mut cmd = f.nbench_command(&["--metrics", "time,instructions"]);
    cmd.env("NBENCH_VALGRIND", "/nonexistent/valgrind");
    let run = Run::from(cmd.output().unwrap());
    assert_eq!(run.code, 2, "{}", run.all());
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(
        first
            == "error: --metrics instructions: NBENCH_COUNTER=valgrind, but \
                  `/nonexistent/valgrind` does not exist",
        "{}",
        run.all()
    );
    assert!(
        run.stderr.contains("apt-get install valgrind"),
        "{}",
        run.all()
    );
    assert!(
        !run.stderr.contains("Compiling"),
        "built before refusing:\n{}",
        run.all()
    );
    // A counter chosen by name that cannot count is named as the cause.
    let mut cmd = f.nbench_command(&["--metrics", "time,instructions"]);
    cmd.env("NBENCH_COUNTER", "gpu");
    let chosen = Run::from(cmd.output().unwrap());
    assert_eq!(chosen.code, 2, "{}", chosen.all());
    assert!(
        chosen.stderr.starts_with(
            "error: --metrics instructions: NBENCH_COUNTER=gpu: expected cpu or valgrind\n  \
             hint: unset NBENCH_COUNTER"
        ),
        "{}",
        chosen.all()
    );
    // Time alone needs no Valgrind, and a list without time is refused.
    let bad = f.nbench(&["--metrics", "instructions"]);
    assert_eq!(bad.code, 2, "{}", bad.all());
    assert!(
        bad.stderr.contains("time is always measured"),
        "{}",
        bad.all()
    );
}

#[test]
fn the_count_mode_outside_valgrind_counts_on_the_cpu_or_says_how_to_run_it() {
    let f = Fixture::new("counts");
    let exe = f.bench_exe("counts");
    let run = Run::exe(&exe, &f.dir, &["--nbench-count", "adds/10000"]);
    let cpu = nbench::__private::perf::probe();
    if run.code == 0 {
        assert!(run.stdout.contains("nbench-counted\t"), "{}", run.all());
    } else {
        assert!(
            cpu.is_err(),
            "a counting CPU, and the count mode failed: {}",
            run.all()
        );
        let said = &run.stderr;
        assert!(said.contains("valgrind --tool=callgrind"), "{}", run.all());
        assert!(said.contains("CPU's counter"), "{}", run.all());
    }
}

#[test]
fn a_cpu_counter_counts_a_loop_of_known_additions() {
    if let Err(why) = nbench::__private::perf::probe() {
        eprintln!("skipped: no CPU instruction counter here ({why})");
        return;
    }
    let f = Fixture::new("counts");
    let mut cmd = f.nbench_command(&["--metrics", "time,instructions", "--format", "json"]);
    cmd.args(["--max-time", "100ms", "adds/10000"])
        .env("NBENCH_COUNTER", "cpu");
    let run = Run::from(cmd.output().unwrap());
    let json = run.json();
    let adds = instructions(&json, "adds/10000");
    let per_iter = adds["per_iter"].as_f64().unwrap();
    assert!((per_iter - 10_000.0).abs() <= 10.0, "{adds}");
}
