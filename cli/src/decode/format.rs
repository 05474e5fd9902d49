//! One event as one JSON object, with `tracepoint_decode`'s JSON writers:
//!
//! ```text
//! { "n": "Provider:Event", "field": value, ..., "meta": { "time": ..., "level": 4, ... } }
//! ```
//!
//! EventHeader events are decoded from their own metadata; other tracepoints
//! from the tracefs format the perf.data file carries. An event that cannot be
//! decoded is written as `{ "n": "tracepoint", "raw": "HEX", "error": "why" }`
//! so that every event of the input appears in the output.

use std::fmt::Write as _;

use tracepoint_decode as td;

/// Formatting options and the reusable decoding context.
pub struct Formatter {
    context: td::EventHeaderEnumeratorContext,
    /// Scratch copy of an event's raw data (see `rel_loc4_as_data_loc`).
    patched: Vec<u8>,
    meta: td::PerfMetaOptions,
    convert: td::PerfConvertOptions,
}

/// What became of one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Decoded: an EventHeader event or a tracepoint with a tracefs format.
    Decoded,
    /// Not decodable by design (a plain tracepoint without a format, e.g. in a
    /// capture file): written as raw bytes.
    Raw,
    /// Malformed: written as raw bytes with an "error" member.
    Malformed,
}

fn push_hex(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for &b in bytes {
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 15) as usize] as char);
    }
}

fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    write!(out, "{}", td::display::JsonEscapeDisplay::new(s)).expect("writing to a String");
    out.push('"');
}

impl Formatter {
    pub fn new(meta: td::PerfMetaOptions) -> Formatter {
        Formatter {
            context: td::EventHeaderEnumeratorContext::new(),
            patched: Vec::new(),
            meta,
            // Booleans outside 0/1 as numbers, as the reference's decoder
            // writes them; the rest is tracepoint_decode's default.
            convert: td::PerfConvertOptions::Default
                .and_not(td::PerfConvertOptions::BoolOutOfRangeAsString),
        }
    }

    /// Appends `, "meta": { ... }` unless it would be empty. `write_meta`
    /// gets the options left to write and whether a comma must come first.
    fn push_meta(
        &self,
        out: &mut String,
        sample: Option<&td::PerfSampleEventInfo<'_>>,
        write_meta: impl FnOnce(&mut String, td::PerfMetaOptions, bool) -> Result<bool, std::fmt::Error>,
    ) {
        let mark = out.len();
        out.push_str(", \"meta\": { ");
        let mut meta = self.meta;
        let time = match sample {
            Some(s) if meta.has_flag(td::PerfMetaOptions::Time) => push_time(out, s),
            _ => false,
        };
        if time {
            meta = meta.and_not(td::PerfMetaOptions::Time);
        }
        match write_meta(out, meta, time) {
            Ok(any) if any || time => out.push_str(" }"),
            _ => out.truncate(mark),
        }
    }

    /// `{ "n": NAME, "raw": "HEX"[, "error": WHY], "meta": ... }`.
    fn push_raw(
        &self,
        out: &mut String,
        name: &str,
        data: &[u8],
        error: Option<&str>,
        sample: Option<&td::PerfSampleEventInfo<'_>>,
    ) {
        out.push_str("{ \"n\": ");
        push_json_str(out, name);
        out.push_str(", \"raw\": \"");
        push_hex(out, data);
        out.push('"');
        if let Some(error) = error {
            out.push_str(", \"error\": ");
            push_json_str(out, error);
        }
        if let Some(sample) = sample {
            self.push_meta(out, Some(sample), |o, meta, comma| {
                sample
                    .json_meta_display()
                    .meta_options(meta)
                    .add_comma_before_first_item(comma)
                    .write_to(o)
            });
        }
        out.push_str(" }");
    }

    /// Writes an EventHeader event. `Err(why)` if it is not a well-formed
    /// EventHeader event (nothing is written then).
    fn push_eventheader(
        &mut self,
        out: &mut String,
        tracepoint: &str,
        data: &[u8],
        sample: Option<&td::PerfSampleEventInfo<'_>>,
    ) -> Result<(), td::EventHeaderEnumeratorError> {
        let mark = out.len();
        let mut e = self.context.enumerate_with_name_and_data(
            tracepoint,
            data,
            td::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
        )?;
        let info = e.event_info();
        out.push_str("{ \"n\": \"");
        let _ = td::display::EventHeaderJsonIdentityDisplay::new(
            info.provider_name(),
            info.name_bytes(),
        )
        .write_to(out);
        out.push('"');
        // Positioned before the first field: writes `, "name": value` for all
        // fields and moves past the last one.
        let written = e.write_json_item_and_move_next_sibling(out, true, self.convert);
        if written.is_err() || e.state() == td::EventHeaderEnumeratorState::Error {
            let err = e.last_error();
            out.truncate(mark);
            return Err(if err == td::EventHeaderEnumeratorError::Success {
                td::EventHeaderEnumeratorError::InvalidData
            } else {
                err
            });
        }
        self.push_meta(out, sample, |o, meta, comma| {
            info.json_meta_display(sample)
                .meta_options(meta)
                .add_comma_before_first_item(comma)
                .write_to(o)
        });
        out.push_str(" }");
        Ok(())
    }

