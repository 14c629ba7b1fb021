//! Running the built bench binaries: one protocol session per binary, restarted past any benchmark that kills it.

pub mod affinity;
mod child;
pub mod compare;
mod count_both;
pub mod count_sides;
pub mod counted_over;
pub mod counter;
pub mod counting;
pub mod counts;
mod epochs;
pub mod listings;
pub mod lockstep;
mod output;
mod page_cache;
pub mod paired;
mod placement;
pub mod schedule;
pub mod session;
mod session_error;
mod side_temps;
mod staged;

use crate::compare::estimate;
use crate::model::observer::Observer;
use crate::model::outcome::{Failure, Measured, NextRun, Outcome, TargetRun, Within, scalings};
use crate::model::partition::Partition;
use crate::model::target::Built;
use nbench::__private::engine::Settings;
use nbench::__private::engine::{Hint, Open};
use nbench::__private::protocol::{Event, Listed};
use nbench::__private::result::BenchResult;
use nbench::__private::select::{Filter, Selected};
use schedule::Schedule;
use session::{Session, SessionError};
use std::time::{Duration, Instant};

/// How to run every target.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Which benchmarks.
    pub filter: Filter,
    /// How to measure.
    pub settings: Settings,
    /// Which measuring limits nobody set, so that a benchmark's own hint
    /// (criterion's group settings) may scale them.
    pub open: Open,
    /// Per-benchmark time limit.
    pub timeout: Duration,
    /// Arguments after `--`, for every binary.
    pub extra_args: Vec<String>,
    /// Show the benchmarks' output as it comes.
    pub nocapture: bool,
    /// Repetitions, interleaved slices, launches.
    pub schedule: Schedule,
    /// The benchmarks a saved side holds, when the executable run is a
    /// baseline's: the others it registers count as filtered out.
    pub held: Option<Vec<String>>,
    /// `--partition`: the shard this run measures.
    pub partition: Option<Partition>,
    /// With `--partition slice:M/N`: how many benchmarks the filters
    /// selected in the targets measured before this one.
    pub selected_before: usize,
    /// `--metrics time,instructions`: count each benchmark's instructions too.
    pub instructions: bool,
    /// Each benchmark's estimates in earlier runs on this machine, by id:
    /// a fresh run's interval draws on them.
    pub earlier: std::collections::BTreeMap<String, estimate::History>,
}

impl Plan {
    /// Whether this run reports benchmark `id` of `label`, which only the
    /// baseline has, as gone: it passes the filters, and with
    /// `--partition` it is this shard's to report.
    pub fn reports_gone(&self, label: &str, id: &str) -> bool {
        self.filter.verdict(id, false) != Selected::FilteredOut
            && self.partition.is_none_or(|p| p.reports_gone(label, id))
    }

    /// Which of target `label`'s listed benchmarks this run measures.
    pub fn select(&self, label: &str, listed: Vec<Listed>) -> Picked {
        let total = listed.len();
        let unfound = (self.held.iter().flatten())
            .filter(|h| !listed.iter().any(|b| b.id == **h) && self.reports_gone(label, h))
            .cloned()
            .collect();
        let (mut chosen, mut elsewhere) = (Vec::new(), Vec::new());
        for b in listed {
            let verdict = self.filter.verdict(&b.id, b.ignored);
            let held = self.held.as_ref().is_none_or(|h| h.contains(&b.id));
            if verdict == Selected::FilteredOut || !held {
                continue;
            }
            let index = chosen.len() + elsewhere.len();
            match self.partition {
                Some(p) if !p.keeps(label, &b.id, index, self.selected_before) => {
                    elsewhere.push(b.id)
                }
                _ => chosen.push((b.id, verdict)),
            }
        }
        Picked {
            filtered_out: total - chosen.len() - elsewhere.len(),
            chosen,
            elsewhere,
            unfound,
        }
    }
}

/// What benchmarks' own configurations say of how long they take, from a listing.
#[derive(Debug, Default)]
pub(crate) struct Hints(Vec<(String, Hint)>);

impl Hints {
    pub(crate) fn new(listed: &[Listed]) -> Hints {
        Hints(
            listed
                .iter()
                .filter_map(|l| l.hint.map(|h| (l.id.clone(), h)))
                .collect(),
        )
    }

    /// How `plan` measures benchmark `id`: its settings, scaled by the
    /// benchmark's hint where nobody set them.
    pub(crate) fn settings(&self, plan: &Plan, id: &str) -> Settings {
        match self.0.iter().find(|(i, _)| i == id) {
            Some((_, hint)) => hint.apply(&plan.settings, plan.open),
            None => plan.settings.clone(),
        }
    }
}

