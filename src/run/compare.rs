//! A built target against a baseline: each benchmark measured in lockstep with the baseline's
//! executable where it starts and speaks this protocol, else measured alone and compared with
//! the baseline's stored samples.

use super::lockstep::{Compared, Doubt, Judged, Lockstep};
use super::paired::Side;
use super::placement::Placement;
use super::session::{Session, SessionError};
use super::side_temps::SideTemps;
use super::staged::Staged;
use super::{Hints, Picked, Plan, listings, measure, open, run_target};
use crate::compare::stored::{Current, Scope, against_stored, gone};
use crate::model::comparison::{NotCompared, TargetComparison};
use crate::model::observer::Observer;
use crate::model::outcome::{Outcome, TargetRun};
use crate::model::record::TargetRecord;
use crate::model::target::Built;
use crate::store::baselines::Baseline;
use nbench::__private::metric::Metric;
use nbench::__private::protocol::Listed;
use nbench::__private::select::Selected;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What the comparison of one target has to go on.
pub struct Against<'a> {
    /// The baseline's stored results for this target, if it has any.
    pub stored: Option<&'a TargetRecord>,
    /// The baseline's executables (one per link layout), or why there is none to run.
    pub exes: Result<Vec<PathBuf>, String>,
    /// Changes smaller than this are "unchanged" (0.01 = 1 %).
    pub threshold: f64,
    /// The folder the baseline's executables run in, where it differs from
    /// the current build's (a revision's kept checkout); `None`: the same.
    pub dir: Option<PathBuf>,
    /// The baseline's copies of the package binaries its executables run.
    pub bins: Vec<PathBuf>,
}

/// Compares one built target with the baseline: paired if the baseline's
/// executable starts and speaks this protocol, otherwise against its stored samples.
pub fn compare_target(
    built: &Built,
    against: Against<'_>,
    plan: &Plan,
    observer: &mut dyn Observer,
) -> (TargetRun, TargetComparison) {
    let label = built.target.label();
    let base_dir = against.dir.as_deref();
    let temps = SideTemps::new();
    let start_placed = placed_starter(built, base_dir, plan, &temps);
    let start = |side: Side, exe: &Path| start_placed(side, exe, None);
    let listed = (against.exes.clone())
        .and_then(|e| list_baseline(&|exe| start(Side::Baseline, exe), e, plan))
        .map(|(exes, ids)| (exes, held(ids, against.stored)));
    let (base_exes, base_ids) = match listed {
        Ok(found) => found,
        Err(why) => return unpaired(built, &against, plan, observer, why),
    };
    let (staged, _listed) = stage((&base_exes, &against.bins), built);
    let (base_exes, cur_exes) = (&staged.base, &staged.cur);
    let start_cur = || start(Side::Current, &built.exe);
    let opened = match open(&label, &start_cur, plan) {
        Ok(o) => o,
        Err(failed) => return (failed, TargetComparison::empty(&label)),
    };
    let saved = saved_ids(against.stored, &base_ids);
    let mut cmp = before_rows(&label, &opened.picked, &saved, plan);
    cmp.layouts = Some([base_exes.len(), cur_exes.len()]);
    let chosen = opened.picked.chosen;
    // Started for benchmarks the baseline does not have, measured on their own.
    let mut cur = None;
    let to_measure = chosen.iter().filter(|(_, v)| *v == Selected::Run).count();
    let mut pass = Pass::default();
    for (id, verdict) in chosen {
        if verdict == Selected::Ignored {
            pass.push(Outcome::Ignored(id), Compared::Nothing);
            continue;
        }
        pass.begin(observer, (&label, &id), to_measure);
        let settings = opened.hints.settings(plan, &id);
        let alone = |cur: &mut Option<Session>| {
            let one = measure(cur, &start_cur, &id, &settings, plan.timeout);
            one.map_or_else(|o| o, |m| Outcome::Measured(Box::new(m)))
        };
        if !base_ids.contains(&id) {
            cmp.new.push(id.clone());
            pass.push(alone(&mut cur), Compared::Nothing);
            continue;
        }
        let exes = (base_exes.as_slice(), cur_exes.as_slice());
        let lockstep = Lockstep::new(&start_placed, exes, (&id, to_measure));
        let judged = lockstep.compare(id.clone(), (plan, &settings), against.threshold);
        match &judged.compared {
            Compared::BaselineFailed(why) => pass.push_pair(mended(&id, why, alone(&mut cur))),
            _ => pass.take(judged),
        }
    }
    let how = (plan, &opened.hints, against.threshold);
    pass.resolve_doubts(&label, how, observer);
    let mut outcomes = std::mem::take(&mut pass.outcomes);
    for c in std::mem::take(&mut pass.compared) {
        c.add_to(&mut cmp);
    }
    close(observer, (&label, &outcomes), cur);
    super::mark_floors(&mut outcomes);
    super::count_both::count_both(
        (built, base_dir),
        (base_exes, cur_exes),
        (plan, observer),
        (&mut outcomes, &mut cmp, &pass.self_timed),
    );
    let run = TargetRun {
        label,
        outcomes,
        filtered_out: opened.picked.filtered_out,
        elsewhere: opened.picked.elsewhere,
        scalings: opened.scalings,
    };
    (run, cmp)
}

