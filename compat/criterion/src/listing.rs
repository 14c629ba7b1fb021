//! The listing kept for the other processes of one `cargo nbench` run.
//!
//! Listing the benchmarks means running the whole program (see `walk`): on
//! a suite of hundreds of benchmarks whose functions build their inputs
//! first, a quarter of a second in each process, and `cargo nbench` starts
//! a fresh pair of processes for every epoch of every comparison. Where it
//! names a directory for the run ([`LISTINGS_ENV`]), the first process of
//! a build writes what it listed there and the others read it: of one
//! executable, or of every executable `cargo nbench` gives one name
//! ([`LISTING_KEY_ENV`]: a build's link layouts, the same code with its
//! functions in another order). They list the same benchmarks, but for ids
//! made from a clock reading, which the walk finds by their place.

use crate::limits::Limits;
use crate::walk::{self, Found, Spot};
use nbench::__private::in_copy;
use nbench::__private::protocol::{LISTING_KEY_ENV, LISTINGS_ENV};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::time::Duration;

/// The first line of a kept listing.
const HEADER: &str = "nbench-criterion listing 1";

/// The benchmarks `groups` reach: as kept by an earlier process of this
/// run, else walked for (and kept, where the run keeps listings).
pub(crate) fn listed(groups: &[fn()]) -> Vec<Found> {
    if let Some(found) = kept() {
        return found;
    }
    let found = apart(groups);
    keep(&found);
    found
}

/// The listing an earlier process of this run kept for this executable.
pub(crate) fn kept() -> Option<Vec<Found>> {
    parse(&std::fs::read_to_string(kept_at()?).ok()?)
}

/// Keeps `found` for the other processes of this run, where it keeps listings.
pub(crate) fn keep(found: &[Found]) {
    let Some(path) = kept_at() else {
        return;
    };
    // Written whole, then renamed: a process reading it never sees a part.
    let part = path.with_extension(format!("part{}", std::process::id()));
    if std::fs::write(&part, write(found)).is_ok() {
        let _ = std::fs::rename(&part, &path);
    }
}

/// The benchmarks `groups` reach, walked for in a copy of the process
/// where one can be made ([`in_copy`]): what the program's functions do
/// once per process (tracing's suite sets its global default, and panics
/// where one was set) is then left for the walks that measure. Elsewhere,
/// walked for here.
fn apart(groups: &[fn()]) -> Vec<Found> {
    let copy = in_copy(|| write(&walk::list(groups)).into_bytes());
    let text = copy.and_then(|bytes| String::from_utf8(bytes).ok());
    match text.as_deref().and_then(parse) {
        Some(found) => found,
        None => walk::list(groups),
    }
}

/// Where this executable's listing is kept in this run, if the run keeps
/// listings: under the name `cargo nbench` gave its build
/// ([`LISTING_KEY_ENV`]), else a name for its path, size and time of
/// writing.
fn kept_at() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os(LISTINGS_ENV)?);
    let given = std::env::var(LISTING_KEY_ENV)
        .ok()
        .filter(|k| (1..=32).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_hexdigit()));
    let name = match given {
        Some(key) => key,
        None => {
            let exe = std::env::current_exe().ok()?;
            let meta = std::fs::metadata(&exe).ok()?;
            let mut hash = DefaultHasher::new();
            (&exe, meta.len(), meta.modified().ok()).hash(&mut hash);
            format!("{:016x}", hash.finish())
        }
    };
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join(format!("{name}.list")))
}

/// `found` as text: a header, then a line a benchmark.
fn write(found: &[Found]) -> String {
    let mut text = format!("{HEADER}\n");
    for f in found {
        let opt = |v: Option<u128>| v.map_or("-".to_owned(), |v| v.to_string());
        let fields = [
            f.spot.group.to_string(),
            opt(f.spot.target.map(|t| t as u128)),
            f.place.0.to_string(),
            f.place.1.to_string(),
            opt(f.limits.sample_size.map(|n| n as u128)),
            opt(f.limits.measurement_time.map(|d| d.as_nanos())),
            opt(f.limits.warm_up_time.map(|d| d.as_nanos())),
            escape(&f.id),
        ];
        text.push_str(&fields.join("\t"));
        text.push('\n');
    }
    text
}

/// What [`write`] wrote; `None` for anything else.
fn parse(text: &str) -> Option<Vec<Found>> {
    let mut lines = text.lines();
    if lines.next()? != HEADER || !text.ends_with('\n') {
        return None;
    }
    lines.map(parse_line).collect()
}

/// One benchmark's line.
fn parse_line(line: &str) -> Option<Found> {
    let mut fields = line.splitn(8, '\t');
    let mut number = || -> Option<Option<u128>> {
        match fields.next()? {
            "-" => Some(None),
            n => n.parse().ok().map(Some),
        }
    };
    let group = number()?? as usize;
    let target = number()?.map(|t| t as usize);
    let place = (number()?? as usize, number()?? as usize);
    let nanos = |n: Option<u128>| n.map(|n| Duration::from_nanos(n as u64));
    let limits = Limits {
        sample_size: number()?.map(|n| n as usize),
        measurement_time: nanos(number()?),
        warm_up_time: nanos(number()?),
    };
    Some(Found {
        id: unescape(fields.next()?)?,
        limits,
        spot: Spot { group, target },
        place,
    })
}

/// An id on one line: backslash, tab and line breaks escaped.
fn escape(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for c in id.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// What [`escape`] escaped.
fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            '\\' => match chars.next()? {
                '\\' => '\\',
                't' => '\t',
                'n' => '\n',
                'r' => '\r',
                _ => return None,
            },
            c => c,
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_listing_reads_back_as_it_was_found() {
        let found = vec![
            Found {
                id: "group/fn/1".to_owned(),
                limits: Limits::default(),
                spot: Spot {
                    group: 0,
                    target: Some(2),
                },
                place: (0, 0),
            },
            Found {
                id: "odd\tid\\with\nbreaks/é".to_owned(),
                limits: Limits {
                    sample_size: Some(10),
                    measurement_time: Some(Duration::from_secs(20)),
                    warm_up_time: Some(Duration::from_millis(1500)),
                },
                spot: Spot {
                    group: 1,
                    target: None,
                },
                place: (1, 1),
            },
        ];
        let text = write(&found);
        assert_eq!(text.lines().count(), 3, "{text}");
        assert_eq!(parse(&text), Some(found));
        // A part, another format or a broken line is not a listing.
        assert_eq!(parse(&text[..text.len() - 1]), None);
        assert_eq!(parse("nbench-criterion listing 0\n"), None);
        assert_eq!(parse(&format!("{HEADER}\n0\tx\t0\t0\t-\t-\t-\tid\n")), None);
        assert_eq!(
            parse(&format!("{HEADER}\n0\t-\t0\t0\t-\t-\t-\tbad\\q\n")),
            None
        );
        assert_eq!(parse(&format!("{HEADER}\n")), Some(Vec::new()));
    }
}
