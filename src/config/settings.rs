//! [`Settings`]: the command line, `NBENCH_*` and the settings file resolved once into what each stage needs.

use super::{Config, Plans, apply_color, check_env, outputs};
use crate::build::{BuildOptions, Placement};
use crate::cli::{self, BaselineCmd, Cli, Sub};
use crate::discover::{self, Manifest, Selection};
use crate::error::{Error, Result};
use crate::model::names::check_baseline_name;
use crate::model::target::{BenchTarget, LIB};
use crate::report::{Format, Verbosity};
use crate::run::Plan;
use cargo_metadata::Metadata;
use nbench::__private::format::TimeUnit;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Build and run the benchmarks (and compare, with `--compare`).
    Run,
    /// `compare A B`: two saved baselines, nothing built.
    Compare {
        /// The baseline (or revision) compared against.
        a: String,
        /// The baseline (or revision) compared with A.
        b: String,
        /// A and B are git revisions.
        revisions: bool,
        /// Only benchmarks whose id contains one of these.
        filters: Vec<String>,
    },
    /// `baseline list|show|delete`.
    Baseline(BaselineAction),
    /// `merge FILE...`: shards' JSON as one report.
    Merge {
        /// The shards' JSON files.
        files: Vec<PathBuf>,
    },
    /// `report`: the HTML report again.
    Report,
    /// `config`: the effective settings.
    Config,
}

/// `cargo nbench baseline …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaselineAction {
    /// List saved baselines.
    List,
    /// Show one.
    Show(String),
    /// Delete one.
    Delete(String),
    /// Delete those unused for `older_than`: revisions' only, unless `all`.
    Prune {
        older_than: std::time::Duration,
        all: bool,
    },
}

/// Saving and comparing baselines.
#[derive(Debug, Clone, Default)]
pub struct CompareOptions {
    /// `--save-baseline NAME`.
    pub save_baseline: Option<String>,
    /// `--compare NAME`.
    pub baseline: Option<String>,
    /// `--compare-rev REV`: a git revision, built and saved as a baseline first.
    pub rev: Option<String>,
    /// `--compare-stored`: the baseline's stored samples, not its executables.
    pub stored: bool,
    /// Changes smaller than this are "unchanged" (0.005 = 0.5 %).
    pub noise_threshold: f64,
    /// Exit 4 when anything regressed.
    pub fail_on_regression: bool,
}

/// Where the report goes and how much it says.
#[derive(Debug, Clone)]
pub struct Output {
    /// What stdout gets.
    pub format: Format,
    /// Every `--out` file with its format.
    pub files: Vec<(PathBuf, Format)>,
    /// `--summary FILE`: Markdown appended.
    pub summary: Option<PathBuf>,
    /// `--time-unit`.
    pub time_unit: Option<TimeUnit>,
    /// `-q`, `-v` or neither.
    pub verbosity: Verbosity,
    /// `--context KEY=VALUE` pairs.
    pub context: Vec<(String, String)>,
}

impl Output {
    /// `-q`: the tables only.
    pub fn quiet(&self) -> bool {
        self.verbosity == Verbosity::Quiet
    }

    /// `-v`: settings, the timer, and every measurement's progress line.
    pub fn verbose(&self) -> bool {
        self.verbosity == Verbosity::Verbose
    }

    /// Whether the console gets progress and notes (the console format, not `-q`).
    pub fn chatty(&self) -> bool {
        self.format == Format::Console && !self.quiet()
    }
}

/// Everything a command needs, resolved once.
#[derive(Clone)]
pub struct Settings {
    /// What to do.
    pub command: Command,
    /// The workspace, as `cargo metadata` read it.
    pub meta: Metadata,
    /// Where the workspace is and how cargo may read it.
    pub manifest: Manifest,
    /// Which packages and bench targets.
    pub selection: Selection,
    /// How to build them.
    pub build: BuildOptions,
    /// Each target's plan (the run's: [`Settings::plan`]; one target's:
    /// [`Settings::plan_for`]).
    plans: Plans,
    /// Each target's plan on a revision's side of `--compare-rev`.
    revision_plans: Plans,
    /// `cargo nbench config`'s table.
    shown: String,
    /// `--list`: list instead of measuring.
    pub list: bool,
    /// Baselines.
    pub compare: CompareOptions,
    /// The report.
    pub output: Output,
}

impl Settings {
    /// How to measure where no `[bench.NAME]` table says otherwise.
    pub fn plan(&self) -> &Plan {
        self.plans.all()
    }

    /// The plan for one bench target: `[bench.NAME]`'s settings over the others.
    pub fn plan_for(&self, target: &BenchTarget) -> Plan {
        self.plans.for_target(target).clone()
    }

    /// Whether any target's benchmarks have their instructions counted.
    pub fn counts_instructions(&self) -> bool {
        self.plans.any_instructions()
    }

