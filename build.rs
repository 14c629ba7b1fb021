//! Whether the tests that open the HTML report in a browser can run here:
//! `cfg(nbench_browser)` where Chromium is found, and always under CI (whose
//! `.ci/run` installs it, so a missing one fails there). Elsewhere those tests
//! are ignored, and the test summary says why.

use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(nbench_browser)");
    println!("cargo::rerun-if-changed=build.rs");
    for var in ["CI", "NBENCH_CHROMIUM", "PATH"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let candidates = std::env::var("NBENCH_CHROMIUM")
        .into_iter()
        .chain(["chromium", "chromium-browser", "google-chrome"].map(String::from));
    let found = candidates.into_iter().any(|b| {
        Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found || std::env::var_os("CI").is_some() {
        println!("cargo::rustc-cfg=nbench_browser");
    }
}
