//! How a measured value's metric is stored: its name (`cpu_time`), left out
//! for wall time, so files written before metrics existed read as wall time
//! and wall-time files stay as they were.

use nbench::__private::metric::Metric;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// A metric measured beside a benchmark's time (instructions): its amount
/// per iteration and what was taken off it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Beside {
    /// Per iteration, the loop's own taken off; `None` where it could not
    /// be had (`note` says why).
    pub per_iter: Option<f64>,
    /// The loop's own per iteration, taken off `per_iter` (0 where nothing was).
    #[serde(default)]
    pub overhead: f64,
    /// Why the figure does not tell what the time does, or why there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Whether every thread's instructions were counted, or only those of
    /// the thread that times the benchmark (an older nbench's, or a CPU
    /// counter's).
    #[serde(default, skip_serializing_if = "is_false")]
    pub every_thread: bool,
}

fn is_false(b: &bool) -> bool {
    !b
}

/// The metrics measured beside a benchmark's time, each under its stored
/// name ([`Metric::as_str`]: `instructions`).
pub type Besides = BTreeMap<String, Beside>;

/// One benchmark's instructions per iteration, as one process counted them.
#[derive(Debug, Clone, PartialEq)]
pub struct Counted {
    /// Per iteration, the loop's own taken off.
    pub per_iter: f64,
    /// The loop's own per iteration (what was taken off; 0 where nothing was).
    pub overhead: f64,
    /// Why the count does not tell what the time does, where it does not.
    pub not_telling: Option<String>,
    /// Iterations the count was taken over (its longer dump): processes
    /// given the same iterations ran the same work, if the benchmark does.
    pub iters: u64,
}

/// One side's counts of each benchmark, one for each process it was counted in.
pub type SideCounts = BTreeMap<String, Vec<Counted>>;

/// Whether `m` is the metric a file without one means.
pub fn is_wall_time(m: &Metric) -> bool {
    *m == Metric::WallTime
}

/// Writes the metric's name.
pub fn serialize<S: Serializer>(m: &Metric, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.as_str())
}

/// Reads a metric's name; one this build does not know is an error naming it.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Metric, D::Error> {
    let name = String::deserialize(d)?;
    Metric::parse(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown metric `{name}`")))
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Holder {
        #[serde(default, with = "super", skip_serializing_if = "super::is_wall_time")]
        metric: nbench::__private::metric::Metric,
    }

    #[test]
    fn wall_time_is_left_out_and_read_back_by_default() {
        use nbench::__private::metric::Metric;
        let wall = Holder {
            metric: Metric::WallTime,
        };
        assert_eq!(serde_json::to_string(&wall).unwrap(), "{}");
        let cpu = Holder {
            metric: Metric::CpuTime,
        };
        let text = serde_json::to_string(&cpu).unwrap();
        assert_eq!(text, r#"{"metric":"cpu_time"}"#);
        assert_eq!(serde_json::from_str::<Holder>(&text).unwrap(), cpu);
        assert_eq!(serde_json::from_str::<Holder>("{}").unwrap(), wall);
        let odd = serde_json::from_str::<Holder>(r#"{"metric":"joules"}"#).unwrap_err();
        assert!(odd.to_string().contains("unknown metric `joules`"), "{odd}");
    }
}
