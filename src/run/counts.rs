//! Instructions per iteration, from the counting processes
//! [`super::counting`] runs over the iterations [`super::counted_over`]
//! gives: the processes a side is counted in, what a process that ends partway
//! leaves ([`tally`]), and the counts read as each benchmark's per
//! iteration.
//!
//! Each benchmark's loop is counted over `n` and `2n` iterations and the
//! difference taken, so what a sample costs once (reading the clock,
//! entering the loop) drops out; the empty loop is counted the same way and
//! taken off `iter` loops, as its time is. Counts of a benchmark on several
//! threads, or one that times itself, are kept but marked as not telling.

use super::Plan;
use super::counted_over::{
    COUNTED_AT_MOST_NS, Native, mark_unaccounted, timed_of, to_count, wall_ns,
};
use super::counter::CountError;
use super::counting::{self, Counting, Over, ToCount, Way};
use crate::model::metric::{Beside, Counted, SideCounts};
use crate::model::observer::Observer;
use crate::model::outcome::Outcome;
use crate::model::target::Built;
use nbench::__private::count::Dumped;
use nbench::__private::format::one_line;
use nbench::__private::metric::Metric;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One executable's counts: each benchmark's, and why one has none
/// where counting it ended its process.
#[derive(Debug, Default)]
pub struct Tally {
    /// Each id's count.
    pub counted: BTreeMap<String, Counted>,
    /// Why an id has no count: its process failed while counting it.
    pub failed: Failed,
}

/// Why a benchmark has no count, by id: its counting failed.
pub type Failed = BTreeMap<String, String>;

/// Counts benchmarks `ids` of executable `exe`, run from `dir` the `way`
/// given: each id's count, and why an id has none; or why counting failed.
///
/// A process that fails while counting one benchmark (killed when its
/// iterations kept what they made until memory ran out, an instruction
/// Valgrind does not know) keeps what it counted before; the others are
/// counted in another process, without that one: one benchmark costs its
/// own count only.
pub fn count(
    (exe, seed): (&Path, u64),
    dir: &Path,
    ids: &ToCount,
    way: Way<'_>,
) -> Result<Tally, CountError> {
    let source = super::counter::source()?;
    tally(ids, way.limit, |left, limit, iters| {
        let way = Way { limit, ..way };
        counting::once((&source, seed), (exe, dir, left), (way, iters))
    })
}

/// Processes in a row that count nothing after which the benchmarks left
/// are not tried one by one.
const BARREN_PROCESSES: usize = 3;

