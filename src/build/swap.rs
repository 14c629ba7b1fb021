//! A revision built in cargo nbench's own worktree whose bench targets use
//! criterion gets the one-line swap a user makes by hand: nbench-criterion
//! in criterion's place, the bench files untouched. Only the worktree's
//! manifests change, never the user's checkout.
//!
//! The dependency is followed wherever a manifest declares it: any
//! `dependencies` table (dev, build, normal, target-specific), the
//! workspace's `[workspace.dependencies]`, under its own name or renamed
//! (`package = "criterion"`), with its features, `optional` and
//! `default-features` kept. An entry that inherits it (`workspace = true`)
//! is left to the workspace's.

use super::worktree::git;
use crate::discover::COMPAT_PACKAGE;
use crate::error::{COMPAT_DEPENDENCY, Error, Result};
use crate::model::context::SwapRecord;
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// Where nbench-criterion is taken from: the variable that names a folder
/// holding it (for a fork, or to build without the network).
pub const COMPAT_ENV: &str = "NBENCH_CRITERION";

/// The source keys of a dependency entry, all replaced by the swap's.
const SOURCE_KEYS: [&str; 8] = [
    "version", "registry", "git", "branch", "tag", "rev", "path", "package",
];

/// Where the swap takes nbench-criterion from: `path = "…"` or `git = "…"`,
/// as a table of source keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Source(Table);

impl Source {
    /// `NBENCH_CRITERION` when set; else the source the user's own checkout
    /// gives nbench-criterion (a relative path made absolute), where it made
    /// the swap; else the published line.
    pub fn find(checkout: &Path) -> Source {
        if let Some(dir) = std::env::var_os(COMPAT_ENV) {
            let mut t = Table::new();
            t.insert(
                "path".into(),
                Value::String(PathBuf::from(dir).display().to_string()),
            );
            return Source(t);
        }
        super::worktree::manifests(checkout)
            .iter()
            .find_map(|m| own_source(m))
            .unwrap_or_else(published)
    }

    /// The dependency line it stands for, as a baseline records it.
    pub fn describe(&self) -> String {
        let mut t = self.0.clone();
        t.insert("package".into(), Value::String(COMPAT_PACKAGE.into()));
        format!("criterion = {}", Value::Table(t)).replace('\n', " ")
    }
}

/// The published source: the `git` of [`COMPAT_DEPENDENCY`].
fn published() -> Source {
    let line = COMPAT_DEPENDENCY.trim_start_matches("criterion = ");
    let parsed: Table = toml::from_str(&format!("x = {line}")).unwrap_or_default();
    let mut t = parsed
        .get("x")
        .and_then(Value::as_table)
        .cloned()
        .unwrap_or_default();
    t.remove("package");
    Source(t)
}

/// The source of nbench-criterion in the manifest at `path`, if it declares
/// it, with a relative `path` made absolute.
fn own_source(manifest: &Path) -> Option<Source> {
    let table: Table = toml::from_str(&std::fs::read_to_string(manifest).ok()?).ok()?;
    let entry = entries(&Value::Table(table))
        .into_iter()
        .find(|e| e.get("package").and_then(Value::as_str) == Some(COMPAT_PACKAGE))?;
    let mut source = Table::new();
    for key in SOURCE_KEYS.iter().filter(|k| **k != "package") {
        if let Some(v) = entry.get(*key) {
            source.insert((*key).into(), v.clone());
        }
    }
    if let Some(rel) = source.get("path").and_then(Value::as_str) {
        let dir = manifest.parent().unwrap_or(Path::new("."));
        let abs = dir.join(rel);
        let abs = abs.canonicalize().unwrap_or(abs);
        source.insert("path".into(), Value::String(abs.display().to_string()));
    }
    Some(Source(source))
}

/// Every dependency entry written as a table, anywhere in a manifest.
fn entries(value: &Value) -> Vec<Table> {
    let Some(table) = value.as_table() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, v) in table {
        match v.as_table() {
            Some(deps) if key.ends_with("dependencies") => {
                out.extend(deps.values().filter_map(Value::as_table).cloned());
            }
            Some(_) => out.extend(entries(v)),
            None => {}
        }
    }
    out
}

