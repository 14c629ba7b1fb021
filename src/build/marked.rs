//! A build's output passed on to stderr, a revision's each line marked with its name.

/// Shows each line of `output` on stderr, after `[mark]` where there is
/// one (a revision's build); returns why the
/// build failed, as [`why`] words it: the compiler's first error line
/// (with the feature cargo names below a failed selection, or the panic of
/// a build script that failed as it ran), and the first unit cargo could
/// not compile.
pub fn show(output: impl std::io::Read, mark: Option<&str>) -> Option<String> {
    use std::io::BufRead;
    let mark =
        (mark.map(|m| format!("{} ", console::style(format!("[{m}]")).dim()))).unwrap_or_default();
    let (mut first_error, mut unit): (Option<String>, _) = (None, None);
    // Whether the line read last was the first error: its location follows.
    let mut located = false;
    // What a build script that failed as it ran printed, after cargo's error.
    let mut script: Option<String> = None;
    for line in std::io::BufReader::new(output)
        .lines()
        .map_while(|l| l.ok())
    {
        errln!("{mark}{line}");
        let plain = console::strip_ansi_codes(&line).into_owned();
        if let Some(printed) = script.as_mut().filter(|p| p.len() < KEEP) {
            printed.push_str(&plain);
            printed.push('\n');
        }
        if std::mem::take(&mut located)
            && let Some(crate_dir) = dependency_at(&plain)
            && let Some(first) = first_error.as_mut()
        {
            first.push_str(&format!("{IN_DEPENDENCY}{crate_dir}"));
        }
        if let Some(failed) = plain.strip_prefix(COULD_NOT) {
            let failed = failed.split(" due to ").next().unwrap_or(failed);
            unit.get_or_insert_with(|| failed.trim().to_owned());
        } else if first_error.is_none() && plain.starts_with("error") {
            if plain.starts_with(RAN) {
                script = Some(String::new());
            }
            first_error = Some(plain);
            located = true;
        } else if plain.contains("does not have that feature")
            && let Some(first) = first_error.as_mut()
        {
            // Cargo says which feature only lines below its error.
            first.push_str(": ");
            first.push_str(plain.trim());
        }
    }
    let panic = script.as_deref().and_then(crate::model::said::last_panic);
    let first_error = match (first_error, panic) {
        (Some(first), Some(panic)) => Some(format!("{first}: {panic}")),
        (first, _) => first,
    };
    first_error.map(|e| why(&e, unit.as_deref()))
}

/// The folder of the crate whose file a compiler error's location line
/// (`  --> /…/registry/src/index…/compact_str-0.9.1/src/x.rs:10:10`)
/// names, where cargo took that crate from a registry or a git source:
/// the error lies in a dependency's code, not the suite's.
fn dependency_at(line: &str) -> Option<&str> {
    let path = line.trim_start().strip_prefix("--> ")?;
    let path = path.replace('\\', "/");
    // A registry's crates lie in a folder of the index's (`index.crates.io-…`);
    // a git source's checkouts in its repository's (`honggfuzz-rs-84d5…`).
    let (at, depth) = [("/registry/src/", 1), ("/git/checkouts/", 0)]
        .iter()
        .find_map(|(d, depth)| Some((path.find(d)? + d.len(), *depth)))?;
    let rest = &line.trim_start()["--> ".len() + at..];
    let crate_dir = rest.split(['/', '\\']).nth(depth)?;
    (!crate_dir.is_empty()).then_some(crate_dir)
}

/// How a failed build's reason names the dependency whose code failed.
const IN_DEPENDENCY: &str = ", in the code of dependency ";

/// The dependency (its crate's folder, `compact_str-0.9.1`) whose code a
/// failed build's reason, as [`show`] gave it, says failed to compile.
pub fn dependency(why: &str) -> Option<&str> {
    let start = why.find(IN_DEPENDENCY)? + IN_DEPENDENCY.len();
    why[start..].split(' ').next()
}

const COULD_NOT: &str = "error: could not compile ";
const IN: &str = " (compiling ";
/// Cargo's first error where a build script failed as it ran.
const RAN: &str = "error: failed to run custom build command for `";
/// The most of a failed build script's output kept to find its panic.
const KEEP: usize = 64 * 1024;

/// A failed build's reason: its first error, and the unit cargo could not
/// compile (`` `base64` (lib) ``) where it named one.
fn why(first_error: &str, unit: Option<&str>) -> String {
    match unit {
        Some(unit) => format!("{first_error}{IN}{unit})"),
        None => first_error.to_owned(),
    }
}

