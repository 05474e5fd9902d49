//! The converter on hand-made event sequences, each output checked by the
//! tests' validator of the format's rules.

use super::*;
use testkit::trace_event::{check, Checked};

/// (time ns, tid, name, opcode, activity, related, fields)
type Ev = (u64, u32, &'static str, u8, u8, u8, &'static str);

fn convert(events: &[Ev]) -> (String, Summary, Checked) {
    let mut t = TraceEvents::new();
    let mut out = String::new();
    t.begin(&mut out);
    for &(time, tid, name, opcode, act, rel, fields) in events {
        let e = Event {
            time_ns: Some(time),
            pid: Some(100),
            tid: Some(tid),
            comm: Some(if tid == 100 { "main" } else { "worker" }),
            name,
            opcode,
            activity: (act != 0).then_some([act; 16]),
            related: (rel != 0).then_some([rel; 16]),
            fields,
        };
        t.event(&mut out, &e);
    }
    let summary = t.finish(&mut out);
    let checked = check(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    (out, summary, checked)
}

fn span<'a>(c: &'a Checked, name: &str) -> Vec<&'a (i128, i128, String, i128, i128)> {
    c.spans.iter().filter(|s| s.2 == name).collect()
}

const S: u8 = OPCODE_START;
const P: u8 = OPCODE_STOP;

#[test]
fn nested_activities_stay_on_their_threads() {
    let (out, summary, c) = convert(&[
        (1_000, 100, "P:Outer", S, 1, 0, "{\"a\":1}"),
        (1_500, 100, "P:Tick", 0, 0, 0, "{\"i\":1}"),
        (2_000, 100, "P:Inner", S, 2, 1, "{}"),
        (2_100, 101, "P:Work", S, 3, 1, "{}"),
        (2_500, 100, "P:Inner", P, 2, 0, "{}"),
        (2_900, 101, "P:Work", P, 3, 0, "{\"r\":\"done\"}"),
        (3_001, 100, "P:Outer", P, 1, 0, "{\"b\":2}"),
    ]);
    assert_eq!(summary.slices, 4 - 1);
    assert_eq!(summary.virtual_threads, 0);
    assert_eq!(c.instants, 1);
    assert_eq!(
        span(&c, "P:Outer"),
        [&(100, 100, "P:Outer".into(), 0, 2_001)]
    );
    assert_eq!(
        span(&c, "P:Inner"),
        [&(100, 100, "P:Inner".into(), 1_000, 1_500)]
    );
    assert_eq!(
        span(&c, "P:Work"),
        [&(100, 101, "P:Work".into(), 1_100, 1_900)]
    );
    assert!(
        out.contains("\"ts\":2001.000") || out.contains("\"dur\":2.001"),
        "{out}"
    );
    assert!(
        out.contains("\"start\":{\"a\":1},\"stop\":{\"b\":2}"),
        "{out}"
    );
    assert!(out.contains("\"parent\":\"P:Outer\""), "{out}");
    assert_eq!(c.thread_names[&(100, 101)], "worker");
}

#[test]
fn overlapping_and_cross_thread_activities_get_virtual_threads() {
    let (_, summary, c) = convert(&[
        (1_000, 100, "P:A", S, 1, 0, "{}"),
        (2_000, 100, "P:B", S, 2, 0, "{}"),
        (3_000, 100, "P:A", P, 1, 0, "{}"), // A ends inside B: no nesting
        (4_000, 100, "P:C", S, 3, 0, "{}"),
        (5_000, 101, "P:C", P, 3, 0, "{}"), // stops on another thread
        (6_000, 100, "P:B", P, 2, 0, "{}"),
        (7_000, 100, "P:A", S, 4, 0, "{}"),
        (7_500, 100, "P:X", S, 5, 0, "{}"),
        (8_000, 100, "P:A", P, 4, 0, "{}"),
        (9_000, 100, "P:X", P, 5, 0, "{}"),
    ]);
    assert_eq!(summary.slices, 5);
    // A's two slices share one virtual thread (they do not overlap); C has one.
    assert_eq!(summary.virtual_threads, 2);
    let a = span(&c, "P:A");
    assert_eq!(a.len(), 2);
    assert_eq!(a[0].1, a[1].1);
    assert!(a[0].1 > 1 << 22);
    assert_eq!(c.thread_names[&(100, a[0].1)], "P:A");
    assert_eq!(span(&c, "P:B")[0].1, 100);
    assert_eq!(span(&c, "P:X")[0].1, 100);
    assert_eq!(c.thread_names[&(100, span(&c, "P:C")[0].1)], "P:C");
}

