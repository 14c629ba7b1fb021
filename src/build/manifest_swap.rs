//! One manifest swapped: each entry that declares a library nbench has a
//! front end for becomes the front end's, keeping what is not its source;
//! a second name of the library in one package becomes an alias of it
//! ([`super::alias`]).

use super::dependencies::each_entry;
use crate::discover::FrontEnd;
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
    /// Each alias it now names ([`super::alias`]), with the features its
    /// entries asked of it.
    pub aliases: Vec<(String, Vec<String>)>,
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
        let features = (features.iter().filter_map(Value::as_array).flatten())
            .filter_map(|f| f.as_str().map(str::to_owned))
            .collect();
        let mut keys = Table::new();
        let dir = super::alias::folder(aliases, &alias);
        keys.insert("path".into(), Value::String(dir.display().to_string()));
        put(dep, &keys, &alias);
        swap.aliases.push((alias, features));
    });
    swap.declared.sort_unstable();
    swap.declared.dedup();
    swap
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
