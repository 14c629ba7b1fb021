//! `cargo xtask layouts`: how often `--compare` calls code placement a change, with one link
//! layout per side and over layouts, and what it still catches.
//!
//! On tests/fixtures/layouts (nine ordinary workloads), per round:
//! - one layout each side, the same source linked with two function orders;
//! - the same over 16 layouts each side (the default), with other seeds
//!   (each round a baseline of its own, with seeds no other round used);
//! - an executable set compared with itself (identical binaries);
//! - the pull-request case: a build that only adds unrelated code, compared
//!   with a baseline without it, in the linker's own order and at defaults;
//! - every workload 5 % slower, at defaults.

use crate::{build_nbench, root, runs_arg, verdicts::Nbench};
use serde_json::Value;
use std::collections::BTreeMap;

const USAGE: &str = "cargo xtask layouts [--runs N]";

/// Layouts a side has at defaults (cargo nbench's `DEFAULT_LAYOUTS`): a
/// round's seeds are this far apart, so no two rounds share a layout.
const LAYOUTS: usize = 16;

/// Verdicts of one case: per benchmark, (changed, regressed, total, changes, layout spreads).
#[derive(Default)]
struct Case {
    per_bench: BTreeMap<String, Tally>,
    measuring_s: Vec<f64>,
    build_s: Vec<f64>,
    /// (regressed, verdicts) where the comparison's own layout spread was
    /// under 2 %, and where it was 2 % or more.
    by_spread: [(usize, usize); 2],
}

#[derive(Default, Clone)]
struct Tally {
    changed: usize,
    inconclusive: usize,
    regressed: usize,
    total: usize,
    spreads: Vec<f64>,
}

impl Case {
    fn add(&mut self, run: &Value, layouts: usize) {
        let mut measuring = 0.0;
        for t in run["targets"].as_array().into_iter().flatten() {
            for b in t["benchmarks"].as_array().into_iter().flatten() {
                let s = b["elapsed_s"].as_f64().unwrap_or(0.0);
                self.measuring_s.push(s);
                measuring += s;
            }
        }
        if layouts > 1 {
            // What the run spent outside measuring, mostly building its layouts.
            let total = run["duration_s"].as_f64().unwrap_or(0.0);
            self.build_s.push((total - measuring) / layouts as f64);
        }
        let targets = run["comparison"]["targets"]
            .as_array()
            .into_iter()
            .flatten();
        for row in targets.flat_map(|t| t["rows"].as_array().into_iter().flatten()) {
            let id = row["id"].as_str().unwrap_or("?").to_owned();
            let verdict = row["verdict"].as_str().unwrap_or("unchanged");
            let t = self.per_bench.entry(id).or_default();
            t.total += 1;
            t.changed += usize::from(verdict == "regressed" || verdict == "improved");
            t.inconclusive += usize::from(verdict == "inconclusive");
            t.regressed += usize::from(verdict == "regressed");
            t.spreads.extend(row["layout_spread"].as_f64());
            let sensitive = row["layout_spread"].as_f64().is_some_and(|s| s >= 0.02);
            let cell = &mut self.by_spread[usize::from(sensitive)];
            cell.0 += usize::from(verdict == "regressed");
            cell.1 += 1;
        }
    }

