//! The work per iteration a benchmark declares, as records and comparisons hold it.

use serde::{Deserialize, Serialize};

/// Work per iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThroughputRecord {
    /// Bytes per iteration.
    Bytes(u64),
    /// Items per iteration.
    Items(u64),
}

impl ThroughputRecord {
    /// The amount, whatever its unit.
    pub fn amount(self) -> u64 {
        match self {
            ThroughputRecord::Bytes(n) | ThroughputRecord::Items(n) => n,
        }
    }

    /// Its unit, plural: `bytes` or `items`.
    pub fn unit(self) -> &'static str {
        match self {
            ThroughputRecord::Bytes(_) => "bytes",
            ThroughputRecord::Items(_) => "items",
        }
    }
}

impl From<nbench::Throughput> for ThroughputRecord {
    fn from(t: nbench::Throughput) -> ThroughputRecord {
        match t {
            nbench::Throughput::Bytes(n) => ThroughputRecord::Bytes(n),
            nbench::Throughput::Items(n) => ThroughputRecord::Items(n),
        }
    }
}
