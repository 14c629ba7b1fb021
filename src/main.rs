//! `cargo nbench`: the subcommand's entry point.
fn main() {}
