//! The Trace Event Format's rules, checked on every `trace-event` output the
//! tests make: the text is one JSON object (whatever the strings in the
//! events) with a `traceEvents` array; every event has a phase the format
//! defines, a name, and integer `pid` and `tid`; every event but metadata
//! has a numeric `ts`; `B`/`E` pairs match per track (a thread: pid and
//! tid) and none is left open; `B`, `E` and `i` events are in time order per
//! track; complete events (`X`, `dur` >= 0) nest per track: two of them
//! either do not overlap or one holds the other.
use std::collections::HashMap;

use crate::json::{try_parse, J};

/// What a valid output held.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Checked {
    pub slices: usize,
    pub instants: usize,
    pub metadata: usize,
    /// Slices (X, or B/E pairs) per name.
    pub names: Vec<String>,
    /// Thread names (`M` `thread_name`) per (pid, tid).
    pub thread_names: HashMap<Track, String>,
    /// Per slice: (pid, tid, name, start ns, end ns).
    pub spans: Vec<(i128, i128, String, i128, i128)>,
}

/// A thread: (pid, tid).
type Track = (i128, i128);
/// A slice: start ns, end ns, name.
type Span = (i128, i128, String);

/// A JSON number as integer nanoseconds, given in microseconds.
fn ns(v: &J) -> Option<i128> {
    match v {
        J::Num(n) => {
            let text = n.to_string();
            let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
            if text.contains(['e', 'E']) {
                return n.as_f64().map(|f| (f * 1000.0).round() as i128);
            }
            let neg = int.starts_with('-');
            let whole: i128 = int.trim_start_matches('-').parse().ok()?;
            let mut f = frac.to_string();
            f.truncate(3);
            while f.len() < 3 {
                f.push('0');
            }
            let v = whole * 1000 + f.parse::<i128>().ok()?;
            Some(if neg { -v } else { v })
        }
        _ => None,
    }
}

/// Checks `text` against the rules above.
pub fn check(text: &str) -> Result<Checked, String> {
    let doc = try_parse(text).map_err(|e| format!("not JSON: {e}"))?;
    let events = doc
        .get("traceEvents")
        .ok_or("no traceEvents member")?
        .clone();
    let J::Arr(events) = events else {
        return Err("traceEvents is not an array".into());
    };
    let mut c = Checked::default();
    let mut last_ts: HashMap<Track, i128> = HashMap::new();
    let mut open: HashMap<Track, Vec<(String, i128)>> = HashMap::new();
    let mut complete: HashMap<Track, Vec<Span>> = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        let at = || format!("event {i}: {}", trunc(e));
        let ph = e
            .get("ph")
            .and_then(J::as_str)
            .ok_or_else(|| format!("{}: no ph", at()))?;
        let name = e
            .get("name")
            .and_then(J::as_str)
            .ok_or_else(|| format!("{}: no name", at()))?;
        let pid = e
            .get("pid")
            .and_then(J::as_int)
            .ok_or_else(|| format!("{}: no integer pid", at()))?;
        let tid = e
            .get("tid")
            .and_then(J::as_int)
            .ok_or_else(|| format!("{}: no integer tid", at()))?;
        if let Some(args) = e.get("args") {
            if !matches!(args, J::Obj(_)) {
                return Err(format!("{}: args is not an object", at()));
            }
        }
        let track = (pid, tid);
        if ph == "M" {
            c.metadata += 1;
            if name == "thread_name" {
                let n = e
                    .get("args")
                    .and_then(|a| a.get("name"))
                    .and_then(J::as_str)
                    .ok_or_else(|| format!("{}: thread_name without args.name", at()))?;
                c.thread_names.insert(track, n.to_string());
            }
            continue;
        }
        let ts = e
            .get("ts")
            .and_then(ns)
            .ok_or_else(|| format!("{}: no numeric ts", at()))?;
        match ph {
            "X" => {
                let dur = e
                    .get("dur")
                    .and_then(ns)
                    .ok_or_else(|| format!("{}: X without dur", at()))?;
                if dur < 0 {
                    return Err(format!("{}: negative dur", at()));
                }
                complete
                    .entry(track)
                    .or_default()
                    .push((ts, ts + dur, name.to_string()));
                c.slices += 1;
                c.names.push(name.to_string());
                c.spans.push((pid, tid, name.to_string(), ts, ts + dur));
                continue;
            }
            "B" => open.entry(track).or_default().push((name.to_string(), ts)),
            "E" => {
                let (b, start) = open
                    .get_mut(&track)
                    .and_then(Vec::pop)
                    .ok_or_else(|| format!("{}: E without B on its track", at()))?;
                if e.get("name").is_some() && name != b {
                    return Err(format!("{}: E named {name:?} closes B {b:?}", at()));
                }
                c.slices += 1;
                c.names.push(b.clone());
                c.spans.push((pid, tid, b, start, ts));
            }
            "i" | "I" => c.instants += 1,
            other => return Err(format!("{}: phase {other:?} not expected", at())),
        }
        let last = last_ts.entry(track).or_insert(i128::MIN);
        if ts < *last {
            return Err(format!("{}: ts goes back on track {track:?}", at()));
        }
        *last = ts;
    }
    for (track, stack) in &open {
        if let Some((name, _)) = stack.last() {
            return Err(format!("B {name:?} on track {track:?} is never ended"));
        }
    }
    for (track, mut spans) in complete {
        spans.sort_by_key(|&(s, e, _)| (s, -e));
        let mut stack: Vec<Span> = Vec::new();
        for (s, e, name) in spans {
            while stack.last().is_some_and(|t| t.1 <= s) {
                stack.pop();
            }
            if let Some(t) = stack.last() {
                if e > t.1 {
                    return Err(format!(
                        "X {name:?} [{s}, {e}] overlaps X {:?} [{}, {}] on track {track:?} without nesting",
                        t.2, t.0, t.1
                    ));
                }
            }
            stack.push((s, e, name));
        }
    }
    Ok(c)
}

