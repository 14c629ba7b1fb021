//! Features a benchmark library turned on for the whole build, kept where
//! the swap ([`super::swap`]) takes the library out. cargo gives every
//! package that takes a crate the union of the features asked of it, so a
//! suite whose own entry asks serde_json for no default features built
//! with criterion's `std` all the same (bincode's benches). nbench's front
//! ends take none of those crates; the manifest's own entries ask for the
//! features instead, and the revision builds as `cargo bench` built it.

use super::dependencies::each_entry;
use crate::discover::{FRONT_ENDS, FrontEnd, Unified};
use std::path::PathBuf;
use toml::{Table, Value};

/// Asks for `unifies`' features in every dependency entry of `manifest`
/// (any table, the workspace's among them) that takes one of their
/// packages on its line with its default features off, or that inherits
/// the workspace's entry, which may have them off. Returns what it added,
/// as `package/feature`.
pub fn keep_features(manifest: &mut Table, unifies: &[Unified]) -> Vec<String> {
    let mut added = Vec::new();
    each_entry(manifest, &mut |name, dep| {
        added.extend(keep_in_entry(name, dep, unifies, true));
    });
    added
}

/// A feature a library turned on for the whole build that a manifest's own
/// entry turns off, where the library's front end is taken by hand.
#[derive(Debug, PartialEq)]
pub struct LeftOff {
    /// The front end taken in the library's place.
    pub front: &'static FrontEnd,
    /// `package/feature` (`serde_json/std`).
    pub feature: String,
    /// The manifest whose entry turns it off.
    pub manifest: PathBuf,
}

/// For a working tree that takes a front end by hand (`criterion = {
/// package = "nbench-criterion", … }`) and did not build: the features
/// the library it replaced turned on for the whole build that entries of
/// `manifests` turn off (defaults off, not inherited). cargo's error went
/// to the terminal unread; one of these may be what it names.
pub fn left_off(manifests: &[PathBuf]) -> Vec<LeftOff> {
    let mut read: Vec<(&PathBuf, Table)> = (manifests.iter())
        .filter_map(|p| Some((p, toml::from_str(&std::fs::read_to_string(p).ok()?).ok()?)))
        .collect();
    // The front end may be declared in the workspace's manifest alone.
    let mut fronts: Vec<&'static FrontEnd> = Vec::new();
    for (_, manifest) in &mut read {
        each_entry(manifest, &mut |_, dep| {
            let package = dep.get("package").and_then(Value::as_str);
            fronts.extend(FRONT_ENDS.iter().find(|f| Some(f.package) == package));
        });
    }
    let unifies: Vec<Unified> = (fronts.iter())
        .flat_map(|f| f.unifies.iter().copied())
        .collect();
    let mut found = Vec::new();
    for (path, manifest) in &mut read {
        each_entry(manifest, &mut |name, dep| {
            for feature in keep_in_entry(name, dep, &unifies, false) {
                let package = feature.split('/').next().unwrap_or_default();
                let front =
                    (fronts.iter()).find(|f| f.unifies.iter().any(|u| u.package == package));
                let Some(&front) = front else { continue };
                let left = LeftOff {
                    front,
                    feature,
                    manifest: (*path).clone(),
                };
                // An entry under [dependencies] and one under [dev-dependencies] say it once.
                if !found.contains(&left) {
                    found.push(left);
                }
            }
        });
    }
    found
}

/// What to add where `left` says a hand-swapped working tree turns a
/// feature off ([`left_off`]); manifests named from `root`.
pub fn left_off_hint(left: &[LeftOff], root: &std::path::Path) -> String {
    let each: Vec<String> = (left.iter())
        .map(|l| {
            let (package, feature) = l.feature.split_once('/').unwrap_or((&l.feature, ""));
            let manifest = l.manifest.strip_prefix(root).unwrap_or(&l.manifest);
            format!(
                "{} turned on `{}` for the whole build and {} does not: if cargo's error \
                 above is in {package}, add `features = [\"{feature}\"]` to its entry in `{}`",
                l.front.library,
                l.feature,
                l.front.package,
                manifest.display()
            )
        })
        .collect();
    each.join("; ")
}

/// One dependency entry, declared under `name`; one that inherits the
/// workspace's entry counts where `inherited` says so.
fn keep_in_entry(name: &str, dep: &mut Value, unifies: &[Unified], inherited: bool) -> Vec<String> {
    // An entry written as a version alone keeps its defaults.
    let Value::Table(entry) = dep else {
        return Vec::new();
    };
    let package = entry.get("package").and_then(Value::as_str).unwrap_or(name);
    let Some(unified) = unifies.iter().find(|u| u.package == package) else {
        return Vec::new();
    };
    let flag = |key: &str| entry.get(key).and_then(Value::as_bool);
    let inherits = inherited && flag("workspace") == Some(true);
    let defaults_off =
        flag("default-features") == Some(false) || flag("default_features") == Some(false);
    let on_line = (entry.get("version").and_then(Value::as_str))
        .is_some_and(|req| on_line(req, unified.line));
    if !(inherits || defaults_off && on_line) {
        return Vec::new();
    }
    let package = package.to_owned();
    let features = entry
        .entry("features")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(list) = features else {
        return Vec::new();
    };
    let mut added = Vec::new();
    for f in unified.features {
        if !list.iter().any(|x| x.as_str() == Some(f)) {
            list.push(Value::String((*f).to_owned()));
            added.push(format!("{package}/{f}"));
        }
    }
    added
}

