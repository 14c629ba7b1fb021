//! divan's command line: its own flags become the runner's settings (or
//! are said once where nbench decides that itself); libtest's flags and
//! nbench's own pass on to nbench.

use crate::Divan;
use crate::counter::Counter;

/// divan's flags with a value that nbench has no use for.
const IGNORED_WITH_VALUE: &[&str] = &[
    "--sample-count",
    "--sample-size",
    "--timer",
    "--bytes-format",
    "--sort",
    "--sortr",
];

/// A counter's flag, its variable, and the counter a count makes.
type CounterFlag = (&'static str, &'static str, fn(u64) -> Counter);

/// divan's counters set for every benchmark, by flag and by variable.
const COUNTERS: [CounterFlag; 4] = [
    ("--items-count", "DIVAN_ITEMS_COUNT", Counter::Items),
    ("--bytes-count", "DIVAN_BYTES_COUNT", Counter::Bytes),
    ("--chars-count", "DIVAN_CHARS_COUNT", Counter::Chars),
    ("--cycles-count", "DIVAN_CYCLES_COUNT", Counter::Cycles),
];

/// Reads `args` (the program's command line without its name) and divan's
/// environment variables into `divan`. Where the code has already set
/// thread counts or a counter, the code's stand: its counters are declared
/// after these.
pub fn read(mut divan: Divan, args: impl Iterator<Item = String>) -> Divan {
    let mut from_line = Divan::default();
    if let Ok(v) = std::env::var("DIVAN_THREADS") {
        from_line.threads_from("DIVAN_THREADS", &v);
    }
    for (_, var, make) in COUNTERS {
        if let Ok(v) = std::env::var(var) {
            from_line.counter_from(var, make, &v);
        }
    }
    from_line.flags(args);
    divan.threads = divan.threads.or(from_line.threads);
    from_line.counters.append(&mut divan.counters);
    divan.counters = from_line.counters;
    divan.args.append(&mut from_line.args);
    divan.faults.append(&mut from_line.faults);
    divan.read = true;
    divan
}

impl Divan {
    /// Takes divan's own flags from `args`; the rest go to `self.args`.
    fn flags(&mut self, args: impl Iterator<Item = String>) {
        let mut args = args.peekable();
        while let Some(a) = args.next() {
            if a == "--" {
                self.args.push(a);
                self.args.extend(args.by_ref());
                break;
            }
            let (flag, inline) = match a.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
                _ => (a.clone(), None),
            };
            let counter = COUNTERS.iter().find(|c| c.0 == flag);
            let takes_value = flag == "--threads" || counter.is_some();
            let value = match (takes_value, inline) {
                (true, Some(v)) => v,
                (true, None) => match args.next() {
                    Some(v) => v,
                    None => {
                        self.faults.push(format!("divan's `{flag}` needs a value"));
                        continue;
                    }
                },
                (false, _) => String::new(),
            };
            if flag == "--threads" {
                self.threads_from(&flag, &value);
            } else if let Some((flag, _, make)) = counter {
                self.counter_from(flag, *make, &value);
            } else if IGNORED_WITH_VALUE.contains(&flag.as_str()) {
                if !a.contains('=') {
                    args.next();
                }
                not_honoured(&flag);
            } else if flag == "--skip-ext-time" {
                // Its value is optional.
                if !a.contains('=') {
                    args.next_if(|v| v == "true" || v == "false");
                }
                not_honoured(&flag);
            } else {
                self.args.push(a);
            }
        }
    }

    /// `--threads 1,4` (or `DIVAN_THREADS`): counts added to the runner's.
    fn threads_from(&mut self, from: &str, value: &str) {
        for n in value.split(',') {
            match n.trim().parse() {
                Ok(n) => self.threads.get_or_insert_with(Vec::new).push(n),
                Err(_) => {
                    (self.faults).push(format!("divan's `{from}`: `{n}` is not a thread count"))
                }
            }
        }
    }

    /// `--items-count N` and the like: a counter for every benchmark.
    fn counter_from(&mut self, from: &str, make: fn(u64) -> Counter, value: &str) {
        match value.trim().parse() {
            Ok(n) => self.counters.push(make(n)),
            Err(_) => (self.faults).push(format!("divan's `{from}`: `{value}` is not a count")),
        }
    }
}

/// Says once that divan's `flag` is taken and changes nothing.
fn not_honoured(flag: &str) {
    eprintln!("note: divan's `{flag}` is accepted and not honoured under nbench");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(args: &str) -> impl Iterator<Item = String> {
        args.split(' ')
            .map(str::to_owned)
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn divans_flags_become_settings_and_the_rest_pass_on() {
        let d = read(
            Divan::default(),
            line("--threads 1,4 --threads=2 --items-count=3 --sort name --exact x -- --threads 9"),
        );
        assert_eq!(d.threads, Some(vec![1, 4, 2]));
        assert!(matches!(d.counters[..], [Counter::Items(3)]));
        assert_eq!(d.args, ["--exact", "x", "--", "--threads", "9"]);
        assert!(d.faults.is_empty() && d.read);
    }

    #[test]
    fn the_codes_settings_stand_over_the_command_lines() {
        let code = Divan::default().threads([8]).items_count(2u32);
        let d = read(code, line("--threads 1 --items-count 5 --bench"));
        assert_eq!(d.threads, Some(vec![8]));
        // Declared in order: the command line's, then the code's, which stands.
        assert!(matches!(
            d.counters[..],
            [Counter::Items(5), Counter::Items(2)]
        ));
        assert_eq!(d.args, ["--bench"]);
    }

    #[test]
    fn values_that_cannot_run_are_faults_not_panics() {
        let d = read(Divan::default(), line("--threads two --cycles-count"));
        assert_eq!(
            d.faults,
            [
                "divan's `--threads`: `two` is not a thread count",
                "divan's `--cycles-count` needs a value"
            ]
        );
    }
}
