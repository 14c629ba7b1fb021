//! A front end's crate under a second name, for a package that declares
//! its library under two (kiddo's `criterion` and
//! `codspeed-criterion-compat`): cargo takes one package under one name
//! only ("depends on crate … multiple times with different names"), so
//! each name past the first gets a crate of its own, written beside the
//! swapped checkout (in it, a workspace of `members = ["*"]` would take
//! its folder for a member), that is the front end's crate and nothing
//! else: a workspace of its own, as it is in none of the checkout's.

use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// The folder beside a checkout that holds its aliases.
pub const FOLDER: &str = ".nbench-alias";

/// The folder of the aliases of the checkout at `checkout`, beside it in
/// the folder cargo nbench made for it.
pub fn beside(checkout: &Path) -> PathBuf {
    checkout.parent().unwrap_or(checkout).join(FOLDER)
}

/// The package that is `package` (the front end's crate) under `name`:
/// `nbench-criterion-as-codspeed-criterion-compat`.
pub fn package(package: &str, name: &str) -> String {
    format!("{package}-as-{name}")
}

/// Where that package's crate lives in a checkout's alias folder `aliases`.
pub fn folder(aliases: &Path, alias: &str) -> PathBuf {
    aliases.join(alias)
}

/// Writes the crate `alias` in `aliases`: the front end's crate
/// (`package`, from `source`: `path` or `git` keys), with the features
/// `on`, all of it re-exported, its macros too; it declares the features
/// `declares`, each the front end's of that name.
pub fn write(
    (aliases, alias): (&Path, &str),
    package: &str,
    (source, (on, declares)): (&Table, (&[String], &[String])),
) -> std::io::Result<()> {
    let dir = folder(aliases, alias);
    std::fs::create_dir_all(&dir)?;
    let mut dependency = source.clone();
    dependency.insert("package".into(), Value::String(package.into()));
    let features = on.iter().cloned().map(Value::String).collect();
    dependency.insert("features".into(), Value::Array(features));
    let declared = declares.iter().map(|f| {
        let front = Value::String(format!("front/{f}"));
        (f.clone(), Value::Array(vec![front]))
    });
    let mut dependencies = Table::new();
    dependencies.insert("front".into(), Value::Table(dependency));
    let mut manifest = Table::new();
    let described: Table = toml::from_str(&format!(
        "name = {alias:?}\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\
         description = \"{package} under another name\""
    ))
    .map_err(std::io::Error::other)?;
    manifest.insert("package".into(), Value::Table(described));
    let mut lib_table = Table::new();
    lib_table.insert("path".into(), Value::String("lib.rs".into()));
    manifest.insert("lib".into(), Value::Table(lib_table));
    manifest.insert("dependencies".into(), Value::Table(dependencies));
    manifest.insert("features".into(), Value::Table(declared.collect()));
    manifest.insert("workspace".into(), Value::Table(Table::new()));
    let text = toml::to_string(&manifest).map_err(std::io::Error::other)?;
    std::fs::write(dir.join("Cargo.toml"), text)?;
    std::fs::write(
        dir.join("lib.rs"),
        format!("//! {package} under another name.\npub use front::*;\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alias_is_the_front_ends_crate_with_the_features_asked_of_it() {
        let aliases = std::env::temp_dir().join(format!("nbench-alias-{}", std::process::id()));
        let alias = package("nbench-criterion", "codspeed-criterion-compat");
        assert_eq!(alias, "nbench-criterion-as-codspeed-criterion-compat");
        let mut source = Table::new();
        source.insert("path".into(), Value::String("/compat/criterion".into()));
        let on = ["html_reports".to_owned()];
        // `x = ["codspeed-criterion-compat/async"]` in the package's features.
        let declares = ["async".to_owned()];
        write(
            (&aliases, &alias),
            "nbench-criterion",
            (&source, (&on, &declares)),
        )
        .unwrap();
        let dir = folder(&aliases, &alias);
        let manifest: Table =
            toml::from_str(&std::fs::read_to_string(dir.join("Cargo.toml")).unwrap()).unwrap();
        assert_eq!(manifest["package"]["name"].as_str(), Some(alias.as_str()));
        let dep = &manifest["dependencies"]["front"];
        assert_eq!(dep["package"].as_str(), Some("nbench-criterion"));
        assert_eq!(dep["path"].as_str(), Some("/compat/criterion"));
        assert_eq!(dep["features"][0].as_str(), Some("html_reports"));
        assert_eq!(
            manifest["features"]["async"][0].as_str(),
            Some("front/async")
        );
        assert!(manifest["workspace"].as_table().unwrap().is_empty());
        let lib = std::fs::read_to_string(dir.join("lib.rs")).unwrap();
        assert!(lib.contains("pub use front::*;"), "{lib}");
        std::fs::remove_dir_all(&aliases).unwrap();
    }
}
