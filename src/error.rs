//! What can go wrong, worded for the user, and the exit code each outcome maps to.

use std::path::{Path, PathBuf};

/// The `[dev-dependencies]` line that puts nbench-criterion in criterion's
/// place, from where it is published (as the README gives it): what a
/// hint tells the owner of a criterion suite.
pub const COMPAT_DEPENDENCY: &str = "criterion = { package = \"nbench-criterion\", git = \"https://github.com/nbench-rs/cargo-nbench\" }";
/// The line that puts nbench-divan in divan's place, where it is published.
pub const DIVAN_DEPENDENCY: &str =
    "divan = { package = \"nbench-divan\", git = \"https://github.com/nbench-rs/cargo-nbench\" }";

/// The line that puts nbench-gungraun in gungraun's place, where it is published.
pub const GUNGRAUN_DEPENDENCY: &str = "gungraun = { package = \"nbench-gungraun\", git = \"https://github.com/nbench-rs/cargo-nbench\" }";

/// The line that puts nbench-tango in tango-bench's place, where it is published.
pub const TANGO_DEPENDENCY: &str = "tango-bench = { package = \"nbench-tango\", git = \"https://github.com/nbench-rs/cargo-nbench\" }";

/// The line that puts nbench-bencher in bencher's place, where it is published.
pub const BENCHER_DEPENDENCY: &str = "bencher = { package = \"nbench-bencher\", git = \"https://github.com/nbench-rs/cargo-nbench\" }";

/// The line that puts nbench-iai in iai's place, where it is published.
pub const IAI_DEPENDENCY: &str =
    "iai = { package = \"nbench-iai\", git = \"https://github.com/nbench-rs/cargo-nbench\" }";

/// Where nbench-libtest is published, as a dependency in `test`'s place.
pub const LIBTEST_DEPENDENCY: &str =
    "test = { package = \"nbench-libtest\", git = \"https://github.com/nbench-rs/cargo-nbench\" }";

/// Exit codes, documented in `--help` and the README.
pub mod exit {
    /// Every selected benchmark ran.
    pub const SUCCESS: u8 = 0;
    /// At least one benchmark failed (panic, crash, timeout); the others still ran.
    pub const BENCH_FAILED: u8 = 1;
    /// Bad command line or configuration.
    pub const USAGE: u8 = 2;
    /// The bench targets did not compile.
    pub const BUILD_FAILED: u8 = 3;
    /// A comparison found a regression (with `--fail-on-regression`).
    pub const REGRESSION: u8 = 4;
    /// Anything else: cargo could not be run, files could not be written.
    pub const ERROR: u8 = 5;
}

