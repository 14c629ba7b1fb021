//! The rustflags a build gets, found as cargo finds them.
//!
//! cargo takes rustflags from the first of: `CARGO_ENCODED_RUSTFLAGS`,
//! `RUSTFLAGS`, every `target.<triple>.rustflags` and matching
//! `target.'cfg(…)'.rustflags` of its configuration (and
//! `CARGO_TARGET_<TRIPLE>_RUSTFLAGS`), `build.rustflags` (and
//! `CARGO_BUILD_RUSTFLAGS`). Configuration comes from `.cargo/config.toml`
//! (or `.cargo/config`) in the current directory and each parent, then
//! `$CARGO_HOME`; arrays from several files are joined, the nearer file's last.
//! nbench needs the user's flags to record how a bench build was made, and
//! to add its own to them (a build given `CARGO_ENCODED_RUSTFLAGS` ignores
//! every other source, so they must be joined here).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where a build's rustflags came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `CARGO_ENCODED_RUSTFLAGS`.
    EncodedEnv,
    /// `RUSTFLAGS`.
    Env,
    /// `target.*.rustflags` in the configuration (or its variable).
    TargetConfig,
    /// `build.rustflags` in the configuration (or `CARGO_BUILD_RUSTFLAGS`).
    BuildConfig,
    /// None were given.
    None,
}

/// The user's rustflags as cargo would use them, and the target they build for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserFlags {
    /// The flags, in order.
    pub flags: Vec<String>,
    /// Where they came from.
    pub source: Source,
    /// `build.target` / `CARGO_BUILD_TARGET`, if set.
    pub target: Option<String>,
    /// Whether cargo runs rustc through a wrapper of the user's
    /// (`RUSTC_WRAPPER`, `RUSTC_WORKSPACE_WRAPPER`, or `build.rustc-wrapper`
    /// and `build.rustc-workspace-wrapper` in the configuration).
    pub wrapper: bool,
}

impl UserFlags {
    /// The triple cargo builds for: the configured target, else the host's
    /// (empty when neither is known).
    pub fn target_or_host(&self) -> String {
        self.target.clone().or_else(host).unwrap_or_default()
    }
}

/// What is read to find the flags: the environment and the configuration files.
pub struct Sources<'a> {
    /// A variable's value.
    pub var: &'a dyn Fn(&str) -> Option<String>,
    /// Configuration files, farthest first (`$CARGO_HOME` first, the current directory's last).
    pub configs: Vec<toml::Table>,
    /// `rustc --print cfg` for the target: `unix`, `target_arch="x86_64"`, …
    pub cfg: &'a dyn Fn(Option<&str>) -> Vec<String>,
}

/// The flag among rustflags `flags` that builds for this machine's CPU,
/// as written (`-C target-cpu=native`): code that may use every
/// instruction it has, AVX-512 among them, which Valgrind does not know.
pub fn for_this_cpu(flags: &[String]) -> Option<String> {
    let native = |f: &str| {
        let f = f.trim_start_matches("-C").trim_start_matches("--codegen");
        f.trim_start_matches('=').trim() == "target-cpu=native"
    };
    (flags.iter().enumerate()).find_map(|(k, f)| match native(f) {
        true if k > 0 && ["-C", "--codegen"].contains(&flags[k - 1].as_str()) => {
            Some(format!("{} {f}", flags[k - 1]))
        }
        true => Some(f.to_owned()),
        false => None,
    })
}

/// The user's rustflags for a cargo command run in `cwd`, from this
/// process's environment; found once per directory (a comparison runs cargo
/// for every layout, and finding them runs rustc twice).
pub fn user_flags(cwd: &Path) -> UserFlags {
    static FOUND: std::sync::Mutex<Vec<(PathBuf, UserFlags)>> = std::sync::Mutex::new(Vec::new());
    let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, f)) = found.iter().find(|(d, _)| d == cwd) {
        return f.clone();
    }
    let flags = read_user_flags(cwd);
    found.push((cwd.to_path_buf(), flags.clone()));
    flags
}

fn read_user_flags(cwd: &Path) -> UserFlags {
    let var = |k: &str| std::env::var(k).ok();
    let cfg = |target: Option<&str>| rustc_cfg(target);
    let configs = config_files(cwd)
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter_map(|text| toml::from_str(&text).ok())
        .collect();
    find(&Sources {
        var: &var,
        configs,
        cfg: &cfg,
    })
}

