//! Lockstep mode: a routine sampled only on command, so `cargo nbench` can alternate two processes sample by sample.

use crate::bencher::{Declared, Driver, LoopKind};
use crate::engine::Measure;
use crate::protocol::{Command, Event, read_message, write_message};
use crate::timer::TimerInfo;
use std::io::{BufRead, Write};

/// Follows `Sample` commands from the channel until `Finish`.
pub struct LockstepDriver<'c, R, W> {
    /// The benchmark being driven.
    pub id: String,
    /// The channel.
    pub reader: &'c mut R,
    /// The channel.
    pub writer: &'c mut W,
    /// This process's timer.
    pub timer: TimerInfo,
    /// The `iter` loop's overhead per iteration, ns.
    pub overhead: f64,
    /// The pilot's factor over the timer's cost (see [`crate::engine::Settings::timer_factor`]).
    pub timer_factor: f64,
    /// Set when the channel failed mid-benchmark: the process should exit.
    pub channel_lost: bool,
    started: bool,
    /// Set in a copy made by [`Command::Fork`].
    copy: bool,
}

impl<'c, R: BufRead, W: Write> LockstepDriver<'c, R, W> {
    /// A driver for benchmark `id` over this channel.
    pub fn new(
        id: String,
        reader: &'c mut R,
        writer: &'c mut W,
        timer: TimerInfo,
        overhead: f64,
    ) -> Self {
        LockstepDriver {
            id,
            reader,
            writer,
            timer,
            overhead,
            timer_factor: crate::engine::Settings::default().timer_factor,
            channel_lost: false,
            started: false,
            copy: false,
        }
    }

    /// Whether this is a copy made by [`Command::Fork`], which must end
    /// (see [`crate::fork::exit_copy`]) rather than go on to another benchmark.
    pub fn is_copy(&self) -> bool {
        self.copy
    }

    /// Sends `event`; false (and the channel marked lost) if it could not.
    fn send(&mut self, event: &Event) -> bool {
        let sent = write_message(self.writer, event).is_ok();
        self.channel_lost |= !sent;
        sent
    }

    /// [`Command::Fork`]: the copy answers `forked` and samples on; this
    /// process waits for it to end and answers `joined`, or `failed` with
    /// how it ended; where no copy can be made, `unforked`. False if the
    /// channel was lost.
    fn fork(&mut self) -> bool {
        match crate::fork::fork() {
            crate::fork::Fork::Copy => {
                self.copy = true;
                self.send(&Event::Forked)
            }
            crate::fork::Fork::Original(pid) => {
                let event = match crate::fork::wait(pid) {
                    Ok(()) => Event::Joined,
                    Err(how) => Event::Failed {
                        id: self.id.clone(),
                        message: format!("the copy of the process sampling it {how}"),
                    },
                };
                self.send(&event)
            }
            crate::fork::Fork::Refused(reason) => self.send(&Event::Unforked { reason }),
        }
    }
}