    /// A perf sample that cannot be attributed to an event.
    pub fn unattributed(&self, out: &mut String, record: &[u8], why: &str) {
        self.push_raw(out, "", record, Some(why), None);
    }

    /// A capture-file record (tracepoint name + event bytes).
    pub fn capture_event(&mut self, out: &mut String, tracepoint: &str, data: &[u8]) -> Outcome {
        match self.push_eventheader(out, tracepoint, data, None) {
            Ok(()) => Outcome::Decoded,
            Err(_) if crate::spec::check_eventheader_name(tracepoint).is_err() => {
                // Not an EventHeader tracepoint: the capture holds no format.
                self.push_raw(out, tracepoint, data, None, None);
                Outcome::Raw
            }
            Err(e) => {
                self.push_raw(
                    out,
                    tracepoint,
                    data,
                    Some(&format!("not a valid EventHeader event: {e}")),
                    None,
                );
                Outcome::Malformed
            }
        }
    }

    /// A perf sample.
    pub fn perf_sample(
        &mut self,
        out: &mut String,
        sample: &td::PerfSampleEventInfo<'_>,
    ) -> Outcome {
        let Some(format) = sample.format() else {
            self.push_raw(
                out,
                sample.name(),
                sample.raw_data(),
                Some("no tracefs format for this event in the file"),
                Some(sample),
            );
            return Outcome::Malformed;
        };
        if format.decoding_style() == td::PerfEventDecodingStyle::EventHeader {
            match self.push_eventheader(out, format.name(), sample.user_data(), Some(sample)) {
                Ok(()) => return Outcome::Decoded,
                // Well-formed but without metadata (a manifest would be
                // needed): its header fields decode through the format.
                Err(td::EventHeaderEnumeratorError::NotSupported) => {}
                Err(e) => {
                    self.push_raw(
                        out,
                        sample.name(),
                        sample.user_data(),
                        Some(&format!("not a valid EventHeader event: {e}")),
                        Some(sample),
                    );
                    return Outcome::Malformed;
                }
            }
        }
        self.push_tracefs(out, sample, format);
        Outcome::Decoded
    }

    /// A tracepoint decoded through its tracefs format.
    fn push_tracefs(
        &mut self,
        out: &mut String,
        sample: &td::PerfSampleEventInfo<'_>,
        format: &td::PerfEventFormat,
    ) {
        out.push_str("{ \"n\": \"");
        let _ = write!(out, "{}", sample.json_name_display());
        out.push('"');
        let skip = if self.meta.has_flag(td::PerfMetaOptions::Common) {
            0
        } else {
            format.common_field_count()
        };
        let raw = rel_loc4_as_data_loc(
            &mut self.patched,
            format,
            sample.raw_data(),
            sample.byte_reader(),
        );
        push_fields(out, format, skip, raw, sample.byte_reader(), self.convert);
        self.push_meta(out, Some(sample), |o, meta, comma| {
            sample
                .json_meta_display()
                .meta_options(meta)
                .add_comma_before_first_item(comma)
                .write_to(o)
        });
        out.push_str(" }");
    }
}

/// `, "name": value` for the fields of a tracefs-format event from `skip` on.
fn push_fields(
    out: &mut String,
    format: &td::PerfEventFormat,
    skip: usize,
    raw: &[u8],
    byte_reader: td::PerfByteReader,
    convert: td::PerfConvertOptions,
) {
    for field in format.fields().iter().skip(skip) {
        let value = field_value(field, raw, byte_reader);
        out.push_str(", ");
        push_json_str(out, field.name());
        out.push_str(": ");
        let _ = value.json_display().convert_options(convert).write_to(out);
    }
}