/// What [`count`] makes of the processes `once` runs, each given the ids
/// left, its share of `limit`, and whether to pass their iterations.
fn tally(
    ids: &ToCount,
    limit: Duration,
    mut once: impl FnMut(&ToCount, Duration, bool) -> Result<Counting, CountError>,
) -> Result<Tally, CountError> {
    let mut tally = Tally::default();
    let mut left = ids.to_vec();
    let (mut iters, mut barren) = (true, 0);
    while !left.is_empty() {
        let share = limit.mul_f64((left.len() + 1) as f64 / (ids.len() + 1) as f64);
        let run = once(&left, share, iters)?;
        let counted = by_id(per_iteration(&run.dumps), &left);
        left.retain(|(id, _)| !counted.contains_key(id));
        barren = if counted.is_empty() { barren + 1 } else { 0 };
        tally.counted.extend(counted);
        let Some(mut failed) = run.failed else {
            break;
        };
        // Processes that each end in their first benchmark end so in
        // every one (an instruction Valgrind does not know, in code they
        // all run): not one process a benchmark.
        if barren == BARREN_PROCESSES {
            failed.at = None;
        }
        // An executable built before `--nbench-count-iters` refuses it:
        // counted by the clock instead.
        if iters && failed.refused_iters {
            iters = false;
            continue;
        }
        let at = failed.at.as_deref();
        let Some(k) = left.iter().position(|(id, _)| Some(&*one_line(id)) == at) else {
            // It ended before a benchmark, or in one it had counted.
            if tally.counted.is_empty() {
                return Err(CountError::Failed(failed.why));
            }
            let why = failed.why;
            tally
                .failed
                .extend(left.into_iter().map(|(id, _)| (id, why.clone())));
            break;
        };
        tally.failed.insert(left.remove(k).0, failed.why);
    }
    Ok(tally)
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
/// iterations show it (`compare/counts.rs`), at a third more cost; it
/// counts only the benchmarks the first two leave open, after those
/// listed before them ([`super::count_sides`]).
pub const COUNT_PROCESSES: usize = 3;

/// Counts benchmarks `ids` in the `processes`-th processes of `exes` (each
/// a link layout of one side, the `k`-th process in the `k`-th, cycling),
/// the second (`k` = 1) over twice the iterations `ids` give, the others
/// over those ([`COUNT_PROCESSES`]), the `k`-th drawing the `k`-th fixed random
/// sequence (`harness/src/entropy/`): each id's count in each process, and why an id
/// has none (its counting failed in one of them, and is not tried again
/// in the next: a side's spread is measured over all its processes or
/// stated for none); or why counting failed.
/// `started` is told each process's number (from 1) as it starts. A count
/// that accounts for too little of its benchmark's time (`timed`, ns an
/// iteration) is marked as not telling ([`mark_unaccounted`]).
pub fn count_side(
    exes: &[PathBuf],
    (dir, ids, timed): (&Path, &ToCount, &BTreeMap<String, f64>),
    way: Way<'_>,
    (processes, started): (Range<usize>, &mut dyn FnMut(usize)),
) -> Result<(SideCounts, Failed), CountError> {
    let (mut side, mut failed) = (SideCounts::new(), Failed::new());
    for k in processes {
        let Some(exe) = exes.get(k % exes.len().max(1)) else {
            break;
        };
        let ids: Vec<(String, Over)> = (ids.iter())
            .filter(|(id, _)| !failed.contains_key(id))
            .map(|(id, o)| {
                let iters = o.iters.saturating_mul(iterations_factor(k));
                (id.clone(), Over { iters, ..*o })
            })
            .collect();
        if ids.is_empty() {
            break;
        }
        started(k + 1);
        // The `k`-th process of each side draws the `k`-th random sequence.
        let tally = count((exe, k as u64), dir, &ids, way)?;
        for (id, c) in tally.counted {
            side.entry(id).or_default().push(c);
        }
        failed.extend(tally.failed);
    }
    side.retain(|id, _| !failed.contains_key(id));
    mark_unaccounted(&mut side, timed);
    Ok((side, failed))
}

/// How many times the given iterations the `k`-th counting process runs:
/// twice for the second, once for the others.
fn iterations_factor(k: usize) -> u64 {
    if k == 1 { 2 } else { 1 }
}

/// Counts the instructions of each benchmark of `built` measured in
/// `outcomes` (`--metrics time,instructions`) into its outcome; where none
/// could be had, says why in its place.
pub fn count_into(
    built: &Built,
    plan: &Plan,
    outcomes: &mut [Outcome],
    observer: &mut dyn Observer,
) {
    let native: Vec<(String, Native)> = (outcomes.iter())
        .filter_map(|o| match o {
            Outcome::Measured(m) => {
                let timed = m.result.summary.median + m.result.overhead;
                let wall = wall_ns(m);
                Some((m.result.id.clone(), Native { timed, wall }))
            }
            _ => None,
        })
        .collect();
    let timed = timed_of(&native);
    let ids = to_count_in(outcomes, native);
    if ids.is_empty() {
        return;
    }
    let limit = plan.timeout.saturating_mul(ids.len() as u32 + 1);
    let dir = built.target.package_root.as_path();
    let exe = std::slice::from_ref(&built.exe);
    let way = Way {
        extra_args: &plan.extra_args,
        limit,
        every_thread: counting::every_thread(&[&built.exe]),
    };
    let label = built.target.label();
    let mut started = |k: usize| observer.counting(&label, ids.len(), k, 1);
    // A run without a comparison shows one count.
    let counted = count_side(exe, (dir, &ids, &timed), way, (0..1, &mut started));
    observer.clear();
    match counted {
        Ok((side, failed)) => besides_from(outcomes, &ids, (&side, &failed), way.every_thread),
        Err(e) => besides_failed(outcomes, &ids, &e.to_string()),
    }
}

/// Each measured outcome among `ids` counted: its instructions from `side`
/// (its first process's count, on `every_thread` or the calling one), or
/// why it has none.
pub fn besides_from(
    outcomes: &mut [Outcome],
    ids: &ToCount,
    (side, failed): (&SideCounts, &Failed),
    every_thread: bool,
) {
    let asked = |id: &str| ids.iter().any(|(i, _)| i == id);
    put_besides(outcomes, asked, |id| {
        if let Some(why) = failed.get(id) {
            return uncounted(&format!("counting instructions failed in it: {why}"));
        }
        match side.get(id).and_then(|c| c.first()) {
            Some(c) => Beside {
                per_iter: Some(c.per_iter),
                overhead: c.overhead,
                note: c.not_telling.clone(),
                every_thread,
            },
            None => uncounted("not counted: it skipped or failed under callgrind"),
        }
    });
}

/// Each measured outcome's instructions among `ids`, whose counting
/// failed as a whole: none, and why. The others keep their own reason
/// (too slow to count, timing itself).
pub fn besides_failed(outcomes: &mut [Outcome], ids: &ToCount, why: &str) {
    let asked = |id: &str| ids.iter().any(|(i, _)| i == id);
    put_besides(outcomes, asked, |_| uncounted(why));
}

/// Of benchmarks `native` (each id with an iteration's native ns), those
/// to count, each with its iterations ([`to_count`]); each measured outcome
/// among the others says it is too slow to count.
pub fn to_count_in(outcomes: &mut [Outcome], native: Vec<(String, Native)>) -> Vec<(String, Over)> {
    let (ids, slow) = to_count(native);
    besides_too_slow(outcomes, &slow);
    ids
}

/// Each measured outcome among `ids`, whose routine times itself, says
/// why it has no count.
pub fn besides_self_timed(outcomes: &mut [Outcome], ids: &[String]) {
    put_besides(
        outcomes,
        |id| ids.iter().any(|s| s == id),
        |_| uncounted(TIMES_ITSELF),
    );
}

/// Why a routine that times itself has no count that tells.
const TIMES_ITSELF: &str =
    "it times itself (iter_custom): what it counts need not be what it times";

/// Each measured outcome among `slow` says why it has no count.
fn besides_too_slow(outcomes: &mut [Outcome], slow: &[String]) {
    let why = format!(
        "counted, an iteration would take over {} natively with what it makes outside the \
         timing, some 50 times that under callgrind: time alone decides it",
        nbench::__private::format::time(COUNTED_AT_MOST_NS)
    );
    put_besides(
        outcomes,
        |id| slow.iter().any(|s| s == id),
        |_| uncounted(&why),
    );
}

/// Each measured outcome's instructions whose id is `asked`, as `beside`
/// gives them for its id.
fn put_besides(
    outcomes: &mut [Outcome],
    asked: impl Fn(&str) -> bool,
    beside: impl Fn(&str) -> Beside,
) {
    for o in outcomes {
        if let Outcome::Measured(m) = o
            && asked(&m.result.id)
        {
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
        every_thread: false,
    }
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
            "custom" => Some(TIMES_ITSELF.to_owned()),
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
    use crate::run::counting::{Failure, dumped};

    /// A counting process of `left`, as a harness runs one: the empty loop,
    /// then each id in turn, announced, its two dumps taken, up to `dies`
    /// (announced, then killed); each id costs `per_id` instructions an
    /// iteration.
    fn process(left: &ToCount, dies: Option<&str>, per_id: f64) -> Counting {
        let dump = |what: &str, iters: u64, id: &str, n: f64| {
            let label = format!("nbench-count\t{what}\t{iters}\titer\t{id}");
            (nbench::__private::count::parse_label(&label).unwrap(), n)
        };
        let mut dumps = vec![dump("loop", 8, "", 8.0), dump("loop", 16, "", 16.0)];
        for (id, o) in left {
            let n = &o.iters;
            if Some(id.as_str()) == dies {
                let why = "the counting run was killed by signal 9 (SIGKILL)".to_owned();
                let at = Some(id.clone());
                return Counting {
                    dumps,
                    failed: Some(Failure {
                        why,
                        at,
                        refused_iters: false,
                    }),
                };
            }
            dumps.push(dump("body", *n, id, (per_id + 1.0) * *n as f64));
            dumps.push(dump("body", 2 * n, id, (per_id + 1.0) * 2.0 * *n as f64));
        }
        Counting {
            dumps,
            failed: None,
        }
    }

    #[test]
    fn a_benchmark_whose_counting_ends_its_process_costs_its_own_count_only() {
        let ids: Vec<(String, Over)> = ["a", "b", "hog", "c", "d"]
            .iter()
            .map(|id| (id.to_string(), Over::iters(64)))
            .collect();
        let mut runs = Vec::new();
        let tally = tally(&ids, Duration::from_secs(60), |left, share, _| {
            runs.push((
                left.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(),
                share,
            ));
            Ok(process(left, Some("hog"), 100.0))
        })
        .unwrap();
        assert_eq!(
            tally.counted.keys().collect::<Vec<_>>(),
            ["a", "b", "c", "d"]
        );
        assert_eq!(tally.counted["c"].per_iter, 100.0);
        assert_eq!(tally.failed.keys().collect::<Vec<_>>(), ["hog"]);
        assert!(tally.failed["hog"].contains("SIGKILL"), "{tally:?}");
        // The second process counts only what the first had not reached,
        // with the time those have.
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1].0, ["c", "d"]);
        assert_eq!(runs[1].1, Duration::from_secs(30));
    }

    #[test]
    fn processes_that_each_end_in_their_first_benchmark_are_not_run_for_every_one() {
        let ids: Vec<(String, Over)> = (0..50).map(|i| (format!("b{i}"), Over::iters(8))).collect();
        let mut runs = 0;
        let e = tally(&ids, Duration::from_secs(60), |left, _, _| {
            runs += 1;
            Ok(process(left, Some(&left[0].0), 1.0))
        });
        assert_eq!(
            (runs, e.unwrap_err().to_string().contains("SIGKILL")),
            (3, true)
        );
        // After some were counted: the rest fail with the reason.
        let mut runs = 0;
        let t = tally(&ids, Duration::from_secs(60), |left, _, _| {
            runs += 1;
            // The first counts two; each after it ends in its first.
            let at = if left.len() == 50 { 2 } else { 0 };
            Ok(process(left, Some(&left[at].0), 1.0))
        });
        let t = t.unwrap();
        assert_eq!((runs, t.counted.len(), t.failed.len()), (4, 2, 48));
        assert!(t.failed.values().all(|why| why.contains("SIGKILL")));
    }

    #[test]
    fn a_process_that_fails_before_any_benchmark_fails_the_whole_count() {
        let ids = [
            ("a".to_owned(), Over::iters(8)),
            ("b".to_owned(), Over::iters(8)),
        ];
        let failed = |why: &str, refused_iters| Counting {
            dumps: Vec::new(),
            failed: Some(Failure {
                why: why.to_owned(),
                at: None,
                refused_iters,
            }),
        };
        let e = tally(&ids, Duration::from_secs(9), |_, _, _| {
            Ok(failed("no such file", false))
        });
        assert_eq!(e.unwrap_err(), CountError::Failed("no such file".into()));
        // An older harness refuses the iterations once; then by the clock.
        let mut asked = Vec::new();
        let t = tally(&ids, Duration::from_secs(9), |left, _, iters| {
            asked.push(iters);
            Ok(match iters {
                true => failed("unknown option; see --help", true),
                false => process(left, None, 5.0),
            })
        });
        assert_eq!((asked, t.unwrap().counted.len()), (vec![true, false], 2));
        // A later one refusing them is a failure like any other: counted
        // by the clock, its processes would count other iterations.
        let mut asked = Vec::new();
        let t = tally(&ids, Duration::from_secs(9), |_, _, iters| {
            asked.push(iters);
            Ok(failed("invalid value '--exact'; see --help", false))
        });
        assert!(asked == [true] && t.is_err());
        // Every benchmark counted, and a failure after them (a `main`'s own
        // work): the counts stand.
        let t = tally(&ids, Duration::from_secs(9), |left, _, _| {
            let mut c = process(left, None, 5.0);
            c.failed = Some(Failure {
                why: "panicked at exit".into(),
                at: Some("b".into()),
                refused_iters: false,
            });
            Ok(c)
        });
        let t = t.unwrap();
        assert_eq!((t.counted.len(), t.failed.len()), (2, 0));
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
            ("fill\n    /2".to_owned(), Over::iters(8)),
            ("a\nb".to_owned(), Over::iters(8)),
            ("a\\nb".to_owned(), Over::iters(8)),
        ];
        let counts = by_id(per_iteration(&dumps), &asked);
        assert_eq!(counts["fill\n    /2"].per_iter, 10.0, "{counts:?}");
        // `a` newline `b` and `a\\nb` read alike: neither is counted.
        assert_eq!(counts.len(), 1, "{counts:?}");
    }
}
