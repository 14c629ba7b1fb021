//! Baseline names: what may name a baseline, checked before any file is touched.

/// Checks a baseline name: `[A-Za-z0-9._-]{1,64}`, not starting with `.`.
pub fn validate_baseline_name(name: &str) -> Result<(), String> {
    let ok_chars = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if name.is_empty() || name.len() > 64 || !ok_chars || name.starts_with('.') {
        return Err(format!(
            "invalid baseline name '{name}': use 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for good in ["main", "v1.2", "a_b-c", "X", &"a".repeat(64)] {
            assert!(validate_baseline_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            ".hidden",
            "../x",
            "a/b",
            "a b",
            "é",
            &"a".repeat(65),
            "a\\b",
            "..",
        ] {
            assert!(validate_baseline_name(bad).is_err(), "{bad:?}");
        }
    }
}
