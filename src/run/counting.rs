//! One counting process: the bench binary run as `BINARY --nbench-count
//! --exact ID…` under Valgrind's callgrind, or on the CPU's instruction
//! counter ([`super::counter`] says which), and what it counted: each
//! count with its label, and, where the process failed, why and in which
//! benchmark it ended (the last [`COUNTING`] line it wrote), so that
//! [`super::counts`] counts the others without that one.
//!
//! [`COUNTING`]: nbench::__private::count::parse_counting

use super::counter::{CountError, Source};
use nbench::__private::count::{Dumped, parse_counted, parse_counting, parse_label};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Benchmarks to count, each with how ([`Over`]).
pub type ToCount = [(String, Over)];

/// How one benchmark is counted, the same in every process of both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Over {
    /// The iterations of its first counted sample
    /// ([`iterations_for`](super::counted_over::iterations_for)).
    pub iters: u64,
    /// Whether its batches make their inputs uninstrumented: inputs that
    /// dwarf its routine ([`Native`](super::counted_over::Native)).
    pub apart: bool,
}

#[cfg(test)]
impl Over {
    /// `iters` iterations, inputs made as counted code is.
    pub fn iters(iters: u64) -> Over {
        Over {
            iters,
            apart: false,
        }
    }
}

/// What one counting process gave.
#[derive(Debug, Default)]
pub struct Counting {
    /// Each count it took, with its label: all of them, or, where it
    /// failed, those taken before it ended.
    pub dumps: Vec<(Dumped, f64)>,
    /// Why it failed, where it did.
    pub failed: Option<Failure>,
}

/// Why a counting process failed, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// What it said last, or how it ended.
    pub why: String,
    /// The benchmark it was counting when it ended (its id on one line);
    /// `None` where it ended before its first, or a harness from before
    /// these lines said none.
    pub at: Option<String>,
    /// It refused the iterations it was told as a usage error, and its
    /// harness predates [`APART_AS_TOLD`](nbench::__private::count::APART_AS_TOLD):
    /// one from before `--nbench-count-iters`, which counts by its own
    /// clock instead. (A later harness that refuses them has a front end
    /// that mangles its command line: that fails as any other error.)
    pub refused_iters: bool,
}

/// How a target's counting processes run.
#[derive(Debug, Clone, Copy)]
pub struct Way<'a> {
    /// Arguments after the executable's own.
    pub extra_args: &'a [String],
    /// The most time they may take, all of them (one process: its share).
    pub limit: Duration,
    /// Whether callgrind counts every thread ([`every_thread`]).
    pub every_thread: bool,
}

/// Counts `ids` of executable `exe`, run from `dir` the `way` given,
/// in one process in a scratch folder of its own, drawing the fixed random
/// sequence of `seed`; `iters` passes each id's iterations (a harness from
/// before `--nbench-count-iters` refuses them).
pub fn once(
    (source, seed): (&Source, u64),
    (exe, dir, ids): (&Path, &Path, &ToCount),
    (way, iters): (Way<'_>, bool),
) -> Result<Counting, CountError> {
    let out = scratch_dir();
    std::fs::create_dir_all(&out).map_err(|e| CountError::Failed(e.to_string()))?;
    let result = run((source, seed), (exe, dir, ids), (way, iters), &out);
    let _ = std::fs::remove_dir_all(&out);
    result
}

/// Whether counts of `exes` (each side's executable one count compares) take
/// every thread's instructions: callgrind counts, and each of them
/// carries [`COUNTS_EVERY_THREAD`](nbench::__private::count::COUNTS_EVERY_THREAD).
/// Callgrind switches collection for one thread at a time; counted from
/// the thread that times it alone, work a benchmark hands to a pool goes
/// uncounted (paralight's sums counted 606 instructions an iteration at
/// every size from 10 000 to 10 000 000 numbers; on all threads, 174 k to
/// 175 M). Both sides of a comparison count the same way, or the older's.
pub fn every_thread(exes: &[&Path]) -> bool {
    let valgrind = matches!(super::counter::source(), Ok(Source::Valgrind(_)));
    valgrind && all_count_every_thread(exes)
}

/// Whether each of `exes` has a harness that counts every thread.
fn all_count_every_thread(exes: &[&Path]) -> bool {
    let marker = nbench::__private::count::COUNTS_EVERY_THREAD;
    exes.iter().all(|exe| carries(exe, marker))
}

/// What a counting process's executable says its harness does, read
/// from it once.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Carried {
    /// It switches callgrind's instrumentation on around what it counts
    /// (a harness that does not, an older one, would count nothing started
    /// with it off). Its start and each benchmark's setup then run
    /// uninstrumented: a count process of base64's 30 MB inputs took 8.4 s
    /// instrumented throughout.
    instruments_itself: bool,
    /// It makes a batch's inputs uninstrumented as it is told (an older
    /// harness decides by its own clock, and refuses the flag).
    apart_as_told: bool,
}