/// What [`Plan::select`] picked from a target's listing.
#[derive(Debug, Default)]
pub struct Picked {
    /// The benchmarks to run, each with its verdict, in listed order.
    pub chosen: Vec<(String, Selected)>,
    /// How many the filters left out.
    pub filtered_out: usize,
    /// Selected, but another shard's (`--partition`).
    pub elsewhere: Vec<String>,
    /// Held by the saved side ([`Plan::held`]) and selected, but not
    /// registered by its executable now.
    pub unfound: Vec<String>,
}

/// What listing a bench target's benchmarks told.
pub(crate) struct Opened {
    /// Which of them this run measures.
    pub picked: Picked,
    /// Family members, by id.
    pub scalings: Vec<(String, nbench::__private::family::Scaling)>,
    /// Benchmarks' own hints, by id.
    pub hints: Hints,
}

/// Every benchmark id `built`'s binary registers, the ignored ones too.
pub fn list_ids(built: &Built, plan: &Plan) -> Result<Vec<String>, SessionError> {
    let mut session = Session::start(
        &built.exe,
        &built.target.package_root,
        &plan.extra_args,
        plan.nocapture,
        plan.timeout,
    )?;
    let listed = session.list(plan.timeout)?;
    session.finish();
    Ok(listed.into_iter().map(|l| l.id).collect())
}

/// Starts a target's binary and lists its benchmarks, in a process of its
/// own; `Err` is the target's failure when it cannot be started or listed
/// at all.
///
/// Its benchmarks are measured in fresh processes: listing
/// nbench-criterion's benchmarks runs the program's benchmark functions
/// whole, and what they do once per process (tracing's suite sets a global
/// default, which panics when done twice) is left for the measuring.
pub(crate) fn open(
    label: &str,
    start: &dyn Fn() -> Result<Session, SessionError>,
    plan: &Plan,
) -> Result<Opened, TargetRun> {
    let mut session = start().map_err(|e| target_failed(label, &e))?;
    let listed = session
        .list(plan.timeout)
        .map_err(|e| target_failed(label, &e))?;
    session.finish();
    let scalings = scalings(&listed);
    let hints = Hints::new(&listed);
    Ok(Opened {
        picked: plan.select(label, listed),
        scalings,
        hints,
    })
}

/// Lists, or measures, the selected benchmarks of one built target, as
/// often and in the order `plan.schedule` says, pooling each benchmark's
/// measurements.
pub fn run_target(
    built: &Built,
    plan: &Plan,
    list_only: bool,
    observer: &mut dyn Observer,
) -> TargetRun {
    let label = built.target.label();
    let start = || {
        Session::start(
            &built.exe,
            &built.target.package_root,
            &plan.extra_args,
            plan.nocapture,
            plan.timeout,
        )
    };
    let opened = match open(&label, &start, plan) {
        Ok(o) => o,
        Err(failed) => return failed,
    };
    let mut outcomes = if list_only {
        opened
            .picked
            .chosen
            .into_iter()
            .map(|(id, _)| Outcome::Listed(id))
            .collect()
    } else {
        let chosen = (opened.picked.chosen.as_slice(), &opened.hints);
        measure_scheduled(&label, chosen, &start, plan, observer)
    };
    mark_floors(&mut outcomes);
    if plan.instructions && !list_only {
        counts::count_into(built, plan, &mut outcomes, observer);
    }
    TargetRun {
        label,
        outcomes,
        filtered_out: opened.picked.filtered_out,
        elsewhere: opened.picked.elsewhere,
        scalings: opened.scalings,
    }
}

