//! Protocol mode: the bench binary driven by `cargo nbench` over a loopback connection.

use super::relay;
use crate::drive::engine::{Taken, loop_overhead, measure_one};
use crate::drive::guard::{Finish, run_guarded};
use crate::drive::lockstep::LockstepDriver;
use crate::engine::Settings;
use crate::protocol::{
    Command, Event, HARNESS_VERSION, Listed, MARKER, PROTOCOL_VERSION, TOKEN_ENV, read_message,
    write_message,
};
use crate::registry::Registry;
use crate::timer::{TimerInfo, WallClock};
use std::io::{BufReader, BufWriter};
use std::net::TcpStream;

/// Connects to `addr`, says hello, and carries out commands until told to
/// quit or the connection closes; or, where this process is a fresh image
/// handed the channel ([`relay`]), carries on with the command it was
/// handed. Returns false if the channel failed.
pub fn run(registry: &Registry, addr: &str) -> bool {
    // Keeps the marker's bytes in the executable for `cargo nbench` to find.
    std::hint::black_box(MARKER);
    let (stream, first) = match relay::resumed() {
        Some(Ok((stream, first))) => (stream, Some(first)),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return false;
        }
        None => match connect(addr) {
            Some(stream) => (stream, None),
            None => return false,
        },
    };
    let Ok(read_half) = stream.try_clone() else {
        return false;
    };
    let mut reader = BufReader::new(read_half);
    let mut writer = BufWriter::new(stream);
    if first.is_none() {
        let hello = Event::Hello {
            protocol: PROTOCOL_VERSION,
            harness: HARNESS_VERSION.to_owned(),
            token: std::env::var(TOKEN_ENV).unwrap_or_default(),
            forks: crate::fork::available(),
        };
        if write_message(&mut writer, &hello).is_err() {
            return false;
        }
    }
    serve(registry, first, &mut reader, &mut writer)
}

/// The channel to `cargo nbench` at `addr`; `None`, said, where it cannot be made.
fn connect(addr: &str) -> Option<TcpStream> {
    match TcpStream::connect(addr) {
        Ok(s) => {
            let _ = s.set_nodelay(true);
            Some(s)
        }
        Err(e) => {
            eprintln!("error: cannot connect to cargo nbench at {addr}: {e}");
            None
        }
    }
}

/// Carries out `first`, then the commands read, until told to quit or the
/// connection closes, or a command is for a benchmark the program reaches
/// later (kept, [`relay::onward`]). A command for one another process of
/// this executable runs replaces this process by one aimed at it
/// ([`relay`]).
fn serve(
    registry: &Registry,
    mut first: Option<Command>,
    reader: &mut BufReader<TcpStream>,
    writer: &mut BufWriter<TcpStream>,
) -> bool {
    let timer = TimerInfo::measure(&WallClock::new(), 10_000);
    let mut overhead = None;
    loop {
        let command = match first
            .take()
            .map(|c| Ok(Some(c)))
            .unwrap_or_else(|| read_message(reader))
        {
            Ok(None) | Ok(Some(Command::Quit)) => return true,
            Ok(Some(command)) => command,
            Err(e) => {
                let _ = write_message(
                    writer,
                    &Event::Error {
                        message: e.to_string(),
                    },
                );
                return false;
            }
        };
        if let Some(id) = command.benchmark().filter(|id| registry.elsewhere(id)) {
            let id = id.to_owned();
            let ahead = registry.ahead.contains(&id);
            let event = match writer.get_ref().try_clone() {
                Ok(stream) if ahead && reader.buffer().is_empty() => {
                    relay::keep_onward(stream, command);
                    return true;
                }
                _ => relayed(&id, &command, reader, writer),
            };
            if write_message(writer, &event).is_err() {
                return false;
            }
            continue;
        }
        let event = match command {
            Command::List => listed(registry),
            Command::Run { id, settings } => {
                let overhead = || *overhead.get_or_insert_with(|| loop_overhead(&timer));
                run_one(registry, id, &settings, timer, overhead)
            }
            Command::Once { id } => once(registry, id),
            Command::Paired {
                id,
                overhead: known,
            } => {
                let overhead =
                    known.unwrap_or_else(|| *overhead.get_or_insert_with(|| loop_overhead(&timer)));
                match paired(registry, id, reader, writer, timer, overhead) {
                    Some(event) => event,
                    None => return false,
                }
            }
            Command::Quit => return true,
            Command::Sample { .. } | Command::Finish | Command::Fork | Command::Join => {
                Event::Error {
                    message: "`sample`, `fork`, `join` and `finish` belong inside a paired \
                              benchmark"
                        .into(),
                }
            }
        };
        if write_message(writer, &event).is_err() {
            return false;
        }
    }
}

