//! The first link layout made by cargo's own build, so that a bench
//! target is compiled once, not twice: cargo nbench is cargo's rustc
//! wrapper for the workspace's packages (`RUSTC_WORKSPACE_WRAPPER`), and
//! where rustc compiles one of the bench targets that get link layouts it
//! adds the first layout's link options and [`PRINT_LINK`], and keeps the
//! link command rustc prints beside the executable ([`relink::keep`]).
//! The other layouts are linked from it ([`super::layouts`]). Every other
//! compile, and every compile where no layouts are built, is rustc's alone.
//!
//! The wrapper is always named where cargo nbench may wrap, so that cargo,
//! which takes it into each member's hash, keeps one build of each. Where
//! the user names a wrapper of their own, cargo nbench names none, and the
//! first layout is built by `cargo rustc` as the others would be.

use super::canonical;
use super::relink::{self, LinkLine, PRINT_LINK};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// What the wrapper is told, in cargo's environment ([`Wrap::encode`]).
pub const WRAP_ENV: &str = "NBENCH_RUSTC_WRAP";

/// Which compiles get the first layout's options, and the options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wrap {
    /// The first layout's link options (the seed's order, the alignment).
    pub link: Vec<String>,
    /// Where to say why, where a compile failed with them and passed
    /// without ([`failed_file`]).
    pub failed: Option<PathBuf>,
    /// The targets' source files ([`canonical`]), each with whether only
    /// its test harness's compile is one (a library's unit tests; the
    /// library itself is compiled too).
    pub targets: Vec<(PathBuf, bool)>,
}

impl Wrap {
    /// As the environment carries it: the options on the first line
    /// (separated by `\x1f`), the file for a failure on the second, then a
    /// line a target, `test` or `any`, a tab, its source.
    pub fn encode(&self) -> String {
        let mut text = self.link.join("\x1f");
        let failed = self.failed.as_deref().unwrap_or(Path::new(""));
        text.push_str(&format!("\n{}", failed.display()));
        for (source, test) in &self.targets {
            let kind = if *test { "test" } else { "any" };
            text.push_str(&format!("\n{kind}\t{}", source.display()));
        }
        text
    }

    /// Reads what [`Wrap::encode`] wrote.
    pub fn decode(text: &str) -> Wrap {
        let mut lines = text.lines();
        let link = (lines.next().unwrap_or_default().split('\x1f'))
            .filter(|o| !o.is_empty())
            .map(str::to_owned)
            .collect();
        let failed = (lines.next()).filter(|f| !f.is_empty()).map(PathBuf::from);
        let targets = lines
            .filter_map(|l| l.split_once('\t'))
            .map(|(kind, source)| (PathBuf::from(source), kind == "test"))
            .collect();
        Wrap {
            link,
            failed,
            targets,
        }
    }

    /// Whether rustc's arguments `args`, run in `cwd`, compile one of the
    /// targets: its source file, and `--test` where only that compile is.
    fn wants(&self, args: &[String], cwd: &Path) -> bool {
        if self.link.is_empty() {
            return false;
        }
        let Some(source) = args
            .iter()
            .find(|a| a.ends_with(".rs") && !a.starts_with('-'))
        else {
            return false;
        };
        let source = canonical(&cwd.join(source));
        let test = args.iter().any(|a| a == "--test");
        (self.targets.iter()).any(|(t, only_test)| (test || !only_test) && *t == source)
    }
}

/// When cargo runs cargo nbench as its rustc wrapper ([`WRAP_ENV`] set,
/// rustc's path first): rustc run as cargo asked, with the first layout's
/// options where [`Wrap::wants`] the compile; its exit code. `None` when
/// cargo nbench is not run so.
pub fn as_wrapper() -> Option<ExitCode> {
    let wrap = Wrap::decode(&std::env::var(WRAP_ENV).ok()?);
    let mut args = std::env::args_os().skip(1);
    // `cargo nbench` runs it as `cargo-nbench nbench …`.
    let rustc = args.next().filter(|a| a != "nbench")?;
    let args: Vec<OsString> = args.collect();
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut why = None;
    if wrap.wants(&words, &cwd) {
        match first_layout(&rustc, (&args, &words), &wrap.link) {
            Ok(code) => return Some(code),
            Err(said) => why = Some(said),
        }
    }
    // rustc alone, as cargo asked (where the first layout's options
    // failed its link: a linker that cannot shuffle).
    let status = Command::new(&rustc).args(&args).status();
    if let (Some(why), Some(file), Ok(true)) =
        (why, &wrap.failed, status.as_ref().map(|s| s.success()))
    {
        // Its options alone failed it: the layouts are not built.
        let _ = std::fs::write(file, why);
    }
    Some(match status {
        Ok(s) => exit_code(s),
        Err(e) => {
            errln!(
                "error: cargo nbench could not run {}: {e}",
                rustc.to_string_lossy()
            );
            ExitCode::from(101)
        }
    })
}

