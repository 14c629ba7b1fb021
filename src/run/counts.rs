//! Instructions per iteration: the bench binary runs once more, as
//! `BINARY --nbench-count --exact ID…`, on the CPU where its instruction
//! counter counts (each count written to a file in its scratch folder), else under Valgrind's callgrind
//! (`valgrind --tool=callgrind --collect-atstart=no …`, dumping each under
//! a label); see [`super::counter`] for which. The counts are read back here.
//!
//! Each benchmark's loop is counted over `n` and `2n` iterations and the
//! difference taken, so what a sample costs once (reading the clock,
//! entering the loop) drops out; the empty loop is counted the same way and
//! taken off `iter` loops, as its time is. Counts of a benchmark on several
//! threads, or one that times itself, are kept but marked as not telling.

use super::Plan;
use super::counter::{CountError, Source};
use crate::model::metric::{Beside, Counted, SideCounts};
use crate::model::outcome::Outcome;
use crate::model::target::Built;
use nbench::__private::count::{Dumped, parse_counted, parse_label};
use nbench::__private::format::one_line;
use nbench::__private::metric::Metric;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Whether `exe` switches callgrind's instrumentation on around what it
/// counts (a harness that does not, an older one, would count nothing
/// started with it off). Its start and each benchmark's setup then run
/// uninstrumented: a count process of base64's 30 MB inputs took 8.4 s
/// instrumented throughout.
fn instruments_itself(exe: &Path) -> bool {
    let marker = nbench::__private::count::INSTRUMENTS_ITSELF;
    std::fs::read(exe).is_ok_and(|bytes| bytes.windows(marker.len()).any(|w| w == marker))
}

/// Benchmarks to count, each with the iterations of its first counted
/// sample ([`iterations_for`]).
pub type ToCount = [(String, u64)];

/// How long a counted sample should take natively: under callgrind, some
/// 50 times as long (10 ms), long enough that what an iteration does now
/// and then (an allocator growing its pool) is shared by many.
const COUNTED_NATIVE_NS: f64 = 200_000.0;

/// The iterations a benchmark taking `ns_per_iter` natively is counted
/// over: a power of two, so that two sides a little apart in time are
/// counted alike, and each process of an executable the same (left to the
/// clock, a benchmark's earlier samples leave the allocator in another
/// state from run to run).
pub fn iterations_for(ns_per_iter: f64) -> u64 {
    let wanted = (COUNTED_NATIVE_NS / ns_per_iter.max(0.1)).ceil();
    (wanted.clamp(1.0, (1u64 << 24) as f64) as u64).next_power_of_two()
}

/// Counts benchmarks `ids` of executable `exe`, run from `dir` with
/// `extra_args` after its own, for at most `limit`: each id's count, or
/// why there is none.
pub fn count(
    exe: &Path,
    dir: &Path,
    ids: &ToCount,
    (extra_args, limit): (&[String], Duration),
) -> Result<BTreeMap<String, Counted>, CountError> {
    let source = super::counter::source()?;
    let attempt = |iters: bool| {
        let out = scratch_dir();
        std::fs::create_dir_all(&out).map_err(|e| CountError::Failed(e.to_string()))?;
        let how = (extra_args, limit, iters);
        let result =
            run(&source, (exe, dir, ids), how, &out).map(|d| by_id(per_iteration(&d), ids));
        let _ = std::fs::remove_dir_all(&out);
        result
    };
    match attempt(true) {
        // An executable built before `--nbench-count-iters` refuses it:
        // counted by the clock instead.
        Err(CountError::Failed(why)) if why.contains("--help") => attempt(false),
        result => result,
    }
}

/// A folder of its own for one counting run; every one of a run's names is
/// as long as the others (see [`run`]).
fn scratch_dir() -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("nbench-counts-{}-{n:06}", std::process::id()))
}

/// Processes each side of a comparison is counted in, each in another of
/// its link layouts where it has several, the second over twice the
/// iterations of the others: where the heap starts may move with the
/// executable's size, and what an iteration of code that allocates counts
/// may depend on how many ran before it (toml's `serde_json::document`
/// counted 6 298 instructions an iteration over 512 of them and 5 607 over
/// 1 024, in every layout alike), so each side's spread is measured over
/// both. Three, not two: a benchmark whose inputs are drawn at random in
/// each process counts other work in each (ropey's `get/*` rows: 435 to
/// 441 instructions an iteration over three processes of one executable),
/// and two pairs of processes agreed on a change of such noise by chance:
/// the same build read +0.68 % in both pairs, "regressed by instructions"
/// (for noise alike in every process, a change past twice the pairs' range
/// comes by chance to 15.5 % of such rows). The third runs the first's
/// iterations, so a side's processes that count other work for the same
/// iterations show it (`compare/counts.rs`), at a third more cost.
pub const COUNT_PROCESSES: usize = 3;