/// What benchmark `id`, which the baseline's code fails (`why`), gives
/// the comparison once this build's side measured it alone (`outcome`):
/// not compared, where it measured; nothing, where it fails here too and
/// its failure is the run's. A pull request that mends a benchmark is
/// not failed for the bug it mends.
fn mended(id: &str, why: &str, outcome: Outcome) -> (Outcome, Compared) {
    let compared = match &outcome {
        Outcome::Measured(_) => Compared::Not(NotCompared::baseline_failed(id, why)),
        _ => Compared::Nothing,
    };
    (outcome, compared)
}

/// The target's last outcomes shown, the display cleared, the current
/// side's process (if one is left) ended.
fn close(observer: &mut dyn Observer, (label, outcomes): (&str, &[Outcome]), cur: Option<Session>) {
    observer.observe(label, outcomes);
    observer.clear();
    if let Some(c) = cur {
        c.finish();
    }
}

/// Both sides' executables from paths of one length (`Staged`), for the
/// comparison's life; each side's keep the listing of the one that listed
/// first: the baseline's first, the build's own. Both sides' executables
/// and the package binaries they run (the baseline's copies `base_bins`)
/// are read from disk afresh.
fn stage(
    (base_exes, base_bins): (&[PathBuf], &[PathBuf]),
    built: &Built,
) -> (Staged, [listings::Alike; 2]) {
    let layouts = built.comparison_exes();
    let staged = Staged::new(base_exes, &layouts);
    // The package binaries they run come to be in memory the same way too:
    // as the linker wrote it, `steps` started 0.4–0.8 % slower than its
    // copy, and commands compared with themselves read slower on the
    // current side in 22 of 28 rows (`page_cache`).
    super::page_cache::read_afresh(&[base_bins, &built.bins].concat());
    let listed = [
        listings::alike(&base_exes[0], &[base_exes, &staged.base].concat()),
        listings::alike(&built.exe, &[layouts, staged.cur.clone()].concat()),
    ];
    (staged, listed)
}

/// Starts an executable of `built`'s target as `plan` runs it, with a
/// memory placement ([`Session::start_placed`]), in its package's folder
/// (the baseline's in `base_dir`, where that is another); a placed one
/// with its side's temporary folder of `temps`.
fn placed_starter<'a>(
    built: &'a Built,
    base_dir: Option<&'a Path>,
    plan: &'a Plan,
    temps: &'a SideTemps,
) -> impl Fn(Side, &Path, Option<u64>) -> Result<Session, SessionError> + 'a {
    move |side: Side, exe: &Path, place: Option<u64>| {
        let place = place.map(|seed| Placement {
            seed,
            tmp: temps.of(side),
        });
        let dir = match side {
            Side::Baseline => base_dir.unwrap_or(&built.target.package_root),
            Side::Current => &built.target.package_root,
        };
        Session::start_placed(
            exe,
            dir,
            &plan.extra_args,
            plan.nocapture,
            plan.timeout,
            place,
        )
    }
}

