//! `--partition KIND:M/N` and `cargo nbench merge`: shards that cover a suite once, a hash
//! that keeps each benchmark's shard, and merged shards that report as one run would.

use crate::helpers::{Fixture, PAIRED, QUICK};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// `target: id` lines of `cargo nbench --list` with `extra` arguments.
fn listed(fx: &Fixture, extra: &[&str]) -> Vec<String> {
    let run = fx.nbench(&[&["--list"][..], extra].concat());
    assert_eq!(run.code, 0, "{}", run.all());
    run.stdout.lines().map(str::to_owned).collect()
}

#[test]
fn shards_cover_the_suite_once_for_every_kind() {
    let fx = Fixture::new("basic");
    let all = listed(&fx, &[]);
    assert!(all.len() > 10, "a suite over two targets: {all:?}");
    let all: BTreeSet<String> = all.into_iter().collect();
    for kind in ["count", "hash", "slice"] {
        for total in 1..=5 {
            let mut union = BTreeSet::new();
            for shard in 1..=total {
                let partition = format!("{kind}:{shard}/{total}");
                for line in listed(&fx, &["--partition", &partition]) {
                    assert!(union.insert(line.clone()), "{line} twice ({partition})");
                }
            }
            assert_eq!(union, all, "{kind} over {total} shards");
        }
    }
    // Filters first, then the partition.
    let filtered = listed(&fx, &["sum", "--partition", "count:1/2"]);
    assert_eq!(filtered, ["basic/basic: sum/u64/10"], "{filtered:?}");
}

#[test]
fn hash_keeps_each_benchmark_in_its_shard_when_one_is_added() {
    let fx = Fixture::new("workspace");
    for shard in 1..=3 {
        let partition = format!("hash:{shard}/3");
        let before = listed(&fx, &["-p", "tunable", "--partition", &partition]);
        let after = listed(
            &fx,
            &[
                "-p",
                "tunable",
                "--features",
                "extra",
                "--partition",
                &partition,
            ],
        );
        let kept: Vec<&String> = after.iter().filter(|l| !l.ends_with(": extra")).collect();
        assert_eq!(kept, before.iter().collect::<Vec<_>>(), "shard {shard}");
    }
}