    fn share(&self, hits: impl Fn(&Tally) -> usize) -> (usize, usize) {
        self.per_bench
            .values()
            .fold((0, 0), |(h, n), t| (h + hits(t), n + t.total))
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = runs_arg(args, 10, USAGE)?;
    let nb = Nbench {
        exe: build_nbench()?,
        fixture: root().join("tests/fixtures/layouts"),
        target_dir: root().join("target/xtask/layouts"),
        env: vec![],
    };
    let _ = std::fs::remove_dir_all(nb.target_dir.join("nbench"));
    let _ = std::fs::remove_dir_all(nb.target_dir.join("xtask-runs"));
    nb.run(&["--layouts", "1", "--save-baseline", "plain"])?;
    let names = [
        "one layout, other seeds".to_owned(),
        format!("{LAYOUTS} layouts, other seeds"),
        "identical binaries".to_owned(),
        "adds code, one layout".to_owned(),
        format!("adds code, {LAYOUTS} layouts"),
        format!("5 % slower, {LAYOUTS} layouts"),
    ];
    let mut cases: Vec<Case> = names.iter().map(|_| Case::default()).collect();
    for round in 0..runs {
        eprint!("\rround {}/{runs}", round + 1);
        one_round(&nb, round, &mut cases)?;
    }
    eprintln!();
    print(&names, &cases, runs);
    Ok(())
}

/// One round of every case, each comparison added to its case.
fn one_round(nb: &Nbench, round: usize, cases: &mut [Case]) -> Result<(), String> {
    // One layout each side: a baseline linked with one seed, the current with another.
    let (a, b) = ((round * 2 + 1).to_string(), (round * 2 + 2).to_string());
    let name = format!("one{round}");
    nb.run(&[
        "--layouts",
        "1",
        "--layout-seed",
        &a,
        "--save-baseline",
        &name,
    ])?;
    let one = ["--layouts", "1", "--layout-seed", &b, "--compare", &name];
    cases[0].add(&kept(nb, round, 0, nb.run(&one)?), 1);
    // A baseline over layouts of its own every round, with seeds no
    // other round used: each round a new draw of layouts, as each pull
    // request's comparison is (the same seeds on other code).
    let base_seed = (10_000 + round * LAYOUTS).to_string();
    nb.run(&["--layout-seed", &base_seed, "--save-baseline", "layouts"])?;
    // Over layouts, the current side with seeds no other round used.
    let seed = (1000 + round * LAYOUTS).to_string();
    cases[1].add(
        &kept(
            nb,
            round,
            1,
            nb.run(&["--layout-seed", &seed, "--compare", "layouts"])?,
        ),
        LAYOUTS,
    );
    let identical = ["--layout-seed", &base_seed, "--compare", "layouts"];
    cases[2].add(&kept(nb, round, 2, nb.run(&identical)?), LAYOUTS);
    let extra_one = [
        "--features",
        "extra",
        "--layouts",
        "1",
        "--compare",
        "plain",
    ];
    cases[3].add(&kept(nb, round, 3, nb.run(&extra_one)?), 1);
    let extra = [
        "--features",
        "extra",
        "--layout-seed",
        &base_seed,
        "--compare",
        "layouts",
    ];
    cases[4].add(&kept(nb, round, 4, nb.run(&extra)?), LAYOUTS);
    let slow_seed = (5000 + round * LAYOUTS).to_string();
    let slow = [
        "--features",
        "slow5",
        "--layout-seed",
        &slow_seed,
        "--compare",
        "layouts",
    ];
    cases[5].add(&kept(nb, round, 5, nb.run(&slow)?), LAYOUTS);
    Ok(())
}

/// Keeps a comparison's JSON under the target directory's `xtask-runs/`
/// (`ROUND-CASE.json`), for a closer look at its rows; returns it.
fn kept(nb: &Nbench, round: usize, case: usize, run: Value) -> Value {
    let dir = nb.target_dir.join("xtask-runs");
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join(format!("{:02}-{case}.json", round + 1));
    let _ = std::fs::write(file, run.to_string());
    run
}

fn print(names: &[String], cases: &[Case], runs: usize) {
    println!("tests/fixtures/layouts: {runs} rounds, 9 benchmarks each, default settings\n");
    // How much each workload moves with layout: the median spread over the layout A/A runs.
    let spread: BTreeMap<&str, f64> = cases[1]
        .per_bench
        .iter()
        .map(|(id, t)| (id.as_str(), median(&t.spreads)))
        .collect();
    println!(
        "{:<26} {:>16} {:>14} {:>20} {:>20} {:>10} {:>8}",
        "case",
        "claimed a change",
        "inconclusive",
        "regressed, spread<2%",
        "regressed, ≥2%",
        "measure s",
        "build s"
    );
    for (i, (name, c)) in names.iter().zip(cases).enumerate() {
        let (h, n) = c.share(|t| t.changed);
        let pct = |a: usize, b: usize| a as f64 / b.max(1) as f64 * 100.0;
        let cell = |(r, m): (usize, usize)| {
            if i == 5 {
                format!("{r}/{m} ({:.0}%)", pct(r, m))
            } else {
                "-".to_owned()
            }
        };
        let (low, high) = (cell(c.by_spread[0]), cell(c.by_spread[1]));
        let build = if c.build_s.is_empty() {
            "-".to_owned()
        } else {
            format!("{:.2}", median(&c.build_s))
        };
        let (inc, _) = c.share(|t| t.inconclusive);
        println!(
            "{name:<26} {:>9} ({:>4.1}%) {:>6} ({:>4.1}%) {low:>20} {high:>20} {:>10.2} {build:>8}",
            format!("{h}/{n}"),
            pct(h, n),
            inc,
            pct(inc, n),
            median(&c.measuring_s),
        );
    }
    println!("\nper benchmark: layout spread (median), then claimed-a-change share per case");
    for (id, s) in &spread {
        let cells: Vec<String> = cases
            .iter()
            .map(|c| {
                let t = c.per_bench.get(*id).cloned().unwrap_or_default();
                let hits = if std::ptr::eq(c, &cases[5]) {
                    t.regressed
                } else {
                    t.changed
                };
                format!("{:>5.0}%", hits as f64 / t.total.max(1) as f64 * 100.0)
            })
            .collect();
        println!("{id:<14} ±{:>5.1}%  {}", s * 100.0, cells.join(" "));
    }
    println!(
        "\nclaimed a change: regressed or improved (goal ≤ 2 % for the A/A cases, ≤ 1 % for the pull-request case);\n\
         inconclusive: the interval held no verdict (goal ≤ 10 %);\n\
         regressed, spread<2% / ≥2%: the slowdown's verdicts where that comparison found the benchmark moving
  less than 2 % with layout (goal ≥ 95 %), and 2 % or more;\n\
         measure s: median seconds of measuring per benchmark (paired: both sides);\n\
         build s: median seconds outside measuring per layout built (cargo rustc of the bench target)."
    );
}
