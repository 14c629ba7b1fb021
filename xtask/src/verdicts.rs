//! `cargo xtask verdicts`: how often `--compare` calls unchanged code changed, and how often it catches a 0.5 %, a 1 % and a 5 % slowdown.

use crate::{build_nbench, root, runs_arg};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

const USAGE: &str = "cargo xtask verdicts [--runs N] [--paired] [-- NBENCH_ARGS]";

/// The fixture's two bench targets: the same workloads through nbench's
/// API and through criterion's (on nbench-criterion), measured in the same runs.
const FRONT_ENDS: [&str; 2] = ["verdicts/verdicts", "verdicts/criterion"];

/// Benchmarks whose inputs each process draws afresh (the fixture's
/// `random/…`): counted apart from the headline, whose rows do the same
/// work in every process.
const RANDOM: &str = "random/";

/// Verdicts counted by kind, and how many of them a case counts as hits
/// ([`hit`]).
#[derive(Default)]
struct Tally {
    regressed: usize,
    improved: usize,
    unchanged: usize,
    inconclusive: usize,
    hits: usize,
}

impl Tally {
    fn add(&mut self, verdict: &str, hit: bool) {
        match verdict {
            "regressed" => self.regressed += 1,
            "improved" => self.improved += 1,
            "inconclusive" => self.inconclusive += 1,
            _ => self.unchanged += 1,
        }
        self.hits += usize::from(hit);
    }

    fn total(&self) -> usize {
        self.regressed + self.improved + self.unchanged + self.inconclusive
    }

    /// The share of verdicts that are hits.
    fn headline(&self) -> f64 {
        self.hits as f64 / self.total().max(1) as f64 * 100.0
    }
}

/// Whether `verdict` is what a case counts: any change for A/A (`aa`),
/// "regressed" for a slower build.
fn hit(aa: bool, verdict: &str) -> bool {
    verdict == "regressed" || (aa && verdict == "improved")
}

/// One build compared with the baseline, by one kind of comparison, on one front end.
struct Case {
    name: &'static str,
    /// The bench target whose rows this case counts.
    target: &'static str,
    features: Option<&'static str>,
    stored: bool,
    /// A new link seed for the current side every round: new layouts of its build.
    relink: bool,
    /// Rows that do the same work in every process.
    verdicts: Tally,
    /// Rows whose inputs each process draws afresh ([`RANDOM`]).
    random: Tally,
    changes: Vec<f64>,
    measuring_s: Vec<f64>,
    /// Wall seconds of each comparison (every front end's rows together).
    compare_s: Vec<f64>,
    /// Per benchmark id: (verdicts calling a change, verdicts, changes,
    /// verdicts time alone gave calling a change).
    per_bench: BTreeMap<String, (usize, usize, Vec<f64>, usize)>,
    /// Verdicts time alone gave (rows with instructions say it) calling a change.
    time_hits: usize,
}

impl Case {
    fn new(name: &'static str, features: Option<&'static str>, stored: bool) -> Case {
        Case {
            name,
            target: FRONT_ENDS[0],
            features,
            stored,
            relink: false,
            verdicts: Tally::default(),
            random: Tally::default(),
            changes: Vec::new(),
            measuring_s: Vec::new(),
            compare_s: Vec::new(),
            per_bench: BTreeMap::new(),
            time_hits: 0,
        }
    }

    fn aa(&self) -> bool {
        self.features.is_none()
    }
}

/// `cargo nbench` run on a fixture, in a target directory of its own.
pub(crate) struct Nbench {
    pub(crate) exe: PathBuf,
    pub(crate) fixture: PathBuf,
    pub(crate) target_dir: PathBuf,
    /// Environment variables set for each run.
    pub(crate) env: Vec<(&'static str, String)>,
}

impl Nbench {
    /// `cargo nbench ARGS --format json`, parsed.
    pub(crate) fn run(&self, args: &[&str]) -> Result<Value, String> {
        let out = self.output(&[args, &["--format", "json"]].concat())?;
        serde_json::from_slice(&out).map_err(|e| format!("unreadable output: {e}"))
    }

