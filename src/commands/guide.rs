//! The guide (`docs/`) quotes the code's constants: how many layouts, epochs,
//! copies, which thresholds. Each quote is checked here against the
//! constant it names, so a page cannot drift from the code: change a
//! constant and the page's sentence must change with it.

use crate::compare::estimate::{
    DEFAULT_EPOCHS, EPOCH_DOF, FAST_BAND, FAST_EPOCHS, HISTORY_RUNS, KEPT_WITHIN, NEXT_RUN_LEVEL,
    SET_ASIDE_SDS,
};
use crate::compare::estimators::FAR_MOST;
use crate::compare::far::{FAR, FAR_MIN_UNITS};
use crate::compare::joint::{COUNT_SHARE, MOVED_PAST_SPREAD, SAME_COUNT, STILL_TIME_REACH};
use crate::compare::rule::{EARLY_CLAIM_WIDENING, UNSTEADY};
use crate::config::DEFAULT_LAYOUTS;
use crate::run::counts::COUNT_PROCESSES;
use crate::run::lockstep::EARLY_UNITS;
use crate::run::paired::pace::{
    COPIES, COPY_AFTER, COPY_FROM, EPOCH, MIN_EPOCHS, MOST_EPOCHS_FACTOR,
};
use crate::store::KEEP_RUNS;

/// The default `--noise-threshold`, in percent, as the guide writes it.
const NOISE_THRESHOLD_PCT: f64 = 0.5;

fn page(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every quote of `(page, sentence)` is on its page, the sentence's words
/// wrapped as the page wraps them.
fn check(quotes: &[(&str, String)]) {
    let mut missing = Vec::new();
    for (name, quote) in quotes {
        let text = page(name).split_whitespace().collect::<Vec<_>>().join(" ");
        if !text.contains(quote.as_str()) {
            missing.push(format!("docs/{name}: `{quote}`"));
        }
    }
    assert!(
        missing.is_empty(),
        "quotes the code no longer bears out:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_guide_quotes_the_constants_of_comparing_as_they_are() {
    let most_epochs = MOST_EPOCHS_FACTOR as u128 * 800 / EPOCH.as_millis();
    check(&[
        (
            "deciding.md",
            format!("epochs of {} ms of sampling", EPOCH.as_millis()),
        ),
        (
            "deciding.md",
            format!("Each side is built in {DEFAULT_LAYOUTS} link layouts"),
        ),
        ("deciding.md", format!("once there are {EARLY_UNITS} units")),
        (
            "deciding.md",
            format!(
                "Where the first {COPY_AFTER} epochs spread more than {} %",
                COPY_FROM * 100.0
            ),
        ),
        (
            "deciding.md",
            format!("samples in {COPIES} copies of its pair"),
        ),
        (
            "deciding.md",
            format!("Copied epochs decide once they are {FAR_MIN_UNITS} or more"),
        ),
        (
            "deciding.md",
            format!("further than {FAR} robust standard deviations"),
        ),
        ("deciding.md", format!("From {FAR_MIN_UNITS} epochs on")),
        (
            "deciding.md",
            format!("more than 1/{} of the epochs", (1.0 / FAR_MOST).round()),
        ),
        ("deciding.md", format!("(and at least {MIN_EPOCHS} epochs)")),
        (
            "deciding.md",
            format!(
                "up to {MOST_EPOCHS_FACTOR} times its own epochs ({most_epochs} at the default)"
            ),
        ),
        (
            "deciding.md",
            format!("past {MOVED_PAST_SPREAD}× their spread"),
        ),
        (
            "deciding.md",
            format!("within ±{} %", STILL_TIME_REACH * NOISE_THRESHOLD_PCT),
        ),
        (
            "deciding.md",
            format!("`--noise-threshold` ({NOISE_THRESHOLD_PCT} %)"),
        ),
        (
            "deciding.md",
            format!("varies more than {UNSTEADY} times over"),
        ),
        (
            "deciding.md",
            format!("past it on one side even made {EARLY_CLAIM_WIDENING} times as wide"),
        ),
        (
            "comparing.md",
            format!("(`--noise-threshold`, default {NOISE_THRESHOLD_PCT} %)"),
        ),
        (
            "comparing.md",
            format!("built in {DEFAULT_LAYOUTS} link layouts"),
        ),
        (
            "revisions.md",
            format!("It is built in {DEFAULT_LAYOUTS} link layouts"),
        ),
    ]);
}

#[test]
fn the_guide_quotes_the_constants_of_counting_as_they_are() {
    check(&[
        (
            "instructions.md",
            format!("each side is counted in {COUNT_PROCESSES} processes"),
        ),
        (
            "instructions.md",
            format!("rules out ±{} %", STILL_TIME_REACH * NOISE_THRESHOLD_PCT),
        ),
        (
            "instructions.md",
            format!("the same (within {} %)", SAME_COUNT * 100.0),
        ),
        (
            "deciding.md",
            format!("instructions (within {} %, or still", SAME_COUNT * 100.0),
        ),
        (
            "instructions.md",
            format!(
                "half the threshold or more ({} % at the default)",
                COUNT_SHARE * NOISE_THRESHOLD_PCT
            ),
        ),
    ]);
}

#[test]
fn the_guide_quotes_the_constants_of_measuring_as_they_are() {
    check(&[
        ("measuring.md", format!("each of {DEFAULT_EPOCHS} epochs")),
        (
            "getting-started.md",
            format!("in {DEFAULT_EPOCHS} fresh processes"),
        ),
        (
            "getting-started.md",
            format!("(`runs/`, the last {KEEP_RUNS})"),
        ),
        ("settings.md", format!("| `epochs` | {DEFAULT_EPOCHS} |")),
        (
            "measuring.md",
            format!(
                "where the next run's median lands, {:.0} % of the time",
                NEXT_RUN_LEVEL * 100.0
            ),
        ),
        (
            "measuring.md",
            format!("this run's and up to {HISTORY_RUNS} earlier ones"),
        ),
        (
            "measuring.md",
            format!(
                "the range of the {FAST_EPOCHS} fastest within {:.0} % of the fastest",
                FAST_BAND * 100.0
            ),
        ),
        (
            "measuring.md",
            format!("counting for {EPOCH_DOF} degrees of freedom"),
        ),
        (
            "measuring.md",
            format!(
                "more than {SET_ASIDE_SDS} robust standard deviations and {:.0} % from its build's median",
                KEPT_WITHIN * 100.0
            ),
        ),
        (
            "settings.md",
            format!("| `layouts` | {DEFAULT_LAYOUTS} for baselines and comparisons |"),
        ),
    ]);
}

#[test]
fn the_default_noise_threshold_is_the_one_the_guide_gives() {
    use clap::Parser;
    let crate::cli::Cargo::Nbench(cli) = crate::cli::Cargo::parse_from(["cargo-nbench", "nbench"]);
    assert_eq!(cli.noise_threshold, NOISE_THRESHOLD_PCT);
}
