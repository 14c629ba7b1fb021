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
    pub overhead_ns: f64,
    /// The pilot's factor over the timer's cost (see [`crate::engine::Settings::timer_factor`]).
    pub timer_factor: f64,
    /// Set when the channel failed mid-benchmark: the process should exit.
    pub channel_lost: bool,
    started: bool,
}

impl<'c, R: BufRead, W: Write> LockstepDriver<'c, R, W> {
    /// A driver for benchmark `id` over this channel.
    pub fn new(
        id: String,
        reader: &'c mut R,
        writer: &'c mut W,
        timer: TimerInfo,
        overhead_ns: f64,
    ) -> Self {
        LockstepDriver {
            id,
            reader,
            writer,
            timer,
            overhead_ns,
            timer_factor: crate::engine::Settings::default().timer_factor,
            channel_lost: false,
            started: false,
        }
    }
}

impl<R: BufRead, W: Write> Driver for LockstepDriver<'_, R, W> {
    fn drive(&mut self, kind: LoopKind, declared: &Declared, m: &mut dyn Measure) {
        // A second timing call is misuse, reported by the guard.
        if std::mem::replace(&mut self.started, true) {
            return;
        }
        let cold_ns = m.sample(1);
        let mut counters = declared.counters.clone();
        counters.extend(crate::alloc::measure(
            crate::alloc::iters_for(cold_ns),
            |n| {
                m.sample(n);
            },
        ));
        let ready = Event::Ready {
            id: self.id.clone(),
            cold_ns,
            min_sample_ns: self.timer.min_sample_ns(self.timer_factor),
            overhead_ns: if kind == LoopKind::Iter {
                self.overhead_ns
            } else {
                0.0
            },
            throughput: declared.throughput,
            counters,
            metric: declared.metric,
        };
        if write_message(self.writer, &ready).is_err() {
            self.channel_lost = true;
            return;
        }
        loop {
            match read_message::<Command>(self.reader) {
                Ok(Some(Command::Sample { iters })) => {
                    let ns = m.sample(iters.max(1));
                    if write_message(self.writer, &Event::Sampled { ns }).is_err() {
                        self.channel_lost = true;
                        return;
                    }
                }
                Ok(Some(Command::Finish)) => return,
                _ => {
                    self.channel_lost = true;
                    return;
                }
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
                cold_ns: 5.0,
                min_sample_ns: 20_000.0,
                overhead_ns: 0.0,
                throughput: Some(Throughput::Items(2)),
                counters: Vec::new(),
                metric: Default::default(),
            }
        );
        assert_eq!(
            ev[1..],
            [Event::Sampled { ns: 50.0 }, Event::Sampled { ns: 15.0 }]
        );
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
        assert!(matches!(events(&out)[0], Event::Ready { overhead_ns, .. } if overhead_ns == 0.5));
    }
}