    /// What `cargo nbench ARGS` printed on stdout; an error if it failed.
    pub(crate) fn output(&self, args: &[&str]) -> Result<Vec<u8>, String> {
        let out = Command::new(&self.exe)
            .arg("nbench")
            .args(args)
            .current_dir(&self.fixture)
            .env("CARGO_TARGET_DIR", &self.target_dir)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "cargo nbench {} failed:\n{}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(out.stdout)
    }
}

/// What to run: `--runs N`, `--paired` (leave out the comparisons with
/// stored samples), and after `--` the arguments every baseline and
/// comparison gets (`--layouts 32 --max-time 3s`: settings other than the
/// defaults).
struct Args {
    runs: usize,
    paired_only: bool,
    nbench: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let (ours, nbench) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], args[i + 1..].to_vec()),
        None => (args, Vec::new()),
    };
    let paired_only = ours.iter().any(|a| a == "--paired");
    let rest: Vec<String> = ours.iter().filter(|a| *a != "--paired").cloned().collect();
    Ok(Args {
        runs: runs_arg(&rest, 20, USAGE)?,
        paired_only,
        nbench,
    })
}

pub fn run(args: &[String]) -> Result<(), String> {
    let Args {
        runs,
        paired_only,
        nbench,
    } = parse_args(args)?;
    let settings: Vec<&str> = nbench.iter().map(String::as_str).collect();
    let nb = Nbench {
        exe: build_nbench()?,
        fixture: root().join("tests/fixtures/verdicts"),
        target_dir: root().join("target/xtask/verdicts"),
        env: vec![],
    };
    let _ = std::fs::remove_dir_all(nb.target_dir.join("nbench"));
    let _ = std::fs::remove_dir_all(nb.target_dir.join("xtask-runs"));
    for f in ["slow05", "slow1", "slow5"] {
        nb.output(&["--features", f, "--list"])?;
    }
    let mut cases = cases(paired_only);
    let mut columns = Columns::default();
    // Every case once per round, so a slow spell of the machine hits all alike.
    for round in 1..=runs {
        eprint!("\rround {round}/{runs}");
        // A baseline of its own every round, its layouts drawn anew (seeds
        // base + 1 … base + 16): no round inherits another's draw. The same
        // build compares with those very executables; every other case's
        // current side is linked with new seeds.
        let base_seed = (10_000 + round * 16).to_string();
        let seed = (20_000 + round * 16).to_string();
        nb.run(
            &[
                &["--save-baseline", "base", "--layout-seed", &base_seed],
                &settings[..],
            ]
            .concat(),
        )?;
        for pair in cases.chunks_mut(FRONT_ENDS.len()) {
            let case = &pair[0];
            let mut a = vec!["--compare", "base"];
            if let Some(f) = case.features {
                a.extend(["--features", f]);
            }
            if case.stored {
                a.push("--compare-stored");
            }
            if case.relink {
                a.extend(["--layout-seed", &seed]);
            } else if !case.stored {
                a.extend(["--layout-seed", &base_seed]);
            }
            a.extend(settings.iter().copied());
            let started = std::time::Instant::now();
            let run = nb.run(&a)?;
            let took = started.elapsed().as_secs_f64();
            keep(&nb, round, case, &run);
            if case.features.is_none() && !case.stored && !case.relink {
                columns.paired = Some(run.clone());
            }
            for case in pair {
                tally(case, &run);
                case.compare_s.push(took);
            }
        }
        // Fresh numbers of the same build, for the paired columns of the A/A rows.
        columns.add(&nb.run(&[])?);
    }
    eprintln!();
    print(&cases, runs);
    columns.print();
    Ok(())
}

/// The cases compared each round, each once per front end: paired (and
/// with stored samples unless `paired_only`).
fn cases(paired_only: bool) -> Vec<Case> {
    let mut cases = Vec::new();
    for stored in [false, true]
        .into_iter()
        .take(if paired_only { 1 } else { 2 })
    {
        cases.push(Case::new("A/A (same build)", None, stored));
        if !stored {
            let mut relinked = Case::new("A/A (relinked)", None, stored);
            relinked.relink = true;
            cases.push(relinked);
        }
        // The slower builds get new layouts every round too, as every pull
        // request does: with the same seeds each round, all rounds would
        // reuse one draw of layouts and count its luck twenty times.
        for (name, feature) in [
            ("0.5 % slower", "slow05"),
            ("1 % slower", "slow1"),
            ("5 % slower", "slow5"),
        ] {
            let mut slower = Case::new(name, Some(feature), stored);
            slower.relink = !stored;
            cases.push(slower);
        }
    }
    // Each case counted per front end, from the same runs.
    cases
        .into_iter()
        .flat_map(|c| {
            FRONT_ENDS
                .map(|target| Case {
                    target,
                    ..Case::new(c.name, c.features, c.stored)
                })
                .into_iter()
                .map(move |mut f| {
                    f.relink = c.relink;
                    f
                })
        })
        .collect()
}

