//! The HTML report: written after every run, rebuilt by `cargo nbench report`, rendered by headless Chromium.

use crate::helpers::{Fixture, QUICK};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs in the page before anything else, and at `load` writes what it
/// found into `<body data-check>`: the plots by kind, plots drawn with no
/// visible mark, script errors, and every resource the page fetched.
const CHECKER: &str = r#"<script>
window.__errors = [];
addEventListener('error', e => __errors.push(String(e.message || (e.target && e.target.outerHTML))), true);
addEventListener('load', () => {
  const kinds = {}, blank = [];
  for (const p of document.querySelectorAll('svg.plot')) {
    kinds[p.dataset.kind] = (kinds[p.dataset.kind] || 0) + 1;
    const box = p.getBoundingClientRect();
    const marks = [...p.querySelectorAll('path:not(.axis), circle, line:not(.tick):not(.grid), rect')]
      .filter(m => { const b = m.getBBox(); return b.width > 0 || b.height > 0; });
    if (box.width < 100 || box.height < 40 || marks.length === 0) blank.push(p.dataset.kind);
  }
  // A density must have a shape: some height, some width, a peak rather than a flat top.
  const flat = [];
  for (const a of document.querySelectorAll('svg.plot[data-kind=distribution] path.current, svg.plot[data-kind=compared] path.current, svg.plot[data-kind=compared] path.baseline')) {
    const n = a.getAttribute('d').match(/-?[0-9.]+/g).map(Number), pts = [];
    for (let i = 0; i + 1 < n.length; i += 2) pts.push([n[i], n[i + 1]]);
    const base = pts[pts.length - 1][1], curve = pts.slice(0, -2);
    const hs = curve.map(q => base - q[1]), top = Math.max(...hs);
    const xs = curve.filter((q, i) => hs[i] > 0.05 * top).map(q => q[0]);
    const raised = xs.length, peak = hs.filter(h => h > 0.9 * top).length;
    const width = Math.max(...xs) - Math.min(...xs);
    if (top < 5 || width < 8 || peak > 0.8 * raised)
      flat.push(`${a.closest('article')?.id}: height ${top.toFixed(1)} width ${width.toFixed(1)} top ${peak}/${raised}`);
  }
  const resources = performance.getEntriesByType('resource').map(r => r.name);
  document.body.setAttribute('data-check', JSON.stringify({kinds, blank, flat, errors: __errors, resources,
    overflow: document.documentElement.scrollWidth > innerWidth}));
});
</script>"#;

/// The browser: `NBENCH_CHROMIUM`, or the first of Chromium's usual names
/// that runs. The tests that call this are built only where one was found
/// or under CI (see `build.rs`), so a missing one is a failure.
pub fn chromium() -> PathBuf {
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
        .expect("no Chromium found: CI must install it (`apt-get install chromium`)")
}

/// Chromium on `page`, headless, with a profile of its own beside the page
/// and none of its own network traffic (a closed network refuses it, many
/// connections at a time).
fn headless(browser: &Path, args: &[&str], page: &Path) -> std::process::Output {
    let profile = page.with_file_name("chromium-profile");
    let _ = std::fs::remove_dir_all(&profile);
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--window-size=1280,1600", "--virtual-time-budget=10000"])
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs")
}