/// Whether version requirement `req` (`1.0`, `^0.2.14`, `>=1.0.100, <2`)
/// takes the line `line` (`1`, `0.2`): its first bound names it.
fn on_line(req: &str, line: &str) -> bool {
    let first = req.split(',').next().unwrap_or_default();
    let first = first
        .trim()
        .trim_start_matches(['^', '~', '=', '>', '<', ' ']);
    let parts: Vec<&str> = first.split('.').collect();
    let wanted: Vec<&str> = line.split('.').collect();
    parts.len() >= wanted.len() && parts.iter().zip(&wanted).all(|(a, b)| a == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::FRONT_ENDS;

    fn kept(manifest: &str) -> (Vec<String>, Table) {
        let mut t: Table = toml::from_str(manifest).unwrap();
        let added = keep_features(&mut t, FRONT_ENDS[0].unifies);
        (added, t)
    }

    #[test]
    fn an_entry_without_defaults_asks_for_what_criterion_turned_on() {
        // As bincode's manifest has it.
        let (added, t) = kept(
            "[dev-dependencies]\n\
             serde_json = { version = \"1.0\", default-features = false }\n\
             criterion = \"0.5\"\n",
        );
        assert_eq!(added, ["serde_json/std"]);
        let entry = &t["dev-dependencies"]["serde_json"];
        assert_eq!(
            entry["features"].as_array().unwrap()[0].as_str(),
            Some("std")
        );
        assert_eq!(entry["default-features"].as_bool(), Some(false));
    }

    #[test]
    fn entries_that_have_the_features_or_another_line_are_left() {
        let (added, t) = kept(
            "[dependencies]\n\
             serde = { version = \"1\", default-features = false, features = [\"std\", \"derive\"] }\n\
             regex = \"1\"\n\
             num-traits = { version = \"0.1\", default-features = false }\n\
             other = { version = \"1\", default-features = false }\n\
             [target.'cfg(unix)'.dev-dependencies]\n\
             nt = { package = \"num-traits\", version = \"^0.2.14\", default_features = false }\n",
        );
        assert_eq!(added, ["num-traits/std"]);
        let features = |e: &Value| e.get("features").map(|f| f.as_array().unwrap().len());
        assert_eq!(features(&t["dependencies"]["serde"]), Some(2));
        assert_eq!(features(&t["dependencies"]["num-traits"]), None);
        assert_eq!(
            features(&t["target"]["cfg(unix)"]["dev-dependencies"]["nt"]),
            Some(1)
        );
    }

    #[test]
    fn an_inherited_entry_asks_in_case_the_workspaces_does_not() {
        let (added, _) = kept(
            "[workspace.dependencies]\n\
             serde_json = { version = \">=1.0.100, <2\", default-features = false }\n\
             [dev-dependencies]\n\
             serde_json = { workspace = true }\n",
        );
        assert_eq!(added, ["serde_json/std", "serde_json/std"]);
    }

    #[test]
    fn a_working_tree_that_takes_a_front_end_by_hand_is_told_what_it_turns_off() {
        let dir = std::env::temp_dir().join(format!("nbench-left-off-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("benches")).unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        // The front end declared in the workspace's manifest alone.
        let root = write(
            "Cargo.toml",
            "[workspace.dependencies]\n\
             criterion = { package = \"nbench-criterion\", path = \"nb\" }\n\
             serde = { version = \"1\", default-features = false }\n",
        );
        let benches = write(
            "benches/Cargo.toml",
            "[dev-dependencies]\n\
             criterion = { workspace = true }\n\
             serde = { workspace = true }\n\
             serde_json = { version = \"1.0\", default-features = false }\n\
             regex = \"1\"\n",
        );
        let left = left_off(&[root.clone(), benches.clone()]);
        let said: Vec<(&str, &str, &PathBuf)> = (left.iter())
            .map(|l| (l.front.library, l.feature.as_str(), &l.manifest))
            .collect();
        assert_eq!(
            said,
            [
                ("criterion", "serde/std", &root),
                ("criterion", "serde_json/std", &benches)
            ]
        );
        let hint = left_off_hint(&left[1..], &dir);
        assert_eq!(
            hint,
            "criterion turned on `serde_json/std` for the whole build and nbench-criterion \
             does not: if cargo's error above is in serde_json, add `features = [\"std\"]` \
             to its entry in `benches/Cargo.toml`"
        );
        // rust_decimal's: one feature left off in two tables, said once.
        let twice = write(
            "benches/Cargo.toml",
            "[dependencies]\n\
             serde = { version = \"1\", default-features = false }\n\
             serde_json = { version = \"1\", default-features = false }\n\
             [dev-dependencies]\n\
             criterion = { package = \"nbench-criterion\", path = \"nb\" }\n\
             serde = { version = \"1\", default-features = false, features = [\"derive\"] }\n",
        );
        let left = left_off(&[twice]);
        let features: Vec<&str> = left.iter().map(|l| l.feature.as_str()).collect();
        assert_eq!(features, ["serde/std", "serde_json/std"]);
        // criterion itself turns them on.
        let own = write(
            "Cargo.toml",
            "[dev-dependencies]\ncriterion = \"0.5\"\n\
             serde = { version = \"1\", default-features = false }\n",
        );
        assert_eq!(left_off(&[own]), []);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_requirement_names_its_line_by_its_first_bound() {
        assert!(on_line("1.0.100", "1"));
        assert!(on_line("=1", "1"));
        assert!(on_line("0.2", "0.2"));
        assert!(!on_line("0.1.5", "0.2"));
        assert!(!on_line("2", "1"));
        assert!(!on_line("*", "1"));
    }
}
