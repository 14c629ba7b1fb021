//! The context stored with every run: when, what code, what compiler, what machine, what settings.

use super::float;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where and how a run was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Context {
    /// UTC time the run started, RFC 3339.
    pub date: String,
    /// `git rev-parse HEAD` of the workspace, if it is a git checkout.
    pub git_commit: Option<String>,
    /// A git repository without a commit yet.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub git_no_commits: bool,
    /// Whether the checkout had uncommitted changes.
    pub git_dirty: Option<bool>,
    /// `rustc --version`.
    pub rustc: Option<String>,
    /// The cargo profile the benchmarks were built with.
    pub profile: String,
    /// The host triple.
    pub host: Option<String>,
    /// The CPU model.
    pub cpu_model: Option<String>,
    /// Logical cores available.
    pub cores: usize,
    /// The machine's host name (two machines of one CPU model are told apart by it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    /// CPU frequency governor (Linux), where readable.
    pub governor: Option<String>,
    /// Whether turbo boost is on (Linux: intel_pstate or cpufreq `boost`), where readable.
    #[serde(default)]
    pub turbo: Option<bool>,
    /// Version of cargo nbench (and of its nbench protocol).
    pub nbench_version: String,
    /// Measurement settings.
    pub settings: SettingsRecord,
    /// The user's own `--context KEY=VALUE` pairs.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub user: BTreeMap<String, String>,
    /// How the bench executables were built, where this run built them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<BuildRecord>,
}

/// How bench executables were built, beyond their source and the compiler
/// (`rustc` above): what else changes an executable.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildRecord {
    /// The user's rustflags (variables or cargo's configuration), as cargo applies them.
    pub rustflags: Vec<String>,
    /// Flags cargo nbench added to them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// The target triple built for, when one is configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// `--features`, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// `--all-features`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_features: bool,
    /// `--no-default-features`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_default_features: bool,
    /// Link layouts built of each bench target.
    #[serde(default = "one")]
    pub layouts: usize,
    /// A revision whose suite declares criterion, built with nbench-criterion
    /// in its place in cargo nbench's worktree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap: Option<SwapRecord>,
    /// The nbench packages the built suites depend on (`nbench-criterion`,
    /// …), sorted, after any swap: the front ends they ran on. Empty in a
    /// record older than this field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub front_ends: Vec<String>,
    /// The bench targets a revision's build was narrowed to (`--bench`),
    /// sorted; empty: every one it has.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub benches: Vec<String>,
    /// The linker options link layouts were ordered with, `SEED` for each
    /// one's seed; empty: one layout, the linker's own order (or a record
    /// older than this field).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub shuffle: String,
    /// A revision whose commit keeps no `Cargo.lock`: the hash of the
    /// working tree's, which it was built with; empty: its own (or none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub lock: String,
    /// Files git does not track that a revision's build read, copied into
    /// its checkout from the working tree (an input `include_str!` takes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub copied: Vec<CopiedFile>,
    /// Saved executables name kept copies of the package binaries they run
    /// (`store/bins.rs`). False in a record older than this field: its
    /// executables run whatever binary the latest build wrote.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bins_kept: bool,
}

/// A file git does not track, copied from the working tree into a
/// revision's checkout.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CopiedFile {
    /// Its path from the repository's top.
    pub path: String,
    /// The hash of what it held.
    pub hash: String,
}

/// The swap a revision's build made: nbench-criterion in criterion's place,
/// nbench-divan in divan's.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwapRecord {
    /// The libraries swapped (`criterion`, `divan`).
    pub libraries: Vec<String>,
    /// The names the manifests declared them under, sorted: a library's own
    /// or another of its names (`iai-callgrind` for gungraun). Empty in a
    /// record older than this field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declared: Vec<String>,
    /// The dependency line put in each one's place.
    pub dependencies: Vec<String>,
    /// The manifests changed, relative to the repository's top.
    pub manifests: Vec<String>,
    /// For each dependency line, the hash of what the folder it names held
    /// (the front end and the packages it names by path, the harness among
    /// them); empty for a line naming no folder. Empty in a record older
    /// than this field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contents: Vec<String>,
    /// Features the manifests now ask for that the libraries had turned on
    /// for the whole build, as `package/feature` (`serde_json/std`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<String>,
}

