//! Copying fixture projects to a scratch directory and running cargo and bench binaries in them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Short measurement settings: the tests check behaviour, not numbers.
pub const QUICK: &[&str] = &[
    "--warm-up",
    "5ms",
    "--min-time",
    "5ms",
    "--max-time",
    "20ms",
];

/// Settings for runs whose paired verdict is asserted: epochs of a few ms
/// (QUICK) are at the mercy of a busy shared machine, where one process can
/// run at half the speed of the next; these still stop early once settled.
pub const PAIRED: &[&str] = &[
    "--warm-up",
    "5ms",
    "--min-time",
    "60ms",
    "--max-time",
    "400ms",
];

/// One link layout a side, for a comparison that checks something other
/// than layouts: a second layout compiles each bench target again (for the
/// link command the others are linked from), seconds a build.
pub const ONE_LAYOUT: [&str; 2] = ["--layouts", "1"];

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How a fixture's manifest names the criterion-compatible crate, up to its path.
pub const COMPAT_LINE: &str = "criterion = { package = \"nbench-criterion\", path = ";

/// How a fixture's manifest names the divan-compatible crate, up to its path.
pub const DIVAN_LINE: &str = "divan = { package = \"nbench-divan\", path = ";

/// How a fixture's manifest names the gungraun-compatible crate, up to its path.
pub const GUNGRAUN_LINE: &str = "gungraun = { package = \"nbench-gungraun\", path = ";

/// How a fixture's manifest names the tango-compatible crate, up to its path.
pub const TANGO_LINE: &str = "tango-bench = { package = \"nbench-tango\", path = ";

/// How a fixture's manifest names the bencher-compatible crate, up to its path.
pub const BENCHER_LINE: &str = "bencher = { package = \"nbench-bencher\", path = ";

/// How a fixture's manifest names the iai-compatible crate, up to its path.
pub const IAI_LINE: &str = "iai = { package = \"nbench-iai\", path = ";

/// Each front end's line, up to its path, and its folder in this checkout.
const FRONT_LINES: [(&str, &str); 6] = [
    (COMPAT_LINE, "compat/criterion"),
    (DIVAN_LINE, "compat/divan"),
    (GUNGRAUN_LINE, "compat/gungraun"),
    (TANGO_LINE, "compat/tango"),
    (BENCHER_LINE, "compat/bencher"),
    (IAI_LINE, "compat/iai"),
];

/// Manifest line `l`, a front end's pointed at its folder in this checkout.
fn front_end_here(l: &str) -> Option<String> {
    FRONT_LINES.iter().find_map(|(line, folder)| {
        let quoted = l
            .strip_prefix(line)?
            .strip_prefix('"')
            .expect("a quoted path");
        let (_, after) = quoted.split_once('"').expect("a quoted path");
        let here = repo_root().join(folder).display().to_string();
        Some(format!("{line}{here:?}{after}"))
    })
}

/// One target directory for every fixture build, so the harness compiles once per test run.
/// Cargo names a path package's files by its path within the workspace, so every copy of a
/// fixture shares file names here: a test that changes a copy's code gives it a target
/// directory of its own ([`Fixture::own_target_dir`]) or another package name.
fn shared_target_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fixture-target")
}

/// A fixture project copied into a fresh directory of its own.
pub struct Fixture {
    pub dir: PathBuf,
    /// `CARGO_TARGET_DIR` for every command; `None` leaves it to the project.
    target_dir: Option<PathBuf>,
}

/// A passing test's copy is removed with it (with its own target directory,
/// where it has one: some 100 MB each, 60 GB over a few hundred runs); a
/// failing test's copy is kept to look into.
impl Drop for Fixture {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl Fixture {
    /// Copies `tests/fixtures/<name>` and points its `nbench` dependency at this checkout.
    pub fn new(name: &str) -> Fixture {
        Fixture::padded(name, None)
    }

    /// [`Fixture::new`] in a folder whose name is padded so that the path
    /// of `inside` (a path in the copy) is `past` bytes past a multiple of 16.
    pub fn with_path_length(name: &str, inside: &str, past: usize) -> Fixture {
        Fixture::padded(name, Some((inside, past)))
    }

