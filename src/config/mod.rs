//! Resolved settings: flags, then `NBENCH_*`, then the settings file, then built-in defaults.
//!
//! The only reader of the command line: everything below takes the
//! [`Settings`] (or the part of them it needs) resolved here.

mod bench_args;
pub mod file;
pub mod keys;
mod settings;

use crate::cli::{Cli, Color};
use crate::error::{Error, Result};
use crate::model::context::SettingsRecord;
use crate::model::target::BenchTarget;
use crate::report::Format;
use crate::run::Plan;
use crate::run::schedule::Schedule;
use clap::ValueEnum;
use clap::parser::ValueSource;
use file::FileConfig;
use keys::{KEYS, Key};
use nbench::__private::engine::Open;
use nbench::__private::engine::Settings as Measuring;
use nbench::__private::select::{Filter, Ignored};
use std::path::{Path, PathBuf};

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The command line.
    Flag,
    /// An `NBENCH_*` variable.
    Env,
    /// The settings file.
    File,
    /// The default.
    BuiltIn,
}

#[cfg(test)]
pub use settings::DEFAULT_LAYOUTS;
pub use settings::{BaselineAction, Command, Output, Settings, resolve};

/// A bench target as a `[bench.NAME]` table names it: (name, `package/name`).
pub type Named<'a> = (&'a str, &'a str);

/// Each bench target's plan, resolved once from the flags, variables and
/// settings file: the run's, or a `[bench.NAME]` table's over it.
#[derive(Debug, Clone)]
pub struct Plans {
    all: Plan,
    tables: Vec<(String, Plan)>,
}

impl Plans {
    /// The plan of every target no table names.
    pub fn all(&self) -> &Plan {
        &self.all
    }

    /// The plan of `target`: that of the table naming its label, else its
    /// name, else the run's.
    pub fn for_target(&self, target: &BenchTarget) -> &Plan {
        let table = |key: &str| self.tables.iter().find(|(t, _)| t == key);
        (table(&target.label()).or_else(|| table(&target.name))).map_or(&self.all, |(_, plan)| plan)
    }

    /// Whether any target's plan counts instructions.
    pub fn any_instructions(&self) -> bool {
        self.all.instructions || self.tables.iter().any(|(_, p)| p.instructions)
    }

    /// The `[bench.NAME]` tables' names.
    pub fn tables(&self) -> impl Iterator<Item = &str> {
        self.tables.iter().map(|(t, _)| t.as_str())
    }
}

/// The command line over the settings file.
#[derive(Debug, Clone)]
pub struct Config {
    line: Cli,
    given: Vec<(Key, Source)>,
    file: Option<FileConfig>,
    root: PathBuf,
}

impl Config {
    /// The command line `line`, as clap found it in `matches`, over the
    /// workspace's settings file.
    pub fn load(
        line: Cli,
        matches: &clap::ArgMatches,
        workspace_root: &Path,
        file: Option<FileConfig>,
    ) -> Config {
        let given = KEYS
            .iter()
            .filter_map(|&k| match matches.value_source(&k.id()) {
                Some(ValueSource::CommandLine) => Some((k, Source::Flag)),
                Some(ValueSource::EnvVariable) => Some((k, Source::Env)),
                _ => None,
            })
            .collect();
        Config {
            line,
            given,
            file,
            root: workspace_root.to_path_buf(),
        }
    }

    /// The layers a revision's side of `--compare-rev` is resolved from:
    /// these, with nothing filtered or left out (its baseline lists every
    /// benchmark of its packages, so that a later comparison selecting
    /// others reuses it), and no instructions counted. Its baseline is
    /// listed, not measured: its executables are what a comparison runs,
    /// in lockstep, and counts. (Measured briefly, 20–100 ms a benchmark,
    /// saving took 81–91 s a revision for itertools' 927 benchmarks and
    /// over 10 minutes for range-set-blaze's 222 of one target.)
    pub(super) fn for_revision(&self) -> Config {
        let mut c = self.clone();
        let line = &mut c.line;
        line.filters.clear();
        line.skip.clear();
        line.benches.clear();
        line.exact = false;
        line.ignored = false;
        line.include_ignored = false;
        line.list = false;
        line.metrics = Some(false);
        let key = Key::named("metrics").expect("a key");
        c.given.retain(|(k, _)| *k != key);
        c.given.push((key, Source::Flag));
        c
    }

