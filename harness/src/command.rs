//! Starting a command a benchmark runs as its work (a front end's binary
//! benchmarks), so that its instructions are counted where the
//! benchmark's are.
//!
//! Counting takes this process's instructions: callgrind, as `cargo
//! nbench` starts it, follows no child, and the CPU's counter is opened
//! for this process alone. While counting is on, a command therefore
//! starts under a callgrind of its own ([`launch`]), and what that counted
//! is added to the sample's count when it ends ([`Launch::counted`]).
//! Meanwhile this process's counting is paused: starting the command,
//! waiting for it and reading its count (a file whose length varies with
//! the build's symbols) stay out. The clock's samples start it as it is.
//!
//! One of the package's own binaries runs from a path as long on both
//! sides of a comparison ([`crate::alike_path`]).

use crate::alike_path::alike;
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable naming the Valgrind a command is counted
/// under (`valgrind` on the `PATH` without it). `cargo nbench` sets it to
/// the one it counts with.
pub const VALGRIND_ENV: &str = "NBENCH_VALGRIND";

/// How a command starts: its program, or Valgrind with callgrind's
/// arguments and then the program, where it is counted.
pub struct Launch {
    program: OsString,
    first: Vec<OsString>,
    /// Callgrind's output files' folder, where counted.
    out: Option<PathBuf>,
    /// Whether this process's counting was paused for the command, to be
    /// resumed when it is done with.
    paused: bool,
}

/// Numbers each counted command's output file within this process.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// How to start `program` now: under callgrind while this process's
/// instructions are counted, else as it is.
pub fn launch(program: impl AsRef<OsStr>) -> Launch {
    let paused = crate::counting::pause();
    let mut l = launch_if(program.as_ref(), paused);
    l.paused = paused;
    l
}

/// How to start `program`: under callgrind where `counted`.
fn launch_if(program: &OsStr, counted: bool) -> Launch {
    let program = program.to_owned();
    if !counted {
        return Launch {
            program: alike(program),
            first: Vec::new(),
            out: None,
            paused: false,
        };
    }
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = format!("nbench-command-{}-{n}", std::process::id());
    let out = std::env::temp_dir().join(name);
    // A file for each process of the command's, in a folder of its own
    // (where it cannot be made, the count is said to be missing).
    let _ = std::fs::create_dir_all(&out);
    let mut file = OsString::from("--callgrind-out-file=");
    file.push(out.join("%p"));
    let valgrind = std::env::var_os(VALGRIND_ENV).unwrap_or_else(|| "valgrind".into());
    let mut first: Vec<OsString> = [
        "-q",
        "--tool=callgrind",
        "--trace-children=yes",
        "--cache-sim=no",
        "--dump-instr=no",
        "--dump-line=no",
        "--compress-strings=no",
        "--compress-pos=no",
    ]
    .map(OsString::from)
    .into();
    first.extend([file, alike(on_path(program))]);
    Launch {
        program: valgrind,
        first,
        out: Some(out),
        paused: false,
    }
}

/// `program` where this process's `PATH` finds it, where it names no
/// folder: Valgrind looks in the command's own environment, which may
/// have no `PATH` (gungraun's commands get only what they set), where
/// starting it as it is looks in this process's.
pub(crate) fn on_path(program: OsString) -> OsString {
    if std::path::Path::new(&program).components().count() > 1 {
        return program;
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    (std::env::split_paths(&path))
        .map(|dir| dir.join(&program))
        .find(|p| p.is_file())
        .map_or(program, PathBuf::into_os_string)
}

impl Launch {
    /// How to start `program` as it is, counted or not.
    pub fn plain(program: impl AsRef<OsStr>) -> Launch {
        launch_if(program.as_ref(), false)
    }

    /// The command to start, its arguments still to add.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.first);
        cmd
    }

    /// Whether the command starts under callgrind.
    pub fn is_counted(&self) -> bool {
        self.out.is_some()
    }

    /// Why command `shown` did not start, where starting it failed with
    /// `e`: the Valgrind it was to be counted under missing, or `e`.
    pub fn not_started(&self, shown: &str, e: &std::io::Error) -> String {
        match (self.is_counted(), e.kind()) {
            (true, std::io::ErrorKind::NotFound) => format!(
                "counting `{shown}` takes Valgrind, and `{}` was not found: install Valgrind \
                 (or point {VALGRIND_ENV} at it), or measure time alone (--metrics time)",
                self.program.to_string_lossy()
            ),
            _ => format!("`{shown}` did not start: {e}"),
        }
    }

    /// After the command ended: what its callgrind counted, in every
    /// process of the command's (those it starts too), added to the
    /// sample's count. An error where it was counted and left no count.
    pub fn counted(mut self) -> Result<(), String> {
        let Some(out) = self.out.take() else {
            return Ok(());
        };
        let total = totals(&out);
        let _ = std::fs::remove_dir_all(&out);
        match total {
            Some(n) => {
                crate::counting::add_elsewhere(n);
                Ok(())
            }
            None => Err(format!(
                "the command counted under `{}` left no count in {}",
                self.program.to_string_lossy(),
                out.display()
            )),
        }
    }
}