/// A field's value. Variable-size fields (`__data_loc`, `__rel_loc`, the
/// rest of the event) are resolved here: tracepoint_decode 0.5.0 rounds
/// their length down with `element_size - 1`, which underflows for strings
/// and byte blobs (element size 0): it panics in debug builds and yields an
/// empty value in release builds.
fn field_value<'a>(
    field: &td::PerfFieldFormat,
    raw: &'a [u8],
    byte_reader: td::PerfByteReader,
) -> td::PerfItemValue<'a> {
    use td::PerfFieldArray as A;
    if !matches!(
        field.array(),
        A::DataLoc2 | A::DataLoc4 | A::RelLoc2 | A::RelLoc4 | A::RestOfEvent
    ) {
        return field.get_field_value_with_data_and_reader(raw, byte_reader);
    }
    let Some(mut bytes) = field.get_field_bytes(raw, byte_reader) else {
        return td::PerfItemValue::new(&[], td::PerfItemMetadata::null());
    };
    let encoding = field.deduced_encoding();
    if encoding == eventheader_types::FieldEncoding::ZStringChar8 {
        let nul = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        bytes = &bytes[..nul];
    }
    let element_size = field.element_size();
    if element_size > 1 {
        bytes = &bytes[..bytes.len() & !(element_size as usize - 1)];
    }
    let count = match (field.deduced_array_count(), field.element_size_shift()) {
        (0, shift) if shift < 8 => (bytes.len() >> shift).min(u16::MAX as usize) as u16,
        (0, _) => 1,
        (n, _) => n,
    };
    td::PerfItemValue::new(
        bytes,
        td::PerfItemMetadata::new(
            byte_reader,
            encoding,
            field.deduced_format(),
            !encoding.is_array(),
            element_size,
            count,
            0,
        ),
    )
}