/// Counts benchmarks `ids` in `processes` processes of `exes` (each a link
/// layout of one side; one executable is counted that many times), the
/// second over twice the iterations `ids` give, the others over those
/// ([`COUNT_PROCESSES`]): each id's count in each process, and why it does
/// not tell where it does not; or why counting failed.
pub fn count_side(
    exes: &[PathBuf],
    (dir, ids): (&Path, &ToCount),
    (extra_args, limit): (&[String], Duration),
    processes: usize,
) -> Result<SideCounts, CountError> {
    let mut side = SideCounts::new();
    for (k, exe) in exes.iter().cycle().take(processes).enumerate() {
        let ids: Vec<(String, u64)> = (ids.iter())
            .map(|(id, n)| (id.clone(), n.saturating_mul(iterations_factor(k))))
            .collect();
        for (id, c) in count(exe, dir, &ids, (extra_args, limit))? {
            side.entry(id).or_default().push(c);
        }
    }
    Ok(side)
}

/// How many times the given iterations the `k`-th counting process runs:
/// twice for the second, once for the others.
fn iterations_factor(k: usize) -> u64 {
    if k == 1 { 2 } else { 1 }
}

/// Counts the instructions of each benchmark of `built` measured in
/// `outcomes` (`--metrics time,instructions`) into its outcome; where none
/// could be had, says why in its place.
pub fn count_into(built: &Built, plan: &Plan, outcomes: &mut [Outcome]) {
    let ids: Vec<(String, u64)> = (outcomes.iter())
        .filter_map(|o| match o {
            Outcome::Measured(m) => {
                let ns = m.result.summary.median + m.result.overhead;
                Some((m.result.id.clone(), iterations_for(ns)))
            }
            _ => None,
        })
        .collect();
    if ids.is_empty() {
        return;
    }
    let limit = plan.timeout.saturating_mul(ids.len() as u32 + 1);
    let dir = built.target.package_root.as_path();
    let exe = std::slice::from_ref(&built.exe);
    // A run without a comparison shows one count.
    match count_side(exe, (dir, &ids), (&plan.extra_args, limit), 1) {
        Ok(side) => besides_from(outcomes, &side),
        Err(e) => besides_failed(outcomes, &e.to_string()),
    }
}

/// Each measured outcome's instructions from `side` (its first process's count).
pub fn besides_from(outcomes: &mut [Outcome], side: &SideCounts) {
    put_besides(outcomes, |id| match side.get(id).and_then(|c| c.first()) {
        Some(c) => Beside {
            per_iter: Some(c.per_iter),
            overhead: c.overhead,
            note: c.not_telling.clone(),
        },
        None => uncounted("not counted: it skipped or failed under callgrind"),
    });
}

/// Each measured outcome's instructions in place: none, and why.
pub fn besides_failed(outcomes: &mut [Outcome], why: &str) {
    put_besides(outcomes, |_| uncounted(why));
}

/// Each measured outcome's instructions, as `beside` gives them for its id.
fn put_besides(outcomes: &mut [Outcome], beside: impl Fn(&str) -> Beside) {
    for o in outcomes {
        if let Outcome::Measured(m) = o {
            let b = beside(&m.result.id);
            m.besides
                .insert(Metric::Instructions.as_str().to_owned(), b);
        }
    }
}

/// No count, and why.
fn uncounted(why: &str) -> Beside {
    Beside {
        per_iter: None,
        overhead: 0.0,
        note: Some(why.to_owned()),
    }
}

