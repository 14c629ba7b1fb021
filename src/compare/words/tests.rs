//! What the words say of rows, checked against measured cases.

use super::*;

fn signal_note(r: &Row, threshold: f64) -> Option<RowNote> {
    signal_said(r, threshold).map(|(note, _)| note)
}

fn texts(notes: Vec<RowNote>) -> Vec<String> {
    notes.iter().map(RowNote::to_string).collect()
}

#[test]
fn a_row_whose_work_differs_says_so_with_the_change_per_unit() {
    use crate::model::comparison::{Row, Verdict};
    use crate::model::work::ThroughputRecord::{Bytes, Items};
    // hex's own suite encodes its src/lib.rs, which a change made 8.6 %
    // longer: 8.9 % more time per iteration, 0.3 % more per byte.
    let r = Row::example("encode/hex", 9_000.0, 0.0886, Verdict::Regressed);
    assert!(
        row_notes(std::slice::from_ref(&r), 0.005).is_empty(),
        "no work declared"
    );
    let same = r
        .clone()
        .with_work(Some(Bytes(16_274)), Some(Bytes(16_274)));
    assert_eq!(same.work_per_iter, None, "the same work is no news");
    let r = r.with_work(Some(Bytes(16_274)), Some(Bytes(17_671)));
    let (per, ci) = r.per_unit().unwrap();
    let expected = 1.0886 * 16_274.0 / 17_671.0 - 1.0;
    assert!((per - expected).abs() < 1e-12, "{per}");
    assert!(ci[0] < per && per < ci[1], "{ci:?}");
    assert_eq!(
        texts(row_notes(std::slice::from_ref(&r), 0.005)),
        [
            "encode/hex does 8.6% more work per iteration than the baseline (17671 bytes, \
          was 16274 bytes): its change is in time per iteration; per byte it is +0.25% \
          [+0.07%, +0.44%]"
        ]
    );
    // Rows whose work changed alike share one note, each with its own figure.
    let decode = Row::example("decode/hex", 17_840.0, 0.1524, Verdict::Regressed)
        .with_work(Some(Bytes(16_274)), Some(Bytes(17_671)));
    let plain = Row::example("len", 1.0, 0.0, Verdict::Unchanged);
    let notes = texts(row_notes(&[r.clone(), plain, decode], 0.005));
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("2 benchmarks do 8.6% more work per iteration")
            && notes[0].contains(
                "their changes are in time per iteration; per byte: \
                 encode/hex +0.25% [+0.07%, +0.44%], decode/hex +6.13%"
            ),
        "{notes:?}"
    );
    // Less work, in items.
    let fewer = Row::example("sort", 100.0, -0.5, Verdict::Improved)
        .with_work(Some(Items(1000)), Some(Items(500)));
    let note = &texts(row_notes(&[fewer], 0.005))[0];
    assert!(
        note.contains("does 50.0% less work") && note.contains("per item it is +0.00%"),
        "{note}"
    );
    // Work of another kind has no per-unit figure.
    let other = Row::example("sort", 100.0, 0.1, Verdict::Regressed)
        .with_work(Some(Items(1000)), Some(Bytes(4000)));
    assert_eq!(other.per_unit(), None);
    assert_eq!(
        texts(row_notes(&[other], 0.005)),
        [
            "sort declares other work per iteration than the baseline (4000 bytes, was 1000 \
          items): its change is in time per iteration"
        ]
    );
}

#[test]
fn a_row_near_the_timer_floor_says_what_change_counts() {
    use crate::model::comparison::{Row, Verdict};
    // This project's own `front_end/empty`: 0.1 ps past a 349 ps loop,
    // read 20 % faster and unchanged; a 5 ns body is not near it.
    let mut empty = Row::example("empty", 1e-4, -0.2, Verdict::Unchanged);
    empty.overhead = 0.349;
    let mut body = Row::example("5ns", 8.859, 0.0, Verdict::Unchanged);
    body.overhead = 0.349;
    assert_eq!(
        texts(row_notes(&[empty, body.clone()], 0.005)),
        [
            "empty takes 0.100 ps past its loop's overhead of 349.0 ps: a change counts \
          from ±1.745 ps (0.5% of the two together)"
        ]
    );
    // Overhead as long as the time past it: the threshold is twice the
    // noise threshold, and only past that is the note given.
    body.overhead = body.baseline;
    assert!(floor_note(&body, 0.005).is_none());
    body.overhead *= 1.01;
    assert!(floor_note(&body, 0.005).is_some());
}