/// A target's benchmarks compared once each, in order, and what is left
/// for the ones in doubt.
#[derive(Default)]
struct Pass<'a> {
    outcomes: Vec<Outcome>,
    /// In the order of `outcomes`: what each gives the comparison.
    compared: Vec<Compared>,
    /// Comparisons the time limit ended unsettled: (position, doubt).
    doubts: Vec<(usize, Doubt<'a>)>,
    /// Sampling time benchmarks that settled early left unused.
    spare: Duration,
    /// Benchmarks begun (ignored ones are not).
    started: usize,
    /// Benchmarks whose routine times itself on either side (`iter_custom`).
    self_timed: Vec<String>,
}

impl<'a> Pass<'a> {
    /// A benchmark compared in lockstep: its outcome and what it gives
    /// the comparison, the time it left unused, its doubt if any.
    fn take(&mut self, judged: Judged<'a>) {
        self.spare += judged.unused;
        self.self_timed.extend(judged.self_timed);
        if let Some(doubt) = judged.doubt {
            self.doubts.push((self.outcomes.len(), doubt));
        }
        self.push(judged.outcome, judged.compared);
    }

    /// [`Pass::push`] of a pair.
    fn push_pair(&mut self, (outcome, compared): (Outcome, Compared)) {
        self.push(outcome, compared);
    }

    /// Benchmark `id` of `label` starts: the next of `of` to measure.
    fn begin(&mut self, observer: &mut dyn Observer, (label, id): (&str, &str), of: usize) {
        self.started += 1;
        observer.observe(label, &self.outcomes);
        observer.start(label, id, self.started, of);
    }

    fn push(&mut self, outcome: Outcome, compared: Compared) {
        self.outcomes.push(outcome);
        self.compared.push(compared);
    }

    /// Measures the benchmarks in doubt further, in turn, the nearest a
    /// verdict first ([`Doubt::need`]): each with an equal share of the
    /// spare time (what one leaves goes to the next), or, where that falls
    /// short of what one that can be decided wants ([`Doubt::wants`]), as
    /// much of the spare time as it wants; one that reads a change its
    /// epochs are too few to claim, at least its own time limit once more
    /// ([`Doubt::own_time`]), which the spare time does not pay for.
    fn resolve_doubts(
        &mut self,
        label: &str,
        (plan, hints, threshold): (&Plan, &Hints, f64),
        observer: &mut dyn Observer,
    ) {
        let mut doubts = std::mem::take(&mut self.doubts);
        doubts.sort_by(|a, b| a.1.need().total_cmp(&b.1.need()));
        let in_doubt = doubts.len();
        for (k, (at, doubt)) in doubts.into_iter().enumerate() {
            observer.observe(label, &self.outcomes);
            observer.further(label, doubt.id(), k + 1, in_doubt);
            let settings = hints.settings(plan, doubt.id());
            let own = doubt.own_time(&settings);
            let share = share(self.spare, in_doubt - k, doubt.wants(&settings)).max(own);
            let (judged, took) = doubt.resolve((plan, &settings), threshold, share);
            self.spare = self.spare.saturating_sub(took.saturating_sub(own));
            self.outcomes[at] = judged.outcome;
            self.compared[at] = judged.compared;
        }
    }
}

/// A doubt's share of `spare` among `left` doubts (itself included): an
/// equal one, or as much as it `wants` where that is more.
fn share(spare: Duration, left: usize, wants: Option<Duration>) -> Duration {
    let equal = spare / left.max(1) as u32;
    wants.map_or(equal, |w| w.min(spare).max(equal))
}

/// A target's comparison before its rows: the baseline's benchmarks this
/// side lacks (gone), and those this side holds and its saved executable
/// registers no more (not compared).
fn before_rows(label: &str, picked: &Picked, saved: &[String], plan: &Plan) -> TargetComparison {
    let mut cmp = TargetComparison::empty(label);
    cmp.gone = gone_here(label, saved, &picked.chosen, &picked.elsewhere, plan);
    cmp.not_compared = (picked.unfound.iter())
        .map(|id| {
            // The baseline's own id of it, gone too: said once, here.
            let was = (cmp.gone.iter()).position(|g| same_but_digits(g, id));
            NotCompared::unfound(id, was.map(|at| cmp.gone.remove(at)).as_deref())
        })
        .collect();
    cmp
}