/// Puts nbench-criterion in criterion's place in `manifest`; returns
/// whether it declared criterion (and so was changed).
pub fn swap_manifest(manifest: &mut Table, source: &Source) -> bool {
    let mut changed = false;
    for (key, v) in manifest.iter_mut() {
        let Some(table) = v.as_table_mut() else {
            continue;
        };
        if key.ends_with("dependencies") {
            for (name, dep) in table.iter_mut() {
                changed |= swap_entry(name, dep, source);
            }
        } else {
            changed |= swap_manifest(table, source);
        }
    }
    changed
}

/// One dependency entry: criterion's, under its name or renamed, becomes
/// nbench-criterion's, keeping what is not its source.
fn swap_entry(name: &str, dep: &mut Value, source: &Source) -> bool {
    let package = match dep {
        Value::String(_) => Some(name),
        Value::Table(t) if t.get("workspace").and_then(Value::as_bool) == Some(true) => None,
        Value::Table(t) => Some(t.get("package").and_then(Value::as_str).unwrap_or(name)),
        _ => None,
    };
    if package != Some("criterion") {
        return false;
    }
    let mut entry = match dep {
        Value::Table(t) => t.clone(),
        _ => Table::new(),
    };
    for key in SOURCE_KEYS {
        entry.remove(key);
    }
    entry.extend(source.0.clone());
    entry.insert("package".into(), Value::String(COMPAT_PACKAGE.into()));
    *dep = Value::Table(entry);
    true
}

/// Swaps every manifest of the checkout at `dir` that declares criterion;
/// returns those changed, relative to `dir`.
pub fn swap_checkout(dir: &Path, source: &Source) -> std::io::Result<Vec<PathBuf>> {
    let mut changed = Vec::new();
    for path in super::worktree::manifests(dir) {
        let text = std::fs::read_to_string(&path)?;
        let Ok(mut table) = toml::from_str::<Table>(&text) else {
            continue;
        };
        if swap_manifest(&mut table, source) {
            let written = toml::to_string(&table).map_err(std::io::Error::other)?;
            std::fs::write(&path, written)?;
            changed.push(path.strip_prefix(dir).unwrap_or(&path).to_path_buf());
        }
    }
    Ok(changed)
}

/// Swaps the worktree `checkout` of the repository whose top is `top` (the
/// user's, where nbench-criterion's source is looked for); the record of
/// it, if any manifest declared criterion.
pub fn swap_in(top: &Path, checkout: &Path) -> Result<Option<SwapRecord>> {
    let source = Source::find(top);
    let changed = swap_checkout(checkout, &source).map_err(|e| {
        Error::io(
            "could not put nbench-criterion in criterion's place in",
            checkout,
            e,
        )
    })?;
    Ok((!changed.is_empty()).then(|| SwapRecord {
        dependency: source.describe(),
        manifests: changed.iter().map(|p| p.display().to_string()).collect(),
    }))
}

/// Whether a revision's baseline, saved with `saved`, was made as a build of
/// `commit` would be made now: swapped where it declares criterion, from the
/// same source. `Err` says how it differs.
pub fn swapped_as_now(
    saved: Option<&SwapRecord>,
    top: &Path,
    commit: &str,
) -> std::result::Result<(), String> {
    let declares = git(
        top,
        &[
            "grep",
            "-q",
            "-E",
            "-e",
            r#"^\s*criterion\s*="#,
            "-e",
            r#"package\s*=\s*"criterion""#,
            "-e",
            r"dependencies\.criterion\]",
            commit,
            "--",
            "*Cargo.toml",
        ],
    )
    .is_ok();
    let now = declares.then(|| Source::find(top).describe());
    match (saved.map(|s| &s.dependency), now) {
        (None, None) => Ok(()),
        (Some(a), Some(b)) if *a == b => Ok(()),
        (None, Some(_)) => Err("it was built without nbench-criterion in criterion's place".into()),
        (Some(_), None) => Err("it was built with nbench-criterion in criterion's place".into()),
        (Some(a), Some(b)) => Err(format!("it was built with `{a}` (now `{b}`)")),
    }
}

