//! Encoding messages as JSON lines and decoding them, with errors that say what was wrong.

use super::json::Json;
use super::{Command, Event, Listed};
use crate::counter::{Counter, CounterKind};
use crate::engine::Settings;
use crate::engine::{Hint, Stop};
use crate::family::Scaling;
use crate::metric::Metric;
use crate::result::{BenchResult, Versus};
use crate::stats::{OutlierMode, Summary};
use crate::throughput::Throughput;
use std::fmt;
use std::io::{BufRead, Read, Write};
use std::time::Duration;

/// A line longer than this is refused (the largest real one, 100 000 samples, is ~2.5 MB).
const MAX_LINE: usize = 64 << 20;

/// Room a line is read into before it grows: more than any command takes.
const LINE_CAPACITY: usize = 1024;

/// Why a message could not be read.
#[derive(Debug, Clone, PartialEq)]
pub enum ProtocolError {
    /// Reading or writing the channel failed.
    Io(std::io::ErrorKind, String),
    /// The channel closed in the middle of a line.
    Truncated(String),
    /// A complete line that is not a message this side understands.
    Malformed {
        /// The start of the line, for context.
        excerpt: String,
        /// What was wrong with it.
        reason: String,
    },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Io(_, e) => write!(f, "channel i/o failed: {e}"),
            ProtocolError::Truncated(excerpt) => {
                write!(f, "channel closed in the middle of a message: {excerpt:?}")
            }
            ProtocolError::Malformed { excerpt, reason } => {
                write!(f, "malformed message ({reason}): {excerpt:?}")
            }
        }
    }
}

impl std::error::Error for ProtocolError {}

/// Messages that travel as one JSON line.
pub trait Message: Sized {
    /// The JSON form.
    fn to_json(&self) -> Json;
    /// Back from the JSON form; `Err` names what is missing or wrong.
    fn from_json(v: &Json) -> Result<Self, String>;
}

/// Writes `msg` as one line and flushes.
///
/// The line is written in pieces, as its JSON is formatted: give it a
/// buffered writer (`BufWriter`), so that the flush sends the line in one
/// write. On a socket written directly each piece is a segment of its own,
/// and the reader wakes for every one (about ten a command).
///
/// ```
/// use nbench::__private::protocol::{Command, read_message, write_message};
/// let mut line = Vec::new();
/// write_message(&mut line, &Command::List).unwrap();
/// assert_eq!(line, b"{\"cmd\":\"list\"}\n");
/// let back: Command = read_message(&mut &line[..]).unwrap().unwrap();
/// assert_eq!(back, Command::List);
/// ```
pub fn write_message<M: Message>(w: &mut impl Write, msg: &M) -> Result<(), ProtocolError> {
    // Straight into the writer: a line built in a `String` first would grow
    // by the length of its numbers, and allocations whose sizes hang on
    // measured figures would leave each process's heap laid out its own way
    // for the benchmark that runs next.
    writeln!(w, "{}", msg.to_json())
        .and_then(|()| w.flush())
        .map_err(|e| ProtocolError::Io(e.kind(), e.to_string()))
}

/// Reads the next message; `Ok(None)` when the channel closed between messages.
pub fn read_message<M: Message>(r: &mut impl BufRead) -> Result<Option<M>, ProtocolError> {
    // One allocation of the same size whatever the line holds (see `write_message`).
    let mut buf = Vec::with_capacity(LINE_CAPACITY);
    let n = r
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)
        .map_err(|e| ProtocolError::Io(e.kind(), e.to_string()))?;
    if n == 0 {
        return Ok(None);
    }
    let excerpt = || {
        let s = String::from_utf8_lossy(&buf);
        s.trim_end().chars().take(200).collect::<String>()
    };
    if buf.last() != Some(&b'\n') {
        return Err(if buf.len() > MAX_LINE {
            malformed(excerpt(), "line too long".into())
        } else {
            ProtocolError::Truncated(excerpt())
        });
    }
    let text = std::str::from_utf8(&buf).map_err(|_| malformed(excerpt(), "not UTF-8".into()))?;
    let json = Json::parse(text.trim_end()).map_err(|e| malformed(excerpt(), e))?;
    M::from_json(&json)
        .map(Some)
        .map_err(|e| malformed(excerpt(), e))
}

