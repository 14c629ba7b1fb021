//! Fresh runs in epochs: each benchmark measured in several processes, the estimate and its
//! interval from their spread, stored with the run; `--epochs 1` measures in one process.

use crate::helpers::{Fixture, QUICK};
use serde_json::Value;

fn benchmarks(doc: &Value) -> Vec<Value> {
    doc["targets"][0]["benchmarks"].as_array().unwrap().clone()
}

#[test]
fn a_fresh_run_measures_in_epochs_and_stores_them() {
    let fx = Fixture::new("workspace").own_target_dir();
    let args: Vec<&str> = ["-p", "tunable", "--format", "json"]
        .iter()
        .chain(QUICK)
        .copied()
        .collect();
    let run = fx.nbench(&args);
    let doc = run.json();
    assert_eq!(doc["context"]["settings"]["epochs"], 8);
    let benches = benchmarks(&doc);
    assert!(!benches.is_empty());
    for b in &benches {
        let medians = b["repeats"]["medians_ns"].as_array().unwrap();
        assert_eq!(medians.len(), 8, "one median per epoch: {b}");
        // The estimate is the fastest epoch's median ...
        let positive: Vec<f64> = medians
            .iter()
            .map(|m| m.as_f64().unwrap())
            .filter(|m| *m > 0.0)
            .collect();
        let fastest = positive.iter().copied().fold(f64::INFINITY, f64::min);
        let est = b["median_ns"].as_f64().unwrap();
        if positive.len() >= 2 {
            assert!(
                (est - fastest).abs() <= 1e-9 * fastest.max(1.0),
                "{est} vs {fastest}"
            );
        }
        // ... inside an interval of non-zero width, and the pooled samples'
        // own figures are kept beside it.
        let ci = [
            b["median_ci_ns"][0].as_f64().unwrap(),
            b["median_ci_ns"][1].as_f64().unwrap(),
        ];
        assert!(ci[0] < est && est < ci[1], "{ci:?} around {est}");
        let within = &b["within_process"];
        assert!(within["median_ns"].as_f64().unwrap() > 0.0, "{b}");
        let w = &within["median_ci_ns"];
        assert!(w[0].as_f64().unwrap() < w[1].as_f64().unwrap(), "{b}");
    }
    // The stored run is the same document.
    let stored = std::fs::read_dir(fx.dir.join("target/nbench/runs"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let stored: Value = serde_json::from_slice(&std::fs::read(stored).unwrap()).unwrap();
    assert_eq!(stored["targets"], doc["targets"]);

    // One process: no epochs, no within-process figures, an interval all the same.
    let one: Vec<&str> = args.iter().copied().chain(["--epochs", "1"]).collect();
    let run = fx.nbench(&one);
    let doc = run.json();
    for b in benchmarks(&doc) {
        assert!(
            b["repeats"].is_null() && b["within_process"].is_null(),
            "{b}"
        );
        let lo = b["median_ci_ns"][0].as_f64().unwrap();
        let hi = b["median_ci_ns"][1].as_f64().unwrap();
        assert!(lo < hi, "never zero width: {b}");
    }
}

#[test]
fn the_next_runs_interval_draws_on_the_runs_of_the_same_build_before_it() {
    let fx = Fixture::new("workspace").own_target_dir();
    let json = |extra: &[&str]| -> Value {
        let args: Vec<&str> = ["-p", "tunable", "--format", "json"]
            .iter()
            .chain(QUICK)
            .chain(extra)
            .copied()
            .collect();
        let run = fx.nbench(&args);
        run.json()
    };
    let earlier_runs = |doc: &Value| -> Vec<u64> {
        (benchmarks(doc).iter())
            .map(|b| {
                assert_eq!(b["interval"]["level"], 0.9, "{b}");
                b["interval"]["earlier_runs"].as_u64().unwrap()
            })
            .collect()
    };
    let first = json(&[]);
    let build = first["targets"][0]["build"].as_str().unwrap().to_owned();
    assert_eq!(build.len(), 16, "the executable's hash: {build}");
    assert!(earlier_runs(&first).iter().all(|n| *n == 0));
    // A line cut off (a run killed while writing) is passed over.
    let history = fx.dir.join("target/nbench/history.jsonl");
    let mut text = std::fs::read_to_string(&history).unwrap();
    text.push_str("{\"target\": \"tunable/");
    std::fs::write(&history, text).unwrap();
    let second = json(&[]);
    assert_eq!(second["targets"][0]["build"], build.as_str());
    assert!(earlier_runs(&second).iter().all(|n| *n == 1), "{second}");
    // Another number of epochs is another measurement: its own history.
    assert!(
        earlier_runs(&json(&["--epochs", "4"]))
            .iter()
            .all(|n| *n == 0)
    );
    // The console names what the interval is.
    let args: Vec<&str> = ["-p", "tunable"].iter().chain(QUICK).copied().collect();
    let run = fx.nbench(&args);
    assert_eq!(run.code, 0, "{}", run.all());
    assert!(run.stdout.contains("±next"), "{}", run.stdout);
    assert!(
        run.stdout.contains("±next: where the next run's median lands 90 % of the time, from 8 epochs and 2 earlier runs of this build"),
        "{}",
        run.stdout
    );
    // One process: an interval of the median, said as such.
    let one: Vec<&str> = args.iter().copied().chain(["--epochs", "1"]).collect();
    let run = fx.nbench(&one);
    assert!(
        run.stdout.contains("±CI") && !run.stdout.contains("±next"),
        "{}",
        run.stdout
    );
    // Streamed as measured, a benchmark's event has the interval the run stores.
    let jsonl: Vec<&str> = args.iter().copied().chain(["--format", "jsonl"]).collect();
    let run = fx.nbench(&jsonl);
    let events: Vec<Value> = (run.stdout.lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|e: &Value| e["event"] == "benchmark")
        .collect();
    assert!(!events.is_empty(), "{}", run.stdout);
    for e in &events {
        assert_eq!(e["interval"]["earlier_runs"], 3, "{e}");
    }
    // After a rebuild, the runs so far are another build's: the first run
    // of this one learns from how they scattered, and says so.
    let text = std::fs::read_to_string(&history).unwrap();
    std::fs::write(&history, text.replace(&build, "0123456789abcdef")).unwrap();
    let rebuilt = json(&[]);
    for b in benchmarks(&rebuilt) {
        assert_eq!(b["interval"]["earlier_runs"], 0, "{b}");
        assert_eq!(b["interval"]["other_runs"], 4, "{b}");
    }
}
