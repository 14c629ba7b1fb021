//! Protocol mode: the bench binary driven by `cargo nbench` over a loopback connection.

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
/// quit or the connection closes. Returns false if the channel failed.
pub fn run(registry: &Registry, addr: &str) -> bool {
    let benches = &registry.benches;
    // Keeps the marker's bytes in the executable for `cargo nbench` to find.
    std::hint::black_box(MARKER);
    let stream = match TcpStream::connect(addr) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot connect to cargo nbench at {addr}: {e}");
            return false;
        }
    };
    let _ = stream.set_nodelay(true);
    let Ok(read_half) = stream.try_clone() else {
        return false;
    };
    let mut reader = BufReader::new(read_half);
    let mut writer = BufWriter::new(stream);
    let hello = Event::Hello {
        protocol: PROTOCOL_VERSION,
        harness: HARNESS_VERSION.to_owned(),
        token: std::env::var(TOKEN_ENV).unwrap_or_default(),
        forks: crate::fork::available(),
    };
    if write_message(&mut writer, &hello).is_err() {
        return false;
    }
    let timer = TimerInfo::measure(&WallClock::new(), 10_000);
    let mut overhead = None;
    loop {
        let event = match read_message::<Command>(&mut reader) {
            Ok(None) | Ok(Some(Command::Quit)) => return true,
            Ok(Some(Command::List)) => Event::List(
                benches
                    .iter()
                    .map(|b| Listed {
                        id: b.id.clone(),
                        ignored: b.ignored,
                        scaling: b.scaling.clone(),
                        hint: b.hint,
                    })
                    .collect(),
            ),
            Ok(Some(Command::Run { id, settings })) => {
                let overhead = || *overhead.get_or_insert_with(|| loop_overhead(&timer));
                run_one(registry, id, &settings, timer, overhead)
            }
            Ok(Some(Command::Once { id })) => once(registry, id),
            Ok(Some(Command::Paired {
                id,
                overhead: known,
            })) => {
                let overhead =
                    known.unwrap_or_else(|| *overhead.get_or_insert_with(|| loop_overhead(&timer)));
                match paired(registry, id, &mut reader, &mut writer, timer, overhead) {
                    Some(event) => event,
                    None => return false,
                }
            }
            Ok(Some(Command::Sample { .. } | Command::Finish | Command::Fork | Command::Join)) => {
                Event::Error {
                    message: "`sample`, `fork`, `join` and `finish` belong inside a paired \
                              benchmark"
                        .into(),
                }
            }
            Err(e) => {
                let _ = write_message(
                    &mut writer,
                    &Event::Error {
                        message: e.to_string(),
                    },
                );
                return false;
            }
        };
        if write_message(&mut writer, &event).is_err() {
            return false;
        }
    }
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