/// `__rel_loc` fields of 4 bytes (`u16 offset, u16 length`, the offset from
/// the end of the field) decode as if the offset were from the start of the
/// event in tracepoint_decode 0.5.0 (its RelLoc4 case tests RelLoc2). This
/// returns `raw` itself when the format has no such field, else a copy in
/// `buf` whose RelLoc4 offsets are rebased to the start of the event, which
/// the crate then resolves correctly.
fn rel_loc4_as_data_loc<'a>(
    buf: &'a mut Vec<u8>,
    format: &td::PerfEventFormat,
    raw: &'a [u8],
    byte_reader: td::PerfByteReader,
) -> &'a [u8] {
    let mut fields = format
        .fields()
        .iter()
        .filter(|f| f.array() == td::PerfFieldArray::RelLoc4)
        .peekable();
    if fields.peek().is_none() {
        return raw;
    }
    buf.clear();
    buf.extend_from_slice(raw);
    for f in fields {
        let (start, end) = (f.offset() as usize, f.offset() as usize + f.size() as usize);
        if f.size() != 4 || end > buf.len() {
            continue;
        }
        let v = byte_reader.read_u32(&buf[start..]);
        let offset = (v & 0xffff) as usize + end;
        if offset <= 0xffff {
            let v = (v & 0xffff_0000) | offset as u32;
            let bytes = if byte_reader.byte_swap_needed() == cfg!(target_endian = "little") {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            };
            buf[start..end].copy_from_slice(&bytes);
        }
    }
    buf
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian
/// calendar (H. Hinnant's civil-from-days algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Writes `"time": "2024-03-28T00:45:12.640913120Z"` (nanoseconds; the
/// crate's own display rounds to 100 ns) when the sample has a timestamp and
/// the file gives its wall-clock offset. Returns false when it wrote nothing
/// (the crate's display then handles "time", e.g. as seconds).
fn push_time(out: &mut String, sample: &td::PerfSampleEventInfo<'_>) -> bool {
    if !sample
        .sample_type()
        .has_flag(td::PerfEventAttrSampleType::Time)
        || !sample.session_info.clock_offset_known()
    {
        return false;
    }
    let ts = sample.session_info.time_to_time_spec(sample.time);
    let secs = ts.seconds();
    let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
    if !(1..=9999).contains(&year) {
        return false;
    }
    let sod = secs.rem_euclid(86_400);
    let _ = write!(
        out,
        "\"time\": \"{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:09}Z\"",
        sod / 3600,
        sod / 60 % 60,
        sod % 60,
        ts.nanoseconds()
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_loc_fields() {
        // The layout the .NET runtime registers, as tracefs shows it.
        let format = "name: dotnet\nID: 42\nformat:\n\
            \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
            \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n\
            \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n\
            \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n\
            \tfield:u16 event_id;\toffset:8;\tsize:2;\tsigned:0;\n\
            \tfield:__rel_loc u8[] payload;\toffset:10;\tsize:4;\tsigned:0;\n\
            \tfield:__rel_loc u8[] meta;\toffset:14;\tsize:4;\tsigned:0;\n\n\
            print fmt: \"\"\n";
        let format = td::PerfEventFormat::parse(true, "user_events", format).unwrap();
        let mut raw = vec![42, 0, 0, 0, 0xc5, 3, 0, 0, 7, 0];
        // payload: 2 bytes at 4 bytes past its field's end (18); meta: 3 bytes at 2 past its end (20)
        raw.extend_from_slice(&((2u32 << 16) | 4).to_le_bytes());
        raw.extend_from_slice(&((3u32 << 16) | 2).to_le_bytes());
        raw.extend_from_slice(&[0x10, 0x20, 0xaa, 0xbb, 0xcc]);
        let br = td::PerfByteReader::new(false);
        let mut buf = Vec::new();
        let fixed = rel_loc4_as_data_loc(&mut buf, &format, &raw, br);
        let mut out = String::new();
        push_fields(
            &mut out,
            &format,
            format.common_field_count(),
            fixed,
            br,
            td::PerfConvertOptions::Default,
        );
        assert_eq!(
            out,
            r#", "event_id": 7, "payload": [ 16, 32 ], "meta": [ 170, 187, 204 ]"#
        );
    }

    #[test]
    fn variable_size_strings_and_blobs() {
        // tracepoint-provider.h's write_strings layout: two __rel_loc strings,
        // fixed arrays, a struct (hex bytes), then the string data.
        let format = "name: s\nID: 7\nformat:\n\
            \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
            \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n\
            \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n\
            \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n\
            \tfield:__rel_loc char[] str;\toffset:8;\tsize:4;\tsigned:1;\n\
            \tfield:__data_loc char[] dstr;\toffset:12;\tsize:4;\tsigned:1;\n\
            \tfield:char chars[4];\toffset:16;\tsize:4;\tsigned:1;\n\
            \tfield:struct ta_point pt;\toffset:20;\tsize:8;\tsigned:0;\n\
            \tfield:__rel_loc struct blob b;\toffset:28;\tsize:4;\tsigned:0;\n\n\
            print fmt: \"\"\n";
        let format = td::PerfEventFormat::parse(true, "user_events", format).unwrap();
        let mut raw = vec![7, 0, 0, 0, 1, 0, 0, 0];
        raw.extend_from_slice(&((6u32 << 16) | 20).to_le_bytes()); // str: 32 = 12 + 20
        raw.extend_from_slice(&((3u32 << 16) | 38).to_le_bytes()); // dstr: at 38 from the start
        raw.extend_from_slice(b"abcd");
        raw.extend_from_slice(&[0xfb, 0xff, 0xff, 0xff, 0x4d, 0, 0, 0]);
        raw.extend_from_slice(&((2u32 << 16) | 9).to_le_bytes()); // b: 41 = 32 + 9
        raw.extend_from_slice(b"hello\0hi\0\x01\x02");
        assert_eq!(raw.len(), 43);
        let br = td::PerfByteReader::new(false);
        let mut buf = Vec::new();
        let fixed = rel_loc4_as_data_loc(&mut buf, &format, &raw, br);
        let mut out = String::new();
        push_fields(
            &mut out,
            &format,
            format.common_field_count(),
            fixed,
            br,
            td::PerfConvertOptions::Default,
        );
        assert_eq!(
            out,
            r#", "str": "hello", "dstr": "hi", "chars": "abcd", "pt": "FB FF FF FF 4D 00 00 00", "b": "01 02""#
        );
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(19_810), (2024, 3, 28));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-719_162), (1, 1, 1));
        assert_eq!(civil_from_days(2_932_896), (9999, 12, 31));
    }

    #[test]
    fn raw_records_are_valid_json() {
        let mut f = Formatter::new(td::PerfMetaOptions::Default);
        let mut out = String::new();
        assert_eq!(
            f.capture_event(&mut out, "Plain\"Tp", &[0, 0xab, 0x10]),
            Outcome::Raw
        );
        assert_eq!(out, r#"{ "n": "Plain\"Tp", "raw": "00ab10" }"#);
        out.clear();
        assert_eq!(
            f.capture_event(&mut out, "P_L5K1", &[1, 2]),
            Outcome::Malformed
        );
        assert!(
            out.starts_with(
                r#"{ "n": "P_L5K1", "raw": "0102", "error": "not a valid EventHeader event: "#
            ),
            "{out}"
        );
    }

    #[test]
    fn eventheader_event_without_fields() {
        // flags 0x03 (64-bit, little-endian), version 0, id 0, tag 0, opcode 0,
        // level 5; no extension: decodes to its identity only if it has a
        // metadata extension, so add one: extension size 2, kind 1, name "E\0".
        let ev = [3u8, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, b'E', 0];
        let mut ev = ev.to_vec();
        ev[0] |= 4; // extension flag
        let mut f = Formatter::new(td::PerfMetaOptions::Default);
        let mut out = String::new();
        assert_eq!(
            f.capture_event(&mut out, "Prov_L5K1", &ev),
            Outcome::Decoded,
            "{out}"
        );
        assert_eq!(
            out,
            r#"{ "n": "Prov:E", "meta": { "level": 5, "keyword": "0x1" } }"#
        );
        out.clear();
        let mut f = Formatter::new(td::PerfMetaOptions::None);
        f.capture_event(&mut out, "Prov_L5K1", &ev);
        assert_eq!(out, r#"{ "n": "Prov:E" }"#);
    }
}
