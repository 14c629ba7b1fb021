//! `--nbench-count`: each selected benchmark's measured loop run under
//! callgrind, its instructions counted and dumped for `cargo nbench` to read;
//! or, run on a CPU whose instruction counter counts, counted by it and
//! written as [`COUNTED`] lines to the file [`COUNTED_TO_ENV`] names (on
//! stdout without it).
//!
//! `cargo nbench` starts the bench binary as `valgrind --tool=callgrind
//! --collect-atstart=yes … BINARY --nbench-count [FILTER]…`, with
//! [`EVERY_THREAD_ENV`](crate::valgrind::EVERY_THREAD_ENV) set. For each
//! benchmark the loop runs `n` and then `2n` iterations, callgrind's
//! counts zeroed before that sample and dumped after it under its own
//! label, from every thread (the pool a benchmark hands its work to), the
//! one making a batch's inputs excepted ([`crate::counting`]); with
//! `--collect-atstart=no`, as an older `cargo nbench` starts it, the
//! calling thread's collection is switched on around the sample alone
//! ([`label`]); the difference of the two is `n` iterations with the fixed
//! cost of a sample (reading the clock, entering the loop) gone. The empty
//! loop is counted the same way once, so that the loop's own instructions
//! can be taken off, as its time is. On a CPU without a counter this mode
//! counts nothing and says so.

use super::args::{Args, Given};
use crate::bencher::{Declared, Driver, LoopKind};
use crate::drive::guard::{Finish, run_guarded};
use crate::engine::Measure;
use crate::loops::empty_loop;
use crate::perf::{Counter, Event};
use crate::registry::Benchmark;
use crate::select::Selected;
use crate::valgrind;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long the first of a benchmark's two counted samples should run
/// under callgrind, at least, where `cargo nbench` gave no iterations:
/// long enough that what one iteration does now and then (an allocator
/// growing its pool) is shared by many.
const SAMPLE: Duration = Duration::from_millis(10);

/// The iterations the empty loop is counted over: its count per
/// iteration is the same for any number.
const EMPTY_LOOP_ITERS: u64 = 1 << 16;

/// The most iterations a counted sample runs.
const MOST_ITERS: u64 = 1 << 24;

/// The most a benchmark's iterations may grow the process by while
/// counted (its uncounted sample and its two counted ones): where each
/// iteration keeps what it makes (a log it appends to), the iterations
/// are fewer. Counted under callgrind on both sides of a comparison at
/// once, raft's `leader_propose` of 1 MiB inputs kept 1 MiB an iteration
/// over 2 048 of them a sample, until the kernel killed it at 12 GB.
const MOST_GROWTH: u64 = 1 << 30;

/// The trigger label of a dump: `nbench-count<TAB>WHAT<TAB>ITERS<TAB>KIND<TAB>ID`,
/// `WHAT` `body` or `loop` (the empty loop, id empty), `KIND` the loop kind
/// (`iter`, `batched`, `custom`, `future`, `threads`). A label is read back
/// as a line, so `ID` is the id on one line
/// ([`one_line`](crate::format::one_line)), as `cargo nbench` looks it up.
pub fn label(what: &str, iters: u64, kind: LoopKind, id: &str) -> String {
    let id = crate::format::one_line(id);
    format!("nbench-count\t{what}\t{iters}\t{}\t{id}", kind_name(kind))
}

/// The start of a line a count on the CPU's counter is printed as:
/// `nbench-counted<TAB>INSTRUCTIONS<TAB>LABEL`.
pub const COUNTED: &str = "nbench-counted\t";

/// Where a benchmark's wall time per iteration is this many times its
/// timed part, making its inputs (a batch's setup, outside the timing) is
/// what an iteration costs: counted, they are made uninstrumented, and
/// cargo nbench counts such a benchmark over the iterations its wall time
/// gives. Measured on the gungraun fixture: rows without a costly setup
/// take 1.7–6.5 times their timed part in a plain run (warm-up,
/// calibration, processes) and 7.6–15.5 times in a comparison (both
/// sides' processes); rows whose 20 µs setup dwarfs the routine 158 to
/// 4 028 times.
pub const SETUP_BOUND: f64 = 64.0;

