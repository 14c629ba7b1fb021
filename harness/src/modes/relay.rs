//! A benchmark run in another process of this executable, aimed at it.
//!
//! Where a program reaches its benchmarks only as its own `main` runs
//! (nbench-criterion under a `main` written by hand), a benchmark can be
//! run only in a process whose `main` has come to it. Such a process is
//! started with [`AIM_ENV`] naming the benchmark; its front end passes the
//! others by and serves the command line where it reaches that one.
//!
//! In protocol mode the channel to `cargo nbench` is handed over: a command
//! for a benchmark this process cannot run replaces the process by a fresh
//! image of the executable (same arguments, same process id, so `cargo
//! nbench` sees one process) aimed at it, with the channel's descriptor
//! and the command to answer first ([`RELAY_ENV`]); or, where the program
//! reaches that benchmark later (the front end says which it does,
//! [`Registry::__ahead`]), the serving ends with the channel and the
//! command kept ([`onward`]) and the program goes on to it, no process
//! started. The standalone modes start a process aimed at it instead
//! ([`alone`](super::alone)).

use crate::protocol::Command;
#[cfg(unix)]
use crate::protocol::{read_message, write_message};
use std::net::TcpStream;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The environment variable naming the benchmark a process is started to
/// reach.
pub const AIM_ENV: &str = "NBENCH_AIM";

/// The environment variable by which a process replaced by a fresh image
/// hands it the channel: `PID FD COMMAND`, the process id (the same after
/// the replacement, another in any process started from it), the channel's
/// descriptor, and the command to answer first as a protocol line.
pub(crate) const RELAY_ENV: &str = "NBENCH_RELAY";

/// The room the handed-over command takes in the environment, in steps
/// of this many bytes: the two sides of a paired comparison get the same
/// room for commands of slightly different lengths, so their stacks start
/// at the same place (see `cargo nbench`'s placement).
const ROOM_STEP: usize = 256;

/// The channel and a command for a benchmark the program reaches later,
/// kept when the serving ended for it.
static ONWARD: Mutex<Option<(TcpStream, Command)>> = Mutex::new(None);

/// Whether the channel handed over on starting was taken (once a process).
static TAKEN: AtomicBool = AtomicBool::new(false);

/// The benchmark the serving that just ended left a command for, to be
/// served where the program reaches it; `None` where it ended otherwise.
pub fn onward() -> Option<String> {
    let kept = ONWARD.lock().unwrap_or_else(|e| e.into_inner());
    kept.as_ref()?.1.benchmark().map(str::to_owned)
}

/// Keeps `stream` and `command` for the serving where the program reaches
/// the benchmark `command` names.
pub(crate) fn keep_onward(stream: TcpStream, command: Command) {
    *ONWARD.lock().unwrap_or_else(|e| e.into_inner()) = Some((stream, command));
}

/// The benchmark this process was started to reach, if it was.
pub fn aim() -> Option<String> {
    std::env::var(AIM_ENV).ok()
}

/// Replaces this process by a fresh image of its executable aimed at `id`,
/// handing it `stream` (the channel, whose reader holds nothing unread)
/// and `command` to answer first. Returns only where it could not: why.
#[cfg(unix)]
pub(crate) fn exec(stream: &TcpStream, id: &str, command: &Command) -> String {
    use std::os::unix::io::AsRawFd;
    use std::os::unix::process::CommandExt;
    unsafe extern "C" {
        fn fcntl(fd: i32, cmd: i32, ...) -> i32;
    }
    const F_SETFD: i32 = 2;
    let fd = stream.as_raw_fd();
    let mut line = Vec::new();
    if let Err(e) = write_message(&mut line, command) {
        return e.to_string();
    }
    let mut handed = format!(
        "{} {fd} {}",
        std::process::id(),
        String::from_utf8_lossy(&line).trim_end()
    );
    handed.extend(std::iter::repeat_n(
        ' ',
        ROOM_STEP - handed.len() % ROOM_STEP,
    ));
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return format!("cannot find this executable to run `{id}` in: {e}"),
    };
    // SAFETY: clears the close-on-exec flag of a descriptor this process
    // owns; no memory is touched.
    if unsafe { fcntl(fd, F_SETFD, 0) } != 0 {
        return format!(
            "cannot hand the channel to a process aimed at `{id}`: {}",
            std::io::Error::last_os_error()
        );
    }
    let mut args = std::env::args_os();
    // The same arguments, the program's name as given (its length moves
    // where the stack starts, as the environment's does).
    let err = std::process::Command::new(exe)
        .arg0(args.next().unwrap_or_default())
        .args(args)
        .env(AIM_ENV, id)
        .env(RELAY_ENV, handed)
        .exec();
    format!("cannot start a fresh process aimed at `{id}`: {err}")
}

/// Elsewhere than on Unix a process cannot be replaced.
#[cfg(not(unix))]
pub(crate) fn exec(_: &TcpStream, id: &str, _: &Command) -> String {
    format!(
        "`{id}` is reached only where the program's own `main` comes to it, which is run in a \
         fresh process on Unix only"
    )
}

/// The channel and the first command: kept by an earlier serving in this
/// process ([`keep_onward`]), or handed over where this process is the
/// fresh image another replaced itself by ([`exec`]); `Err` where what it
/// handed over is unreadable.
pub(crate) fn resumed() -> Option<Result<(TcpStream, Command), String>> {
    if let Some(kept) = ONWARD.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Some(Ok(kept));
    }
    if TAKEN.swap(true, Ordering::Relaxed) {
        return None;
    }
    let handed = std::env::var(RELAY_ENV).ok()?;
    let mut parts = handed.splitn(3, ' ');
    let pid: u32 = parts.next()?.parse().ok()?;
    // Handed to another process (one started from that image): not ours.
    if pid != std::process::id() {
        return None;
    }
    Some(take(parts.next(), parts.next()))
}

#[cfg(unix)]
fn take(fd: Option<&str>, line: Option<&str>) -> Result<(TcpStream, Command), String> {
    use std::os::unix::io::FromRawFd;
    let bad = || format!("the handed-over channel ({RELAY_ENV}) is unreadable");
    let fd: i32 = fd.and_then(|fd| fd.parse().ok()).ok_or_else(bad)?;
    let line = format!("{}\n", line.ok_or_else(bad)?.trim_end());
    let command = read_message::<Command>(&mut line.as_bytes())
        .map_err(|e| e.to_string())?
        .ok_or_else(bad)?;
    // SAFETY: the descriptor is the channel's socket, left open for this
    // image by the one it replaced (same process id), owned by nothing else
    // here.
    Ok((unsafe { TcpStream::from_raw_fd(fd) }, command))
}

#[cfg(not(unix))]
fn take(_: Option<&str>, _: Option<&str>) -> Result<(TcpStream, Command), String> {
    Err("a channel is handed over on Unix only".to_owned())
}
