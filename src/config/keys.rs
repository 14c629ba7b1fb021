//! The settings a config file (and `NBENCH_*`) may set: each is a flag of `cargo nbench`,
//! and each key parses its own value into the typed command line.

use crate::cli::{self, Cli};
use clap::ValueEnum;
use std::ops::RangeInclusive;
use std::path::PathBuf;

/// Parses a file's value of one key and sets it on the command line, as
/// the flag would; `Err` says what the value should be.
type Setter = fn(&mut Cli, &str) -> Result<(), String>;

/// One setting: its name is the flag's long name without `--`.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// `warm-up`: the file key and the flag.
    pub name: &'static str,
    /// Whether `[bench.NAME]` may set it for one bench target.
    pub per_bench: bool,
    /// Whether it takes a list (`out`).
    pub many: bool,
    set: Setter,
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.name == other.name
    }
}

impl Eq for Key {}

const fn key(name: &'static str, per_bench: bool, set: Setter) -> Key {
    Key {
        name,
        per_bench,
        many: false,
        set,
    }
}

/// A whole number in `range`, with the words the flag's own parser uses.
fn count(text: &str, range: RangeInclusive<u32>) -> Result<Option<u32>, String> {
    let n: i64 = text
        .trim()
        .parse()
        .map_err(|e: std::num::ParseIntError| e.to_string())?;
    match u32::try_from(n) {
        Ok(n) if range.contains(&n) => Ok(Some(n)),
        _ => Err(format!("{n} is not in {}..={}", range.start(), range.end())),
    }
}

/// One of an enumeration's values, by its name on the command line.
fn word<T: ValueEnum>(text: &str) -> Result<T, String> {
    T::from_str(text, false).map_err(|_| {
        let names: Vec<String> = T::value_variants()
            .iter()
            .filter_map(T::to_possible_value)
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_owned())
            .collect();
        format!("expected one of: {}", names.join(", "))
    })
}

const ANY: RangeInclusive<u32> = 1..=u32::MAX;

/// A [`Setter`] of `Cli`'s field: `field!(name = parse)`, or
/// `field!(name = Some parse)` for an optional one.
macro_rules! field {
    ($f:ident = Some $parse:expr) => {
        |c: &mut Cli, v: &str| {
            c.$f = Some($parse(v)?);
            Ok(())
        }
    };
    ($f:ident = $parse:expr) => {
        |c: &mut Cli, v: &str| {
            c.$f = $parse(v)?;
            Ok(())
        }
    };
}

/// Every setting a file may hold, in the order `cargo nbench config` shows them.
pub const KEYS: &[Key] = &[
    key("warm-up", true, field!(warm_up = Some cli::duration)),
    key("min-time", true, field!(min_time = Some cli::duration)),
    key("max-time", true, field!(max_time = Some cli::duration)),
    key("precision", true, field!(precision = Some cli::percent)),
    key("min-samples", true, field!(min_samples = |v| count(v, ANY))),
    key("max-samples", true, field!(max_samples = |v| count(v, ANY))),
    key("outliers", true, field!(outliers = Some cli::outlier_mode)),
    key("timeout", true, field!(timeout = cli::timeout)),
    key("epochs", true, field!(epochs = |v| count(v, 1..=64))),
    key("metrics", true, field!(metrics = Some cli::metrics)),
    key(
        "repetitions",
        false,
        field!(repetitions = |v| count(v, ANY)),
    ),
    key("launches", false, field!(launches = |v| count(v, ANY))),
    key(
        "interleave",
        false,
        field!(interleave = |v| count(v, 2..=u32::MAX)),
    ),
    key("layouts", false, field!(layouts = |v| count(v, 1..=64))),
    key("placement", false, field!(placement = word)),
    key(
        "noise-threshold",
        false,
        field!(noise_threshold = cli::percent),
    ),
    key("format", false, field!(format = word)),
    Key {
        name: "out",
        per_bench: false,
        many: true,
        set: |c, v| match v {
            "" => Err("expected a file's path".into()),
            v => {
                c.out.push(PathBuf::from(v));
                Ok(())
            }
        },
    },
    key("out-format", false, field!(out_format = Some word)),
    key("time-unit", false, field!(time_unit = Some word)),
    key("color", false, field!(color = word)),
];

impl Key {
    /// The key named `name`.
    pub fn named(name: &str) -> Option<Key> {
        KEYS.iter().copied().find(|k| k.name == name)
    }

    /// Sets `value` on `cli` as the flag would, or says what the value should be.
    pub fn set(self, cli: &mut Cli, value: &str) -> Result<(), String> {
        (self.set)(cli, value)
    }

    /// Whether `value` is one it takes; else what it should be.
    pub fn check(self, value: &str) -> Result<(), String> {
        // The flags' defaults, read once: a value is judged on a copy.
        static BLANK: std::sync::LazyLock<Cli> = std::sync::LazyLock::new(cli::defaults);
        self.set(&mut BLANK.clone(), value)
    }

    /// Whether its values are words or paths, never numbers.
    pub fn text(self) -> bool {
        self.example() != "1"
    }

    /// A value it takes, for messages.
    pub fn example(self) -> &'static str {
        match self.name {
            "outliers" => "iqr",
            "format" => "markdown",
            "out" => "target/bench.md",
            "out-format" => "csv",
            "time-unit" => "us",
            "color" => "never",
            "placement" => "linker",
            _ => "1",
        }
    }

    /// clap's id of the flag (the `Cli` field's name).
    pub fn id(self) -> String {
        self.name.replace('-', "_")
    }

    /// The environment variable that sets it: `NBENCH_WARM_UP`.
    pub fn env(self) -> String {
        cli::env_name(self.name)
    }
}

/// The keys, comma separated, for an error's hint.
pub fn names(per_bench_only: bool) -> String {
    KEYS.iter()
        .filter(|k| k.per_bench || !per_bench_only)
        .map(|k| k.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What clap makes of `--NAME=VALUE`: the command line, or its reason.
    fn by_clap(key: Key, value: &str) -> Result<Cli, String> {
        let flag = format!("--{}={value}", key.name);
        cli::parse_from(["cargo-nbench", "nbench", &flag])
            .map(|(cli, _)| cli)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn every_key_reads_a_value_as_its_flag_does() {
        let values = [
            "1", "0", "2", "64", "65", "-1", "x", "0.5", "2s", "500ms", "soon", "10%", "iqr",
            "top5", "markdown", "csv", "jsonl", "us", "never", "always", "linker", "stable",
            "a/b.md", "",
        ];
        for &key in KEYS {
            for value in values {
                let mut ours = cli::defaults();
                let set = key.set(&mut ours, value);
                match by_clap(key, value) {
                    Ok(theirs) => {
                        assert_eq!(set, Ok(()), "{} = {value:?}", key.name);
                        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "{}", key.name);
                    }
                    Err(why) => assert!(set.is_err(), "{} = {value:?}: clap: {why}", key.name),
                }
            }
        }
    }

    #[test]
    fn a_refused_value_says_what_the_key_takes() {
        let mut c = cli::defaults();
        let named = |n| Key::named(n).unwrap();
        assert_eq!(
            named("epochs").set(&mut c, "65"),
            Err("65 is not in 1..=64".into())
        );
        let format = named("format").set(&mut c, "xml").unwrap_err();
        assert!(
            format.starts_with("expected one of: console, json,"),
            "{format}"
        );
        let time = named("max-time").set(&mut c, "soon").unwrap_err();
        assert!(time.starts_with("expected a duration"), "{time}");
    }
}