impl SwapRecord {
    /// `nbench-criterion in criterion's place`, for each library.
    pub fn places(libraries: &[String]) -> String {
        let each: Vec<String> = (libraries.iter())
            .map(|l| format!("nbench-{l} in {l}'s place"))
            .collect();
        each.join(" and ")
    }

    /// Which sides of a comparison, built as `base` and `now`, were
    /// revisions built with nbench-criterion in criterion's place, and
    /// where: the front end each side ran on. Nothing where both ran on the
    /// same front ends: both swapped alike, or one swapped by cargo nbench
    /// and the other by its own manifest (each build said so as it was made).
    /// A record older than `front_ends` that swapped ran on what it swapped in.
    pub fn say(base: Option<&BuildRecord>, now: Option<&BuildRecord>) -> Option<String> {
        let fronts = |b: Option<&BuildRecord>| match b {
            Some(b) if b.front_ends.is_empty() => {
                let swapped = b.swap.iter().flat_map(|s| &s.libraries);
                let mut fronts: Vec<String> = swapped.map(|l| format!("nbench-{l}")).collect();
                fronts.sort();
                fronts
            }
            Some(b) => b.front_ends.clone(),
            None => Vec::new(),
        };
        let ran_on = fronts(base);
        if !ran_on.is_empty() && ran_on == fronts(now) {
            return None;
        }
        let swap = |b: Option<&BuildRecord>| b.and_then(|b| b.swap.clone());
        let (base, now) = (swap(base), swap(now));
        if let (Some(b), Some(n)) = (&base, &now)
            && b.libraries == n.libraries
        {
            return None;
        }
        let libs = base.iter().chain(&now).flat_map(|s| s.libraries.clone());
        let mut libs: Vec<String> = libs.collect();
        libs.sort();
        libs.dedup();
        let place = format!("built with {}", SwapRecord::places(&libs));
        let files = |s: &SwapRecord| s.manifests.join(", ");
        match (base, now) {
            (None, None) => None,
            (Some(b), None) => Some(format!(
                "the baseline is a revision whose {} suite was {place} ({}); this build \
                 runs on the front end its own manifests name",
                libs.join(" and "),
                files(&b)
            )),
            (None, Some(n)) => Some(format!(
                "the current side is a revision whose {} suite was {place} ({}); the \
                 baseline runs on the front end its own manifests name",
                libs.join(" and "),
                files(&n)
            )),
            (Some(b), Some(n)) => Some(format!(
                "both sides are revisions whose {} suites were {place} (baseline: {}; \
                 current: {})",
                libs.join(" and "),
                files(&b),
                files(&n)
            )),
        }
    }
}

impl BuildRecord {
    /// How `self` (a baseline's) and `now` differ in what changes the code
    /// of the same source, one phrase each.
    pub fn differences(&self, now: &BuildRecord) -> Vec<String> {
        let flags = |f: &[String]| match f.is_empty() {
            true => "none".to_owned(),
            false => format!("`{}`", f.join(" ")),
        };
        let mut out = Vec::new();
        let mut differ = |what: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{what} {a} (now {b})"));
            }
        };
        differ("rustflags", flags(&self.rustflags), flags(&now.rustflags));
        differ(
            "flags added by cargo nbench",
            flags(&self.added),
            flags(&now.added),
        );
        let target = |t: &Option<String>| t.clone().unwrap_or_else(|| "the host".to_owned());
        differ("target", target(&self.target), target(&now.target));
        // Features are left out: comparing builds with and without one is a
        // comparison people make on purpose.
        out
    }
}

fn rustc_verbose() -> Option<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    run(Command::new(&rustc).arg("-vV"))
}

fn rustc_version(verbose: Option<&str>) -> Option<String> {
    verbose.and_then(|v| v.lines().next()).map(str::to_owned)
}

/// Measurement settings as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SettingsRecord {
    /// Warm-up per benchmark, s.
    #[serde(deserialize_with = "float::lenient")]
    pub warm_up_s: f64,
    /// Minimum sampling time, s.
    #[serde(deserialize_with = "float::lenient")]
    pub min_time_s: f64,
    /// Sampling time limit, s.
    #[serde(deserialize_with = "float::lenient")]
    pub max_time_s: f64,
    /// Precision target (0.01 = ±1 %).
    #[serde(deserialize_with = "float::lenient")]
    pub precision: f64,
    /// Minimum samples.
    pub min_samples: usize,
    /// Maximum samples.
    pub max_samples: usize,
    /// Per-benchmark timeout, s.
    #[serde(deserialize_with = "float::lenient")]
    pub timeout_s: f64,
    /// Which samples summaries set aside.
    #[serde(default)]
    pub outliers: String,
    /// Measurements of each benchmark in a row (`--repetitions`).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub repetitions: usize,
    /// Processes of each binary (`--launches`).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub launches: usize,
    /// Interleaved rounds (`--interleave`); 1 when not interleaved.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub slices: usize,
    /// Fresh processes each benchmark is measured in (`--epochs`).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub epochs: usize,
}

