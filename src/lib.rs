//! `cargo nbench`: find bench targets, build them, drive them over the channel, store and report.
//!
//! The pipeline, one module each: [`cli`] → [`config`] → [`discover`] →
//! [`build`] → [`run`] → [`store`] → [`report`].

pub mod baseline;
pub mod build;
pub mod cli;
pub mod compare;
pub mod config;
pub mod context;
pub mod discover;
pub mod error;
pub mod report;
pub mod run;
pub mod store;

use cli::{Cli, Format};
use console::style;
use error::{Error, Result, exit};
use report::record::{RunRecord, SCHEMA_VERSION, SkippedRecord, TargetRecord};
use std::process::ExitCode;
use std::time::Instant;

/// Parses the command line, runs, and turns the outcome into an exit code.
pub fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Err(e) = cli::check_env() {
        eprintln!("{}: {e}", style("error").red().bold());
        return ExitCode::from(exit::USAGE);
    }
    let (cli, matches) = match cli::parse_from(&args) {
        Ok(parsed) => parsed,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                exit::USAGE
            } else {
                exit::SUCCESS
            });
        }
    };
    config::apply_color(cli.color);
    match run(args, &cli, &matches) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("{}: {e}", style("error").red().bold());
            if let Some(hint) = e.hint() {
                eprintln!("  {}: {hint}", style("hint").cyan().bold());
            }
            ExitCode::from(e.exit_code())
        }
    }
}

fn note(text: &str) {
    eprintln!("{}: {text}", style("note").cyan().bold());
}

fn run(args: Vec<std::ffi::OsString>, cli: &Cli, matches: &clap::ArgMatches) -> Result<u8> {
    let meta = discover::metadata(cli)?;
    let file = config::file::find(&meta)?;
    let config = config::Config::load(args, matches, meta.workspace_root.as_std_path(), file);
    let cli = &config.cli(None)?;
    config::apply_color(cli.color);
    // A bad --out (flag, variable or file) is reported before anything is built or measured.
    config::outputs(cli)?;
    match &cli.command {
        Some(cli::Sub::Baseline(cmd)) => return baseline::run(cli, &meta, cmd),
        Some(cli::Sub::Compare { a, b, filters }) => {
            let (record, runs) = compare::saved::run(cli, &meta, a, b, filters)?;
            return emit(cli, &record, &runs, None, false);
        }
        Some(cli::Sub::Report) => return rebuild_report(cli, &meta),
        Some(cli::Sub::Config) => {
            print!("{}", config.show()?);
            return Ok(exit::SUCCESS);
        }
        None => {}
    }
    if cli.compare.is_none() {
        for (set, flag) in [
            (cli.fail_on_regression, "--fail-on-regression"),
            (cli.compare_stored, "--compare-stored"),
        ] {
            if set {
                return Err(Error::Usage(format!(
                    "{flag} needs a comparison: add --compare NAME, or use `cargo nbench compare A B`"
                )));
            }
        }
    }
    let started = Instant::now();
    let plan = config::plan(cli);
    if cli.compare.is_some() && !cli.compare_stored && !plan.schedule.is_single() {
        eprintln!(
            "{}: --repetitions, --launches and --interleave shape fresh measurements; \
             --compare samples both versions in lockstep over fresh process pairs instead \
             (they still apply where a baseline executable cannot run)",
            console::style("warning").for_stderr().yellow().bold()
        );
    }
    let found = discover::discover(cli, &meta)?;
    let mut skipped: Vec<SkippedRecord> = found
        .skipped
        .iter()
        .map(|s| SkippedRecord {
            target: s.label.clone(),
            reason: s.reason.clone(),
        })
        .collect();
    if found.targets.is_empty() {
        for s in &skipped {
            note(&format!(
                "skipped bench target `{}`: {}",
                s.target, s.reason
            ));
        }
        return Err(Error::NoTargets(String::new()));
    }
    let store = store::Store::new(&found.target_dir);
    // Taken before anything runs: a second run saving the same baseline is
    // refused at once, and a corrupt baseline is reported before any work.
    let baseline_lock = match &cli.save_baseline {
        Some(name) => {
            let lock = store.baselines().lock(name)?;
            store.baselines().load(name)?;
            Some((name, lock))
        }
        None => None,
    };
    let compare_with = match &cli.compare {
        Some(name) => Some(
            store
                .baselines()
                .load(name)?
                .ok_or_else(|| Error::NoBaseline(name.clone()))?,
        ),
        None => None,
    };
    let built = build::build(cli, &found.targets)?;
    let mut nbench_targets = Vec::new();
    for b in built {
        match run::is_nbench_binary(&b.exe) {
            Ok(true) => nbench_targets.push(b),
            Ok(false) => skipped.push(SkippedRecord {
                target: b.target.label(),
                reason: "its executable does not link the nbench harness (criterion, divan or a hand-written main?)"
                    .to_owned(),
            }),
            Err(e) => return Err(Error::io("could not read", &b.exe, e)),
        }
    }
    for s in &skipped {
        note(&format!(
            "skipped bench target `{}`: {}",
            s.target, s.reason
        ));
    }
    if nbench_targets.is_empty() {
        return Err(Error::NoTargets(String::new()));
    }

    // `[bench.NAME]` tables of the settings file give a target settings of its own.
    let plans = nbench_targets
        .iter()
        .map(|b| config.cli(Some(&b.target)).map(|c| config::plan(&c)))
        .collect::<Result<Vec<_>>>()?;
    let mut progress = report::progress::Progress::new(cli.format == Format::Console && !cli.quiet);
    if cli.list {
        let runs: Vec<run::TargetRun> = nbench_targets
            .iter()
            .zip(&plans)
            .map(|(b, plan)| run::run_target(b, plan, true, &mut progress))
            .collect();
        return Ok(print_list(&runs));
    }
    // Gathered before the driver is pinned to one CPU, which would make the
    // cores available look like one, and when the run starts, as stored.
    let context = context::Context::gather(
        &found.workspace_root,
        &cli.profile,
        config::settings_record(&plan),
        &cli.context,
    );
    run::affinity::pin_driver();
    if cli.format == Format::Jsonl {
        progress = progress.stream_events();
    }
    let threshold = cli.noise_threshold / 100.0;
    let (runs, comparisons): (Vec<run::TargetRun>, Vec<compare::TargetComparison>) =
        match &compare_with {
            Some(base) => nbench_targets
                .iter()
                .zip(&plans)
                .map(|(b, plan)| {
                    let exe = compare::baseline_exe(
                        &store.baselines(),
                        base,
                        &b.target.label(),
                        cli.compare_stored,
                    );
                    compare::compare_target(b, base, exe, plan, threshold, &mut progress)
                })
                .unzip(),
            _ => (
                nbench_targets
                    .iter()
                    .zip(&plans)
                    .map(|(b, plan)| run::run_target(b, plan, false, &mut progress))
                    .collect(),
                Vec::new(),
            ),
        };

    let comparison = compare_with.map(|base| {
        compare::Comparison::new(
            base.name,
            threshold,
            compare::context_warnings(&base.run.context, &context),
            comparisons,
        )
    });
    let record = RunRecord {
        schema: SCHEMA_VERSION,
        context,
        duration_s: started.elapsed().as_secs_f64(),
        targets: runs.iter().map(TargetRecord::from_run).collect(),
        skipped,
        comparison,
    };
    let saved = store.save_run(&record)?;
    if let Some((name, lock)) = &baseline_lock {
        store
            .baselines()
            .save(name, &record, &nbench_targets, lock)?;
        if !cli.quiet {
            eprintln!("{}", style(format!("saved baseline `{name}`")).dim());
        }
    }
    let shown = saved.strip_prefix(&found.workspace_root).unwrap_or(&saved);
    let code = emit(cli, &record, &runs, Some(shown), true)?;
    // The run is saved and reported already: a report that cannot be
    // written is worth a warning, not a different outcome.
    match report::html::write(&store, &record) {
        Ok((path, notes)) => {
            notes.iter().for_each(|n| note(n));
            if cli.format == Format::Console && !cli.quiet {
                let shown = path.strip_prefix(&found.workspace_root).unwrap_or(&path);
                eprintln!("{}", style(format!("report {}", shown.display())).dim());
            }
        }
        Err(e) => eprintln!(
            "{}: the HTML report was not written: {e}",
            style("warning").yellow().bold()
        ),
    }
    Ok(code)
}

