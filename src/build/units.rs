//! One codegen unit for the workspace's own crates in a placement-stable
//! build, where the user chose no number of their own.
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
//!
//! Only the crates a change can touch get one unit: the workspace's
//! members and the path dependencies they name. A registry or git
//! dependency is the same source on both sides of a comparison, split the
//! same way, and what it puts into the bench crate (generic code) is
//! compiled there, in that crate's one unit. Building the dependencies in
//! one unit too made a first build of this repository's benches 158 s
//! against 127 s (16 units: 119 s).

use std::path::Path;

/// How a build record names the one-unit setting.
pub const RECORDED: &str = "codegen-units=1 (the workspace's own packages)";

/// The cargo arguments that build `packages` in one codegen unit under
/// `profile`: a `--config` profile override for each.
pub fn config_args(profile: &str, packages: &[String]) -> Vec<String> {
    packages
        .iter()
        .flat_map(|p| {
            [
                "--config".to_owned(),
                format!("profile.\"{profile}\".package.\"{p}\".codegen-units=1"),
            ]
        })
        .collect()
}

/// Whether the user chose the codegen units of `profile` (or a profile it
/// inherits from), for every package or some: in rustflags, in a
/// `CARGO_PROFILE_<NAME>_CODEGEN_UNITS` variable, in cargo's configuration
/// read from `dir`, or in the workspace's manifest at `root`.
pub fn chosen(profile: &str, dir: &Path, root: &Path, rustflags: &[String]) -> bool {
    if rustflags.iter().any(|f| f.contains("codegen-units")) {
        return true;
    }
    // Read once per profile and directories: a comparison runs cargo for
    // every link layout.
    type Key = (String, std::path::PathBuf, std::path::PathBuf);
    static FOUND: std::sync::Mutex<Vec<(Key, bool)>> = std::sync::Mutex::new(Vec::new());
    let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    let key = (profile.to_owned(), dir.to_path_buf(), root.to_path_buf());
    if let Some((_, set)) = found.iter().find(|(k, _)| *k == key) {
        return *set;
    }
    let set = set_for_cargo(profile, dir, root);
    found.push((key, set));
    set
}

/// Whether cargo's configuration, the workspace's `Cargo.toml` or a
/// variable sets the codegen units of `profile` or one it inherits from,
/// for all packages or some.
fn set_for_cargo(profile: &str, dir: &Path, root: &Path) -> bool {
    let configs: Vec<toml::Table> = super::flags::config_files(dir)
        .iter()
        .chain([root.join("Cargo.toml")].iter())
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter_map(|text| toml::from_str(&text).ok())
        .collect();
    chain(profile, &configs).iter().any(|p| {
        let var = format!(
            "CARGO_PROFILE_{}_CODEGEN_UNITS",
            p.to_uppercase().replace('-', "_")
        );
        std::env::var_os(var).is_some() || configs.iter().any(|t| sets_units(t, p))
    })
}

/// Whether `[profile.<profile>]` of `table` sets `codegen-units`, or a
/// `[profile.<profile>.package.<spec>]` in it does.
fn sets_units(table: &toml::Table, profile: &str) -> bool {
    let packages = setting(table, profile, "package").and_then(toml::Value::as_table);
    setting(table, profile, "codegen-units").is_some()
        || (packages.into_iter().flatten()).any(|(_, p)| p.get("codegen-units").is_some())
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
        assert!(!set_for_cargo("bench", &member, &root));
        assert!(chosen(
            "bench",
            &member,
            &root,
            &["-Ccodegen-units=4".to_owned()]
        ));
        write(&root, "[workspace]\n[profile.release]\ncodegen-units = 1\n");
        assert!(
            set_for_cargo("bench", &member, &root),
            "bench inherits release"
        );
        write(
            &root,
            "[workspace]\n[profile.perf]\ninherits = \"bench\"\n[profile.dev]\ncodegen-units = 2\n",
        );
        assert!(
            !set_for_cargo("perf", &member, &root),
            "dev is not in perf's line"
        );
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
        assert!(!set_for_cargo("bench", &member, &root));
        // Units chosen for one package: left as the user has them.
        write(
            &root,
            "[workspace]\n[profile.release.package.member]\ncodegen-units = 4\n",
        );
        assert!(set_for_cargo("bench", &member, &root));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn each_own_package_gets_a_profile_override() {
        let args = config_args("bench", &["a-b".to_owned(), "c".to_owned()]);
        assert_eq!(
            args,
            [
                "--config",
                "profile.\"bench\".package.\"a-b\".codegen-units=1",
                "--config",
                "profile.\"bench\".package.\"c\".codegen-units=1",
            ]
        );
        // What cargo reads them as.
        let table: toml::Table = toml::from_str(&args[1]).unwrap();
        assert_eq!(
            table["profile"]["bench"]["package"]["a-b"]["codegen-units"].as_integer(),
            Some(1)
        );
    }
}