    /// `cargo nbench config`: every setting, its value and where it came from.
    pub fn show(&self) -> &str {
        &self.shown
    }

    /// The names of `[bench.NAME]` tables that name no bench target of the workspace.
    pub fn unknown_bench_tables(&self) -> Vec<String> {
        let targets: Vec<(String, String)> = self
            .meta
            .workspace_packages()
            .iter()
            .flat_map(|p| {
                // A library is a bench target too, by the name `lib`.
                let lib = (p.targets.iter().any(|t| t.is_lib() || t.is_rlib()))
                    .then(|| (LIB.to_owned(), format!("{}/{LIB}", p.name)));
                // So is a binary, by its own.
                (p.targets.iter())
                    .filter(|t| t.is_bench() || t.is_bin())
                    .map(|t| (t.name.clone(), format!("{}/{}", p.name, t.name)))
                    .chain(lib)
            })
            .collect();
        (self.plans.tables())
            .filter(|n| !targets.iter().any(|(name, label)| n == name || n == label))
            .map(str::to_owned)
            .collect()
    }

    /// The settings a revision's side of `--compare-rev` is built, measured
    /// and saved with: this run's, for the revision checked out at
    /// `manifest` and built in `target_dir` (which every revision shares,
    /// so dependencies compile once), its build output marked `[mark]`;
    /// every benchmark of the selected packages, listed (not measured),
    /// nothing reported.
    pub fn for_revision(&self, manifest: &Path, target_dir: &Path, mark: &str) -> Result<Settings> {
        let manifest = Manifest {
            manifest_path: Some(manifest.to_path_buf()),
            target_dir: Some(target_dir.to_path_buf()),
            offline: self.manifest.offline,
            // The revision's own lock file may differ from this one's.
            locked: false,
            frozen: false,
        };
        let meta = discover::metadata(&manifest)?;
        Ok(Settings {
            command: Command::Run,
            selection: Selection {
                benches: Vec::new(),
                ..self.selection.clone()
            },
            build: BuildOptions {
                manifest: manifest.clone(),
                stable_dir: self
                    .build
                    .stable_dir
                    .as_ref()
                    .map(|_| target_dir.join("nbench/build")),
                revision: Some(mark.to_owned()),
                workspace_root: meta.workspace_root.clone().into(),
                own_packages: discover::own_packages(&meta),
                ..self.build.clone()
            },
            plans: self.revision_plans.clone(),
            revision_plans: self.revision_plans.clone(),
            shown: String::new(),
            list: false,
            compare: CompareOptions::default(),
            output: Output {
                files: Vec::new(),
                summary: None,
                ..self.output.clone()
            },
            manifest,
            meta,
        })
    }

    /// cargo's target directory.
    pub fn target_dir(&self) -> PathBuf {
        discover::target_dir(&self.manifest, &self.meta)
    }
}

/// Reads the command line `args` (`cargo-nbench nbench …`), the `NBENCH_*`
/// variables and the workspace's settings file, and turns colour on or off.
pub fn resolve(args: Vec<OsString>) -> Result<Settings> {
    check_env().map_err(Error::Usage)?;
    let (mut first, matches) = parse(args)?;
    super::bench_args::take(&mut first)?;
    apply_color(first.color);
    if let Some(dir) = first.target_dir.as_ref().filter(|d| d.is_file()) {
        return Err(Error::Usage(format!(
            "--target-dir `{}` is a file; give a directory (it is made if missing)",
            dir.display()
        )));
    }
    let meta = discover::metadata(&manifest(&first))?;
    let file = super::file::find(&meta)?;
    let layers = Config::load(first, &matches, meta.workspace_root.as_std_path(), file);
    let cli = layers.cli(None)?;
    apply_color(cli.color);
    // A bad --out (flag, variable or file) is reported before anything is built or measured.
    let files = outputs(&cli)?;
    let plans = layers.plans()?;
    let command = command(&cli)?;
    let shown = match command {
        Command::Config => layers.show()?,
        _ => String::new(),
    };
    let target = discover::target_dir(&manifest(&cli), &meta);
    Ok(Settings {
        command,
        manifest: manifest(&cli),
        selection: Selection {
            packages: cli.packages.clone(),
            workspace: cli.workspace,
            exclude: cli.exclude.clone(),
            // The library and binaries are selected as the bench targets
            // they are run as.
            benches: (cli.benches.iter().cloned())
                .chain(cli.lib.then(|| LIB.to_owned()))
                .chain(cli.bins.iter().cloned())
                .collect(),
        },
        build: build_options(&cli, &meta, &target),
        plans,
        revision_plans: layers.for_revision().plans()?,
        shown,
        list: cli.list,
        compare: CompareOptions {
            save_baseline: cli.save_baseline.clone(),
            baseline: cli.compare.clone(),
            rev: cli.compare_rev.clone(),
            stored: cli.compare_stored,
            noise_threshold: cli.noise_threshold / 100.0,
            fail_on_regression: cli.fail_on_regression,
        },
        output: Output {
            format: cli.format.into(),
            files,
            summary: cli.summary.clone(),
            time_unit: cli.time_unit.map(TimeUnit::from),
            verbosity: cli.verbosity(),
            context: cli.context.clone(),
        },
        meta,
    })
}