    /// Where `key`'s value comes from (for bench target `target`, if given).
    pub fn source(&self, key: Key, target: Option<Named<'_>>) -> Source {
        if let Some((_, s)) = self.given.iter().find(|(k, _)| *k == key) {
            return s.clone();
        }
        match self.file_values(key, target) {
            Some(_) => Source::File,
            None => Source::BuiltIn,
        }
    }

    fn file_values(&self, key: Key, target: Option<Named<'_>>) -> Option<&[String]> {
        let file = self.file.as_ref()?;
        let for_target = target.and_then(|(name, label)| {
            file.benches
                .iter()
                .filter(|(table, _)| table == name || table == label)
                .flat_map(|(_, list)| list)
                .find(|(k, _)| *k == key)
        });
        for_target
            .or_else(|| file.global.iter().find(|(k, _)| *k == key))
            .map(|(_, v)| v.as_slice())
    }

    /// The effective command line: the file's settings where no flag or
    /// variable gave one, `[bench.NAME]`'s first for `target`.
    pub fn cli(&self, target: Option<Named<'_>>) -> Result<Cli> {
        let mut cli = self.line.clone();
        for &key in KEYS {
            if self.source(key, target) != Source::File {
                continue;
            }
            for value in self.file_values(key, target).unwrap_or_default() {
                key.set(&mut cli, value)
                    .map_err(|e| Error::Usage(format!("`{}` = `{value}`: {e}", key.name)))?;
            }
        }
        Ok(cli)
    }

    /// The plan of every bench target: the run's, and for each
    /// `[bench.NAME]` table the plan of a target it names (a table named
    /// `package/target` with the one named `target`, if any, under it).
    pub fn plans(&self) -> Result<Plans> {
        let mut tables = Vec::new();
        for table in self.bench_tables() {
            let named = match table.split_once('/') {
                Some((_, name)) => (name, table.as_str()),
                None => (table.as_str(), ""),
            };
            tables.push((table.clone(), plan(&self.cli(Some(named))?)));
        }
        Ok(Plans {
            all: plan(&self.cli(None)?),
            tables,
        })
    }

    /// The names of the settings file's `[bench.NAME]` tables.
    fn bench_tables(&self) -> Vec<String> {
        self.file
            .iter()
            .flat_map(|f| &f.benches)
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Where the file's settings are, as `cargo nbench config` names it.
    fn file_label(&self) -> String {
        match &self.file {
            Some(f) => {
                let path = f.path.strip_prefix(&self.root).unwrap_or(&f.path);
                match f.prefix.trim_end_matches('.') {
                    "" => path.display().to_string(),
                    table => format!("{} [{table}]", path.display()),
                }
            }
            None => String::new(),
        }
    }

    /// `cargo nbench config`: every setting, its value and where it came from.
    pub fn show(&self) -> Result<String> {
        let cli = self.cli(None)?;
        let plan = plan(&cli);
        let from = |key: Key, source: Source| match source {
            Source::Flag => format!("flag --{}", key.name),
            Source::Env => format!("env {}", key.env()),
            Source::File => self.file_label(),
            Source::BuiltIn => "built-in".to_owned(),
        };
        let mut rows = vec![("setting".to_owned(), "value".to_owned(), "from".to_owned())];
        for &key in KEYS {
            let source = from(key, self.source(key, None));
            rows.push((key.name.to_owned(), effective(key, &cli, &plan), source));
        }
        for (target, list) in self.file.iter().flat_map(|f| &f.benches) {
            for (key, values) in list {
                let note = match self.source(*key, None) {
                    s @ (Source::Flag | Source::Env) => {
                        format!(" (overridden by the {})", from(*key, s))
                    }
                    _ => String::new(),
                };
                let name = format!("bench.{target}.{}", key.name);
                rows.push((name, values.join(", "), self.file_label() + &note));
            }
        }
        let w0 = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0) + 2;
        let w1 = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0) + 2;
        let mut out = String::new();
        for (name, value, from) in rows {
            out += &format!("{name:<w0$}{value:<w1$}{from}\n");
        }
        Ok(out)
    }
}

