//! Which features a build turns on, and so which bench targets it builds:
//! cargo's feature flags, the features a package's dev-dependency on
//! itself turns on, a target's `required-features`, and a crate root under
//! `#![cfg(feature = …)]`.

use cargo_metadata::Package;

/// The features a build enables (cargo's feature flags), for bench targets'
/// `required-features`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Features<'a> {
    /// `-F/--features`, as given (comma or space separated, `package/feature` too).
    pub list: &'a [String],
    /// `--all-features`.
    pub all: bool,
    /// `--no-default-features`.
    pub no_default: bool,
}

/// The features `-F/--features` values name, each once as given: cargo
/// takes a comma or space separated list in each.
pub fn each_feature(list: &[String]) -> impl Iterator<Item = &str> {
    (list.iter().flat_map(|f| f.split([',', ' ']))).filter(|f| !f.is_empty())
}

impl Features<'_> {
    /// The features of `pkg` these flags leave off of those in `required`.
    pub(super) fn missing(&self, pkg: &Package, required: &[String]) -> Vec<String> {
        if self.all {
            return Vec::new();
        }
        let mut on: Vec<String> = Vec::new();
        let mut queue: Vec<String> = each_feature(self.list)
            .filter_map(|f| match f.split_once('/') {
                Some((p, feature)) => (p == pkg.name.as_str()).then_some(feature),
                None => Some(f),
            })
            .filter(|f| !f.is_empty())
            .map(str::to_owned)
            .collect();
        if !self.no_default {
            queue.push("default".to_owned());
        }
        queue.extend(dev_dependency_on_itself(pkg));
        while let Some(f) = queue.pop() {
            if on.contains(&f) {
                continue;
            }
            // A feature turns on the features it lists (not dependencies' ones).
            if let Some(implied) = pkg.features.get(&f) {
                queue.extend(implied.iter().filter(|i| !i.contains([':', '/'])).cloned());
            }
            on.push(f);
        }
        required
            .iter()
            .filter(|r| !on.contains(r))
            .cloned()
            .collect()
    }
}

/// The features `pkg`'s dev-dependency on itself turns on, where it has
/// one (`kiddo = { path = ".", features = ["test_utils"] }`): cargo
/// builds its bench targets with them, whose required features they meet.
fn dev_dependency_on_itself(pkg: &Package) -> Vec<String> {
    let dir = pkg.manifest_path.parent();
    (pkg.dependencies.iter())
        .filter(|d| d.kind == cargo_metadata::DependencyKind::Development)
        .filter(|d| d.name == pkg.name.as_str() && d.path.as_deref() == dir)
        .flat_map(|d| {
            let default = d.uses_default_features.then(|| "default".to_owned());
            d.features.iter().cloned().chain(default)
        })
        .collect()
}

/// Why bench target `t` of `pkg` is left out where features it is built
/// under are off: its required features, or those its crate root is
/// under (`#![cfg(feature = "v4")]`, uuid's: built without, it holds
/// nothing).
pub(super) fn features_off(
    pkg: &Package,
    t: &cargo_metadata::Target,
    source: &str,
    features: Features,
) -> Option<String> {
    let missing = features.missing(pkg, &t.required_features);
    if !missing.is_empty() {
        return Some(required_features(&missing));
    }
    // A feature the package does not have can never be turned on.
    let mut under = crate_cfg_features(source);
    under.retain(|f| pkg.features.contains_key(f));
    let missing = features.missing(pkg, &under);
    (!missing.is_empty()).then(|| {
        format!(
            "its source is built only with feature{} `{}` (its `#![cfg(…)]`): add `--features {}`",
            if missing.len() == 1 { "" } else { "s" },
            missing.join("`, `"),
            missing.join(",")
        )
    })
}

/// The features a crate root's own `#![cfg(…)]` asks for, all of them
/// (`feature = "v4"`, or `all(…)` of such): none for any other condition.
/// Read from its head, its comments and inner attributes: one further
/// down is a module's.
fn crate_cfg_features(source: &str) -> Vec<String> {
    let mut features = Vec::new();
    let head = (source.lines().map(str::trim))
        .take_while(|l| l.is_empty() || l.starts_with("//") || l.starts_with("#!["));
    for line in head {
        let Some(cfg) = line
            .strip_prefix("#![cfg(")
            .and_then(|l| l.strip_suffix(")]"))
        else {
            continue;
        };
        let cfg = cfg.replace(' ', "");
        let cfg = match cfg.strip_prefix("all(").and_then(|c| c.strip_suffix(')')) {
            Some(inner) => inner.to_owned(),
            None => cfg,
        };
        let parts: Vec<&str> = cfg.split(',').filter(|p| !p.is_empty()).collect();
        let named: Vec<String> = (parts.iter())
            .filter_map(|p| p.strip_prefix("feature=\"")?.strip_suffix('"'))
            .map(str::to_owned)
            .collect();
        if named.len() == parts.len() {
            features.extend(named);
        }
    }
    features
}