/// How the command line `cli` builds the workspace `meta`, whose target
/// directory is `target`.
fn build_options(cli: &Cli, meta: &Metadata, target: &Path) -> BuildOptions {
    BuildOptions {
        manifest: manifest(cli),
        features: cli.features.clone(),
        all_features: cli.all_features,
        no_default_features: cli.no_default_features,
        profile: cli.profile.clone(),
        jobs: cli.jobs.clone(),
        quiet: cli.quiet,
        layouts: layouts(cli),
        kept_layouts: kept_layouts(cli),
        layout_seed: cli.layout_seed,
        placement: cli.placement.into(),
        stable_dir: (Placement::from(cli.placement) == Placement::Stable)
            .then(|| target.join("nbench/build")),
        revision: None,
        workspace_root: meta.workspace_root.clone().into(),
        own_packages: discover::own_packages(meta),
        libtest_dir: target.join("nbench/libtest"),
        libtest: None,
    }
}

/// Link layouts per target: `--layouts`, else [`DEFAULT_LAYOUTS`] when a
/// baseline is saved or compared with its executables, else one. A
/// `--layout-seed` with one layout asks for that one shuffled.
pub(super) fn layouts(cli: &Cli) -> usize {
    let paired = cli.save_baseline.is_some()
        || cli.compare_rev.is_some()
        || (cli.compare.is_some() && !cli.compare_stored)
        || matches!(cli.command, Some(Sub::Compare { rev: true, .. }));
    match cli.layouts {
        Some(k) => k as usize,
        None if paired && !cli.list => DEFAULT_LAYOUTS,
        None => 1,
    }
}

/// Link layouts of a build kept for comparisons to come, whatever this
/// command is: `--layouts`, else [`DEFAULT_LAYOUTS`].
fn kept_layouts(cli: &Cli) -> usize {
    cli.layouts.map_or(DEFAULT_LAYOUTS, |k| k as usize)
}

/// Layouts built by default for comparisons. The change is averaged over
/// the layouts each side has, so their number bounds how well placement
/// averages out: with 8 a side, an allocation loop that placement moves
/// ±0.5 % a layout (and its processes ±1.3 %) read a 1 % slower build
/// ±0.36 % from draw to draw and its interval took the t quantile of 7
/// degrees of freedom (2.36); 16 halve the layouts' share of the variance
/// and give 15 (2.13). Each layout costs a link of the bench target.
pub const DEFAULT_LAYOUTS: usize = 16;

/// The command line as clap reads it, with a subcommand given after
/// options moved first (see [`subcommand_first`]).
fn parse(args: Vec<OsString>) -> Result<(Cli, clap::ArgMatches)> {
    match cli::parse_from(&args) {
        Ok((first, matches)) => {
            let word = first.filters.first().filter(|_| first.command.is_none());
            match word.and_then(|w| subcommand_first(&args, w)) {
                Some(reordered) => cli::parse_from(&reordered).map_err(Error::Cli),
                None => Ok((first, matches)),
            }
        }
        // A subcommand's own option after a global one (`--max-time 1s
        // compare --rev A B`) fails at the top level: the same line with the
        // subcommand first may not.
        Err(error) => {
            let reordered = args
                .iter()
                .skip(2)
                .take_while(|a| *a != "--")
                .find_map(|a| subcommand_first(&args, a.to_str()?))
                .filter(|r| *r != args);
            match reordered.map(|r| cli::parse_from(&r)) {
                Some(Ok(parsed)) => Ok(parsed),
                _ => Err(Error::Cli(error)),
            }
        }
    }
}

/// `cargo nbench --target-dir DIR baseline delete main`: clap reads a
/// subcommand after an option as filters (and would run the benchmarks
/// filtered by `baseline`, `delete` and `main`). The same line with the
/// subcommand first, the options after it (they are global), or `None`
/// when the first filter names no subcommand.
fn subcommand_first(args: &[OsString], word: &str) -> Option<Vec<OsString>> {
    let command = cli::command();
    let nbench = command.find_subcommand("nbench")?;
    nbench.find_subcommand(word)?;
    let at = 2 + args.iter().skip(2).position(|a| a == word)?;
    let tail = &args[at..];
    let rest = tail.iter().position(|a| a == "--").unwrap_or(tail.len());
    let mut out = args[..2].to_vec();
    out.extend_from_slice(&tail[..rest]);
    out.extend_from_slice(&args[2..at]);
    out.extend_from_slice(&tail[rest..]);
    Some(out)
}