/// The environment variable naming the file the [`COUNTED`] lines are
/// appended to. `cargo nbench` sets it: a benchmark's own output on stdout
/// could run into a line there (one that ends without a newline), and
/// stdout goes to `/dev/null` while a benchmark runs
/// ([`QUIET_ENV`](crate::quiet::QUIET_ENV)).
pub const COUNTED_TO_ENV: &str = "NBENCH_COUNTED_TO";

/// A [`COUNTED`] line's label and instructions; `None` for any other line.
pub fn parse_counted(line: &str) -> Option<(Dumped, f64)> {
    let (count, label) = line.strip_prefix(COUNTED)?.split_once('\t')?;
    Some((parse_label(label)?, count.parse().ok()?))
}

/// The start of the line written to stderr as each benchmark's counting
/// begins: `nbench-counting<TAB>ID`, the id on one line. Where the process
/// ends before its counts are all taken (killed for memory, an instruction
/// Valgrind does not know), the last such line names the benchmark it
/// ended in, and `cargo nbench` counts the others without it.
pub const COUNTING: &str = "nbench-counting\t";

/// The id a [`COUNTING`] line names; `None` for any other line.
pub fn parse_counting(line: &str) -> Option<&str> {
    line.strip_prefix(COUNTING)
}

/// Says on stderr, in one write, that benchmark `id`'s counting begins.
fn announce(id: &str) {
    let line = format!("{COUNTING}{}\n", crate::format::one_line(id));
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// What a dump's label says: what was counted, over how many iterations,
/// in which kind of loop, of which benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dumped {
    /// `body` (a benchmark's loop) or `loop` (the empty loop).
    pub what: String,
    /// Iterations the sample ran.
    pub iters: u64,
    /// The loop kind ([`kind_name`]).
    pub kind: String,
    /// The benchmark's id (empty for the empty loop).
    pub id: String,
}

/// The [`label`] `text` as its parts; `None` for a label of anything else.
pub fn parse_label(text: &str) -> Option<Dumped> {
    let mut parts = text.splitn(5, '\t');
    if parts.next()? != "nbench-count" {
        return None;
    }
    Some(Dumped {
        what: parts.next()?.to_owned(),
        iters: parts.next()?.parse().ok()?,
        kind: parts.next()?.to_owned(),
        id: parts.next()?.to_owned(),
    })
}

/// A loop kind's name in a label.
pub fn kind_name(kind: LoopKind) -> &'static str {
    match kind {
        LoopKind::Iter => "iter",
        LoopKind::Batched => "batched",
        LoopKind::Custom => "custom",
        LoopKind::Future => "future",
        LoopKind::Threads => "threads",
    }
}

/// Found in every binary that makes a batch's inputs uninstrumented, or
/// not, as `cargo nbench` tells it ([`COUNT_APART_FLAG`]): an older one
/// refuses the flag.
///
/// [`COUNT_APART_FLAG`]: crate::protocol::COUNT_APART_FLAG
pub const APART_AS_TOLD: &[u8] =
    b"nbench count: makes a batch's inputs uninstrumented as --nbench-count-apart says";

/// What `cargo nbench` told of one benchmark: `n`, and whether its
/// batches' inputs are made uninstrumented.
#[derive(Debug, Clone, Copy, Default)]
struct Told {
    iters: Option<u64>,
    apart: Option<bool>,
}

/// Counts one benchmark's loop: dumps a sample of `n` and one of `2n` iterations.
struct CountDriver<'a> {
    id: &'a str,
    told: Told,
    cpu: Option<&'a OnCpu>,
}

impl Driver for CountDriver<'_> {
    fn drive(&mut self, kind: LoopKind, _: &Declared, m: &mut dyn Measure) {
        count(m, (kind, self.cpu), ("body", self.id), self.told);
    }
}

