//! `cargo xtask reference`: the harness's headline figures, measured by running it.

use crate::{cargo, root, runs_arg};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = runs_arg(args, 3, "cargo xtask reference [--runs N]")?;
    let exe = build_reference()?;
    println!("reference workloads, {runs} runs at default settings:");
    println!(
        "{:>4}  {:>9}  {:>10}  {:>17}",
        "run", "total s", "empty ns", "sum2000/sum1000"
    );
    for i in 1..=runs {
        let start = Instant::now();
        let out = Command::new(&exe)
            .arg("--bench")
            .current_dir(root())
            .output()
            .map_err(|e| format!("running {}: {e}", exe.display()))?;
        let total = start.elapsed().as_secs_f64();
        let table = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(format!("the reference run failed:\n{table}"));
        }
        let empty = median(&table, "empty")?;
        let ratio = median(&table, "sum/u64/2000")? / median(&table, "sum/u64/1000")?;
        println!("{i:>4}  {total:>9.2}  {empty:>10.3}  {ratio:>17.3}");
    }
    println!(
        "\nnbench dependency tree: {} crates (itself included)",
        dependency_count()?
    );
    println!(
        "clean build of tests/fixtures/basic (nbench + one bench): {:.1} s",
        fixture_build_secs()?
    );
    Ok(())
}

fn build_reference() -> Result<PathBuf, String> {
    let out = cargo()
        .args([
            "bench",
            "--no-run",
            "--bench",
            "reference",
            "--message-format=json",
        ])
        .current_dir(root())
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"compiler-artifact\"") && l.contains("\"name\":\"reference\""))
        .find_map(|l| field(l, "\"executable\":\""))
        .map(PathBuf::from)
        .ok_or_else(|| "cargo reported no executable for benches/reference.rs".into())
}

/// The string value after `key` in a JSON line (no escapes in the paths we read).
fn field(line: &str, key: &str) -> Option<String> {
    let rest = &line[line.find(key)? + key.len()..];
    Some(rest[..rest.find('"')?].to_owned())
}

/// The median column of the table row for `id`, in ns.
fn median(table: &str, id: &str) -> Result<f64, String> {
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(id))
        .ok_or_else(|| format!("no row for {id}"))?;
    let mut cols = row.split_whitespace().skip(1);
    let value: f64 = cols
        .next()
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("no median in {row}"))?;
    let scale = match cols.next() {
        Some("ps") => 1e-3,
        Some("ns") => 1.0,
        Some("µs") => 1e3,
        Some("ms") => 1e6,
        Some("s") => 1e9,
        other => return Err(format!("unknown unit {other:?} in {row}")),
    };
    Ok(value * scale)
}

fn dependency_count() -> Result<usize, String> {
    let out = cargo()
        .args([
            "tree",
            "-p",
            "nbench",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--no-dedupe",
        ])
        .current_dir(root())
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut crates: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    crates.sort_unstable();
    crates.dedup();
    Ok(crates.len())
}

fn fixture_build_secs() -> Result<f64, String> {
    let target = root().join("target/xtask/clean-build");
    let _ = std::fs::remove_dir_all(&target);
    let start = Instant::now();
    let status = cargo()
        .args(["bench", "--no-run", "--quiet"])
        .current_dir(root().join("tests/fixtures/basic"))
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("building the fixture failed".into());
    }
    Ok(start.elapsed().as_secs_f64())
}
