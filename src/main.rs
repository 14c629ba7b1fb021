//! `cargo nbench`: the subcommand's entry point; everything lives in the library.

fn main() -> std::process::ExitCode {
    cargo_nbench::main()
}