fn trunc(e: &J) -> String {
    let s = format!("{e:?}");
    s.chars().take(200).collect()
}

/// The slices of [`nested_recording`] per track: thread 500, thread 501,
/// and the virtual thread of the activity that starts on 500 and stops on
/// 501.
pub const NESTED_SLICES: [&[&str]; 3] = [
    &["Demo:Request", "Demo:Parse"],
    &["Demo:Query", "Demo:Fetch"],
    &["Demo:Handoff"],
];

/// Writes a perf.data recording of process 500 with nested activities on
/// two threads (500 and 501), one activity that starts on one thread and
/// stops on the other, and an instant event; the `i`-th activity's id is
/// `[i; 16]`, parents through the related id.
pub fn nested_recording(path: &std::path::Path) {
    use crate::synth::{activity_event, write_perf_data_timed, TimedSample};
    let id = |i: u8| [i; 16];
    let none = [0u8; 16];
    // (µs, tid, event, opcode, activity, related, field s)
    type Row = (u64, u32, &'static str, u8, [u8; 16], [u8; 16], &'static str);
    let events: [Row; 13] = [
        (1_000, 500, "Request", 1, id(1), none, "GET /index"),
        (1_100, 500, "Tick", 0, none, none, "tick"),
        (1_200, 500, "Parse", 1, id(2), id(1), "headers"),
        (1_300, 501, "Query", 1, id(3), id(1), "SELECT 1"),
        (1_600, 501, "Fetch", 1, id(4), id(3), "rows"),
        (1_700, 500, "Parse", 2, id(2), none, "ok"),
        (2_100, 501, "Fetch", 2, id(4), none, "3 rows"),
        (2_200, 500, "Handoff", 1, id(5), id(1), "to worker"),
        (2_500, 501, "Query", 2, id(3), none, "ok"),
        (2_800, 501, "Handoff", 2, id(5), none, "taken"),
        (2_900, 501, "Tick", 0, none, none, "tock \"quoted\""),
        (3_000, 500, "Request", 2, id(1), none, "200"),
        (3_100, 500, "Tick", 0, none, none, "done"),
    ];
    let samples: Vec<TimedSample> = events
        .iter()
        .map(|&(us, tid, name, opcode, act, rel, s)| {
            let (name, event) = activity_event("Demo", name, opcode, act, rel, s);
            TimedSample {
                name,
                event,
                pid: 500,
                tid,
                time: 5_000_000_000 + us * 1000,
            }
        })
        .collect();
    write_perf_data_timed(path, &samples);
}