/// What the checker found, read back from the page's DOM as Chromium serialised it.
pub fn check(browser: &Path, report: &Path) -> serde_json::Value {
    let html = std::fs::read_to_string(report).unwrap();
    let probe = report.with_file_name("probe.html");
    std::fs::write(
        &probe,
        html.replacen("<head>", &format!("<head>{CHECKER}"), 1),
    )
    .unwrap();
    let out = headless(browser, &["--dump-dom"], &probe);
    let dom = String::from_utf8_lossy(&out.stdout);
    let attr = dom
        .split_once("data-check=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .unwrap_or_else(|| {
            panic!(
                "the page did not finish loading:\n{dom}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
        .0
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    serde_json::from_str(&attr).unwrap()
}

#[test]
#[cfg_attr(
    not(nbench_browser),
    ignore = "no Chromium here (install chromium or set NBENCH_CHROMIUM; CI runs it)"
)]
fn the_html_report_renders_in_chromium_with_every_kind_of_plot() {
    let fx = Fixture::new("basic").own_target_dir();
    let run = |extra: &[&str]| {
        let mut args = vec!["scale/linear", "scale/custom", "sum/u64"];
        args.extend_from_slice(QUICK);
        args.extend_from_slice(extra);
        let r = fx.nbench(&args);
        assert_eq!(r.code, 0, "{}", r.all());
        r
    };
    run(&["--save-baseline", "before"]);
    let r = run(&["--compare", "before"]);
    assert!(
        r.stderr.contains("report target/nbench/report/index.html"),
        "{}",
        r.stderr
    );
    let report = fx.dir.join("target/nbench/report/index.html");
    let html = std::fs::read_to_string(&report).unwrap();
    for absent in ["http:", "https:", "<script", "<link", "NaN", "inf "] {
        assert!(!html.contains(absent), "the report has {absent:?}");
    }

    let browser = chromium();
    let found = check(&browser, &report);
    assert_eq!(found["errors"], serde_json::json!([]), "{found}");
    assert_eq!(
        found["resources"],
        serde_json::json!([]),
        "fetched something: {found}"
    );
    assert_eq!(
        found["blank"],
        serde_json::json!([]),
        "plots with nothing drawn: {found}"
    );
    assert_eq!(
        found["flat"],
        serde_json::json!([]),
        "densities without a shape: {found}"
    );
    assert_eq!(found["overflow"], false, "wider than the window: {found}");
    let kinds = &found["kinds"];
    // 2 + 3 + 5 benchmarks, two families, two runs of history.
    assert_eq!(kinds["distribution"], 10, "{found}");
    assert_eq!(kinds["compared"], 10, "{found}");
    assert_eq!(kinds["change"], 10, "{found}");
    assert_eq!(kinds["history"], 10, "{found}");
    assert_eq!(kinds["family"], 2, "{found}");

    // Kept as CI's artefact, and for a look by eye.
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../nbench-report.png");
    let out = headless(
        &browser,
        &[&format!("--screenshot={}", shot.display())],
        &report,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} bytes",
        png.len()
    );
}

#[test]
fn cargo_nbench_report_rebuilds_from_stored_runs_and_skips_unreadable_ones() {
    let fx = Fixture::new("basic").own_target_dir();
    let none = fx.nbench(&["report"]);
    assert_eq!(none.code, 2, "{}", none.all());
    assert!(
        none.stderr.contains("error: no stored runs in"),
        "{}",
        none.stderr
    );
    assert!(
        none.stderr.contains("hint: run `cargo nbench` first"),
        "{}",
        none.stderr
    );
    // A comparison of baselines stores no run; its page is asked for.
    assert!(
        none.stderr.contains("give it `--out FILE.html`"),
        "{}",
        none.stderr
    );

    let mut args = vec!["--bench", "basic", "sum/u64"];
    args.extend_from_slice(QUICK);
    assert_eq!(fx.nbench(&args).code, 0);
    let report = fx.dir.join("target/nbench/report/index.html");
    std::fs::remove_file(&report).unwrap();
    let runs = fx.dir.join("target/nbench/runs");
    // A later file that is not a run: the newest readable one is reported.
    std::fs::write(
        runs.join("9999-broken.json"),
        "{\"schema\": 1, \"context\": ",
    )
    .unwrap();

    let rebuilt = fx.nbench(&["report"]);
    assert_eq!(rebuilt.code, 0, "{}", rebuilt.all());
    assert_eq!(Path::new(rebuilt.stdout.trim()), report);
    assert!(
        rebuilt.stderr.contains("9999-broken.json"),
        "{}",
        rebuilt.stderr
    );
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("<h4>sum/u64/10</h4>") && html.contains("<h4>sum/u64/100</h4>"));
    assert!(!html.contains("<h4>add</h4>"), "only what the run measured");

    // No run reads: said as such, naming the newest, and nothing changed.
    let stored: Vec<_> = std::fs::read_dir(&runs).unwrap().flatten().collect();
    for run in &stored {
        std::fs::write(run.path(), "{garbage").unwrap();
    }
    std::fs::remove_file(&report).unwrap();
    let unread = fx.nbench(&["report"]);
    assert_eq!(unread.code, 2, "{}", unread.all());
    let said = "the newest, `9999-broken.json`: key must be a string at line 1 column 2)";
    assert!(
        unread.error_line().starts_with("error: no stored run in `"),
        "{}",
        unread.stderr
    );
    assert!(unread.error_line().ends_with(said), "{}", unread.stderr);
    assert!(
        unread.stderr.contains("hint: nothing was changed"),
        "{}",
        unread.stderr
    );
    assert_eq!(std::fs::read_dir(&runs).unwrap().count(), stored.len());
    assert!(!report.exists());
}