impl<R: BufRead, W: Write> Driver for LockstepDriver<'_, R, W> {
    fn drive(&mut self, kind: LoopKind, declared: &Declared, m: &mut dyn Measure) {
        // A second timing call is misuse, reported by the guard.
        if std::mem::replace(&mut self.started, true) {
            return;
        }
        let cold = m.sample(1);
        let mut counters = declared.counters.clone();
        counters.extend(crate::alloc::measure(crate::alloc::iters_for(cold), |n| {
            m.sample(n);
        }));
        let ready = Event::Ready {
            id: self.id.clone(),
            cold,
            min_sample_ns: self.timer.min_sample_ns(self.timer_factor),
            overhead: if kind == LoopKind::Iter {
                self.overhead
            } else {
                0.0
            },
            throughput: declared.throughput,
            counters,
            metric: declared.metric,
            times_itself: kind == LoopKind::Custom,
        };
        if !self.send(&ready) {
            return;
        }
        loop {
            let sent = match read_message::<Command>(self.reader) {
                Ok(Some(Command::Sample { iters })) => {
                    let ns = m.sample(iters.max(1));
                    self.send(&Event::Sampled { ns })
                }
                Ok(Some(Command::Finish)) if !self.copy => return,
                Ok(Some(Command::Fork)) if !self.copy => self.fork(),
                Ok(Some(Command::Join)) if self.copy => crate::fork::exit_copy(0),
                _ => {
                    self.channel_lost = true;
                    false
                }
            };
            if !sent {
                if self.copy {
                    crate::fork::exit_copy(1);
                }
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::guard::run_guarded;
    use super::*;
    use crate::{Registry, Throughput};
    use std::io::Cursor;

    fn script(cmds: &[Command]) -> Cursor<Vec<u8>> {
        let mut buf = Vec::new();
        for c in cmds {
            write_message(&mut buf, c).unwrap();
        }
        Cursor::new(buf)
    }

    fn events(out: &[u8]) -> Vec<Event> {
        let mut r = Cursor::new(out.to_vec());
        std::iter::from_fn(|| read_message::<Event>(&mut r).unwrap()).collect()
    }

    const TIMER: TimerInfo = TimerInfo {
        resolution_ns: 1.0,
        cost_ns: 20.0,
    };

    #[test]
    fn samples_exactly_as_told() {
        let mut r = Registry::new();
        let calls = std::rc::Rc::new(std::cell::Cell::new(0u64));
        let c = calls.clone();
        r.bench("counted", move |b| {
            b.throughput(Throughput::Items(2));
            let c = c.clone();
            b.iter_custom(move |iters| {
                c.set(c.get() + iters);
                std::time::Duration::from_nanos(iters * 5)
            })
        });
        let mut input = script(&[
            Command::Sample { iters: 10 },
            Command::Sample { iters: 3 },
            Command::Finish,
        ]);
        let mut out = Vec::new();
        let mut d = LockstepDriver::new("counted".into(), &mut input, &mut out, TIMER, 0.5);
        assert!(run_guarded(&r.benches[0], &mut d).is_ok());
        assert!(!d.channel_lost);
        assert_eq!(calls.get(), 1 + 10 + 3, "the cold call and the two samples");
        let ev = events(&out);
        assert_eq!(
            ev[0],
            Event::Ready {
                id: "counted".into(),
                cold: 5.0,
                min_sample_ns: 20_000.0,
                overhead: 0.0,
                throughput: Some(Throughput::Items(2)),
                counters: Vec::new(),
                metric: Default::default(),
                times_itself: true,
            }
        );
        assert_eq!(
            ev[1..],
            [Event::Sampled { ns: 50.0 }, Event::Sampled { ns: 15.0 }]
        );
    }

    #[test]
    fn where_no_copy_can_be_made_sampling_goes_on_here() {
        // Another thread, alive until the benchmark is done: no copy.
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let other = std::thread::spawn(move || rx.recv());
        let mut r = Registry::new();
        r.bench("x", |b| b.iter_custom(std::time::Duration::from_nanos));
        let mut input = script(&[Command::Fork, Command::Sample { iters: 4 }, Command::Finish]);
        let mut out = Vec::new();
        let mut d = LockstepDriver::new("x".into(), &mut input, &mut out, TIMER, 0.5);
        assert!(run_guarded(&r.benches[0], &mut d).is_ok());
        drop(tx);
        let _ = other.join();
        assert!(!d.channel_lost && !d.is_copy());
        let ev = events(&out);
        assert!(
            matches!(&ev[1], Event::Unforked { reason } if !reason.is_empty()),
            "{ev:?}"
        );
        assert_eq!(ev[2], Event::Sampled { ns: 4.0 });
    }

    #[test]
    fn join_outside_a_copy_ends_the_benchmark_as_a_lost_channel() {
        let mut r = Registry::new();
        r.bench("x", |b| b.iter(|| 1));
        let mut input = script(&[Command::Join]);
        let mut out = Vec::new();
        let mut d = LockstepDriver::new("x".into(), &mut input, &mut out, TIMER, 0.5);
        let _ = run_guarded(&r.benches[0], &mut d);
        assert!(d.channel_lost);
    }

    #[test]
    fn a_closed_channel_ends_the_benchmark() {
        let mut r = Registry::new();
        r.bench("x", |b| b.iter(|| 1));
        let mut input = script(&[Command::Sample { iters: 2 }]);
        let mut out = Vec::new();
        let mut d = LockstepDriver::new("x".into(), &mut input, &mut out, TIMER, 0.5);
        let _ = run_guarded(&r.benches[0], &mut d);
        assert!(d.channel_lost);
        assert!(matches!(events(&out)[0], Event::Ready { overhead, .. } if overhead == 0.5));
    }
}
