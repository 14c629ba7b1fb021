//! The settings a config file (and `NBENCH_*`) may set: each is a flag of `cargo nbench`.

/// One setting: its name is the flag's long name without `--`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// `warm-up`: the file key and the flag.
    pub name: &'static str,
    /// Whether `[bench.NAME]` may set it for one bench target.
    pub per_bench: bool,
    /// Whether it takes a list (`out`).
    pub many: bool,
}

const fn key(name: &'static str, per_bench: bool) -> Key {
    Key {
        name,
        per_bench,
        many: false,
    }
}

/// Every setting a file may hold, in the order `cargo nbench config` shows them.
pub const KEYS: &[Key] = &[
    key("warm-up", true),
    key("min-time", true),
    key("max-time", true),
    key("precision", true),
    key("min-samples", true),
    key("max-samples", true),
    key("outliers", true),
    key("timeout", true),
    key("epochs", true),
    key("repetitions", false),
    key("launches", false),
    key("interleave", false),
    key("layouts", false),
    key("placement", false),
    key("noise-threshold", false),
    key("format", false),
    Key {
        name: "out",
        per_bench: false,
        many: true,
    },
    key("out-format", false),
    key("time-unit", false),
    key("color", false),
];

impl Key {
    /// The key named `name`.
    pub fn named(name: &str) -> Option<Key> {
        KEYS.iter().copied().find(|k| k.name == name)
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
        crate::cli::env_name(self.name)
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
