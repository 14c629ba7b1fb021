//! The run stage's own checks.

use super::*;
use std::time::Duration;

fn plan(open: Open) -> Plan {
    Plan {
        filter: Filter::default(),
        settings: Settings::default(),
        open,
        timeout: Duration::from_secs(60),
        extra_args: Vec::new(),
        nocapture: false,
        schedule: Schedule::default(),
        held: None,
        partition: None,
        selected_before: 0,
        instructions: false,
        earlier: Default::default(),
    }
}

#[test]
fn a_held_id_its_executable_no_longer_registers_is_unfound() {
    let mut p = plan(Open::ALL);
    let ids = ["dated/12:03:40", "kept", "filtered"];
    p.held = Some(ids.map(String::from).to_vec());
    p.filter.skip = vec!["filtered".into()];
    let listed = ["dated/12:05:10", "kept"].map(|id| Listed {
        id: id.to_owned(),
        ignored: false,
        scaling: None,
        hint: None,
    });
    let picked = p.select("t", listed.to_vec());
    let chosen: Vec<&str> = picked.chosen.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(chosen, ["kept"]);
    // Registered but not held: filtered out, as before.
    assert_eq!(picked.filtered_out, 1);
    assert_eq!(picked.unfound, ["dated/12:03:40"]);
}

#[test]
fn a_benchmarks_hint_scales_only_the_limits_nobody_set() {
    let listed = |id: &str, hint| Listed {
        id: id.to_owned(),
        ignored: false,
        scaling: None,
        hint,
    };
    let slow = Hint {
        time: 4.0,
        warm_up: 1.0,
        samples: 0.1,
    };
    let hints = Hints::new(&[listed("plain", None), listed("slow", Some(slow))]);
    let open = plan(Open::ALL);
    assert_eq!(hints.settings(&open, "plain"), open.settings);
    let s = hints.settings(&open, "slow");
    assert_eq!(
        (s.max_time, s.min_samples),
        (Duration::from_millis(3200), 3)
    );
    // `--max-time` (or the file's max_time) given: the time stays.
    let closed = plan(Open {
        time: false,
        ..Open::ALL
    });
    let s = hints.settings(&closed, "slow");
    assert_eq!((s.max_time, s.min_samples), (closed.settings.max_time, 3));
}
