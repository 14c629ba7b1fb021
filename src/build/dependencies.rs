//! Every dependency entry of a manifest, wherever it declares one: any
//! `dependencies` table (dev, build, normal, target-specific) and the
//! workspace's `[workspace.dependencies]`.

use toml::{Table, Value};

/// Calls `f` with each dependency entry of `manifest` and the name it is
/// declared under.
pub fn each_entry(manifest: &mut Table, f: &mut dyn FnMut(&str, &mut Value)) {
    for (key, v) in manifest.iter_mut() {
        let Some(table) = v.as_table_mut() else {
            continue;
        };
        if key.ends_with("dependencies") {
            for (name, dep) in table.iter_mut() {
                f(name, dep);
            }
        } else {
            each_entry(table, f);
        }
    }
}
