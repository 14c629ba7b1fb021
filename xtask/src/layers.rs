//! `cargo xtask layers`: the subcommand's imports point one way. Each
//! top-level module of `src/` sits in a layer; a file may name (`crate::X`)
//! only modules of the layers below its own, never one beside or above it.
//! Also: no file in `src/` over [`MOST_LINES`] lines. `docs/architecture.md`
//! draws the same layers.

use std::path::{Path, PathBuf};

/// The layers, top first. A module may import the modules of any layer
/// after its own.
pub const LAYERS: &[&[&str]] = &[
    &["commands"],
    &["pipeline"],
    &["config"],
    &["cli"],
    &["report", "run"],
    &["compare", "build"],
    &["store", "discover"],
    &["model", "error", "say"],
];

/// The most lines a file of `src/` may have.
pub const MOST_LINES: usize = 600;

/// Every import that points up or sideways, and every file over
/// [`MOST_LINES`], in `src` below `root`: one line each.
pub fn violations(root: &Path) -> Result<Vec<String>, String> {
    let src = root.join("src");
    let mut found = Vec::new();
    for file in rust_files(&src)? {
        let rel = file.strip_prefix(&src).unwrap_or(&file);
        let Some(own) = module_of(rel) else { continue };
        let Some(own_layer) = layer_of(&own) else {
            found.push(format!("{}: module `{own}` is in no layer", rel.display()));
            continue;
        };
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let lines = text.lines().count();
        if lines > MOST_LINES {
            found.push(format!(
                "{}: {lines} lines (at most {MOST_LINES})",
                rel.display()
            ));
        }
        let depth = depth_of(rel);
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for used in crate_paths(code)
                .into_iter()
                .chain(escaping_supers(code, depth))
            {
                match layer_of(&used) {
                    Some(l) if used == own || l > own_layer => {}
                    Some(_) => found.push(format!(
                        "{}:{}: `{own}` imports `{used}`, which is not below it",
                        rel.display(),
                        n + 1
                    )),
                    None => {}
                }
            }
        }
    }
    Ok(found)
}

/// The top-level module a file of `src/` belongs to (`run/paired.rs` →
/// `run`, `cli.rs` → `cli`); none for the crate root and `main.rs`.
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_owned())
}

/// How many `super::` reach the crate root from a file: its module path's length.
fn depth_of(rel: &Path) -> usize {
    let parts = rel.components().count();
    match rel.file_name().and_then(|f| f.to_str()) {
        Some("mod.rs") => parts - 1,
        _ => parts,
    }
}

/// The modules `code` reaches through `super::` chains that climb to the
/// crate root from a file `depth` modules deep.
fn escaping_supers(code: &str, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let chain = "super::".repeat(depth.max(1));
    let mut rest = code;
    while let Some(i) = rest.find(&chain) {
        let before = rest[..i].chars().last();
        rest = &rest[i + chain.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let name: String = (rest.chars())
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && name != "super" {
            out.push(name);
        }
    }
    out
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The modules `code` names as `crate::X`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        // `$crate::` and `some_crate::` are not this crate.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let name: String = (rest.chars())
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            out.extend(rust_files(&path)?);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// Prints every violation; fails if there is one.
pub fn run(_args: &[String]) -> Result<(), String> {
    let found = violations(&super::root())?;
    for v in &found {
        println!("{v}");
    }
    match found.len() {
        0 => {
            println!("imports point one way; no file over {MOST_LINES} lines");
            Ok(())
        }
        n => Err(format!("{n} violations")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subcommand_imports_point_one_way() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let found = violations(&root).unwrap();
        assert!(found.is_empty(), "{}", found.join("\n"));
    }

    #[test]
    fn an_import_up_or_sideways_is_found() {
        let dir = std::env::temp_dir().join(format!("nbench-layers-{}", std::process::id()));
        let src = dir.join("src");
        std::fs::create_dir_all(src.join("compare")).unwrap();
        std::fs::write(src.join("lib.rs"), "pub mod compare;\n").unwrap();
        let text = "use crate::model::Row;\nuse crate::run::Plan; // up\nuse crate::build::x;\n\
                    // use crate::commands::y;\nfn f() { $crate::run::z(); other_crate::run::w(); }\n\
                    use super::config;\n";
        std::fs::write(src.join("compare/mod.rs"), text).unwrap();
        std::fs::write(src.join("unknown.rs"), "").unwrap();
        let found = violations(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            found,
            [
                "compare/mod.rs:2: `compare` imports `run`, which is not below it",
                "compare/mod.rs:3: `compare` imports `build`, which is not below it",
                "compare/mod.rs:6: `compare` imports `config`, which is not below it",
                "unknown.rs: module `unknown` is in no layer",
            ]
        );
    }

    #[test]
    fn paths_of_this_crate_only() {
        assert_eq!(
            crate_paths("use crate::a::b; my_crate::c; $crate::d"),
            ["a"]
        );
        // From src/run/paired.rs (two deep), two `super::` reach the root.
        assert_eq!(escaping_supers("use super::super::store::x;", 2), ["store"]);
        assert_eq!(
            escaping_supers("use super::session;", 2),
            Vec::<String>::new()
        );
        assert_eq!(escaping_supers("use super::report::y;", 1), ["report"]);
    }
}
