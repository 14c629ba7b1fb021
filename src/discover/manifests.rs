//! The `Cargo.toml` files below a folder, outside target directories and
//! hidden folders: what a checkout's manifests are to a swap, to a
//! worktree's outside paths, and to the search for suites outside the
//! workspace.

use std::path::{Path, PathBuf};

/// The `Cargo.toml` files below `dir`, at most `depth` levels down (the
/// folder's own is at 1), sorted by path.
pub fn manifests(dir: &Path, depth: usize) -> Vec<PathBuf> {
    // Not hidden folders, nor target directories (cargo tags them).
    let searched = |e: &walkdir::DirEntry| {
        let name = e.file_name();
        e.depth() == 0
            || !e.file_type().is_dir()
            || (name != "target"
                && !name.to_string_lossy().starts_with('.')
                && !e.path().join("CACHEDIR.TAG").exists())
    };
    (walkdir::WalkDir::new(dir)
        .max_depth(depth)
        .sort_by_file_name()
        .into_iter())
    .filter_entry(searched)
    .flatten()
    .filter(|e| e.file_type().is_file() && e.file_name() == "Cargo.toml")
    .map(walkdir::DirEntry::into_path)
    .collect()
}
