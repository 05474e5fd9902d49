//! `stats`' output: a table for people, one JSON object for programs.

use std::fmt::Write as _;

use super::summary::{Row, Summary, Time};
use crate::decode::json::push_json_str;
use crate::decode::time::civil_from_days;

/// `2024-03-28T00:45:12.640913120Z` (a wall-clock time), or seconds with
/// nanoseconds (a time on the recording's own clock).
fn time_text(t: Time) -> String {
    let secs = t.ns.div_euclid(1_000_000_000);
    let nanos = t.ns.rem_euclid(1_000_000_000);
    if !t.wall {
        return format!("{secs}.{nanos:09}");
    }
    let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{nanos:09}Z",
        sod / 3600,
        sod / 60 % 60,
        sod % 60
    )
}

/// A name for a table cell: control characters escaped, so that a row is
/// one line.
fn cell(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Seconds from `origin` to `t`, or `-`.
fn since(origin: Option<Time>, t: Option<Time>) -> String {
    match (origin, t) {
        (Some(o), Some(t)) => format!("{:.6}", (t.ns - o.ns) as f64 / 1e9),
        _ => "-".into(),
    }
}

fn table_row(out: &mut String, origin: Option<Time>, row: &Row, label: &str) {
    let rate = row.rate().map_or_else(|| "-".into(), |r| format!("{r:.1}"));
    let _ = writeln!(
        out,
        "{:>10} {:>12} {:>12} {:>12} {:>12}  {}",
        row.count,
        row.bytes,
        since(origin, row.first),
        since(origin, row.last),
        rate,
        label
    );
}

fn table_section<'a>(
    out: &mut String,
    origin: Option<Time>,
    title: &str,
    rows: impl IntoIterator<Item = (String, &'a Row)>,
) {
    let _ = writeln!(
        out,
        "\n{:>10} {:>12} {:>12} {:>12} {:>12}  {title}",
        "COUNT", "BYTES", "FIRST(s)", "LAST(s)", "RATE(/s)"
    );
    for (label, row) in rows {
        table_row(out, origin, row, &cell(&label));
    }
}

fn level_label(level: Option<u8>) -> String {
    level.map_or_else(|| "(none: not EventHeader)".into(), |l| l.to_string())
}

/// The table: totals, then per event, tracepoint, provider, level and
/// process.
pub fn table(s: &Summary, inputs: &[&str]) -> String {
    let total = s.total();
    let origin = total.first;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "inputs: {}",
        inputs
            .iter()
            .map(|i| cell(i))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        out,
        "events: {}, bytes: {}, filtered out: {}, lost: {}, malformed: {}",
        total.count, total.bytes, s.filtered, s.lost, s.malformed
    );
    if let (Some(first), Some(last)) = (total.first, total.last) {
        let _ = writeln!(
            out,
            "first: {} (FIRST and LAST below are seconds after it), last: {}",
            time_text(first),
            time_text(last)
        );
    }
    let events = s.sorted_events();
    table_section(
        &mut out,
        origin,
        "EVENT  [TRACEPOINT]",
        events
            .iter()
            .map(|e| (format!("{}  [{}]", e.name, e.tracepoint), &e.row)),
    );
    let tracepoints = s.grouped(|e| e.tracepoint.clone());
    table_section(
        &mut out,
        origin,
        "TRACEPOINT",
        tracepoints.iter().map(|(k, r)| (k.clone(), r)),
    );
    let providers = s.grouped(|e| e.provider.clone());
    table_section(
        &mut out,
        origin,
        "PROVIDER",
        providers.iter().map(|(k, r)| (k.clone(), r)),
    );
    let levels = s.grouped(|e| e.level);
    table_section(
        &mut out,
        origin,
        "LEVEL",
        levels.iter().map(|(k, r)| (level_label(*k), r)),
    );
    if let Some(processes) = s.processes() {
        table_section(
            &mut out,
            origin,
            "PID  COMM",
            processes.iter().map(|p| {
                (
                    format!("{}  {}", p.pid, p.comm.as_deref().unwrap_or("-")),
                    &p.row,
                )
            }),
        );
    }
    out
}

