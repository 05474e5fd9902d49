//! The fields of tracepoints decoded through their tracefs format, with
//! workarounds for two bugs of tracepoint_decode 0.5.0 in variable-size
//! fields (`__data_loc`, `__rel_loc`); and the walk that offers an event's
//! field values to the field terms (`--where`) without writing JSON.

use tracepoint_decode as td;

use super::json::{push_json_str, JsonText};
use crate::filter::{FieldTerm, Matcher};

/// The field terms' walk over an event's values, with its buffers reused
/// event to event.
#[derive(Debug, Default)]
pub struct FieldWalk {
    matcher: Matcher,
    /// The path of the current struct (`a.b`).
    path: Vec<u8>,
    /// The path's length before each open struct.
    marks: Vec<usize>,
}

impl FieldWalk {
    /// Do all `terms` hold for the EventHeader event `e` enumerates? An
    /// event that fails to enumerate passes (its writer reports it as
    /// malformed, whatever the filters). Leaves `e` reset.
    pub fn eventheader_holds(
        &mut self,
        e: &mut td::EventHeaderEnumerator<'_, '_, '_>,
        terms: &[FieldTerm],
    ) -> bool {
        self.matcher.begin(terms);
        self.path.clear();
        self.marks.clear();
        let mut failed = false;
        while !self.matcher.all_hold() && e.move_next() {
            match e.state() {
                td::EventHeaderEnumeratorState::Value => {
                    let info = e.item_info();
                    let mark = self.path.len();
                    if mark > 0 {
                        self.path.push(b'.');
                    }
                    self.path.extend_from_slice(info.name_bytes());
                    if self.matcher.wants(terms, &self.path) {
                        self.matcher.offer(terms, &self.path, info.value());
                    }
                    self.path.truncate(mark);
                }
                td::EventHeaderEnumeratorState::StructBegin => {
                    let mark = self.path.len();
                    self.marks.push(mark);
                    if mark > 0 {
                        self.path.push(b'.');
                    }
                    self.path.extend_from_slice(e.item_info().name_bytes());
                }
                td::EventHeaderEnumeratorState::StructEnd => {
                    if let Some(mark) = self.marks.pop() {
                        self.path.truncate(mark);
                    }
                }
                _ => {}
            }
        }
        if e.state() == td::EventHeaderEnumeratorState::Error {
            failed = true;
        }
        let held = self.matcher.all_hold();
        e.reset();
        held || failed
    }

    /// Do all `terms` hold for the fields of a tracefs-format event?
    pub fn tracefs_holds(
        &mut self,
        format: &td::PerfEventFormat,
        raw: &[u8],
        byte_reader: td::PerfByteReader,
        terms: &[FieldTerm],
    ) -> bool {
        self.matcher.begin(terms);
        for field in format.fields() {
            let name = field.name().as_bytes();
            if self.matcher.wants(terms, name) {
                let value = field_value(field, raw, byte_reader);
                self.matcher.offer(terms, name, &value);
                if self.matcher.all_hold() {
                    break;
                }
            }
        }
        self.matcher.all_hold()
    }
}