/// Measures the `chosen` benchmarks that are to run, as `plan.schedule`
/// says; returns every chosen benchmark's outcome in listed order.
fn measure_scheduled(
    label: &str,
    (chosen, hints): (&[(String, Selected)], &Hints),
    start: &dyn Fn() -> Result<Session, SessionError>,
    plan: &Plan,
    observer: &mut dyn Observer,
) -> Vec<Outcome> {
    // Each benchmark to measure gets a slot collecting its measurements.
    let mut slots: Vec<Slot> = Vec::new();
    let slot_of: Vec<Option<usize>> = chosen
        .iter()
        .map(|(_, v)| {
            (*v == Selected::Run).then(|| {
                slots.push(Slot::default());
                slots.len() - 1
            })
        })
        .collect();
    let tasks = plan.schedule.tasks(slots.len());
    for t in &tasks {
        slots[t.slot].left += 1;
    }
    let ids: Vec<&str> = chosen
        .iter()
        .zip(&slot_of)
        .filter(|(_, s)| s.is_some())
        .map(|((id, _), _)| id.as_str())
        .collect();
    let mut outcomes = Vec::new();
    let mut session: Option<Session> = None;
    let mut launch = 0;
    for (n, task) in tasks.iter().enumerate() {
        let (slot, id) = (&mut slots[task.slot], ids[task.slot]);
        let own = hints.settings(plan, id);
        let (settings, budget) = (plan.schedule.settings(&own), plan.schedule.budget(&own));
        slot.left -= 1;
        slot.planned += 1;
        if slot.done.is_none() && slot.parts.len() >= slot.room(budget) {
            // The time limit bounds a benchmark's whole measuring: a
            // sample longer than a measurement's share of it leaves room
            // for fewer measurements than planned.
            slot.cut = true;
        } else if slot.done.is_none() {
            if task.launch != launch || slot.alone {
                // A new launch: the next measurement starts a fresh process.
                launch = task.launch;
                end(&mut session);
            }
            observer.start(label, id, n + 1, tasks.len());
            match measure_in_turn(slot, &mut session, start, id, (&settings, plan.timeout)) {
                Ok(m) => slot.parts.push((task.launch, m)),
                Err(outcome) => slot.done = Some(outcome),
            }
        }
        // Benchmarks whose measurements are all taken, in listed order.
        while let Some((id, _)) = chosen.get(outcomes.len()) {
            match slot_of[outcomes.len()] {
                None => outcomes.push(Outcome::Ignored(id.clone())),
                Some(i) if slots[i].left == 0 => {
                    let earlier = plan.earlier.get(id.as_str());
                    outcomes.push(slots[i].finish(id, earlier.unwrap_or(&Default::default())));
                }
                Some(_) => break,
            }
        }
        observer.observe(label, &outcomes);
    }
    // Ignored ones after the last measured (or all of them, with nothing to measure).
    for (id, _) in &chosen[outcomes.len()..] {
        outcomes.push(Outcome::Ignored(id.clone()));
    }
    observer.observe(label, &outcomes);
    observer.clear();
    if let Some(s) = session {
        s.finish();
    }
    outcomes
}

/// One benchmark's measurements so far.
#[derive(Default)]
struct Slot {
    /// Each with the process (launch) that took it.
    parts: Vec<(usize, Measured)>,
    /// How it ended early (failed, skipped): no more measurements are taken.
    done: Option<Outcome>,
    /// Measurements still scheduled.
    left: usize,
    /// Measurements scheduled in all.
    planned: usize,
    /// Whether the time limit left some of them untaken.
    cut: bool,
    /// Whether it is measured in processes of its own: it failed in one
    /// where other benchmarks had run.
    alone: bool,
}

/// Measures `slot`'s benchmark `id` once in `session` (see [`measure`]).
/// One that panics where other benchmarks ran before it is measured again
/// in a process of its own, and in processes of its own from then on: what
/// they left (a global the program sets once per process, which
/// nbench-criterion's walk to it sets again) may be why.
fn measure_in_turn(
    slot: &mut Slot,
    session: &mut Option<Session>,
    start: &dyn Fn() -> Result<Session, SessionError>,
    id: &str,
    (settings, timeout): (&Settings, Duration),
) -> Result<Measured, Outcome> {
    let shared = session.is_some();
    let mut got = measure(session, start, id, settings, timeout);
    if shared && session.is_some() && matches!(got, Err(Outcome::Failed(_))) {
        slot.alone = true;
        end(session);
        got = measure(session, start, id, settings, timeout);
    }
    if slot.alone {
        end(session);
    }
    got
}

/// Ends the session, if there is one.
fn end(session: &mut Option<Session>) {
    if let Some(s) = session.take() {
        s.finish();
    }
}

impl Slot {
    /// How many measurements the time limit `budget` has room for, each
    /// taking at least one sample: as many as planned unless one sample of
    /// the first measurement takes more than its share.
    fn room(&self, budget: Duration) -> usize {
        let Some((_, first)) = self.parts.first() else {
            return usize::MAX;
        };
        let r = &first.result;
        let sample_ns = r.iters as f64 * (r.summary.median.max(0.0) + r.overhead.max(0.0));
        if sample_ns <= 0.0 || !sample_ns.is_finite() {
            return usize::MAX;
        }
        ((budget.as_nanos() as f64 / sample_ns).floor() as usize).max(1)
    }

