//! The drivers behind `Bencher`: what a timing call does when a benchmark is measured fully
//! ([`engine`]), in lockstep with another process ([`lockstep`]) or against its group's
//! baseline ([`versus`]), each run under [`guard`] so that a failure costs one benchmark.

pub mod engine;
pub mod guard;
pub mod lockstep;
mod versus;
