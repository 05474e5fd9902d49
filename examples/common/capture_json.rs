//! Decoding of capture files (`TRACEPOINT_CAPTURE_FILE`) into one JSON object
//! per event, with `tracepoint_decode`. Shared by the `decode` and `demo`
//! examples and by `tests/install.rs`, so the tests check exactly what the
//! examples print.
//!
//! Capture file: records of `u32 size` (little-endian, including these 4
//! bytes), the tracepoint name and a NUL, then the EventHeader event bytes.
//!
//! Each event becomes
//! `{ "n": "Provider:Event", "field": value, ..., "meta": { "level": 4, ... } }`
//! (the `tracepoint_decode` JSON conventions: `meta` holds the non-default
//! header values and activity ids).
#![allow(dead_code)]

use std::fmt::Write as _;

use tracepoint_decode as td;

/// One record of a capture file.
#[derive(Clone, Copy, Debug)]
pub struct CaptureRecord<'a> {
    /// The tracepoint name, e.g. `MyProvider_L4K1`.
    pub tracepoint: &'a str,
    /// The event bytes (eventheader, extensions, payload).
    pub event: &'a [u8],
}

/// Splits a capture file into its records.
pub fn parse_capture(bytes: &[u8]) -> Result<Vec<CaptureRecord<'_>>, String> {
    let mut records = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let size_bytes = bytes
            .get(pos..pos + 4)
            .ok_or_else(|| format!("truncated record size at offset {pos}"))?;
        let size = u32::from_le_bytes(size_bytes.try_into().expect("4 bytes")) as usize;
        if size <= 4 || size > bytes.len() - pos {
            return Err(format!(
                "bad record size {size} at offset {pos} ({} bytes left)",
                bytes.len() - pos
            ));
        }
        let body = &bytes[pos + 4..pos + size];
        let nul = body
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| format!("record at offset {pos}: no NUL after the tracepoint name"))?;
        let tracepoint = std::str::from_utf8(&body[..nul])
            .map_err(|e| format!("record at offset {pos}: tracepoint name: {e}"))?;
        records.push(CaptureRecord {
            tracepoint,
            event: &body[nul + 1..],
        });
        pos += size;
    }
    Ok(records)
}

/// Appends `s` to `out` as a JSON string literal.
fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                write!(out, "\\u{:04x}", c as u32).expect("writing to a String");
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Decodes one EventHeader event as a JSON object.
pub fn event_json(
    context: &mut td::EventHeaderEnumeratorContext,
    record: &CaptureRecord<'_>,
) -> Result<String, String> {
    let mut enumerator = context
        .enumerate_with_name_and_data(
            record.tracepoint,
            record.event,
            td::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
        )
        .map_err(|e| format!("{}: not a valid EventHeader event: {e}", record.tracepoint))?;
    let info = enumerator.event_info();

    let mut json = String::from("{ \"n\": ");
    push_json_string(&mut json, &info.identity_display().to_string());
    // Positioned before the first field: writes all fields as
    // `, "name": value, ...` and moves past the last one.
    enumerator
        .write_json_item_and_move_next_sibling(&mut json, true, td::PerfConvertOptions::Default)
        .map_err(|e| format!("{}: formatting: {e}", record.tracepoint))?;
    if enumerator.state() == td::EventHeaderEnumeratorState::Error {
        return Err(format!(
            "{}: malformed event: {}",
            record.tracepoint,
            enumerator.last_error()
        ));
    }
    write!(
        json,
        ", \"meta\": {{ {} }} }}",
        info.json_meta_display(None)
    )
    .expect("writing to a String");
    Ok(json)
}

/// Decodes every record of a capture file; the first error ends decoding.
pub fn decode_capture(bytes: &[u8]) -> Result<Vec<(String, String)>, String> {
    let mut context = td::EventHeaderEnumeratorContext::new();
    parse_capture(bytes)?
        .iter()
        .map(|record| {
            Ok((
                record.tracepoint.to_string(),
                event_json(&mut context, record)?,
            ))
        })
        .collect()
}