#[test]
fn a_row_says_when_a_layout_was_left_out() {
    use crate::model::comparison::{Row, Verdict};
    let mut r = Row::example("vec_push", 100.0, 0.01, Verdict::Regressed);
    assert_eq!(placement_note(&r), None);
    r.layouts_left_out = 1;
    assert_eq!(
        placement_note(&r).map(|n| n.to_string()).as_deref(),
        Some("vec_push: one link layout ran far from the others and is left out of the change")
    );
    r.layout_spread = Some(0.05);
    // Too few epochs to part placement from the machine's noise.
    let note = placement_note(&r).unwrap().to_string();
    assert!(
        note.starts_with("vec_push moves ±5.0% between fresh processes in other link layouts"),
        "{note}"
    );
    r.placement_spread = Some(0.04);
    let note = placement_note(&r).unwrap().to_string();
    assert!(
        note.starts_with("vec_push moves ±5.0% with code placement alone"),
        "{note}"
    );
    assert!(note.ends_with("is left out of the change"), "{note}");
    // Where the layouts' own effects make little of it, the note says so.
    r.placement_spread = Some(0.01);
    let note = placement_note(&r).unwrap().to_string();
    assert!(
        note.starts_with(
            "vec_push moves ±5.0% between fresh processes, code placement ±1.0% of it"
        ),
        "{note}"
    );
    r.placement_spread = Some(0.04);
    assert!(
        placement_note(&r)
            .unwrap()
            .to_string()
            .starts_with("vec_push moves ±5.0% with code placement alone")
    );
}

use crate::model::comparison::CountChange;

/// Counts of a row: `change`, its pairs `spread` apart, one way.
fn counted(change: f64, spread: f64) -> CountChange {
    CountChange::example(change, spread)
}

#[test]
fn a_change_relinking_moves_is_held_back_and_says_why() {
    // A change so small that relinking moves it: held back, its reason
    // says both, and no note repeats it.
    let mut small = Row::example("btreeset/256", 2576.0, -0.0094, Verdict::Improved);
    (small.change_ci, small.p_value) = ([-0.0134, -0.0056], Some(0.0001));
    small.instructions = Some(counted(0.0, 0.0008));
    crate::compare::joint::decide(&mut small, 0.005, &Default::default());
    assert_eq!(small.verdict, Verdict::Inconclusive);
    assert_eq!(signal_note(&small, 0.005), None);
    assert_eq!(
        why_inconclusive(&small, 0.005),
        "time reads -1.3% … -0.6%, but both builds run the same instructions (+0.000%), and \
         a change within ±3% in the same code is what relinking it moves (code and data \
         placement): it is not claimed"
    );
    // One reaching past ±3 % but not wholly past it says so.
    (small.verdict, small.change_ci) = (Verdict::Regressed, [0.0118, 0.0415]);
    crate::compare::joint::decide(&mut small, 0.005, &Default::default());
    let why = why_inconclusive(&small, 0.005);
    assert!(why.contains("+4.2%, not wholly past ±3%, but"), "{why}");
}

