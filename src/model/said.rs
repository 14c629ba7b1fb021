//! What a process said as it failed, read back from its output: its panic.

/// A process's last panic in `printed`: where, and its message, without
/// the backtrace or the note after it (`panicked at a.rs:3:5: no data`).
/// Rust before 1.73 printed the message on the same line as the place.
pub fn last_panic(printed: &str) -> Option<String> {
    let lines: Vec<&str> = printed.lines().map(str::trim).collect();
    let at = lines.iter().rposition(|l| l.contains("panicked at "))?;
    let (_, place) = lines[at].split_once("panicked at ")?;
    // A message may begin on a line after a blank one (mysqlclient-sys's
    // build script); its lines run to the next blank, of which the first
    // is kept whole and the rest while the message stays short.
    let mut message: Vec<&str> = (lines[at + 1..].iter())
        .skip_while(|l| l.is_empty())
        .take_while(|l| {
            !l.is_empty() && !l.starts_with("note:") && !l.starts_with("stack backtrace:")
        })
        .copied()
        .collect();
    let mut kept = 0;
    let short = message.iter().position(|l| {
        kept += l.len() + 1;
        kept > MESSAGE_MOST
    });
    message.truncate(short.unwrap_or(message.len()).max(1));
    Some(match message.as_slice() {
        [] => format!("panicked at {place}"),
        _ => format!("panicked at {} {}", place, message.join(" ")),
    })
}

/// The most of a panic's message kept past its first line, in characters.
const MESSAGE_MOST: usize = 200;

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
        // As mysqlclient-sys's build script panics where no library is found.
        let script = "thread 'main' panicked at build.rs:105:5:\n\n        Did not find a \
                      compatible version of libmysqlclient.\n            Ensure that you \
                      installed one.\n            You have the following options for \
                      that:\n\n  * Use `pkg_config`\n";
        assert_eq!(
            last_panic(script).as_deref(),
            Some(
                "panicked at build.rs:105:5: Did not find a compatible version of \
                 libmysqlclient. Ensure that you installed one. You have the following \
                 options for that:"
            )
        );
        let long = format!(
            "panicked at a.rs:1:1:\n{}\n{}\n",
            "x".repeat(150),
            "y".repeat(80)
        );
        assert_eq!(
            last_panic(&long),
            Some(format!("panicked at a.rs:1:1: {}", "x".repeat(150)))
        );
    }
}