impl Drop for Launch {
    /// This process's counting resumed where it was paused for the
    /// command; the output folder of a count not read removed.
    fn drop(&mut self) {
        if let Some(out) = self.out.take() {
            let _ = std::fs::remove_dir_all(out);
        }
        // Freed before counting resumes: how many instructions freeing
        // takes follows the allocator's state, which varies.
        drop(std::mem::take(&mut self.first));
        drop(std::mem::take(&mut self.program));
        crate::counting::resume(self.paused);
    }
}

/// The instructions the callgrind output files in `dir` total, one a
/// process; `None` where there are none, or one has no total.
fn totals(dir: &std::path::Path) -> Option<u64> {
    let mut sum = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let text = std::fs::read_to_string(entry.path()).ok()?;
        sum = Some(sum.unwrap_or(0) + total(&text)?);
    }
    sum
}

/// The instructions a callgrind output file totals (its first event).
fn total(text: &str) -> Option<u64> {
    let field = |name: &str| (text.lines()).find_map(|l| l.strip_prefix(name));
    (field("totals:").or_else(|| field("summary:")))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Asks the kernel to kill `cmd`'s process when this one dies, however it
/// dies (`kill -9` included), so that it outlives nothing that started it:
/// a bench process `cargo nbench`, a setup beside a command its bench
/// process. On Linux; elsewhere the process lives on.
#[cfg(target_os = "linux")]
pub fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    unsafe extern "C" {
        fn prctl(option: i32, ...) -> i32;
        fn getppid() -> i32;
    }
    const PR_SET_PDEATHSIG: i32 = 1;
    const SIGKILL: u64 = 9;
    let parent = std::process::id() as i32;
    // SAFETY: runs in the child between fork and exec, calling only
    // async-signal-safe system calls.
    unsafe {
        cmd.pre_exec(move || {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            // The parent may have died before the request was made.
            if getppid() != parent {
                return Err(std::io::Error::other("the process that started it ended"));
            }
            Ok(())
        });
    }
}

/// Elsewhere the process lives on.
#[cfg(not(target_os = "linux"))]
pub fn die_with_parent(_: &mut Command) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_starts_as_it_is_while_nothing_is_counted() {
        let l = launch_if("/bin/true".as_ref(), false);
        assert!(!l.is_counted());
        let cmd = l.command();
        assert_eq!(cmd.get_program(), "/bin/true");
        assert_eq!(cmd.get_args().count(), 0);
        assert!(l.counted().is_ok());
    }

    #[test]
    fn a_counted_command_starts_under_callgrind_and_says_where_its_count_went_missing() {
        let l = launch_if("/bin/true".as_ref(), true);
        assert!(l.is_counted());
        let cmd = l.command();
        let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy()).collect();
        assert!(args.contains(&"--tool=callgrind".into()), "{args:?}");
        assert_eq!(args.last().map(|a| a.as_ref()), Some("/bin/true"));
        let e = l.counted().err().unwrap();
        assert!(e.contains("left no count"), "{e}");
        let gone = std::io::Error::from(std::io::ErrorKind::NotFound);
        let plain = launch_if("x".as_ref(), false);
        assert_eq!(
            plain.not_started("x", &gone),
            format!("`x` did not start: {gone}")
        );
        let counted = Launch {
            program: "/no/valgrind".into(),
            first: Vec::new(),
            out: Some(PathBuf::from("/nonexistent/nbench-command")),
            paused: false,
        };
        let said = counted.not_started("x", &gone);
        assert!(
            said.contains("takes Valgrind, and `/no/valgrind` was not found"),
            "{said}"
        );
        // A program named bare is found where this process finds it.
        let sh = launch_if("sh".as_ref(), true);
        let found = sh.command().get_args().last().map(|a| a.to_owned());
        assert!(found.is_some_and(|p| p.len() > 2 && std::path::Path::new(&p).is_file()));
    }

    #[test]
    fn a_callgrind_total_is_read_from_either_line() {
        assert_eq!(total("events: Ir\nsummary: 1234\n"), Some(1234));
        assert_eq!(total("events: Ir Dr\ntotals: 99 5\n"), Some(99));
        assert_eq!(total("events: Ir\n"), None);
    }

    #[test]
    fn the_processes_of_a_command_are_counted_together() {
        let dir = std::env::temp_dir().join(format!("nbench-totals-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(totals(&dir), None);
        std::fs::write(dir.join("101"), "summary: 1000\n").unwrap();
        std::fs::write(dir.join("102"), "totals: 234\n").unwrap();
        assert_eq!(totals(&dir), Some(1234));
        std::fs::write(dir.join("103"), "cut short\n").unwrap();
        assert_eq!(totals(&dir), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