#[test]
fn still_counts_and_counts_time_rules_out_say_why_they_did_not_decide() {
    use crate::model::comparison::Signal;
    // Unchanged by still counts: the row's columns say all of it.
    let mut still = Row::example("stride", 100.0, 0.001, Verdict::Unchanged);
    still.change_ci = [-0.009, 0.011];
    still.instructions = Some(counted(0.0, 0.0));
    still.decided_by = Some(Signal::Instructions);
    assert_eq!(signal_note(&still, 0.005), None);
    // Still counts, time too unsure for them to vouch for (base64's
    // `decode/30000000`): the note says why the counts did not decide.
    let mut wide = Row::example("decode/30000000", 9e6, 0.02, Verdict::Inconclusive);
    wide.change_ci = [-0.05, 0.09];
    wide.instructions = Some(counted(0.0, 0.0));
    crate::compare::joint::decide(&mut wide, 0.005, &Default::default());
    assert_eq!(wide.verdict, Verdict::Inconclusive);
    assert_eq!(
        signal_note(&wide, 0.005).unwrap().to_string(),
        "decode/30000000: instructions +0.00%, but time reads -5.00% … +9.00%, past the ±3% \
         within which the same instructions say unchanged: counts cannot see memory or caches"
    );
    // Counts that moved, time reaching far the other way (cut's
    // `cut_characters_long_lines`): the note says why they did not decide.
    let mut long = Row::example("long_lines", 1e7, 0.0, Verdict::Inconclusive);
    long.change_ci = [-0.195, 0.238];
    long.instructions = Some(counted(-0.0105, 0.0));
    crate::compare::joint::decide(&mut long, 0.005, &Default::default());
    assert_eq!(long.verdict, Verdict::Inconclusive);
    assert_eq!(
        signal_note(&long, 0.005).unwrap().to_string(),
        "long_lines: instructions -1.05%, but time reads -19.50% … +23.80%, reaching past \
         the 3% slower within which it must lie for counts to decide: counts cannot see \
         memory, caches or branches"
    );
    // Within that reach they say unchanged, and the row needs no note.
    (wide.change_ci, wide.p_value) = ([-0.02, 0.029], Some(0.5));
    wide.verdict = Verdict::Inconclusive;
    crate::compare::joint::decide(&mut wide, 0.005, &Default::default());
    assert_eq!(wide.verdict, Verdict::Unchanged);
    assert_eq!(signal_note(&wide, 0.005), None);
}

#[test]
fn a_counted_row_says_what_the_signal_that_did_not_decide_saw() {
    use crate::model::comparison::{CountChange, Signal};
    let mut r = Row::example("stride", 100.0, 1.1, Verdict::Regressed);
    r.instructions = Some(counted(0.0, 0.0));
    r.decided_by = Some(Signal::Time);
    let note = signal_note(&r, 0.005).unwrap().to_string();
    assert!(note.contains("outside the instruction stream"), "{note}");
    r.verdict = Verdict::Unchanged;
    r.change_ci = [-0.0056, 0.0035];
    r.instructions = Some(counted(0.078, 0.0008));
    let note = signal_note(&r, 0.005).unwrap().to_string();
    assert!(
        note.contains("+7.80%") && note.contains("further than time's interval"),
        "{note}"
    );
    // Decided the way the counts moved, by another amount: no note.
    let mut parse = Row::example("parse_from_rfc3339", 81.5, -0.66, Verdict::Improved);
    parse.change_ci = [-0.6685, -0.6505];
    parse.instructions = Some(counted(-0.5443, 0.0));
    parse.decided_by = Some(Signal::Time);
    assert_eq!(signal_note(&parse, 0.005), None);
    r.instructions = Some(counted(0.01, 0.034));
    let note = signal_note(&r, 0.005).unwrap().to_string();
    assert!(note.contains("3.4% apart"), "{note}");
    r.decided_by = Some(Signal::Instructions);
    r.instructions = Some(counted(0.01, 0.0));
    r.verdict = Verdict::Regressed;
    let note = signal_note(&r, 0.005).unwrap().to_string();
    assert!(
        note.starts_with("stride decided by instructions: +1.00%"),
        "{note}"
    );
    // A row whose time went against its counts says what that costs the others.
    r.verdict = Verdict::Regressed;
    r.change_ci = [0.009, 0.0128];
    r.decided_by = Some(Signal::Time);
    r.instructions = Some(counted(-0.0071, 0.0));
    let note = signal_note(&r, 0.005).unwrap().to_string();
    assert!(
        note.contains("moved opposite ways")
            && note.contains("counts that fell decide no row of this comparison"),
        "{note}"
    );
    // Counts that another row timed against decide nothing, and say why.
    r.decided_by = Some(Signal::Time);
    r.verdict = Verdict::Inconclusive;
    r.instructions = Some(CountChange {
        contrary: Some(crate::model::comparison::Contrary {
            id: "decode/3072".into(),
            counted: -0.0099,
            timed: 0.0092,
        }),
        ..counted(-0.0108, 0.0)
    });
    let note = signal_note(&r, 0.005).unwrap().to_string();
    assert!(
        note.contains("-1.08%")
            && note.contains("`decode/3072` counted -0.99% and timed +0.92%, slower")
            && note.contains("fewer instructions need not mean less time"),
        "{note}"
    );
    r.instructions.as_mut().unwrap().note = Some("threads".into());
    assert_eq!(
        texts(row_notes(std::slice::from_ref(&r), 0.005)),
        ["stride: instructions are not compared: threads"]
    );
}

