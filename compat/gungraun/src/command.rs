//! gungraun's `Command`, the program a binary benchmark runs, and how
//! nbench-gungraun runs it: once an iteration, the iteration's time from
//! its start to its end, its instructions counted under a callgrind of its
//! own where the benchmark's are counted.
//!
//! As gungraun runs it: the environment cleared but for the variables the
//! command sets, its output not shown unless it says where it goes, and a
//! run that exits otherwise than it expects (success, unless
//! [`Command::exit_with`] says) fails the benchmark.

use crate::BinaryBenchmarkConfig;
use crate::delay::Delay;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::ExitStatus;

/// A command a binary benchmark runs, built as gungraun's is
/// (`Command::new(path).arg(…).build()`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Command {
    path: PathBuf,
    args: Vec<OsString>,
    envs: Vec<(OsString, OsString)>,
    dir: Option<PathBuf>,
    stdin: Option<Stdin>,
    stdout: Option<Stdio>,
    stderr: Option<Stdio>,
    exit_with: Option<ExitWith>,
    /// Setup run beside the command (`setup_parallel`).
    beside: bool,
    /// What it waits for before it starts.
    delay: Option<Delay>,
    /// Its environment kept, not cleared (a configuration's `env_clear(false)`).
    keep_env: bool,
}

/// What a command's stdout or stderr is connected to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Stdio {
    /// The bench process's own.
    #[default]
    Inherit,
    /// Nothing.
    Null,
    /// This file, written afresh each run.
    File(PathBuf),
    /// A pipe, which nothing reads: as `Null` under nbench.
    Pipe,
}

/// Which of `setup`'s streams `Stdin::Setup` takes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Pipe {
    /// Its stdout.
    #[default]
    Stdout,
    /// Its stderr.
    Stderr,
}

/// What a run of a command is fed on its stdin where it takes its setup's
/// output: what the setup wrote, or its stream as it writes.
pub(crate) enum Feed {
    Bytes(Vec<u8>),
    Stream(std::process::Stdio),
}

/// What a command's stdin is connected to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Stdin {
    /// What `setup` writes to its stdout or stderr. nbench-gungraun runs
    /// `setup` to its end before the command, not beside it, and pipes
    /// what it wrote into the command.
    Setup(Pipe),
    /// The bench process's own.
    #[default]
    Inherit,
    /// Nothing: the command reads end of file.
    Null,
    /// This file.
    File(PathBuf),
    /// A pipe, closed at once: the command reads end of file.
    Pipe,
}

/// How a command is expected to exit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitWith {
    /// With success (the default).
    Success,
    /// With any failure.
    Failure,
    /// With this code.
    Code(i32),
}

macro_rules! file_from {
    ($($t:ty),*) => {
        $(
            impl From<PathBuf> for $t {
                fn from(p: PathBuf) -> Self {
                    Self::File(p)
                }
            }
            impl From<&PathBuf> for $t {
                fn from(p: &PathBuf) -> Self {
                    Self::File(p.clone())
                }
            }
            impl From<&Path> for $t {
                fn from(p: &Path) -> Self {
                    Self::File(p.to_owned())
                }
            }
        )*
    };
}
file_from!(Stdio, Stdin);

impl From<Stdio> for Stdin {
    fn from(s: Stdio) -> Self {
        match s {
            Stdio::Inherit => Stdin::Inherit,
            Stdio::Null => Stdin::Null,
            Stdio::File(p) => Stdin::File(p),
            Stdio::Pipe => Stdin::Pipe,
        }
    }
}

impl From<Pipe> for Stdin {
    fn from(p: Pipe) -> Self {
        Stdin::Setup(p)
    }
}

/// A builder's type made from a reference to one, as gungraun's are
/// passed on (`.command(Command::new(…).arg(…))`, a `&mut Command`).
macro_rules! from_refs {
    ($($t:ty),*) => {
        $(
            impl From<&mut $t> for $t {
                fn from(b: &mut $t) -> Self {
                    b.clone()
                }
            }
            impl From<&$t> for $t {
                fn from(b: &$t) -> Self {
                    b.clone()
                }
            }
        )*
    };
}
pub(crate) use from_refs;
from_refs!(Command);

