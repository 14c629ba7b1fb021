//! One manifest swapped: each entry that declares a library nbench has a
//! front end for becomes the front end's, keeping what is not its source;
//! a second name of the library in one package becomes an alias of it
//! ([`super::alias`]).

use super::dependencies::each_entry;
use crate::discover::{FrontEnd, crate_name};
use std::path::Path;
use toml::{Table, Value};

/// The source keys of a dependency entry, all replaced by the swap's.
pub const SOURCE_KEYS: [&str; 8] = [
    "version", "registry", "git", "branch", "tag", "rev", "path", "package",
];

/// What swapping one manifest did.
#[derive(Debug, Default, PartialEq)]
pub struct ManifestSwap {
    /// The names of the library's it declared (none: it was not changed).
    pub declared: Vec<&'static str>,
    /// Each alias it now names ([`super::alias`]).
    pub aliases: Vec<Alias>,
}

/// An alias a manifest names ([`super::alias`]).
#[derive(Debug, Default, PartialEq)]
pub struct Alias {
    /// Its package (`nbench-criterion-as-codspeed-criterion-compat`).
    pub package: String,
    /// The features its entries turned on, asked of the front end.
    pub on: Vec<String>,
    /// The features its package's `[features]` name of it (`x =
    /// ["codspeed-criterion-compat/async"]`), which it declares, each
    /// turning on the front end's of that name.
    pub declares: Vec<String>,
}