#[test]
fn rows_not_compared_for_one_reason_share_a_note() {
    use crate::model::comparison::CountChange;
    let row = |id: &str, why: Option<&str>| {
        let mut r = Row::example(id, 10.0, 0.0, Verdict::Unchanged);
        r.instructions = Some(CountChange {
            note: why.map(str::to_owned),
            ..CountChange::example(0.0, 0.0)
        });
        r
    };
    let custom = Some("it times itself");
    let rows: Vec<Row> = (0..6).map(|i| row(&format!("hash/{i}"), custom)).collect();
    assert_eq!(
        texts(row_notes(&rows, 0.005)),
        ["every benchmark here (6): instructions are not compared: it times itself"]
    );
    let mut mixed = rows.clone();
    mixed.push(row("spawn", Some("threads")));
    mixed.push(row("plain", None));
    assert_eq!(
        texts(row_notes(&mixed, 0.005)),
        [
            "6 benchmarks (hash/0, hash/1, hash/2 and 3 more): instructions are not \
             compared: it times itself",
            "spawn: instructions are not compared: threads",
        ]
    );
    assert_eq!(
        texts(row_notes(&mixed[2..], 0.005))[0],
        "4 benchmarks (hash/2, hash/3, hash/4, hash/5): instructions are not compared: it \
         times itself"
    );
    // Counts one other row overruled: its figures once, each row's in the table.
    let overruled = |id: &str, change: f64| {
        let mut r = Row::example(id, 10.0, 0.0, Verdict::Unchanged);
        r.instructions = Some(CountChange {
            contrary: Some(crate::model::comparison::Contrary {
                id: "counts/0".into(),
                counted: -0.31,
                timed: 0.078,
            }),
            ..CountChange::example(change, 0.0)
        });
        r
    };
    let two = [
        overruled("counts/8000", -0.0062),
        overruled("counts/9000", -0.0051),
    ];
    assert_eq!(
        texts(row_notes(&two, 0.005)),
        [
            "every benchmark here (2): instructions do not decide: in this comparison \
          `counts/0` counted -31.00% and timed +7.80%, slower: with this change, fewer \
          instructions need not mean less time"
        ]
    );
    let one = texts(row_notes(&two[..1], 0.005));
    assert!(
        one[0].starts_with("counts/8000: instructions -0.62% (")
            && one[0].contains("but they do not decide: in this comparison `counts/0`"),
        "{one:?}"
    );
}

#[test]
fn an_interval_end_past_a_thousand_percent_is_capped() {
    assert_eq!(interval_end(1_759_082.25), ">+999%");
    assert_eq!(interval_end(9.99), "+999.00%");
    assert_eq!(interval_end(-1.0), "-100.00%");
    assert_eq!(interval_end(f64::INFINITY), "n/a");
    assert_eq!(
        percent_change(15.0),
        "+1500.00%",
        "a change itself is not capped"
    );
}

#[test]
fn a_row_counts_decided_says_why_time_alone_could_not() {
    use crate::model::comparison::Signal;
    let mut r = Row::example("stride", 100.0, 0.01, Verdict::Regressed);
    r.decided_by = Some(Signal::Instructions);
    r.instructions = Some(counted(0.01, 0.0));
    // Time's interval leaves out no change, yet the adjustment for the
    // run's other rows took it: the note says so (quick-xml's `NsReader`).
    (r.change_ci, r.p_adjusted) = ([0.0061, 0.0346], Some(0.522));
    let note = signal_note(&r, 0.005).unwrap().to_string();
    assert!(
        note.ends_with(
            "time alone could not tell (+0.61% … +3.46%: not significant once adjusted for \
             the other benchmarks compared, p = 0.522)"
        ),
        "{note}"
    );
    (r.change_ci, r.p_adjusted) = ([-0.002, 0.011], Some(0.9));
    let note = signal_note(&r, 0.005).unwrap().to_string();
    assert!(note.ends_with("(-0.20% … +1.10%)"), "{note}");
}