/// An `NBENCH_*` variable whose value its flag would refuse, as a message
/// naming the variable (clap's own would name only the flag).
fn check_env() -> std::result::Result<(), String> {
    let cmd = crate::cli::command();
    let Some(nbench) = cmd.find_subcommand("nbench") else {
        return Ok(());
    };
    for arg in nbench.get_arguments() {
        let (Some(env), Some(long)) = (arg.get_env(), arg.get_long()) else {
            continue;
        };
        let Some(value) = std::env::var_os(env) else {
            continue;
        };
        let checked = if arg.get_action().takes_values() {
            check(long, &value.to_string_lossy())
        } else {
            switch_value(&value.to_string_lossy())
        };
        if let Err(e) = checked {
            return Err(format!(
                "`{}={}`: {e}",
                env.to_string_lossy(),
                value.to_string_lossy()
            ));
        }
    }
    Ok(())
}

/// Whether a switch's variable holds a value that turns it on or off.
fn switch_value(value: &str) -> std::result::Result<(), String> {
    const WORDS: [&str; 8] = ["1", "0", "yes", "no", "on", "off", "true", "false"];
    match WORDS.contains(&value.trim().to_ascii_lowercase().as_str()) {
        true => Ok(()),
        false => Err(format!("expected one of: {}", WORDS.join(", "))),
    }
}

/// Whether `--long=value` is a value the flag accepts; else what it expects:
/// an `NBENCH_*` variable's value, judged by clap as the flag's would be.
/// (Only the value is judged: a flag that needs another one is not an error here.)
fn check(long: &str, value: &str) -> std::result::Result<(), String> {
    use clap::CommandFactory;
    use clap::error::ErrorKind;
    let flag = format!("--{long}={value}");
    match crate::cli::Cargo::command().try_get_matches_from(["cargo-nbench", "nbench", &flag]) {
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::ValueValidation | ErrorKind::InvalidValue
            ) =>
        {
            Err(clap_reason(&e))
        }
        _ => Ok(()),
    }
}

/// What clap found wrong, without its usage lines.
fn clap_reason(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    if let Some(source) = std::error::Error::source(e) {
        return source.to_string();
    }
    if let Some(ContextValue::Strings(valid)) = e.get(ContextKind::ValidValue) {
        return format!("expected one of: {}", valid.join(", "));
    }
    let text = e.to_string();
    let first = text.lines().next().unwrap_or_default();
    first.trim_start_matches("error: ").to_owned()
}

/// A setting's value as the run uses it.
fn effective(key: Key, cli: &Cli, plan: &Plan) -> String {
    let s = &plan.settings;
    let name = |v: Option<clap::builder::PossibleValue>| {
        v.map_or(String::new(), |v| v.get_name().to_owned())
    };
    match key.name {
        "warm-up" => format!("{:?}", s.warm_up),
        "min-time" => format!("{:?}", s.min_time),
        "max-time" => format!("{:?}", s.max_time),
        "precision" => format!("{}%", s.precision * 100.0),
        "min-samples" => s.min_samples.to_string(),
        "max-samples" => s.max_samples.to_string(),
        "outliers" => s.outliers.as_str().to_owned(),
        "timeout" => format!("{:?}", plan.timeout),
        "repetitions" => plan.schedule.repetitions.to_string(),
        "launches" => plan.schedule.launches.to_string(),
        "epochs" => plan.schedule.epochs.to_string(),
        "metrics" if plan.instructions => "time,instructions".to_owned(),
        "metrics" => "time".to_owned(),
        "interleave" if plan.schedule.slices == 1 => "(off)".to_owned(),
        "interleave" => format!("{} slices", plan.schedule.slices),
        "layouts" => settings::layouts(cli).to_string(),
        "placement" => name(cli.placement.to_possible_value()),
        "noise-threshold" => format!("{}%", cli.noise_threshold),
        "format" => name(cli.format.to_possible_value()),
        "out" if cli.out.is_empty() => "(none)".to_owned(),
        "out" => cli
            .out
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        "out-format" => cli
            .out_format
            .and_then(|f| f.to_possible_value())
            .map_or("(by extension)".into(), |v| v.get_name().to_owned()),
        "time-unit" => cli
            .time_unit
            .and_then(|u| u.to_possible_value())
            .map_or("(per value)".into(), |v| v.get_name().to_owned()),
        "color" => name(cli.color.to_possible_value()),
        _ => String::new(),
    }
}