    fn padded(name: &str, path_length: Option<(&str, usize)>) -> Fixture {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let mut dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join("fixtures")
            .join(format!("{name}-{}-{n}", std::process::id()));
        if let Some((inside, past)) = path_length {
            let len = dir.join(inside).as_os_str().len() + 1;
            let pad = "x".repeat((past + 16 - len % 16) % 16);
            dir = dir.with_file_name(format!("{name}-{}-{n}-{pad}", std::process::id()));
        }
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(&repo_root().join("tests/fixtures").join(name), &dir, SKIP);
        let harness = format!(
            "nbench = {{ path = {:?} }}",
            repo_root().join("harness").display().to_string()
        );
        for entry in walk(&dir) {
            if entry.file_name().is_some_and(|f| f == "Cargo.toml") {
                let text = std::fs::read_to_string(&entry).unwrap();
                let fixed: Vec<String> = text
                    .lines()
                    .map(|l| {
                        if l.starts_with("nbench = { path = ") {
                            harness.clone()
                        } else {
                            front_end_here(l).unwrap_or_else(|| l.to_owned())
                        }
                    })
                    .collect();
                std::fs::write(&entry, fixed.join("\n") + "\n").unwrap();
            }
        }
        Fixture {
            target_dir: Some(shared_target_dir()),
            dir,
        }
    }

    /// Puts a benchmark library itself in its front end's place: the
    /// manifest's line starting `prefix` becomes `line(old)`, and `lock`
    /// (kept beside the fixture, pinning the registry's versions) its
    /// Cargo.lock.
    pub fn on_registry(&self, prefix: &str, line: impl FnOnce(&str) -> String, lock: &str) {
        let manifest = self.dir.join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        let old = text.lines().find(|l| l.starts_with(prefix)).unwrap();
        std::fs::write(&manifest, text.replace(old, &line(old))).unwrap();
        std::fs::copy(self.dir.join(lock), self.dir.join("Cargo.lock")).unwrap();
    }

    /// Replaces `from` with `to` in the fixture's file `file`.
    pub fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "no {from:?} in {file}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    }

    /// Makes the fixture a repository of two commits: it as it is (git
    /// ignoring `ignored`, a `.gitignore`'s lines), then `to` in place of
    /// `from` in `file`.
    pub fn last_commit_changes(&self, ignored: &str, file: &str, from: &str, to: &str) {
        self.first_commit(ignored);
        self.edit(file, from, to);
        git(&self.dir, &["commit", "--quiet", "-am", "second"]);
    }

    /// Makes the fixture a repository of one commit: it as it is, git
    /// ignoring `ignored` (a `.gitignore`'s lines).
    pub fn first_commit(&self, ignored: &str) {
        std::fs::write(self.dir.join(".gitignore"), ignored).unwrap();
        git(&self.dir, &["init", "--quiet", "--initial-branch", "main"]);
        git(&self.dir, &["add", "."]);
        git(&self.dir, &["commit", "--quiet", "-m", "first"]);
    }

    /// `cargo nbench compare --rev HEAD~1 HEAD` and `args`, paired briefly,
    /// the front end taken from `folder` in this checkout through its
    /// variable `env`.
    pub fn compare_last_commit(&self, (env, folder): (&str, &str), args: &[&str]) -> Run {
        let mut cmd = self.nbench_command(&["compare", "--rev", "HEAD~1", "HEAD"]);
        cmd.args(args).args(PAIRED).args(ONE_LAYOUT);
        cmd.env(env, repo_root().join(folder));
        Run::from(cmd.output().unwrap())
    }

    /// Gives this fixture a target directory (and so a `target/nbench` store) of its own,
    /// holding the harness already built ([`prebuilt_harness`]).
    pub fn own_target_dir(mut self) -> Fixture {
        let target = self.dir.join("target");
        if let Some(built) = prebuilt_harness() {
            copy_dir(built, &target, &[]);
        }
        self.target_dir = Some(target);
        self
    }

    /// Leaves the target directory to the project (its `.cargo/config.toml`, or `target/`).
    pub fn projects_target_dir(mut self) -> Fixture {
        self.target_dir = None;
        self
    }