fn one() -> usize {
    1
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

impl Context {
    /// This context with the code of `built`: its commit, compiler and
    /// build, for a run that measured executables `built` describes (a
    /// baseline's, `compare A B`) rather than the working tree's.
    pub fn code_of(self, built: &Context) -> Context {
        Context {
            git_commit: built.git_commit.clone(),
            git_no_commits: built.git_no_commits,
            git_dirty: built.git_dirty,
            rustc: built.rustc.clone(),
            profile: built.profile.clone(),
            build: built.build.clone(),
            ..self
        }
    }

    /// Gathers the context for a run in `workspace`.
    pub fn gather(
        workspace: &Path,
        profile: &str,
        settings: SettingsRecord,
        user: &[(String, String)],
    ) -> Context {
        let verbose = rustc_verbose();
        let git = |args: &[&str]| run(Command::new("git").args(args).current_dir(workspace));
        let git_commit = git(&["rev-parse", "HEAD"]).map(|s| s.trim().to_owned());
        let git_no_commits = git_commit.is_none() && git(&["rev-parse", "--git-dir"]).is_some();
        let git_dirty = git_commit
            .as_ref()
            .and_then(|_| git(&["status", "--porcelain", "--untracked-files=no"]))
            .map(|s| !s.trim().is_empty());
        Context {
            date: rfc3339(SystemTime::now()),
            git_commit,
            git_no_commits,
            git_dirty,
            rustc: rustc_version(verbose.as_deref()),
            profile: profile.to_owned(),
            host: verbose
                .as_deref()
                .and_then(|v| v.lines().find_map(|l| l.strip_prefix("host: ")))
                .map(str::to_owned),
            cpu_model: cpu_model(),
            cores: cores(),
            hostname: hostname(),
            governor: std::fs::read_to_string(
                "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
            )
            .ok()
            .map(|s| s.trim().to_owned()),
            turbo: turbo(),
            nbench_version: env!("CARGO_PKG_VERSION").to_owned(),
            settings,
            user: user.iter().cloned().collect(),
            build: None,
        }
    }

    /// `rustc --version` of the compiler cargo uses here.
    pub fn rustc() -> Option<String> {
        rustc_version(rustc_verbose().as_deref())
    }

    /// `0123456789ab (uncommitted changes)`: the commit, short, and whether
    /// the checkout had changes; `None` outside a git checkout.
    pub fn commit_label(&self) -> Option<String> {
        let h = self.git_commit.as_deref()?;
        let short = h.get(..12).unwrap_or(h);
        let dirty = if self.git_dirty == Some(true) {
            " (uncommitted changes)"
        } else {
            ""
        };
        Some(format!("{short}{dirty}"))
    }

    /// What reports say instead of a commit: `no commits yet` in a fresh
    /// repository, else `not a git checkout`.
    pub fn no_commit_label(&self) -> String {
        match self.git_no_commits {
            true => "no commits yet".to_owned(),
            false => "not a git checkout".to_owned(),
        }
    }

    /// `1 core`, `2 cores`.
    pub fn cores_label(&self) -> String {
        match self.cores {
            1 => "1 core".to_owned(),
            n => format!("{n} cores"),
        }
    }

    /// Turbo boost as reports show it: `on`, `off` or `unknown`.
    pub fn turbo_label(&self) -> &'static str {
        match self.turbo {
            Some(true) => "on",
            Some(false) => "off",
            None => "unknown",
        }
    }

    /// What about the machine makes its timings less steady, one warning each.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(g) = self.governor.as_deref().filter(|g| *g != "performance") {
            out.push(format!(
                "the CPU frequency governor is `{g}`, not `performance`: clock speeds follow the load, \
                 so timings vary more (`sudo cpupower frequency-set -g performance`)"
            ));
        }
        if self.turbo == Some(true) {
            out.push(
                "turbo boost is on: clock speeds depend on temperature and on the other cores' load"
                    .to_owned(),
            );
        }
        out
    }
}

