//! `--format bencher`: libtest's bench output, which continuous-benchmarking tools already read.

use crate::model::record::RunRecord;
use nbench::__private::libtest;

/// What `cargo bench` prints for each bench target, as libtest does:
/// `running N tests`, a `test TARGET::ID ... bench: N ns/iter (+/- D)` line
/// per measured benchmark (N the estimate, D the 5th-to-95th percentile
/// spread of its samples, libtest's winsorised range, at most N), `ignored`
/// and `FAILED` lines, and the `test result:` line. The lines follow
/// `nbench::__private::libtest`, shared with the bench binary's own
/// `--format bencher`.
pub fn render(run: &RunRecord) -> String {
    let mut out = String::new();
    for t in &run.targets {
        let count = t.benchmarks.len() + t.failures.len() + t.ignored.len() + t.skipped.len();
        out.push_str(&format!("\n{}\n", libtest::running(count)));
        let name = |id: &str| format!("{}::{id}", t.target);
        for b in &t.benchmarks {
            let p = &b.percentiles;
            let line = libtest::bench_line(&name(&b.id), b.median, p.p5, p.p95);
            out.push_str(&format!("{line}\n"));
        }
        for id in t.ignored.iter().chain(t.skipped.iter().map(|s| &s.id)) {
            out.push_str(&format!("test {} ... ignored\n", libtest::name(&name(id))));
        }
        for f in &t.failures {
            out.push_str(&format!(
                "test {} ... FAILED\n",
                libtest::name(&name(&f.id))
            ));
        }
        let result = libtest::result_line(&libtest::Tally {
            failed: t.failures.len(),
            ignored: t.ignored.len() + t.skipped.len(),
            measured: t.benchmarks.len(),
            filtered_out: t.filtered_out,
            secs: run.duration_s,
        });
        out.push_str(&format!("\n{result}\n"));
    }
    out
}
