//! libtest's output formats as the tools that read them parse them: the bench binary's
//! `--output-format bencher`, `--format json`, `--logfile`, and `cargo nbench --format bencher`,
//! read with Bencher's `rust_bench` adapter grammar and github-action-benchmark's `cargo` regex.

use crate::helpers::{Fixture, QUICK};
use std::collections::BTreeMap;
use std::process::Command;

/// One benchmark as a reader takes it: value and the bounds it derives.
#[derive(Debug)]
struct Read {
    value: f64,
    lower: f64,
}

/// Bencher's `rust_bench` adapter, line by line as its source has it: `test`,
/// spaces, the name up to the first space, spaces, `...`, spaces, `bench:`,
/// spaces, a number of digits, commas and dots, spaces, a unit, `/iter`,
/// spaces, `(+/-`, spaces, a number, `)`, end of line. Lower bound = value − variance.
fn bencher_adapter(output: &str) -> BTreeMap<String, Read> {
    fn number(s: &str) -> Option<(f64, &str)> {
        let end = s
            .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
            .unwrap_or(s.len());
        let digits: String = s[..end].chars().filter(|c| *c != ',').collect();
        Some((digits.parse().ok()?, &s[end..]))
    }
    fn spaces(s: &str) -> Option<&str> {
        let rest = s.trim_start_matches(' ');
        (rest.len() < s.len()).then_some(rest)
    }
    fn line(l: &str) -> Option<(String, Read)> {
        let rest = spaces(l.strip_prefix("test")?)?;
        let (name, rest) = rest.split_at(rest.find(' ')?);
        let rest = spaces(rest)?.strip_prefix("...")?;
        let rest = spaces(spaces(rest)?.strip_prefix("bench:")?)?;
        let (value, rest) = number(rest)?;
        let rest = spaces(rest)?;
        let scale = [
            ("ns", 1.0),
            ("μs", 1e3),
            ("µs", 1e3),
            ("ms", 1e6),
            ("s", 1e9),
        ]
        .iter()
        .find(|(u, _)| rest.starts_with(&format!("{u}/iter")))?;
        let rest = spaces(rest[scale.0.len()..].strip_prefix("/iter")?)?;
        let rest = spaces(rest.strip_prefix("(+/-")?)?;
        let (variance, rest) = number(rest)?;
        if rest != ")" {
            return None;
        }
        let value = value * scale.1;
        let lower = value - variance * scale.1;
        Some((name.to_owned(), Read { value, lower }))
    }
    output.lines().filter_map(line).collect()
}

/// github-action-benchmark's `cargo` tool: its regular expression, the name
/// trimmed, commas removed from the numbers.
fn github_action_benchmark(output: &str) -> BTreeMap<String, Read> {
    let re = regex::Regex::new(
        r"^test (.+)\s+\.\.\. bench:\s+([0-9,.]+) (\w+/\w+) \(\+/- ([0-9,.]+)\)$",
    )
    .unwrap();
    output
        .lines()
        .filter_map(|l| re.captures(l))
        .map(|m| {
            let value: f64 = m[2].replace(',', "").parse().unwrap();
            let range: f64 = m[4].replace(',', "").parse().unwrap();
            (
                m[1].trim().to_owned(),
                Read {
                    value,
                    lower: value - range,
                },
            )
        })
        .collect()
}

/// Both readers find exactly `names`, with values above zero and lower bounds not below it.
fn readable(output: &str, names: &[&str]) {
    for (tool, read) in [
        ("bencher", bencher_adapter(output)),
        ("github-action-benchmark", github_action_benchmark(output)),
    ] {
        let found: Vec<&str> = read.keys().map(String::as_str).collect();
        let mut want = names.to_vec();
        want.sort();
        assert_eq!(found, want, "{tool} read:\n{output}");
        for (name, r) in &read {
            assert!(r.value > 0.0, "{tool}: {name} {r:?}\n{output}");
            assert!(r.lower >= 0.0, "{tool}: {name} {r:?}\n{output}");
        }
    }
}

fn bench_binary(fx: &Fixture, args: &[&str]) -> crate::helpers::Run {
    let exe = fx.bench_exe("formats");
    let out = Command::new(exe)
        .arg("--bench")
        .args(QUICK)
        .args(args)
        .current_dir(&fx.dir)
        .output()
        .unwrap();
    crate::helpers::Run::from(out)
}

#[test]
fn bench_lines_read_by_bencher_and_github_action_benchmark() {
    let fx = Fixture::new("formats");
    let names = ["empty", "parse_a_line", "chain/20000"];

    // criterion's spelling, as github-action-benchmark's docs pass it.
    let log = fx.dir.join("bench.log");
    let direct = bench_binary(
        &fx,
        &[
            "--output-format",
            "bencher",
            "--logfile",
            log.to_str().unwrap(),
        ],
    );
    assert_eq!(direct.code, 0, "{}", direct.all());
    readable(&direct.stdout, &names);
    assert!(
        direct.stdout.contains("test someday ... ignored"),
        "{}",
        direct.stdout
    );
    assert!(
        direct.stdout.contains("\nrunning 4 tests\n"),
        "{}",
        direct.stdout
    );
    assert!(
        direct
            .stdout
            .contains("test result: ok. 0 passed; 0 failed; 1 ignored; 3 measured;"),
        "{}",
        direct.stdout
    );
    // Current libtest's numbers: two decimals, thousands separated.
    let long = direct.line("test chain/20000 ");
    assert!(long.contains(',') && long.contains("."), "{long}");
    // --logfile holds what was printed.
    assert_eq!(std::fs::read_to_string(&log).unwrap(), direct.stdout);

    // cargo nbench's own --format bencher: the same grammar, TARGET::ID names.
    let run = fx.nbench(&[&["--format", "bencher"][..], QUICK].concat());
    assert_eq!(run.code, 0, "{}", run.all());
    let names: Vec<String> = names
        .iter()
        .map(|n| format!("formats/formats::{n}"))
        .collect();
    readable(
        &run.stdout,
        &names.iter().map(String::as_str).collect::<Vec<_>>(),
    );
}

#[test]
fn libtest_json_and_bad_formats() {
    let fx = Fixture::new("formats");
    let json = bench_binary(&fx, &["-Z", "unstable-options", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.all());
    let events: Vec<serde_json::Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(events[0]["type"], "suite");
    assert_eq!(events[0]["test_count"], 4);
    let benches: Vec<_> = events.iter().filter(|e| e["type"] == "bench").collect();
    assert_eq!(benches.len(), 3, "{}", json.stdout);
    for b in &benches {
        assert!(
            b["median"].as_f64().is_some() && b["deviation"].as_f64().is_some(),
            "{b}"
        );
    }
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "ignored" && e["name"] == "someday")
    );
    let last = events.last().unwrap();
    assert_eq!(
        (last["event"].clone(), last["measured"].clone()),
        ("ok".into(), 3.into())
    );

    let bogus = bench_binary(&fx, &["--format", "bogus"]);
    assert_eq!(bogus.code, 2, "{}", bogus.all());
    assert!(
        bogus
            .stderr
            .contains("invalid value 'bogus' for '--format'"),
        "{}",
        bogus.stderr
    );
}