/// `-F/--features` `list` split in two: the features some of `members`
/// (a workspace's own packages) has, and those none has, which cargo would
/// refuse: a revision from before they were added. A feature of another
/// package (`dep/feature`) is kept; cargo judges it.
pub fn present_and_absent(list: &[String], members: &[&Package]) -> (Vec<String>, Vec<String>) {
    let has = |pkg: &Package, feature: &str| {
        pkg.features.contains_key(feature)
            || (pkg.dependencies.iter())
                .any(|d| d.optional && d.rename.as_deref().unwrap_or(&d.name) == feature)
    };
    each_feature(list)
        .map(str::to_owned)
        .partition(|f| match f.split_once('/') {
            Some((p, feature)) => match members.iter().find(|m| m.name.as_str() == p) {
                Some(member) => has(member, feature),
                None => true,
            },
            None => members.iter().any(|m| has(m, f)),
        })
}

/// Why a target is left out whose required features (`missing`) are off.
fn required_features(missing: &[String]) -> String {
    format!(
        "its required features are off: add `--features {}`",
        missing.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crate_root_under_features_names_them() {
        let under = |text: &str| crate_cfg_features(text);
        assert_eq!(
            under("#![cfg(feature = \"v4\")]\n#![feature(test)]\n"),
            ["v4"]
        );
        assert_eq!(
            under("//! docs\n#![cfg(all(feature = \"a\", feature = \"b\"))]\n"),
            ["a", "b"]
        );
        // Any other condition, or none: nothing it can be told to turn on.
        for other in [
            "#![cfg(any(feature = \"a\", feature = \"b\"))]",
            "#![cfg(all(unix, feature = \"a\"))]",
            "#![cfg(not(feature = \"a\"))]",
            "#![cfg_attr(feature = \"a\", feature(test))]",
            "#[cfg(feature = \"a\")]\nfn f() {}",
            "use x;\nmod m {\n    #![cfg(feature = \"a\")]\n}",
        ] {
            assert!(under(other).is_empty(), "{other}");
        }
    }

    #[test]
    fn features_no_member_has_are_told_apart() {
        let member = |name: &str, features: serde_json::Value, optional: &str| -> Package {
            serde_json::from_value(serde_json::json!({
                "name": name, "version": "1.0.0", "id": format!("{name} 1.0.0"),
                "source": null, "description": null, "license": null,
                "license_file": null, "targets": [], "features": features,
                "manifest_path": format!("/r/{name}/Cargo.toml"),
                "dependencies": [{
                    "name": optional, "source": null, "req": "*", "kind": null,
                    "optional": true, "uses_default_features": true,
                    "features": [], "target": null, "rename": null, "registry": null,
                }],
            }))
            .unwrap()
        };
        let a = member("a", serde_json::json!({"fast": []}), "serde");
        let b = member("b", serde_json::json!({"iai": []}), "rayon");
        let list = [
            "fast,iai".to_owned(),
            "serde gone".to_owned(),
            "a/iai".to_owned(),
            "b/iai".to_owned(),
            "regex/unicode".to_owned(),
            "a/rayon".to_owned(),
        ];
        let (present, absent) = present_and_absent(&list, &[&a, &b]);
        assert_eq!(present, ["fast", "iai", "serde", "b/iai", "regex/unicode"]);
        assert_eq!(absent, ["gone", "a/iai", "a/rayon"]);
    }

    #[test]
    fn a_dev_dependency_on_itself_turns_on_the_features_it_names() {
        // `kiddo = { path = ".", features = ["test_utils"] }`: cargo builds
        // its benches with `test_utils`, and so those that require it.
        let dependency = |name: &str, path: &str, kind: &str| {
            serde_json::json!({
                "name": name, "source": null, "req": "*", "kind": kind,
                "optional": false, "uses_default_features": false,
                "features": ["test_utils"], "target": null, "rename": null,
                "registry": null, "path": path,
            })
        };
        let package = |deps: Vec<serde_json::Value>| -> Package {
            serde_json::from_value(serde_json::json!({
                "name": "kiddo", "version": "5.0.0", "id": "kiddo 5.0.0",
                "source": null, "description": null, "dependencies": deps,
                "license": null, "license_file": null, "targets": [],
                "features": {"default": [], "test_utils": ["fixed"], "fixed": []},
                "manifest_path": "/r/kiddo/Cargo.toml",
            }))
            .unwrap()
        };
        let features = Features {
            list: &[],
            all: false,
            no_default: false,
        };
        let required = ["fixed".to_owned()];
        let itself = package(vec![dependency("kiddo", "/r/kiddo", "dev")]);
        assert!(features.missing(&itself, &required).is_empty());
        // Another package's, or a normal dependency on a crate of that
        // name elsewhere, turns on nothing here.
        for other in [
            dependency("kiddo", "/r/kiddo", "build"),
            dependency("kiddo", "/r/elsewhere/kiddo", "dev"),
            dependency("helper", "/r/kiddo", "dev"),
        ] {
            let other = package(vec![other]);
            assert_eq!(features.missing(&other, &required), required);
        }
    }
}