/// What executable `exe` carries ([`Carried`]); nothing where it cannot be read.
fn carried(exe: &Path) -> Carried {
    let Ok(bytes) = std::fs::read(exe) else {
        return Carried::default();
    };
    Carried {
        instruments_itself: holds(&bytes, nbench::__private::count::INSTRUMENTS_ITSELF),
        apart_as_told: holds(&bytes, nbench::__private::count::APART_AS_TOLD),
    }
}

/// The flags telling a harness how `ids` are counted: each one's
/// iterations, and, where it takes them (`apart`), whether its inputs are
/// made uninstrumented.
fn told(ids: &ToCount, apart: bool) -> Vec<String> {
    let list = |f: fn(&Over) -> String| (ids.iter().map(|(_, o)| f(o))).collect::<Vec<_>>();
    let mut flags = vec![
        nbench::__private::protocol::COUNT_ITERS_FLAG.to_owned(),
        list(|o| o.iters.to_string()).join(","),
    ];
    if apart {
        flags.push(nbench::__private::protocol::COUNT_APART_FLAG.to_owned());
        flags.push(list(|o| u8::from(o.apart).to_string()).join(","));
    }
    flags
}

/// Whether executable `exe` holds the bytes `marker`.
fn carries(exe: &Path, marker: &[u8]) -> bool {
    std::fs::read(exe).is_ok_and(|bytes| holds(&bytes, marker))
}

/// Whether `bytes` hold `marker`.
fn holds(bytes: &[u8], marker: &[u8]) -> bool {
    bytes.windows(marker.len()).any(|w| w == marker)
}

/// A folder of its own for one counting run; every one of a run's names is
/// as long as the others (see [`run`]).
fn scratch_dir() -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("nbench-counts-{}-{n:06}", std::process::id()))
}

