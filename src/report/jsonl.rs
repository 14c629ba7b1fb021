//! `--format jsonl`: the run as events, one JSON object per line; on stdout they are written as they happen.

use crate::model::outcome::Outcome;
use crate::model::record::{BenchRecord, FailureRecord, RunRecord};
use serde_json::{Value, json};

/// The event for one benchmark's outcome (none for a merely listed one).
pub fn outcome(target: &str, o: &Outcome) -> Option<String> {
    match o {
        Outcome::Measured(m) => Some(benchmark(target, &BenchRecord::from_measured(m))),
        Outcome::Failed(f) => Some(failure(target, &FailureRecord::from(f))),
        Outcome::Ignored(id) => Some(ignored(target, id)),
        Outcome::Skipped { id, reason } => Some(skipped(target, id, reason)),
        Outcome::Listed(_) => None,
    }
}

fn benchmark(target: &str, b: &BenchRecord) -> String {
    tagged("benchmark", target, serde_json::to_value(b))
}

fn failure(target: &str, f: &FailureRecord) -> String {
    tagged("failed", target, serde_json::to_value(f))
}

fn skipped(target: &str, id: &str, reason: &str) -> String {
    line(json!({"event": "skipped", "target": target, "id": id, "reason": reason}))
}

fn ignored(target: &str, id: &str) -> String {
    line(json!({"event": "ignored", "target": target, "id": id}))
}

/// What follows the benchmarks: each target's fits, the comparison, and a closing `finished` event.
pub fn tail(run: &RunRecord, saved: Option<&std::path::Path>) -> String {
    let mut out = String::new();
    for t in &run.targets {
        for f in &t.fits {
            out.push_str(&tagged("fit", &t.target, serde_json::to_value(f)));
        }
    }
    if let Some(c) = &run.comparison {
        let mut v = super::json::comparison(c);
        v["event"] = json!("comparison");
        out.push_str(&line(v));
    }
    let counts = run.counts();
    out.push_str(&line(json!({
        "event": "finished",
        "measured": counts.measured,
        "failed": counts.failed,
        "ignored": counts.ignored,
        "skipped": counts.skipped,
        "filtered_out": counts.filtered_out,
        "duration_s": run.duration_s,
        "context": run.context,
        "saved": saved.map(|p| p.display().to_string()),
    })));
    out
}

/// Every event of a finished run, for a file.
pub fn render(run: &RunRecord, saved: Option<&std::path::Path>) -> String {
    let mut out = String::new();
    for t in &run.targets {
        for b in &t.benchmarks {
            out.push_str(&benchmark(&t.target, b));
        }
        for f in &t.failures {
            out.push_str(&failure(&t.target, f));
        }
        for id in &t.ignored {
            out.push_str(&ignored(&t.target, id));
        }
        for s in &t.skipped {
            out.push_str(&skipped(&t.target, &s.id, &s.reason));
        }
    }
    out + &tail(run, saved)
}

fn tagged(event: &str, target: &str, v: serde_json::Result<Value>) -> String {
    let mut v = v.expect("records serialise");
    let fields = v.as_object_mut().expect("records are objects");
    let mut tagged = serde_json::Map::new();
    tagged.insert("event".into(), json!(event));
    tagged.insert("target".into(), json!(target));
    tagged.append(fields);
    line(Value::Object(tagged))
}

fn line(v: Value) -> String {
    format!("{v}\n")
}