    /// The benchmark's outcome: its measurements pooled, or how it ended.
    /// Measured in several processes, its median and interval are the
    /// estimate over those processes ([`estimate::estimate`]); the pooled
    /// samples' own are kept as the within-process figures.
    fn finish(&mut self, id: &str, earlier: &estimate::History) -> Outcome {
        if let Some(done) = self.done.take() {
            return done;
        }
        let elapsed_s = self.parts.iter().map(|(_, m)| m.elapsed_s).sum();
        let parts = std::mem::take(&mut self.parts);
        let medians = epochs::even_overhead(&parts);
        let per_process = epochs::process_medians(&parts, &medians);
        let results = parts.into_iter().map(|(_, m)| m.result).collect();
        let mut result = match BenchResult::pool(results) {
            Ok(result) => result,
            Err(e) => {
                return Outcome::Failed(Failure {
                    id: id.to_owned(),
                    reason: e.to_string(),
                    output: String::new(),
                });
            }
        };
        if self.cut {
            result.cut_short = Some(self.planned);
        }
        if result.repeat_medians.len() == medians.len() {
            result.repeat_medians = medians;
        }
        let s = &mut result.summary;
        let half = estimate::half_step_ns(result.iters);
        let within = Within {
            median: s.median,
            median_ci: estimate::at_least(s.median, [s.median_ci.lo, s.median_ci.hi], half),
        };
        let over_epochs = estimate::estimate(&per_process, half, earlier);
        let (median, ci) = match over_epochs {
            Some(e) => (e.ns, e.ci),
            None => (within.median, within.median_ci),
        };
        s.median = median;
        (s.median_ci.lo, s.median_ci.hi) = (ci[0], ci[1]);
        let within = over_epochs.map(|_| within);
        Outcome::Measured(Box::new(Measured {
            result,
            elapsed_s,
            within,
            besides: Default::default(),
            floor: None,
            next_run: over_epochs.map(|e| NextRun {
                level: estimate::NEXT_RUN_LEVEL,
                earlier_runs: e.earlier_runs,
                other_runs: e.other_runs,
            }),
        }))
    }
}

/// Measures benchmark `id` once in `session` (started by `start` when there
/// is none); `Err` is how it ended instead (failed, skipped). A session
/// that died or went astray is dropped, so the next measurement gets a fresh one.
pub(crate) fn measure(
    session: &mut Option<Session>,
    start: &dyn Fn() -> Result<Session, SessionError>,
    id: &str,
    settings: &Settings,
    timeout: Duration,
) -> Result<Measured, Outcome> {
    if session.is_none() {
        *session = Some(start().map_err(|e| failed(id.to_owned(), &e, String::new()))?);
    }
    let s = session.as_mut().expect("a session was just started");
    s.output.discard();
    let began = Instant::now();
    match s.run(id, settings, timeout) {
        Ok(Event::Result(r)) => Ok(Measured::of(*r, began.elapsed().as_secs_f64())),
        Ok(Event::Skipped { id, reason }) => Err(Outcome::Skipped { id, reason }),
        Ok(Event::Failed { message, .. }) | Ok(Event::Error { message }) => {
            s.output.settle();
            Err(Outcome::Failed(Failure {
                id: id.to_owned(),
                reason: message,
                output: s.output.take(),
            }))
        }
        Ok(other) => {
            let e = SessionError::Protocol(format!("unexpected answer {other:?}"));
            let out = s.output.take();
            *session = None;
            Err(failed(id.to_owned(), &e, out))
        }
        Err(e) => {
            s.output.settle();
            let out = s.output.take();
            // The process is gone (or was killed): the next benchmark gets a fresh one.
            *session = None;
            Err(failed(id.to_owned(), &e, out))
        }
    }
}

/// Marks each measured outcome whose median lies below what the clock
/// resolves per iteration (an empty body, once the loop's overhead is
/// taken off) with that floor, so that it reads as such.
pub fn mark_floors(outcomes: &mut [Outcome]) {
    for o in outcomes {
        let Outcome::Measured(m) = o else { continue };
        let r = &m.result;
        m.floor =
            nbench::__private::table::floor(r.summary.median, estimate::resolution_ns(), r.iters);
    }
}

/// A target whose binary could not be started or listed at all.
pub fn target_failed(label: &str, e: &SessionError) -> TargetRun {
    TargetRun {
        label: label.to_owned(),
        outcomes: vec![Outcome::Failed(Failure {
            id: String::new(),
            reason: e.to_string(),
            output: String::new(),
        })],
        filtered_out: 0,
        elsewhere: Vec::new(),
        scalings: Vec::new(),
    }
}

fn failed(id: String, e: &SessionError, output: String) -> Outcome {
    Outcome::Failed(Failure {
        id,
        reason: e.to_string(),
        output,
    })
}

#[cfg(test)]
mod tests;