/// The flags `sources` give, by cargo's order of precedence.
pub fn find(sources: &Sources) -> UserFlags {
    let var = sources.var;
    let target =
        var("CARGO_BUILD_TARGET").or_else(|| string_at(&sources.configs, &["build", "target"]));
    let wrapper = ["RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER"]
        .iter()
        .flat_map(|v| [var(v), var(&format!("CARGO_BUILD_{v}"))])
        .chain(
            ["rustc-wrapper", "rustc-workspace-wrapper"]
                .map(|k| string_at(&sources.configs, &["build", k])),
        )
        .any(|w| w.is_some_and(|w| !w.is_empty()));
    let done = |flags: Vec<String>, source| UserFlags {
        flags,
        source,
        target: target.clone(),
        wrapper,
    };
    if let Some(v) = var("CARGO_ENCODED_RUSTFLAGS") {
        let flags = v.split('\x1f').filter(|f| !f.is_empty()).map(str::to_owned);
        return done(flags.collect(), Source::EncodedEnv);
    }
    if let Some(v) = var("RUSTFLAGS") {
        return done(split(&v), Source::Env);
    }
    let triple = target.clone().or_else(host);
    let mut from_targets = Vec::new();
    if let Some(t) = &triple {
        let env = format!(
            "CARGO_TARGET_{}_RUSTFLAGS",
            t.to_ascii_uppercase().replace(['-', '.'], "_")
        );
        from_targets.extend(array_at(&sources.configs, &["target", t, "rustflags"]));
        from_targets.extend(var(&env).map(|v| split(&v)).unwrap_or_default());
    }
    let cfg = (sources.cfg)(target.as_deref());
    for config in &sources.configs {
        let tables = config.get("target").and_then(|t| t.as_table());
        for (key, table) in tables.into_iter().flatten() {
            let Some(expr) = key.strip_prefix("cfg(").and_then(|k| k.strip_suffix(')')) else {
                continue;
            };
            if cfg_matches(expr, &cfg) {
                from_targets.extend(flags_of(table.get("rustflags")));
            }
        }
    }
    if !from_targets.is_empty() {
        return done(from_targets, Source::TargetConfig);
    }
    let build = var("CARGO_BUILD_RUSTFLAGS")
        .map(|v| split(&v))
        .unwrap_or_else(|| array_at(&sources.configs, &["build", "rustflags"]));
    match build.is_empty() {
        false => done(build, Source::BuildConfig),
        true => done(Vec::new(), Source::None),
    }
}

fn split(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

/// A flags value: an array of strings or one string split at spaces.
fn flags_of(value: Option<&toml::Value>) -> Vec<String> {
    match value {
        Some(toml::Value::String(s)) => split(s),
        Some(toml::Value::Array(a)) => a
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

fn value_at<'t>(table: &'t toml::Table, path: &[&str]) -> Option<&'t toml::Value> {
    let (last, parents) = path.split_last()?;
    let mut t = table;
    for p in parents {
        t = t.get(*p)?.as_table()?;
    }
    t.get(*last)
}

/// A string key: the nearest file's.
fn string_at(configs: &[toml::Table], path: &[&str]) -> Option<String> {
    configs
        .iter()
        .rev()
        .find_map(|c| value_at(c, path)?.as_str().map(str::to_owned))
}

/// A flags key over every file, joined farthest first.
fn array_at(configs: &[toml::Table], path: &[&str]) -> Vec<String> {
    configs
        .iter()
        .flat_map(|c| flags_of(value_at(c, path)))
        .collect()
}

/// cargo's configuration files for `cwd`, farthest first: `$CARGO_HOME`'s,
/// then those of each directory from the root down to `cwd`.
pub fn config_files(cwd: &Path) -> Vec<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let in_dir = |cargo_dir: &Path| {
        ["config.toml", "config"]
            .iter()
            .map(|f| cargo_dir.join(f))
            .find(|p| p.is_file())
    };
    let mut files: Vec<PathBuf> = cwd
        .ancestors()
        .filter_map(|d| in_dir(&d.join(".cargo")))
        .collect();
    if let Some(h) = home.as_deref().and_then(in_dir)
        && !files.contains(&h)
    {
        files.push(h);
    }
    files.reverse();
    files
}

/// The host's target triple (`rustc -vV`, asked once).
pub fn host() -> Option<String> {
    static HOST: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
        let out = Command::new(rustc).arg("-vV").output().ok()?;
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
    })
    .clone()
}

/// `rustc --print cfg` for `target` (the host's when `None`).
fn rustc_cfg(target: Option<&str>) -> Vec<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let mut cmd = Command::new(rustc);
    cmd.args(["--print", "cfg"]);
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    cmd.output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a `cfg(…)` expression (without `cfg( )`) holds for `cfg`
/// (`rustc --print cfg` lines); an expression it cannot read does not.
pub fn cfg_matches(expr: &str, cfg: &[String]) -> bool {
    let tokens = tokenize(expr);
    let mut at = 0;
    let result = eval(&tokens, &mut at, cfg);
    result.filter(|_| at == tokens.len()).unwrap_or(false)
}

fn tokenize(expr: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = expr.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '(' | ')' | ',' | '=' => tokens.push(c.to_string()),
            '"' => {
                let s: String = chars.by_ref().take_while(|c| *c != '"').collect();
                tokens.push(format!("\"{s}\""));
            }
            c => {
                let mut word = c.to_string();
                while let Some(n) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                    word.push(*n);
                    chars.next();
                }
                tokens.push(word);
            }
        }
    }
    tokens
}