/// rustc with `link` and [`PRINT_LINK`] added: what it said passed on,
/// the link command it printed kept beside the executable, and its exit
/// code (the code's own error too, said once); where its link failed,
/// having said nothing, its first error, and what it kept for the link
/// removed.
fn first_layout(
    rustc: &OsString,
    (args, words): (&[OsString], &[String]),
    link: &[String],
) -> Result<ExitCode, String> {
    let out = (Command::new(rustc).args(args).args(link).args(PRINT_LINK))
        .output()
        .map_err(|e| e.to_string())?;
    let said = String::from_utf8_lossy(&out.stderr);
    let first = first_error(&said);
    if !out.status.success() && at_link(&first) {
        remove_kept(words, &said);
        return Err(first);
    }
    let _ = std::io::stderr().write_all(&out.stderr);
    let mut stdout = std::io::stdout().lock();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        match LinkLine::parse(line) {
            Some(l) if l.output().is_some() => {
                let exe = l.output().map(Path::to_path_buf).unwrap_or_default();
                relink::keep(&exe, &l);
            }
            _ => {
                let _ = writeln!(stdout, "{line}");
            }
        }
    }
    Ok(exit_code(out.status))
}

/// rustc's exit code as cargo's wrapper gives it back (101, rustc's own
/// for a crash, where a signal ended it).
fn exit_code(status: std::process::ExitStatus) -> ExitCode {
    ExitCode::from(status.code().unwrap_or(101).clamp(0, 255) as u8)
}

/// Whether rustc's first error is its link's, the only step the first
/// layout's options reach (`linking with `cc` failed`, `linker `cc` not
/// found`, …); any other is the code's own, which fails without them too.
fn at_link(first_error: &str) -> bool {
    first_error.to_lowercase().contains("link")
}

