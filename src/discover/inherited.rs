//! Whether a package takes a dependency's entry from its workspace
//! (`divan.workspace = true`): then the entry to change is the
//! workspace's, in `[workspace.dependencies]`, not the package's.

use toml::{Table, Value};

/// The dependency tables of a manifest, besides those under `target.*`.
const TABLES: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

/// Whether the manifest `text` takes its entry `key` from the workspace,
/// in any dependency table; false where it cannot be read.
pub fn inherits(text: &str, key: &str) -> bool {
    let Ok(manifest) = text.parse::<Table>() else {
        return false;
    };
    let inherited = |t: &Table| {
        (TABLES.iter()).any(|name| {
            let entry = t.get(*name).and_then(|d| d.get(key));
            entry
                .and_then(|e| e.get("workspace"))
                .and_then(Value::as_bool)
                == Some(true)
        })
    };
    let targets = manifest.get("target").and_then(Value::as_table);
    inherited(&manifest)
        || targets.is_some_and(|ts| ts.values().filter_map(Value::as_table).any(inherited))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_taken_from_the_workspace_is_known_in_any_table() {
        assert!(inherits(
            "[dev-dependencies]\ndivan.workspace = true\n",
            "divan"
        ));
        assert!(inherits(
            "[target.'cfg(unix)'.dev-dependencies]\ndivan = { workspace = true }\n",
            "divan"
        ));
        assert!(!inherits("[dev-dependencies]\ndivan = \"0.1\"\n", "divan"));
        assert!(!inherits(
            "[dev-dependencies]\ndivan.workspace = true\n",
            "criterion"
        ));
        assert!(!inherits("not toml [", "divan"));
    }
}
