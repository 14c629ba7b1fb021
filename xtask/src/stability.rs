//! `cargo xtask stability`: how much a fresh `cargo nbench` run's numbers move from run to run,
//! and how often the next run lands inside the interval the last one printed.
//!
//! Runs the reference workloads (benches/reference.rs) as N separate
//! `cargo nbench --bench reference` runs for each `--epochs` value asked for,
//! the values taking turns run by run so that the machine's slow spells fall
//! on all of them alike. The stored history is cleared first, so the first
//! run is the first of its build, as after a rebuild. Per workload and per
//! window of five runs: how often run k + 1's estimate lies inside run k's
//! interval, how far the printed ± swings, and the median interval's width
//! over the spread of the five estimates.

use crate::{build_nbench, root, runs_arg, verdicts::Nbench};
use serde_json::Value;
use std::collections::BTreeMap;

const USAGE: &str = "cargo xtask stability [--runs N] [--epochs E,E,…]";

/// Runs judged together: the goals speak of five back-to-back runs.
const WINDOW: usize = 5;

/// A run whose estimate lies this far from its window's median ran while
/// the machine itself was slower (or faster) throughout: a ± that swings
/// with it is not held against the interval.
const MACHINE_MOVED: f64 = 0.10;

/// One workload's estimates and intervals, run by run.
#[derive(Default, Clone)]
struct Series {
    estimates: Vec<f64>,
    intervals: Vec<[f64; 2]>,
    /// Half a clock step per iteration, each run: no interval is narrower.
    steps: Vec<f64>,
}

/// One window's figures for one workload.
struct Window {
    /// (next run inside, pairs).
    inside: (usize, usize),
    /// Widest ± over narrowest.
    swing: f64,
    /// Whether some run lay [`MACHINE_MOVED`] from the window's median.
    moved: bool,
    /// Median interval width over the spread of the estimates.
    width_over_spread: f64,
    /// Whether the median interval is as narrow as the clock allows: its
    /// width then measures the clock, not the rule.
    at_step: bool,
}

impl Series {
    /// Whether the workload takes measurable time (above 0.01 ns at every run).
    fn timed(&self) -> bool {
        self.estimates.iter().all(|e| *e > 0.01)
    }

    fn spread(&self) -> f64 {
        let mut v = self.estimates.clone();
        v.sort_by(f64::total_cmp);
        (v[v.len() - 1] - v[0]) / v[v.len() / 2]
    }

