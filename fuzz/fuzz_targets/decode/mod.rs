//! What the decode fuzz targets share: decode the input as
//! `eventheader decode` does (the CLI's library), with options chosen from
//! the input's length, and check that it ends with status 0 or 1 and that
//! its output is valid JSON (no panic, hang or unbounded growth on any
//! input, and every string escaped). A panic anywhere in
//! the decoder, contained or not in the CLI, fails the target: the CLI's
//! containment is a last line, the fuzzer finds what reaches it.

use eventheader_cli::decode::{decode_bytes, Format, Order, Settings, TimeWindow};
use eventheader_cli::exit::Status;
use eventheader_cli::filter::Filter;
use serde::de::IgnoredAny;
use tracepoint_decode::PerfMetaOptions;

/// Decodes `data` (as a file, or with `stream` as a pipe) and checks the
/// outcome.
pub fn check(data: &[u8], stream: bool) {
    let n = data.len();
    let settings = Settings {
        format: if n % 5 == 0 {
            Format::Jsonl
        } else {
            Format::Json
        },
        meta: [
            PerfMetaOptions::Default,
            PerfMetaOptions::All,
            PerfMetaOptions::None,
        ][n % 3],
        comm: n % 7 == 0,
        time_format: None,
        window: TimeWindow::default(),
        fields: Vec::new(),
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
    if settings.format == Format::Jsonl {
        for line in text.lines() {
            if let Err(e) = serde_json::from_str::<IgnoredAny>(line) {
                panic!("invalid JSON line ({e}): {line}");
            }
        }
    } else if let Err(e) = serde_json::from_str::<IgnoredAny>(text) {
        panic!("invalid JSON ({e}): {text:.4000}");
    }
}