/// Counts a sample of `n` iterations and one of `2n`, each dumped, after
/// one uncounted sample of `n` (what a first call does once stays out).
/// Without `told.iters`, `n` is where a sample first lasts [`SAMPLE`], the
/// samples before it uncounted. A batch's inputs are made uninstrumented
/// where `told.apart` says, or without it, where the uncounted sample took
/// [`SETUP_BOUND`] times its timed part.
fn count(
    m: &mut dyn Measure,
    (kind, cpu): (LoopKind, Option<&OnCpu>),
    (what, id): (&str, &str),
    told: Told,
) {
    // What runs uncounted before (the process's start, the benchmark's
    // setup, a first sample of `n`) runs uninstrumented where cargo nbench
    // started callgrind so; the clock's samples are instrumented, as the
    // counted ones are, so that `n` is the same either way.
    let n = match told.iters {
        Some(n) => {
            let n = fit_memory(m, n.min(MOST_ITERS));
            let started = Instant::now();
            let timed = m.sample(n);
            let wall = started.elapsed().as_nanos() as f64;
            // Inputs that dwarf the routine are made uninstrumented.
            let heavy = told.apart.unwrap_or(wall > SETUP_BOUND * timed);
            crate::counting::setups_apart(kind == LoopKind::Batched && heavy);
            valgrind::instrument(true);
            n
        }
        None => {
            valgrind::instrument(true);
            by_the_clock(m)
        }
    };
    for iters in [n, 2 * n] {
        // Made before the counts are zeroed: every thread's are counted
        // until the dump, this one's too.
        let label = label(what, iters, kind, id);
        let sent = valgrind::Label::new(&label);
        valgrind::zero();
        if let Some(c) = cpu {
            c.counter.zero();
        }
        crate::counting::take_elsewhere();
        crate::counting::start();
        m.sample(iters);
        crate::counting::stop();
        // What the commands it ran counted, each under its own callgrind.
        let elsewhere = crate::counting::take_elsewhere();
        match cpu {
            Some(c) => c.report(&label, id, elsewhere),
            None => {
                valgrind::dump_at(&sent);
                if elsewhere > 0 {
                    write_elsewhere(elsewhere, &label, id);
                }
            }
        }
    }
    crate::counting::setups_apart(false);
    valgrind::instrument(false);
}

/// The CPU's instruction counter, and where its counts are written.
struct OnCpu {
    counter: Counter,
    /// The file [`COUNTED_TO_ENV`] names; stdout without it.
    to: Option<File>,
}

impl OnCpu {
    /// Opens the counter and the file its counts go to, or says why not.
    fn open() -> Result<OnCpu, String> {
        let counter = Counter::open(Event::INSTRUCTIONS).map_err(|why| {
            format!(
                "--nbench-count counts instructions with the CPU's counter, which this \
                 machine does not give ({why}), or under Valgrind's callgrind: run this binary \
                 as `valgrind --tool=callgrind --collect-atstart=no BINARY --nbench-count`"
            )
        })?;
        Ok(OnCpu {
            counter,
            to: counted_to()?,
        })
    }

    /// Writes the count since the counter was zeroed, and `elsewhere`
    /// (the commands it ran counted), under `label`.
    fn report(&self, label: &str, id: &str, elsewhere: u64) {
        let counted = match self.counter.read() {
            Ok(n) => n + elsewhere,
            Err(why) => return eprintln!("{id}: {why}"),
        };
        if let Err(why) = write_counted(self.to.as_ref(), counted, label) {
            eprintln!("{id}: its count was not written: {why}");
        }
    }
}

/// Writes what the commands of a sample counted under callgrind, beside
/// the sample's dump under the same `label`: as a [`COUNTED`] line to the
/// file [`COUNTED_TO_ENV`] names, which `cargo nbench` adds to the dump.
fn write_elsewhere(counted: u64, label: &str, id: &str) {
    let written = counted_to()
        .and_then(|to| write_counted(to.as_ref(), counted, label).map_err(|e| e.to_string()));
    if let Err(why) = written {
        eprintln!("{id}: its commands' count was not written: {why}");
    }
}

