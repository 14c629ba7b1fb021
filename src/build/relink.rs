//! Link layouts made by running the linker again rather than the compiler.
//!
//! The first layout of a bench target is linked by the build itself
//! ([`super::wrap`]), or built by `cargo rustc`, with rustc told to print
//! the command it links with and to keep the objects it links
//! ([`PRINT_LINK`]). That command is kept beside the executable
//! (`NAME-HASH.link`); every further layout runs it again with another seed
//! for the function order and another output. So the code is compiled once
//! and every layout holds the same machine code in another order, and a
//! layout costs a link (0.03 s for a small bench target) instead of a
//! compile (26 s for one of toml's, built with `lto = true`). Where the
//! command cannot be read or run again, cargo builds the layout as before.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// rustc's options, after `cargo rustc … --`, that print the link command
/// and keep the objects and temporary folder it names.
pub const PRINT_LINK: [&str; 3] = ["--print", "link-args", "-Csave-temps"];

/// A link command as rustc prints it: `KEY="value" … "program" "arg" …`,
/// each string in Rust's debug quoting.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkLine {
    env: Vec<(String, String)>,
    program: String,
    args: Vec<String>,
}

impl LinkLine {
    /// The link command among cargo's output lines (rustc's stdout passes
    /// through), writing to `exe`.
    pub fn find(stdout: &str, exe: &Path) -> Option<LinkLine> {
        (stdout.lines())
            .filter(|l| !l.starts_with('{'))
            .filter_map(LinkLine::parse)
            .find(|l| l.output() == Some(exe))
    }

    /// Reads one printed command; `None` for anything else.
    pub fn parse(line: &str) -> Option<LinkLine> {
        let mut rest = line.trim_end();
        let mut env = Vec::new();
        let mut words = Vec::new();
        while !rest.is_empty() {
            rest = rest.trim_start_matches(' ');
            if rest.starts_with('"') {
                let (word, after) = quoted(rest)?;
                words.push(word);
                rest = after;
            } else {
                // `KEY="value"`, before the program only.
                let (key, after) = rest.split_once('=')?;
                let plain = |c: char| c.is_ascii_alphanumeric() || c == '_';
                if !words.is_empty() || key.is_empty() || !key.chars().all(plain) {
                    return None;
                }
                let (value, after) = quoted(after)?;
                env.push((key.to_owned(), value));
                rest = after;
            }
        }
        let mut words = words.into_iter();
        let program = words.next()?;
        Some(LinkLine {
            env,
            program,
            args: words.collect(),
        })
    }

    /// Whether it has the argument `arg`.
    pub fn has(&self, arg: &str) -> bool {
        self.args.iter().any(|a| a == arg)
    }

    /// The file it writes (`-o FILE`).
    pub fn output(&self) -> Option<&Path> {
        let at = self.args.iter().position(|a| a == "-o")?;
        self.args.get(at + 1).map(Path::new)
    }

    /// The command with argument `from` (the seed's) replaced by `to`,
    /// writing `out`; `None` if it has no such argument.
    pub fn with(&self, from: &str, to: &str, out: &Path) -> Option<LinkLine> {
        let at = self.args.iter().position(|a| a == "-o")?;
        let seed = self.args.iter().position(|a| a == from)?;
        let mut line = self.clone();
        line.args[seed] = to.to_owned();
        line.args[at + 1] = out.display().to_string();
        Some(line)
    }

    /// Runs it; `Err` with the linker's first line of complaint.
    pub fn run(&self) -> Result<(), String> {
        let out = Command::new(&self.program)
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("could not run `{}`: {e}", self.program))?;
        match out.status.success() {
            true => Ok(()),
            false => Err(String::from_utf8_lossy(&out.stderr)
                .lines()
                .next()
                .unwrap_or("the linker failed")
                .to_owned()),
        }
    }

    /// Its words as written again: one per line, the environment's as
    /// `KEY=value`, the program's and the arguments' after a `--` line.
    pub fn store(&self) -> String {
        let mut text = String::new();
        for (k, v) in &self.env {
            text.push_str(&format!("{k}={v}\n"));
        }
        text.push_str("--\n");
        for w in std::iter::once(&self.program).chain(&self.args) {
            text.push_str(w);
            text.push('\n');
        }
        text
    }

    /// Reads what [`LinkLine::store`] wrote.
    pub fn load(text: &str) -> Option<LinkLine> {
        let (env, words) = text.split_once("--\n")?;
        let env = (env.lines())
            .map(|l| l.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
            .collect::<Option<Vec<_>>>()?;
        let mut words = words.lines().map(str::to_owned);
        Some(LinkLine {
            env,
            program: words.next()?,
            args: words.collect(),
        })
    }

    /// What it reads that rustc kept for it in the executable's folder
    /// (`-Csave-temps`): its objects, and rustc's temporary folders.
    fn inputs_kept(&self) -> Vec<PathBuf> {
        let Some(dir) = self.output().and_then(Path::parent) else {
            return Vec::new();
        };
        let mut kept: Vec<PathBuf> = Vec::new();
        for arg in &self.args {
            let Ok(below) = Path::new(arg).strip_prefix(dir) else {
                continue;
            };
            let Some(first) = below.components().next() else {
                continue;
            };
            let first = dir.join(first);
            let name = first.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let temporary = name.starts_with("rustc") && below.components().count() > 1;
            if (temporary || name.ends_with(".rcgu.o")) && !kept.contains(&first) {
                kept.push(first);
            }
        }
        kept
    }
}

