//! What the run shows while it happens: the one-line progress display on stderr (a terminal
//! only; plain lines in CI), and with `--format jsonl` each outcome as an event on stdout.

use crate::model::observer::Observer;
use crate::model::outcome::Outcome;
use console::Term;
use std::io::Write;
use std::time::{Duration, Instant};

/// How progress is shown.
enum Display {
    /// Not at all (`-q`, a format other than the console's).
    Off,
    /// One line redrawn in place on a terminal.
    Line(Term),
    /// Plain lines, for CI logs, pipes and files: when and what the last said.
    Plain(Option<(Instant, String)>),
}

/// A plain line at most this often within a target, except its first and
/// last measurement and a change of what is done: a benchmark measured in
/// eight epochs gave eight lines, and a default run some 400.
const PLAIN_EVERY: Duration = Duration::from_secs(1);

/// Shows which benchmark is being measured, n of m, and the time left.
pub struct Progress {
    display: Display,
    started: Instant,
    /// The target being measured and when its first benchmark started.
    target: (String, Instant),
    /// Streaming events: how many outcomes of the current target were written.
    events: Option<(String, usize)>,
    /// Plain lines for every measurement (`-v`), not one a second.
    every_line: bool,
}

impl Progress {
    /// When `enabled`: a line redrawn in place if stderr is a terminal (and
    /// `CI` is not set), else plain lines; otherwise nothing.
    pub fn new(enabled: bool) -> Progress {
        let term = Term::stderr();
        // A pipe or a log file gets a plain line per benchmark, as CI does:
        // a long measurement never looks like a hang.
        let display = match () {
            _ if !enabled => Display::Off,
            _ if std::env::var_os("CI").is_some() => Display::Plain(None),
            _ if term.is_term() => Display::Line(term),
            _ => Display::Plain(None),
        };
        Progress {
            display,
            started: Instant::now(),
            target: (String::new(), Instant::now()),
            events: None,
            every_line: false,
        }
    }

    /// With `on` (`-v`), plain lines name every measurement as it starts.
    pub fn every_line(mut self, on: bool) -> Progress {
        self.every_line = on;
        self
    }

    /// Also writes each outcome to stdout as a JSON line, as soon as it is known.
    pub fn stream_events(mut self) -> Progress {
        self.events = Some((String::new(), 0));
        self
    }
}

impl Observer for Progress {
    /// The outcomes of `target` so far; those not yet written as events are written now.
    fn observe(&mut self, target: &str, outcomes: &[Outcome]) {
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

    /// A benchmark starts: the `n`th of `of` in `target`.
    fn start(&mut self, target: &str, id: &str, n: usize, of: usize) {
        self.show(("measuring", "Measuring"), (target, id), n, of);
    }

    /// A comparison in doubt is measured further: the `k`th of `of`.
    fn further(&mut self, target: &str, id: &str, k: usize, of: usize) {
        self.show(
            ("measuring further", "Measuring further"),
            (target, id),
            k,
            of,
        );
    }

    fn counting(&mut self, target: &str, benchmarks: usize, n: usize, of: usize) {
        let what = match benchmarks {
            1 => "1 benchmark under callgrind".to_owned(),
            b => format!("{b} benchmarks under callgrind"),
        };
        self.show(("counting", "Counting"), (target, &what), n, of);
    }

    /// Removes the line.
    fn clear(&mut self) {
        if let Display::Line(t) = &self.display {
            let _ = t.clear_line();
        }
    }
}

impl Progress {
    /// Shows the `n`th benchmark of `of` that `verb` (as a plain line, and
    /// as the terminal's line) takes in `target`. Its time left counts from
    /// the first of the `of`.
    fn show(&mut self, verb: (&str, &str), (target, id): (&str, &str), n: usize, of: usize) {
        let fresh = self.target.0 != target || n <= 1;
        if fresh {
            self.target = (target.to_owned(), Instant::now());
        }
        let left = eta(self.target.1.elapsed().as_secs_f64(), n, of);
        let id = nbench::__private::format::one_line(id);
        let always = self.every_line || fresh || n == of;
        match &mut self.display {
            Display::Off => {}
            Display::Plain(last) => {
                let since = (last.as_ref())
                    .filter(|(_, said)| said == verb.0)
                    .map(|(at, _)| at.elapsed());
                if plain_due(since, always) {
                    errln!("{} [{n}/{of}] {target} › {id}{left}", verb.0);
                    *last = Some((Instant::now(), verb.0.to_owned()));
                }
            }
            Display::Line(t) => {
                let line = format!(
                    "{} [{n}/{of}] {target} › {id}  {:.1}s{left}",
                    console::style(verb.1).cyan().bold(),
                    self.started.elapsed().as_secs_f64()
                );
                let width = usize::from(t.size().1).max(20);
                let line = console::truncate_str(&line, width - 1, "…");
                let _ = t.clear_line();
                let _ = t.write_str(&line);
            }
        }
    }
}

/// Whether a plain line is due: `since` the last one that said the same
/// verb (`None`: none did), or `always` (a target's first or last, `-v`).
fn plain_due(since: Option<Duration>, always: bool) -> bool {
    always || since.is_none_or(|s| s >= PLAIN_EVERY)
}

/// `, ~12s left` for the `n`th benchmark of `of` when the first `n - 1` took
/// `elapsed` seconds (their mean time for each one left); empty before any finished.
fn eta(elapsed: f64, n: usize, of: usize) -> String {
    if n <= 1 || n > of {
        return String::new();
    }
    let left = elapsed / (n - 1) as f64 * (of - n + 1) as f64;
    format!(", ~{left:.0}s left")
}

#[cfg(test)]
mod tests {
    #[test]
    fn plain_lines_come_a_second_apart_but_a_targets_first_and_last_always() {
        use std::time::Duration;
        let ms = |m| Some(Duration::from_millis(m));
        assert!(super::plain_due(None, false), "nothing said of this yet");
        assert!(!super::plain_due(ms(300), false));
        assert!(super::plain_due(ms(300), true));
        assert!(super::plain_due(ms(1000), false));
    }

    #[test]
    fn time_left_is_the_mean_so_far_times_what_remains() {
        assert_eq!(super::eta(3.0, 1, 4), "");
        assert_eq!(super::eta(3.0, 4, 4), ", ~1s left");
        assert_eq!(super::eta(2.0, 3, 10), ", ~8s left");
    }
}