/// `, "name": value` for the fields of a tracefs-format event from `skip` on.
pub fn push_fields(
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
        let _ = value
            .json_display()
            .convert_options(convert)
            .write_to(&mut JsonText(out));
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
    let Some(mut bytes) = field_bytes(field, raw, byte_reader) else {
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

/// A variable-size field's bytes, as `get_field_bytes` finds them, except
/// that a `__rel_loc` field of 4 bytes (`u16 offset, u16 length`) is
/// resolved from the end of the field: tracepoint_decode 0.5.0 resolves it
/// from the start of the event, like `__data_loc` (its RelLoc4 case tests
/// RelLoc2).
fn field_bytes<'a>(
    field: &td::PerfFieldFormat,
    raw: &'a [u8],
    byte_reader: td::PerfByteReader,
) -> Option<&'a [u8]> {
    if field.array() != td::PerfFieldArray::RelLoc4 {
        return field.get_field_bytes(raw, byte_reader);
    }
    let at = usize::from(field.offset());
    let end = at + usize::from(field.size());
    let word = byte_reader.read_u32(raw.get(at..end)?);
    let start = end + (word & 0xffff) as usize;
    raw.get(start..start + (word >> 16) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use testkit::perf::COMMON_FIELDS;

    /// `push_fields` of the event's own fields: `format` is a tracefs
    /// format, `raw` a little-endian entry of it.
    fn fields_json(format: &str, raw: &[u8]) -> String {
        let format = td::PerfEventFormat::parse(true, "user_events", format).unwrap();
        let mut out = String::new();
        push_fields(
            &mut out,
            &format,
            format.common_field_count(),
            raw,
            td::PerfByteReader::new(false),
            td::PerfConvertOptions::Default,
        );
        out
    }

    #[test]
    fn rel_loc_fields() {
        // The layout the .NET runtime registers, as tracefs shows it.
        let format = format!(
            "name: dotnet\nID: 42\nformat:\n{COMMON_FIELDS}\
            \tfield:u16 event_id;\toffset:8;\tsize:2;\tsigned:0;\n\
            \tfield:__rel_loc u8[] payload;\toffset:10;\tsize:4;\tsigned:0;\n\
            \tfield:__rel_loc u8[] meta;\toffset:14;\tsize:4;\tsigned:0;\n\n\
            print fmt: \"\"\n"
        );
        let mut raw = vec![42, 0, 0, 0, 0xc5, 3, 0, 0, 7, 0];
        // payload: 2 bytes at 4 bytes past its field's end (18); meta: 3 bytes at 2 past its end (20)
        raw.extend_from_slice(&((2u32 << 16) | 4).to_le_bytes());
        raw.extend_from_slice(&((3u32 << 16) | 2).to_le_bytes());
        raw.extend_from_slice(&[0x10, 0x20, 0xaa, 0xbb, 0xcc]);
        assert_eq!(
            fields_json(&format, &raw),
            r#", "event_id": 7, "payload": [ 16, 32 ], "meta": [ 170, 187, 204 ]"#
        );
    }

    #[test]
    fn variable_size_strings_and_blobs() {
        // tracepoint-provider.h's write_strings layout: two __rel_loc strings,
        // fixed arrays, a struct (hex bytes), then the string data.
        let format = format!(
            "name: s\nID: 7\nformat:\n{COMMON_FIELDS}\
            \tfield:__rel_loc char[] str;\toffset:8;\tsize:4;\tsigned:1;\n\
            \tfield:__data_loc char[] dstr;\toffset:12;\tsize:4;\tsigned:1;\n\
            \tfield:char chars[4];\toffset:16;\tsize:4;\tsigned:1;\n\
            \tfield:struct ta_point pt;\toffset:20;\tsize:8;\tsigned:0;\n\
            \tfield:__rel_loc struct blob b;\toffset:28;\tsize:4;\tsigned:0;\n\n\
            print fmt: \"\"\n"
        );
        let mut raw = vec![7, 0, 0, 0, 1, 0, 0, 0];
        raw.extend_from_slice(&((6u32 << 16) | 20).to_le_bytes()); // str: 32 = 12 + 20
        raw.extend_from_slice(&((3u32 << 16) | 38).to_le_bytes()); // dstr: at 38 from the start
        raw.extend_from_slice(b"abcd");
        raw.extend_from_slice(&[0xfb, 0xff, 0xff, 0xff, 0x4d, 0, 0, 0]);
        raw.extend_from_slice(&((2u32 << 16) | 9).to_le_bytes()); // b: 41 = 32 + 9
        raw.extend_from_slice(b"hello\0hi\0\x01\x02");
        assert_eq!(raw.len(), 43);
        assert_eq!(
            fields_json(&format, &raw),
            r#", "str": "hello", "dstr": "hi", "chars": "abcd", "pt": "FB FF FF FF 4D 00 00 00", "b": "01 02""#
        );
    }
}