/// Writes `counted` under `label` as one [`COUNTED`] line, in one write, to
/// `to` or else stdout.
fn write_counted(to: Option<&File>, counted: u64, label: &str) -> std::io::Result<()> {
    let line = format!("{COUNTED}{counted}\t{label}\n");
    match to {
        Some(mut file) => file.write_all(line.as_bytes()),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(line.as_bytes()).and_then(|()| out.flush())
        }
    }
}

/// The file [`COUNTED_TO_ENV`] names, opened to append to; `None`
/// without it (stdout then).
fn counted_to() -> Result<Option<File>, String> {
    match std::env::var_os(COUNTED_TO_ENV) {
        None => Ok(None),
        Some(path) => counted_file(Path::new(&path)).map(Some),
    }
}

/// The file at `path`, opened to append [`COUNTED`] lines to.
fn counted_file(path: &Path) -> Result<File, String> {
    (std::fs::OpenOptions::new().create(true).append(true))
        .open(path)
        .map_err(|e| format!("cannot write counts to {}: {e}", path.display()))
}

/// `n`, or fewer where what `m`'s iterations keep would grow the process
/// past [`MOST_GROWTH`] over the `4n` iterations a count runs: halved until
/// it would not, as two uncounted samples of a few iterations, the second
/// measured, grow it (the first grows what a first call grows once).
fn fit_memory(m: &mut dyn Measure, n: u64) -> u64 {
    if n < 8 {
        return n;
    }
    let probe = (n / 8).min(64);
    m.sample(probe);
    let Some(before) = resident() else {
        return n;
    };
    m.sample(probe);
    let grown = resident().map_or(0, |after| after.saturating_sub(before));
    fewer_for_memory(n, grown as f64 / probe as f64)
}

/// `n` halved until `4n` iterations growing the process by `per_iter`
/// bytes each stay within [`MOST_GROWTH`]; at least 1.
fn fewer_for_memory(mut n: u64, per_iter: f64) -> u64 {
    while n > 1 && 4.0 * n as f64 * per_iter > MOST_GROWTH as f64 {
        n /= 2;
    }
    n
}

/// This process's resident memory in bytes, where Linux says it.
fn resident() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
    let kb: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kb * 1024)
}

/// Runs `m` (uncounted) on 1, 2, 4, … iterations until a sample lasts
/// [`SAMPLE`]: that many iterations.
fn by_the_clock(m: &mut dyn Measure) -> u64 {
    let mut n = 1;
    loop {
        let started = Instant::now();
        m.sample(n);
        if started.elapsed() >= SAMPLE || n >= MOST_ITERS {
            return n;
        }
        n *= 2;
    }
}