/// Whether ids `a` and `b` differ in their digits alone (chrono's
/// `delayed_format/with_display/2026-12-05 02:53:11.28 +00:00`, made when
/// each run started).
fn same_but_digits(a: &str, b: &str) -> bool {
    let letters = |s: &str| {
        s.chars()
            .filter(|c| !c.is_ascii_digit())
            .collect::<String>()
    };
    letters(a) == letters(b)
}

/// The baseline's benchmarks ([`gone`]) that neither `chosen` here nor
/// another shard (`elsewhere`) measures.
fn gone_here(
    label: &str,
    base_ids: &[String],
    chosen: &[(String, Selected)],
    elsewhere: &[String],
    plan: &Plan,
) -> Vec<String> {
    let present: Vec<String> = (chosen.iter().map(|(id, _)| id.clone()))
        .chain(elsewhere.iter().cloned())
        .collect();
    let reported = |id: &str| plan.reports_gone(label, id);
    gone(base_ids.iter().map(String::as_str), &present, &reported)
}

/// What the baseline measured, for its gone list: its stored results' ids
/// where it has them, not what its executable lists now (an id made at
/// run time, a date, is listed anew by both executables, and the stored
/// one is gone); else the `listed` ones.
fn saved_ids(stored: Option<&TargetRecord>, listed: &[String]) -> Vec<String> {
    stored.map_or_else(
        || listed.to_vec(),
        |t| t.ran_ids().map(str::to_owned).collect(),
    )
}

/// The listed ids the baseline's stored results hold, or saw skip
/// themselves: a baseline saved with filters holds only those, whatever
/// its executable registers.
fn held(listed: Vec<String>, stored: Option<&TargetRecord>) -> Vec<String> {
    match stored {
        Some(t) => listed
            .into_iter()
            .filter(|id| t.ran_ids().any(|h| h == id))
            .collect(),
        None => listed,
    }
}

/// The baseline executable's benchmark ids, or why it cannot be compared with.
fn list_baseline(
    start: &dyn Fn(&Path) -> Result<Session, SessionError>,
    exes: Vec<PathBuf>,
    plan: &Plan,
) -> Result<(Vec<PathBuf>, Vec<String>), String> {
    let mut base =
        start(&exes[0]).map_err(|e| format!("the baseline executable did not start: {e}"))?;
    let ids = base
        .list(plan.timeout)
        .map_err(|e| format!("the baseline executable failed: {e}"))?;
    base.finish();
    Ok((exes, ids.into_iter().map(|b| b.id).collect()))
}

/// Measures the current build on its own and compares with the stored samples.
fn unpaired(
    built: &Built,
    against: &Against<'_>,
    plan: &Plan,
    observer: &mut dyn Observer,
    why: String,
) -> (TargetRun, TargetComparison) {
    let run = run_target(built, plan, false, observer);
    let current = run.outcomes.iter().filter_map(|o| match o {
        Outcome::Measured(m) => Some(Current {
            id: &m.result.id,
            median: m.result.summary.median,
            per_iter: &m.result.per_iter,
            metric: m.result.metric,
            throughput: m.result.throughput.map(Into::into),
            instructions: m.besides.get(Metric::Instructions.as_str()),
        }),
        _ => None,
    });
    let mut cmp = with_stored(
        &run.label,
        why,
        current,
        against.stored,
        &run.elsewhere,
        plan,
        against.threshold,
    );
    cmp.not_compared
        .extend(run.outcomes.iter().filter_map(|o| match o {
            Outcome::Skipped { id, reason } => Some(NotCompared::skipped(id, reason)),
            _ => None,
        }));
    (run, cmp)
}

/// Neither side can run (`why`): the stored samples of `cur` are compared
/// with the baseline's, those `plan` picks of them.
pub fn stored_only(
    base: &Baseline,
    cur: &TargetRecord,
    why: String,
    plan: &Plan,
    threshold: f64,
) -> (TargetRecord, TargetComparison) {
    // Picked as a run picks from a listing: filters, then this shard's share.
    let listed = cur.benchmarks.iter().map(|x| Listed {
        id: x.id.clone(),
        ignored: false,
        scaling: None,
        hint: None,
    });
    let picked = plan.select(&cur.target, listed.collect());
    let mut record = cur.clone();
    record
        .benchmarks
        .retain(|x| picked.chosen.iter().any(|(id, _)| *id == x.id));
    record.other_shards = picked.elsewhere.len();
    let current = record.benchmarks.iter().map(|c| Current {
        id: &c.id,
        median: c.median,
        per_iter: &c.per_iter,
        metric: c.metric,
        throughput: c.throughput,
        instructions: c.metrics.get(Metric::Instructions.as_str()),
    });
    let stored = base.run.targets.iter().find(|t| t.target == cur.target);
    // Benchmarks of `cur` that the filters or shard left out are not gone.
    let present: Vec<String> = cur.benchmarks.iter().map(|c| c.id.clone()).collect();
    let cmp = with_stored(&cur.target, why, current, stored, &present, plan, threshold);
    (record, cmp)
}

