//! Whether a revision's saved baseline was swapped as a build of it would
//! be now: the same front ends in their libraries' places, from the same
//! sources, holding the same code.

use super::swap::{Source, would_swap};
use super::worktree::git;
use crate::discover::{FRONT_ENDS, FrontEnd};
use crate::error::Result;
use crate::model::context::SwapRecord;
use std::path::Path;

/// Whether a manifest of `commit` declares `front`'s library where a swap
/// puts nbench's crate ([`would_swap`]): git finds the manifests that name
/// it, and each is read as the swap reads it.
fn declares(front: &'static FrontEnd, top: &Path, commit: &str) -> bool {
    let mut patterns = Vec::new();
    for p in front.names() {
        patterns.push(format!(r"^\s*{p}\s*="));
        patterns.push(format!(r"dependencies\.{p}\]"));
        patterns.push(format!(r#"package\s*=\s*"{p}""#));
    }
    let mut args = vec!["grep", "-l", "-E"];
    for p in &patterns {
        args.extend(["-e", p.as_str()]);
    }
    args.extend([commit, "--", "*Cargo.toml"]);
    let Ok(found) = git(top, &args) else {
        return false;
    };
    // Each line is `COMMIT:PATH`, which `git show` reads.
    (found.lines()).any(|blob| git(top, &["show", blob]).is_ok_and(|m| would_swap(front, &m)))
}

/// Whether a revision's baseline, saved with `saved`, was made as a build of
/// `commit` would be made now: swapped for each library it declares, from
/// the same sources. `Err` says how it differs.
pub fn swapped_as_now(
    saved: Option<&SwapRecord>,
    top: &Path,
    commit: &str,
) -> std::result::Result<(), String> {
    let now: Vec<(String, String)> = (FRONT_ENDS.iter())
        .filter(|f| declares(f, top, commit))
        .map(|f| Source::find(f, top).map(|s| (s.describe(), s.contents())))
        .collect::<Result<_>>()
        .map_err(|e| e.to_string())?;
    same_swap(saved, &now)
}

/// Whether a build swapped as `saved` was swapped as one would be now,
/// with `now`'s dependency lines and the contents of the folders they name
/// ([`Source::contents`]); `Err` says how it differs.
fn same_swap(
    saved: Option<&SwapRecord>,
    now: &[(String, String)],
) -> std::result::Result<(), String> {
    let (lines, contents): (Vec<String>, Vec<String>) = now.iter().cloned().unzip();
    let then: Vec<String> = saved.map(|s| s.dependencies.clone()).unwrap_or_default();
    match (then.is_empty(), lines.is_empty()) {
        // The same lines; a folder they name may hold other code since.
        _ if then == lines => match saved.is_none_or(|s| s.contents == contents) {
            true => Ok(()),
            false => Err(format!(
                "the code of `{}` (or of the harness it takes) is not what it was built with",
                lines.join("; ")
            )),
        },
        (true, false) => {
            Err("it was built without nbench's front end in its library's place".into())
        }
        (false, true) => Err("it was built with nbench's front end in its library's place".into()),
        _ => Err(format!(
            "it was built with `{}` (now `{}`)",
            then.join("; "),
            lines.join("; ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_is_the_same_with_the_same_lines_and_the_same_code() {
        let line = "divan = { package = \"nbench-divan\", path = \"/x\" }".to_owned();
        let saved = SwapRecord {
            libraries: vec!["divan".into()],
            dependencies: vec![line.clone()],
            manifests: vec!["Cargo.toml".into()],
            contents: vec!["aaaa".into()],
            ..SwapRecord::default()
        };
        assert_eq!(
            same_swap(Some(&saved), &[(line.clone(), "aaaa".into())]),
            Ok(())
        );
        let changed = same_swap(Some(&saved), &[(line.clone(), "bbbb".into())]).unwrap_err();
        assert!(
            changed.contains("is not what it was built with"),
            "{changed}"
        );
        // A record from before contents were kept: built again, once.
        let older = SwapRecord {
            contents: Vec::new(),
            ..saved.clone()
        };
        assert!(same_swap(Some(&older), &[(line.clone(), "aaaa".into())]).is_err());
        let other = same_swap(Some(&saved), &[("other".into(), "aaaa".into())]).unwrap_err();
        assert!(other.contains("(now `other`)"), "{other}");
        assert_eq!(same_swap(None, &[]), Ok(()));
        assert!(same_swap(None, &[(line, "aaaa".into())]).is_err());
    }
}
