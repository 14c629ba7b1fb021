//! The README's Rust snippets compile as shown: each is a whole bench file (nbench's
//! API, or criterion's on nbench-criterion).

use crate::helpers::{Run, repo_root};

/// The fenced `rust` blocks of a Markdown file.
fn rust_blocks(markdown: &str) -> Vec<String> {
    markdown
        .split("```rust\n")
        .skip(1)
        .map(|rest| rest.split("```").next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn every_rust_snippet_in_the_readme_compiles_as_a_bench_target() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let blocks = rust_blocks(&readme);
    assert!(blocks.len() >= 6, "{} blocks", blocks.len());
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
    assert_eq!(
        run.code, 0,
        "a README snippet does not compile:\n{}",
        run.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
