//! `cargo xtask overhead`: what `cargo nbench` adds beyond the benchmarks' own measuring, with nothing to rebuild.

use crate::{build_nbench, root, runs_arg};
use std::process::Command;
use std::time::Instant;

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = runs_arg(args, 5, "cargo xtask overhead [--runs N]")?;
    let exe = build_nbench()?;
    let fixture = root().join("tests/fixtures/basic");
    let target_dir = root().join("target/xtask/overhead");
    let nbench = || {
        let mut c = Command::new(&exe);
        c.args(["nbench", "--format", "json", "--skip", "panics"])
            .args([
                "--warm-up",
                "10ms",
                "--min-time",
                "20ms",
                "--max-time",
                "50ms",
            ])
            .current_dir(&fixture)
            .env("CARGO_TARGET_DIR", &target_dir);
        c
    };
    // The first run builds; the timed ones find nothing to rebuild.
    let first = nbench().output().map_err(|e| e.to_string())?;
    if !first.status.success() {
        return Err(format!(
            "cargo nbench failed:\n{}",
            String::from_utf8_lossy(&first.stderr)
        ));
    }
    println!("cargo nbench on tests/fixtures/basic, nothing to rebuild, {runs} runs:");
    println!(
        "{:>4}  {:>8}  {:>12}  {:>10}",
        "run", "wall s", "measuring s", "overhead s"
    );
    for i in 1..=runs {
        let start = Instant::now();
        let out = nbench().output().map_err(|e| e.to_string())?;
        let wall = start.elapsed().as_secs_f64();
        let json = String::from_utf8_lossy(&out.stdout);
        let measuring: f64 = json
            .lines()
            .filter_map(|l| l.trim().strip_prefix("\"elapsed_s\": "))
            .filter_map(|v| v.trim_end_matches(',').parse::<f64>().ok())
            .sum();
        println!(
            "{i:>4}  {wall:>8.3}  {measuring:>12.3}  {:>10.3}",
            wall - measuring
        );
    }
    Ok(())
}