/// Whether this process counted the empty loop already.
static LOOP_COUNTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Counts every selected benchmark that is not ignored, and the empty loop
/// once, each as `given` says for the filter that is its id (by
/// position); a benchmark that fails or skips is said on stderr and left
/// out. Returns whether all ran.
pub fn run(selected: &[&Benchmark], args: &Args, given: &Given) -> bool {
    std::hint::black_box(valgrind::INSTRUMENTS_ITSELF);
    std::hint::black_box(valgrind::COUNTS_EVERY_THREAD);
    std::hint::black_box(APART_AS_TOLD);
    // Under Valgrind, callgrind counts; on a CPU, its counter where it has one.
    let cpu = match valgrind::running() {
        true => None,
        false => match OnCpu::open() {
            Ok(c) => Some(c),
            Err(why) => {
                eprintln!("error: {why}");
                return false;
            }
        },
    };
    if let Some(c) = &cpu {
        crate::counting::count_with(&c.counter);
    }
    let cpu = cpu.as_ref();
    // Once a process: a front end that counts its benchmarks where its
    // program reaches them serves this mode once for each.
    if !LOOP_COUNTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        count(
            &mut empty_loop(),
            (LoopKind::Iter, cpu),
            ("loop", ""),
            Told {
                iters: Some(EMPTY_LOOP_ITERS),
                apart: None,
            },
        );
    }
    let told = |id: &str| {
        let Some(at) = args.filter.filters.iter().position(|f| f == id) else {
            return Told::default();
        };
        Told {
            iters: given.iters.get(at).copied(),
            apart: given.apart.get(at).copied(),
        }
    };
    let mut ok = true;
    for bench in selected {
        if args.filter.verdict(&bench.id, bench.ignored) == Selected::Ignored {
            continue;
        }
        announce(&bench.id);
        let mut driver = CountDriver {
            id: &bench.id,
            told: told(&bench.id),
            cpu,
        };
        match run_guarded(bench, &mut driver) {
            Ok(Finish::Timed(_)) => {}
            Ok(Finish::Skipped(reason)) => eprintln!("{}: skipped: {reason}", bench.id),
            Err(why) => {
                eprintln!("{}: failed: {why}", bench.id);
                ok = false;
            }
        }
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_names_what_was_counted_and_how_many_times() {
        let text = label("body", 64, LoopKind::Batched, "sort/1000 x y");
        assert_eq!(text, "nbench-count\tbody\t64\tbatched\tsort/1000 x y");
        let parsed = parse_label(&text).unwrap();
        assert_eq!((parsed.iters, parsed.kind.as_str()), (64, "batched"));
        assert_eq!(parsed.id, "sort/1000 x y");
        // Read back as a line: an id over two lines is written on one.
        let two = label("body", 64, LoopKind::Iter, "fill\n  /2\t");
        assert_eq!(parse_label(&two).unwrap().id, "fill\\n  /2\\t");
        assert_eq!(parse_label("Program termination"), None);
        assert_eq!(parse_label("nbench-count\tbody\tmany\titer\tx"), None);
        let line = format!("{COUNTED}4096\t{text}");
        assert_eq!(parse_counted(&line), Some((parsed, 4096.0)));
        assert_eq!(parse_counted("nbench-counted\tmany\tx"), None);
        assert_eq!(parse_counted(&text), None);
    }

    #[test]
    fn iterations_that_keep_what_they_make_are_fewer() {
        // Nothing kept: as many as asked.
        assert_eq!(fewer_for_memory(1 << 20, 0.0), 1 << 20);
        assert_eq!(fewer_for_memory(2048, 1000.0), 2048);
        // 1 MiB kept an iteration: 4 × 256 MiB is the most.
        assert_eq!(fewer_for_memory(2048, (1 << 20) as f64), 256);
        assert_eq!(fewer_for_memory(2048, 1e12), 1);
        #[cfg(target_os = "linux")]
        {
            let before = resident().unwrap();
            let kept = std::hint::black_box(vec![1u8; 128 << 20]);
            assert!(resident().unwrap() >= before + (96 << 20), "{}", kept.len());
        }
    }

    #[test]
    fn counts_are_appended_to_the_named_file_a_line_each() {
        let path = std::env::temp_dir().join(format!("nbench-counted-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let a = label("body", 8, LoopKind::Iter, "a\nb");
        let b = label("loop", 16, LoopKind::Iter, "");
        write_counted(Some(&counted_file(&path).unwrap()), 100, &a).unwrap();
        // A second process of the same run appends to what the first wrote.
        write_counted(Some(&counted_file(&path).unwrap()), 250, &b).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let lines: Vec<_> = text.lines().map(parse_counted).collect();
        let parsed = |l: &str, n| Some((parse_label(l).unwrap(), n));
        assert_eq!(lines, [parsed(&a, 100.0), parsed(&b, 250.0)]);
        let nowhere = counted_file(Path::new("/nonexistent-nbench/x")).unwrap_err();
        assert!(nowhere.starts_with("cannot write counts to /nonexistent-nbench/x: "));
    }
}
