//! Instructions counted on both sides of a comparison, after its time.

use super::{Plan, count_sides, counted_over, counting, counts};
use crate::model::comparison::TargetComparison;
use crate::model::observer::Observer;
use crate::model::outcome::Outcome;
use crate::model::target::Built;
use std::path::{Path, PathBuf};

/// Counts the compared benchmarks' instructions on both sides where
/// `plan` asks for them (`--metrics time,instructions`): each row gets
/// both sides' counts, each outcome its own side's; where a side could
/// not be counted, every outcome says why; one that times itself on
/// either side (`self_timed`) is not counted, and says why.
pub fn count_both(
    (built, base_dir): (&Built, Option<&Path>),
    (base_exes, cur_exes): (&[PathBuf], &[PathBuf]),
    (plan, observer): (&Plan, &mut dyn Observer),
    (outcomes, cmp, self_timed): (&mut [Outcome], &mut TargetComparison, &[String]),
) {
    if !plan.instructions || cmp.rows.is_empty() {
        return;
    }
    // A routine that times itself is not counted: its count would not tell.
    counts::besides_self_timed(outcomes, self_timed);
    // Both sides over the same iterations, from the baseline's time (or
    // this run's wall time per iteration, where inputs made outside the
    // timing cost far more).
    let wall = |id: &str| {
        outcomes.iter().find_map(|o| match o {
            Outcome::Measured(m) if m.result.id == id => counted_over::wall_ns(m),
            _ => None,
        })
    };
    let native: Vec<(String, counted_over::Native)> = (cmp.rows.iter())
        .filter(|r| !self_timed.contains(&r.id))
        .map(|r| {
            let (timed, wall) = (r.baseline + r.overhead, wall(&r.id));
            (r.id.clone(), counted_over::Native { timed, wall })
        })
        .collect();
    let timed = counted_over::timed_of(&native);
    let ids = counts::to_count_in(outcomes, native);
    if ids.is_empty() {
        return;
    }
    let limit = plan.timeout.saturating_mul(ids.len() as u32 + 1);
    // A side's layouts share its build's harness: one of each tells.
    let sides: Vec<&Path> = (base_exes.first().into_iter())
        .chain(cur_exes.first())
        .map(PathBuf::as_path)
        .collect();
    let how = counting::Way {
        extra_args: &plan.extra_args,
        limit,
        every_thread: counting::every_thread(&sides),
    };
    let dir = built.target.package_root.as_path();
    let base_dir = base_dir.unwrap_or(dir);
    let label = built.target.label();
    // Counts do not depend on what else runs: both sides at once, the
    // current side's processes shown.
    let mut shown = |b: usize, k: usize, of: usize| observer.counting(&label, b, k, of);
    let sides = count_sides::count_sides(
        ((base_exes, base_dir), (cur_exes, dir)),
        &ids,
        (how, &timed),
        &mut shown,
    );
    observer.clear();
    match sides {
        Ok(((base, base_failed), (cur, mut failed))) => {
            crate::compare::counts::attach(cmp, &base, &cur);
            for (id, why) in base_failed {
                let why = format!("on the baseline's side, {why}");
                failed.entry(id).or_insert(why);
            }
            counts::besides_from(outcomes, &ids, (&cur, &failed), how.every_thread);
        }
        Err(e) => counts::besides_failed(outcomes, &ids, &e.to_string()),
    }
}
