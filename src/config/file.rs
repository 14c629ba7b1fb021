//! The settings file: `nbench.toml` at the workspace root, or
//! `[workspace.metadata.nbench]` / `[package.metadata.nbench]` in its Cargo.toml.

use super::keys::{self, Key};
use crate::error::{Error, Result};
use cargo_metadata::Metadata;
use serde_json::Value;
use std::path::PathBuf;

/// Settings with their values, as the flags would get them.
pub type Values = Vec<(Key, Vec<String>)>;

/// Settings read from a file, every value already checked.
#[derive(Debug, Clone, Default)]
pub struct FileConfig {
    /// Where they came from.
    pub path: PathBuf,
    /// How keys are spelled there: empty, or `workspace.metadata.nbench.`.
    pub prefix: &'static str,
    /// Settings for every bench target.
    pub global: Values,
    /// `[bench.NAME]`: settings for one bench target (its name or `package/name`).
    pub benches: Vec<(String, Values)>,
}

/// The workspace's settings file, if it has one; two of them is an error,
/// since which one wins would be a guess.
pub fn find(meta: &Metadata) -> Result<Option<FileConfig>> {
    let root = meta.workspace_root.as_std_path();
    let manifest = root.join("Cargo.toml");
    let mut found = Vec::new();
    let toml_path = root.join("nbench.toml");
    if toml_path.is_file() {
        let text = std::fs::read_to_string(&toml_path)
            .map_err(|e| Error::io("could not read", &toml_path, e))?;
        let table: toml::Table = toml::from_str(&text).map_err(|e| {
            let line = e.span().map_or(String::new(), |s| {
                format!(" (line {})", text[..s.start].matches('\n').count() + 1)
            });
            Error::Config {
                file: toml_path.clone(),
                message: format!("is not valid TOML{line}: {}", e.message()),
                hint: None,
            }
        })?;
        let value = serde_json::to_value(table).unwrap_or(Value::Null);
        found.push((toml_path, "", value));
    }
    if let Some(v) = meta.workspace_metadata.get("nbench") {
        found.push((manifest.clone(), "workspace.metadata.nbench.", v.clone()));
    }
    let root_package = meta.root_package().filter(|p| p.manifest_path == manifest);
    if let Some(v) = root_package.and_then(|p| p.metadata.get("nbench")) {
        found.push((manifest.clone(), "package.metadata.nbench.", v.clone()));
    }
    match found.len() {
        0 => Ok(None),
        1 => {
            let (path, prefix, value) = found.remove(0);
            read(path, prefix, &value).map(Some)
        }
        _ => Err(Error::Config {
            file: found[0].0.clone(),
            message: format!(
                "has settings for nbench, and so does [{}] in `{}`",
                found[1].1.trim_end_matches('.'),
                found[1].0.display(),
            ),
            hint: Some(
                "keep them in one place: nbench.toml, or one [*.metadata.nbench] table".into(),
            ),
        }),
    }
}

fn read(path: PathBuf, prefix: &'static str, value: &Value) -> Result<FileConfig> {
    let fail = |key: &str, message: String, hint: Option<String>| Error::Config {
        file: path.clone(),
        message: if key.is_empty() {
            message
        } else {
            format!("`{prefix}{key}` {message}")
        },
        hint,
    };
    let Value::Object(table) = value else {
        return Err(fail("", "expected a table of settings".into(), None));
    };
    let mut config = FileConfig {
        path: path.clone(),
        prefix,
        ..FileConfig::default()
    };
    for (name, v) in table {
        if name == "bench" {
            let Value::Object(benches) = v else {
                return Err(fail(
                    name,
                    "should hold tables named after bench targets".into(),
                    None,
                ));
            };
            for (target, settings) in benches {
                let Value::Object(settings) = settings else {
                    return Err(fail(
                        &format!("bench.{target}"),
                        "expected a table of settings".into(),
                        None,
                    ));
                };
                let mut list = Vec::new();
                for (name, v) in settings {
                    let at = format!("bench.{target}.{name}");
                    let key = Key::named(name).filter(|k| k.per_bench).ok_or_else(|| {
                        fail(
                            &at,
                            "is not a setting a bench target can override".into(),
                            Some(format!(
                                "a [bench.NAME] table may set: {}",
                                keys::names(true)
                            )),
                        )
                    })?;
                    list.push((key, values(key, v).map_err(|m| fail(&at, m, None))?));
                }
                config.benches.push((target.clone(), list));
            }
            continue;
        }
        let key = Key::named(name).ok_or_else(|| {
            fail(
                name,
                "is not a setting nbench knows".into(),
                Some(format!(
                    "the settings are: {}, and [bench.NAME] tables",
                    keys::names(false)
                )),
            )
        })?;
        config
            .global
            .push((key, values(key, v).map_err(|m| fail(name, m, None))?));
    }
    Ok(config)
}

/// A setting's value(s) as the flag would get them, checked by the flag's own parser.
fn values(key: Key, v: &Value) -> std::result::Result<Vec<String>, String> {
    let one = |v: &Value| match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) if key.text() => Err(format!(
            "= {n}: a number, where `{}` takes text in quotes ({} = \"{}\")",
            key.name,
            key.name,
            key.example()
        )),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(format!("= `{other}`: expected a string or a number")),
    };
    let list = match v {
        Value::Array(items) if key.many => items.iter().map(one).collect::<Result<Vec<_>, _>>()?,
        Value::Array(_) => return Err("is a list: expected one value".into()),
        v => vec![one(v)?],
    };
    for value in &list {
        key.check(value).map_err(|e| format!("= `{value}`: {e}"))?;
    }
    Ok(list)
}