fn malformed(excerpt: String, reason: String) -> ProtocolError {
    ProtocolError::Malformed { excerpt, reason }
}

// --- field helpers -----------------------------------------------------------

fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn s(v: &str) -> Json {
    Json::Str(v.to_owned())
}

fn num(v: f64) -> Json {
    Json::Num(v)
}

fn field<'a>(v: &'a Json, key: &str) -> Result<&'a Json, String> {
    v.get(key).ok_or_else(|| format!("missing field `{key}`"))
}

fn get_str(v: &Json, key: &str) -> Result<String, String> {
    field(v, key)?
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("field `{key}` is not a string"))
}

fn get_f64(v: &Json, key: &str) -> Result<f64, String> {
    match field(v, key)? {
        Json::Num(n) => Ok(*n),
        _ => Err(format!("field `{key}` is not a number")),
    }
}

fn get_u64(v: &Json, key: &str) -> Result<u64, String> {
    let n = get_f64(v, key)?;
    if n >= 0.0 && n.fract() == 0.0 && n <= 2f64.powi(53) {
        Ok(n as u64)
    } else {
        Err(format!("field `{key}` is not a whole number"))
    }
}

fn get_bool(v: &Json, key: &str) -> Result<bool, String> {
    match field(v, key)? {
        Json::Bool(b) => Ok(*b),
        _ => Err(format!("field `{key}` is not true or false")),
    }
}

fn get_arr<'a>(v: &'a Json, key: &str) -> Result<&'a [Json], String> {
    match field(v, key)? {
        Json::Arr(items) => Ok(items),
        _ => Err(format!("field `{key}` is not an array")),
    }
}

fn duration(ns: u64) -> Duration {
    Duration::from_nanos(ns)
}

// --- settings ----------------------------------------------------------------

fn settings_to_json(st: &Settings) -> Json {
    obj(vec![
        ("warm_up_ns", num(st.warm_up.as_nanos() as f64)),
        ("min_time_ns", num(st.min_time.as_nanos() as f64)),
        ("max_time_ns", num(st.max_time.as_nanos() as f64)),
        ("precision", num(st.precision)),
        ("min_samples", num(st.min_samples as f64)),
        ("max_samples", num(st.max_samples as f64)),
        ("timer_factor", num(st.timer_factor)),
        ("outliers", s(st.outliers.as_str())),
    ])
}

fn settings_from_json(v: &Json) -> Result<Settings, String> {
    Ok(Settings {
        warm_up: duration(get_u64(v, "warm_up_ns")?),
        min_time: duration(get_u64(v, "min_time_ns")?),
        max_time: duration(get_u64(v, "max_time_ns")?),
        precision: get_f64(v, "precision")?,
        min_samples: get_u64(v, "min_samples")? as usize,
        max_samples: get_u64(v, "max_samples")? as usize,
        timer_factor: get_f64(v, "timer_factor")?,
        outliers: outlier_mode_from_json(v)?,
    })
}

/// The `outliers` field; absent (a driver or binary of an earlier version) means the default.
fn outlier_mode_from_json(v: &Json) -> Result<OutlierMode, String> {
    match v.get("outliers") {
        None | Some(Json::Null) => Ok(OutlierMode::default()),
        Some(_) => {
            let name = get_str(v, "outliers")?;
            OutlierMode::parse(&name).ok_or_else(|| format!("unknown outlier mode `{name}`"))
        }
    }
}

// --- families ----------------------------------------------------------------

