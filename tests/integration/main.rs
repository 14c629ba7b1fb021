//! End-to-end tests: fixture projects under `tests/fixtures/`, built by real cargo, run for real.

mod api;
mod baselines;
mod bencher;
mod cli;
mod counts;
mod criterion;
mod divan;
mod docs;
mod epochs;
mod families;
mod formats;
mod gungraun;
mod harness_modes;
mod helpers;
mod iai;
mod layouts;
mod libtest;
mod limits;
mod partition;
mod report;
mod revisions;
mod settings;
mod shapes;
mod swap;
mod tango;
