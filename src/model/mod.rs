//! The data every stage shares: bench targets, outcomes, the run record, comparisons, the context.
//!
//! Nothing here runs, builds or prints; the stages above produce and read these.

pub mod comparison;
pub mod context;
pub mod few;
pub mod float;
pub mod metric;
pub mod names;
pub mod not_compared;
pub mod observer;
pub mod outcome;
pub mod partition;
pub mod percentiles;
pub mod record;
pub mod said;
pub mod samples;
pub mod shuffle;
pub mod stable_hash;
pub mod target;
pub mod work;
