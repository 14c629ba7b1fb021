//! What the macros generate calls: the registrar the groups register
//! into, the timing of one bench, and the bench binary's `main`.

use crate::BinaryBenchmarkConfig;
use std::cell::Cell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// A `setup` run once, before the first benchmark that needs it runs (a
/// process that only lists runs none), and its `teardown`, run at the end
/// where the setup ran.
#[derive(Default)]
struct Stage {
    setup: Option<fn()>,
    teardown: Option<fn()>,
    ran: Cell<bool>,
}

impl Stage {
    fn new(setup: Option<fn()>, teardown: Option<fn()>) -> Stage {
        Stage {
            setup,
            teardown,
            ran: Cell::new(false),
        }
    }

    fn enter(&self) {
        if !self.ran.replace(true) {
            self.setup.into_iter().for_each(|f| f());
        }
    }

    fn leave(&self) {
        if self.ran.get() {
            self.teardown.into_iter().for_each(|f| f());
        }
    }
}

/// Registers each group's benches with nbench under gungraun's path
/// (`group::function::id`).
#[derive(Default)]
pub struct Registrar {
    registry: nbench::Registry,
    group: String,
    /// `main!`'s stage, then each group's.
    main: Rc<Stage>,
    stages: Vec<Rc<Stage>>,
    /// Options accepted and not honoured (`config`, …).
    unhonoured: BTreeSet<&'static str>,
    /// The binary benchmarks' configuration from `main!`, and the group's over it.
    configs: (BinaryBenchmarkConfig, BinaryBenchmarkConfig),
    /// Each binary benchmark's setup, by its whole id, for a process
    /// started to run it beside its command (`crate::beside`).
    setups: Vec<(String, crate::binary::Hook)>,
}

/// `main!`'s `config`, where it has one.
pub enum MainConfig {
    /// A library benchmark's: taken, not honoured.
    Library,
    /// The binary benchmarks'.
    Binary(BinaryBenchmarkConfig),
}

impl Registrar {
    /// The group the benches that follow belong to, and what it runs
    /// before and after its benchmarks.
    pub fn group(&mut self, name: &str, setup: Option<fn()>, teardown: Option<fn()>) {
        self.group = name.to_owned();
        self.stages.push(Rc::new(Stage::new(setup, teardown)));
        self.configs.1 = self.configs.0.clone();
    }

    /// The group's configuration of its binary benchmarks, over `main!`'s.
    pub fn binary_config<T: Into<BinaryBenchmarkConfig>>(&mut self, config: T) {
        self.configs.1 = self.configs.0.with(&config.into());
    }

    /// An option given that nbench-gungraun does not honour.
    pub fn unhonoured(&mut self, option: &'static str) {
        self.unhonoured.insert(option);
    }