/// The first error rustc said (its JSON diagnostics, as cargo asks for
/// them, or plain lines).
fn first_error(said: &str) -> String {
    let message = |l: &str| {
        let v: serde_json::Value = serde_json::from_str(l).ok()?;
        let error = v["level"] == "error" || v["level"] == "error: internal compiler error";
        error
            .then(|| v["message"].as_str().map(str::to_owned))
            .flatten()
    };
    (said.lines().find_map(message))
        .or_else(|| {
            said.lines()
                .find(|l| l.starts_with("error"))
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "rustc failed".to_owned())
}

/// What a failed compile with [`PRINT_LINK`] kept for its link: the
/// crate's objects and bitcode in its output folder (`--out-dir`, named by
/// `--crate-name` and `-C extra-filename`, its own), and the temporary
/// folders there that its complaint names (another crate's, compiled
/// beside it, are left alone).
fn remove_kept(words: &[String], said: &str) {
    let after = |flag: &str| {
        words
            .iter()
            .position(|w| w == flag)
            .and_then(|i| words.get(i + 1))
    };
    let extra = (words.iter())
        .find_map(|w| w.strip_prefix("extra-filename="))
        .unwrap_or_default();
    let (Some(dir), Some(name)) = (after("--out-dir"), after("--crate-name")) else {
        return;
    };
    let prefix = format!("{name}{extra}.");
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let own = file.starts_with(&prefix) && (file.ends_with(".o") || file.ends_with(".bc"));
        let named = file.starts_with("rustc") && said.contains(&format!("{dir}/{file}/"));
        if own {
            let _ = std::fs::remove_file(entry.path());
        } else if named && entry.path().is_dir() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The file a build's wrapper says in why its first layouts' options
/// failed its compiles, in `dir` (the build's folder), this run's own.
pub fn failed_file(dir: &Path) -> PathBuf {
    dir.join(format!(".layouts-failed-{}", std::process::id()))
}

/// Why the first layouts' options failed the compiles of the build in
/// `dir`, where they did ([`failed_file`]), read once.
pub fn take_failed(dir: &Path) -> Option<String> {
    let file = failed_file(dir);
    let why = std::fs::read_to_string(&file).ok();
    let _ = std::fs::remove_file(&file);
    why
}

/// The link command the build kept for `exe` where this build made it
/// with the first layout's option `seed` (the seed's order): kept no
/// earlier than `exe` was linked (a later build that linked it without
/// the wrapper leaves an older command), with its objects still there.
pub fn made_first(exe: &Path, seed: &str) -> Option<LinkLine> {
    let line = relink::kept_for(exe)?;
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let fresh = modified(&relink::line_file(exe))? >= modified(exe)?;
    (fresh && line.has(seed)).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_wrapper_is_told_reads_back_as_written() {
        let wrap = Wrap {
            link: vec![
                "-Clink-arg=-Wl,--shuffle-sections=.text*=1".into(),
                "-Cx".into(),
            ],
            failed: Some("/t/.layouts-failed-1".into()),
            targets: vec![
                ("/w/benches/a.rs".into(), false),
                ("/w/src/lib.rs".into(), true),
            ],
        };
        assert_eq!(Wrap::decode(&wrap.encode()), wrap);
        assert_eq!(Wrap::decode(""), Wrap::default());
    }

    #[test]
    fn a_failed_compile_says_its_first_error_and_leaves_no_kept_objects() {
        let json = r#"{"$message_type":"diagnostic","message":"linking with `cc` failed: exit status: 1","level":"error"}"#;
        let said = format!("{{\"level\":\"warning\",\"message\":\"w\"}}\n{json}\n");
        assert_eq!(
            first_error(&said),
            "linking with `cc` failed: exit status: 1"
        );
        assert_eq!(first_error("error: plain\n"), "error: plain");
        assert_eq!(first_error(""), "rustc failed");
        // Only a failed link is the layout's options' doing.
        assert!(at_link("linking with `cc` failed: exit status: 1"));
        assert!(at_link("linker `cc` not found"));
        assert!(!at_link("cannot find value `x` in this scope"));

        let dir = std::env::temp_dir().join(format!("nbench-kept-{}", std::process::id()));
        let files = [
            "b-40.b.1-cgu.0.rcgu.o",
            "b-40.b.1-cgu.0.rcgu.bc",
            "a-40.a.1-cgu.0.rcgu.o",
        ];
        for d in ["rustcAb12", "rustcCd34"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        for f in files {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let d = dir.display().to_string();
        let words: Vec<String> = [
            "--crate-name",
            "b",
            "-C",
            "extra-filename=-40",
            "--out-dir",
            &d,
        ]
        .map(String::from)
        .to_vec();
        remove_kept(&words, &format!("note: \"{d}/rustcAb12/symbols.o\""));
        let mut left: Vec<String> = (std::fs::read_dir(&dir).unwrap().flatten())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        // Another crate's object, and a folder the complaint does not name.
        assert_eq!(left, ["a-40.a.1-cgu.0.rcgu.o", "rustcCd34"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_the_targets_compiles_take_the_first_layouts_options() {
        let dir = std::env::temp_dir().join(format!("nbench-wrap-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("benches")).unwrap();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        for f in ["benches/a.rs", "benches/b.rs", "src/lib.rs"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let wrap = Wrap {
            link: vec!["-Clink-arg=x".into()],
            failed: None,
            targets: vec![
                (dir.join("benches/a.rs"), false),
                (dir.join("src/lib.rs"), true),
            ],
        };
        let args =
            |words: &[&str]| -> Vec<String> { words.iter().map(|w| w.to_string()).collect() };
        // cargo names the source relative to the workspace, where rustc runs.
        let a = args(&[
            "--crate-name",
            "a",
            "--edition=2021",
            "benches/a.rs",
            "--crate-type",
            "bin",
        ]);
        assert!(wrap.wants(&a, &dir));
        let b = args(&["--crate-name", "b", "benches/b.rs", "--crate-type", "bin"]);
        assert!(!wrap.wants(&b, &dir));
        // The library's unit tests, not the library.
        let lib = args(&["--crate-name", "l", "src/lib.rs", "--crate-type", "lib"]);
        assert!(!wrap.wants(&lib, &dir));
        let tests = args(&["--crate-name", "l", "src/lib.rs", "--test"]);
        assert!(wrap.wants(&tests, &dir));
        // rustc's probes, and a build with no layouts.
        assert!(!wrap.wants(&args(&["-vV"]), &dir));
        let none = Wrap {
            link: Vec::new(),
            ..wrap.clone()
        };
        assert!(!none.wants(&a, &dir));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
