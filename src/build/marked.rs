//! A revision's build output, each line marked with the revision's name.

/// Shows each line of `output` on stderr after `[mark]`; returns the
/// compiler's first error line.
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
        }
    }
    first_error
}
