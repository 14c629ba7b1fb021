//! One bench process in protocol mode: start it, connect, say hello, send commands with time limits.

use super::affinity;
use super::output::Captured;
use nbench::__private::engine::Settings;
use nbench::__private::protocol::{
    Command, Event, HARNESS_VERSION, Listed, PROTOCOL_FLAG, PROTOCOL_VERSION, ProtocolError,
    TOKEN_ENV, read_message, write_message,
};
use std::hash::{BuildHasher, Hasher};
use std::io::{BufReader, BufWriter, ErrorKind, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command as Process, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::placement::{Placement, draws_as_placed};
pub use super::session_error::SessionError;
use super::session_error::seconds;
use crate::model::outcome::NOT_CONNECTED;

/// The variable whose length differs from process to process (see [`Session::start`]).
const PAD_ENV: &str = "NBENCH_PAD";

/// A running bench binary and the connection to it.
pub struct Session {
    child: Child,
    reader: BufReader<TcpStream>,
    /// See [`command_channel`].
    writer: BufWriter<TcpStream>,
    /// What the process printed since the last [`Captured::take`].
    pub output: Captured,
    /// Whether its harness makes copies of itself on request (`fork`).
    pub forks: bool,
}

impl Session {
    /// Starts `exe` in protocol mode in `cwd` and waits for its hello, at
    /// most `timeout`: a criterion suite's groups run their code before
    /// the harness hears of their benchmarks (kiddo's build trees of up to
    /// 2^25 points, 57 s, before the first bench). Its memory
    /// lands where it happens to (a new stack offset every process, so that
    /// measurements average over placements).
    pub fn start(
        exe: &Path,
        cwd: &Path,
        extra_args: &[String],
        echo: bool,
        timeout: Duration,
    ) -> Result<Session, SessionError> {
        Self::start_placed(exe, cwd, extra_args, echo, timeout, None)
    }

    /// [`start`](Self::start), with `place`: memory placed as in every other
    /// process started with the same value. On Linux the address space is
    /// not randomised (`ADDR_NO_RANDOMIZE`) and the arguments and
    /// environment take the same room whatever the executable's path, so
    /// the stack, heap and code start at the same offsets: the two sides of
    /// a paired comparison then differ in their code only, not in where the
    /// kernel happened to put their data, and each epoch (another value)
    /// another placement. Both processes of an epoch draw the same random
    /// bytes, each side in a temporary folder of its own ([`Placement`]).
    pub fn start_placed(
        exe: &Path,
        cwd: &Path,
        extra_args: &[String],
        echo: bool,
        timeout: Duration,
        place: Option<Placement<'_>>,
    ) -> Result<Session, SessionError> {
        let limit = timeout;
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|e| SessionError::Start(format!("cannot listen on loopback: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| SessionError::Start(e.to_string()))?;
        let token = format!(
            "{:016x}",
            std::collections::hash_map::RandomState::new()
                .build_hasher()
                .finish()
        );
        let mut cmd = Process::new(exe);
        cmd.arg(PROTOCOL_FLAG)
            .arg(addr.to_string())
            .args(extra_args)
            .env(TOKEN_ENV, &token)
            // The environment's size moves where the stack starts, which
            // moves some benchmarks by itself: a new size for every process,
            // so that measurements average over it instead of keeping one.
            .env(
                PAD_ENV,
                "x".repeat(pad_len(exe, addr, place.map(|p| p.seed))),
            )
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        super::child::as_cargo_runs(&mut cmd, cwd);
        as_measured(&mut cmd, exe, echo, place.is_some());
        if let Some(place) = place {
            draws_as_placed(&mut cmd, place);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| SessionError::Start(format!("cannot start {}: {e}", exe.display())))?;
        let output = Captured::attach(&mut child, echo);
        let stream = match accept(&listener, &mut child, limit, &output) {
            Ok(s) => s,
            Err(e) => {
                kill(&mut child);
                return Err(e);
            }
        };
        let _ = stream.set_nodelay(true);
        let reader = BufReader::new(
            stream
                .try_clone()
                .map_err(|e| SessionError::Start(e.to_string()))?,
        );
        let mut s = Session {
            child,
            reader,
            writer: command_channel(stream),
            output,
            forks: false,
        };
        match s.hello(&token, limit) {
            Ok(()) => Ok(s),
            Err(e) => {
                s.kill();
                Err(e)
            }
        }
    }

    /// Waits for the hello and checks its protocol version and token.
    fn hello(&mut self, token: &str, limit: Duration) -> Result<(), SessionError> {
        match self.receive(limit)? {
            Event::Hello {
                protocol,
                harness,
                token: t,
                forks,
            } => {
                if protocol != PROTOCOL_VERSION {
                    return Err(SessionError::Version(format!(
                        "the bench binary was built with nbench {harness} (protocol {protocol}), \
                         but this cargo nbench {HARNESS_VERSION} speaks protocol {PROTOCOL_VERSION}; \
                         use the same version for both: change the nbench dev-dependency, or \
                         `cargo install cargo-nbench --version {harness}`"
                    )));
                }
                if t != token {
                    return Err(SessionError::Protocol(
                        "the process that connected is not the one started".into(),
                    ));
                }
                self.forks = forks;
                Ok(())
            }
            other => Err(SessionError::Protocol(format!(
                "expected a hello first, got {other:?}"
            ))),
        }
    }

    /// The binary's benchmarks.
    pub fn list(&mut self, timeout: Duration) -> Result<Vec<Listed>, SessionError> {
        self.send(&Command::List)?;
        match self.receive(timeout)? {
            Event::List(items) => Ok(items),
            other => Err(SessionError::Protocol(format!(
                "expected the list of benchmarks, got {other:?}"
            ))),
        }
    }

    /// Measures benchmark `id`; the answer is a result, a failure or an error event.
    pub fn run(
        &mut self,
        id: &str,
        settings: &Settings,
        timeout: Duration,
    ) -> Result<Event, SessionError> {
        self.send(&Command::Run {
            id: id.to_owned(),
            settings: settings.clone(),
        })?;
        self.receive(timeout)
    }

    /// Asks the binary to quit, and makes sure it does.
    pub fn finish(mut self) {
        self.quit();
        self.ended();
    }

    /// The process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Asks the binary to quit ([`Self::ended`] waits for it).
    pub fn quit(&mut self) {
        let _ = write_message(&mut self.writer, &Command::Quit);
    }

    /// Waits for the binary to exit after [`Self::quit`], at most 5 s
    /// (then it is killed).
    pub fn ended(mut self) {
        if wait_for(&mut self.child, Duration::from_secs(5)).is_none() {
            self.kill();
        }
    }

    /// Sends one command.
    pub fn send(&mut self, cmd: &Command) -> Result<(), SessionError> {
        match write_message(&mut self.writer, cmd) {
            Ok(()) => Ok(()),
            Err(_) => Err(self.died()),
        }
    }

    /// Waits up to `timeout` for the next event; on a timeout the process is killed.
    pub fn receive(&mut self, timeout: Duration) -> Result<Event, SessionError> {
        let _ = self
            .reader
            .get_ref()
            .set_read_timeout(Some(timeout.max(Duration::from_millis(1))));
        match read_message::<Event>(&mut self.reader) {
            Ok(Some(e)) => Ok(e),
            Ok(None) | Err(ProtocolError::Truncated(_)) => Err(self.died()),
            // std reports a read timeout as WouldBlock on Unix and TimedOut on Windows.
            Err(ProtocolError::Io(ErrorKind::WouldBlock | ErrorKind::TimedOut, _)) => {
                self.kill();
                Err(SessionError::TimedOut(timeout))
            }
            Err(ProtocolError::Io(..)) => Err(self.died()),
            Err(e @ ProtocolError::Malformed { .. }) => {
                self.kill();
                Err(SessionError::Protocol(e.to_string()))
            }
        }
    }

    /// The connection dropped: find out how the process ended.
    fn died(&mut self) -> SessionError {
        match wait_for(&mut self.child, Duration::from_secs(5)) {
            Some(status) => SessionError::Crashed(ended(status)),
            None => {
                self.kill();
                SessionError::Protocol(
                    "the bench binary closed the channel but kept running".into(),
                )
            }
        }
    }

    fn kill(&mut self) {
        kill(&mut self.child);
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            kill(&mut self.child);
        }
    }
}

/// The writing end of the channel to a bench process: buffered, so that
/// each command leaves in one write (`write_message` flushes it whole).
/// Written straight to the socket, each piece of a command's line went as a
/// segment of its own and woke the bench process once per piece: some ten
/// wake-ups a command, and a sample of 35 µs took 220 µs of the comparison's
/// time instead of 62 µs.
fn command_channel<W: Write>(socket: W) -> BufWriter<W> {
    BufWriter::new(socket)
}

/// The bench binary's connection; where it exits first, an error that
/// gives what it printed last (a front end refusing its configuration
/// says why there), or else asks whether it is an nbench target.
fn accept(
    listener: &TcpListener,
    child: &mut Child,
    limit: Duration,
    output: &Captured,
) -> Result<TcpStream, SessionError> {
    listener
        .set_nonblocking(true)
        .map_err(|e| SessionError::Start(e.to_string()))?;
    let start = Instant::now();
    let mut pause = Backoff::default();
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                stream
                    .set_nonblocking(false)
                    .map_err(|e| SessionError::Start(e.to_string()))?;
                return Ok(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => {
                return Err(SessionError::Start(format!(
                    "accepting the bench binary's connection: {e}"
                )));
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            output.settle();
            return Err(SessionError::Start(
                match super::output::last_words(&output.take()) {
                    // A binary that does not know the protocol's flag says so.
                    Some(said) if said.contains(PROTOCOL_FLAG) => format!(
                        "the bench binary exited before connecting ({}): {said}; is it an nbench \
                     target?",
                        ended(status)
                    ),
                    Some(said) => format!(
                        "the bench binary exited before connecting ({}): {said}",
                        ended(status)
                    ),
                    // It links the harness (checked before it is run), so its
                    // own `main` ended without reaching it.
                    None if status.success() => "the bench binary ended (exited with code 0) \
                    without running its benchmarks: its `main` must reach the nbench harness \
                    (`nbench::main!`, `criterion_main!`, `divan::main()`, gungraun's `main!`, \
                    `tango_benchmarks!`, `benchmark_main!`) in every run"
                        .to_owned(),
                    None => format!(
                        "the bench binary exited before connecting ({}); is it an nbench target?",
                        ended(status)
                    ),
                },
            ));
        }
        if start.elapsed() > limit {
            return Err(SessionError::Start(format!(
                "{NOT_CONNECTED} {} (--timeout): where its code before its benchmarks (a \
                 criterion group's setup) takes longer, raise it",
                seconds(limit)
            )));
        }
        pause.sleep();
    }
}

/// Sets up `cmd`, a bench process of `exe`, as measured processes run: it
/// dies with this one, has room for deep stacks, shares its build's listing, starts
/// at the same addresses each time where `placed`, is pinned to one CPU
/// (a benchmark with threads of its own spreads over those named), and,
/// unless its output is shown (`echo`), writes to `/dev/null` while timed:
/// read here, it would time this process reading it.
fn as_measured(cmd: &mut Process, exe: &Path, echo: bool, placed: bool) {
    nbench::__private::command::die_with_parent(cmd);
    super::child::room_for_stack(cmd);
    super::listings::share(cmd, exe);
    if placed {
        super::child::same_addresses(cmd);
    }
    affinity::pin_at_start(cmd);
    if let Some(cpus) = affinity::spread_cpus() {
        cmd.env(nbench::__private::SPREAD_ENV, cpus);
    }
    if !echo {
        cmd.env(nbench::__private::QUIET_ENV, "1");
    }
}

/// The length of the padding variable: for a placed process, what makes the
/// executable's path, the channel's address and the padding take
/// `place mod 4096` bytes together (so the stack starts at the same offset
/// for every executable); otherwise a new length for every process.
fn pad_len(exe: &Path, addr: std::net::SocketAddr, place: Option<u64>) -> usize {
    match place {
        Some(p) => {
            let taken = exe.as_os_str().len() + addr.to_string().len();
            ((p % 4096) as usize + 2 * 4096 - taken % 4096) % 4096
        }
        None => (addr.port() as usize * 7919) % 4096,
    }
}

/// The child's exit status once it exits, or `None` if it is still
/// running after `limit` (or cannot be waited on).
pub(crate) fn wait_for(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    let mut pause = Backoff::default();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if start.elapsed() < limit => pause.sleep(),
            _ => return None,
        }
    }
}

