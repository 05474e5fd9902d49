//! Byte-level oracle against the reference capture: the event bytes of
//! docs/format.md §2.5 and §5, record by record (§7.1).

use std::collections::HashMap;

use testkit::cargo_tests::{self, decode::hex, Build, Ran, Record};

/// The number of events oracle.c reproduces: 114 events both reference
/// providers log (x2), EventCG, EventCppG, the long-name provider's event,
/// and 6 events only the C++ provider logs.
const ORACLE_EVENTS: usize = 114 * 2 + 3 + 6;

/// `oracle` in capture mode: the reference's events reproduced byte for
/// byte.
pub fn check(build: &Build, ran: &Ran) {
    let reference = cargo_tests::reference_records();
    let mut by_key: HashMap<(String, String), Vec<&Record>> = HashMap::new();
    for r in &reference {
        let name = cargo_tests::event_name(&r.event).expect("reference event has metadata");
        by_key.entry((r.name.clone(), name)).or_default().push(r);
    }

    let ours = &ran.records;
    assert_eq!(ran.number("written"), ORACLE_EVENTS as i64);
    assert_eq!(
        ours.len(),
        ORACLE_EVENTS,
        "{}: records captured",
        build.label
    );

    // The n-th event of each (tracepoint, event name) must equal the
    // reference's n-th.
    let mut occurrence: HashMap<(String, String), usize> = HashMap::new();
    let mut problems = Vec::new();
    for rec in ours {
        let name = cargo_tests::event_name(&rec.event)
            .unwrap_or_else(|| panic!("our {} event has no metadata", rec.name));
        let key = (rec.name.clone(), name);
        let n = occurrence.entry(key.clone()).or_default();
        let Some(want) = by_key.get(&key).and_then(|v| v.get(*n)) else {
            problems.push(format!("{key:?} #{n}: no such reference record"));
            continue;
        };
        *n += 1;
        if want.event != rec.event {
            problems.push(format!(
                "{key:?}:\n  ours      {}\n  reference {}",
                hex(&rec.event),
                hex(&want.event)
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{}: {} of {} events differ from the reference:\n{}",
        build.label,
        problems.len(),
        ours.len(),
        problems.join("\n")
    );
    eprintln!(
        "oracle ({}): N = {ORACLE_EVENTS} of {} reference records reproduced byte for byte",
        build.label,
        reference.len()
    );
}
