//! A benchmark's percentiles as stored: named fields, or the array older runs hold.

use super::float;
use serde::{Deserialize, Serialize};

/// Percentiles of a benchmark's samples, ns per iteration. Written as an
/// object with named fields; runs stored before that, as an array
/// `[p5, p25, p75, p95, p99]`, still read.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(from = "PercentilesStored")]
pub struct Percentiles {
    /// 5th percentile.
    #[serde(deserialize_with = "float::lenient")]
    pub p5: f64,
    /// 25th percentile (first quartile).
    #[serde(deserialize_with = "float::lenient")]
    pub p25: f64,
    /// 75th percentile (third quartile).
    #[serde(deserialize_with = "float::lenient")]
    pub p75: f64,
    /// 95th percentile.
    #[serde(deserialize_with = "float::lenient")]
    pub p95: f64,
    /// 99th percentile.
    #[serde(deserialize_with = "float::lenient")]
    pub p99: f64,
}

/// Either way percentiles have been stored.
#[derive(Deserialize)]
#[serde(untagged)]
enum PercentilesStored {
    Named {
        #[serde(deserialize_with = "float::lenient")]
        p5: f64,
        #[serde(deserialize_with = "float::lenient")]
        p25: f64,
        #[serde(deserialize_with = "float::lenient")]
        p75: f64,
        #[serde(deserialize_with = "float::lenient")]
        p95: f64,
        #[serde(deserialize_with = "float::lenient")]
        p99: f64,
    },
    Array([f64; 5]),
}

impl From<PercentilesStored> for Percentiles {
    fn from(p: PercentilesStored) -> Percentiles {
        let [p5, p25, p75, p95, p99] = match p {
            PercentilesStored::Named {
                p5,
                p25,
                p75,
                p95,
                p99,
            } => [p5, p25, p75, p95, p99],
            PercentilesStored::Array(a) => a,
        };
        Percentiles {
            p5,
            p25,
            p75,
            p95,
            p99,
        }
    }
}