    /// The `cargo nbench <args>` command in `dir` (relative to the fixture), for the real binary.
    pub fn nbench_command_in(&self, dir: &str, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-nbench"));
        // Counting under Valgrind everywhere, a CPU counter or not: the
        // tests that want the CPU's counter ask for it.
        cmd.arg("nbench")
            .args(args)
            .current_dir(self.dir.join(dir))
            .env_remove("RUSTFLAGS")
            .env_remove("NO_COLOR")
            .env("NBENCH_COUNTER", "valgrind");
        without_own_wrapper(&mut cmd);
        self.set_target_dir(&mut cmd);
        cmd
    }

    fn set_target_dir(&self, cmd: &mut Command) {
        match &self.target_dir {
            Some(dir) => cmd.env("CARGO_TARGET_DIR", dir),
            None => cmd.env_remove("CARGO_TARGET_DIR"),
        };
    }

    /// The `cargo nbench <args>` command at the fixture's root.
    pub fn nbench_command(&self, args: &[&str]) -> Command {
        self.nbench_command_in(".", args)
    }

    /// `cargo nbench` with [`PAIRED`] settings and `extra`.
    pub fn nbench_paired(&self, extra: &[&str]) -> Run {
        let args: Vec<&str> = PAIRED.iter().chain(extra).copied().collect();
        self.nbench(&args)
    }

    /// `cargo nbench <args>` in `dir` (relative to the fixture), run through the real binary.
    pub fn nbench_in(&self, dir: &str, args: &[&str]) -> Run {
        let mut cmd = self.nbench_command_in(dir, args);
        Run::from(cmd.output().expect("cargo-nbench runs"))
    }

    /// `cargo nbench <args>` at the fixture's root.
    pub fn nbench(&self, args: &[&str]) -> Run {
        self.nbench_in(".", args)
    }

    /// `cargo <args>` in the fixture, with the shared target directory.
    pub fn cargo(&self, args: &[&str]) -> Run {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut cmd = Command::new(cargo);
        cmd.args(args)
            .current_dir(&self.dir)
            .env_remove("RUSTFLAGS");
        without_own_wrapper(&mut cmd);
        self.set_target_dir(&mut cmd);
        Run::from(cmd.output().expect("cargo runs"))
    }

    /// Builds the bench target `name` and returns its executable.
    pub fn bench_exe(&self, name: &str) -> PathBuf {
        let run = self.cargo(&[
            "bench",
            "--no-run",
            "--bench",
            name,
            "--message-format=json",
        ]);
        assert_eq!(run.code, 0, "build failed:\n{}", run.stderr);
        run.stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("an executable for the bench target")
    }
}

/// What a finished process left behind.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

impl Run {
    /// The first line of its error output that begins `error:` (empty if none).
    pub fn error_line(&self) -> &str {
        (self.stderr.lines())
            .find(|l| l.starts_with("error:"))
            .unwrap_or_default()
    }

    /// Runs `exe` with `args` in `dir`.
    pub fn exe(exe: &Path, dir: &Path, args: &[&str]) -> Run {
        Run::from(
            Command::new(exe)
                .args(args)
                .current_dir(dir)
                .output()
                .expect("the executable runs"),
        )
    }

    /// The JSON document on stdout of a run that succeeded (`--format json`).
    pub fn json(&self) -> serde_json::Value {
        assert_eq!(self.code, 0, "{}", self.all());
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.all()))
    }

    /// Stdout and stderr together, for failure messages.
    pub fn all(&self) -> String {
        format!("--- stdout\n{}\n--- stderr\n{}", self.stdout, self.stderr)
    }

    /// The stdout line that starts with `prefix` (a table row, a test line).
    pub fn line(&self, prefix: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line starting with {prefix:?} in:\n{}", self.stdout))
    }
}

/// `cmd` run with its stdout and stderr piped, `close` closing one of them
/// at once, as a reader that has gone does.
pub fn with_a_closed_pipe(
    cmd: &mut std::process::Command,
    close: impl FnOnce(&mut std::process::Child),
) -> Run {
    let mut child = (cmd.stdout(std::process::Stdio::piped()))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    close(&mut child);
    Run::from(child.wait_with_output().unwrap())
}

/// `git ARGS` in `dir`, as a user with a name and no signing; its stdout.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Checks `done` every 20 ms until it holds (true) or `limit` passes (false).
pub fn wait_for(limit: std::time::Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    done()
}