/// Runs the counting process, on the CPU or under Valgrind as `source`
/// says (callgrind's dumps into `out`): each count and its label.
///
/// Without address-space randomisation, and through a link of the same
/// name's length for every executable: the allocator then meets the same
/// heap in every process, and code that allocates counts the same
/// (measured: `vec_push/1000` counted 1.056 M or 1.092 M instructions an
/// iteration in processes of one executable, randomised; 1.020 M in each of
/// five, not).
/// The figures: `docs/instructions.md`.
fn run(
    source: &Source,
    (exe, dir, ids): (&Path, &Path, &ToCount),
    (extra_args, limit, iters): (&[String], Duration, bool),
    out: &Path,
) -> Result<Vec<(Dumped, f64)>, CountError> {
    let link = out.join("bench");
    #[cfg(unix)]
    let exe = match std::os::unix::fs::symlink(exe, &link) {
        Ok(()) => link.as_path(),
        Err(_) => exe,
    };
    let mut cmd = match source {
        Source::Cpu => Command::new(exe),
        Source::Valgrind(valgrind) => {
            let mut cmd = Command::new(valgrind);
            cmd.args(["--tool=callgrind", "--collect-atstart=no", "--dump-line=no"])
                .args(instruments_itself(exe).then_some("--instr-atstart=no"))
                .args([
                    "--dump-instr=no",
                    "--compress-strings=no",
                    "--compress-pos=no",
                ])
                // Valgrind gives the program's main thread a stack of its own.
                .arg(format!("--main-stacksize={}", super::child::STACK_BYTES))
                .arg(format!(
                    "--callgrind-out-file={}",
                    out.join("cg.out").display()
                ))
                .arg(exe);
            cmd
        }
    };
    super::child::not_randomized(&mut cmd);
    super::child::room_for_stack(&mut cmd);
    super::listings::share(&mut cmd);
    // What a benchmark prints while counted is not shown: it goes nowhere.
    cmd.env(nbench::__private::QUIET_ENV, "1");
    let counted_to = out.join("counted");
    if let Source::Cpu = source {
        cmd.env(nbench::__private::count::COUNTED_TO_ENV, &counted_to);
    }
    let each: Vec<String> = ids.iter().map(|(_, n)| n.to_string()).collect();
    let each = [
        nbench::__private::protocol::COUNT_ITERS_FLAG.to_owned(),
        each.join(","),
    ];
    cmd.arg(nbench::__private::protocol::COUNT_FLAG)
        .args(each.iter().filter(|_| iters))
        .arg("--exact")
        .args(extra_args)
        .arg("--")
        .args(ids.iter().map(|(id, _)| id))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (printed, _) = finish(cmd, source, limit)?;
    match source {
        Source::Cpu => Ok(counted_lines(&counted_to, &printed)),
        Source::Valgrind(_) => read(out),
    }
}

/// The counts written to the file `to`, and those printed on stdout (where
/// a harness from before that file wrote them): each with its label.
fn counted_lines(to: &Path, printed: &str) -> Vec<(Dumped, f64)> {
    let written = std::fs::read_to_string(to).unwrap_or_default();
    (written.lines().chain(printed.lines()))
        .filter_map(parse_counted)
        .collect()
}

/// Runs `cmd` for at most `limit`: what it printed on stdout and stderr
/// if it succeeded, else why not.
fn finish(
    mut cmd: Command,
    source: &Source,
    limit: Duration,
) -> Result<(String, String), CountError> {
    let mut child = cmd.spawn().map_err(|e| match source {
        Source::Valgrind(v) => CountError::NoValgrind(format!("`{}`: {e}", v.display())),
        Source::Cpu => CountError::Failed(e.to_string()),
    })?;
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut text);
            }
            text
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let Some(status) = super::session::wait_for(&mut child, limit) else {
        let _ = child.kill();
        let _ = child.wait();
        let secs = limit.as_secs_f64();
        return Err(CountError::Failed(format!(
            "still running after {secs:.0} s"
        )));
    };
    let (printed, said) = (
        stdout.join().unwrap_or_default(),
        stderr.join().unwrap_or_default(),
    );
    if status.success() {
        return Ok((printed, said));
    }
    // Valgrind's own lines start with `==PID==`; the binary's are the reason.
    let own: Vec<&str> = (said.lines())
        .filter(|l| !l.starts_with("==") && !l.trim().is_empty())
        .collect();
    Err(CountError::Failed(match own.last() {
        Some(line) => line.trim().to_owned(),
        None => format!("the counting run ended with {status}"),
    }))
}

/// The counts callgrind dumped into `out`, with their labels.
fn read(out: &Path) -> Result<Vec<(Dumped, f64)>, CountError> {
    let entries = std::fs::read_dir(out).map_err(|e| CountError::Failed(e.to_string()))?;
    let mut dumps = Vec::new();
    let dumps_only = |p: &PathBuf| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("cg.out"))
    };
    for path in entries.flatten().map(|e| e.path()).filter(dumps_only) {
        let text = std::fs::read_to_string(&path).map_err(|e| CountError::Failed(e.to_string()))?;
        if let Some(d) = dumped(&text) {
            dumps.push(d);
        }
    }
    Ok(dumps)
}

