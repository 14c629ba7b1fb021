//! A front end taken from a folder, as one hash of what it holds: its
//! files and those of the packages it names by `path` (nbench-divan's
//! macros, the harness), so that a revision built with it is built again
//! once any of them changed. A published or git source is told by its
//! dependency line alone.

use super::canonical;
use crate::model::stable_hash::fnv1a;
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// The hash of every file under package folder `dir` and under the
/// folders of the packages it depends on by `path`, each followed once;
/// build output (`target`) and version control (`.git`) left out.
pub fn of_folder(dir: &Path) -> String {
    let mut folders = vec![canonical(dir)];
    let mut i = 0;
    while let Some(folder) = folders.get(i).cloned() {
        for dep in path_dependencies(&folder) {
            if !folders.contains(&dep) {
                folders.push(dep);
            }
        }
        i += 1;
    }
    let mut files: Vec<PathBuf> = folders.iter().flat_map(|f| files_under(f)).collect();
    files.sort();
    files.dedup();
    let mut all = Vec::new();
    for file in &files {
        all.extend_from_slice(file.display().to_string().as_bytes());
        all.push(0);
        all.extend(std::fs::read(file).unwrap_or_default());
        all.push(0);
    }
    format!("{:016x}", fnv1a(all))
}

/// The folders of the packages the manifest in `dir` names by `path`.
fn path_dependencies(dir: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
        return Vec::new();
    };
    let Ok(table) = toml::from_str::<Table>(&text) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for key in ["dependencies", "build-dependencies"] {
        let deps = table.get(key).and_then(Value::as_table);
        for (_, entry) in deps.into_iter().flatten() {
            if let Some(rel) = entry.get("path").and_then(Value::as_str) {
                found.push(canonical(&dir.join(rel)));
            }
        }
    }
    found
}

fn files_under(folder: &Path) -> Vec<PathBuf> {
    let skip = |e: &walkdir::DirEntry| {
        e.depth() > 0 && matches!(e.file_name().to_str(), Some("target" | ".git"))
    };
    (walkdir::WalkDir::new(folder).into_iter())
        .filter_entry(|e| !skip(e))
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_in_the_front_end_or_a_package_it_names_by_path_changes_it() {
        let root = std::env::temp_dir().join(format!("nbench-fingerprint-{}", std::process::id()));
        let (front, harness) = (root.join("compat/front"), root.join("harness"));
        for dir in [
            &front.join("src"),
            &harness.join("src"),
            &front.join("target"),
        ] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(
            front.join("Cargo.toml"),
            "[package]\nname = \"front\"\n[dependencies]\nnbench = { path = \"../../harness\" }\n",
        )
        .unwrap();
        std::fs::write(front.join("src/lib.rs"), "pub fn a() {}").unwrap();
        std::fs::write(harness.join("Cargo.toml"), "[package]\nname = \"nbench\"\n").unwrap();
        std::fs::write(harness.join("src/lib.rs"), "pub fn b() {}").unwrap();
        let first = of_folder(&front);
        assert_eq!(of_folder(&front), first);
        // Build output is not the source.
        std::fs::write(front.join("target/out"), "built").unwrap();
        assert_eq!(of_folder(&front), first);
        std::fs::write(harness.join("src/lib.rs"), "pub fn b() { }").unwrap();
        let second = of_folder(&front);
        assert_ne!(second, first);
        std::fs::write(front.join("src/lib.rs"), "pub fn a() { }").unwrap();
        assert_ne!(of_folder(&front), second);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