/// The command lines of the processes whose parent is `pid` (Linux).
pub fn children(pid: u32) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let dir = e.path();
            let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
            // The parent pid is the second field after the parenthesised name.
            let ppid: u32 = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            let cmdline = std::fs::read(dir.join("cmdline")).ok()?;
            (ppid == pid).then(|| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        })
        .collect()
}

/// What a fixture's copy leaves out: its build output and lock file.
const SKIP: &[&str] = &["target", "Cargo.lock"];

/// A target directory holding the harness built as a test run's fixtures
/// build it: as `cargo bench` builds it and as cargo nbench's own bench
/// build does (the `basic` fixture's), and as a revision's build does, its
/// lints capped: where a fixture names it (`basic`'s again) and where a
/// front end does (`bencher`'s), built at its first use in a test run. A
/// fixture with a target directory of its own starts from a copy: cargo
/// takes the harness from it wherever it is fresh for that fixture (the
/// same profile and flags) and builds it otherwise, so each such test is
/// spared compiling it (some 7 s a build; 16 builds of a test run were
/// revisions') without depending on it. `None` where building it failed:
/// the tests then build everything themselves, as before.
fn prebuilt_harness() -> Option<&'static Path> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT.get_or_init(build_harness).as_deref()
}

fn build_harness() -> Option<PathBuf> {
    // Built in place each test run (cargo's lock keeps concurrent runs apart;
    // a fresh build changes nothing), so a changed harness is built here once.
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("prebuilt-harness");
    let mut fx = Fixture::new("basic");
    fx.target_dir = Some(target.clone());
    let built = fx.cargo(&["bench", "--no-run"]).code == 0 && fx.nbench(&["--list"]).code == 0;
    let revision = |name: &str, args: &[&str]| {
        let mut fx = Fixture::new(name);
        fx.target_dir = Some(target.clone());
        fx.first_commit("target/\n");
        let brief = [
            "--layouts",
            "1",
            "--warm-up",
            "1ms",
            "--min-time",
            "1ms",
            "--max-time",
            "20ms",
        ];
        let run = fx.nbench(&[&["--compare-rev", "HEAD"], &brief[..], args].concat());
        if run.code != 0 {
            eprintln!(
                "the prebuilt harness's revision build of `{name}` failed: {}",
                run.all()
            );
        }
    };
    // The revisions' builds only spare time: a copy without them is whole.
    revision("basic", &["--bench", "basic", "add"]);
    revision("bencher", &["fib_10"]);
    // Builds only: what the runs stored would be each copy's.
    for stored in [
        "baselines",
        "runs",
        "report",
        "worktrees",
        "rev-target/nbench/baselines",
    ] {
        let _ = std::fs::remove_dir_all(target.join("nbench").join(stored));
    }
    built.then_some(target)
}

fn copy_dir(from: &Path, to: &Path, skip: &[&str]) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if skip.iter().any(|s| name == *s) {
            continue;
        }
        let dest = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest, skip);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// The files under `dir` with the times they were last written, in order.