/// Each comparison's JSON, kept under the target directory's `xtask-runs/`
/// for a closer look (per-unit ratios, intervals): `ROUND-CASE.json`.
fn keep(nb: &Nbench, round: usize, case: &Case, run: &Value) {
    let dir = nb.target_dir.join("xtask-runs");
    let name: String = format!(
        "{round:02}-{}{}",
        case.name,
        if case.stored { "-stored" } else { "" }
    )
    .chars()
    .map(|c| {
        if c.is_ascii_alphanumeric() || c == '-' {
            c
        } else {
            '_'
        }
    })
    .collect();
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{name}.json")), run.to_string());
}

/// Whether the paired columns of an A/A comparison read what a plain run of
/// the same code reads: inside the plain run's interval.
#[derive(Default)]
struct Columns {
    /// The round's A/A comparison, waiting for the round's plain run.
    paired: Option<Value>,
    inside: usize,
    total: usize,
    /// Per benchmark: paired baseline column / plain median.
    ratios: BTreeMap<String, Vec<f64>>,
}

impl Columns {
    fn add(&mut self, plain: &Value) {
        let Some(paired) = self.paired.take() else {
            return;
        };
        for target in FRONT_ENDS {
            let benches = of_target(&plain["targets"], target)["benchmarks"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let rows = of_target(&paired["comparison"]["targets"], target)["rows"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            self.add_rows(target, &benches, rows);
        }
    }

    fn add_rows(&mut self, target: &str, benches: &[Value], rows: Vec<Value>) {
        for row in rows {
            let Some(b) = benches.iter().find(|b| b["id"] == row["id"]) else {
                continue;
            };
            let (lo, hi) = (b["median_ci_ns"][0].as_f64(), b["median_ci_ns"][1].as_f64());
            let median = b["median_ns"].as_f64().unwrap_or(f64::NAN);
            for column in ["baseline_ns", "current_ns"] {
                let v = row[column].as_f64().unwrap_or(f64::NAN);
                self.total += 1;
                self.inside +=
                    usize::from(lo.is_some_and(|lo| lo <= v) && hi.is_some_and(|hi| v <= hi));
            }
            let id = format!("{target} {}", row["id"].as_str().unwrap_or("?"));
            let base = row["baseline_ns"].as_f64().unwrap_or(f64::NAN);
            self.ratios.entry(id).or_default().push(base / median);
        }
    }

    fn print(&self) {
        println!(
            "\npaired columns of the A/A rows inside a plain run's interval (same build, same round): {}/{}",
            self.inside, self.total
        );
        let cells: Vec<String> = self
            .ratios
            .iter()
            .map(|(id, r)| format!("{id} {:.3}", mean_sd(r).0))
            .collect();
        println!(
            "paired baseline column / plain median, mean per benchmark: {}",
            cells.join("  ")
        );
    }
}

/// The entry of `targets` (a JSON array) for bench target `label`; null when absent.
pub(crate) fn of_target<'v>(targets: &'v Value, label: &str) -> &'v Value {
    targets
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["target"] == label)
        .unwrap_or(&Value::Null)
}

fn tally(case: &mut Case, run: &Value) {
    let measured = of_target(&run["targets"], case.target)["benchmarks"].as_array();
    for b in measured.into_iter().flatten() {
        case.measuring_s.extend(b["elapsed_s"].as_f64());
    }
    let rows = of_target(&run["comparison"]["targets"], case.target)["rows"].as_array();
    for row in rows.into_iter().flatten() {
        let change = row["change"].as_f64().unwrap_or(f64::NAN);
        let verdict = row["verdict"].as_str().unwrap_or("unchanged");
        let id = row["id"].as_str().unwrap_or("?").to_owned();
        // Where instructions were counted, the row says what time alone gave.
        let by_time = row["time_verdict"].as_str().unwrap_or(verdict);
        let (hit, time_hit) = (hit(case.aa(), verdict), hit(case.aa(), by_time));
        if id.starts_with(RANDOM) {
            case.random.add(verdict, hit);
        } else {
            case.verdicts.add(verdict, hit);
            case.changes.push(change);
            case.time_hits += usize::from(time_hit);
        }
        let entry = case.per_bench.entry(id).or_default();
        entry.0 += usize::from(hit);
        entry.1 += 1;
        entry.2.push(change);
        entry.3 += usize::from(time_hit);
    }
}

