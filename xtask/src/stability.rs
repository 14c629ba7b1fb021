//! `cargo xtask stability`: how much a fresh `cargo nbench` run's numbers move from run to run,
//! and how often the next run lands inside the interval the last one printed.
//!
//! Runs the reference workloads (benches/reference.rs) as N separate
//! `cargo nbench --bench reference` runs for each `--epochs` value asked for,
//! the values taking turns run by run so that the machine's slow spells fall
//! on all of them alike, in two passes: *fresh*, the stored history cleared
//! (the first run is the first ever, as in a new checkout), then *rebuilt*,
//! the same code built anew (as after an edit elsewhere) with the fresh
//! runs stored as an earlier build's. Per workload and per window of five
//! runs: how often run k + 1's estimate lies inside run k's interval, how
//! far the printed ± swings, and the median interval's width over the
//! spread of the five estimates; the first window of each pass apart.

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

/// The passes: a name, and the tag built into the reference bench (a new
/// executable of the same code).
const PASSES: [(&str, &str); 2] = [("fresh", ""), ("rebuilt", "rebuilt")];

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
    /// Whether some run lay further from the window's median than the
    /// narrowest ± reached: the medians moved more than it said they
    /// would, so a wider ± elsewhere in the window is no swing of the rule's own.
    varied: bool,
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
                let furthest = (part.estimates.iter())
                    .map(|e| (e / mid - 1.0).abs())
                    .fold(0.0, f64::max);
                let narrowest = part.half_widths().into_iter().fold(f64::NAN, f64::min);
                Window {
                    inside: part.next_inside(),
                    swing: part.width_swing(),
                    moved: furthest >= MACHINE_MOVED,
                    varied: furthest > narrowest,
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
    let mut nb = Nbench {
        exe: build_nbench()?,
        fixture: root(),
        target_dir: root().join("target/xtask/stability"),
        env: vec![],
    };
    for stored in ["nbench/history.jsonl", "nbench/runs"] {
        let path = nb.target_dir.join(stored);
        let _ = std::fs::remove_file(&path).or_else(|_| std::fs::remove_dir_all(&path));
    }
    let mut configs: Vec<(String, Config)> = Vec::new();
    for (pass, tag) in PASSES {
        nb.env = vec![("NBENCH_REFERENCE_BUILD", tag.to_owned())];
        nb.output(&["--bench", "reference", "--list"])?;
        let first = configs.len();
        configs.extend(
            epochs
                .iter()
                .map(|e| (format!("{pass}, --epochs {e}"), Config::default())),
        );
        for round in 1..=runs {
            eprint!("\r{pass}: run {round}/{runs}");
            for (e, (_, config)) in epochs.iter().zip(&mut configs[first..]) {
                let doc = nb.run(&["--bench", "reference", "--epochs", e])?;
                config.run_s.extend(doc["duration_s"].as_f64());
                add(config, &doc);
            }
        }
        eprintln!();
    }
    print(&configs, runs);
    for (label, c) in &configs {
        print_windows(label, c);
    }
    Ok(())
}

/// The goals' figures over some windows.
#[derive(Default)]
struct Totals<'a> {
    inside: usize,
    pairs: usize,
    windows: usize,
    /// Workloads whose ± swung more than 4× with neither excuse.
    swung: Vec<&'a str>,
    /// ... and those where only the medians' own movement excuses it.
    swung_with_medians: Vec<&'a str>,
    ratios: Vec<(f64, &'a str)>,
    stepped: Vec<&'a str>,
}

impl<'a> Totals<'a> {
    fn add(&mut self, id: &'a str, w: &Window) {
        self.inside += w.inside.0;
        self.pairs += w.inside.1;
        self.windows += 1;
        match w.at_step {
            true => self.stepped.push(id),
            false => self.ratios.push((w.width_over_spread, id)),
        }
        if w.swing > 4.0 && !w.moved {
            match w.varied {
                true => self.swung_with_medians.push(id),
                false => self.swung.push(id),
            }
        }
    }

    fn print(mut self, what: &str) {
        self.ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
        let over: Vec<&str> = (self.ratios.iter().filter(|r| r.0 > 2.0))
            .map(|r| r.1)
            .collect();
        println!(
            "{what}:\n  next run inside: {}/{} ({:.0} %, goal ≥ 90 %)\n  \
             ± swinging > 4× while the machine held steady: {} of {} windows {:?}, \
             and {} more where the medians moved beyond the narrowest ± (v) {:?}\n  \
             width ÷ spread: median {:.2} (goal ≤ 2); over 2 in {} of {}: {over:?}\n  \
             as narrow as the clock allows (c; not counted above): {} {:?}",
            self.inside,
            self.pairs,
            self.inside as f64 / self.pairs.max(1) as f64 * 100.0,
            self.swung.len(),
            self.windows,
            self.swung,
            self.swung_with_medians.len(),
            self.swung_with_medians,
            self.ratios
                .get(self.ratios.len() / 2)
                .map_or(f64::NAN, |r| r.0),
            over.len(),
            self.ratios.len(),
            self.stepped.len(),
            self.stepped,
        );
    }
}

/// Each workload's windows of [`WINDOW`] runs against the goals, then the
/// totals: over the first window (the five runs after a checkout or a
/// rebuild) and over all.
fn print_windows(label: &str, c: &Config) {
    println!(
        "\n{label}, windows of {WINDOW} runs: next run inside / ± widest ÷ narrowest \
         (m: the machine moved; v: the medians moved beyond the narrowest ±) / \
         median width ÷ spread (c: at the clock's step)"
    );
    let (mut first, mut all) = (Totals::default(), Totals::default());
    for (id, s) in c.series.iter().filter(|(_, s)| s.timed()) {
        let windows = s.windows();
        let cells: Vec<String> = (windows.iter().enumerate())
            .map(|(n, w)| {
                all.add(id, w);
                if n == 0 {
                    first.add(id, w);
                }
                let m = match (w.moved, w.varied) {
                    (true, _) => "m",
                    (false, true) => "v",
                    _ => " ",
                };
                let c = if w.at_step { "c" } else { " " };
                format!(
                    "{}/{} {:>5.1}×{m} {:>5.1}{c}",
                    w.inside.0, w.inside.1, w.swing, w.width_over_spread
                )
            })
            .collect();
        println!("{id:<20} {}", cells.join("  |  "));
    }
    first.print("first window (runs 1–5)");
    all.print("all windows");
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

fn print(configs: &[(String, Config)], runs: usize) {
    println!(
        "benches/reference.rs: {runs} separate `cargo nbench --bench reference` runs per pass and setting \
         (the clock's resolution: {:.1} ns)\n",
        resolution_ns()
    );
    println!(
        "{:<22} {:>10} {:>14} {:>12} {:>18} {:>11}",
        "pass, epochs", "s per run", "spread (med)", "cv (med)", "next run inside", "zero-width"
    );
    for (label, c) in configs {
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
            "{label:<22} {:>10.2} {:>13.1}% {:>11.1}% {:>10}/{pairs} ({:>3.0}%) {zero:>11}",
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
    let ids: Vec<&String> = configs[0].1.series.keys().collect();
    for id in ids {
        let cells: Vec<String> = configs
            .iter()
            .map(|(_, c)| match c.series.get(id) {
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
         width ÷ spread: the median interval's width over the spread of the estimates (goal ≤ 2;\n\
         an exact 90 % interval on ideal normal noise reads 2.06 centred on one run, 1.50 on 17:\n\
         xtask/interval_bound.py);\n\
         s per run: the whole `cargo nbench` run, build check included."
    );
}
