//! A revision's build output, each line marked with the revision's name.

/// Shows each line of `output` on stderr after `[mark]`; returns the
/// compiler's first error line (with the feature cargo names below a
/// failed selection).
pub fn show(output: impl std::io::Read, mark: &str) -> Option<String> {
    use std::io::BufRead;
    let mark = console::style(format!("[{mark}]")).dim();
    let mut first_error = None;
    for line in std::io::BufReader::new(output)
        .lines()
        .map_while(|l| l.ok())
    {
        eprintln!("{mark} {line}");
        let plain = console::strip_ansi_codes(&line).into_owned();
        if first_error.is_none()
            && plain.starts_with("error")
            && !plain.starts_with("error: could not compile")
        {
            first_error = Some(plain);
        } else if plain.contains("does not have that feature")
            && let Some(first) = first_error.as_mut()
        {
            // Cargo says which feature only lines below its error.
            first.push_str(": ");
            first.push_str(plain.trim());
        }
    }
    first_error
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_first_error_keeps_the_feature_cargo_names_below_it() {
        let cargo = "error: failed to select a version for `nbench-divan`.\n    ... required by \
                     package `b`\n\npackage `b` depends on `nbench-divan` with feature `x` but \
                     `nbench-divan` does not have that feature.\n";
        let first = super::show(cargo.as_bytes(), "HEAD").unwrap();
        assert!(
            first.starts_with("error: failed to select a version for `nbench-divan`.: package")
                && first.contains("with feature `x`"),
            "{first}"
        );
        let plain = "error[E0425]: cannot find value `y`\n";
        assert_eq!(
            super::show(plain.as_bytes(), "HEAD").as_deref(),
            Some("error[E0425]: cannot find value `y`")
        );
    }
}