#[test]
fn unmatched_starts_and_stops_are_kept_and_counted() {
    let (out, summary, c) = convert(&[
        (1_000, 100, "P:Lost", S, 1, 0, "{\"x\":1}"),
        (2_000, 100, "P:Again", S, 2, 0, "{}"),
        (2_500, 100, "P:Again", S, 2, 0, "{}"),
        (3_000, 100, "P:Orphan", P, 9, 0, "{}"),
        (4_000, 100, "P:Again", P, 2, 0, "{}"),
    ]);
    assert_eq!(summary.unmatched_starts, 2);
    assert_eq!(summary.unmatched_stops, 1);
    assert_eq!(summary.slices, 1);
    assert_eq!(c.instants, 3);
    assert!(out.contains("\"unmatched\":\"start without a stop\""));
    assert!(out.contains("\"unmatched\":\"stop without a start\""));
    assert!(out.contains("\"unmatchedStarts\":2,\"unmatchedStops\":1"));
    assert!(summary.unmatched_line().is_some());
}

#[test]
fn times_are_microseconds_with_nanoseconds() {
    let (out, _, _) = convert(&[
        (1_000_000_123, 100, "P:E", 0, 0, 0, "{}"),
        (1_001_234_567, 100, "P:E", 0, 0, 0, "{}"),
    ]);
    assert!(out.contains("\"ts\":0.000"), "{out}");
    assert!(out.contains("\"ts\":1234.444"), "{out}");
    assert!(out.contains("\"originNs\":\"1000000123\""), "{out}");
}

#[test]
fn hostile_names_stay_valid_json() {
    let (out, _, c) = convert(&[
        (1, 100, "P:\"}]\u{1}\\\n\u{2028}", S, 1, 0, "{}"),
        (2, 100, "P:\"}]\u{1}\\\n\u{2028}", P, 1, 0, "{}"),
    ]);
    assert_eq!(c.names, ["P:\"}]\u{1}\\\n\u{2028}"], "{out}");
}

/// The validator refuses what breaks the rules (so that its passes mean
/// something).
#[test]
fn the_validator_refuses_broken_traces() {
    let wrap = |events: &str| format!("{{\"traceEvents\":[{events}]}}");
    let ok = "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"a\",\"ts\":0,\"dur\":10},{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"b\",\"ts\":2,\"dur\":3}";
    assert!(check(&wrap(ok)).is_ok());
    for bad in [
        "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"a\",\"ts\":0,\"dur\":10},{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"b\",\"ts\":5,\"dur\":10}",
        "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"name\":\"a\",\"ts\":0}",
        "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"name\":\"a\",\"ts\":0}",
        "{\"ph\":\"i\",\"pid\":1,\"name\":\"a\",\"ts\":0}",
        "{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"name\":\"a\",\"ts\":5},{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"name\":\"a\",\"ts\":4}",
        "{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"name\":\"a\\u\",\"ts\":5}",
    ] {
        assert!(check(&wrap(bad)).is_err(), "{bad}");
    }
}

#[test]
fn microseconds_have_three_decimals() {
    let mut s = String::new();
    for ns in [0, 7, 999, 25_399, -1_500, i128::from(u64::MAX) * 1000 + 7] {
        push_us(&mut s, ns);
        s.push(' ');
    }
    assert_eq!(
        s,
        "0.000 0.007 0.999 25.399 -1.500 18446744073709551615.007 "
    );
}