/// Reads one debug-quoted string at the start of `s`: the string and what
/// follows it.
fn quoted(s: &str) -> Option<(String, &str)> {
    let mut chars = s.strip_prefix('"')?.char_indices();
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &s[i + 2..])),
            '\\' => out.push(match chars.next()?.1 {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                '0' => '\0',
                'u' => {
                    let rest: String = chars
                        .by_ref()
                        .map(|(_, c)| c)
                        .take_while(|c| *c != '}')
                        .collect();
                    char::from_u32(u32::from_str_radix(rest.trim_start_matches('{'), 16).ok()?)?
                }
                // `\xNN`: a byte that is not UTF-8, which no String holds.
                'x' => return None,
                other => other,
            }),
            c => out.push(c),
        }
    }
    None
}

/// The file beside `exe` that keeps its link command.
pub fn line_file(exe: &Path) -> PathBuf {
    let mut name = exe.as_os_str().to_owned();
    name.push(".link");
    PathBuf::from(name)
}

/// Keeps `line`, the command `exe` was just linked with, for later layouts
/// and runs: the objects and folders an earlier command kept that this one
/// no longer reads are removed, and so are the bitcode files rustc kept
/// beside the objects (nothing links them). `false` if it could not be kept.
pub fn keep(exe: &Path, line: &LinkLine) -> bool {
    let file = line_file(exe);
    let now = line.inputs_kept();
    if let Some(old) = std::fs::read_to_string(&file)
        .ok()
        .and_then(|t| LinkLine::load(&t))
    {
        for path in old.inputs_kept().into_iter().filter(|p| !now.contains(p)) {
            remove(&path);
        }
    }
    if let (Some(dir), Some(name)) = (exe.parent(), exe.file_name().and_then(|n| n.to_str())) {
        let prefix = format!("{name}.");
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let n = entry.file_name().to_string_lossy().into_owned();
            if n.starts_with(&prefix) && n.ends_with(".bc") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    std::fs::write(file, line.store()).is_ok()
}

/// The command kept for `exe`, if everything it links is still there.
pub fn kept_for(exe: &Path) -> Option<LinkLine> {
    let line = LinkLine::load(&std::fs::read_to_string(line_file(exe)).ok()?)?;
    (line.output() == Some(exe) && line.inputs_kept().iter().all(|p| p.exists())).then_some(line)
}

/// The folders rustc makes for itself (`rustc…`, `rmeta…`) in `dir`, which
/// `-Csave-temps` leaves behind.
pub fn temporary_folders(dir: &Path) -> Vec<PathBuf> {
    (std::fs::read_dir(dir).into_iter().flatten().flatten())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("rustc") || name.starts_with("rmeta")
        })
        .map(|e| e.path())
        .collect()
}

/// Removes the folders rustc left in `dir` since `before` was listed that
/// `line` does not link from.
pub fn remove_left(dir: &Path, before: &[PathBuf], line: Option<&LinkLine>) {
    let linked = line.map(LinkLine::inputs_kept).unwrap_or_default();
    for path in temporary_folders(dir) {
        if !before.contains(&path) && !linked.contains(&path) {
            remove(&path);
        }
    }
}

fn remove(path: &Path) {
    let _ = match path.is_dir() {
        true => std::fs::remove_dir_all(path),
        false => std::fs::remove_file(path),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRINTED: &str = r#"LC_ALL="C" PATH="/bin:/usr/bin" VSLANG="1033" "cc" "-m64" "/t/deps/b-40.b.1d-cgu.0.rcgu.o" "-L" "/t/deps/rustcAb12/raw-dylibs" "-o" "/t/deps/b-40" "-Wl,--shuffle-sections=.text*=1" "say \"hi\"\\""#;

    #[test]
    fn a_printed_link_command_is_read_word_for_word() {
        let l = LinkLine::parse(PRINTED).unwrap();
        assert_eq!(l.env[0], ("LC_ALL".into(), "C".into()));
        assert_eq!(l.env.len(), 3);
        assert_eq!(l.program, "cc");
        assert_eq!(l.args.last().unwrap(), "say \"hi\"\\");
        assert_eq!(l.output(), Some(Path::new("/t/deps/b-40")));
        assert_eq!(
            l.inputs_kept(),
            [
                PathBuf::from("/t/deps/b-40.b.1d-cgu.0.rcgu.o"),
                PathBuf::from("/t/deps/rustcAb12")
            ]
        );
        assert_eq!(LinkLine::load(&l.store()), Some(l.clone()));
        // Cargo's JSON lines and a line that is not a command are not read as one.
        assert_eq!(LinkLine::parse("{\"reason\":\"build-finished\"}"), None);
        assert_eq!(LinkLine::parse("warning: unused variable"), None);
        assert_eq!(LinkLine::parse(r#""cc" "\xff""#), None);
        let found = LinkLine::find(
            &format!("{{\"a\":1}}\n{PRINTED}\n"),
            Path::new("/t/deps/b-40"),
        );
        assert_eq!(found, Some(l));
    }

    #[test]
    fn another_layout_changes_the_seed_and_the_output_alone() {
        let l = LinkLine::parse(PRINTED).unwrap();
        let other = l
            .with(
                "-Wl,--shuffle-sections=.text*=1",
                "-Wl,--shuffle-sections=.text*=2",
                Path::new("/t/deps/b-40.layout-2"),
            )
            .unwrap();
        assert_eq!(other.output(), Some(Path::new("/t/deps/b-40.layout-2")));
        let differ: Vec<_> = (l.args.iter().zip(&other.args))
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(differ.len(), 2, "{differ:?}");
        assert_eq!(l.with("-Wl,--no-such-seed", "x", Path::new("/o")), None);
    }
}