fn mean_sd(x: &[f64]) -> (f64, f64) {
    let n = x.len().max(1) as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, var.sqrt())
}

/// The API a case's target is written in.
fn front_end(c: &Case) -> &'static str {
    if c.target == FRONT_ENDS[0] {
        "nbench"
    } else {
        "criterion"
    }
}

/// The rows with inputs drawn afresh in each process, apart: their
/// verdicts per case, the headline's share beside them.
fn print_random(cases: &[Case]) {
    if cases.iter().all(|c| c.random.total() == 0) {
        return;
    }
    println!("\ninputs drawn afresh in each process ({RANDOM}…), not in the table above:");
    for c in cases {
        let t = &c.random;
        println!(
            "{:<10} {:<18} {:<8} {:>9} {:>9} {:>9} {:>12} {:>5.1}% {}",
            front_end(c),
            c.name,
            if c.stored { "stored" } else { "paired" },
            t.regressed,
            t.improved,
            t.unchanged,
            t.inconclusive,
            t.headline(),
            if c.aa() { "changed" } else { "caught" }
        );
    }
}

fn print(cases: &[Case], runs: usize) {
    let benches = cases.first().map_or(0, |c| c.per_bench.len());
    println!(
        "tests/fixtures/verdicts: {runs} comparisons per case, {benches} benchmarks each, default settings\n"
    );
    println!(
        "{:<10} {:<18} {:<8} {:>9} {:>9} {:>9} {:>12} {:>9}   {:>10} {:>13} {:>10} {:>9}",
        "front end",
        "case",
        "compare",
        "regressed",
        "improved",
        "unchanged",
        "inconclusive",
        "headline",
        "time alone",
        "change mean±sd",
        "measure s",
        "compare s"
    );
    for c in cases {
        let (m, sd) = mean_sd(&c.changes);
        let (t, _) = mean_sd(&c.measuring_s);
        let (wall, _) = mean_sd(&c.compare_s);
        let what = if c.aa() { "changed" } else { "caught" };
        println!(
            "{:<10} {:<18} {:<8} {:>9} {:>9} {:>9} {:>12} {:>5.1}% {what:<7} {:>9.1}% {:>+6.2}±{:.2}% {:>8.2} {wall:>9.1}",
            front_end(c),
            c.name,
            if c.stored { "stored" } else { "paired" },
            c.verdicts.regressed,
            c.verdicts.improved,
            c.verdicts.unchanged,
            c.verdicts.inconclusive,
            c.verdicts.headline(),
            c.time_hits as f64 / c.verdicts.total().max(1) as f64 * 100.0,
            m * 100.0,
            sd * 100.0,
            t
        );
    }
    print_random(cases);
    println!("\nper benchmark: headline share, and the change's mean ± sd");
    for c in cases {
        let cells: Vec<String> = c
            .per_bench
            .iter()
            .map(|(id, (hits, n, ch, time_hits))| {
                let (m, sd) = mean_sd(ch);
                let share = |k: usize| k as f64 / (*n).max(1) as f64 * 100.0;
                format!(
                    "{id} {:.0}% (time alone {:.0}%) {:+.2}±{:.2}%",
                    share(*hits),
                    share(*time_hits),
                    m * 100.0,
                    sd * 100.0
                )
            })
            .collect();
        let mode = if c.stored { "stored" } else { "paired" };
        println!(
            "{:<10} {:<18} {mode:<8} {}",
            front_end(c),
            c.name,
            cells.join("  ")
        );
    }
    println!(
        "\nheadline: for A/A the share of verdicts claiming a change, regressed or improved (goal ≤ 2 %, inconclusive ≤ 10 %), otherwise the share called \"regressed\" (goal ≥ 95 %; a miss should be inconclusive, never unchanged)."
    );
    println!("measure s: seconds of measuring per benchmark (paired: both sides together).");
    println!("compare s: wall seconds of the whole comparison (both bench targets).");
}