/// Target `label`'s `current` benchmarks compared with the baseline's
/// `stored` samples (no executable to pair with, because `why`); those the
/// current side holds `elsewhere` are not gone.
fn with_stored<'a>(
    label: &str,
    why: String,
    current: impl IntoIterator<Item = Current<'a>>,
    stored: Option<&TargetRecord>,
    elsewhere: &[String],
    plan: &Plan,
    threshold: f64,
) -> TargetComparison {
    let mut cmp = TargetComparison::empty(label);
    let base = stored.map(|t| t.benchmarks.as_slice()).unwrap_or_default();
    let listed = stored.map(|t| t.listed.as_slice()).unwrap_or_default();
    let reported = |id: &str| plan.reports_gone(label, id);
    let scope = Scope {
        elsewhere,
        reported: &reported,
        listed: (listed, &why),
    };
    cmp.unpaired_because = Some(why.clone());
    against_stored(&mut cmp, current, base, scope, threshold);
    cmp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_baseline_whose_executable_cannot_run_compares_nothing_and_says_why() {
        // A revision's baseline: two ids listed, no samples.
        let run = TargetRun {
            label: "p/t".into(),
            outcomes: ["a", "b"].map(|id| Outcome::Listed(id.into())).to_vec(),
            filtered_out: 0,
            elsewhere: Vec::new(),
            scalings: Vec::new(),
        };
        let stored = TargetRecord::from_run(&run);
        assert_eq!(stored.held_ids().collect::<Vec<_>>(), ["a", "b"]);
        let samples = [10.0, 11.0, 10.5];
        let current = ["a", "c"].map(|id| Current {
            id,
            median: 10.5,
            per_iter: &samples,
            metric: Metric::WallTime,
            throughput: None,
            instructions: None,
        });
        let plan = crate::run::Plan {
            filter: Default::default(),
            settings: Default::default(),
            open: nbench::__private::engine::Open::ALL,
            timeout: Duration::from_secs(1),
            extra_args: Vec::new(),
            nocapture: false,
            schedule: Default::default(),
            held: None,
            partition: None,
            selected_before: 0,
            instructions: false,
            earlier: Default::default(),
        };
        let why = "the baseline executable did not start: gone".to_owned();
        let cmp = with_stored("p/t", why, current, Some(&stored), &[], &plan, 0.005);
        assert!(cmp.rows.is_empty());
        assert_eq!(
            cmp.new,
            ["c"],
            "only what the baseline does not list is new"
        );
        assert_eq!(cmp.not_compared.len(), 1);
        assert_eq!(cmp.not_compared[0].id, "a");
        assert!(
            cmp.not_compared[0]
                .reason
                .contains("holds no samples of it")
                && cmp.not_compared[0].reason.ends_with("did not start: gone"),
            "{:?}",
            cmp.not_compared
        );
        assert_eq!(cmp.gone, ["b"].map(String::from));
    }

    #[test]
    fn a_doubt_that_can_be_decided_takes_what_it_wants_of_the_spare_time() {
        let ms = Duration::from_millis;
        // Nothing wanted (or less than an equal share): an equal share.
        assert_eq!(share(ms(900), 3, None), ms(300));
        assert_eq!(share(ms(900), 3, Some(ms(100))), ms(300));
        // More: what it wants, at most all there is.
        assert_eq!(share(ms(900), 3, Some(ms(500))), ms(500));
        assert_eq!(share(ms(900), 3, Some(ms(2000))), ms(900));
        assert_eq!(share(ms(900), 0, None), ms(900));
    }
}