/// `cargo nbench report`: the HTML report again, from the newest stored run.
fn rebuild_report(cli: &Cli, meta: &cargo_metadata::Metadata) -> Result<u8> {
    let store = store::Store::new(&discover::target_dir(cli, meta));
    let newest = report::html::newest_run(&store)?;
    let (path, notes) = report::html::write(&store, &newest)?;
    notes.iter().for_each(|n| note(n));
    println!("{}", path.display());
    Ok(exit::SUCCESS)
}

/// Writes the report (stdout, every `--out`, `--summary`) and picks the exit
/// code. `streamed`: the benchmarks' JSON-lines events are already on stdout.
fn emit(
    cli: &Cli,
    record: &RunRecord,
    runs: &[run::TargetRun],
    saved: Option<&std::path::Path>,
    streamed: bool,
) -> Result<u8> {
    let unit = cli.time_unit.map(nbench::format::TimeUnit::from);
    for (path, format) in config::outputs(cli)? {
        let text = report::render(format, record, runs, unit, None, cli::Verbosity::Normal);
        // A file gets plain text, whatever colours the terminal gets.
        let text = console::strip_ansi_codes(&text);
        store::write_atomic(&path, text.as_bytes())?;
    }
    if let Some(path) = &cli.summary {
        store::append(path, report::markdown::render(record).as_bytes())?;
    }
    match cli.format {
        Format::Jsonl if streamed => print!("{}", report::jsonl::tail(record, saved)),
        format => print!(
            "{}",
            report::render(format, record, runs, unit, saved, cli.verbosity())
        ),
    }
    eprint!("{}", report::console::render_failures(record));
    if let (Format::Console, Some(saved), false) = (cli.format, saved, cli.quiet) {
        eprintln!("{}", style(format!("saved {}", saved.display())).dim());
    }
    let regressed = record
        .comparison
        .as_ref()
        .is_some_and(|c| c.any_regressed());
    Ok(if cli.fail_on_regression && regressed {
        exit::REGRESSION
    } else if record.any_failed() {
        exit::BENCH_FAILED
    } else {
        exit::SUCCESS
    })
}

fn print_list(runs: &[run::TargetRun]) -> u8 {
    let mut failed = false;
    for r in runs {
        for o in &r.outcomes {
            match o {
                run::Outcome::Listed(id) => println!("{}: {id}", r.label),
                run::Outcome::Failed(f) => {
                    failed = true;
                    eprintln!(
                        "{}: bench target {}: {}",
                        style("failed").red().bold(),
                        r.label,
                        f.reason
                    );
                }
                _ => {}
            }
        }
    }
    if failed {
        exit::BENCH_FAILED
    } else {
        exit::SUCCESS
    }
}
