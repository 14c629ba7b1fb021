//! The bench target's `main`, as `criterion_main!` writes it.

use crate::{args, listing, walk};
use std::process::ExitCode;

/// Lists the benchmarks `groups` reach, registers each with nbench as a
/// walk aimed at it, and runs them as the command line (criterion's, read
/// by `args::translate`) asks.
pub fn main(groups: &'static [fn()]) -> ExitCode {
    crate::own::BY_MACRO.store(true, std::sync::atomic::Ordering::Relaxed);
    let found = listing::listed(groups);
    let ids: Vec<String> = found.iter().map(|f| f.id.clone()).collect();
    let args = match args::translate(std::env::args().skip(1), &ids) {
        Ok(args::Translated::Run(args)) => args,
        Ok(args::Translated::Exit(code)) => return ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}\n\nFor more information, try '--help'.");
            return ExitCode::from(nbench::__private::modes::EXIT_USAGE);
        }
    };
    let mut registry = nbench::Registry::new();
    // The program makes the ids as it runs: one may hold a clock reading.
    registry.__ids_may_change();
    for f in found {
        let hint = f.limits.hint();
        let marks = registry.bench(&f.id.clone(), move |b| {
            if !walk::aimed_at(groups, &f, b) {
                panic!(
                    "`{}` was listed but not reached again: the program reaches other benchmarks each time its groups run",
                    f.id
                );
            }
        });
        if let Some(hint) = hint {
            marks.__hint(hint);
        }
    }
    nbench::__private::modes::run(&registry, args)
}