fn eval(tokens: &[String], at: &mut usize, cfg: &[String]) -> Option<bool> {
    let word = tokens.get(*at)?.clone();
    *at += 1;
    let next_is = |at: usize, t: &str| tokens.get(at).is_some_and(|x| x == t);
    if matches!(word.as_str(), "all" | "any" | "not") && next_is(*at, "(") {
        *at += 1;
        let mut values = Vec::new();
        while !next_is(*at, ")") {
            values.push(eval(tokens, at, cfg)?);
            if next_is(*at, ",") {
                *at += 1;
            }
        }
        *at += 1;
        return match word.as_str() {
            "all" => Some(values.iter().all(|v| *v)),
            "any" => Some(values.iter().any(|v| *v)),
            _ => (values.len() == 1).then(|| !values[0]),
        };
    }
    if next_is(*at, "=") {
        let value = tokens.get(*at + 1)?.clone();
        *at += 2;
        return Some(cfg.iter().any(|c| *c == format!("{word}={value}")));
    }
    Some(cfg.contains(&word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_for_this_cpu_is_found_as_its_flag_is_written() {
        let of = |f: &[&str]| for_this_cpu(&f.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            of(&["-C", "target-cpu=native"]).as_deref(),
            Some("-C target-cpu=native")
        );
        assert_eq!(
            of(&["-Ctarget-cpu=native"]).as_deref(),
            Some("-Ctarget-cpu=native")
        );
        assert_eq!(of(&["-C", "target-cpu=x86-64-v3"]), None);
        assert_eq!(of(&[]), None);
    }

    fn table(text: &str) -> toml::Table {
        toml::from_str(text).unwrap()
    }

    fn linux() -> Vec<String> {
        ["unix", "target_os=\"linux\"", "target_arch=\"x86_64\""]
            .map(str::to_owned)
            .to_vec()
    }

    fn flags(vars: &[(&str, &str)], configs: Vec<toml::Table>) -> UserFlags {
        let var = |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        };
        let cfg = |_: Option<&str>| linux();
        find(&Sources {
            var: &var,
            configs,
            cfg: &cfg,
        })
    }

    #[test]
    fn a_rustc_wrapper_of_the_users_is_seen_wherever_it_is_named() {
        assert!(!flags(&[], Vec::new()).wrapper);
        assert!(!flags(&[("RUSTC_WRAPPER", "")], Vec::new()).wrapper);
        assert!(flags(&[("RUSTC_WRAPPER", "sccache")], Vec::new()).wrapper);
        assert!(flags(&[("CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "w")], Vec::new()).wrapper);
        let config = table("[build]\nrustc-workspace-wrapper = \"w\"");
        assert!(flags(&[], vec![config]).wrapper);
    }

    #[test]
    fn the_first_source_by_cargos_precedence_wins() {
        let config = || {
            vec![
                table("[build]\nrustflags = [\"--cfg\", \"home\"]"),
                table(
                    "[build]\nrustflags = \"--cfg near\"\n[target.'cfg(unix)']\nrustflags = [\"-Cdebuginfo=1\"]",
                ),
            ]
        };
        let encoded = flags(
            &[
                ("CARGO_ENCODED_RUSTFLAGS", "-C\x1ftarget-cpu=native"),
                ("RUSTFLAGS", "-Copt-level=1"),
            ],
            config(),
        );
        assert_eq!(encoded.flags, ["-C", "target-cpu=native"]);
        assert_eq!(encoded.source, Source::EncodedEnv);
        let env = flags(&[("RUSTFLAGS", " -C  opt-level=1 ")], config());
        assert_eq!(
            (env.flags, env.source),
            (vec!["-C".into(), "opt-level=1".into()], Source::Env)
        );
        let target = flags(&[], config());
        assert_eq!(
            (target.flags, target.source),
            (vec!["-Cdebuginfo=1".into()], Source::TargetConfig)
        );
        let mut build_only = config();
        build_only[1].remove("target");
        let build = flags(&[], build_only);
        assert_eq!(
            build.flags,
            ["--cfg", "home", "--cfg", "near"],
            "joined, farthest first"
        );
        assert_eq!(build.source, Source::BuildConfig);
        assert_eq!(flags(&[], Vec::new()).source, Source::None);
    }

    #[test]
    fn cfg_expressions_as_cargo_reads_them() {
        let cfg = linux();
        for (expr, want) in [
            ("unix", true),
            ("windows", false),
            ("target_arch = \"x86_64\"", true),
            ("all(unix, target_os = \"linux\")", true),
            ("any(windows, target_arch = \"aarch64\")", false),
            ("not(windows)", true),
            ("all(unix, not(target_os = \"linux\"))", false),
            ("all(unix", false),
        ] {
            assert_eq!(cfg_matches(expr, &cfg), want, "{expr}");
        }
    }

    #[test]
    fn the_build_target_is_the_nearest_files() {
        let f = flags(
            &[],
            vec![
                table("[build]\ntarget = \"aarch64-unknown-linux-gnu\""),
                table("[build]\ntarget = \"x86_64-unknown-linux-musl\""),
            ],
        );
        assert_eq!(f.target.as_deref(), Some("x86_64-unknown-linux-musl"));
        let env = flags(
            &[("CARGO_BUILD_TARGET", "wasm32-unknown-unknown")],
            Vec::new(),
        );
        assert_eq!(env.target.as_deref(), Some("wasm32-unknown-unknown"));
    }
}
