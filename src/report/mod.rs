//! Reporting a run: the console table, the JSON document, and the progress line.

pub mod compare;
pub mod console;
pub mod progress;
pub mod record;