/// The unit a failed build's reason (as [`show`] gave it) names: its
/// package and kind (`lib`, `bench "x"`, `build script`, …).
pub fn failed_unit(why: &str) -> Option<(&str, &str)> {
    if let Some(ran) = why.trim_start_matches(": ").strip_prefix(RAN) {
        let package = ran.split([' ', '`']).next()?;
        return Some((package, "build script"));
    }
    let unit = why.rsplit_once(IN)?.1.strip_suffix(')')?;
    let (package, kind) = unit.split_once(" (")?;
    let kind = kind.strip_suffix(')')?;
    Some((package.trim_matches('`'), kind))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_first_error_keeps_the_feature_cargo_names_below_it() {
        let cargo = "error: failed to select a version for `nbench-divan`.\n    ... required by \
                     package `b`\n\npackage `b` depends on `nbench-divan` with feature `x` but \
                     `nbench-divan` does not have that feature.\n";
        let first = super::show(cargo.as_bytes(), Some("HEAD")).unwrap();
        assert!(
            first.starts_with("error: failed to select a version for `nbench-divan`.: package")
                && first.contains("with feature `x`"),
            "{first}"
        );
        let plain = "error[E0425]: cannot find value `y`\n";
        assert_eq!(
            super::show(plain.as_bytes(), Some("HEAD")).as_deref(),
            Some("error[E0425]: cannot find value `y`")
        );
    }

    #[test]
    fn the_unit_cargo_could_not_compile_is_named_and_read_back() {
        // As cargo said it of base64's 2023 code under rustc 1.95.
        let cargo = "error: unexpected `cfg` condition value: `cargo-clippy`\n\
                     error: hiding a lifetime that's elided elsewhere is confusing\n\
                     error: could not compile `base64` (lib) due to 2 previous errors\n\
                     error: could not compile `base64` (bench \"benchmarks\") due to 1 previous error\n";
        let why = super::show(cargo.as_bytes(), Some("HEAD~1")).unwrap();
        assert_eq!(
            why,
            "error: unexpected `cfg` condition value: `cargo-clippy` (compiling `base64` (lib))"
        );
        assert_eq!(super::failed_unit(&why), Some(("base64", "lib")));
        let bench = "error[E0432]: unresolved import `criterion::x`\n\
                     error: could not compile `a` (bench \"b\") due to 1 previous error\n";
        let why = super::show(bench.as_bytes(), Some("HEAD")).unwrap();
        assert_eq!(super::failed_unit(&why), Some(("a", "bench \"b\"")));
        assert_eq!(
            super::failed_unit("error: failed to select a version"),
            None
        );
    }

    #[test]
    fn an_error_in_a_dependency_s_code_names_the_dependency() {
        // As compact_str 0.10's workspace built compact_str 0.9.1 with
        // diesel 2.4, where no lock file held diesel back.
        let cargo = "error[E0117]: only traits defined in the current crate can be implemented\n\
                     \x20 --> /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/\
                     compact_str-0.9.1/src/features/diesel.rs:10:10\n\
                     error: could not compile `compact_str` (lib) due to 8 previous errors\n";
        let why = super::show(cargo.as_bytes(), Some("HEAD")).unwrap();
        assert_eq!(
            why,
            "error[E0117]: only traits defined in the current crate can be implemented, in the \
             code of dependency compact_str-0.9.1 (compiling `compact_str` (lib))"
        );
        assert_eq!(super::failed_unit(&why), Some(("compact_str", "lib")));
        assert_eq!(super::dependency(&why), Some("compact_str-0.9.1"));
        let git = "  --> /home/u/.cargo/git/checkouts/honggfuzz-rs-84d5/a1b2c3d/src/lib.rs:1:1";
        assert_eq!(super::dependency_at(git), Some("honggfuzz-rs-84d5"));
        // The suite's own code names none.
        let own = "error[E0425]: cannot find value `y`\n  --> benches/a.rs:3:5\n\
                   error: could not compile `a` (bench \"a\") due to 1 previous error\n";
        let why = super::show(own.as_bytes(), Some("HEAD")).unwrap();
        assert_eq!(super::dependency(&why), None, "{why}");
    }

    #[test]
    fn a_build_script_that_fails_as_it_runs_is_named_with_its_panic() {
        // As cargo said it of pest's 2023 code, whose build script needs a
        // file that a setup step makes and git does not track.
        let cargo = "error: failed to run custom build command for `pest_meta v2.7.5 (/w/meta)`\n\
                     \n\
                     Caused by:\n  process didn't exit successfully: `…/build-script-build` (exit status: 101)\n\
                     \x20 --- stdout\n  rerun-if-changed=src/grammar.pest\n\n  --- stderr\n\n\
                     \x20 thread 'main' (17636) panicked at meta/build.rs:63:25:\n\
                     \x20 Bootstrap failed: run `cargo bootstrap`\n\
                     \x20 note: Some details are omitted\n\
                     warning: build failed, waiting for other jobs to finish...\n";
        let why = super::show(cargo.as_bytes(), Some("HEAD~1")).unwrap();
        assert_eq!(
            why,
            "error: failed to run custom build command for `pest_meta v2.7.5 (/w/meta)`: \
             panicked at meta/build.rs:63:25: Bootstrap failed: run `cargo bootstrap`"
        );
        assert_eq!(
            super::failed_unit(&why),
            Some(("pest_meta", "build script"))
        );
        // As a failed build's error carries it.
        let carried = format!(": {why}");
        assert_eq!(
            super::failed_unit(&carried),
            Some(("pest_meta", "build script"))
        );
        let quiet = "error: failed to run custom build command for `openssl-sys v0.9.80`\n";
        let why = super::show(quiet.as_bytes(), Some("HEAD")).unwrap();
        assert_eq!(
            super::failed_unit(&why),
            Some(("openssl-sys", "build script"))
        );
    }
}