/// The measurement plan for this invocation.
/// Epochs when `--epochs` is not given: the default, or fewer where
/// `--max-samples` could not give every epoch two samples (each epoch
/// takes at least two, and the cap is the user's word).
fn default_epochs(max_samples: usize) -> usize {
    crate::compare::estimate::DEFAULT_EPOCHS.min((max_samples / 2).max(1))
}

fn plan(cli: &Cli) -> Plan {
    let d = Measuring::default();
    Plan {
        filter: Filter {
            filters: cli.filters.clone(),
            skip: cli.skip.clone(),
            exact: cli.exact,
            ignored: if cli.ignored {
                Ignored::Only
            } else if cli.include_ignored {
                Ignored::Include
            } else {
                Ignored::Skip
            },
        },
        settings: Measuring {
            warm_up: cli.warm_up.unwrap_or(d.warm_up),
            min_time: cli.min_time.unwrap_or(d.min_time),
            max_time: cli.max_time.unwrap_or(d.max_time),
            precision: cli.precision.map_or(d.precision, |p| p / 100.0),
            min_samples: cli.min_samples.map_or(d.min_samples, |n| n as usize),
            max_samples: cli.max_samples.map_or(d.max_samples, |n| n as usize),
            timer_factor: d.timer_factor,
            outliers: cli.outliers.unwrap_or(d.outliers),
        },
        // A flag, a variable or the settings file gave these, or none did.
        open: Open {
            time: cli.min_time.is_none() && cli.max_time.is_none(),
            warm_up: cli.warm_up.is_none(),
            min_samples: cli.min_samples.is_none(),
        },
        timeout: cli.timeout,
        extra_args: cli.bench_args.clone(),
        nocapture: cli.nocapture,
        schedule: Schedule {
            repetitions: cli.repetitions.unwrap_or(1) as usize,
            slices: cli.interleave.unwrap_or(1) as usize,
            launches: cli.launches.unwrap_or(1) as usize,
            epochs: cli.epochs.map_or(
                default_epochs(cli.max_samples.map_or(d.max_samples, |n| n as usize)),
                |n| n as usize,
            ),
            // A new order every run; nothing depends on repeating one.
            seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64),
        },
        held: None,
        partition: cli.partition,
        selected_before: 0,
        instructions: cli.metrics.unwrap_or(false),
        earlier: Default::default(),
    }
}

/// The settings as stored with a run.
pub fn settings_record(plan: &Plan) -> SettingsRecord {
    let s = &plan.settings;
    SettingsRecord {
        warm_up_s: s.warm_up.as_secs_f64(),
        min_time_s: s.min_time.as_secs_f64(),
        max_time_s: s.max_time.as_secs_f64(),
        precision: s.precision,
        min_samples: s.min_samples,
        max_samples: s.max_samples,
        timeout_s: plan.timeout.as_secs_f64(),
        outliers: s.outliers.as_str().to_owned(),
        repetitions: plan.schedule.repetitions,
        launches: plan.schedule.launches,
        slices: plan.schedule.slices,
        epochs: plan.schedule.epochs,
    }
}

/// Turns colour on or off for stdout and stderr: `--color`, then `NO_COLOR`, then whether each is a terminal.
pub fn apply_color(choice: Color) {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (out, err) = match choice {
        Color::Always => (true, true),
        Color::Never => (false, false),
        Color::Auto if no_color => (false, false),
        Color::Auto => (
            console::Term::stdout().features().colors_supported(),
            console::Term::stderr().features().colors_supported(),
        ),
    };
    console::set_colors_enabled(out);
    console::set_colors_enabled_stderr(err);
}

/// Every `--out` file with the format it gets: `--out-format`, else the one
/// its extension names; a file whose extension names none is a usage error.
fn outputs(cli: &Cli) -> Result<Vec<(PathBuf, Format)>> {
    cli.out
        .iter()
        .map(|path| {
            match cli
                .out_format
                .map(Format::from)
                .or_else(|| Format::from_extension(path))
            {
                Some(f) => Ok((path.clone(), f)),
                None => Err(Error::OutFormat(path.clone())),
            }
        })
        .collect()
}