/// Runs one counting process, on the CPU or under Valgrind as `source`
/// says (callgrind's dumps into `out`), drawing the fixed random sequence
/// of `seed`: each count it took, with its label, and where it failed, why
/// and in which benchmark.
///
/// Without address-space randomisation, and through a link of the same
/// name's length for every executable: the allocator then meets the same
/// heap in every process, and code that allocates counts the same
/// (measured: `vec_push/1000` counted 1.056 M or 1.092 M instructions an
/// iteration in processes of one executable, randomised; 1.020 M in each of
/// five, not).
/// The figures: `docs/instructions.md`.
fn run(
    (source, seed): (&Source, u64),
    (exe, dir, ids): (&Path, &Path, &ToCount),
    (way, iters): (Way<'_>, bool),
    out: &Path,
) -> Result<Counting, CountError> {
    let link = out.join("bench");
    #[cfg(unix)]
    let linked = match std::os::unix::fs::symlink(exe, &link) {
        Ok(()) => link.as_path(),
        Err(_) => exe,
    };
    #[cfg(not(unix))]
    let linked = exe;
    let carried = carried(exe);
    let mut cmd = match source {
        Source::Cpu => Command::new(linked),
        Source::Valgrind(valgrind) => under_callgrind(valgrind, (linked, carried), way, out),
    };
    super::child::not_randomized(&mut cmd);
    super::child::room_for_stack(&mut cmd);
    super::listings::share(&mut cmd, exe);
    // What a benchmark prints while counted is not shown: it goes nowhere.
    cmd.env(nbench::__private::QUIET_ENV, "1");
    // Random bytes of a fixed sequence: hash maps seeded alike do the same
    // work, in both builds.
    cmd.env(
        nbench::__private::ENTROPY_ENV,
        nbench::__private::fixed_value(seed),
    );
    // A temporary folder of its own, gone with `out`: the processes the two
    // sides count at once draw the same random bytes, and files named from
    // them (a UUID) would meet there, or a file one left behind.
    let tmp = out.join("tmp");
    if std::fs::create_dir(&tmp).is_ok() {
        super::child::own_tmp(&mut cmd, &tmp);
    }
    // Counts on the CPU's counter are written there; under callgrind,
    // what the commands a benchmark runs counted, each under a callgrind
    // of its own (gungraun's binary benchmarks).
    let counted_to = out.join("counted");
    cmd.env(nbench::__private::count::COUNTED_TO_ENV, &counted_to);
    if let Source::Valgrind(valgrind) = source {
        cmd.env(nbench::__private::command::VALGRIND_ENV, valgrind);
    }
    let told = match iters {
        true => told(ids, carried.apart_as_told),
        false => Vec::new(),
    };
    cmd.arg(nbench::__private::protocol::COUNT_FLAG)
        .args(told)
        .arg("--exact")
        .args(way.extra_args)
        .arg("--")
        .args(ids.iter().map(|(id, _)| id))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    super::child::as_cargo_runs(&mut cmd, dir);
    // A usage error refuses the iterations only from a harness before them.
    let may_refuse = iters && !carried.apart_as_told;
    let (printed, failed) = finish(cmd, source, (way.limit, may_refuse))?;
    // What a process that failed counted before it ended is kept.
    let dumps = match source {
        Source::Cpu => counted_lines(&counted_to, &printed),
        Source::Valgrind(_) => with_elsewhere(
            read(out).unwrap_or_default(),
            counted_lines(&counted_to, ""),
        ),
    };
    Ok(Counting { dumps, failed })
}

/// Valgrind's command running `linked` (a link to an executable that
/// carries `carried`) under callgrind, its counts written into `out`:
/// collecting in every thread from the start where `way` says so (the
/// harness told so too), else in none until the harness switches its own
/// thread's on.
fn under_callgrind(
    valgrind: &Path,
    (linked, carried): (&Path, Carried),
    way: Way<'_>,
    out: &Path,
) -> Command {
    let mut cmd = Command::new(valgrind);
    let collect = match way.every_thread {
        true => "--collect-atstart=yes",
        false => "--collect-atstart=no",
    };
    if way.every_thread {
        cmd.env(nbench::__private::count::EVERY_THREAD_ENV, "1");
    }
    cmd.args(["--tool=callgrind", collect, "--dump-line=no"])
        .args(carried.instruments_itself.then_some("--instr-atstart=no"))
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
        .arg(linked);
    cmd
}

/// The counts written to the file `to`, and those printed on stdout (where
/// a harness from before that file wrote them): each with its label.
fn counted_lines(to: &Path, printed: &str) -> Vec<(Dumped, f64)> {
    let written = std::fs::read_to_string(to).unwrap_or_default();
    (written.lines().chain(printed.lines()))
        .filter_map(parse_counted)
        .collect()
}

/// `dumps` with the instructions counted elsewhere under the same label
/// (the commands a sample ran) added to each.
fn with_elsewhere(
    mut dumps: Vec<(Dumped, f64)>,
    elsewhere: Vec<(Dumped, f64)>,
) -> Vec<(Dumped, f64)> {
    for (label, n) in elsewhere {
        if let Some((_, total)) = dumps.iter_mut().find(|(d, _)| *d == label) {
            *total += n;
        }
    }
    dumps
}

/// Runs `cmd` for at most `limit`: what it printed on stdout, and, where
/// it failed, why and in which benchmark (and, where it `may_refuse` the
/// iterations it was told, whether its usage error did); or why it could
/// not start.
fn finish(
    mut cmd: Command,
    source: &Source,
    (limit, may_refuse): (Duration, bool),
) -> Result<(String, Option<Failure>), CountError> {
    let mut child = cmd.spawn().map_err(|e| match source {
        Source::Valgrind(v) => CountError::NoValgrind(format!("`{}`: {e}", v.display())),
        Source::Cpu => CountError::Failed(e.to_string()),
    })?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = super::session::wait_for(&mut child, limit);
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let (printed, said) = (
        stdout.join().unwrap_or_default(),
        stderr.join().unwrap_or_default(),
    );
    let usage = status.and_then(|s| s.code()) == Some(nbench::__private::modes::EXIT_USAGE.into());
    let refused_iters = may_refuse && usage;
    let why = match status {
        Some(s) if s.success() => return Ok((printed, None)),
        Some(s) => failed_with(&said, s),
        None => format!("still running after {:.0} s", limit.as_secs_f64()),
    };
    let at = (said.lines().rev()).find_map(|l| parse_counting(l).map(str::to_owned));
    let failure = Failure {
        why,
        at,
        refused_iters,
    };
    Ok((printed, Some(failure)))
}

/// Everything `pipe` gives, read on a thread of its own.
fn drain(pipe: Option<impl std::io::Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_string(&mut text);
        }
        text
    })
}