/// An error that ends the run. Messages are lowercase fragments; `hint`
/// says what to do, on a line of its own.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line as clap read it: a bad flag, or `--help`/`--version`
    /// (which clap prints itself, and which succeed).
    #[error("{0}")]
    Cli(clap::Error),
    /// A bad value on the command line.
    #[error("{0}")]
    Usage(String),
    /// An `--out` file whose format cannot be told.
    #[error("cannot tell the format of --out `{}` from its extension", .0.display())]
    OutFormat(PathBuf),
    /// `cargo metadata` failed: what cargo said, and its advice if it gave
    /// any (else the hint is to run it).
    #[error("could not read the workspace: {said}")]
    Metadata {
        /// cargo's error, on one line.
        said: String,
        /// What cargo suggests doing about it.
        advice: Option<String>,
    },
    /// Nothing to benchmark: `skipped` bench targets were found and left
    /// out, each with a note saying why.
    #[error("no nbench bench targets found")]
    NoTargets { skipped: usize },
    /// The packages cargo chose (no `-p`, no `--workspace`) have no bench
    /// target; other members of the workspace have.
    #[error(
        "{} no bench targets",
        match .selected.as_slice() {
            [one] => format!("package `{one}` has"),
            many => format!("packages `{}` have", many.join("`, `")),
        }
    )]
    BenchesElsewhere {
        /// The packages chosen.
        selected: Vec<String>,
        /// Members with bench targets.
        elsewhere: Vec<String>,
    },
    /// No member of the workspace has a bench target; packages below its
    /// root, outside it, do.
    #[error(
        "no bench targets in this workspace; {} below it {} with bench targets",
        manifests.iter().map(|m| format!("`{}`", m.display())).collect::<Vec<_>>().join(", "),
        if manifests.len() == 1 { "is a package of its own" } else { "are packages of their own" }
    )]
    BenchesOutside {
        /// Their manifests, relative to the workspace root.
        manifests: Vec<PathBuf>,
        /// Whether the command runs at the workspace root.
        at_root: bool,
    },
    /// `-p NAME` names no member of the workspace.
    #[error("package `{spec}` is not a member of the workspace")]
    NotMember {
        /// As given.
        spec: String,
        /// The manifest of a package of that name below the workspace root
        /// and outside it (relative to the root), and whether the command
        /// runs at the root.
        outside: Option<(PathBuf, bool)>,
        /// The members with bench targets.
        members: Vec<String>,
    },
    /// cargo failed to build the bench targets (its own output says why).
    #[error("build failed{0}")]
    Build(String),
    /// The working tree failed to build where it may lack what the
    /// benchmark library it swapped by hand turned on for the whole build.
    #[error("build failed{why}")]
    BuildLeftOff {
        /// What cargo said, if it was read.
        why: String,
        /// What to add.
        hint: String,
    },
    /// A program could not be started.
    #[error("could not run `{program}`: {source}")]
    Spawn {
        /// What was run.
        program: String,
        /// Why it failed.
        source: std::io::Error,
    },
    /// A stored file that cannot be read as what it should be.
    #[error("`{}` is corrupt: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// What would be stored does not read back (a bug: nothing was written).
    #[error("refusing to write `{}`: it would not read back ({reason})", path.display())]
    Unreadable {
        /// The file that was not written.
        path: PathBuf,
        /// What would not read back.
        reason: String,
    },
    /// Another run holds the baseline.
    #[error("baseline `{name}` is in use by another cargo nbench (pid {pid})")]
    InUse {
        /// The baseline.
        name: String,
        /// Who holds it, as written in the lock.
        pid: String,
        /// The lock file.
        lock: PathBuf,
    },
    /// A settings file that cannot be used.
    #[error("`{}`: {message}", file.display())]
    Config {
        /// The file.
        file: PathBuf,
        /// What is wrong, naming the key.
        message: String,
        /// What is allowed instead.
        hint: Option<String>,
    },
    /// A workspace member in a git submodule that is not checked out.
    #[error("workspace member `{0}` is in a git submodule that is not checked out")]
    Submodule(String),
    /// `cargo nbench report` with nothing stored to report on.
    #[error("no stored runs in `{}`", .0.display())]
    NoRuns(PathBuf),
    /// `cargo nbench report` where every stored run fails to read.
    #[error("no stored run in `{}` can be read (the newest, `{newest}`: {why})", dir.display())]
    RunsUnreadable {
        /// Where the runs are.
        dir: PathBuf,
        /// The newest run's file name.
        newest: String,
        /// Why it cannot be read.
        why: String,
    },
    /// `--compare-rev`: the revision cannot be found, checked out or built.
    #[error("{message}")]
    Revision {
        /// What went wrong, naming the revision.
        message: String,
        /// What to do.
        hint: String,
    },
    /// A revision whose criterion suite, nbench-criterion in criterion's
    /// place, does not compile.
    #[error("{message}")]
    Swapped {
        /// What failed, naming the revision and the missing item.
        message: String,
        /// What to do.
        hint: String,
    },
    /// A revision that did not build, not for the front end: its own code,
    /// or a dependency cargo could not get (no network, a source that is gone).
    #[error("{message}")]
    RevisionBuild {
        /// What failed, naming the revision.
        message: String,
        /// What to do.
        hint: String,
    },
    /// `merge`: shards that cannot be read or do not belong together.
    #[error("{message}")]
    Merge {
        /// What is wrong, naming the files.
        message: String,
        /// What to do.
        hint: String,
    },
    /// No baseline of that name.
    #[error("no baseline named `{0}`")]
    NoBaseline(String),
    /// `--metrics …,instructions` with nothing to count them: no CPU
    /// counter that counts, and no Valgrind.
    #[error(
        "--metrics instructions needs the CPU's instruction counter or Valgrind, and neither \
         can be used here ({why})"
    )]
    NoValgrind {
        /// Where each was looked for, and why it cannot count.
        why: String,
        /// What to do (`run/counter.rs` words it, beside the variables).
        hint: String,
    },
    /// `--metrics …,instructions` where the counter `NBENCH_COUNTER`
    /// chose cannot count, or it names none.
    #[error("--metrics instructions: {why}")]
    CounterChosen {
        /// Why it cannot count, naming the variable.
        why: String,
        /// What to do.
        hint: String,
    },
    /// A file could not be read or written.
    #[error("{action} `{}`: {source}", path.display())]
    Io {
        /// What was being done ("could not write").
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why it failed.
        source: std::io::Error,
    },
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Cli(e) if !e.use_stderr() => exit::SUCCESS,
            Error::Cli(_)
            | Error::Usage(_)
            | Error::OutFormat(_)
            | Error::NoTargets { .. }
            | Error::BenchesElsewhere { .. }
            | Error::BenchesOutside { .. }
            | Error::NotMember { .. }
            | Error::Corrupt { .. }
            | Error::NoBaseline(_)
            | Error::NoRuns(_)
            | Error::RunsUnreadable { .. }
            | Error::Config { .. }
            | Error::Revision { .. }
            | Error::Submodule(_)
            | Error::NoValgrind { .. }
            | Error::CounterChosen { .. }
            | Error::Merge { .. } => exit::USAGE,
            Error::InUse { .. } => exit::ERROR,
            Error::Build(_)
            | Error::BuildLeftOff { .. }
            | Error::Swapped { .. }
            | Error::RevisionBuild { .. } => exit::BUILD_FAILED,
            Error::Metadata { .. }
            | Error::Spawn { .. }
            | Error::Io { .. }
            | Error::Unreadable { .. } => exit::ERROR,
        }
    }

    /// What the user can do about it, if there is something to say.
    pub fn hint(&self) -> Option<String> {
        match self {
            Error::Corrupt { .. }
            | Error::Unreadable { .. }
            | Error::InUse { .. }
            | Error::NoBaseline(_)
            | Error::NoRuns(_)
            | Error::RunsUnreadable { .. } => self.store_hint(),
            Error::BenchesElsewhere { .. }
            | Error::BenchesOutside { .. }
            | Error::NotMember { .. } => self.selection_hint(),
            Error::NoTargets { skipped } => {
                let first = match skipped {
                    0 => {
                        "add `nbench` to [dev-dependencies] and a [[bench]] target with \
                         `harness = false` whose main is `nbench::main!(...)`"
                    }
                    _ => {
                        "each bench target found was left out, for the reason its note above gives"
                    }
                };
                Some(format!(
                    "{first}; a criterion suite runs unchanged with `{COMPAT_DEPENDENCY}`, or \
                     with no edit at all from a git repository, where cargo nbench builds a \
                     criterion, divan, gungraun, tango, bencher or iai suite with its front end \
                     swapped in, in a worktree of its own (`git init` is enough)"
                ))
            }
            Error::Config { hint, .. } => hint.clone(),
            Error::Revision { hint, .. }
            | Error::Merge { hint, .. }
            | Error::Swapped { hint, .. }
            | Error::BuildLeftOff { hint, .. }
            | Error::RevisionBuild { hint, .. } => Some(hint.clone()),
            Error::OutFormat(_) => Some(
                "name it .json, .jsonl, .csv, .md, .txt, .bencher or .html, or add --out-format FORMAT"
                    .to_owned(),
            ),
            Error::Metadata { advice, .. } => {
                Some((advice.clone()).unwrap_or_else(|| {
                    "run `cargo metadata` to see cargo's own message".to_owned()
                }))
            }
            Error::Submodule(_) => Some(
                "check it out with `git submodule update --init`: cargo reads every member"
                    .to_owned(),
            ),
            Error::NoValgrind { hint, .. } | Error::CounterChosen { hint, .. } => {
                Some(hint.clone())
            }
            _ => None,
        }
    }

    /// The hint of an error in which packages the command selects.
    fn selection_hint(&self) -> Option<String> {
        match self {
            Error::BenchesElsewhere { elsewhere, .. } => {
                let p: Vec<String> = elsewhere.iter().map(|p| format!("-p {p}")).collect();
                Some(format!(
                    "like `cargo bench`, cargo nbench runs the package of this directory (or the \
                     workspace's default members); `{}` in the workspace {}: add `{}`, or \
                     `--workspace`",
                    elsewhere.join("`, `"),
                    if elsewhere.len() == 1 {
                        "has bench targets"
                    } else {
                        "have bench targets"
                    },
                    p.join(" ")
                ))
            }
            Error::BenchesOutside { manifests, at_root } => {
                Some(format!("{}", Outside(&manifests[0], *at_root)))
            }
            Error::NotMember {
                spec,
                outside: Some((manifest, at_root)),
                ..
            } => Some(format!(
                "`{}` is that package, kept out of the workspace; {} instead of `-p {spec}`",
                manifest.display(),
                Outside(manifest, *at_root)
            )),
            Error::NotMember { members, .. } => match members.as_slice() {
                [] => None,
                [one] => Some(format!("the member with bench targets is `{one}`")),
                many => Some(format!(
                    "the members with bench targets are `{}`",
                    many.join("`, `")
                )),
            },
            _ => None,
        }
    }

    /// [`Error::hint`] for what is wrong with what `target/nbench/` holds.
    fn store_hint(&self) -> Option<String> {
        match self {
            Error::Corrupt { path, .. } => Some(format!(
                "nothing was changed; move `{}` away (or delete it) and save the baseline again",
                path.display()
            )),
            Error::Unreadable { .. } => Some(
                "what was stored before is untouched; please report this with the output of -v"
                    .to_owned(),
            ),
            Error::InUse { lock, .. } => Some(format!(
                "wait for the other run to finish; if none is running, delete `{}`",
                lock.display()
            )),
            Error::NoBaseline(_) => {
                Some("`cargo nbench baseline list` shows the saved baselines".to_owned())
            }
            Error::NoRuns(_) => Some(
                "run `cargo nbench` first: every run is stored there and the report is made from \
                 them (`cargo nbench compare` stores none: give it `--out FILE.html`)"
                    .to_owned(),
            ),
            Error::RunsUnreadable { .. } => Some(
                "nothing was changed; run `cargo nbench` to store a new run (the report leaves \
                 unreadable ones out)"
                    .to_owned(),
            ),
            _ => None,
        }
    }

    /// Shorthand for an I/O error on `path`.
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How a package kept out of the workspace is reached: `manifest`, a path
/// from the workspace root, said as one if the command runs elsewhere.
struct Outside<'a>(&'a Path, bool);

impl std::fmt::Display for Outside<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Outside(manifest, at_root) = *self;
        write!(
            f,
            "like `cargo bench`, cargo nbench reaches a package kept out of the workspace only \
             through its manifest: add `--manifest-path {}`{}",
            manifest.display(),
            if at_root {
                ""
            } else {
                " (a path from the workspace root)"
            }
        )
    }
}
