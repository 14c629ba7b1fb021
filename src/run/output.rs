//! Capturing what a bench process prints, to show it for a benchmark that
//! fails (its stdout while a benchmark is timed goes to `/dev/null` unless
//! shown: `nbench::__private::QUIET_ENV`).

use std::io::{Read, Write};
use std::process::Child;
use std::sync::{Arc, Mutex};

/// Keep at most this much of a process's output (the most recent part).
const KEEP: usize = 64 * 1024;

/// The combined stdout and stderr of a child, collected by background threads.
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    /// Takes the child's stdout and stderr pipes; with `echo`, also copies
    /// them to this process's stderr as they arrive (`--nocapture`).
    pub fn attach(child: &mut Child, echo: bool) -> Captured {
        let captured = Captured::default();
        let pipes: Vec<Box<dyn Read + Send>> = [
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ]
        .into_iter()
        .flatten()
        .collect();
        for mut pipe in pipes {
            let sink = captured.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 8192];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if echo {
                        let _ = std::io::stderr().write_all(&buf[..n]);
                    }
                    sink.push(&buf[..n]);
                }
            });
        }
        captured
    }

    fn push(&self, bytes: &[u8]) {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.extend_from_slice(bytes);
        if v.len() > KEEP {
            let cut = v.len() - KEEP;
            v.drain(..cut);
        }
    }

    /// Waits briefly until nothing new has arrived for a moment: the pipes
    /// are read by threads, so a failure reported over the channel can
    /// overtake the last lines the benchmark printed.
    pub fn settle(&self) {
        let len = || self.0.lock().map(|v| v.len()).unwrap_or(0);
        for _ in 0..20 {
            let before = len();
            std::thread::sleep(std::time::Duration::from_millis(5));
            if len() == before {
                break;
            }
        }
    }

    /// Drops what was collected, where there is some first letting the rest
    /// of it arrive ([`Self::settle`]): a benchmark that printed much still
    /// has lines in the pipes after its result, which would otherwise be
    /// shown as the next benchmark's output (measured: 20 of 2000 lines
    /// printed to stderr arrived after the next benchmark's own line on stdout).
    pub fn discard(&self) {
        let printed = self.0.lock().map(|v| !v.is_empty()).unwrap_or(false);
        if printed {
            self.settle();
        }
        let _ = self.take();
    }

    /// Everything collected since the last call, as text.
    pub fn take(&self) -> String {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// What a process was saying as it ended: its last panic (where, and its
/// message, not the backtrace or note after it), else the last line it
/// printed that says something (not the pointer to `--help` that a usage
/// error ends with, in clap's words and the harness's).
pub fn last_words(printed: &str) -> Option<String> {
    if let Some(panic) = crate::model::said::last_panic(printed) {
        return Some(panic);
    }
    let line = printed
        .lines()
        .map(str::trim)
        .rev()
        .find(|l| !l.is_empty() && !l.starts_with("For more information, try '--help'"))?;
    Some(line.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_tail() {
        let c = Captured::default();
        c.push(&vec![b'a'; KEEP]);
        c.push(b"end");
        let text = c.take();
        assert_eq!(text.len(), KEEP);
        assert!(text.ends_with("aend"));
        assert_eq!(c.take(), "");
    }

    #[test]
    fn a_binary_that_ends_early_is_quoted_by_its_panic_or_its_last_line() {
        assert_eq!(
            last_words("warming\nerror: no such pattern\n\n  \n"),
            Some("error: no such pattern".into())
        );
        assert_eq!(last_words(" \n"), None);
        let usage = "error: unknown option '--bogus'\n\nFor more information, try '--help'.\n";
        assert_eq!(
            last_words(usage).as_deref(),
            Some("error: unknown option '--bogus'")
        );
        let panicked = "thread 'main' panicked at a.rs:3:5:\nno data\nnote: …\n";
        assert_eq!(
            last_words(panicked).as_deref(),
            Some("panicked at a.rs:3:5: no data")
        );
    }
}