impl Command {
    /// The program at `path` (found on the `PATH` where it has no `/`).
    pub fn new<T: AsRef<OsStr>>(path: T) -> Self {
        Command {
            path: PathBuf::from(path.as_ref()),
            ..Command::default()
        }
    }
    /// One more argument.
    pub fn arg<T: AsRef<OsStr>>(&mut self, arg: T) -> &mut Self {
        self.args.push(arg.as_ref().to_owned());
        self
    }
    /// More arguments.
    pub fn args<I: IntoIterator<Item = T>, T: AsRef<OsStr>>(&mut self, args: I) -> &mut Self {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }
    /// An environment variable the command gets (the rest are cleared).
    pub fn env<K: AsRef<OsStr>, V: AsRef<OsStr>>(&mut self, key: K, value: V) -> &mut Self {
        (self.envs).push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }
    /// Environment variables the command gets.
    pub fn envs<I, K, V>(&mut self, vars: I) -> &mut Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        for (k, v) in vars {
            self.env(k, v);
        }
        self
    }
    /// The folder the command runs in (the bench process's without it).
    pub fn current_dir<T: Into<PathBuf>>(&mut self, dir: T) -> &mut Self {
        self.dir = Some(dir.into());
        self
    }
    /// Its stdin (nothing without it).
    pub fn stdin<T: Into<Stdin>>(&mut self, stdin: T) -> &mut Self {
        self.stdin = Some(stdin.into());
        self
    }
    /// Its stdout (nothing without it: not shown).
    pub fn stdout<T: Into<Stdio>>(&mut self, stdio: T) -> &mut Self {
        self.stdout = Some(stdio.into());
        self
    }
    /// Its stderr (nothing without it: not shown).
    pub fn stderr<T: Into<Stdio>>(&mut self, stdio: T) -> &mut Self {
        self.stderr = Some(stdio.into());
        self
    }
    /// How it is expected to exit (with success without it).
    pub fn exit_with(&mut self, exit_with: ExitWith) -> &mut Self {
        self.exit_with = Some(exit_with);
        self
    }
    /// What it waits for before it starts, outside the timing (a setup
    /// beside it that must be ready).
    pub fn delay<T: Into<Delay>>(&mut self, delay: T) -> &mut Self {
        self.delay = Some(delay.into());
        self
    }
    /// Whether `setup` runs beside it, in a process of its own, from just
    /// before the command starts until after it ends.
    pub fn setup_parallel(&mut self, beside: bool) -> &mut Self {
        self.beside |= beside;
        self
    }
    /// The command as built.
    pub fn build(&mut self) -> Self {
        self.clone()
    }

    /// The command under its benchmark's configuration (`main!`'s, the
    /// group's, … the bench's, merged): the variables it passes through,
    /// read now, then its own, before the command's; its folder and
    /// expected exit where the command names none.
    pub(crate) fn configured(&self, config: &BinaryBenchmarkConfig) -> Command {
        let passed =
            (config.pass_through.iter()).filter_map(|k| Some((k.clone(), std::env::var_os(k)?)));
        let mut envs: Vec<(OsString, OsString)> = passed.collect();
        envs.extend(config.envs.iter().cloned());
        envs.extend(self.envs.iter().cloned());
        Command {
            envs,
            dir: self.dir.clone().or_else(|| config.dir.clone()),
            exit_with: self.exit_with.or(config.exit_with),
            beside: self.beside || config.beside,
            keep_env: config.env_clear == Some(false),
            ..self.clone()
        }
    }

    /// The command line as said in a failure.
    fn shown(&self) -> String {
        let words =
            std::iter::once(self.path.as_os_str()).chain(self.args.iter().map(|a| a.as_os_str()));
        let words: Vec<String> = words.map(|w| w.to_string_lossy().into_owned()).collect();
        words.join(" ")
    }

    /// Whether its setup runs beside it.
    pub(crate) fn setup_beside(&self) -> bool {
        self.beside
    }

    /// What it waits for before it starts.
    pub(crate) fn waits_for(&self) -> Option<&Delay> {
        self.delay.as_ref()
    }

    /// The process to start: counted where the benchmark is counted, its
    /// environment the variables it sets alone, its streams connected.
    fn process(
        &self,
        launch: &nbench::__private::command::Launch,
    ) -> std::io::Result<std::process::Command> {
        let mut cmd = launch.command();
        cmd.args(&self.args);
        if !self.keep_env {
            cmd.env_clear();
        }
        if launch.is_counted() && !self.keep_env {
            // Valgrind finds its tools through its own environment.
            cmd.envs(
                std::env::vars_os().filter(|(k, _)| k.to_string_lossy().starts_with("VALGRIND")),
            );
        }
        cmd.envs(self.envs.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.dir {
            cmd.current_dir(dir);
        }
        cmd.stdin(match &self.stdin {
            None | Some(Stdin::Null) => std::process::Stdio::null(),
            Some(Stdin::Inherit) => std::process::Stdio::inherit(),
            Some(Stdin::File(p)) => std::fs::File::open(p)?.into(),
            Some(Stdin::Pipe | Stdin::Setup(_)) => std::process::Stdio::piped(),
        });
        cmd.stdout(output(self.stdout.as_ref())?);
        cmd.stderr(output(self.stderr.as_ref())?);
        Ok(cmd)
    }

    /// Which of `setup`'s streams its stdin takes, if it takes one.
    pub(crate) fn piped_from_setup(&self) -> Option<nbench::__private::command::Stream> {
        use nbench::__private::command::Stream;
        match self.stdin {
            Some(Stdin::Setup(Pipe::Stdout)) => Some(Stream::Stdout),
            Some(Stdin::Setup(Pipe::Stderr)) => Some(Stream::Stderr),
            _ => None,
        }
    }

    /// Runs the command once, to its end, `input` its piped stdin: counted
    /// where the benchmark is. Panics, saying why, where it cannot start or
    /// exits otherwise than expected.
    pub(crate) fn run(&self, input: Feed) {
        let launch = nbench::__private::command::launch(&self.path);
        let (stream, bytes) = match input {
            Feed::Stream(s) => (Some(s), Vec::new()),
            Feed::Bytes(b) => (None, b),
        };
        let started = self.process(&launch).and_then(|mut c| {
            if let Some(s) = stream {
                c.stdin(s);
            }
            c.spawn()
        });
        let mut child =
            started.unwrap_or_else(|e| panic!("{}", launch.not_started(&self.shown(), &e)));
        // A pipe to stdin is closed once written: the command reads end of
        // file. One that exits before reading it all is judged by its exit.
        if let Some(mut stdin) = child.stdin.take() {
            let _ = std::io::Write::write_all(&mut stdin, &bytes);
        }
        let status = child
            .wait()
            .unwrap_or_else(|e| panic!("`{}`: {e}", self.shown()));
        // Judged before the count is read, which resumes this process's
        // counting: what it allocates would count otherwise, and how many
        // instructions an allocation takes follows what was freed before.
        let otherwise = self.exited_otherwise(status);
        drop(child);
        let counted = launch.counted();
        if let Some(why) = otherwise {
            panic!("{why}{}", self.said(&bytes));
        }
        if let Err(why) = counted {
            panic!("{why}");
        }
    }

    /// How `status` is not the exit expected, if it is not.
    fn exited_otherwise(&self, status: ExitStatus) -> Option<String> {
        // Judged inside the timed routine: nothing is made unless it failed.
        let expected = self.exit_with.unwrap_or(ExitWith::Success);
        let ok = match expected {
            ExitWith::Success => status.success(),
            ExitWith::Failure => !status.success(),
            ExitWith::Code(c) => status.code() == Some(c),
        };
        (!ok).then(|| {
            let expected = match expected {
                ExitWith::Success => "success".to_owned(),
                ExitWith::Failure => "a failure".to_owned(),
                ExitWith::Code(c) => format!("code {c}"),
            };
            format!(
                "`{}` exited with {status}, where {expected} was expected; where that is \
                 what it should do, say so with `.exit_with(ExitWith::…)` on the Command \
                 or its configuration",
                self.shown()
            )
        })
    }

    /// The last lines the command writes to stderr, on one line, run once
    /// more with stderr taken and fed `input` as the failed run was (for a
    /// failure), or nothing. A setup beside it does not run again: its
    /// stdin then reads end of file.
    fn said(&self, input: &[u8]) -> String {
        let plain = nbench::__private::command::Launch::plain(&self.path);
        let Ok(mut cmd) = self.process(&plain) else {
            return String::new();
        };
        let Ok(mut child) = cmd.stderr(std::process::Stdio::piped()).spawn() else {
            return String::new();
        };
        // Written from a thread of its own: a command that says much before
        // it reads would otherwise wait on this one, and this one on it.
        let feeding = child.stdin.take().map(|mut stdin| {
            let input = input.to_vec();
            std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &input))
        });
        let out = child.wait_with_output();
        drop(feeding.map(std::thread::JoinHandle::join));
        let Ok(out) = out else {
            return String::new();
        };
        let text = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        match lines.len() {
            0 => String::new(),
            n => format!("; it said: {}", lines[n.saturating_sub(3)..].join(" / ")),
        }
    }
}