fn scaling_to_json(sc: &Scaling) -> Json {
    obj(vec![
        ("family", s(&sc.family)),
        ("n", num(sc.n)),
        ("complexity", s(&sc.complexity)),
        ("custom", sc.custom.map_or(Json::Null, num)),
    ])
}

fn scaling_from_json(v: &Json) -> Result<Scaling, String> {
    Ok(Scaling {
        family: get_str(v, "family")?,
        n: get_f64(v, "n")?,
        complexity: get_str(v, "complexity")?,
        custom: match field(v, "custom")? {
            Json::Null => None,
            _ => Some(get_f64(v, "custom")?),
        },
    })
}

fn hint_to_json(h: &Hint) -> Json {
    obj(vec![
        ("time", num(h.time)),
        ("warm_up", num(h.warm_up)),
        ("samples", num(h.samples)),
    ])
}

fn hint_from_json(v: &Json) -> Result<Hint, String> {
    Ok(Hint {
        time: get_f64(v, "time")?,
        warm_up: get_f64(v, "warm_up")?,
        samples: get_f64(v, "samples")?,
    })
}

// --- results -----------------------------------------------------------------

fn throughput_to_json(t: Option<Throughput>) -> Json {
    match t {
        None => Json::Null,
        Some(Throughput::Bytes(n)) => obj(vec![("bytes", num(n as f64))]),
        Some(Throughput::Items(n)) => obj(vec![("items", num(n as f64))]),
    }
}

fn throughput_from_json(v: &Json) -> Result<Option<Throughput>, String> {
    match field(v, "throughput")? {
        Json::Null => Ok(None),
        t if t.get("bytes").is_some() => Ok(Some(Throughput::Bytes(get_u64(t, "bytes")?))),
        t if t.get("items").is_some() => Ok(Some(Throughput::Items(get_u64(t, "items")?))),
        _ => Err("field `throughput` is neither bytes nor items".into()),
    }
}

/// Pushes `counters` as a field, unless there are none (which readers of
/// earlier versions never sent).
fn push_counters(fields: &mut Vec<(&str, Json)>, counters: &[Counter]) {
    if counters.is_empty() {
        return;
    }
    let items = counters.iter().map(|c| {
        let mut f = vec![
            ("name", s(&c.name)),
            ("value", num(c.value)),
            ("kind", s(c.kind.as_str())),
        ];
        if c.binary {
            f.push(("binary", Json::Bool(true)));
        }
        obj(f)
    });
    fields.push(("counters", Json::Arr(items.collect())));
}

fn counters_from_json(v: &Json) -> Result<Vec<Counter>, String> {
    let items = match v.get("counters") {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(_) => get_arr(v, "counters")?,
    };
    items
        .iter()
        .map(|c| {
            let kind = get_str(c, "kind")?;
            Ok(Counter {
                name: get_str(c, "name")?,
                value: get_f64(c, "value")?,
                kind: CounterKind::parse(&kind)
                    .ok_or_else(|| format!("unknown counter kind `{kind}`"))?,
                binary: c.get("binary").is_some() && get_bool(c, "binary")?,
                // Sent values are final: already summed or averaged over threads.
                averaged: false,
            })
        })
        .collect()
}

