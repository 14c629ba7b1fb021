//! A revision built in cargo nbench's own worktree whose bench targets use
//! criterion, divan, gungraun, tango, bencher or iai gets the one-line swap a
//! user makes by hand: nbench-criterion in criterion's place, nbench-divan
//! in divan's, nbench-gungraun in gungraun's (or iai-callgrind's),
//! nbench-tango in tango-bench's, nbench-bencher in bencher's, nbench-iai in
//! iai's, the bench
//! files untouched. Only the worktree's
//! manifests change, never the user's checkout.
//!
//! The dependency is followed wherever a manifest declares it: any
//! `dependencies` table (dev, build, normal, target-specific), the
//! workspace's `[workspace.dependencies]`, under its own name or renamed
//! (`package = "criterion"`), with its features, `optional` and
//! `default-features` kept. An entry that inherits it (`workspace = true`)
//! is left to the workspace's.

use super::manifest_swap::{ManifestSwap, SOURCE_KEYS, swap_tables};
use super::unified::keep_features;
use crate::discover::{FRONT_ENDS, FrontEnd};
use crate::error::{Error, Result};
use crate::model::context::SwapRecord;
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// Where the swap takes a front end's crate from: `path = "…"` or
/// `git = "…"`, as a table of source keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    front: &'static FrontEnd,
    keys: Table,
}

impl Source {
    /// The front end's variable when set; else the source the user's own
    /// checkout gives nbench's crate (a relative path made absolute), where
    /// it made the swap; else the crate beside the source this cargo nbench
    /// was built from, where that folder is still there; else the published
    /// line.
    /// A variable naming a folder that holds no such crate is an error.
    pub fn find(front: &'static FrontEnd, checkout: &Path) -> Result<Source> {
        if let Some(dir) = std::env::var_os(front.env) {
            let dir = PathBuf::from(dir);
            return holds(front, &dir).ok_or_else(|| {
                Error::Usage(format!(
                    "{} names `{}`, which holds no {} (a Cargo.toml naming it): point it at `{}` \
                     in cargo nbench's repository",
                    front.env,
                    dir.display(),
                    front.package,
                    front.folder
                ))
            });
        }
        Ok(crate::discover::manifests(checkout, usize::MAX)
            .iter()
            .find_map(|m| own_source(front, m))
            .or_else(|| {
                holds(
                    front,
                    &Path::new(env!("CARGO_MANIFEST_DIR")).join(front.folder),
                )
            })
            .unwrap_or_else(|| published(front)))
    }

    /// The crate in folder `dir`.
    fn at(front: &'static FrontEnd, dir: &Path) -> Source {
        let mut keys = Table::new();
        keys.insert("path".into(), Value::String(dir.display().to_string()));
        Source { front, keys }
    }

    /// What the folder it names holds, as one hash
    /// ([`super::fingerprint::of_folder`]); empty for a source not in a folder.
    pub fn contents(&self) -> String {
        match self.keys.get("path").and_then(Value::as_str) {
            Some(dir) => super::fingerprint::of_folder(Path::new(dir)),
            None => String::new(),
        }
    }

    /// The dependency line it stands for, as a baseline records it.
    pub fn describe(&self) -> String {
        let mut t = self.keys.clone();
        t.insert("package".into(), Value::String(self.front.package.into()));
        format!("{} = {}", self.front.library, Value::Table(t)).replace('\n', " ")
    }
}

/// The front end's crate in folder `dir`, if the folder holds it. The
/// folder beside the source this cargo nbench was built from (a checkout
/// installed with `--path`, or cargo's own checkout for `--git`) holds the
/// front end of the same version, taken without the network.
fn holds(front: &'static FrontEnd, dir: &Path) -> Option<Source> {
    let manifest: Table =
        toml::from_str(&std::fs::read_to_string(dir.join("Cargo.toml")).ok()?).ok()?;
    let name = manifest.get("package")?.get("name")?.as_str()?;
    let dir = dir.canonicalize().unwrap_or(dir.to_path_buf());
    (name == front.package).then(|| Source::at(front, &dir))
}

