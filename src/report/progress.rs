//! What the run shows while it happens: the one-line progress display on stderr (a terminal
//! outside CI only), and with `--format jsonl` each outcome as an event on stdout.

use crate::run::Outcome;
use console::Term;
use std::io::Write;
use std::time::Instant;

/// Shows which benchmark is being measured, n of m, and the time so far.
pub struct Progress {
    term: Option<Term>,
    started: Instant,
    /// Streaming events: how many outcomes of the current target were written.
    events: Option<(String, usize)>,
}

impl Progress {
    /// Draws on stderr if it is a terminal and `CI` is not set; otherwise does nothing.
    pub fn new(enabled: bool) -> Progress {
        let term = Term::stderr();
        let on = enabled && term.is_term() && std::env::var_os("CI").is_none();
        Progress {
            term: on.then_some(term),
            started: Instant::now(),
            events: None,
        }
    }

    /// Also writes each outcome to stdout as a JSON line, as soon as it is known.
    pub fn stream_events(mut self) -> Progress {
        self.events = Some((String::new(), 0));
        self
    }

    /// The outcomes of `target` so far; those not yet written as events are written now.
    pub fn observe(&mut self, target: &str, outcomes: &[Outcome]) {
        let Some((current, written)) = &mut self.events else {
            return;
        };
        if current != target {
            *current = target.to_owned();
            *written = 0;
        }
        let mut out = std::io::stdout().lock();
        for o in &outcomes[*written..] {
            if let Some(line) = super::jsonl::outcome(target, o) {
                let _ = out.write_all(line.as_bytes());
            }
        }
        let _ = out.flush();
        *written = outcomes.len();
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