/// Puts the source's crate in its library's place in `manifest`. Where
/// its package, or its workspace's `[workspace.dependencies]`, declares the
/// library under two names or more (`criterion` and
/// `codspeed-criterion-compat`), the first that names the library itself
/// (else the first) takes the crate, each other name an alias of it in
/// the folder `aliases`.
pub fn swap_tables(
    manifest: &mut Table,
    source: (&'static FrontEnd, &Table),
    aliases: &Path,
) -> ManifestSwap {
    by_crate_names(manifest);
    let mut workspace = manifest.remove("workspace");
    let mut swap = swap_names(manifest, source, aliases);
    if let Some(Value::Table(ws)) = &mut workspace {
        let more = swap_names(ws, source, aliases);
        swap.declared.extend(more.declared);
        swap.aliases.extend(more.aliases);
        swap.declared.sort_unstable();
        swap.declared.dedup();
    }
    if let Some(ws) = workspace {
        manifest.insert("workspace".into(), ws);
    }
    swap
}

/// Declares each library whose crate goes by another name than its
/// package ([`crate_name`]: criterion2's is `criterion`) under that name,
/// where an entry gives it its own: `criterion2 = "3"` becomes `criterion
/// = { package = "criterion2", version = "3" }`, the same to cargo, and
/// `criterion2/…` in the package's features `criterion/…`. The front end,
/// put in its place, then has the name the suite's code uses.
fn by_crate_names(manifest: &mut Table) {
    let mut moved = Vec::new();
    rename_in(manifest, &mut moved);
    let Some(Value::Table(features)) = manifest.get_mut("features") else {
        return;
    };
    let listed: Vec<String> = features.keys().cloned().collect();
    for (_, list) in features.iter_mut() {
        let Some(list) = list.as_array_mut() else {
            continue;
        };
        for f in list.iter_mut() {
            let renamed = (f.as_str()).and_then(|f| renamed_feature(f, &moved, &listed));
            if let Some(renamed) = renamed {
                *f = Value::String(renamed);
            }
        }
    }
}

/// [`by_crate_names`] in the dependency tables of `table`, at any depth
/// (`[target.'cfg(…)'.dev-dependencies]`, `[workspace.dependencies]`):
/// each name moved, and the name it took.
fn rename_in(table: &mut Table, moved: &mut Vec<(String, &'static str)>) {
    for (key, value) in table.iter_mut() {
        let Some(inner) = value.as_table_mut() else {
            continue;
        };
        if !key.ends_with("dependencies") {
            rename_in(inner, moved);
            continue;
        }
        let names: Vec<String> = inner.keys().cloned().collect();
        for name in names {
            let Some(code) = crate_name(&name).filter(|c| !inner.contains_key(*c)) else {
                continue;
            };
            let mut entry = match inner.get(&name) {
                Some(Value::String(v)) => Table::from_iter([("version".into(), v.clone().into())]),
                Some(Value::Table(t)) if !t.contains_key("package") => t.clone(),
                _ => continue,
            };
            // Inherited, it is renamed in the workspace's table too.
            if entry.get("workspace").and_then(Value::as_bool) != Some(true) {
                entry.insert("package".into(), Value::String(name.clone()));
            }
            inner.remove(&name);
            inner.insert(code.to_owned(), Value::Table(entry));
            moved.push((name, code));
        }
    }
}

/// Feature `f` of a package's `[features]` (whose own are `listed`)
/// with each dependency of `moved` under its new name: `criterion2/x`,
/// `criterion2?/x`, `dep:criterion2` and the optional dependency's own
/// feature `criterion2`; none where it names none of them.
fn renamed_feature(f: &str, moved: &[(String, &str)], listed: &[String]) -> Option<String> {
    for (old, new) in moved {
        if let Some((sep, rest)) = of_dependency(f, old) {
            return Some(format!("{new}{sep}{rest}"));
        }
        if f == format!("dep:{old}") {
            return Some(format!("dep:{new}"));
        }
        if f == old && !listed.contains(old) {
            return Some((*new).to_owned());
        }
    }
    None
}

/// [`swap_tables`] for the dependency tables in `manifest`, which one
/// package takes together.
fn swap_names(
    manifest: &mut Table,
    (front, keys): (&'static FrontEnd, &Table),
    aliases: &Path,
) -> ManifestSwap {
    // Each name, with whether it names the library itself (`crit =
    // { package = "criterion" }`), not another of its names.
    let mut names = Vec::new();
    each_entry(manifest, &mut |name, dep| {
        if let Some(library) = library_of(name, dep).and_then(|l| front.named(l)) {
            names.push((library != front.library, name.to_owned()));
        }
    });
    names.sort_unstable();
    let first = names.first().map(|(_, name)| name.clone());
    let listed = manifest.get("features").cloned();
    let mut swap = ManifestSwap::default();
    each_entry(manifest, &mut |name, dep| {
        let Some(declared) = library_of(name, dep).and_then(|l| front.named(l)) else {
            return;
        };
        swap.declared.push(declared);
        if Some(name) == first.as_deref() {
            put(dep, keys, front.package);
            return;
        }
        let alias = super::alias::package(front.package, name);
        let features = match dep {
            Value::Table(t) => t.remove("features"),
            _ => None,
        };
        let on = (features.iter().filter_map(Value::as_array).flatten())
            .filter_map(|f| f.as_str().map(str::to_owned))
            .collect();
        let mut keys = Table::new();
        let dir = super::alias::folder(aliases, &alias);
        keys.insert("path".into(), Value::String(dir.display().to_string()));
        put(dep, &keys, &alias);
        let declares = features_of(listed.as_ref(), name);
        swap.aliases.push(Alias {
            package: alias,
            on,
            declares,
        });
    });
    swap.declared.sort_unstable();
    swap.declared.dedup();
    swap
}

/// The features of dependency `name` a package's `[features]` (`listed`)
/// names: `name/x` and `name?/x`.
fn features_of(listed: Option<&Value>, name: &str) -> Vec<String> {
    let lists = listed
        .and_then(Value::as_table)
        .into_iter()
        .flat_map(|t| t.values());
    let named = lists
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(Value::as_str);
    let mut features: Vec<String> = named
        .filter_map(|f| Some(of_dependency(f, name)?.1.to_owned()))
        .collect();
    features.sort();
    features.dedup();
    features
}

/// Where `[features]` entry `f` names a feature of dependency `name`
/// (`name/x`, or `name?/x`, which leaves it off): how (`/` or `?/`) and
/// which feature.
fn of_dependency<'f>(f: &'f str, name: &str) -> Option<(&'static str, &'f str)> {
    let rest = f.strip_prefix(name)?;
    (["/", "?/"].into_iter()).find_map(|sep| Some((sep, rest.strip_prefix(sep)?)))
}

/// The library a dependency entry declared under `name` is: `name`, or
/// the package it renames; none for an entry that inherits the
/// workspace's.
fn library_of<'a>(name: &'a str, dep: &'a Value) -> Option<&'a str> {
    match dep {
        Value::String(_) => Some(name),
        Value::Table(t) if t.get("workspace").and_then(Value::as_bool) == Some(true) => None,
        Value::Table(t) => Some(t.get("package").and_then(Value::as_str).unwrap_or(name)),
        _ => None,
    }
}

/// Makes the entry `dep` package `package` from source `keys`, keeping
/// what is not its source.
fn put(dep: &mut Value, keys: &Table, package: &str) {
    let mut entry = match dep {
        Value::Table(t) => t.clone(),
        _ => Table::new(),
    };
    for key in SOURCE_KEYS {
        entry.remove(key);
    }
    entry.extend(keys.clone());
    entry.insert("package".into(), Value::String(package.into()));
    *dep = Value::Table(entry);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::FRONT_ENDS;

    /// `manifest` swapped for criterion's front end from `/compat`.
    fn swapped(manifest: &str) -> Table {
        let mut t: Table = toml::from_str(manifest).unwrap();
        let keys = Table::from_iter([("path".into(), Value::String("/compat".into()))]);
        let swap = swap_tables(&mut t, (&FRONT_ENDS[0], &keys), Path::new("/aliases"));
        assert_eq!(swap.declared, ["criterion2"]);
        assert!(swap.aliases.is_empty(), "{swap:?}");
        t
    }

    #[test]
    fn a_library_whose_crate_has_another_name_is_swapped_under_that_name() {
        // oxc-resolver's: criterion2's crate is `criterion` (`use criterion::…`).
        let t = swapped(
            "[features]\ncodspeed = [\"criterion2/codspeed\"]\nlisted = [\"criterion2?/async\"]\n\
             [dev-dependencies]\ncriterion2 = { version = \"3\", default-features = false }\n",
        );
        let deps = t["dev-dependencies"].as_table().unwrap();
        assert!(!deps.contains_key("criterion2"), "{t}");
        let c = &deps["criterion"];
        assert_eq!(c["package"].as_str(), Some("nbench-criterion"));
        assert_eq!(c["path"].as_str(), Some("/compat"));
        assert_eq!(c["default-features"].as_bool(), Some(false));
        let features = &t["features"];
        assert_eq!(features["codspeed"][0].as_str(), Some("criterion/codspeed"));
        assert_eq!(features["listed"][0].as_str(), Some("criterion?/async"));
        // Optional, and inherited from the workspace's table.
        let t = swapped(
            "[features]\nbench = [\"dep:criterion2\"]\nother = [\"criterion2\"]\n\
             [dependencies]\ncriterion2 = { workspace = true, optional = true }\n\
             [workspace.dependencies]\ncriterion2 = \"3\"\n",
        );
        let own = &t["dependencies"]["criterion"];
        assert_eq!(own["workspace"].as_bool(), Some(true), "{t}");
        assert!(own.get("package").is_none(), "{t}");
        let inherited = &t["workspace"]["dependencies"]["criterion"];
        assert_eq!(
            inherited["package"].as_str(),
            Some("nbench-criterion"),
            "{t}"
        );
        assert_eq!(t["features"]["bench"][0].as_str(), Some("dep:criterion"));
        assert_eq!(t["features"]["other"][0].as_str(), Some("criterion"));
        // Renamed by the suite, its code uses the name it gave.
        let t =
            swapped("[dev-dependencies]\ncrit = { package = \"criterion2\", version = \"3\" }\n");
        let c = &t["dev-dependencies"]["crit"];
        assert_eq!(c["package"].as_str(), Some("nbench-criterion"), "{t}");
    }
}