pub fn files_under(dir: &Path) -> Vec<(PathBuf, std::time::SystemTime)> {
    if !dir.exists() {
        return Vec::new();
    }
    let mut files: Vec<_> = (walk(dir).into_iter())
        .map(|f| {
            let written = std::fs::metadata(&f).and_then(|m| m.modified()).unwrap();
            (f, written)
        })
        .collect();
    files.sort();
    files
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// The ids `cargo nbench --list` prints for the fixture's target `label`.
pub fn listed(fx: &Fixture, label: &str) -> Vec<String> {
    let list = fx.nbench(&["--list"]);
    assert_eq!(list.code, 0, "{}", list.all());
    let prefix = format!("{label}: ");
    (list.stdout.lines())
        .filter_map(|l| l.strip_prefix(prefix.as_str()))
        .map(str::to_owned)
        .collect()
}

/// The instructions per iteration of benchmark `id` in a run's JSON.
pub fn per_iter(json: &serde_json::Value, id: &str) -> f64 {
    let rows = json["targets"][0]["benchmarks"].as_array().unwrap();
    let row = rows.iter().find(|b| b["id"] == id);
    let row = row.unwrap_or_else(|| panic!("no {id} in {json}"));
    row["metrics"]["instructions"]["per_iter"]
        .as_f64()
        .unwrap_or_else(|| panic!("{id} has no count: {row}"))
}

/// Puts the library itself in its front end's place (the manifest's line
/// starting `prefix` becomes `line`, `lock` the Cargo.lock): the suite
/// compiles unchanged, and cargo nbench skips it with `said`, the line to
/// put back.
pub fn compiles_against_the_library(
    fx: &Fixture,
    (prefix, line, lock): (&str, &str, &str),
    said: &str,
) {
    fx.on_registry(prefix, |_| line.into(), lock);
    let build = fx.cargo(&["check", "--benches", "--locked"]);
    assert_eq!(build.code, 0, "{}", build.all());
    let skipped = fx.nbench(&["--list"]);
    assert_ne!(skipped.code, 0, "{}", skipped.all());
    assert!(skipped.stderr.contains(said), "{}", skipped.stderr);
}

/// A quick run of the fixture with instructions counted, which must
/// measure every benchmark; its JSON.
pub fn counted_run(fx: &Fixture) -> serde_json::Value {
    let mut args = vec!["--format", "json", "--metrics", "time,instructions"];
    args.extend_from_slice(QUICK);
    let run = fx.nbench(&args);
    assert_eq!(run.code, 0, "{}", run.all());
    let json = run.json();
    assert_eq!(json["targets"][0]["failures"], serde_json::json!([]));
    json
}

/// `cargo test --benches` in the fixture, which runs each benchmark once:
/// it passes and names `id`.
pub fn runs_once(fx: &Fixture, id: &str) {
    let test = fx.cargo(&["test", "--benches"]);
    assert_eq!(test.code, 0, "{}", test.all());
    assert!(test.stdout.contains(id), "{}", test.stdout);
}

/// That fibonacci(15), benchmark `long`, counts 8–14 times the
/// instructions of fibonacci(10), benchmark `short` (1973 calls to 177).
pub fn counts_fib(json: &serde_json::Value, short: &str, long: &str) {
    let (short, long) = (per_iter(json, short), per_iter(json, long));
    assert!(long / short > 8.0 && long / short < 14.0, "{short} {long}");
}

/// A fixture on the library itself (its manifest's line `line` becomes
/// `registry`; no Cargo.lock kept), in two commits, the second computing
/// fibonacci(13) where the first computed fibonacci(10) in its bench file.
/// `compare --rev HEAD~1 HEAD` of `filter`'s benchmarks, with counts and
/// the front end taken through `front` (its variable, its folder): it says
/// `said` of the swap it made, and `short` regressed, its count over four
/// times the first (fibonacci(13) makes 753 calls to fibonacci(10)'s 177),
/// while `long`'s count did not move.
pub fn compare_swapped_fib(
    fx: &Fixture,
    (line, registry, lock): (&str, &str, &str),
    front: (&str, &str),
    (filter, said): (&str, &str),
    (short, long): (&str, &str),
) {
    fx.on_registry(line, |_| registry.into(), lock);
    std::fs::remove_file(fx.dir.join("Cargo.lock")).unwrap();
    let (file, from, to) = (
        "benches/suite.rs",
        "fib(black_box(10))",
        "fib(black_box(13))",
    );
    fx.last_commit_changes("target/\nCargo.lock\n", file, from, to);
    let args = ["--metrics", "time,instructions", "--format", "json", filter];
    let r = fx.compare_last_commit(front, &args);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.stderr.contains(said), "{}", r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let rows = doc["comparison"]["targets"][0]["rows"].as_array().unwrap();
    let row = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap();
    assert_eq!(row(short)["verdict"], "regressed", "{rows:?}");
    let counted = row(short)["instructions"]["change"].as_f64();
    assert!(counted.is_some_and(|c| c > 2.0), "{counted:?}");
    assert_eq!(row(long)["instructions"]["change"], 0.0, "{rows:?}");
}

/// Leaves out a rustc wrapper of the developer's own (`sccache`): with
/// one, cargo nbench builds a target's first link layout apart from its
/// executable, and the tests count the files of the build without one.
fn without_own_wrapper(cmd: &mut Command) {
    cmd.env_remove("RUSTC_WRAPPER")
        .env_remove("RUSTC_WORKSPACE_WRAPPER");
}
