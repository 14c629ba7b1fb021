//! Notes on stderr about what this crate accepts but does not do, each said once per process.

use std::sync::Mutex;

static SAID: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// Prints `note: {what}` on stderr, unless a note with this `what` was printed already.
pub(crate) fn once(what: &'static str) {
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    if !said.contains(&what) {
        said.push(what);
        eprintln!("note: {what}");
    }
}
