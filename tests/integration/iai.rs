//! An iai suite (`tests/fixtures/iai`) runs on nbench-iai under iai's
//! names, is counted, compiles unchanged against iai itself, and two
//! revisions of it on iai compare with iai swapped in their worktrees.

use crate::helpers::{Fixture, IAI_LINE, counted_run, counts_fib, listed};

#[test]
fn cargo_nbench_runs_an_iai_suite_under_iais_names_and_counts_it() {
    let fx = Fixture::new("iai");
    assert_eq!(
        listed(&fx, "oneshot/suite"),
        ["fib_10", "fib_15", "sum_vec"]
    );
    let json = counted_run(&fx);
    counts_fib(&json, "fib_10", "fib_15");
    crate::helpers::runs_once(&fx, "sum_vec");
}

#[test]
fn the_suite_compiles_unchanged_against_iai_itself() {
    let fx = Fixture::new("iai");
    // cargo nbench cannot drive iai itself, and says what to change.
    let said = "skipped bench target `oneshot/suite`: it uses iai; to run it unchanged, put \
                nbench-iai in iai's place: `iai = { package = \"nbench-iai\", git = \
                \"https://github.com/nbench-rs/cargo-nbench\" }`";
    let library = (IAI_LINE, "iai = \"=0.1.1\"", "iai.lock");
    crate::helpers::compiles_against_the_library(&fx, library, said);
}

#[test]
fn two_revisions_of_an_untouched_iai_suite_compare_with_the_swap_said() {
    let fx = Fixture::new("iai").own_target_dir();
    let said = "uses iai: building it with nbench-iai in iai's place (Cargo.toml)";
    crate::helpers::compare_swapped_fib(
        &fx,
        (IAI_LINE, "iai = \"0.1\"", "iai.lock"),
        ("NBENCH_IAI", "compat/iai"),
        ("fib_", said),
        ("fib_10", "fib_15"),
    );
}
