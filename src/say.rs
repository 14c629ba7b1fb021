//! Writing to stdout and stderr without panicking when the reader has gone.
//!
//! `println!` and `eprintln!` panic when a write fails, as it does once the
//! other end of a pipe is closed (`cargo nbench 2>&1 | head -1`). A run must
//! not die of that halfway: it goes on measuring and saving, as cargo goes
//! on building, and what it says is dropped. These macros take the same
//! arguments and leave the error unread.

/// [`print!`] whose failure is ignored.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

/// [`println!`] whose failure is ignored.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// [`eprint!`] whose failure is ignored.
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// [`eprintln!`] whose failure is ignored.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
