//! The documentation holds together: the README and the guide's pages stay
//! short, `docs/SUMMARY.md` lists every page, every relative link (and its
//! `#anchor`) resolves, and every Rust snippet compiles as a whole bench
//! file (nbench's API, or criterion's on nbench-criterion). The command-line
//! page and the constants the pages quote are checked in `src/` (`cli::page`,
//! `commands::guide`).

use crate::helpers::{Run, repo_root};
use std::path::{Path, PathBuf};

/// The most lines of the README, of a guide page, and of the pages on how
/// it measures and decides.
const README_LINES: usize = 250;
const PAGE_LINES: usize = 300;
const METHOD_LINES: usize = 200;

/// The guide's pages: every `.md` under `docs/` but the dated notes.
fn pages() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(repo_root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    found.sort();
    found
}

/// Every Markdown file whose links must resolve: the README, the guide,
/// the notes, the harness's README.
fn every_markdown() -> Vec<PathBuf> {
    let root = repo_root();
    let mut all = vec![root.join("README.md"), root.join("harness/README.md")];
    all.extend(pages());
    for e in std::fs::read_dir(root.join("docs/notes")).unwrap() {
        all.push(e.unwrap().path());
    }
    all
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The relative links of a Markdown text, `](target)`, leaving out web
/// addresses and those inside code blocks.
fn links(markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        for part in line.split("](").skip(1) {
            let target = part.split(')').next().unwrap_or_default();
            if !target.contains("://") && !target.starts_with("mailto:") {
                found.push(target.to_owned());
            }
        }
    }
    found
}

/// GitHub's anchor of a heading: lower case, spaces to `-`, punctuation
/// but `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(markdown: &str) -> Vec<String> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    for file in every_markdown() {
        let text = read(&file);
        for link in links(&text) {
            let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = match path {
                "" => file.clone(),
                p => file.parent().unwrap().join(p),
            };
            if !target.exists() {
                broken.push(format!("{}: {link}: no such file", file.display()));
            } else if !fragment.is_empty() && !anchors(&read(&target)).iter().any(|a| a == fragment)
            {
                broken.push(format!("{}: {link}: no such heading", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_and_every_page_are_short_and_the_summary_lists_every_page() {
    let lines = |p: &Path| read(p).lines().count();
    let readme = lines(&repo_root().join("README.md"));
    assert!(
        readme <= README_LINES,
        "README.md: {readme} lines (at most {README_LINES})"
    );
    let summary = read(&repo_root().join("docs/SUMMARY.md"));
    let listed = links(&summary);
    for page in pages() {
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        let most = match name.as_str() {
            "measuring.md" | "deciding.md" => METHOD_LINES,
            _ => PAGE_LINES,
        };
        let n = lines(&page);
        assert!(n <= most, "docs/{name}: {n} lines (at most {most})");
        if name != "SUMMARY.md" {
            assert!(
                listed.contains(&name),
                "docs/SUMMARY.md does not list {name}"
            );
        }
    }
    assert!(
        listed.iter().any(|l| l == "notes/README.md"),
        "the notes are not listed"
    );
}

/// The fenced `rust` blocks of a Markdown file.
fn rust_blocks(markdown: &str) -> Vec<String> {
    markdown
        .split("```rust\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn every_rust_snippet_in_the_readme_and_the_guide_compiles_as_a_bench_target() {
    let mut blocks = rust_blocks(&read(&repo_root().join("README.md")));
    for page in pages() {
        blocks.extend(rust_blocks(&read(&page)));
    }
    assert!(blocks.len() >= 8, "{} blocks", blocks.len());
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("readme-snippets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("benches")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    // Snippets written for criterion's API run on nbench-criterion, as the README says.
    let mut manifest = format!(
        "[package]\nname = \"snippets\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n\n\
         [dev-dependencies]\nnbench = {{ path = {:?} }}\n\
         criterion = {{ package = \"nbench-criterion\", path = {:?} }}\n",
        repo_root().join("harness").display().to_string(),
        repo_root().join("compat/criterion").display().to_string()
    );
    for (i, block) in blocks.iter().enumerate() {
        std::fs::write(dir.join(format!("benches/snippet_{i}.rs")), block).unwrap();
        manifest.push_str(&format!(
            "\n[[bench]]\nname = \"snippet_{i}\"\nharness = false\n"
        ));
    }
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = std::process::Command::new(cargo)
        .args(["check", "--benches", "--quiet"])
        .current_dir(&dir)
        .env(
            "CARGO_TARGET_DIR",
            std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fixture-target"),
        )
        .env("RUSTFLAGS", "-D warnings")
        .output()
        .unwrap();
    let run = Run::from(out);
    assert_eq!(run.code, 0, "a snippet does not compile:\n{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}
