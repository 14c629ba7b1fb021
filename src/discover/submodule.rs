//! A workspace member that cargo cannot read because it lies in a git
//! submodule not checked out (glam's `tools/codegen`, cloned without
//! `--recurse-submodules`): said as that, with what to do, rather than as
//! cargo's missing manifest.

use std::path::Path;

/// The member's path, relative to the repository's top, where cargo's
/// error `text` says a workspace member's manifest could not be loaded and
/// that member lies in a submodule (listed in the `.gitmodules` of a folder
/// above it) whose folder is empty.
pub fn unfilled_member(text: &str) -> Option<String> {
    const SAID: &str = "failed to load manifest for workspace member `";
    let start = text.find(SAID)? + SAID.len();
    let member = Path::new(&text[start..start + text[start..].find('`')?]);
    let top = member
        .ancestors()
        .find(|d| d.join(".gitmodules").is_file())?;
    let listed = std::fs::read_to_string(top.join(".gitmodules")).ok()?;
    let relative = member.strip_prefix(top).ok()?;
    submodule_paths(&listed)
        .into_iter()
        .map(|p| top.join(p))
        .filter(|folder| member.starts_with(folder))
        .any(|folder| empty(&folder))
        .then(|| relative.display().to_string())
}

/// The `path = …` values of a `.gitmodules` file.
fn submodule_paths(listed: &str) -> Vec<&str> {
    (listed.lines())
        .filter_map(|line| {
            let (key, value) = line.split_once('=')?;
            (key.trim() == "path").then(|| value.trim())
        })
        .collect()
}

/// Whether `folder` is missing or holds nothing.
fn empty(folder: &Path) -> bool {
    std::fs::read_dir(folder).map_or(true, |mut entries| entries.next().is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_in_an_empty_submodule_is_named() {
        let top = std::env::temp_dir().join(format!("nbench-submodule-{}", std::process::id()));
        let codegen = top.join("tools/codegen");
        std::fs::create_dir_all(&codegen).unwrap();
        let modules = "[submodule \"codegen\"]\n\tpath = tools/codegen\n\turl = https://x/y.git\n";
        std::fs::write(top.join(".gitmodules"), modules).unwrap();
        let text = format!(
            "failed to load manifest for workspace member `{}`",
            codegen.display()
        );
        assert_eq!(unfilled_member(&text).as_deref(), Some("tools/codegen"));
        // Checked out: cargo's own message is the one to show.
        std::fs::write(codegen.join("Cargo.toml"), "").unwrap();
        assert_eq!(unfilled_member(&text), None);
        // A member in no submodule.
        let other = format!(
            "failed to load manifest for workspace member `{}`",
            top.join("tools/ci").display()
        );
        assert_eq!(unfilled_member(&other), None);
        std::fs::remove_dir_all(&top).unwrap();
    }
}
