//! Settings from flags, `NBENCH_*`, the settings file and built-in defaults, in that order.

use crate::helpers::{Fixture, Run};

fn nbench_with_env(fx: &Fixture, env: &[(&str, &str)], args: &[&str]) -> Run {
    let mut cmd = fx.nbench_command(args);
    cmd.envs(env.iter().copied());
    Run::from(cmd.output().expect("cargo-nbench runs"))
}

/// The row of `cargo nbench config` for `setting`, split into its columns.
fn row(run: &Run, setting: &str) -> Vec<String> {
    let line = run
        .stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some(setting))
        .unwrap_or_else(|| panic!("no row {setting}:\n{}", run.stdout));
    let mut cols = line.split_whitespace().map(str::to_owned);
    let name = cols.next().unwrap();
    let value = cols.next().unwrap();
    vec![name, value, cols.collect::<Vec<_>>().join(" ")]
}

#[test]
fn flags_beat_variables_beat_the_file_beat_defaults_and_bench_tables_beat_the_rest_of_the_file() {
    let fx = Fixture::new("basic");
    std::fs::write(
        fx.dir.join("nbench.toml"),
        "warm-up = \"7ms\"\nmin-time = \"9ms\"\nmin-samples = 25\nnoise-threshold = 2\n\
         out = [\"report.md\"]\n\n[bench.scaling]\nmin-samples = 10\nmax-samples = 10\n",
    )
    .unwrap();
    let env = [("NBENCH_WARM_UP", "8ms"), ("NBENCH_MIN_TIME", "10ms")];
    let shown = nbench_with_env(&fx, &env, &["config", "--min-time", "11ms"]);
    assert_eq!(shown.code, 0, "{}", shown.all());
    assert_eq!(
        row(&shown, "warm-up"),
        ["warm-up", "8ms", "env NBENCH_WARM_UP"]
    );
    assert_eq!(
        row(&shown, "min-time"),
        ["min-time", "11ms", "flag --min-time"]
    );
    assert_eq!(
        row(&shown, "min-samples"),
        ["min-samples", "25", "nbench.toml"]
    );
    assert_eq!(
        row(&shown, "noise-threshold"),
        ["noise-threshold", "2%", "nbench.toml"]
    );
    assert_eq!(row(&shown, "out"), ["out", "report.md", "nbench.toml"]);
    assert_eq!(row(&shown, "precision"), ["precision", "1%", "built-in"]);
    assert_eq!(
        row(&shown, "bench.scaling.max-samples"),
        ["bench.scaling.max-samples", "10", "nbench.toml"]
    );

    // The same settings drive a run: the scaling target takes exactly its
    // table's 10 samples, the other target at least the file's 25. A time
    // limit no busy machine reaches first (it wins over the minimum).
    let args = [
        "--format",
        "json",
        "sum/u64",
        "scale/linear",
        "--max-time",
        "3s",
    ];
    let run = fx.nbench(&args);
    let doc = run.json();
    assert_eq!(doc["context"]["settings"]["min_samples"], 25);
    for t in doc["targets"].as_array().unwrap() {
        for b in t["benchmarks"].as_array().unwrap() {
            let n = b["samples"].as_u64().unwrap();
            match t["target"].as_str().unwrap() {
                "basic/scaling" => assert_eq!(n, 10, "{b}"),
                _ => assert!(n >= 25, "{b}"),
            }
        }
    }
    assert!(
        fx.dir.join("report.md").is_file(),
        "the file's --out was written"
    );
}

