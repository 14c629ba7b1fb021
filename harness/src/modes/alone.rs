//! A benchmark run again in a fresh process of this executable.
//!
//! A benchmark that fails after others ran in the same process may fail
//! only for that: its program sets something once per process (tracing's
//! suite sets its global default with `.expect`), and under
//! nbench-criterion each benchmark is reached by a walk of its own through
//! the program, past that step again. `cargo nbench` then measures it in
//! processes of its own; a standalone run (`cargo bench`, `cargo test
//! --benches`) does the same through this file: it starts this executable
//! as `cargo nbench` would, over the same channel, and asks for the one
//! benchmark.

use super::relay;
use crate::bencher::Declared;
use crate::drive::engine::Taken;
use crate::drive::guard::Finish;
use crate::engine::Settings;
use crate::protocol::{
    Command, Event, PROTOCOL_FLAG, ProtocolError, TOKEN_ENV, read_message, write_message,
};
use std::io::{BufReader, BufWriter};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Stdio};
use std::time::Duration;

/// Benchmark `id` measured with `settings` in a fresh process: its result,
/// its reason to skip, or why it failed there; `None` where no fresh
/// process could be asked (see [`ask`]).
pub fn measured(id: &str, settings: &Settings) -> Option<Result<Taken, String>> {
    let command = Command::Run {
        id: id.to_owned(),
        settings: settings.clone(),
    };
    Some(match ask(id, command)? {
        Ok(Event::Result(r)) => Ok(Taken::Result(r)),
        Ok(Event::Skipped { reason, .. }) => Ok(Taken::Skipped(reason)),
        other => Err(failure(other)),
    })
}

/// Benchmark `id` run once in a fresh process (`cargo test --benches`):
/// how it finished there, or why it failed; `None` where no fresh process
/// could be asked.
pub fn tried(id: &str) -> Option<Result<Finish, String>> {
    Some(match ask(id, Command::Once { id: id.to_owned() })? {
        Ok(Event::Done { .. }) => Ok(Finish::Timed(Declared::default())),
        Ok(Event::Skipped { reason, .. }) => Ok(Finish::Skipped(reason)),
        other => Err(failure(other)),
    })
}

/// Why an answer other than a result means the benchmark failed.
fn failure(answer: Result<Event, String>) -> String {
    match answer {
        Ok(Event::Failed { message, .. } | Event::Error { message }) | Err(message) => message,
        Ok(other) => format!("a fresh process answered {other:?}"),
    }
}

/// Starts this executable on the channel, aimed at benchmark `id` (see
/// [`relay`](super::relay)), sends it `command` and returns
/// its answer, or why it gave none after it was asked; the process is told
/// to quit and waited for. `None` where it could not be asked: it did not
/// start, or ended or said something else before its hello (a program
/// that runs its benchmarks from a `main` of its own, or a test).
fn ask(id: &str, command: Command) -> Option<Result<Event, String>> {
    let listener = TcpListener::bind("127.0.0.1:0").ok()?;
    let addr = listener.local_addr().ok()?;
    let token = format!("alone-{}", std::process::id());
    let mut child = std::process::Command::new(std::env::current_exe().ok()?)
        .arg(PROTOCOL_FLAG)
        .arg(addr.to_string())
        .env(TOKEN_ENV, &token)
        .env(relay::AIM_ENV, id)
        .env_remove(relay::RELAY_ENV)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let answer = accept(&listener, &mut child).and_then(|stream| talk(stream, &token, command));
    let ended = child.wait();
    match (answer?, ended) {
        (Err(e), Ok(status)) if !status.success() => Some(Err(format!("{e} ({status})"))),
        (answer, _) => Some(answer),
    }
}

/// The child's connection, once it makes it; `None` if it ends first.
fn accept(listener: &TcpListener, child: &mut Child) -> Option<TcpStream> {
    listener.set_nonblocking(true).ok()?;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).ok()?;
                return Some(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => return None,
        }
        if !matches!(child.try_wait(), Ok(None)) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Checks the child's hello (`None` where it is not one), sends `command`
/// and reads the answer, then says quit.
fn talk(stream: TcpStream, token: &str, command: Command) -> Option<Result<Event, String>> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut writer = BufWriter::new(stream);
    match read_message::<Event>(&mut reader) {
        Ok(Some(Event::Hello { token: said, .. })) if said == token => {}
        _ => return None,
    }
    let lost = |e: ProtocolError| format!("the fresh process's channel failed: {e}");
    let answer = write_message(&mut writer, &command)
        .and_then(|()| read_message::<Event>(&mut reader))
        .map_err(lost);
    let _ = write_message(&mut writer, &Command::Quit);
    Some(answer.and_then(|answer| {
        answer.ok_or_else(|| "the fresh process ended while it ran the benchmark".to_owned())
    }))
}
