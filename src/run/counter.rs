//! Where instructions are counted: the CPU's own counter where it has one
//! that counts (`perf_event_open`, the bench binary run as it is), else
//! Valgrind's callgrind. `NBENCH_COUNTER=cpu` or `=valgrind` chooses.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The variable naming the Valgrind to run (default `valgrind` on `PATH`).
pub const VALGRIND_ENV: &str = "NBENCH_VALGRIND";

/// The variable choosing the counter: `cpu` or `valgrind`.
pub const COUNTER_ENV: &str = "NBENCH_COUNTER";

/// Where instructions are counted.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// The CPU's instruction counter, the bench binary run on it.
    Cpu,
    /// Valgrind's callgrind: this Valgrind.
    Valgrind(PathBuf),
}

/// Why counting failed.
#[derive(Debug, Clone, PartialEq)]
pub enum CountError {
    /// Nothing here counts: no Valgrind could be started (where it was
    /// looked for, and why), nor a CPU counter.
    NoValgrind(String),
    /// The counter [`COUNTER_ENV`] chose (`wanted`) cannot count here, or
    /// it names none: why.
    Chosen {
        /// The variable's value.
        wanted: String,
        /// Why it cannot count, naming the variable.
        why: String,
    },
    /// The counting run failed: what it said.
    Failed(String),
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountError::NoValgrind(why) => write!(f, "could not start Valgrind ({why})"),
            CountError::Chosen { why, .. } => f.write_str(why),
            CountError::Failed(why) => write!(f, "counting instructions failed: {why}"),
        }
    }
}

impl CountError {
    /// What to do where counting cannot start: make Valgrind available,
    /// or leave the choice to this machine ([`COUNTER_ENV`] unset), or
    /// measure time alone.
    pub fn hint(&self) -> String {
        let install = format!(
            "install Valgrind (Debian and Ubuntu: apt-get install valgrind) or set \
             {VALGRIND_ENV} to its path"
        );
        match self {
            CountError::Chosen { wanted, .. } if wanted == "valgrind" => format!(
                "{install}, or unset {COUNTER_ENV} to count on the CPU's counter where it has one"
            ),
            CountError::Chosen { .. } => format!(
                "unset {COUNTER_ENV} to count with what this machine has (its CPU's counter, \
                 else Valgrind), or measure time alone (--metrics time)"
            ),
            _ => format!("{install}, or measure time alone (--metrics time)"),
        }
    }
}

/// Where this machine counts, found once: what [`choose`] makes of
/// [`COUNTER_ENV`], the CPU's counter and Valgrind.
pub fn source() -> Result<Source, CountError> {
    static FOUND: OnceLock<Result<Source, CountError>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        let wanted = std::env::var(COUNTER_ENV).unwrap_or_default();
        let cpu = || nbench::__private::perf::probe().map_err(|e| e.0);
        choose(&wanted, cpu, check_valgrind)
    });
    found.clone()
}

/// The source `wanted` names (`cpu`, `valgrind`, or empty: the CPU's
/// counter where `cpu` finds it counting, else Valgrind where
/// `valgrind` finds it), or why there is none.
pub fn choose(
    wanted: &str,
    cpu: impl Fn() -> Result<(), String>,
    valgrind: impl Fn() -> Result<String, CountError>,
) -> Result<Source, CountError> {
    let on_valgrind = || valgrind().map(|_| Source::Valgrind(self::valgrind()));
    let chosen = |why: String| CountError::Chosen {
        wanted: wanted.to_owned(),
        why: format!("{COUNTER_ENV}={wanted}, but {why}"),
    };
    match wanted {
        "valgrind" => on_valgrind().map_err(|e| match e {
            CountError::NoValgrind(why) => chosen(why),
            other => other,
        }),
        "cpu" => cpu().map(|()| Source::Cpu).map_err(chosen),
        "" => cpu().map(|()| Source::Cpu).or_else(|no_cpu| {
            on_valgrind().map_err(|e| match e {
                CountError::NoValgrind(why) => {
                    CountError::NoValgrind(format!("{why}; no CPU counter either: {no_cpu}"))
                }
                other => other,
            })
        }),
        other => Err(CountError::Chosen {
            wanted: other.to_owned(),
            why: format!("{COUNTER_ENV}={other}: expected cpu or valgrind"),
        }),
    }
}

/// The Valgrind to run.
pub fn valgrind() -> PathBuf {
    std::env::var_os(VALGRIND_ENV).map_or_else(|| PathBuf::from("valgrind"), PathBuf::from)
}

/// Valgrind's version (`valgrind-3.19.0`), or why it cannot be run.
pub fn check_valgrind() -> Result<String, CountError> {
    let valgrind = valgrind();
    let shown = valgrind.display().to_string();
    let out = Command::new(&valgrind)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            CountError::NoValgrind(match e.kind() {
                std::io::ErrorKind::NotFound if valgrind.components().count() == 1 => {
                    format!("`{shown}` is not on PATH")
                }
                std::io::ErrorKind::NotFound => format!("`{shown}` does not exist"),
                _ => format!("`{shown}`: {e}"),
            })
        })?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    match out.status.success() && version.starts_with("valgrind") {
        true => Ok(version),
        false => Err(CountError::NoValgrind(format!(
            "`{shown} --version` did not answer as Valgrind does"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_counts_where_it_can_valgrind_otherwise_and_the_variable_chooses() {
        let yes = || Ok(());
        let no = || Err("this CPU gives no instruction counter".to_owned());
        let valgrind = || Ok("valgrind-3.19.0".to_owned());
        let none = || {
            Err(CountError::NoValgrind(
                "`valgrind` is not on PATH".to_owned(),
            ))
        };
        assert_eq!(choose("", yes, valgrind), Ok(Source::Cpu));
        assert!(matches!(choose("", no, valgrind), Ok(Source::Valgrind(_))));
        assert!(matches!(
            choose("valgrind", yes, valgrind),
            Ok(Source::Valgrind(_))
        ));
        let neither = choose("", no, none).unwrap_err().to_string();
        assert_eq!(
            neither,
            "could not start Valgrind (`valgrind` is not on PATH; no CPU counter either: \
             this CPU gives no instruction counter)"
        );
        let refused = choose("cpu", no, valgrind).unwrap_err().to_string();
        assert!(
            refused.contains("NBENCH_COUNTER=cpu, but this CPU gives no"),
            "{refused}"
        );
        // The one chosen is the one wanted: not "neither".
        let chosen = choose("valgrind", yes, none).unwrap_err();
        assert_eq!(
            chosen.to_string(),
            "NBENCH_COUNTER=valgrind, but `valgrind` is not on PATH"
        );
        let bad = choose("gpu", yes, valgrind).unwrap_err().to_string();
        assert!(
            bad.contains("NBENCH_COUNTER=gpu: expected cpu or valgrind"),
            "{bad}"
        );
    }
}