    /// A bench, `function::id` within the group: `main!`'s and the
    /// group's setups run before it, once.
    pub fn add<F>(&mut self, id: &str, f: F)
    where
        F: Fn(&mut nbench::Bencher<'_>) + 'static,
    {
        let id = self.whole_id(id);
        let main = Rc::clone(&self.main);
        let group = self.stages.last().map(Rc::clone);
        self.registry.bench(&id, move |b| {
            main.enter();
            group.iter().for_each(|g| g.enter());
            f(b)
        });
    }

    /// A binary benchmark's commands, each a bench
    /// (`benchmark::bench` within the group).
    pub fn binary(&mut self, bb: crate::BinaryBenchmark) {
        for each in bb.each(&self.configs.1) {
            let (id, whole) = (each.id.clone(), self.whole_id(&each.id));
            if let Some(setup) = &each.hooks.0 {
                self.setups.push((whole.clone(), Rc::clone(setup)));
            }
            self.add(&id, move |b| crate::binary::time_command(b, &each, &whole));
        }
    }

    /// `id` under the group's name.
    fn whole_id(&self, id: &str) -> String {
        match self.group.is_empty() {
            true => id.to_owned(),
            false => format!("{}::{id}", self.group),
        }
    }
}

/// Times `call` on arguments `make` gives it: the arguments (and a
/// `setup` of them) are made outside the timing and the counts, 16 at a
/// time, since gungraun's may be large; the outputs are dropped (or torn
/// down) outside them too.
pub fn time<I, O>(b: &mut nbench::Bencher<'_>, make: impl FnMut() -> I, call: impl FnMut(I) -> O) {
    b.batch_size(nbench::BatchSize::Large)
        .iter_batched(make, call);
}

/// A bench's output, given to its `teardown` when dropped (outside the
/// timing, where nbench drops outputs); what the teardown returns is
/// dropped.
pub struct Torn<O, R, T: FnMut(O) -> R> {
    out: Option<O>,
    teardown: T,
}

impl<O, R, T: FnMut(O) -> R> Torn<O, R, T> {
    pub fn new(out: O, teardown: T) -> Self {
        Torn {
            out: Some(out),
            teardown,
        }
    }
}

impl<O, R, T: FnMut(O) -> R> Drop for Torn<O, R, T> {
    fn drop(&mut self) {
        if let Some(out) = self.out.take() {
            drop((self.teardown)(out));
        }
    }
}

/// The bench binary: registers every group, says once what it does not
/// honour, runs the benchmarks as the command line asks (each `setup`
/// before the first benchmark that needs it), then the `teardown`s of the
/// setups that ran; the exit code.
pub fn run(
    groups: &[fn(&mut Registrar)],
    setup: Option<fn()>,
    teardown: Option<fn()>,
    config: Option<MainConfig>,
) -> i32 {
    let mut r = Registrar {
        main: Rc::new(Stage::new(setup, teardown)),
        ..Registrar::default()
    };
    match config {
        Some(MainConfig::Library) => r.unhonoured("config"),
        Some(MainConfig::Binary(c)) => r.configs = (c.clone(), c),
        None => {}
    }
    for g in groups {
        g(&mut r);
    }
    if let Some(code) = crate::beside::run_if_asked(&r.setups) {
        return code;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let protocol = args.iter().any(|a| a.starts_with("--nbench"));
    if !protocol {
        for option in &r.unhonoured {
            eprintln!(
                "note: gungraun's `{option}` is accepted and not honoured: cargo nbench decides \
                 what is measured (`--metrics time,instructions` counts instructions too)"
            );
        }
    }
    let code = nbench::__private::modes::code(&r.registry, args);
    r.stages.iter().for_each(|s| s.leave());
    r.main.leave();
    i32::from(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_torn_output_is_given_to_its_teardown_once_when_dropped() {
        let seen = Cell::new(0);
        let torn = Torn::new(7, |v: i32| seen.set(seen.get() + v));
        assert_eq!(seen.get(), 0);
        drop(torn);
        assert_eq!(seen.get(), 7);
    }

    #[test]
    fn benches_are_named_under_their_group() {
        let mut r = Registrar::default();
        r.add("alone", |_| {});
        r.group("g", None, None);
        r.add("f::short", |_| {});
        assert_eq!(r.registry.ids(), ["alone", "g::f::short"]);
    }

    #[test]
    fn a_groups_setup_runs_once_before_its_first_benchmark_and_its_teardown_after() {
        thread_local!(static SAID: std::cell::RefCell<Vec<&'static str>> = Default::default());
        fn say(w: &'static str) {
            SAID.with(|s| s.borrow_mut().push(w));
        }
        let mut r = Registrar::default();
        r.group("g", Some(|| say("setup")), Some(|| say("teardown")));
        r.add("a", |_| say("a"));
        r.add("b", |b| {
            say("b");
            b.iter(|| 1)
        });
        r.group("h", Some(|| say("h setup")), None);
        // Registered, not run: nothing is set up.
        assert!(SAID.with(|s| s.borrow().is_empty()));
        let args = ["--bench", "--exact", "g::b"].map(String::from);
        let code = nbench::__private::modes::code(&r.registry, args);
        r.stages.iter().for_each(|s| s.leave());
        assert_eq!(code, 0);
        let said = SAID.with(|s| s.borrow().clone());
        assert_eq!(said.first(), Some(&"setup"), "{said:?}");
        assert_eq!(said.last(), Some(&"teardown"), "{said:?}");
        assert!(
            said.iter().all(|w| !w.starts_with('h') && *w != "a"),
            "{said:?}"
        );
        assert_eq!(
            said.iter().filter(|w| **w == "setup").count(),
            1,
            "{said:?}"
        );
    }
}
