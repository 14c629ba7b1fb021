//! One codegen unit for a placement-stable build, where the user chose no
//! number of their own.
//!
//! rustc splits a crate into codegen units (16 by default in an optimised
//! profile) by a hash of what it holds, and a function is inlined only into
//! callers in its own unit. A change anywhere in a bench crate, or in a
//! library that puts generic code in it, can move a function to another
//! unit and change how code it never touched is compiled: itertools'
//! `combinations_with_replacement4/nth/8` counted 11.7 M instructions an
//! iteration or 4.3 M, in two builds of the same code that differed only
//! in an unrelated function of the criterion front end (its allocations
//! were elided in one). In one unit, both counted 10.71 M.

use std::path::Path;

/// The flag added: every crate of the build in one codegen unit.
pub const ONE_UNIT: &str = "-Ccodegen-units=1";

/// Whether the user chose the codegen units of `profile` (or a profile it
/// inherits from): in rustflags, in a `CARGO_PROFILE_<NAME>_CODEGEN_UNITS`
/// variable, in cargo's configuration, or in the workspace's `Cargo.toml`
/// found from `dir`.
pub fn chosen(profile: &str, dir: &Path, rustflags: &[String]) -> bool {
    if rustflags.iter().any(|f| f.contains("codegen-units")) {
        return true;
    }
    // Read once per profile and directory: a comparison runs cargo for
    // every link layout.
    type Found = Vec<((String, std::path::PathBuf), bool)>;
    static FOUND: std::sync::Mutex<Found> = std::sync::Mutex::new(Vec::new());
    let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    let key = (profile.to_owned(), dir.to_path_buf());
    if let Some((_, set)) = found.iter().find(|(k, _)| *k == key) {
        return *set;
    }
    let set = set_for_cargo(profile, dir);
    found.push((key, set));
    set
}

/// Whether cargo's configuration, the workspace's `Cargo.toml` or a
/// variable sets the codegen units of `profile` or one it inherits from.
fn set_for_cargo(profile: &str, dir: &Path) -> bool {
    let configs: Vec<toml::Table> = super::flags::config_files(dir)
        .iter()
        .chain(workspace_manifest(dir).as_ref())
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter_map(|text| toml::from_str(&text).ok())
        .collect();
    chain(profile, &configs).iter().any(|p| {
        let var = format!(
            "CARGO_PROFILE_{}_CODEGEN_UNITS",
            p.to_uppercase().replace('-', "_")
        );
        std::env::var_os(var).is_some()
            || configs
                .iter()
                .any(|t| setting(t, p, "codegen-units").is_some())
    })
}

/// `profile` and those it inherits from, nearest first: `inherits` where
/// given, else `bench` from `release` and `test` from `dev`.
fn chain(profile: &str, tables: &[toml::Table]) -> Vec<String> {
    let mut names = vec![profile.to_owned()];
    while names.len() < 8 {
        let last = names.last().map(String::as_str).unwrap_or_default();
        let given = tables
            .iter()
            .find_map(|t| setting(t, last, "inherits")?.as_str().map(str::to_owned));
        let next = given.or_else(|| match last {
            "bench" => Some("release".to_owned()),
            "test" => Some("dev".to_owned()),
            _ => None,
        });
        match next {
            Some(n) if !names.contains(&n) => names.push(n),
            _ => break,
        }
    }
    names
}

/// `[profile.<profile>] <key>` in a manifest or configuration file.
fn setting<'t>(table: &'t toml::Table, profile: &str, key: &str) -> Option<&'t toml::Value> {
    table.get("profile")?.get(profile)?.get(key)
}

/// The `Cargo.toml` whose profiles a build from `dir` uses: the nearest one
/// above that declares a workspace, else the nearest one.
fn workspace_manifest(dir: &Path) -> Option<std::path::PathBuf> {
    let manifests: Vec<_> = (dir.ancestors())
        .map(|d| d.join("Cargo.toml"))
        .filter(|p| p.is_file())
        .collect();
    let declares_workspace = |p: &&std::path::PathBuf| {
        std::fs::read_to_string(p)
            .ok()
            .and_then(|text| toml::from_str::<toml::Table>(&text).ok())
            .is_some_and(|t| t.contains_key("workspace"))
    };
    (manifests.iter().find(declares_workspace))
        .or(manifests.first())
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, manifest: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    }

    #[test]
    fn a_profile_chooses_units_itself_or_through_the_profile_it_inherits() {
        let root = std::env::temp_dir().join(format!("nbench-units-{}", std::process::id()));
        let member = root.join("member");
        write(&root, "[workspace]\nmembers = [\"member\"]\n");
        write(&member, "[package]\nname = \"member\"\n");
        assert!(!set_for_cargo("bench", &member));
        assert!(chosen("bench", &member, &["-Ccodegen-units=4".to_owned()]));
        write(&root, "[workspace]\n[profile.release]\ncodegen-units = 1\n");
        assert!(set_for_cargo("bench", &member), "bench inherits release");
        write(
            &root,
            "[workspace]\n[profile.perf]\ninherits = \"bench\"\n[profile.dev]\ncodegen-units = 2\n",
        );
        assert!(!set_for_cargo("perf", &member), "dev is not in perf's line");
        assert_eq!(
            chain(
                "perf",
                &[toml::from_str("[profile.perf]\ninherits = \"bench\"").unwrap()]
            ),
            ["perf", "bench", "release"]
        );
        // A member's own profile does not count: cargo reads the workspace's.
        write(&root, "[workspace]\n");
        write(
            &member,
            "[package]\nname = \"member\"\n[profile.release]\ncodegen-units = 3\n",
        );
        assert!(!set_for_cargo("bench", &member));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
