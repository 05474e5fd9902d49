//! What the decode fuzz targets share: decode the input as
//! `eventheader decode` does (the CLI's library), with options chosen from
//! the input's length and first byte (every output format, time format and
//! kind of time window) and filters from its second byte and last bytes (a
//! `--where` term and a `--snapshot-on` string parsed from them, `--comm`),
//! and check that it ends with status 0 or 1 and that
//! its output is well-formed in the format chosen (valid JSON, one line of
//! text per event, RFC 4180 CSV, a Trace Event Format document whose
//! events all have a phase, pid and tid) (no panic, hang or unbounded growth on any
//! input, and every string escaped). A panic anywhere in
//! the decoder, contained or not in the CLI, fails the target: the CLI's
//! containment is a last line, the fuzzer finds what reaches it.

use eventheader_cli::decode::{decode_bytes, Format, Order, Settings, TimeFormat, TimeWindow};
use eventheader_cli::exit::Status;
use eventheader_cli::filter::line::parse_spec;
use eventheader_cli::filter::terms::parse_field_term;
use eventheader_cli::filter::{Filter, FilterArgs};
use serde::de::IgnoredAny;
use tracepoint_decode::PerfMetaOptions;

/// Decodes `data` (as a file, or with `stream` as a pipe) and checks the
/// outcome.
pub fn check(data: &[u8], stream: bool) {
    let n = data.len();
    // The output format, time format and time window from the first byte
    // (the input is still all of `data`).
    let b = data.first().copied().unwrap_or(0) as usize;
    let format = [
        Format::Json,
        Format::Jsonl,
        Format::Text,
        Format::Csv,
        Format::TraceEvent,
    ][b % 5];
    let time_format = [
        None,
        Some(TimeFormat::Rfc3339),
        Some(TimeFormat::Ns),
        Some(TimeFormat::S),
        Some(TimeFormat::Relative),
    ][b / 5 % 5];
    let window = match b / 25 % 4 {
        0 => ",",
        1 => "0.000001,",
        2 => ",2024-03-28T00:45:12.6Z",
        _ => "-1,1000",
    };
    let settings = Settings {
        format,
        meta: [
            PerfMetaOptions::Default,
            PerfMetaOptions::All,
            PerfMetaOptions::None,
        ][n % 3],
        comm: n.is_multiple_of(7),
        time_format,
        window: TimeWindow::parse(window).unwrap_or_default(),
        fields: if n.is_multiple_of(2) {
            Vec::new()
        } else {
            ["time", "comm", "level", "fields", "n", "raw", "a.b"]
                .map(String::from)
                .to_vec()
        },
        filter: filter_from(data),
        order: if n.is_multiple_of(2) {
            Order::Time
        } else {
            Order::File
        },
        progress: false,
        warn_untimed: n % 7 == 0,
    };
    let (out, status, _messages) = decode_bytes(data, stream, &settings);
    assert!(
        matches!(status, Status::Success | Status::Failure),
        "status {status:?}"
    );
    let text = std::str::from_utf8(&out).expect("the output is UTF-8");
    match settings.format {
        Format::Jsonl => {
            for line in text.lines() {
                if let Err(e) = serde_json::from_str::<IgnoredAny>(line) {
                    panic!("invalid JSON line ({e}): {line}");
                }
            }
        }
        Format::Json => {
            if let Err(e) = serde_json::from_str::<IgnoredAny>(text) {
                panic!("invalid JSON ({e}): {text:.4000}");
            }
        }
        Format::Text => {
            // One line per event: no control character but the line ends.
            assert!(text.is_empty() || text.ends_with('\n'));
            for line in text.lines() {
                assert!(!line.chars().any(char::is_control), "{line:?}");
            }
        }
        Format::Csv => check_csv(text),
        Format::TraceEvent => {
            // One document; every event with a phase, a pid and a tid.
            let doc: serde_json::Value = serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("invalid JSON ({e}): {text:.4000}"));
            let events = doc["traceEvents"].as_array().expect("a traceEvents array");
            for e in events {
                assert!(
                    e["ph"].is_string() && e["pid"].is_u64() && e["tid"].is_u64(),
                    "a trace event without ph, pid or tid: {e}"
                );
            }
        }
    }
}

/// The filters for `data`: none for a quarter of the inputs; else a field
/// term of the filter language (those the reference recordings hold, and
/// one parsed from the input's last bytes when they parse), and sometimes
/// `--comm`. Parsing the last bytes as a term and as a `--snapshot-on`
/// string must not panic, whatever they are.
fn filter_from(data: &[u8]) -> Filter {
    let c = usize::from(data.get(1).copied().unwrap_or(0)) ^ data.len();
    let tail = String::from_utf8_lossy(&data[data.len().saturating_sub(24)..]);
    let spec = parse_spec(&tail);
    let term = parse_field_term(&tail);
    if c % 4 == 0 {
        return Filter::default();
    }
    let mut args = match spec {
        Ok(args) if c % 4 == 1 => args,
        _ => FilterArgs::default(),
    };
    if let Ok(t) = term {
        args.matching.where_.push(t);
    }
    const TERMS: &[&str] = &[
        "i8>99",
        "u8=0xC8",
        "u64>=18000000000000000000",
        "(-128)<0",
        "Struct1.NChar8=hjkl",
        "StructArray.Struct2.K=B",
        "enabled=true",
        "prev_comm=perf",
        "next_prio<=0",
        "x.y>=-1.5",
        "s=",
    ];
    args.matching
        .where_
        .push(parse_field_term(TERMS[c / 4 % TERMS.len()]).expect("a term"));
    if c & 0x40 != 0 {
        args.matching
            .comm
            .push(["perf", "bash", "eventheader-tra"][c % 3].to_string());
    }
    Filter::new(&args)
}

/// RFC 4180: rows of as many cells as the header, CRLF line ends, quotes
/// only around whole cells and doubled inside them.
fn check_csv(text: &str) {
    let (mut cells, mut width, mut quoted, mut at_start) = (1usize, None, false, true);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
            }
            (true, '"') => {
                quoted = false;
                assert!(matches!(chars.peek(), Some(',' | '\r')), "{text:.2000}");
            }
            (true, _) => {}
            (false, '"') => {
                assert!(at_start, "a quote inside a cell: {text:.2000}");
                quoted = true;
            }
            (false, ',') => {
                cells += 1;
                at_start = true;
                continue;
            }
            (false, '\r') => {
                assert_eq!(chars.next(), Some('\n'), "{text:.2000}");
                assert_eq!(*width.get_or_insert(cells), cells, "{text:.2000}");
                cells = 1;
                at_start = true;
                continue;
            }
            (false, c) => assert!(c != '\n', "a bare LF: {text:.2000}"),
        }
        at_start = false;
    }
    assert!(
        !quoted && at_start,
        "the last row ends with CRLF: {text:.2000}"
    );
}