    fn cv(&self) -> f64 {
        let n = self.estimates.len() as f64;
        let mean = self.estimates.iter().sum::<f64>() / n;
        let var = self
            .estimates
            .iter()
            .map(|x| (x - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        var.sqrt() / mean
    }

    /// (next run inside this run's interval, pairs of runs).
    fn next_inside(&self) -> (usize, usize) {
        let pairs = self.intervals.iter().zip(self.estimates.iter().skip(1));
        let inside = pairs.filter(|(ci, next)| ci[0] <= **next && **next <= ci[1]);
        (inside.count(), self.estimates.len().saturating_sub(1))
    }

    /// Each run's interval half-width, as a share of its estimate.
    fn half_widths(&self) -> Vec<f64> {
        (self.intervals.iter().zip(&self.estimates))
            .map(|(ci, e)| (ci[1] - ci[0]) / 2.0 / e)
            .collect()
    }

    /// How many times the widest half-width is the narrowest's.
    fn width_swing(&self) -> f64 {
        let w = self.half_widths();
        let most = w.iter().copied().fold(f64::NAN, f64::max);
        let least = w.iter().copied().fold(f64::NAN, f64::min);
        most / least
    }

    /// The median interval's whole width over the spread of the estimates
    /// across runs: about 1 is honest, far above 1 padded.
    fn width_over_spread(&self) -> f64 {
        2.0 * median(&self.half_widths()) / self.spread()
    }

    fn zero_width(&self) -> usize {
        self.intervals.iter().filter(|ci| ci[1] <= ci[0]).count()
    }

    /// Consecutive runs `WINDOW` at a time, each with its figures.
    fn windows(&self) -> Vec<Window> {
        (0..self.estimates.len() / WINDOW)
            .map(|w| {
                let r = w * WINDOW..(w + 1) * WINDOW;
                let part = Series {
                    estimates: self.estimates[r.clone()].to_vec(),
                    intervals: self.intervals[r.clone()].to_vec(),
                    steps: self.steps[r].to_vec(),
                };
                let mid = median(&part.estimates);
                let step = median(&part.steps) / mid;
                Window {
                    inside: part.next_inside(),
                    swing: part.width_swing(),
                    moved: (part.estimates.iter()).any(|e| (e / mid - 1.0).abs() >= MACHINE_MOVED),
                    width_over_spread: part.width_over_spread(),
                    at_step: median(&part.half_widths()) <= 1.01 * step,
                }
            })
            .collect()
    }
}

/// Everything measured for one `--epochs` value.
#[derive(Default)]
struct Config {
    series: BTreeMap<String, Series>,
    run_s: Vec<f64>,
}

/// `--epochs E,E,…` (default 8, as `cargo nbench`), and the other arguments.
fn epochs_arg(args: &[String]) -> Result<(Vec<String>, Vec<String>), String> {
    match args.iter().position(|a| a == "--epochs") {
        None => Ok((vec!["8".into()], args.to_vec())),
        Some(i) => {
            let list = args
                .get(i + 1)
                .ok_or_else(|| format!("--epochs needs a list\nusage: {USAGE}"))?;
            let rest = [&args[..i], &args[i + 2..]].concat();
            Ok((list.split(',').map(str::to_owned).collect(), rest))
        }
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let (epochs, rest) = epochs_arg(args)?;
    let runs = runs_arg(&rest, 10, USAGE)?;
    let nb = Nbench {
        exe: build_nbench()?,
        fixture: root(),
        target_dir: root().join("target/xtask/stability"),
    };
    nb.output(&["--bench", "reference", "--list"])?;
    // The first run is the first of its build, as after a rebuild.
    for stored in ["nbench/history.jsonl", "nbench/runs"] {
        let path = nb.target_dir.join(stored);
        let _ = std::fs::remove_file(&path).or_else(|_| std::fs::remove_dir_all(&path));
    }
    let mut configs: Vec<Config> = epochs.iter().map(|_| Config::default()).collect();
    for round in 1..=runs {
        eprint!("\rrun {round}/{runs}");
        for (e, config) in epochs.iter().zip(&mut configs) {
            let doc = nb.run(&["--bench", "reference", "--epochs", e])?;
            config.run_s.extend(doc["duration_s"].as_f64());
            add(config, &doc);
        }
    }
    eprintln!();
    print(&epochs, &configs, runs);
    for (e, c) in epochs.iter().zip(&configs) {
        print_windows(e, c);
    }
    Ok(())
}

/// Each workload's windows of [`WINDOW`] runs against the goals, then the totals.
fn print_windows(epochs: &str, c: &Config) {
    println!(
        "\n--epochs {epochs}, windows of {WINDOW} runs: next run inside / ± widest ÷ narrowest \
         (m: the machine moved) / median width ÷ spread (c: at the clock's step)"
    );
    let (mut inside, mut pairs, mut swung, mut windows) = (0, 0, Vec::new(), 0);
    let (mut ratios, mut stepped) = (Vec::new(), Vec::new());
    for (id, s) in c.series.iter().filter(|(_, s)| s.timed()) {
        let cells: Vec<String> = (s.windows().iter())
            .map(|w| {
                inside += w.inside.0;
                pairs += w.inside.1;
                windows += 1;
                match w.at_step {
                    true => stepped.push(id.as_str()),
                    false => ratios.push((w.width_over_spread, id.as_str())),
                }
                if w.swing > 4.0 && !w.moved {
                    swung.push(id.as_str());
                }
                let m = if w.moved { "m" } else { " " };
                let c = if w.at_step { "c" } else { " " };
                format!(
                    "{}/{} {:>5.1}×{m} {:>5.1}{c}",
                    w.inside.0, w.inside.1, w.swing, w.width_over_spread
                )
            })
            .collect();
        println!("{id:<20} {}", cells.join("  |  "));
    }
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let over: Vec<&str> = ratios.iter().filter(|r| r.0 > 2.0).map(|r| r.1).collect();
    println!(
        "next run inside: {inside}/{pairs} ({:.0} %, goal ≥ 90 %)\n\
         ± swinging > 4× while the machine held steady: {} of {windows} windows {swung:?}\n\
         width ÷ spread: median {:.2} (goal ≤ 2); over 2 in {} of {}: {over:?}\n\
         as narrow as the clock allows (c; not counted above): {} of {windows} {stepped:?}",
        inside as f64 / pairs.max(1) as f64 * 100.0,
        swung.len(),
        ratios.get(ratios.len() / 2).map_or(f64::NAN, |r| r.0),
        over.len(),
        ratios.len(),
        stepped.len(),
    );
}

fn add(config: &mut Config, doc: &Value) {
    let benches = doc["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["benchmarks"].as_array().into_iter().flatten());
    for b in benches {
        let id = b["id"].as_str().unwrap_or("?").to_owned();
        let s = config.series.entry(id).or_default();
        s.estimates.extend(b["median_ns"].as_f64());
        let ci = [
            b["median_ci_ns"][0].as_f64().unwrap_or(f64::NAN),
            b["median_ci_ns"][1].as_f64().unwrap_or(f64::NAN),
        ];
        s.intervals.push(ci);
        let iters = b["iters_per_sample"].as_f64().unwrap_or(1.0).max(1.0);
        s.steps.push(resolution_ns() / (2.0 * iters));
    }
}

/// The clock's resolution, ns, as `cargo nbench` measures it.
fn resolution_ns() -> f64 {
    use nbench::__private::timer::{TimerInfo, WallClock};
    static RESOLUTION: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *RESOLUTION.get_or_init(|| TimerInfo::measure(&WallClock::new(), 10_000).resolution_ns)
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn print(epochs: &[String], configs: &[Config], runs: usize) {
    println!(
        "benches/reference.rs: {runs} separate `cargo nbench --bench reference` runs per setting\n"
    );
    println!(
        "{:<8} {:>10} {:>14} {:>12} {:>18} {:>11}",
        "epochs", "s per run", "spread (med)", "cv (med)", "next run inside", "zero-width"
    );
    for (e, c) in epochs.iter().zip(configs) {
        // An empty body's estimate is about 0: its spread has no meaning.
        let finite = |v: f64| v.is_finite().then_some(v);
        let spreads: Vec<f64> = c
            .series
            .values()
            .filter_map(|s| finite(s.spread()))
            .collect();
        let cvs: Vec<f64> = c.series.values().filter_map(|s| finite(s.cv())).collect();
        let (inside, pairs) = c
            .series
            .values()
            .map(Series::next_inside)
            .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
        let zero: usize = c.series.values().map(Series::zero_width).sum();
        println!(
            "{e:<8} {:>10.2} {:>13.1}% {:>11.1}% {:>10}/{pairs} ({:>3.0}%) {zero:>11}",
            median(&c.run_s),
            median(&spreads) * 100.0,
            median(&cvs) * 100.0,
            inside,
            inside as f64 / pairs.max(1) as f64 * 100.0
        );
    }
    println!(
        "\nper workload, for each setting: spread / next run inside / ± narrowest–widest \
         (how many times) / median width ÷ spread"
    );
    let ids: Vec<&String> = configs[0].series.keys().collect();
    for id in ids {
        let cells: Vec<String> = configs
            .iter()
            .map(|c| match c.series.get(id) {
                Some(s) => {
                    let (i, n) = s.next_inside();
                    match s.timed() {
                        true => {
                            let w = s.half_widths();
                            let lo = w.iter().copied().fold(f64::NAN, f64::min) * 100.0;
                            let hi = w.iter().copied().fold(f64::NAN, f64::max) * 100.0;
                            format!(
                                "{:>6.1}% {i:>2}/{n}  ±{lo:.2}–{hi:.2}% ({:.1}×)  {:.1}",
                                s.spread() * 100.0,
                                s.width_swing(),
                                s.width_over_spread()
                            )
                        }
                        false => format!("{:>7} {i:>2}/{n}", "-"),
                    }
                }
                None => "-".into(),
            })
            .collect();
        println!("{id:<20} {}", cells.join("   "));
    }
    println!(
        "\nspread: (max − min) / median of a workload's estimate across runs; cv: their sd / mean;\n\
         next run inside: run k + 1's estimate within run k's printed interval (goal ≥ 90 %);\n\
         ± narrowest–widest: the printed half-widths over the runs (goal: at most 4× apart);\n\
         width ÷ spread: the median interval's width over the spread of the estimates (goal ≤ 2);\n\
         s per run: the whole `cargo nbench` run, build check included."
    );
}