fn push_time(out: &mut String, t: Option<Time>) {
    match t {
        None => out.push_str("null"),
        Some(t) if t.wall => {
            out.push('"');
            out.push_str(&time_text(t));
            out.push('"');
        }
        Some(t) => out.push_str(&time_text(t)),
    }
}

/// `"count": N, "bytes": N, "first": T, "last": T, "rate": R`.
fn push_row(out: &mut String, row: &Row) {
    let _ = write!(
        out,
        "\"count\": {}, \"bytes\": {}, \"first\": ",
        row.count, row.bytes
    );
    push_time(out, row.first);
    out.push_str(", \"last\": ");
    push_time(out, row.last);
    out.push_str(", \"rate\": ");
    match row.rate() {
        Some(r) if r.is_finite() => {
            let _ = write!(out, "{r}");
        }
        _ => out.push_str("null"),
    }
}

/// `"key": [ { "label": ..., ROW }, ... ]` where `label` writes the
/// object's own members.
fn push_list<T>(
    out: &mut String,
    key: &str,
    items: &[T],
    label: impl Fn(&mut String, &T),
    row: impl Fn(&T) -> &Row,
) {
    let _ = write!(out, ",\n  \"{key}\": [");
    for (i, item) in items.iter().enumerate() {
        out.push_str(if i == 0 { "\n    { " } else { ",\n    { " });
        label(out, item);
        out.push_str(", ");
        push_row(out, row(item));
        out.push_str(" }");
    }
    out.push_str(if items.is_empty() { "]" } else { "\n  ]" });
}

/// The JSON object (see `stats --help`).
pub fn json(s: &Summary, inputs: &[&str]) -> String {
    let mut out = String::from("{\n  \"inputs\": [");
    for (i, input) in inputs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_json_str(&mut out, input);
    }
    out.push_str("],\n  \"total\": { ");
    push_row(&mut out, &s.total());
    let _ = write!(
        out,
        " }},\n  \"filtered\": {}, \"lost\": {}, \"malformed\": {}",
        s.filtered, s.lost, s.malformed
    );
    push_list(
        &mut out,
        "events",
        &s.sorted_events(),
        |out, e| {
            out.push_str("\"name\": ");
            push_json_str(out, &e.name);
            out.push_str(", \"tracepoint\": ");
            push_json_str(out, &e.tracepoint);
            out.push_str(", \"provider\": ");
            push_json_str(out, &e.provider);
            out.push_str(", \"level\": ");
            match e.level {
                Some(l) => {
                    let _ = write!(out, "{l}");
                }
                None => out.push_str("null"),
            }
        },
        |e| &e.row,
    );
    let named = |key: &'static str| {
        move |out: &mut String, (name, _): &(String, Row)| {
            let _ = write!(out, "\"{key}\": ");
            push_json_str(out, name);
        }
    };
    let tracepoints = s.grouped(|e| e.tracepoint.clone());
    push_list(
        &mut out,
        "tracepoints",
        &tracepoints,
        named("tracepoint"),
        |t| &t.1,
    );
    let providers = s.grouped(|e| e.provider.clone());
    push_list(&mut out, "providers", &providers, named("provider"), |t| {
        &t.1
    });
    let levels = s.grouped(|e| e.level);
    push_list(
        &mut out,
        "levels",
        &levels,
        |out, (level, _)| match level {
            Some(l) => {
                let _ = write!(out, "\"level\": {l}");
            }
            None => out.push_str("\"level\": null"),
        },
        |t| &t.1,
    );
    if let Some(processes) = s.processes() {
        push_list(
            &mut out,
            "processes",
            &processes,
            |out, p| {
                let _ = write!(out, "\"pid\": {}, \"comm\": ", p.pid);
                match &p.comm {
                    Some(c) => push_json_str(out, c),
                    None => out.push_str("null"),
                }
            },
            |p| &p.row,
        );
    }
    out.push_str("\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        let t = Time {
            ns: 1_711_584_001_000_000_005,
            wall: true,
        };
        assert_eq!(time_text(t), "2024-03-28T00:00:01.000000005Z");
        let t = Time {
            ns: 2_500_000_000,
            wall: false,
        };
        assert_eq!(time_text(t), "2.500000000");
        assert_eq!(cell("a\nb"), "a\\nb");
    }
}
