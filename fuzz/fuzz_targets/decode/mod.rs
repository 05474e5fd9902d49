//! What the decode fuzz targets share: decode the input as
//! `eventheader decode` does (the CLI's library), with options chosen from
//! the input's length, and check that it ends with status 0 or 1 and that
//! its output is valid JSON (no panic, hang or unbounded growth on any
//! input, and every string escaped); one input length in seven takes
//! `--format trace-event`, whose document must hold a `traceEvents` array
//! of events that each have a phase, a pid and a tid. A panic anywhere in
//! the decoder, contained or not in the CLI, fails the target: the CLI's
//! containment is a last line, the fuzzer finds what reaches it.

use eventheader_cli::decode::{decode_bytes, Order, Settings};
use eventheader_cli::exit::Status;
use eventheader_cli::filter::Filter;
use serde::de::IgnoredAny;
use tracepoint_decode::PerfMetaOptions;

/// Decodes `data` (as a file, or with `stream` as a pipe) and checks the
/// outcome.
pub fn check(data: &[u8], stream: bool) {
    let n = data.len();
    let trace_event = n % 7 == 3;
    let settings = Settings {
        jsonl: n % 5 == 0 && !trace_event,
        trace_event,
        meta: [
            PerfMetaOptions::Default,
            PerfMetaOptions::All,
            PerfMetaOptions::None,
        ][n % 3],
        filter: Filter::default(),
        order: if n % 2 == 0 { Order::Time } else { Order::File },
        progress: false,
    };
    let (out, status, _messages) = decode_bytes(data, stream, &settings);
    assert!(
        matches!(status, Status::Success | Status::Failure),
        "status {status:?}"
    );
    let text = std::str::from_utf8(&out).expect("the output is UTF-8");
    if settings.jsonl {
        for line in text.lines() {
            if let Err(e) = serde_json::from_str::<IgnoredAny>(line) {
                panic!("invalid JSON line ({e}): {line}");
            }
        }
    } else if settings.trace_event {
        let doc: serde_json::Value = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("invalid JSON ({e}): {text:.4000}"));
        let events = doc["traceEvents"].as_array().expect("a traceEvents array");
        for e in events {
            assert!(
                e["ph"].is_string() && e["pid"].is_u64() && e["tid"].is_u64(),
                "a trace event without ph, pid or tid: {e}"
            );
        }
    } else if let Err(e) = serde_json::from_str::<IgnoredAny>(text) {
        panic!("invalid JSON ({e}): {text:.4000}");
    }
}
