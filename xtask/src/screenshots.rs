//! `cargo xtask screenshots`: the guide's pictures, made from a real run of
//! this repository's fixture `tests/fixtures/verdicts`: a baseline of the
//! plain build, then the build doing 5 % more work compared with it. The
//! console's coloured output becomes `docs/images/console.png`, the HTML
//! report `docs/images/report.png`, both drawn by headless Chromium.

use crate::{build_nbench, root};
use std::path::{Path, PathBuf};
use std::process::Command;

const USAGE: &str = "cargo xtask screenshots";

pub fn run(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err(format!("usage: {USAGE}"));
    }
    let browser = chromium()?;
    let nbench = build_nbench()?;
    let fixture = root().join("tests/fixtures/verdicts");
    let target = root().join("target/screenshots");
    let quick = ["--bench", "verdicts", "--target-dir"];
    let with_target = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = ["nbench"]
            .iter()
            .chain(&quick)
            .map(|s| s.to_string())
            .collect();
        a.push(target.display().to_string());
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    eprintln!("== baseline of the plain build");
    nbench_run(
        &nbench,
        &fixture,
        &with_target(&["--save-baseline", "plain", "-q"]),
    )?;
    eprintln!("== the 5 % slower build compared with it");
    let shown = nbench_run(
        &nbench,
        &fixture,
        &with_target(&["-F", "slow5", "--compare", "plain", "--color", "always"]),
    )?;
    let images = root().join("docs/images");
    let console = target.join("console.html");
    std::fs::write(&console, terminal_page(&shown)).map_err(|e| e.to_string())?;
    let height = 40 + 19 * shown.lines().count();
    shoot(
        &browser,
        &console,
        &images.join("console.png"),
        1100,
        height,
    )?;
    let report = target.join("nbench/report/index.html");
    shoot(&browser, &report, &images.join("report.png"), 1280, 1600)?;
    eprintln!("wrote docs/images/console.png and docs/images/report.png");
    Ok(())
}

/// Runs cargo nbench in `dir`; returns what it printed, stderr then stdout,
/// as a terminal shows them.
fn nbench_run(nbench: &Path, dir: &Path, args: &[String]) -> Result<String, String> {
    let out = Command::new(nbench)
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("cargo nbench {}: {stderr}", args.join(" ")));
    }
    let kept: Vec<&str> = stderr
        .lines()
        .filter(|l| {
            let l = console_text(l);
            ![
                "Compiling",
                "Finished",
                "measuring [",
                "building ",
                "saved ",
                "report ",
            ]
            .iter()
            .any(|p| l.trim_start().starts_with(p))
        })
        .collect();
    Ok(format!(
        "{}\n{}",
        kept.join("\n"),
        String::from_utf8_lossy(&out.stdout)
    ))
}

/// A line without its colour codes.
fn console_text(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("\x1b[") {
        out.push_str(&rest[..at]);
        rest = rest[at..].find('m').map_or("", |m| &rest[at + m + 1..]);
    }
    out + rest
}

/// A dark terminal page of `text`, its ANSI colours and bold as spans (a
/// style holds until a reset, as on a terminal).
fn terminal_page(text: &str) -> String {
    let mut body = String::new();
    let mut style = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\x1b[") {
        body.push_str(&escape(&rest[..at]));
        let after = &rest[at + 2..];
        let end = after.find('m').unwrap_or(after.len());
        if !style.is_empty() {
            body.push_str("</span>");
        }
        let codes = &after[..end];
        match codes.split(';').any(|c| c.is_empty() || c == "0") {
            true => style.clear(),
            false => style.push_str(&css(codes)),
        }
        if !style.is_empty() {
            body.push_str(&format!("<span style=\"{style}\">"));
        }
        rest = after.get(end + 1..).unwrap_or("");
    }
    body.push_str(&escape(rest));
    if !style.is_empty() {
        body.push_str("</span>");
    }
    format!(
        "<!doctype html><meta charset=\"utf-8\"><body style=\"margin:0;background:#1e1e1e\">\
         <pre style=\"margin:0;padding:16px;color:#d4d4d4;font:14px/19px 'DejaVu Sans Mono',monospace\">\
         {body}</pre>"
    )
}

/// The CSS of one SGR sequence (`1;31`): bold, dim and the eight colours.
fn css(codes: &str) -> String {
    const COLOURS: [&str; 8] = [
        "#555", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#e5e5e5",
    ];
    let mut out = String::new();
    for code in codes.split(';').filter_map(|c| c.parse::<u8>().ok()) {
        match code {
            1 => out.push_str("font-weight:bold;"),
            2 => out.push_str("opacity:0.7;"),
            30..=37 => out.push_str(&format!("color:{};", COLOURS[usize::from(code - 30)])),
            90..=97 => out.push_str(&format!("color:{};", COLOURS[usize::from(code - 90)])),
            _ => {}
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn chromium() -> Result<PathBuf, String> {
    std::env::var_os("NBENCH_CHROMIUM")
        .map(PathBuf::from)
        .into_iter()
        .chain(["chromium", "chromium-browser", "google-chrome"].map(PathBuf::from))
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .ok_or_else(|| "no Chromium found (install chromium or set NBENCH_CHROMIUM)".into())
}

fn shoot(
    browser: &Path,
    page: &Path,
    png: &Path,
    width: usize,
    height: usize,
) -> Result<(), String> {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .map_err(|e| e.to_string())?;
    match out.status.success() && png.exists() {
        true => Ok(()),
        false => Err(format!(
            "chromium: {}",
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}
