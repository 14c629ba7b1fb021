//! gungraun's configuration types, by name only. A suite imports them for
//! the `config = …` of its attributes and macros, which nbench-gungraun
//! accepts and does not compile: they choose Valgrind's tools, its
//! arguments and gungraun's output, and under cargo nbench `--metrics`
//! chooses what is measured. A configuration built outside those macros
//! (in a function of its own) does not compile against these types.

macro_rules! named {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
            pub struct $name;
        )*
    };
}

named!(
    /// A benchmark's, group's or `main!`'s `config`.
    LibraryBenchmarkConfig,
    /// Callgrind's settings.
    Callgrind,
    /// Cachegrind's settings.
    Cachegrind,
    /// DHAT's settings.
    Dhat,
    /// Memcheck's settings.
    Memcheck,
    /// Helgrind's settings.
    Helgrind,
    /// DRD's settings.
    Drd,
    /// Massif's settings.
    Massif,
    /// BBV's settings.
    Bbv,
    /// A Valgrind tool's settings (iai-callgrind's name).
    Tool,
    /// Which Valgrind tool.
    ValgrindTool,
    /// A Callgrind event.
    EventKind,
    /// A Cachegrind metric.
    CachegrindMetric,
    /// A group of Cachegrind metrics.
    CachegrindMetrics,
    /// A group of Callgrind metrics.
    CallgrindMetrics,
    /// An error metric (Memcheck, Helgrind, DRD).
    ErrorMetric,
    /// A DHAT metric.
    DhatMetric,
    /// What the terminal report shows.
    OutputFormat,
    /// Flamegraph output.
    FlamegraphConfig,
    /// Which flamegraphs.
    FlamegraphKind,
    /// Where Callgrind starts counting.
    EntryPoint,
    /// Flamegraph direction.
    Direction,
    /// Limits that fail a run on a regression.
    RegressionConfig,
    /// A regression limit.
    Limit,
    /// The benchmark's sandbox folder.
    Sandbox,
);

#[cfg(test)]
mod tests {
    /// The names `text` lists: in `named!(…)`'s body, or as the macros'
    /// quoted `NAMES`.
    fn names(text: &str, start: &str, end: &str, quoted: bool) -> Vec<String> {
        let body = &text[text.find(start).unwrap() + start.len()..];
        let body = &body[..body.find(end).unwrap()];
        (body.lines().map(str::trim))
            .filter(|l| !l.starts_with("///") && !l.is_empty())
            .map(|l| l.trim_end_matches(',').trim_matches('"').to_owned())
            .filter(|l| quoted || l.chars().all(char::is_alphanumeric))
            .collect()
    }

    #[test]
    fn the_macros_know_every_configuration_type_by_name() {
        let here = names(include_str!("config.rs"), "named!(\n", ");", false);
        let macros = include_str!("../../gungraun-macros/src/config.rs");
        let theirs = names(macros, "] = [\n", "];", true);
        assert!(here.len() > 20, "{here:?}");
        assert_eq!(here, theirs);
    }
}
