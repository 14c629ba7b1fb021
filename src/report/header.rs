//! What the console prints above the tables: the run's context and its warnings; with `-v`, the settings and the timer.

use crate::model::context::Context;
use console::style;
use nbench::__private::format::time;
use nbench::__private::timer::{TimerInfo, WallClock};
use std::fmt::Write;

/// The context in two or three lines, then a line per warning.
pub fn context(c: &Context) -> String {
    let commit = c
        .commit_label()
        .map_or_else(|| c.no_commit_label(), |l| format!("commit {l}"));
    let rustc = c.rustc.as_deref().unwrap_or("rustc unknown");
    let known = |v: &Option<String>| v.clone().unwrap_or_else(|| "unknown".into());
    let mut out = String::new();
    let lines = [
        format!(
            "nbench {} · {rustc} · profile {} · {commit}",
            c.nbench_version, c.profile
        ),
        format!(
            "{} · {} · governor {} · turbo {}",
            c.cpu_model.as_deref().unwrap_or("unknown CPU"),
            c.cores_label(),
            known(&c.governor),
            c.turbo_label()
        ),
    ];
    for line in lines {
        let _ = writeln!(out, "{}", style(line).dim());
    }
    if !c.user.is_empty() {
        let pairs: Vec<String> = c.user.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(
            out,
            "{}",
            style(format!("context: {}", pairs.join(" "))).dim()
        );
    }
    for w in c.warnings() {
        let _ = writeln!(out, "{}: {w}", style("warning").yellow().bold());
    }
    out.push('\n');
    out
}

/// `, 3 repetitions, 2 launches, interleaved in 4 slices`: what is not the default.
fn schedule(s: &crate::model::context::SettingsRecord) -> String {
    let mut out = String::new();
    let counts = [
        (s.epochs, "epochs"),
        (s.repetitions, "repetitions"),
        (s.launches, "launches"),
    ];
    for (n, what) in counts {
        if n > 1 {
            out.push_str(&format!(", {n} {what}"));
        }
    }
    if s.slices > 1 {
        out.push_str(&format!(", interleaved in {} slices", s.slices));
    }
    out
}

/// `-v`: the measurement settings, and the clock as this process reads it.
pub fn settings(c: &Context) -> String {
    let s = &c.settings;
    let timer = TimerInfo::measure(&WallClock::new(), 10_000);
    format!(
        "{}\n{}\n\n",
        style(format!(
            "settings: warm-up {}s, min-time {}s, max-time {}s, precision ±{}%, samples {}–{}, outliers {}, timeout {}s",
            s.warm_up_s, s.min_time_s, s.max_time_s, s.precision * 100.0, s.min_samples, s.max_samples, s.outliers, s.timeout_s
        ) + &schedule(s))
        .dim(),
        style(format!(
            "timer: resolution {}, {} per reading",
            time(timer.resolution_ns),
            time(timer.cost_ns)
        ))
        .dim()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_for_a_governor_that_is_not_performance_and_for_turbo() {
        let mut c: Context = serde_json::from_str(
            r#"{"date":"d","git_commit":null,"git_dirty":null,"rustc":null,"profile":"bench",
            "host":null,"cpu_model":null,"cores":4,"governor":"powersave","nbench_version":"0",
            "settings":{"warm_up_s":0.1,"min_time_s":0.4,"max_time_s":0.8,"precision":0.01,
            "min_samples":10,"max_samples":100,"timeout_s":120.0}}"#,
        )
        .expect("a run stored before turbo and user context existed still reads");
        assert_eq!(c.turbo, None);
        assert_eq!(c.warnings().len(), 1);
        assert!(c.warnings()[0].contains("`powersave`, not `performance`"));
        c.turbo = Some(true);
        c.governor = Some("performance".into());
        assert_eq!(c.warnings().len(), 1);
        assert!(c.warnings()[0].starts_with("turbo boost is on"));
        c.user.insert("runner".into(), "ci".into());
        console::set_colors_enabled(false);
        let text = context(&c);
        assert!(text.contains("context: runner=ci\n"), "{text}");
        assert!(
            text.contains("unknown CPU · 4 cores · governor performance · turbo on"),
            "{text}"
        );
    }
}
