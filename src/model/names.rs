//! Baseline names: what may name a baseline, checked before any file is touched.

/// Checks a baseline name: `[A-Za-z0-9._-]{1,64}`, not starting with `.`,
/// and not a name Windows keeps for a device (`CON`, `nul.txt`, `COM1`, …),
/// which would fail there only after a whole run. The error says what is
/// wrong with it, for a caller that names the value (clap does).
pub fn validate_baseline_name(name: &str) -> Result<(), String> {
    let ok_chars = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if name.is_empty() || name.len() > 64 || !ok_chars || name.starts_with('.') {
        return Err(
            "use 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'".to_owned(),
        );
    }
    if is_device_name(name) {
        return Err("Windows keeps that name for a device; choose another".to_owned());
    }
    Ok(())
}

/// [`validate_baseline_name`]'s error with the name in front, for a caller
/// that does not name it: echoed escaped, so that a name holding a newline
/// or a control character stays one line.
pub fn check_baseline_name(name: &str) -> Result<(), String> {
    validate_baseline_name(name)
        .map_err(|why| format!("invalid baseline name '{}': {why}", name.escape_debug()))
}

/// `CON`, `PRN`, `AUX`, `NUL`, `COM1`–`COM9`, `LPT1`–`LPT9`, in any case and with any extension.
fn is_device_name(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).to_ascii_uppercase();
    match stem.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" => true,
        s => {
            (s.starts_with("COM") || s.starts_with("LPT"))
                && s.len() == 4
                && matches!(s.as_bytes()[3], b'1'..=b'9')
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for good in [
            "main",
            "v1.2",
            "a_b-c",
            "X",
            &"a".repeat(64),
            "console",
            "COM10",
            "lpt0",
        ] {
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
            "CON",
            "nul.txt",
            "com1",
            "LPT9.x",
            "a\nb",
        ] {
            assert!(validate_baseline_name(bad).is_err(), "{bad:?}");
        }
        let e = check_baseline_name("a\nb").unwrap_err();
        assert!(e.contains("'a\\nb'") && !e.contains('\n'), "{e}");
    }
}