#[test]
fn a_bad_setting_is_one_error_naming_where_it_is_and_what_is_allowed() {
    let fx = Fixture::new("basic");
    let toml = fx.dir.join("nbench.toml");
    let cases = [
        (
            "max-time = \"soon\"\n",
            "nbench.toml`: `max-time` = `soon`: expected a duration",
        ),
        (
            "warmup = \"1s\"\n",
            "nbench.toml`: `warmup` is not a setting nbench knows",
        ),
        (
            "[bench.scaling]\nformat = \"csv\"\n",
            "`bench.scaling.format` is not a setting a bench target can override",
        ),
        (
            "format = \"xml\"\n",
            "`format` = `xml`: expected one of: console, json, jsonl, csv",
        ),
        ("max-time = \n", "nbench.toml`: is not valid TOML (line 1)"),
        (
            "timeout = \"0s\"\n",
            "nbench.toml`: `timeout` = `0s`: expected a time above 0",
        ),
        (
            "out = 3\n",
            "nbench.toml`: `out` = 3: a number, where `out` takes text in quotes",
        ),
    ];
    for (text, message) in cases {
        std::fs::write(&toml, text).unwrap();
        let run = fx.nbench(&["config"]);
        assert_eq!(run.code, 2, "{text}: {}", run.all());
        assert!(run.stdout.is_empty(), "{}", run.stdout);
        let first = run.stderr.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("error: `") && first.contains(message),
            "{text}: {}",
            run.stderr
        );
    }
    std::fs::write(&toml, "warmup = 1\n").unwrap();
    let hint = fx.nbench(&["config"]).stderr;
    assert!(
        hint.contains("hint: the settings are: warm-up, min-time,"),
        "{hint}"
    );

    std::fs::remove_file(&toml).unwrap();
    // At 0 every benchmark would time out: refused as the flag too.
    let zero = fx.nbench(&["config", "--timeout", "0"]);
    assert_eq!(zero.code, 2, "{}", zero.all());
    assert!(
        zero.stderr
            .starts_with("error: invalid value '0' for '--timeout <DUR>': expected a time above 0"),
        "{}",
        zero.stderr
    );
    let bad_env = nbench_with_env(&fx, &[("NBENCH_PRECISION", "abc")], &["config"]);
    assert_eq!(bad_env.code, 2, "{}", bad_env.all());
    assert!(
        bad_env
            .stderr
            .starts_with("error: `NBENCH_PRECISION=abc`: "),
        "{}",
        bad_env.stderr
    );
}

#[test]
fn settings_can_live_in_cargo_toml_but_not_in_two_places() {
    let fx = Fixture::new("basic");
    let manifest = fx.dir.join("Cargo.toml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("\n[package.metadata.nbench]\nformat = \"csv\"\ntime-unit = \"us\"\n");
    std::fs::write(&manifest, text).unwrap();
    let shown = fx.nbench(&["config"]);
    assert_eq!(shown.code, 0, "{}", shown.all());
    assert_eq!(
        row(&shown, "format"),
        ["format", "csv", "Cargo.toml [package.metadata.nbench]"]
    );
    assert_eq!(row(&shown, "time-unit")[1], "us");

    std::fs::write(fx.dir.join("nbench.toml"), "warm-up = \"1s\"\n").unwrap();
    let both = fx.nbench(&["config"]);
    assert_eq!(both.code, 2, "{}", both.all());
    assert!(
        both.stderr
            .contains("and so does [package.metadata.nbench] in `"),
        "{}",
        both.stderr
    );
}

#[test]
fn placement_linker_builds_as_cargo_bench_does_in_cargos_own_folder() {
    let fx = Fixture::new("basic");
    let mut args = vec![
        "--placement",
        "linker",
        "--save-baseline",
        "l",
        "--layouts",
        "2",
    ];
    args.extend_from_slice(crate::helpers::QUICK);
    args.push("add");
    let saved = fx.nbench(&args);
    assert_eq!(saved.code, 0, "{}", saved.all());
    assert!(
        saved.stderr.contains("building 2 link layouts"),
        "{}",
        saved.stderr
    );
    // cargo's own build of the bench targets finds them built, as it
    // builds them: the same flags, the same units, no wrapper of nbench's.
    let cargo = fx.cargo(&[
        "bench", "--no-run", "--bench", "basic", "--bench", "scaling",
    ]);
    assert_eq!(cargo.code, 0, "{}", cargo.all());
    assert!(!cargo.stderr.contains("Compiling"), "{}", cargo.stderr);
}