/// Why a counting process that ended with `status` failed: an instruction
/// Valgrind does not know ([`unknown_instruction`]), the last line the
/// bench binary said on stderr (`said`), else how it ended.
fn failed_with(said: &str, status: std::process::ExitStatus) -> String {
    if let Some(why) = unknown_instruction(said) {
        return why;
    }
    // Valgrind's own lines start with `==PID==`; the binary's are the reason.
    let own = (said.lines())
        .rev()
        .find(|l| !l.starts_with("==") && !l.trim().is_empty() && parse_counting(l).is_none());
    match own {
        Some(line) => line.trim().to_owned(),
        None => format!("the counting run {}", super::session::ended(status)),
    }
}

/// How [`unknown_instruction`] begins: what a reason is known by.
pub const UNKNOWN_TO_VALGRIND: &str = "Valgrind does not know an instruction";

/// Where Valgrind met an instruction it does not know (AVX-512 among
/// them), its words in `said`: the instruction's first bytes and the
/// function it is in.
fn unknown_instruction(said: &str) -> Option<String> {
    const BYTES: &str = "unhandled instruction bytes: ";
    let line = said.lines().find(|l| l.contains(BYTES))?;
    let bytes: Vec<&str> = line[line.find(BYTES)? + BYTES.len()..]
        .split_whitespace()
        .take(4)
        .collect();
    // `==7== valgrind: Unrecognised instruction at address 0x1eea73.`, then
    // `==7==    at 0x1EEA73: nbench_divan::main (divan.rs:38)`.
    let at = (said.lines())
        .skip_while(|l| !l.contains("Unrecognised instruction"))
        .nth(1)
        .and_then(|l| l.split_once(": "))
        // Its file and line where known; not the executable's long path.
        .and_then(|(_, f)| f.split(" (in ").next())
        .map(|f| format!(" in `{}`", f.trim()))
        .unwrap_or_default();
    Some(format!(
        "{UNKNOWN_TO_VALGRIND} the bench binary runs{at} (bytes {} …)",
        bytes.join(" ")
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_commands_counted_elsewhere_adds_to_the_dump_of_the_same_label() {
        let label = |iters: u64| Dumped {
            what: "body".into(),
            iters,
            kind: "batched".into(),
            id: "g::cmd".into(),
        };
        let dumps = vec![(label(1), 1_000.0), (label(2), 1_900.0)];
        let elsewhere = vec![(label(1), 50_000.0), (label(2), 100_000.0)];
        let merged = with_elsewhere(dumps, elsewhere);
        assert_eq!(merged, [(label(1), 51_000.0), (label(2), 101_900.0)]);
    }

    #[test]
    fn only_a_binary_that_says_it_switches_instrumentation_starts_without_it() {
        let dir = scratch_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let marker = nbench::__private::count::INSTRUMENTS_ITSELF;
        let new = dir.join("new");
        std::fs::write(&new, [&b"\x7fELF..."[..], marker, b"..."].concat()).unwrap();
        let old = dir.join("old");
        std::fs::write(&old, &marker[..marker.len() - 1]).unwrap();
        assert!(carried(&new).instruments_itself);
        assert!(!carried(&old).instruments_itself);
        assert_eq!(carried(&dir.join("missing")), Carried::default());
        // Every thread is counted where every executable compared can.
        let every = nbench::__private::count::COUNTS_EVERY_THREAD;
        let newer = dir.join("newer");
        std::fs::write(&newer, [marker, b"...", every].concat()).unwrap();
        assert!(all_count_every_thread(&[&newer, &newer]));
        assert!(!all_count_every_thread(&[&newer, &new]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_harness_that_takes_it_is_told_which_inputs_are_made_uninstrumented() {
        let heavy = Over {
            iters: 2,
            apart: true,
        };
        let ids = [("a".to_owned(), Over::iters(64)), ("b".to_owned(), heavy)];
        let iters = nbench::__private::protocol::COUNT_ITERS_FLAG;
        let apart = nbench::__private::protocol::COUNT_APART_FLAG;
        assert_eq!(told(&ids, true), [iters, "64,2", apart, "0,1"]);
        // An older harness decides by its own clock.
        assert_eq!(told(&ids, false), [iters, "64,2"]);
        let dir = scratch_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let marker = nbench::__private::count::APART_AS_TOLD;
        let (new, old) = (dir.join("new"), dir.join("old"));
        std::fs::write(&new, [&b"..."[..], marker, b"..."].concat()).unwrap();
        std::fs::write(&old, &marker[1..]).unwrap();
        assert!(carried(&new).apart_as_told && !carried(&old).apart_as_told);
        std::fs::remove_dir_all(&dir).unwrap();
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
    fn an_instruction_valgrind_does_not_know_is_said_with_where_it_is() {
        let said = "vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0x7C 0x48 0x10 0x84\n\
                    vex amd64->IR:   PFX.66=0 PFX.F2=0 PFX.F3=0\n\
                    ==7== valgrind: Unrecognised instruction at address 0x1eea73.\n\
                    ==7==    at 0x1EEA73: nbench_divan::main (divan.rs:38)\n\
                    ==7==    by 0x1FFF02: std::rt::lang_start\n\
                    ==7== Process terminating with default action of signal 4 (SIGILL)\n";
        assert_eq!(
            unknown_instruction(said).unwrap(),
            "Valgrind does not know an instruction the bench binary runs in \
             `nbench_divan::main (divan.rs:38)` (bytes 0x62 0xF1 0x7C 0x48 …)"
        );
        assert_eq!(unknown_instruction("thread 'main' panicked at x"), None);
        let said = said.replace("(divan.rs:38)", "(in /tmp/t/target/release/deps/b-0d4)");
        assert!(
            unknown_instruction(&said)
                .unwrap()
                .contains("in `nbench_divan::main` (bytes")
        );
    }

    #[test]
    fn a_missing_valgrind_is_said() {
        let e = once(
            (&Source::Valgrind(PathBuf::from("/nonexistent/valgrind")), 0),
            (Path::new("/bin/true"), Path::new("."), &[]),
            (
                Way {
                    extra_args: &[],
                    limit: Duration::from_secs(5),
                    every_thread: true,
                },
                true,
            ),
        );
        match e {
            Err(CountError::NoValgrind(why)) => {
                assert!(why.contains("/nonexistent/valgrind"), "{why}")
            }
            other => panic!("{other:?}"),
        }
    }
}