fn manifest(cli: &Cli) -> Manifest {
    Manifest {
        manifest_path: cli.manifest_path.clone(),
        target_dir: cli.target_dir.clone(),
        locked: cli.locked,
        offline: cli.offline,
        frozen: cli.frozen,
    }
}

/// `compare A B` takes a run's flags where they mean something: the
/// selection and measuring flags always, the build flags with `--rev`
/// (building is what they change). The others are refused, saying why.
fn refuse_for_compare(cli: &Cli, revisions: bool) -> Result<()> {
    let always = [
        (
            cli.save_baseline.is_some(),
            "--save-baseline",
            "a comparison of two baselines saves none",
        ),
        (
            cli.compare.is_some(),
            "--compare",
            "A and B are the two sides",
        ),
        (
            cli.compare_rev.is_some(),
            "--compare-rev",
            "A and B are the two sides (with --rev, revisions)",
        ),
    ];
    let builds = [
        (!cli.features.is_empty(), "--features"),
        (cli.all_features, "--all-features"),
        (cli.no_default_features, "--no-default-features"),
        (cli.profile != "bench", "--profile"),
        (cli.jobs.is_some(), "--jobs"),
        (cli.locked, "--locked"),
        (cli.offline, "--offline"),
        (cli.frozen, "--frozen"),
        (cli.layouts.is_some(), "--layouts"),
        (cli.layout_seed.is_some(), "--layout-seed"),
        (
            Placement::from(cli.placement) != Placement::Stable,
            "--placement",
        ),
    ];
    let why = always
        .iter()
        .find(|(given, ..)| *given)
        .map(|(_, flag, why)| format!("`compare` does not take {flag}: {why}"))
        .or_else(|| {
            builds
                .iter()
                .find(|(given, _)| *given && !revisions)
                .map(|(_, flag)| {
                    format!(
                        "`compare A B` builds nothing, so {flag} has nothing to change \
                         (it applies with --rev, where A and B are built)"
                    )
                })
        });
    why.map_or(Ok(()), |w| Err(Error::Usage(w)))
}

fn command(cli: &Cli) -> Result<Command> {
    Ok(match &cli.command {
        None => Command::Run,
        Some(Sub::Compare { a, b, rev, filters }) => {
            refuse_for_compare(cli, *rev)?;
            if !rev {
                for name in [a, b] {
                    check_baseline_name(name).map_err(|e| {
                        Error::Usage(format!("{e} (with --rev, A and B are git revisions)"))
                    })?;
                }
            }
            Command::Compare {
                a: a.clone(),
                b: b.clone(),
                revisions: *rev,
                filters: filters.clone(),
            }
        }
        Some(Sub::Baseline(cmd)) => Command::Baseline(match cmd {
            BaselineCmd::List => BaselineAction::List,
            BaselineCmd::Show { name } => BaselineAction::Show(name.clone()),
            BaselineCmd::Delete { name } => BaselineAction::Delete(name.clone()),
            BaselineCmd::Prune { older_than, all } => BaselineAction::Prune {
                older_than: *older_than,
                all: *all,
            },
        }),
        Some(Sub::Merge { files }) => Command::Merge {
            files: files.clone(),
        },
        Some(Sub::Report) => Command::Report,
        Some(Sub::Config) => Command::Config,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_help_tells_the_default_layouts() {
        let mut cargo = crate::cli::Cargo::command();
        let nbench = cargo.find_subcommand_mut("nbench").expect("the subcommand");
        let layouts = (nbench.get_arguments())
            .find(|a| a.get_long() == Some("layouts"))
            .expect("--layouts");
        let help = layouts.get_help().expect("its help").to_string();
        let said = format!("[default: {DEFAULT_LAYOUTS} with --save-baseline or --compare");
        assert!(help.contains(&said), "{help}");
    }

    #[test]
    fn a_build_kept_for_comparisons_takes_their_layouts_whatever_the_command() {
        let both = |args: &[&str]| {
            let line = ["cargo", "nbench"].iter().chain(args).map(OsString::from);
            let (cli, _) = parse(line.collect()).expect("a valid line");
            (layouts(&cli), kept_layouts(&cli))
        };
        assert_eq!(both(&[]), (1, DEFAULT_LAYOUTS));
        assert_eq!(both(&["--list"]), (1, DEFAULT_LAYOUTS));
        let saved = both(&["--save-baseline", "main"]);
        assert_eq!(saved, (DEFAULT_LAYOUTS, DEFAULT_LAYOUTS));
        assert_eq!(both(&["--layouts", "3"]), (3, 3));
    }
}