/// Linux's turbo switch: intel_pstate's `no_turbo` (0 = on), or cpufreq's `boost` (1 = on).
fn turbo() -> Option<bool> {
    let read = |p: &str| std::fs::read_to_string(p).ok().map(|s| s.trim().to_owned());
    if let Some(v) = read("/sys/devices/system/cpu/intel_pstate/no_turbo") {
        return Some(v == "0");
    }
    read("/sys/devices/system/cpu/cpufreq/boost").map(|v| v == "1")
}

fn run(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(std::process::Stdio::null()).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Logical cores this process may use, as they were before the driver
/// pinned itself to one CPU (after which the system reports one): read
/// once, at the first call, which pinning makes first.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name") || l.starts_with("Model"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_owned())
}

/// `2026-11-22T12:55:06Z` for a time after 1970.
pub fn rfc3339(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The machine's host name: the kernel's, else `hostname`'s.
fn hostname() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| {
            let out = Command::new("hostname").output().ok()?;
            out.status
                .success()
                .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
        })
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day) 12:34:56
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_827_696)),
            "2000-02-29T12:34:56Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(1_795_350_906)),
            "2026-11-22T12:35:06Z"
        );
    }

    #[test]
    fn builds_differ_in_flags_and_target_but_not_features() {
        let then = BuildRecord {
            rustflags: vec!["--cfg".into(), "shapes_flag".into()],
            added: vec!["-Ccodegen-units=1".into()],
            features: vec!["extra".into()],
            ..BuildRecord::default()
        };
        assert_eq!(then.differences(&then.clone()), Vec::<String>::new());
        let features = BuildRecord {
            features: Vec::new(),
            ..then.clone()
        };
        assert_eq!(then.differences(&features), Vec::<String>::new());
        let now = BuildRecord {
            rustflags: vec![
                "--cfg".into(),
                "shapes_flag".into(),
                "-Coverflow-checks=on".into(),
            ],
            added: Vec::new(),
            target: Some("aarch64-unknown-linux-gnu".into()),
            ..then.clone()
        };
        assert_eq!(
            then.differences(&now),
            [
                "rustflags `--cfg shapes_flag` (now `--cfg shapes_flag -Coverflow-checks=on`)",
                "flags added by cargo nbench `-Ccodegen-units=1` (now none)",
                "target the host (now aarch64-unknown-linux-gnu)",
            ]
        );
    }

    #[test]
    fn a_swap_is_worth_a_word_only_where_the_sides_ran_on_other_front_ends() {
        let swapped = |libs: &[&str]| SwapRecord {
            libraries: libs.iter().map(|l| l.to_string()).collect(),
            dependencies: Vec::new(),
            manifests: vec!["Cargo.toml".to_owned()],
            ..SwapRecord::default()
        };
        let built = |swap: Option<SwapRecord>, fronts: &[&str]| BuildRecord {
            swap,
            front_ends: fronts.iter().map(|f| f.to_string()).collect(),
            ..BuildRecord::default()
        };
        let crit = || built(Some(swapped(&["criterion"])), &[]);
        let say = |a: &BuildRecord, b: &BuildRecord| SwapRecord::say(Some(a), Some(b));
        assert_eq!(say(&crit(), &crit()), None);
        assert_eq!(say(&built(None, &[]), &built(None, &[])), None);
        // A record that does not say what its side ran on.
        let one = say(&crit(), &built(None, &[])).unwrap();
        assert!(one.starts_with("the baseline is a revision"), "{one}");
        let both = built(Some(swapped(&["criterion", "divan"])), &[]);
        let other = say(&crit(), &both).unwrap();
        assert!(other.starts_with("both sides are revisions"), "{other}");
        // A revision swapped by cargo nbench against a working tree whose
        // manifest names nbench-criterion: the same front end.
        let swapped_rev = built(Some(swapped(&["criterion"])), &["nbench-criterion"]);
        let by_hand = built(None, &["nbench-criterion"]);
        assert_eq!(say(&swapped_rev, &by_hand), None);
        // The same, the revision saved before builds recorded front ends.
        assert_eq!(say(&crit(), &by_hand), None);
        // Against a suite rewritten on nbench's own API: said.
        let native = built(None, &["nbench"]);
        let said = say(&swapped_rev, &native).unwrap();
        assert!(said.starts_with("the baseline is a revision"), "{said}");
    }
}