/// The benchmarks, as `cargo nbench` lists them.
fn listed(registry: &Registry) -> Event {
    Event::List(
        (registry.benches.iter())
            .map(|b| Listed {
                id: b.id.clone(),
                ignored: b.ignored,
                scaling: b.scaling.clone(),
                hint: b.hint,
            })
            .collect(),
    )
}

/// Hands `command` for benchmark `id`, which another process of this
/// executable runs, to one aimed at it ([`relay`]); returns only where it
/// could not, saying why.
fn relayed(
    id: &str,
    command: &Command,
    reader: &BufReader<TcpStream>,
    writer: &BufWriter<TcpStream>,
) -> Event {
    let message = if reader.buffer().is_empty() {
        relay::exec(writer.get_ref(), id, command)
    } else {
        format!("`{id}` runs in another process, and commands after it were sent already")
    };
    Event::Error { message }
}

/// Measures benchmark `id` on its own; `overhead` gives the `iter` loop's
/// cost (measured once, when first needed).
fn run_one(
    registry: &Registry,
    id: String,
    settings: &Settings,
    timer: TimerInfo,
    overhead: impl FnOnce() -> f64,
) -> Event {
    let Some(bench) = registry.find(&id) else {
        return Event::Error {
            message: format!("no benchmark with id `{id}`"),
        };
    };
    match measure_one(bench, &registry.benches, settings, timer, overhead()) {
        Ok(Taken::Result(mut r)) => {
            // Under the id asked for (see `Registry::find`).
            r.id = id;
            Event::Result(r)
        }
        Ok(Taken::Skipped(reason)) => Event::Skipped { id, reason },
        Err(message) => Event::Failed { id, message },
    }
}

/// Runs benchmark `id` once, as `cargo test --benches` runs it.
fn once(registry: &Registry, id: String) -> Event {
    let Some(bench) = registry.find(&id) else {
        return Event::Error {
            message: format!("no benchmark with id `{id}`"),
        };
    };
    match run_guarded(bench, &mut super::test::OnceDriver) {
        Ok(Finish::Timed(_)) => Event::Done { id },
        Ok(Finish::Skipped(reason)) => Event::Skipped { id, reason },
        Err(message) => Event::Failed { id, message },
    }
}

/// Runs benchmark `id` driven sample by sample over the channel (a paired
/// comparison); `None` when the channel was lost meanwhile.
fn paired(
    registry: &Registry,
    id: String,
    reader: &mut BufReader<TcpStream>,
    writer: &mut BufWriter<TcpStream>,
    timer: TimerInfo,
    overhead: f64,
) -> Option<Event> {
    let Some(bench) = registry.find(&id) else {
        return Some(Event::Error {
            message: format!("no benchmark with id `{id}`"),
        });
    };
    let mut driver = LockstepDriver::new(id.clone(), reader, writer, timer, overhead);
    let outcome = run_guarded(bench, &mut driver);
    if driver.is_copy() {
        // A copy leaves the benchmark only when it failed: it says so and
        // ends, and the process it was copied from goes on.
        if let Err(message) = outcome {
            let _ = write_message(writer, &Event::Failed { id, message });
        }
        crate::fork::exit_copy(1);
    }
    if driver.channel_lost {
        return None;
    }
    Some(match outcome {
        Ok(Finish::Timed(_)) => Event::Done { id },
        Ok(Finish::Skipped(reason)) => Event::Skipped { id, reason },
        Err(message) => Event::Failed { id, message },
    })
}
