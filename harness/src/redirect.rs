//! One of this process's standard streams sent elsewhere for a while: to
//! `/dev/null` while timed ([`crate::quiet`]), or to a file whose bytes a
//! front end hands on ([`capture`]: gungraun's setup piped into its
//! command).

use std::fs::File;
use std::io::{Read, Seek, Write};

/// A standard stream of this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Its stdout.
    Stdout,
    /// Its stderr.
    Stderr,
}

impl Stream {
    fn flush(self) {
        let _ = match self {
            Stream::Stdout => std::io::stdout().flush(),
            Stream::Stderr => std::io::stderr().flush(),
        };
    }
}

/// While alive, `stream` goes to another file; dropped, it is back.
pub(crate) struct Redirected {
    stream: Stream,
    #[cfg(unix)]
    saved: std::os::fd::OwnedFd,
}

impl Redirected {
    /// `stream` sent to `to` (what it holds in its buffer written first,
    /// where it was going); `None` where it cannot be.
    pub fn new(stream: Stream, to: &File) -> Option<Redirected> {
        stream.flush();
        imp::redirect(stream, to)
    }
}

impl Drop for Redirected {
    fn drop(&mut self) {
        // What was left in the buffer was written while redirected.
        self.stream.flush();
        imp::restore(self);
    }
}

/// What `f` writes to `stream` (this process's and the processes it
/// starts meanwhile that inherit it), run with the stream sent to a
/// temporary file. An error where the stream cannot be sent elsewhere
/// (on platforms other than Unix), and `f` not run.
pub fn capture(stream: Stream, f: impl FnOnce()) -> std::io::Result<Vec<u8>> {
    let mut file = temporary()?;
    {
        let Some(_redirected) = Redirected::new(stream, &file) else {
            return Err(std::io::Error::other(
                "this platform cannot send a stream of its own elsewhere",
            ));
        };
        f();
    }
    file.rewind()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A new file of the temporary folder, read and written, already removed.
fn temporary() -> std::io::Result<File> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let name = format!("nbench-capture-{}-{n}", std::process::id());
    let path = std::env::temp_dir().join(name);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

#[cfg(unix)]
mod imp {
    use super::{Redirected, Stream};
    use std::fs::File;
    use std::os::fd::{AsFd, AsRawFd, BorrowedFd};

    unsafe extern "C" {
        fn dup2(old: std::ffi::c_int, new: std::ffi::c_int) -> std::ffi::c_int;
    }

    fn fd(stream: Stream) -> std::ffi::c_int {
        match stream {
            Stream::Stdout => 1,
            Stream::Stderr => 2,
        }
    }

    pub fn redirect(stream: Stream, to: &File) -> Option<Redirected> {
        let fd = fd(stream);
        // SAFETY: 1 and 2 stay open for the process's life.
        let own = unsafe { BorrowedFd::borrow_raw(fd) };
        let saved = own.try_clone_to_owned().ok()?;
        // SAFETY: both descriptors are open; `fd` is replaced, not closed.
        (unsafe { dup2(to.as_fd().as_raw_fd(), fd) } == fd).then_some(Redirected { stream, saved })
    }

    pub fn restore(r: &Redirected) {
        // SAFETY: `saved` is open (owned by `r`); the stream is replaced by its copy.
        unsafe { dup2(r.saved.as_raw_fd(), fd(r.stream)) };
    }
}

#[cfg(not(unix))]
mod imp {
    use super::{Redirected, Stream};
    use std::fs::File;

    pub fn redirect(_: Stream, _: &File) -> Option<Redirected> {
        None
    }

    pub fn restore(_: &Redirected) {}
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    const NAME: &str = "redirect::tests::what_a_function_and_its_child_write_to_a_stream_is_captured_and_the_stream_restored";
    const CHILD: &str = "NBENCH_REDIRECT_TEST_CHILD";

    /// The stream is the whole process's, and the test harness writes its
    /// own lines to it from another thread as the other tests end. So the
    /// checks run in a process of their own: this test binary started
    /// again, on this test alone.
    #[test]
    fn what_a_function_and_its_child_write_to_a_stream_is_captured_and_the_stream_restored() {
        if std::env::var_os(CHILD).is_some() {
            return checks();
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([NAME, "--exact", "--test-threads=1", "--quiet"])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(said.contains("1 passed"), "{said}");
    }

    fn checks() {
        // Written to the stream itself: the test harness takes what
        // `print!` says for its own.
        let out = capture(Stream::Stdout, || {
            std::io::stdout().write_all(b"from here\n").unwrap();
            let child = std::process::Command::new("sh")
                .args(["-c", "printf 'from a child'"])
                .status();
            assert!(child.unwrap().success());
        })
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "from here\nfrom a child");
        let err = capture(Stream::Stderr, || {
            std::io::stderr().write_all(b"to stderr").unwrap();
        });
        let err = err.unwrap();
        assert_eq!(err, b"to stderr");
        // Stdout is its own again: nothing more lands in a capture.
        assert!(capture(Stream::Stdout, || {}).unwrap().is_empty());
    }
}