#[test]
fn bad_partitions_are_one_line_errors() {
    let fx = Fixture::new("basic");
    for bad in ["count:0/2", "count:3/2", "round:1/2", "hash:1", "slice:x/2"] {
        let run = fx.nbench(&["--list", "--partition", bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.all());
        // The value and the flag named once, by clap.
        let first = run.error_line();
        assert!(
            first.starts_with(&format!("error: invalid value '{bad}' for '--partition"))
                && first.ends_with("1 ≤ M ≤ N)")
                && first.matches(bad).count() == 1,
            "{bad}: {}",
            run.stderr
        );
    }
}

/// The parsed JSON in `file`.
fn read(file: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

/// (target::id, p, adjusted p) of every row of a run's comparison, sorted.
fn rows(doc: &Value) -> Vec<(String, f64, f64)> {
    let mut rows: Vec<_> = doc["comparison"]["targets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| {
            t["rows"].as_array().unwrap().iter().map(move |r| {
                (
                    format!(
                        "{}::{}",
                        t["target"].as_str().unwrap(),
                        r["id"].as_str().unwrap()
                    ),
                    r["p_value"].as_f64().unwrap(),
                    r["p_adjusted"].as_f64().unwrap(),
                )
            })
        })
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    rows
}

#[test]
fn merged_shards_report_as_one_run_with_one_adjustment() {
    let fx = Fixture::new("workspace").own_target_dir();
    fn tunable<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        [&["-p", "tunable"][..], extra].concat()
    }
    let base = fx.nbench(
        &[
            tunable(&["--features", "extra", "--save-baseline", "base"]),
            QUICK.to_vec(),
        ]
        .concat(),
    );
    assert_eq!(base.code, 0, "{}", base.all());
    let compare = |extra: &[&str]| {
        let args = [
            tunable(&[
                "--features",
                "extra,slow",
                "--compare",
                "base",
                "--format",
                "json",
            ]),
            PAIRED.to_vec(),
            extra.to_vec(),
        ]
        .concat();
        let run = fx.nbench(&args);
        assert_eq!(run.code, 0, "{}", run.all());
        run.stdout
    };
    let shard_files: Vec<String> = (1..=3)
        .map(|m| {
            // As docs/ci.md's sharded jobs write them.
            let file = fx.dir.join(format!("shard-{m}.json"));
            let partition = format!("count:{m}/3");
            compare(&["--partition", &partition, "--out", file.to_str().unwrap()]);
            let doc = read(&file);
            assert_eq!(
                doc["partition"],
                json!({"kind": "count", "shard": m, "total": 3})
            );
            file.to_str().unwrap().to_owned()
        })
        .collect();
    let whole: Value = serde_json::from_str(&compare(&[])).unwrap();

    let args = |extra: &[&'static str]| {
        let mut a = vec!["merge".to_owned()];
        a.extend(shard_files.iter().cloned());
        a.extend(extra.iter().map(|e| e.to_string()));
        a
    };
    let nbench =
        |args: Vec<String>| fx.nbench(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let merged = nbench(args(&["--format", "json"]));
    let doc = merged.json();
    let (mine, one_run) = (rows(&doc), rows(&whole));
    let ids = |r: &[(String, f64, f64)]| r.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&mine), ids(&one_run), "the rows one run has");
    // One Benjamini–Hochberg adjustment over the raw p-values of all shards.
    let raw: Vec<f64> = mine.iter().map(|r| r.1).collect();
    let adjusted = nbench::__private::stats::benjamini_hochberg(&raw);
    for (row, q) in mine.iter().zip(adjusted) {
        assert!((row.2 - q).abs() < 1e-12, "{row:?} adjusted should be {q}");
    }
    assert!(
        doc.get("partition").is_none(),
        "the whole suite, not a shard"
    );

    // The Markdown table and the gate, over the merged verdicts.
    let md = nbench(args(&["--format", "markdown", "--fail-on-regression"]));
    assert_eq!(md.code, 4, "{}", md.all());
    assert!(md.stdout.contains("| `work/sum/1000` |"), "{}", md.stdout);
    assert!(md.stdout.contains("**regressed**"), "{}", md.stdout);

    // A shard missing: said, and the rest still merged.
    let two = fx.nbench(&["merge", &shard_files[0], &shard_files[2]]);
    assert_eq!(two.code, 0, "{}", two.all());
    assert!(
        two.stderr.contains("shard 2 of 3 missing"),
        "{}",
        two.stderr
    );

    // Shards from two machines merge, with a note: each is paired on its own.
    let elsewhere = {
        let mut doc = read(std::path::Path::new(&shard_files[2]));
        doc["context"]["hostname"] = json!("another-runner");
        let file = fx.dir.join("elsewhere.json");
        std::fs::write(&file, doc.to_string()).unwrap();
        file.to_str().unwrap().to_owned()
    };
    let two_machines = fx.nbench(&["merge", &shard_files[0], &shard_files[1], &elsewhere]);
    assert_eq!(two_machines.code, 0, "{}", two_machines.all());
    assert!(
        two_machines.stderr.contains("the shards ran on 2 machines"),
        "{}",
        two_machines.stderr
    );

    // Shards that do not belong together are refused, naming the files.
    let altered = |name: &str, change: &dyn Fn(&mut Value)| {
        let mut doc = read(std::path::Path::new(&shard_files[1]));
        change(&mut doc);
        let file = fx.dir.join(name);
        std::fs::write(&file, doc.to_string()).unwrap();
        file.to_str().unwrap().to_owned()
    };
    let hashed = altered("hashed.json", &|d| d["partition"]["kind"] = json!("hash"));
    let again = altered("again.json", &|d| d["partition"]["shard"] = json!(3));
    let other = altered("other.json", &|d| {
        d["comparison"]["baseline"] = json!("main")
    });
    let plain = altered("plain.json", &|d| {
        d.as_object_mut().unwrap().remove("partition");
    });
    for (files, message) in [
        ([&shard_files[0], &hashed], "is shard hash:2/3 but"),
        ([&shard_files[1], &again], "is in both"),
        ([&shard_files[0], &other], "compares with baseline `main`"),
        ([&shard_files[0], &plain], "was not made with --partition"),
    ] {
        let run = fx.nbench(&["merge", files[0], files[1]]);
        assert_eq!(run.code, 2, "{message}: {}", run.all());
        let first = run.stderr.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("error: ") && first.contains(message),
            "{}",
            run.stderr
        );
    }
    let absent = fx.nbench(&["merge", "no-such-shard.json"]);
    assert_eq!(absent.code, 2, "{}", absent.all());
    assert!(
        absent
            .stderr
            .starts_with("error: could not read `no-such-shard.json`"),
        "{}",
        absent.stderr
    );
}

#[test]
fn merged_runs_print_the_console_table_a_run_prints() {
    let fx = Fixture::new("workspace").own_target_dir();
    let shards: Vec<String> = (1..=2)
        .map(|m| {
            let file = fx.dir.join(format!("plain-{m}.json"));
            let partition = format!("count:{m}/2");
            let args = [
                &["-p", "tunable", "--partition", &partition, "--out"][..],
                &[file.to_str().unwrap()],
                QUICK,
            ]
            .concat();
            let run = fx.nbench(&args);
            assert_eq!(run.code, 0, "{}", run.all());
            file.to_str().unwrap().to_owned()
        })
        .collect();
    let merged = fx.nbench(&["merge", &shards[0], &shards[1]]);
    assert_eq!(merged.code, 0, "{}", merged.all());
    let table = &merged.stdout;
    let header = table
        .lines()
        .find(|l| l.starts_with("benchmark"))
        .unwrap_or_else(|| panic!("no table header in {table}"));
    assert!(
        header.contains("median") && header.contains("±next"),
        "{header}"
    );
    for id in ["work/sum/1000", "work/sum/2000"] {
        assert!(
            table
                .lines()
                .any(|l| l.starts_with(id) && l.contains(" ns")),
            "{id} has no row in {table}"
        );
    }
    assert!(!table.contains('|'), "not Markdown: {table}");
    assert!(table.contains("measured; 0 failed"), "{table}");
}
