//! `--format json` (and `jsonl`'s comparison event): the record as stored,
//! with the notes the console prints under each compared target beside the
//! rows they are about (`notes` on a row) or on the target where they name
//! no row.

use crate::compare::words::row_notes;
use crate::model::comparison::Comparison;
use crate::model::record::RunRecord;
use serde_json::{Value, json};

/// The whole run as one JSON document.
pub fn render(record: &RunRecord) -> String {
    let mut v = serde_json::to_value(record).expect("run records serialise");
    if let Some(c) = &record.comparison {
        v["comparison"] = comparison(c);
    }
    serde_json::to_string_pretty(&v).expect("values serialise") + "\n"
}

/// A comparison with its notes.
pub fn comparison(c: &Comparison) -> Value {
    let mut v = serde_json::to_value(c).expect("comparisons serialise");
    let Some(targets) = v["targets"].as_array_mut() else {
        return v;
    };
    for (t, value) in c.targets.iter().zip(targets) {
        let mut plain = Vec::new();
        let mut about: Vec<(String, String)> = Vec::new();
        for note in row_notes(&t.rows, c.noise_threshold) {
            match &note.id {
                Some(id) => about.push((id.clone(), note.to_string())),
                None => plain.push(note.to_string()),
            }
        }
        for row in value["rows"].as_array_mut().into_iter().flatten() {
            let mine: Vec<&String> = (about.iter())
                .filter(|(id, _)| row["id"] == id.as_str())
                .map(|(_, n)| n)
                .collect();
            if !mine.is_empty() {
                row["notes"] = json!(mine);
            }
        }
        if !plain.is_empty() {
            value["notes"] = json!(plain);
        }
    }
    v
}