/// Pauses between polls of something that is usually quick (a process
/// exiting after `quit`, a fresh one connecting): 50 µs at first, twice as
/// long each time after, at most 5 ms. Fixed pauses of 2 and 5 ms cost
/// each epoch of a paired comparison (two processes started, two ended)
/// some 10 ms of waiting (measured: 24 epochs of one benchmark, 1.72 s
/// then 1.49 s), for events that take well under one.
/// The figures' record: `docs/notes/2026-11-27-measuring-and-comparing.md`.
#[derive(Debug)]
struct Backoff(Duration);

impl Default for Backoff {
    fn default() -> Self {
        Backoff(Duration::from_micros(50))
    }
}

impl Backoff {
    /// The next pause.
    fn next(&mut self) -> Duration {
        let pause = self.0;
        self.0 = (self.0 * 2).min(Duration::from_millis(5));
        pause
    }

    fn sleep(&mut self) {
        std::thread::sleep(self.next());
    }
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// How a process ended, in words: `exited with code 3`, `was killed by signal 11 (SIGSEGV, segmentation fault)`.
pub fn ended(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                4 => " (SIGILL, illegal instruction)",
                6 => " (SIGABRT, aborted)",
                7 => " (SIGBUS, bus error)",
                8 => " (SIGFPE, arithmetic error)",
                9 => " (SIGKILL: by hand, or by the kernel when memory ran out)",
                11 => " (SIGSEGV, segmentation fault)",
                15 => " (SIGTERM, terminated)",
                _ => "",
            };
            return format!("was killed by signal {sig}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "ended abnormally".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_reaches_the_socket_in_one_write() {
        /// Counts the writes that reach it.
        struct Socket(Vec<usize>);
        impl Write for Socket {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.push(buf.len());
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut channel = command_channel(Socket(Vec::new()));
        let commands = [
            Command::Sample { iters: 1_234_567 },
            Command::Paired {
                id: "group/bench/1000".into(),
                overhead: Some(0.3514),
            },
            Command::Fork,
        ];
        for cmd in &commands {
            write_message(&mut channel, cmd).unwrap();
        }
        let writes = &channel.get_ref().0;
        assert_eq!(writes.len(), commands.len(), "{writes:?}");
        // Unbuffered, one command alone is many writes: what the test guards.
        let mut bare = Socket(Vec::new());
        write_message(&mut bare, &commands[0]).unwrap();
        assert!(bare.0.len() > 1, "{:?}", bare.0);
    }

    #[test]
    fn polls_start_at_fifty_microseconds_and_double_up_to_five_milliseconds() {
        let mut b = Backoff::default();
        let pauses: Vec<u128> = (0..10).map(|_| b.next().as_micros()).collect();
        assert_eq!(
            pauses,
            [50, 100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]
        );
    }

    #[test]
    fn placed_processes_take_the_same_room_whatever_their_path() {
        let addr: std::net::SocketAddr = "127.0.0.1:40123".parse().unwrap();
        let other: std::net::SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let a = Path::new("/t/nbench/baselines/main/bin/p-bench-0123456789abcdef");
        let b = Path::new("/t/nbench/build/release/deps/bench-fe");
        for place in [0u64, 17, 4095, 123_456_789] {
            let room = |exe: &Path, addr: std::net::SocketAddr| {
                exe.as_os_str().len() + addr.to_string().len() + pad_len(exe, addr, Some(place))
            };
            assert_eq!(room(a, addr) % 4096, room(b, other) % 4096, "{place}");
            assert_eq!(room(a, addr) % 4096, (place % 4096) as usize);
        }
        // Unplaced: a length from the port, whatever the path.
        assert_eq!(pad_len(a, addr, None), (40123 * 7919) % 4096);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_placed_process_has_one_argv0_and_no_randomisation() {
        let read = |file: &str| {
            let mut cmd = Process::new("cat");
            cmd.arg(file);
            crate::run::child::same_addresses(&mut cmd);
            cmd.output().expect("cat runs").stdout
        };
        // The path of the executable no longer reaches argv[0].
        let cmdline = read("/proc/self/cmdline");
        assert_eq!(cmdline, b"nbench-bench\0/proc/self/cmdline\0");
        let persona = String::from_utf8(read("/proc/self/personality")).unwrap();
        let persona = u64::from_str_radix(persona.trim(), 16).unwrap();
        // Where the system allows it (containers may refuse personality()).
        if persona != 0 {
            assert_ne!(persona & 0x0040000, 0, "{persona:x}");
        }
    }
}