/// Adds `metric` unless it is wall time (what a message without one means).
fn push_metric(fields: &mut Vec<(&'static str, Json)>, metric: Metric) {
    if metric != Metric::WallTime {
        fields.push(("metric", s(metric.as_str())));
    }
}

fn metric_from_json(v: &Json) -> Result<Metric, String> {
    match v.get("metric") {
        None | Some(Json::Null) => Ok(Metric::WallTime),
        Some(_) => {
            let name = get_str(v, "metric")?;
            Metric::parse(&name).ok_or_else(|| format!("unknown metric `{name}`"))
        }
    }
}

fn result_to_json(r: &BenchResult) -> Json {
    let mut fields = vec![
        ("event", s("result")),
        ("id", s(&r.id)),
        ("iters", num(r.iters as f64)),
        ("cold_ns", num(r.cold)),
        ("overhead_ns", num(r.overhead)),
        ("near_floor", Json::Bool(r.near_floor)),
        ("stop", s(r.stop.as_str())),
        ("outliers", s(r.outlier_mode.as_str())),
        ("throughput", throughput_to_json(r.throughput)),
    ];
    push_counters(&mut fields, &r.counters);
    push_metric(&mut fields, r.metric);
    if let Some(v) = &r.versus {
        let ci = Json::Arr(v.ci.iter().map(|&c| num(c)).collect());
        let versus = obj(vec![
            ("baseline", s(&v.baseline)),
            ("ratio", num(v.ratio)),
            ("ci", ci),
        ]);
        fields.push(("versus", versus));
    }
    if r.is_baseline {
        fields.push(("is_baseline", Json::Bool(true)));
    }
    fields.push((
        "per_iter_ns",
        Json::Arr(r.per_iter.iter().map(|&t| num(t)).collect()),
    ));
    obj(fields)
}

fn result_from_json(v: &Json) -> Result<BenchResult, String> {
    let per_iter = get_arr(v, "per_iter_ns")?
        .iter()
        .map(|t| t.as_f64().ok_or("field `per_iter_ns` holds a non-number"))
        .collect::<Result<Vec<f64>, _>>()?;
    // The summary is recomputed here from the samples, with the same code the harness uses.
    let outlier_mode = outlier_mode_from_json(v)?;
    let summary = Summary::with_outliers(&per_iter, outlier_mode)
        .map_err(|e| format!("field `per_iter_ns`: {e}"))?;
    let stop = get_str(v, "stop")?;
    let stop = Stop::parse(&stop).ok_or_else(|| format!("unknown stop reason `{stop}`"))?;
    Ok(BenchResult {
        id: get_str(v, "id")?,
        metric: metric_from_json(v)?,
        summary,
        per_iter,
        iters: get_u64(v, "iters")?,
        cold: get_f64(v, "cold_ns")?,
        overhead: get_f64(v, "overhead_ns")?,
        near_floor: get_bool(v, "near_floor")?,
        stop,
        outlier_mode,
        throughput: throughput_from_json(v)?,
        counters: counters_from_json(v)?,
        versus: versus_from_json(v)?,
        is_baseline: v.get("is_baseline").is_some() && get_bool(v, "is_baseline")?,
        // Pooling happens where the measurements meet, never on the wire.
        repeat_medians: Vec::new(),
        cut_short: None,
    })
}

fn versus_from_json(v: &Json) -> Result<Option<Versus>, String> {
    let Some(x) = v.get("versus").filter(|x| **x != Json::Null) else {
        return Ok(None);
    };
    let ci = get_arr(x, "ci")?;
    let bound = |i: usize| {
        ci.get(i)
            .and_then(Json::as_f64)
            .ok_or("field `versus.ci` is not two numbers")
    };
    Ok(Some(Versus {
        baseline: get_str(x, "baseline")?,
        ratio: get_f64(x, "ratio")?,
        ci: [bound(0)?, bound(1)?],
    }))
}

// --- the two message sets ----------------------------------------------------

impl Message for Command {
    fn to_json(&self) -> Json {
        match self {
            Command::List => obj(vec![("cmd", s("list"))]),
            Command::Run { id, settings } => obj(vec![
                ("cmd", s("run")),
                ("id", s(id)),
                ("settings", settings_to_json(settings)),
            ]),
            Command::Once { id } => obj(vec![("cmd", s("once")), ("id", s(id))]),
            Command::Paired { id, overhead } => {
                let mut f = vec![("cmd", s("paired")), ("id", s(id))];
                if let Some(o) = overhead {
                    f.push(("overhead_ns", num(*o)));
                }
                obj(f)
            }
            Command::Sample { iters } => {
                obj(vec![("cmd", s("sample")), ("iters", num(*iters as f64))])
            }
            Command::Finish => obj(vec![("cmd", s("finish"))]),
            Command::Fork => obj(vec![("cmd", s("fork"))]),
            Command::Join => obj(vec![("cmd", s("join"))]),
            Command::Quit => obj(vec![("cmd", s("quit"))]),
        }
    }

    fn from_json(v: &Json) -> Result<Command, String> {
        match get_str(v, "cmd")?.as_str() {
            "list" => Ok(Command::List),
            "run" => Ok(Command::Run {
                id: get_str(v, "id")?,
                settings: settings_from_json(field(v, "settings")?)?,
            }),
            "once" => Ok(Command::Once {
                id: get_str(v, "id")?,
            }),
            "paired" => Ok(Command::Paired {
                id: get_str(v, "id")?,
                overhead: match v.get("overhead_ns") {
                    None => None,
                    Some(_) => Some(get_f64(v, "overhead_ns")?),
                },
            }),
            "sample" => Ok(Command::Sample {
                iters: get_u64(v, "iters")?,
            }),
            "finish" => Ok(Command::Finish),
            "fork" => Ok(Command::Fork),
            "join" => Ok(Command::Join),
            "quit" => Ok(Command::Quit),
            other => Err(format!("unknown command `{other}`")),
        }
    }
}

/// One benchmark of a `list` event.
fn listed_to_json(b: &Listed) -> Json {
    let mut fields = vec![("id", s(&b.id)), ("ignored", Json::Bool(b.ignored))];
    if let Some(sc) = &b.scaling {
        fields.push(("scaling", scaling_to_json(sc)));
    }
    if let Some(h) = &b.hint {
        fields.push(("hint", hint_to_json(h)));
    }
    obj(fields)
}

impl Message for Event {
    fn to_json(&self) -> Json {
        match self {
            Event::Hello {
                protocol,
                harness,
                token,
                forks,
            } => obj(vec![
                ("event", s("hello")),
                ("protocol", num(f64::from(*protocol))),
                ("harness", s(harness)),
                ("token", s(token)),
                ("forks", Json::Bool(*forks)),
            ]),
            Event::List(items) => obj(vec![
                ("event", s("list")),
                (
                    "benchmarks",
                    Json::Arr(items.iter().map(listed_to_json).collect()),
                ),
            ]),
            Event::Result(r) => result_to_json(r),
            Event::Failed { id, message } => obj(vec![
                ("event", s("failed")),
                ("id", s(id)),
                ("message", s(message)),
            ]),
            Event::Ready {
                id,
                cold,
                min_sample_ns,
                overhead,
                throughput,
                counters,
                metric,
                times_itself,
            } => {
                let mut fields = vec![
                    ("event", s("ready")),
                    ("id", s(id)),
                    ("cold_ns", num(*cold)),
                    ("min_sample_ns", num(*min_sample_ns)),
                    ("overhead_ns", num(*overhead)),
                    ("throughput", throughput_to_json(*throughput)),
                ];
                push_counters(&mut fields, counters);
                push_metric(&mut fields, *metric);
                if *times_itself {
                    fields.push(("times_itself", Json::Bool(true)));
                }
                obj(fields)
            }
            Event::Skipped { id, reason } => obj(vec![
                ("event", s("skipped")),
                ("id", s(id)),
                ("reason", s(reason)),
            ]),
            Event::Sampled { ns } => obj(vec![("event", s("sampled")), ("ns", num(*ns))]),
            Event::Done { id } => obj(vec![("event", s("done")), ("id", s(id))]),
            Event::Forked => obj(vec![("event", s("forked"))]),
            Event::Unforked { reason } => {
                obj(vec![("event", s("unforked")), ("reason", s(reason))])
            }
            Event::Joined => obj(vec![("event", s("joined"))]),
            Event::Error { message } => obj(vec![("event", s("error")), ("message", s(message))]),
        }
    }

    fn from_json(v: &Json) -> Result<Event, String> {
        match get_str(v, "event")?.as_str() {
            "hello" => Ok(Event::Hello {
                protocol: u32::try_from(get_u64(v, "protocol")?)
                    .map_err(|_| "protocol version out of range")?,
                harness: get_str(v, "harness")?,
                token: get_str(v, "token")?,
                forks: match v.get("forks") {
                    None => false,
                    Some(_) => get_bool(v, "forks")?,
                },
            }),
            "list" => Ok(Event::List(
                get_arr(v, "benchmarks")?
                    .iter()
                    .map(|b| {
                        Ok(Listed {
                            id: get_str(b, "id")?,
                            ignored: get_bool(b, "ignored")?,
                            scaling: match b.get("scaling") {
                                None | Some(Json::Null) => None,
                                Some(sc) => Some(scaling_from_json(sc)?),
                            },
                            hint: match b.get("hint") {
                                None | Some(Json::Null) => None,
                                Some(h) => Some(hint_from_json(h)?),
                            },
                        })
                    })
                    .collect::<Result<_, String>>()?,
            )),
            "result" => Ok(Event::Result(Box::new(result_from_json(v)?))),
            "failed" => Ok(Event::Failed {
                id: get_str(v, "id")?,
                message: get_str(v, "message")?,
            }),
            "ready" => Ok(Event::Ready {
                id: get_str(v, "id")?,
                cold: get_f64(v, "cold_ns")?,
                min_sample_ns: get_f64(v, "min_sample_ns")?,
                overhead: get_f64(v, "overhead_ns")?,
                throughput: throughput_from_json(v)?,
                counters: counters_from_json(v)?,
                metric: metric_from_json(v)?,
                times_itself: v.get("times_itself").is_some() && get_bool(v, "times_itself")?,
            }),
            "skipped" => Ok(Event::Skipped {
                id: get_str(v, "id")?,
                reason: get_str(v, "reason")?,
            }),
            "sampled" => Ok(Event::Sampled {
                ns: get_f64(v, "ns")?,
            }),
            "done" => Ok(Event::Done {
                id: get_str(v, "id")?,
            }),
            "forked" => Ok(Event::Forked),
            "unforked" => Ok(Event::Unforked {
                reason: get_str(v, "reason")?,
            }),
            "joined" => Ok(Event::Joined),
            "error" => Ok(Event::Error {
                message: get_str(v, "message")?,
            }),
            other => Err(format!("unknown event `{other}`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn round_trip<M: Message + PartialEq + fmt::Debug>(m: M) {
        let mut buf = Vec::new();
        write_message(&mut buf, &m).unwrap();
        assert_eq!(buf.iter().filter(|&&b| b == b'\n').count(), 1);
        let back: M = read_message(&mut Cursor::new(buf)).unwrap().unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn every_message_round_trips() {
        round_trip(Command::List);
        round_trip(Command::Quit);
        round_trip(Command::Paired {
            id: "p".into(),
            overhead: None,
        });
        round_trip(Command::Paired {
            id: "p".into(),
            overhead: Some(0.375),
        });
        round_trip(Command::Sample { iters: 1 << 40 });
        round_trip(Command::Finish);
        round_trip(Command::Fork);
        round_trip(Command::Join);
        round_trip(Command::Once { id: "g/a b".into() });
        round_trip(Event::Ready {
            id: "p".into(),
            cold: 10.5,
            min_sample_ns: 35_000.0,
            overhead: 0.25,
            throughput: Some(Throughput::Items(7)),
            counters: vec![Counter::rate("hits", 2.5).binary()],
            metric: Metric::CpuTime,
            times_itself: true,
        });
        // A harness that sends no metric measured wall time, with a loop of its own.
        let old = br#"{"event":"ready","id":"o","cold_ns":1,"min_sample_ns":2,"overhead_ns":0,"throughput":null}
"#;
        match read_message::<Event>(&mut &old[..]).unwrap() {
            Some(Event::Ready {
                metric,
                times_itself,
                ..
            }) => assert_eq!((metric, times_itself), (Metric::WallTime, false)),
            other => panic!("{other:?}"),
        }
        round_trip(Event::Skipped {
            id: "s".into(),
            reason: "no \"AVX2\"".into(),
        });
        round_trip(Event::Sampled { ns: 123_456.0 });
        round_trip(Event::Done { id: "p".into() });
        round_trip(Command::Run {
            id: "sort/std/10".into(),
            settings: Settings::default(),
        });
        round_trip(Event::Hello {
            protocol: 1,
            harness: "0.1.0".into(),
            token: "abc".into(),
            forks: true,
        });
        // An earlier harness's hello says nothing of forks: it cannot.
        let old = r#"{"event":"hello","protocol":1,"harness":"0.1.0","token":"t"}"#;
        let mut r = Cursor::new(format!("{old}\n").into_bytes());
        assert!(matches!(
            read_message::<Event>(&mut r).unwrap(),
            Some(Event::Hello { forks: false, .. })
        ));
        round_trip(Event::Forked);
        round_trip(Event::Joined);
        round_trip(Event::Unforked {
            reason: "threads".into(),
        });
        round_trip(Event::List(vec![
            Listed {
                id: "a".into(),
                ignored: true,
                scaling: None,
                hint: None,
            },
            Listed {
                id: "f/x/64".into(),
                ignored: false,
                scaling: Some(Scaling::new(
                    "f/x".into(),
                    64.0,
                    crate::Complexity::Custom("√N", f64::sqrt),
                )),
                hint: Some(Hint {
                    time: 4.0,
                    warm_up: 1.5,
                    samples: 0.1,
                }),
            },
        ]));
        round_trip(Event::Failed {
            id: "x".into(),
            message: "panicked at a.rs:1: \"boom\"\nline".into(),
        });
        round_trip(Event::Error {
            message: "no benchmark `q`".into(),
        });
        let per_iter = vec![1.25, 1.5, 0.1 + 0.2, 3e-5];
        round_trip(Event::Result(Box::new(BenchResult {
            id: "r".into(),
            metric: Metric::CpuTime,
            summary: Summary::with_outliers(&per_iter, OutlierMode::Top5).unwrap(),
            per_iter,
            iters: 1 << 33,
            cold: 17.5,
            overhead: 0.3,
            near_floor: false,
            stop: Stop::TimeLimit,
            outlier_mode: OutlierMode::Top5,
            throughput: Some(Throughput::Bytes(4096)),
            counters: vec![
                Counter::value("depth", 12.0),
                Counter::per_iteration("nodes", 0.5),
            ],
            versus: Some(Versus {
                baseline: "sort/std".into(),
                ratio: 0.75,
                ci: [0.7, 0.8],
            }),
            is_baseline: false,
            repeat_medians: Vec::new(),
            cut_short: None,
        })));
    }

    #[test]
    fn bad_lines_are_errors_with_context() {
        let read = |text: &str| read_message::<Event>(&mut Cursor::new(text.as_bytes().to_vec()));
        assert_eq!(read(""), Ok(None));
        assert!(
            matches!(read("{\"event\":\"hel"), Err(ProtocolError::Truncated(t)) if t.contains("hel"))
        );
        let e = read("{\"event\":\"hello\",\"protocol\":1}\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing field `harness`"), "{e}");
        let e = read("not json\n").unwrap_err().to_string();
        assert!(e.contains("malformed") && e.contains("not json"), "{e}");
        let e = read("{\"event\":\"dance\"}\n").unwrap_err().to_string();
        assert!(e.contains("unknown event `dance`"), "{e}");
        let e = read("{\"event\":\"result\",\"per_iter_ns\":[],\"id\":\"x\"}\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no samples"), "{e}");
    }
}