/// The item a compiler error names first (`` `with_plots` ``), if any.
pub fn missing_item(error: &str) -> Option<&str> {
    let start = error.find('`')? + 1;
    let len = error[start..].find('`')?;
    Some(&error[start..start + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swapped(manifest: &str) -> (bool, Table) {
        let mut t: Table = toml::from_str(manifest).unwrap();
        let mut source = Table::new();
        source.insert("path".into(), Value::String("/compat".into()));
        let changed = swap_manifest(&mut t, &Source(source));
        (changed, t)
    }

    fn dep<'a>(t: &'a Table, path: &[&str]) -> &'a Table {
        let mut v = t.get(path[0]).unwrap();
        for p in &path[1..] {
            v = v.get(*p).unwrap();
        }
        v.as_table().unwrap()
    }

    #[test]
    fn a_plain_version_becomes_the_compat_crate() {
        let (changed, t) = swapped("[dev-dependencies]\ncriterion = \"0.5\"\nrand = \"0.8\"\n");
        assert!(changed);
        let c = dep(&t, &["dev-dependencies", "criterion"]);
        assert_eq!(c["package"].as_str(), Some(COMPAT_PACKAGE));
        assert_eq!(c["path"].as_str(), Some("/compat"));
        assert!(c.get("version").is_none());
        assert_eq!(t["dev-dependencies"]["rand"].as_str(), Some("0.8"));
    }

    #[test]
    fn features_optional_and_default_features_are_kept() {
        let (_, t) = swapped(
            "[dev-dependencies]\ncriterion = { version = \"0.3\", features = [\"html_reports\"], \
             default-features = false, optional = true }\n",
        );
        let c = dep(&t, &["dev-dependencies", "criterion"]);
        assert_eq!(c["features"].as_array().unwrap().len(), 1);
        assert_eq!(c["default-features"].as_bool(), Some(false));
        assert_eq!(c["optional"].as_bool(), Some(true));
    }

    #[test]
    fn renamed_target_specific_and_workspace_entries_are_followed() {
        let (changed, t) = swapped(
            "[target.'cfg(not(miri))'.dev-dependencies]\n\
             crit = { package = \"criterion\", version = \"0.8\" }\n\
             [workspace.dependencies]\ncriterion = { git = \"https://example.org/c\", tag = \"v1\" }\n\
             [dependencies]\ncriterion = { workspace = true }\n",
        );
        assert!(changed);
        let renamed = dep(
            &t,
            &["target", "cfg(not(miri))", "dev-dependencies", "crit"],
        );
        assert_eq!(renamed["package"].as_str(), Some(COMPAT_PACKAGE));
        let ws = dep(&t, &["workspace", "dependencies", "criterion"]);
        assert_eq!(ws["package"].as_str(), Some(COMPAT_PACKAGE));
        assert!(ws.get("git").is_none() && ws.get("tag").is_none());
        let inherits = dep(&t, &["dependencies", "criterion"]);
        assert_eq!(
            inherits.len(),
            1,
            "an inheriting entry is left to the workspace's"
        );
    }

    #[test]
    fn a_manifest_without_criterion_is_not_changed() {
        let (changed, _) = swapped(
            "[package]\nname = \"criterion-tools\"\n[dev-dependencies]\n\
             c = { package = \"nbench-criterion\", path = \"x\" }\n",
        );
        assert!(!changed);
    }

    #[test]
    fn the_missing_item_is_the_first_one_the_error_names() {
        let e = "error[E0599]: no method named `with_foo` found for struct `Criterion` in the current scope";
        assert_eq!(missing_item(e), Some("with_foo"));
        assert_eq!(missing_item("error: linking failed"), None);
    }

    #[test]
    fn the_published_source_is_the_git_line_users_are_given() {
        let d = published().describe();
        assert!(
            d.contains("git = \"https://github.com/nbench-rs/cargo-nbench\""),
            "{d}"
        );
        assert!(d.contains("package = \"nbench-criterion\""), "{d}");
    }
}
