//! Resolved settings: the measurement plan and output choices from the command line over built-in defaults.

use crate::cli::{Cli, Color, Format};
use crate::context::SettingsRecord;
use crate::error::Error;
use crate::run::Plan;
use nbench::Settings;
use nbench::modes::select::{Filter, Ignored};
use std::path::PathBuf;

/// The measurement plan for this invocation.
pub fn plan(cli: &Cli) -> Plan {
    let d = Settings::default();
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
        settings: Settings {
            warm_up: cli.warm_up.unwrap_or(d.warm_up),
            min_time: cli.min_time.unwrap_or(d.min_time),
            max_time: cli.max_time.unwrap_or(d.max_time),
            precision: cli.precision.map_or(d.precision, |p| p / 100.0),
            min_samples: cli.min_samples.map_or(d.min_samples, |n| n as usize),
            max_samples: cli.max_samples.map_or(d.max_samples, |n| n as usize),
            timer_factor: d.timer_factor,
            outliers: cli.outliers.unwrap_or(d.outliers),
        },
        timeout: cli.timeout,
        extra_args: cli.bench_args.clone(),
        nocapture: cli.nocapture,
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
pub fn outputs(cli: &Cli) -> Result<Vec<(PathBuf, Format)>, Error> {
    cli.out
        .iter()
        .map(
            |path| match cli.out_format.or_else(|| Format::from_extension(path)) {
                Some(f) => Ok((path.clone(), f)),
                None => Err(Error::OutFormat(path.clone())),
            },
        )
        .collect()
}
