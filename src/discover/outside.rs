//! Packages with bench targets below the workspace root that are not its
//! members: a suite kept out of the workspace (`exclude = ["benches"]`),
//! which cargo reaches only through `--manifest-path`.

use cargo_metadata::Metadata;
use std::path::{Path, PathBuf};

/// How deep below the workspace root a manifest is looked for:
/// `benches/Cargo.toml` is at depth 2, `crates/x-bench/Cargo.toml` at 3.
const DEPTH: usize = 3;

/// The manifests, relative to the workspace root and sorted, of packages
/// below it that have bench targets and are not members of its workspace.
pub fn suites_outside(meta: &Metadata) -> Vec<PathBuf> {
    let root = meta.workspace_root.as_std_path();
    let members: Vec<PathBuf> = (meta.workspace_packages().into_iter())
        .filter_map(|p| std::fs::canonicalize(&p.manifest_path).ok())
        .collect();
    (super::manifests(root, DEPTH).into_iter())
        .filter(|m| m.parent() != Some(root))
        .filter(|m| !(std::fs::canonicalize(m).ok()).is_some_and(|m| members.contains(&m)))
        .filter(|m| has_benches(m))
        .filter_map(|m| m.strip_prefix(root).ok().map(Path::to_path_buf))
        .collect()
}

/// The manifest as a table, if it reads.
fn table(manifest: &Path) -> Option<toml::Table> {
    let text = std::fs::read_to_string(manifest).ok()?;
    toml::from_str(&text).ok()
}

/// The name of the package whose manifest this is.
pub fn package_name(manifest: &Path) -> Option<String> {
    let table = table(manifest)?;
    Some(table.get("package")?.get("name")?.as_str()?.to_owned())
}

/// Whether the manifest is a package's with bench targets: declared, or
/// found by cargo in its `benches/` folder.
fn has_benches(manifest: &Path) -> bool {
    let Some(table) = table(manifest) else {
        return false;
    };
    let Some(package) = table.get("package") else {
        return false;
    };
    let declared = (table.get("bench").and_then(|b| b.as_array())).is_some_and(|b| !b.is_empty());
    let auto = package.get("autobenches").and_then(|a| a.as_bool()) != Some(false);
    let folder = manifest.with_file_name("benches");
    let in_folder = auto
        && std::fs::read_dir(folder).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "rs"))
        });
    declared || in_folder
}

#[cfg(test)]
mod tests {
    use super::has_benches;

    #[test]
    fn a_package_has_benches_declared_or_in_its_folder() {
        let dir = std::env::temp_dir().join(format!("nbench-outside-{}", std::process::id()));
        let manifest = dir.join("Cargo.toml");
        std::fs::create_dir_all(&dir).unwrap();
        let package = "[package]\nname = \"x\"\n";
        std::fs::write(&manifest, format!("{package}[[bench]]\nname = \"a\"\n")).unwrap();
        assert!(has_benches(&manifest));
        std::fs::write(&manifest, package).unwrap();
        assert!(!has_benches(&manifest), "no [[bench]], no benches/");
        std::fs::create_dir_all(dir.join("benches")).unwrap();
        std::fs::write(dir.join("benches/b.rs"), "fn main() {}\n").unwrap();
        assert!(has_benches(&manifest));
        std::fs::write(&manifest, format!("{package}autobenches = false\n")).unwrap();
        assert!(!has_benches(&manifest), "autobenches = false");
        std::fs::write(&manifest, "[workspace]\nmembers = [\"y\"]\n").unwrap();
        assert!(!has_benches(&manifest), "a virtual manifest is no package");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
