//! A suite of libtest's own `#[bench]` functions (`#![feature(test)]`,
//! libtest's harness, on a nightly toolchain) runs unchanged: cargo nbench
//! builds nbench-libtest once in `target/nbench/libtest/` and gives it to
//! the build as `test` (`--extern noprelude:test=…`), so that the suite's
//! `extern crate test` and the `main` rustc writes for its `#[bench]`
//! functions reach nbench's harness. Only the compiler cargo nbench runs sees it:
//! `cargo bench` still runs the suite under libtest.

use super::swap::Source;
use crate::discover::LIBTEST;
use crate::error::Error;
use cargo_metadata::Message;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// nbench-libtest built: what the bench targets' compiler is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shim {
    /// Its library (`libnbench_libtest-….rlib`).
    pub rlib: PathBuf,
    /// The folder of its own dependencies (the harness).
    pub deps: PathBuf,
}

impl Shim {
    /// The rustflags that put it in libtest's place: reached only through
    /// `extern crate test` (`noprelude:`, an unstable option, on the
    /// nightly toolchain these suites need), as libtest is, so that the
    /// suite's `extern crate test` still does something and no lint says
    /// otherwise. The suite's `#![feature(test)]` then serves only what it
    /// takes of libtest itself (`test::black_box`); where it takes nothing,
    /// nightly would warn of the feature as unused in each target, a
    /// warning about nbench's change rather than the suite's code (older
    /// compilers know the lint too, as removed, and take `-A` of it
    /// silently).
    pub fn flags(&self) -> [String; 6] {
        [
            "-Zunstable-options".to_owned(),
            "--extern".to_owned(),
            format!("noprelude:test={}", self.rlib.display()),
            "-L".to_owned(),
            format!("dependency={}", self.deps.display()),
            "-Aunused_features".to_owned(),
        ]
    }
}

/// Why a libtest suite cannot run on a stable toolchain.
pub const NEEDS_NIGHTLY: &str = "it uses libtest's `#[bench]` (`#![feature(test)]`), which builds \
     on a nightly toolchain only: run `cargo +nightly nbench`";

/// Whether the compiler takes `#![feature(…)]`: a nightly or dev build, or
/// any build under `RUSTC_BOOTSTRAP=1`; none under `RUSTC_BOOTSTRAP=-1`.
pub fn takes_features() -> bool {
    match std::env::var("RUSTC_BOOTSTRAP").as_deref() {
        Ok("1") => return true,
        Ok("-1") => return false,
        _ => {}
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    Command::new(rustc)
        .arg("-vV")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|v| {
            let release = v.lines().find_map(|l| l.strip_prefix("release: "))?;
            Some(release.contains("nightly") || release.contains("dev"))
        })
        .unwrap_or(false)
}

/// Builds nbench-libtest in `dir`, for `target` (a triple, or the host)
/// with `rustflags` (those the bench targets get, so that both are made
/// alike; with bitcode, which a suite built with LTO needs of every
/// library). The source is [`Source::find`]'s for `checkout`. What cargo
/// said where it failed.
pub fn build(
    dir: &Path,
    checkout: &Path,
    target: Option<&str>,
    rustflags: &[String],
    offline: bool,
) -> crate::error::Result<Result<Shim, String>> {
    let source = Source::find(&LIBTEST, checkout)?;
    let manifest = format!(
        "# Written by cargo nbench: builds nbench-libtest for the suites of libtest's `#[bench]`.\n\
         [package]\nname = \"nbench-libtest-build\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[lib]\npath = \"lib.rs\"\n\n[workspace]\n\n[dependencies]\n{}\n",
        source.describe()
    );
    std::fs::create_dir_all(dir).map_err(|e| Error::io("could not create", dir, e))?;
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    write_if_changed(&dir.join("lib.rs"), "")?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(dir)
        .args(["build", "--release", "--message-format", "json"])
        .arg("--target-dir")
        .arg(dir.join("target"));
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    if offline {
        cmd.arg("--offline");
    }
    let flags: Vec<&str> = (rustflags.iter().map(String::as_str))
        .chain(["-Cembed-bitcode=yes"])
        .collect();
    cmd.env("CARGO_ENCODED_RUSTFLAGS", flags.join("\x1f"));
    let out = match cmd.stdin(Stdio::null()).output() {
        Ok(out) => out,
        Err(e) => return Ok(Err(format!("cargo did not start: {e}"))),
    };
    let rlib = Message::parse_stream(out.stdout.as_slice())
        .flatten()
        .filter_map(|m| match m {
            Message::CompilerArtifact(a) if a.target.name == "nbench_libtest" => Some(a.filenames),
            _ => None,
        })
        .flatten()
        .find(|f| f.extension() == Some("rlib"));
    match (out.status.success(), rlib) {
        (true, Some(rlib)) => {
            let rlib = rlib.into_std_path_buf();
            let deps = rlib.parent().unwrap_or(Path::new(".")).to_path_buf();
            Ok(Ok(Shim { rlib, deps }))
        }
        _ => Ok(Err(first_error(&String::from_utf8_lossy(&out.stderr)))),
    }
}

/// The first line cargo said of an error, or its last line.
fn first_error(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().map(str::trim).collect();
    lines
        .iter()
        .find(|l| l.starts_with("error"))
        .or(lines.iter().rev().find(|l| !l.is_empty()))
        .map_or_else(|| "cargo failed".to_owned(), |l| (*l).to_owned())
}

/// Writes `text` to `path` unless it holds it already (cargo would rebuild
/// the crate on a new modification time), whole: another run building
/// beside this one reads the old file or the new, never half of one.
fn write_if_changed(path: &Path, text: &str) -> crate::error::Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    crate::store::write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn cargo_says_why_in_its_first_error() {
        let said = "   Compiling x v0.1.0\nerror[E0554]: `#![feature]` may not be used on the stable release channel\n  --> src/lib.rs\nerror: could not compile";
        assert_eq!(
            first_error(said),
            "error[E0554]: `#![feature]` may not be used on the stable release channel"
        );
        assert_eq!(first_error("warning: x\n  last words \n"), "last words");
        assert_eq!(first_error(""), "cargo failed");
    }

    #[test]
    fn the_shim_stands_for_test_with_its_dependencies_beside_it() {
        let shim = Shim {
            rlib: "/t/deps/libnbench_libtest-1.rlib".into(),
            deps: "/t/deps".into(),
        };
        assert_eq!(
            shim.flags(),
            [
                "-Zunstable-options",
                "--extern",
                "noprelude:test=/t/deps/libnbench_libtest-1.rlib",
                "-L",
                "dependency=/t/deps",
                "-Aunused_features"
            ]
        );
    }
}