/// The published source: the `git` of the front end's published line.
fn published(front: &'static FrontEnd) -> Source {
    let line = front.published.split_once(" = ").map_or("", |(_, l)| l);
    let parsed: Table = toml::from_str(&format!("x = {line}")).unwrap_or_default();
    let mut keys = parsed
        .get("x")
        .and_then(Value::as_table)
        .cloned()
        .unwrap_or_default();
    keys.remove("package");
    Source { front, keys }
}

/// The source of the front end's crate in the manifest at `path`, if it
/// declares it, with a relative `path` made absolute.
fn own_source(front: &'static FrontEnd, manifest: &Path) -> Option<Source> {
    let table: Table = toml::from_str(&std::fs::read_to_string(manifest).ok()?).ok()?;
    let entry = entries(&Value::Table(table))
        .into_iter()
        .find(|e| e.get("package").and_then(Value::as_str) == Some(front.package))?;
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
    Some(Source {
        front,
        keys: source,
    })
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

/// Puts the source's crate in its library's place in `manifest`, each
/// name of the library past the first an alias of it in the folder
/// `aliases` ([`swap_tables`]).
pub fn swap_manifest(manifest: &mut Table, source: &Source, aliases: &Path) -> ManifestSwap {
    swap_tables(manifest, (source.front, &source.keys), aliases)
}

/// Whether the manifest `text` declares the front end's library where a
/// swap puts nbench's crate: an entry that already names nbench's crate,
/// or inherits the workspace's, is not one. Unreadable text declares none,
/// as [`swap_checkout`] leaves such a manifest alone.
pub fn would_swap(front: &'static FrontEnd, text: &str) -> bool {
    let Ok(mut table) = toml::from_str::<Table>(text) else {
        return false;
    };
    let source = Source {
        front,
        keys: Table::new(),
    };
    !(swap_manifest(&mut table, &source, Path::new("")))
        .declared
        .is_empty()
}

/// What [`swap_checkout`] changed in a checkout.
#[derive(Debug, Default)]
pub struct Swapped {
    /// The manifests, relative to the checkout.
    pub manifests: Vec<PathBuf>,
    /// The names they declared the library under.
    pub names: Vec<&'static str>,
    /// The features they now ask for that the library had turned on
    /// ([`keep_features`]), as `package/feature`.
    pub kept: Vec<String>,
}

/// Swaps every manifest of the checkout at `dir` that declares the source's
/// library, keeping in it the features the library turned on.
pub fn swap_checkout(dir: &Path, source: &Source) -> std::io::Result<Swapped> {
    let mut swapped = Swapped::default();
    let aliases = super::alias::beside(dir);
    // Each alias's features: turned on, and declared.
    type Set = std::collections::BTreeSet<String>;
    let mut asked = std::collections::BTreeMap::<String, (Set, Set)>::new();
    for path in crate::discover::manifests(dir, usize::MAX) {
        let text = std::fs::read_to_string(&path)?;
        let Ok(mut table) = toml::from_str::<Table>(&text) else {
            continue;
        };
        let swap = swap_manifest(&mut table, source, &aliases);
        if !swap.declared.is_empty() {
            swapped
                .kept
                .extend(keep_features(&mut table, source.front.unifies));
            let written = toml::to_string(&table).map_err(std::io::Error::other)?;
            std::fs::write(&path, written)?;
            (swapped.manifests).push(path.strip_prefix(dir).unwrap_or(&path).to_path_buf());
            swapped.names.extend(swap.declared);
            for alias in swap.aliases {
                let (on, declares) = asked.entry(alias.package).or_default();
                on.extend(alias.on);
                declares.extend(alias.declares);
            }
        }
    }
    for (alias, (on, declares)) in asked {
        let (on, declares) = (Vec::from_iter(on), Vec::from_iter(declares));
        let features = (on.as_slice(), declares.as_slice());
        let package = source.front.package;
        super::alias::write((&aliases, &alias), package, (&source.keys, features))?;
    }
    Ok(swapped)
}

/// Swaps the worktree `checkout` of the repository whose top is `top` (the
/// user's, where the front ends' sources are looked for); the record of it,
/// if any manifest declared one of the libraries nbench takes the place of.
pub fn swap_in(top: &Path, checkout: &Path) -> Result<Option<SwapRecord>> {
    let mut record = SwapRecord::default();
    for front in &FRONT_ENDS {
        let source = Source::find(front, top)?;
        let swapped = swap_checkout(checkout, &source)
            .map_err(|e| Error::io("could not put nbench's front end in place in", checkout, e))?;
        if swapped.manifests.is_empty() {
            continue;
        }
        record.libraries.push(front.library.to_owned());
        record
            .declared
            .extend(swapped.names.into_iter().map(str::to_owned));
        record.dependencies.push(source.describe());
        record.contents.push(source.contents());
        record.kept.extend(swapped.kept);
        for m in swapped.manifests {
            let m = m.display().to_string();
            if !record.manifests.contains(&m) {
                record.manifests.push(m);
            }
        }
    }
    record.manifests.sort();
    record.declared.sort();
    record.declared.dedup();
    record.kept.sort();
    record.kept.dedup();
    Ok((!record.libraries.is_empty()).then_some(record))
}

/// What a swap put where, as the manifests named the libraries: `uses`
/// (`iai-callgrind`) and `places` (`nbench-gungraun in iai-callgrind's
/// place`). A record older than `declared` names the libraries themselves.
pub fn swap_said(swap: &SwapRecord) -> (String, String) {
    let names = match swap.declared.is_empty() {
        true => &swap.libraries,
        false => &swap.declared,
    };
    let places: Vec<String> = (names.iter())
        .map(|n| {
            let front = FRONT_ENDS.iter().find(|f| f.named(n).is_some());
            let package = front.map_or_else(|| format!("nbench-{n}"), |f| f.package.to_owned());
            format!("{package} in {n}'s place")
        })
        .collect();
    (names.join(" and "), places.join(" and "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::front_ends::{COMPAT_PACKAGE, DIVAN_PACKAGE, GUNGRAUN_PACKAGE};

    fn swapped(manifest: &str) -> (bool, Table) {
        let mut t: Table = toml::from_str(manifest).unwrap();
        let mut keys = Table::new();
        keys.insert("path".into(), Value::String("/compat".into()));
        let source = Source {
            front: &FRONT_ENDS[0],
            keys,
        };
        let swap = swap_manifest(&mut t, &source, Path::new("/aliases"));
        (!swap.declared.is_empty(), t)
    }

    fn dep<'a>(t: &'a Table, path: &[&str]) -> &'a Table {
        let mut v = t.get(path[0]).unwrap();
        for p in &path[1..] {
            v = v.get(*p).unwrap();
        }
        v.as_table().unwrap()
    }

    #[test]
    fn a_manifest_that_already_names_the_front_end_is_not_swapped_again() {
        let criterion = &FRONT_ENDS[0];
        let ours = format!("criterion = {{ package = \"{COMPAT_PACKAGE}\", path = \"../c\" }}");
        for (manifest, swaps) in [
            ("[dev-dependencies]\ncriterion = \"0.5\"\n", true),
            (
                "[dev-dependencies.bench]\npackage = \"criterion\"\nversion = \"0.5\"\n",
                true,
            ),
            (&format!("[dev-dependencies]\n{ours}\n"), false),
            (
                "[dev-dependencies]\ncriterion = { workspace = true }\n",
                false,
            ),
            ("[dev-dependencies]\nrand = \"0.8\"\n", false),
            ("not toml [", false),
        ] {
            assert_eq!(would_swap(criterion, manifest), swaps, "{manifest}");
        }
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
    fn divan_is_swapped_for_nbench_divan_the_same_way() {
        let mut t: Table =
            toml::from_str("[dev-dependencies]\ndivan = \"0.1.21\"\ncriterion = \"0.5\"\n")
                .unwrap();
        let mut keys = Table::new();
        keys.insert("path".into(), Value::String("/divan".into()));
        let source = Source {
            front: &FRONT_ENDS[1],
            keys,
        };
        let declared = swap_manifest(&mut t, &source, Path::new("/aliases")).declared;
        assert_eq!(declared, ["divan"]);
        let d = dep(&t, &["dev-dependencies", "divan"]);
        assert_eq!(d["package"].as_str(), Some(DIVAN_PACKAGE));
        assert_eq!(t["dev-dependencies"]["criterion"].as_str(), Some("0.5"));
        let mut t: Table = toml::from_str(
            "[dev-dependencies]\ndivan = { version = \"3\", package = \"codspeed-divan-compat\" }\n",
        )
        .unwrap();
        let keys = Table::new();
        let source = Source {
            front: &FRONT_ENDS[1],
            keys,
        };
        let declared = swap_manifest(&mut t, &source, Path::new("/aliases")).declared;
        assert_eq!(declared, ["codspeed-divan-compat"], "CodSpeed's divan");
        let line = published(&FRONT_ENDS[1]).describe();
        assert!(line.starts_with("divan = {"), "{line}");
        assert!(line.contains("package = \"nbench-divan\""), "{line}");
    }

    #[test]
    fn gungraun_and_iai_callgrind_are_swapped_under_their_own_names() {
        let front = &FRONT_ENDS[2];
        let mut keys = Table::new();
        keys.insert("path".into(), Value::String("/gun".into()));
        let source = Source { front, keys };
        let mut t: Table = toml::from_str(
            "[dev-dependencies]\niai-callgrind = { version = \"0.14\", default-features = false }\n",
        )
        .unwrap();
        let declared = swap_manifest(&mut t, &source, Path::new("/aliases")).declared;
        assert_eq!(declared, ["iai-callgrind"]);
        let iai = dep(&t, &["dev-dependencies", "iai-callgrind"]);
        assert_eq!(iai["package"].as_str(), Some(GUNGRAUN_PACKAGE));
        assert_eq!(iai["path"].as_str(), Some("/gun"));
        assert_eq!(iai["default-features"].as_bool(), Some(false));
        assert!(iai.get("version").is_none(), "{iai:?}");
        let mut t: Table =
            toml::from_str("[target.'cfg(unix)'.dev-dependencies]\ngungraun = \"0.17\"\n").unwrap();
        swap_manifest(&mut t, &source, Path::new("/aliases"));
        let gun = dep(&t, &["target", "cfg(unix)", "dev-dependencies", "gungraun"]);
        assert_eq!(gun["package"].as_str(), Some(GUNGRAUN_PACKAGE));
        // What a skipped target's hint says to a suite under either name.
        assert!(
            front
                .line_as("iai-callgrind")
                .starts_with("iai-callgrind = { package = ")
        );
        assert_eq!(front.line_as("gungraun"), front.published);
    }

    #[test]
    fn a_second_name_of_the_library_in_one_manifest_takes_an_alias_of_the_crate() {
        // kiddo's: cargo takes nbench-criterion under one name only.
        let (changed, t) = swapped(
            "[dev-dependencies]\ncodspeed-criterion-compat = \"5.0\"\n\
             criterion = { version = \"0.8\", features = [\"html_reports\"] }\n\
             [target.'cfg(unix)'.dev-dependencies]\n\
             bench = { package = \"codspeed-criterion-compat\", version = \"5\", \
             features = [\"async\"], optional = true }\n",
        );
        assert!(changed);
        // The library's own name takes the crate, with its features.
        let c = dep(&t, &["dev-dependencies", "criterion"]);
        assert_eq!(c["package"].as_str(), Some(COMPAT_PACKAGE));
        assert_eq!(c["features"][0].as_str(), Some("html_reports"));
        let alias = |name: &str| format!("{COMPAT_PACKAGE}-as-{name}");
        let codspeed = dep(&t, &["dev-dependencies", "codspeed-criterion-compat"]);
        let named = alias("codspeed-criterion-compat");
        assert_eq!(codspeed["package"].as_str(), Some(named.as_str()));
        let path = Path::new("/aliases").join(&named);
        assert_eq!(codspeed["path"].as_str(), path.to_str());
        // Its features are asked of the crate, by the alias.
        let bench = dep(&t, &["target", "cfg(unix)", "dev-dependencies", "bench"]);
        assert_eq!(bench["package"].as_str(), Some(alias("bench").as_str()));
        assert!(bench.get("features").is_none() && bench.get("version").is_none());
        assert_eq!(bench["optional"].as_bool(), Some(true));
        let mut t: Table = toml::from_str(
            "[dev-dependencies]\ncodspeed-criterion-compat = { version = \"5\", features = [\"async\"] }\n\
             tango-bench = \"0.6\"\n",
        )
        .unwrap();
        let source = Source::at(&FRONT_ENDS[0], Path::new("/compat"));
        let swap = swap_manifest(&mut t, &source, Path::new("/aliases"));
        assert!(swap.aliases.is_empty(), "one name: {swap:?}");
        // Written out with its features, beside the checkout's manifests.
        let top = std::env::temp_dir().join(format!("nbench-swap-alias-{}", std::process::id()));
        let dir = top.join("checkout");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"k\"\n[features]\nx = [\"codspeed-criterion-compat?/async_tokio\"]\n\
             [dev-dependencies]\ncriterion = \"0.8\"\n\
             codspeed-criterion-compat = { version = \"5\", features = [\"async\"] }\n",
        )
        .unwrap();
        let swapped = swap_checkout(&dir, &source).unwrap();
        assert_eq!(swapped.names, ["codspeed-criterion-compat", "criterion"]);
        // Beside the checkout, not in it: a workspace of `members = ["*"]`
        // would take a folder in it for a member.
        let written = top.join(super::super::alias::FOLDER).join(&named);
        let text = std::fs::read_to_string(written.join("Cargo.toml")).unwrap();
        assert!(text.contains("\"async\""), "{text}");
        // The features its package's own name for it, declared by it.
        assert!(
            text.contains("async_tokio = [\"front/async_tokio\"]"),
            "{text}"
        );
        std::fs::remove_dir_all(&top).unwrap();
    }

    #[test]
    fn a_folder_holds_the_front_end_whose_package_its_manifest_names() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        for front in &FRONT_ENDS {
            let folder = repo.join(front.folder);
            let d = holds(front, &folder)
                .expect("this repository holds both")
                .describe();
            let folder = folder.canonicalize().unwrap();
            assert!(
                d.contains(&format!("path = {:?}", folder.display().to_string())),
                "{d}"
            );
        }
        // A folder that is not there, or holds another package.
        assert_eq!(holds(&FRONT_ENDS[0], &repo.join("no-such-folder")), None);
        assert_eq!(holds(&FRONT_ENDS[0], &repo.join("compat/divan")), None);
    }

    #[test]
    fn a_swap_is_said_in_the_names_the_manifests_used() {
        let swap = SwapRecord {
            libraries: vec!["criterion".into(), "gungraun".into()],
            declared: vec!["codspeed-criterion-compat".into(), "iai-callgrind".into()],
            ..SwapRecord::default()
        };
        let (uses, places) = swap_said(&swap);
        assert_eq!(uses, "codspeed-criterion-compat and iai-callgrind");
        assert_eq!(
            places,
            "nbench-criterion in codspeed-criterion-compat's place and nbench-gungraun in \
             iai-callgrind's place"
        );
        // A record older than `declared`: the libraries' own names.
        let old = SwapRecord {
            libraries: vec!["divan".into()],
            ..SwapRecord::default()
        };
        assert_eq!(
            swap_said(&old),
            ("divan".into(), "nbench-divan in divan's place".into())
        );
    }

    #[test]
    fn the_published_source_is_the_git_line_users_are_given() {
        let d = published(&FRONT_ENDS[0]).describe();
        assert!(
            d.contains("git = \"https://github.com/nbench-rs/cargo-nbench\""),
            "{d}"
        );
        assert!(d.contains("package = \"nbench-criterion\""), "{d}");
    }
}
