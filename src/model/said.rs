//! What a process said as it failed, read back from its output: its panic.

/// A process's last panic in `printed`: where, and its message, without
/// the backtrace or the note after it (`panicked at a.rs:3:5: no data`).
/// Rust before 1.73 printed the message on the same line as the place.
pub fn last_panic(printed: &str) -> Option<String> {
    let lines: Vec<&str> = printed.lines().map(str::trim).collect();
    let at = lines.iter().rposition(|l| l.contains("panicked at "))?;
    let (_, place) = lines[at].split_once("panicked at ")?;
    let message: Vec<&str> = (lines[at + 1..].iter())
        .take_while(|l| {
            !l.is_empty() && !l.starts_with("note:") && !l.starts_with("stack backtrace:")
        })
        .copied()
        .collect();
    Some(match message.as_slice() {
        [] => format!("panicked at {place}"),
        _ => format!("panicked at {} {}", place, message.join(" ")),
    })
}

#[cfg(test)]
mod tests {
    use super::last_panic;

    #[test]
    fn a_panic_is_read_by_its_place_and_message() {
        let panicked = "\nthread 'main' (27419) panicked at linear.rs:75:70:\ncalled \
                        `Result::unwrap()` on an `Err` value: NotFound\nstack backtrace:\n   \
                        0: rust_begin_unwind\nnote: Some details are omitted, run with \
                        `RUST_BACKTRACE=full` for a verbose backtrace.\n";
        assert_eq!(
            last_panic(panicked).as_deref(),
            Some(
                "panicked at linear.rs:75:70: called `Result::unwrap()` on an `Err` value: NotFound"
            )
        );
        let old = "thread 'main' panicked at 'no data', benches/a.rs:3:5\nnote: run with \
                   `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(
            last_panic(old).as_deref(),
            Some("panicked at 'no data', benches/a.rs:3:5")
        );
        assert_eq!(last_panic("error: no such pattern\n"), None);
    }
}
