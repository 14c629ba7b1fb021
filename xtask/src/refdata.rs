//! `cargo xtask refdata [--check]`: reference values for `nbench::__private::stats` from NumPy and SciPy.
//!
//! The values are computed by `xtask/refdata.py` in a virtual environment
//! under `target/` (made here, NumPy and SciPy installed by pip) and
//! committed as `harness/tests/data/reference.json`, so the tests that read
//! them need no Python.

use crate::root;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The versions the committed data was made with.
const PACKAGES: [&str; 2] = ["numpy==2.4.6", "scipy==1.17.1"];
/// Relative difference tolerated by `--check` (platform libm differences).
const TOLERANCE: f64 = 1e-12;

const USAGE: &str = "cargo xtask refdata [--check]";

pub fn run(args: &[String]) -> Result<(), String> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => return Err(format!("usage: {USAGE}")),
    };
    let python = venv()?;
    let committed = root().join("harness/tests/data/reference.json");
    let out = if check {
        root().join("target/refdata-check.json")
    } else {
        committed.clone()
    };
    let status = Command::new(&python)
        .arg(root().join("xtask/refdata.py"))
        .arg(&out)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !status.success() {
        return Err("xtask/refdata.py failed".into());
    }
    if !check {
        println!("wrote {}", committed.display());
        return Ok(());
    }
    let (old, new) = (read(&committed)?, read(&out)?);
    let mut diffs = Vec::new();
    compare("", &old, &new, &mut diffs);
    if diffs.is_empty() {
        println!("{} matches a fresh computation", committed.display());
        Ok(())
    } else {
        for d in diffs.iter().take(20) {
            eprintln!("  {d}");
        }
        Err(format!(
            "{} differences from the committed reference data",
            diffs.len()
        ))
    }
}

/// The virtual environment's python, made and filled on first use.
fn venv() -> Result<PathBuf, String> {
    let dir = root().join("target/refdata-venv");
    let python = dir.join("bin/python");
    if !python.exists() {
        let status = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&dir)
            .status()
            .map_err(|e| format!("cannot run python3 (needed for refdata): {e}"))?;
        if !status.success() {
            return Err("python3 -m venv failed (on Debian: apt-get install python3-venv)".into());
        }
    }
    let status = Command::new(&python)
        .args(["-m", "pip", "install", "--quiet"])
        .args(PACKAGES)
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("pip could not install {}", PACKAGES.join(" ")));
    }
    Ok(python)
}

fn read(path: &Path) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn compare(at: &str, old: &Value, new: &Value, diffs: &mut Vec<String>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
                let here = format!("{at}.{key}");
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => compare(&here, x, y, diffs),
                    _ => diffs.push(format!("{here}: present on one side only")),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                compare(&format!("{at}[{i}]"), x, y, diffs);
            }
        }
        (Value::Number(a), Value::Number(b)) => {
            let (a, b) = (
                a.as_f64().unwrap_or(f64::NAN),
                b.as_f64().unwrap_or(f64::NAN),
            );
            let scale = a.abs().max(b.abs()).max(f64::MIN_POSITIVE);
            if (a - b).abs() / scale > TOLERANCE {
                diffs.push(format!("{at}: {a} now {b}"));
            }
        }
        // The generator line names the versions; anything else must match exactly.
        _ if at == ".generator" => {}
        _ if old == new => {}
        _ => diffs.push(format!("{at}: {old} now {new}")),
    }
}