/// A dump's label and its total instructions; `None` for the dump at the
/// program's end and for one that is not a count of nbench's.
pub fn dumped(text: &str) -> Option<(Dumped, f64)> {
    let field = |name: &str| (text.lines()).find_map(|l| l.strip_prefix(name));
    // Not trimmed: the empty loop's label ends in a tab (its empty id).
    let label = parse_label(field("desc: Trigger: Client Request: ")?)?;
    let total = (field("totals:").or_else(|| field("summary:")))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some((label, total))
}

/// `counted`, keyed by the ids of the labels, under the ids asked for: a
/// label carries its id on one line (`one_line`: an id holding a newline
/// came back cut at it, and went uncounted). Two ids asked for that read
/// the same on one line cannot be told apart, and get no count.
fn by_id(mut counted: BTreeMap<String, Counted>, ids: &ToCount) -> BTreeMap<String, Counted> {
    let line = |id: &str| one_line(id).into_owned();
    let mut readings: BTreeMap<String, usize> = BTreeMap::new();
    for (id, _) in ids {
        *readings.entry(line(id)).or_default() += 1;
    }
    (ids.iter())
        .filter(|(id, _)| readings[&line(id)] == 1)
        .filter_map(|(id, _)| Some((id.clone(), counted.remove(&line(id))?)))
        .collect()
}

