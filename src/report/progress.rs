//! The one-line progress display on stderr while measuring; drawn only on a terminal outside CI.

use console::Term;
use std::time::Instant;

/// Shows which benchmark is being measured, n of m, and the time so far.
pub struct Progress {
    term: Option<Term>,
    started: Instant,
}

impl Progress {
    /// Draws on stderr if it is a terminal and `CI` is not set; otherwise does nothing.
    pub fn new(enabled: bool) -> Progress {
        let term = Term::stderr();
        let on = enabled && term.is_term() && std::env::var_os("CI").is_none();
        Progress {
            term: on.then_some(term),
            started: Instant::now(),
        }
    }

    /// A benchmark starts.
    pub fn start(&mut self, target: &str, id: &str, n: usize, of: usize) {
        if let Some(t) = &self.term {
            let line = format!(
                "{} [{n}/{of}] {target} › {id}  {:.1}s",
                console::style("Measuring").cyan().bold(),
                self.started.elapsed().as_secs_f64()
            );
            let width = usize::from(t.size().1).max(20);
            let line = console::truncate_str(&line, width - 1, "…");
            let _ = t.clear_line();
            let _ = t.write_str(&line);
        }
    }

    /// Removes the line.
    pub fn clear(&mut self) {
        if let Some(t) = &self.term {
            let _ = t.clear_line();
        }
    }
}
