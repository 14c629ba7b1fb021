//! `cargo xtask front-end`: the same bodies timed through nbench's API and
//! through criterion's (nbench-criterion), in the same `cargo nbench` runs.

use crate::verdicts::{Nbench, of_target};
use crate::{build_nbench, root, runs_arg};
use serde_json::Value;
use std::collections::BTreeMap;

const TARGETS: [(&str, &str); 2] = [
    ("nbench", "cargo-nbench/front_end_native"),
    ("criterion", "cargo-nbench/front_end_criterion"),
];

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = runs_arg(args, 10, "cargo xtask front-end [--runs N]")?;
    let nb = Nbench {
        exe: build_nbench()?,
        fixture: root(),
        target_dir: root().join("target/xtask/front-end"),
        env: vec![],
    };
    let select = [
        "--bench",
        "front_end_native",
        "--bench",
        "front_end_criterion",
    ];
    // Per (id, front end): each run's median and its interval's half-width, ns.
    let mut medians: BTreeMap<(String, &str), Vec<(f64, f64)>> = BTreeMap::new();
    for round in 1..=runs {
        eprint!("\rrun {round}/{runs}");
        let out = nb.run(&select)?;
        for (api, label) in TARGETS {
            let target = of_target(&out["targets"], label);
            if target.is_null() {
                return Err(format!("no {label} in the run"));
            }
            for b in target["benchmarks"].as_array().into_iter().flatten() {
                let id = b["id"].as_str().unwrap_or("?").to_owned();
                medians
                    .entry((id, api))
                    .or_default()
                    .push((number(&b["median_ns"]), half_width(b)));
            }
        }
    }
    eprintln!();
    println!(
        "the same bodies through each front end, {runs} `cargo nbench` runs (default settings):"
    );
    println!(
        "{:<18} {:<10} {:>14} {:>14} {:>10}",
        "benchmark", "front end", "median of runs", "runs' range", "mean ±CI"
    );
    for ((id, api), m) in &medians {
        let mut values: Vec<f64> = m.iter().map(|(v, _)| *v).collect();
        values.sort_by(f64::total_cmp);
        let mid = values[values.len() / 2];
        let ci = m.iter().map(|(_, h)| h).sum::<f64>() / m.len() as f64;
        println!(
            "{id:<18} {api:<10} {:>11.3} ns {:>6.3}–{:<6.3} {:>8.3} ns",
            mid,
            values[0],
            values[values.len() - 1],
            ci
        );
    }
    Ok(())
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// Half the width of a benchmark's median interval, ns.
fn half_width(b: &Value) -> f64 {
    (number(&b["median_ci_ns"][1]) - number(&b["median_ci_ns"][0])) / 2.0
}
