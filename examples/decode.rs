//! Prints the events of capture files (written by the library when
//! `TRACEPOINT_CAPTURE_FILE` is set) as JSON, one event per line:
//!
//! ```text
//! cargo run --example decode -- events.dat [more.dat ...]
//! ```
//!
//! Exits 1 if a file cannot be read or holds a malformed record or event
//! (reported on stderr; the other events are still printed).

#[path = "common/capture_json.rs"]
mod capture_json;

use std::process::ExitCode;

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() || paths.iter().any(|p| p.starts_with('-')) {
        eprintln!("usage: decode CAPTURE_FILE [CAPTURE_FILE ...]");
        return ExitCode::from(2);
    }

    let mut ok = true;
    let mut context = tracepoint_decode::EventHeaderEnumeratorContext::new();
    for path in &paths {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{path}: {e}");
                ok = false;
                continue;
            }
        };
        let records = match capture_json::parse_capture(&bytes) {
            Ok(records) => records,
            Err(e) => {
                eprintln!("{path}: {e}");
                ok = false;
                continue;
            }
        };
        for record in &records {
            match capture_json::event_json(&mut context, record) {
                Ok(json) => println!("{json}"),
                Err(e) => {
                    eprintln!("{path}: {e}");
                    ok = false;
                }
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