/// Where a command's stdout or stderr goes: nowhere without `stdio`.
fn output(stdio: Option<&Stdio>) -> std::io::Result<std::process::Stdio> {
    Ok(match stdio {
        None | Some(Stdio::Null | Stdio::Pipe) => std::process::Stdio::null(),
        Some(Stdio::Inherit) => std::process::Stdio::inherit(),
        Some(Stdio::File(p)) => std::fs::File::create(p)?.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_built_as_gungrauns_is() {
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c")
            .args(["exit 3"])
            .env("A", "1")
            .exit_with(ExitWith::Code(3));
        let built = cmd.build();
        assert_eq!(built.shown(), "/bin/sh -c exit 3");
        assert_eq!(built.envs, [("A".into(), "1".into())]);
        built.run(Feed::Bytes(Vec::new()));
        assert_eq!(Stdin::from(Stdio::Null), Stdin::Null);
        assert_eq!(Stdio::from(PathBuf::from("x")), Stdio::File("x".into()));
    }

    #[test]
    fn a_command_that_exits_otherwise_fails_saying_what_it_said() {
        let cmd = Command::new("/bin/sh")
            .args(["-c", "echo broken input >&2; exit 2"])
            .build();
        let e = std::panic::catch_unwind(|| cmd.run(Feed::Bytes(Vec::new())))
            .err()
            .unwrap();
        let e = e.downcast_ref::<String>().unwrap();
        assert!(
            e.contains("exited with exit status: 2, where success was expected"),
            "{e}"
        );
        assert!(e.ends_with("it said: broken input"), "{e}");
    }

    #[test]
    fn a_failed_command_is_run_again_with_what_its_setup_wrote() {
        let cmd = Command::new("/bin/sh")
            .args(["-c", "read line; echo \"got $line\" >&2; exit 1"])
            .stdin(Stdin::Setup(Pipe::Stdout))
            .build();
        let fed = || cmd.run(Feed::Bytes(b"the setup's line\n".to_vec()));
        let e = std::panic::catch_unwind(fed).err().unwrap();
        let e = e.downcast_ref::<String>().unwrap();
        assert!(e.ends_with("it said: got the setup's line"), "{e}");
    }

    #[test]
    fn a_command_gets_only_the_environment_it_sets() {
        let out = std::env::temp_dir().join(format!("nbench-gungraun-env-{}", std::process::id()));
        Command::new("/bin/sh")
            .args(["-c", "echo \"${HOME:-none} $MINE\""])
            .env("MINE", "set")
            .stdout(&out)
            .build()
            .run(Feed::Bytes(Vec::new()));
        let said = std::fs::read_to_string(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        assert_eq!(said, "none set\n");
    }

    #[test]
    fn a_configuration_adds_its_variables_and_may_keep_the_environment() {
        let out = std::env::temp_dir().join(format!("nbench-gungraun-conf-{}", std::process::id()));
        let said = |config: &BinaryBenchmarkConfig| {
            let mut cmd = Command::new("/bin/sh");
            cmd.args(["-c", "echo \"${HOME:+home} $FROM $MINE\""])
                .env("MINE", "own")
                .stdout(&out);
            cmd.configured(config).run(Feed::Bytes(Vec::new()));
            std::fs::read_to_string(&out).unwrap()
        };
        let mut config = BinaryBenchmarkConfig::default();
        config.env("FROM", "config").env("MINE", "config's");
        assert_eq!(said(&config), " config own\n");
        // The bench process's own HOME, where it has one.
        let home = format!(
            "{} config own\n",
            ["", "home"][usize::from(std::env::var_os("HOME").is_some())]
        );
        assert_eq!(said(config.clone().pass_through_env("HOME")), home);
        assert_eq!(said(config.clone().env_clear(false)), home);
        let _ = std::fs::remove_file(&out);
    }

    #[test]
    fn a_command_says_which_setup_stream_it_reads_and_whether_its_setup_runs_beside_it() {
        let mut cmd = Command::new("x");
        assert!(cmd.piped_from_setup().is_none() && !cmd.setup_beside());
        cmd.stdin(Stdin::Setup(Pipe::Stderr));
        let stderr = nbench::__private::command::Stream::Stderr;
        assert_eq!(cmd.piped_from_setup(), Some(stderr));
        assert!(!cmd.setup_beside());
        cmd.setup_parallel(true);
        assert!(cmd.setup_beside());
        let mut on_config = BinaryBenchmarkConfig::default();
        on_config.setup_parallel(true);
        assert!(Command::new("x").configured(&on_config).setup_beside());
    }
}