/// Each benchmark's instructions per iteration from its two dumps (and
/// the empty loop's, taken off `iter` loops).
pub fn per_iteration(dumps: &[(Dumped, f64)]) -> BTreeMap<String, Counted> {
    let slope = |what: &str, id: &str| -> Option<(f64, String, u64)> {
        let mut two: Vec<&(Dumped, f64)> = (dumps.iter())
            .filter(|(d, _)| d.what == what && d.id == id)
            .collect();
        two.sort_by_key(|(d, _)| d.iters);
        let [(a, ta), (b, tb)] = two.as_slice() else {
            return None;
        };
        let di = b.iters.checked_sub(a.iters).filter(|d| *d > 0)? as f64;
        Some(((tb - ta) / di, a.kind.clone(), b.iters))
    };
    let empty = slope("loop", "").map_or(0.0, |(s, ..)| s.max(0.0));
    let mut ids: Vec<&str> = (dumps.iter())
        .filter(|(d, _)| d.what == "body")
        .map(|(d, _)| d.id.as_str())
        .collect();
    ids.dedup();
    let mut counts = BTreeMap::new();
    for id in ids {
        let Some((body, kind, iters)) = slope("body", id) else {
            continue;
        };
        let overhead = if kind == "iter" { empty } else { 0.0 };
        let not_telling = match kind.as_str() {
            "threads" => Some(
                "it runs on several threads, whose instructions are not counted as its time \
                 sees them"
                    .to_owned(),
            ),
            "custom" => Some(
                "it times itself (iter_custom): what it counts need not be what it times"
                    .to_owned(),
            ),
            _ => None,
        };
        let counted = Counted {
            per_iter: (body - overhead).max(0.0),
            overhead,
            not_telling,
            iters,
        };
        counts.insert(id.to_owned(), counted);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_binary_that_says_it_switches_instrumentation_starts_without_it() {
        let dir = scratch_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let marker = nbench::__private::count::INSTRUMENTS_ITSELF;
        let new = dir.join("new");
        std::fs::write(&new, [&b"\x7fELF..."[..], marker, b"..."].concat()).unwrap();
        let old = dir.join("old");
        std::fs::write(&old, &marker[..marker.len() - 1]).unwrap();
        assert!(instruments_itself(&new));
        assert!(!instruments_itself(&old));
        assert!(!instruments_itself(&dir.join("missing")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn dump(label: &str, total: u64) -> String {
        format!(
            "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 7\ncmd: x\npart: 1\n\n\
             desc: I1 cache:\ndesc: Trigger: Client Request: {label}\n\npositions: line\nevents: Ir\n\
             summary: {total}\n\nfn=(1) main\n0 {total}\n\ntotals: {total}\n"
        )
    }

    #[test]
    fn counts_per_iteration_are_the_difference_of_two_dumps_less_the_loop() {
        let texts = [
            dump("nbench-count\tloop\t1024\titer\t", 2048 + 199),
            dump("nbench-count\tloop\t2048\titer\t", 4096 + 199),
            dump("nbench-count\tbody\t1024\titer\tadd", 4008 * 1024 + 200),
            dump("nbench-count\tbody\t2048\titer\tadd", 4008 * 2048 + 200),
            dump("nbench-count\tbody\t64\tthreads\tpar", 1000 * 64 + 5),
            dump("nbench-count\tbody\t128\tthreads\tpar", 1000 * 128 + 5),
            dump("nbench-count\tbody\t8\tbatched\tlone", 80),
        ];
        let dumps: Vec<(Dumped, f64)> = texts.iter().filter_map(|t| dumped(t)).collect();
        let counts = per_iteration(&dumps);
        assert_eq!(dumps.len(), 7, "{dumps:?}");
        assert_eq!(counts["add"].per_iter, 4006.0, "{counts:?}");
        assert_eq!(counts["add"].overhead, 2.0);
        assert!(counts["add"].not_telling.is_none());
        // Not an `iter` loop: nothing taken off; threads are not telling.
        assert_eq!(counts["par"].per_iter, 1000.0);
        assert!(
            counts["par"]
                .not_telling
                .as_deref()
                .unwrap()
                .contains("threads")
        );
        // One dump is no count.
        assert!(!counts.contains_key("lone"));
        assert_eq!(dumped(&dump("Program termination", 5)), None);
    }

    #[test]
    fn an_id_over_two_lines_is_counted_under_its_own_id() {
        // As the harness labels a dump: the id on one line.
        let label = |iters, id| format!("nbench-count\tbody\t{iters}\titer\t{}", one_line(id));
        let texts = [
            dump(&label(8, "fill\n    /2"), 80),
            dump(&label(16, "fill\n    /2"), 160),
            dump(&label(8, "a\nb"), 8),
            dump(&label(16, "a\nb"), 16),
            dump(&label(8, "a\\nb"), 8),
            dump(&label(16, "a\\nb"), 16),
        ];
        let dumps: Vec<(Dumped, f64)> = texts.iter().filter_map(|t| dumped(t)).collect();
        assert_eq!(dumps.len(), 6, "{dumps:?}");
        let asked = [
            ("fill\n    /2".to_owned(), 8),
            ("a\nb".to_owned(), 8),
            ("a\\nb".to_owned(), 8),
        ];
        let counts = by_id(per_iteration(&dumps), &asked);
        assert_eq!(counts["fill\n    /2"].per_iter, 10.0, "{counts:?}");
        // `a` newline `b` and `a\\nb` read alike: neither is counted.
        assert_eq!(counts.len(), 1, "{counts:?}");
    }

    #[test]
    fn iterations_are_a_power_of_two_near_a_fixed_native_time() {
        // 80 µs an iteration: 200 µs wanted, 2.5 iterations, 4.
        assert_eq!(iterations_for(80_000.0), 4);
        // Two sides 1 % apart are counted alike.
        assert_eq!(iterations_for(80_800.0), 4);
        assert_eq!(iterations_for(1.0), 262_144);
        assert_eq!(iterations_for(5e9), 1);
        assert_eq!(iterations_for(0.0), 1 << 21);
        assert_eq!(iterations_for(f64::NAN), 1 << 21);
    }

    #[test]
    fn counts_on_the_cpu_are_read_from_their_file_whatever_stdout_holds() {
        let dir = scratch_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let to = dir.join("counted");
        let label = "nbench-count\tbody\t8\titer\tsum";
        std::fs::write(&to, format!("nbench-counted\t4096\t{label}\n")).unwrap();
        // A benchmark's line without its end, and an older harness's count.
        let printed =
            "partial nbench-counted\t1\tx\nnbench-counted\t64\tnbench-count\tloop\t8\titer\t\n";
        let read = counted_lines(&to, printed);
        std::fs::remove_dir_all(&dir).unwrap();
        let ids: Vec<_> = read
            .iter()
            .map(|(d, n)| (d.what.as_str(), d.id.as_str(), *n))
            .collect();
        assert_eq!(ids, [("body", "sum", 4096.0), ("loop", "", 64.0)]);
        assert!(counted_lines(&dir.join("none"), "").is_empty());
    }

    #[test]
    fn a_missing_valgrind_is_said() {
        let e = run(
            &Source::Valgrind(PathBuf::from("/nonexistent/valgrind")),
            (Path::new("/bin/true"), Path::new("."), &[]),
            (&[], Duration::from_secs(5), true),
            Path::new("/nonexistent"),
        );
        match e {
            Err(CountError::NoValgrind(why)) => {
                assert!(why.contains("/nonexistent/valgrind"), "{why}")
            }
            other => panic!("{other:?}"),
        }
    }
}
