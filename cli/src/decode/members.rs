//! An EventHeader event's fields as the members of its JSON object:
//! `, "name": value` for each top-level field, structs as objects, arrays as
//! arrays, in the spacing and spelling of `tracepoint_decode`'s
//! `write_json_item_and_move_next_sibling` with the convert options
//! `decode` uses (the crate's defaults, `Space` among them).
//!
//! The walk is written here so that the common items skip the crate's
//! character-by-character writers: names of printable ASCII (with their
//! tags), integers (decimal, hex strings, booleans of 0 or 1), times of
//! years 1 to 9999, hex bytes, and strings of printable ASCII are written
//! directly. Every other item (floats, other times, errno values,
//! addresses, GUIDs, text that needs
//! escaping or is not ASCII) goes to the crate's public writers, so the
//! bytes stay the crate's. `tests::matches_the_crate` compares the two
//! writers on every encoding and format.

use eventheader_types::{FieldEncoding as E, FieldFormat as F};
use tracepoint_decode as td;

use super::json::JsonText;
use super::keys::Taken;
use super::meta::{push_hex_upper, push_u64, push_utf8_or_latin1_escaped};
use super::time::push_unix_seconds;
use super::view::Span;

type State = td::EventHeaderEnumeratorState;

/// Whether `b` can stand in a JSON string as it is: printable ASCII other
/// than `"` and `\`.
fn plain(b: &[u8]) -> bool {
    // One pass without early exit: the compiler vectorizes it.
    !b.iter().fold(false, |bad, &c| {
        bad | !(0x20..0x7f).contains(&c) | (c == b'"') | (c == b'\\')
    })
}

/// The walk's writer: the separator state (a comma is due after a value or
/// a closed array or object; with the crate's `Space` option every
/// separator after the first carries a space), the nesting depth, and the
/// current top-level member (its key, where its value starts).
struct Walk<'w> {
    out: &'w mut String,
    comma: bool,
    depth: usize,
    key: (usize, usize),
    value_start: usize,
    taken: &'w mut Taken,
    spans: &'w mut Vec<Span>,
    convert: td::PerfConvertOptions,
}

impl Walk<'_> {
    fn separator(&mut self, comma_after: bool) {
        self.out.push_str(if self.comma { ", " } else { " " });
        self.comma = comma_after;
    }

    /// The name of an item that is not an array element.
    fn name(&mut self, info: &td::EventHeaderItemInfo<'_>) {
        self.separator(false);
        let key = push_name(self.out, info, self.convert);
        if self.depth == 0 {
            self.taken.note(&self.out[key.0..key.1]);
            self.key = key;
        }
    }

    /// Notes a top-level member whose value started at `start` and has
    /// just been written.
    fn value_end(&mut self, start: usize) {
        if self.depth == 0 {
            self.spans.push(Span {
                key: self.key,
                value: (start, self.out.len()),
            });
        }
    }

    fn open(&mut self, bracket: char) {
        self.separator(false);
        if self.depth == 0 {
            self.value_start = self.out.len();
        }
        self.out.push(bracket);
        self.depth += 1;
    }

    fn close(&mut self, bracket: &str) {
        self.comma = true;
        self.out.push_str(bracket);
        self.depth = self.depth.saturating_sub(1);
        self.value_end(self.value_start);
    }
}

/// Writes the members of the event `e` enumerates, which is positioned
/// before its first item, each preceded by `, `, noting each top-level
/// key in `taken` and each top-level member's place in `out` in `spans`.
/// Returns false when the event's data is malformed (the enumerator's state is
/// then `Error`); what was written is then partial.
pub fn push_members(
    out: &mut String,
    e: &mut td::EventHeaderEnumerator<'_, '_, '_>,
    convert: td::PerfConvertOptions,
    (taken, spans): (&mut Taken, &mut Vec<Span>),
) -> bool {
    let mut w = Walk {
        out,
        comma: true,
        depth: 0,
        key: (0, 0),
        value_start: 0,
        taken,
        spans,
        convert,
    };
    let mut moved = e.move_next();
    while moved {
        match e.state() {
            State::Value => {
                let info = e.item_info();
                if !info.metadata().is_element() {
                    w.name(&info);
                }
                w.separator(true);
                let start = w.out.len();
                push_scalar(w.out, info.value(), convert);
                w.value_end(start);
            }
            State::ArrayBegin => {
                let info = e.item_info();
                w.name(&info);
                if info.metadata().type_size() == 0 {
                    w.open('[');
                } else {
                    w.out.push(' ');
                    let start = w.out.len();
                    let _ = info
                        .value()
                        .write_json_simple_array_to(&mut JsonText(w.out), convert);
                    w.comma = true;
                    w.value_end(start);
                    moved = e.move_next_sibling();
                    continue;
                }
            }
            State::ArrayEnd => w.close(" ]"),
            State::StructBegin => {
                let info = e.item_info();
                if !info.metadata().is_element() {
                    w.name(&info);
                }
                w.open('{');
            }
            State::StructEnd => w.close(" }"),
            _ => return false,
        }
        moved = e.move_next();
    }
    e.state() != State::Error
}

/// `"name":`, with `;tag=0x..` when the field has a tag. Returns where
/// the key (without its quotes) is in `out`.
fn push_name(
    out: &mut String,
    info: &td::EventHeaderItemInfo<'_>,
    convert: td::PerfConvertOptions,
) -> (usize, usize) {
    out.push('"');
    let start = out.len();
    let name = info.name_bytes();
    if plain(name) {
        // Printable ASCII: each byte is its character.
        out.extend(name.iter().map(|&b| char::from(b)));
    } else {
        push_utf8_or_latin1_escaped(out, name);
    }
    if convert.has_flag(td::PerfConvertOptions::FieldTag) {
        let tag = info.metadata().field_tag();
        if tag != 0 {
            out.push_str(";tag=0x");
            push_hex_upper(out, tag.into());
        }
    }
    let end = out.len();
    out.push_str("\":");
    (start, end)
}

/// A scalar value (or one element of an array of strings or structs).
fn push_scalar(out: &mut String, v: &td::PerfItemValue<'_>, convert: td::PerfConvertOptions) {
    if !push_common(out, v, convert) {
        let _ = v.write_json_scalar_to(&mut JsonText(out), convert);
    }
}

/// Writes the values whose JSON is plain: integers, booleans of 0 or 1,
/// hex bytes, and strings of printable ASCII. False (nothing written) for the
/// rest.
fn push_common(
    out: &mut String,
    v: &td::PerfItemValue<'_>,
    convert: td::PerfConvertOptions,
) -> bool {
    let m = v.metadata();
    let format = m.format();
    let hex_string = convert.has_flag(td::PerfConvertOptions::IntHexAsString);
    let (unsigned, signed): (u64, i64) = match m.encoding() {
        E::Value8 => (v.to_u8(0).into(), v.to_i8(0).into()),
        E::Value16 => (v.to_u16(0).into(), v.to_i16(0).into()),
        E::Value32 => (v.to_u32(0).into(), v.to_i32(0).into()),
        E::Value64 => (v.to_u64(0), v.to_i64(0)),
        E::ZStringChar8 | E::StringLength16Char8 | E::BinaryLength16Char8 => {
            return push_char8(out, m.encoding(), format, v.bytes())
        }
        _ => return false,
    };
    let size = m.type_size();
    match format {
        F::Default | F::UnsignedInt => push_u64(out, unsigned),
        F::SignedInt => push_i64(out, signed),
        F::Pid if size >= 4 => push_i64(out, signed),
        F::HexInt if hex_string => {
            out.push_str("\"0x");
            push_hex_upper(out, unsigned);
            out.push('"');
        }
        F::String8 if size == 1 => return push_char8(out, E::Value8, format, &[unsigned as u8]),
        // A UTF-16 or UTF-32 code unit as a one-character string.
        F::StringUtf if (size == 2 || size == 4) && unsigned < 0x80 => {
            return push_char8(out, E::Value8, format, &[unsigned as u8])
        }
        F::HexBytes => push_hex_bytes(out, v.bytes().get(..size.into()).unwrap_or_default()),
        // Seconds since 1970, as a date and time within years 1 to 9999.
        F::Time
            if size >= 4
                && convert.has_flag(td::PerfConvertOptions::UnixTimeWithinRangeAsString) =>
        {
            return push_unix_seconds(out, signed)
        }
        F::Boolean if size <= 4 && unsigned <= 1 => {
            out.push_str(if unsigned == 1 { "true" } else { "false" })
        }
        _ => return false,
    }
    true
}

/// A string of 8-bit units (or, as the format says, its bytes in hex).
/// Text is written when it is printable ASCII, which every text encoding
/// and every byte-order mark test reads the same way. `encoding` `Value8`
/// stands for one code unit of a character.
fn push_char8(out: &mut String, encoding: E, format: F, bytes: &[u8]) -> bool {
    let text = match format {
        F::HexBytes => false,
        F::String8 | F::StringUtf | F::StringUtfBom | F::StringXml | F::StringJson => true,
        // Zero-terminated strings are text whatever their format.
        _ if encoding == E::ZStringChar8 => true,
        // Counted ones of a number's, an address's or a GUID's size are
        // that value (left to the crate); of any other size, and of the
        // default or an unknown format, binary ones are hex bytes and
        // strings text.
        _ if value_size(format, bytes.len()) => return false,
        _ => encoding != E::BinaryLength16Char8,
    };
    if !text {
        push_hex_bytes(out, bytes);
        return true;
    }
    if !plain(bytes) {
        return false;
    }
    // Printable ASCII: valid UTF-8, nothing to escape.
    let Ok(s) = std::str::from_utf8(bytes) else {
        return false;
    };
    out.push('"');
    out.push_str(s);
    out.push('"');
    true
}

/// Whether a counted string of `len` bytes in `format` is read as a value
/// of that format (a number, time, address or GUID) rather than as bytes.
fn value_size(format: F, len: usize) -> bool {
    let sizes: &[usize] = match format {
        F::UnsignedInt | F::SignedInt | F::HexInt => &[0, 1, 2, 4, 8],
        F::Errno | F::Pid => &[0, 4],
        F::Time | F::Float => &[0, 4, 8],
        F::Boolean => &[0, 1, 2, 4],
        F::Uuid => &[0, 16],
        F::Port => &[0, 2],
        F::IPAddress | F::IPAddressObsolete => &[0, 4, 16],
        _ => &[],
    };
    sizes.contains(&len)
}

/// `"0A 1B 2C"`: each byte as two upper-case hex digits.
fn push_hex_bytes(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('"');
    for (i, &b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
    out.push('"');
}

fn push_i64(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    push_u64(out, v.unsigned_abs());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One field's metadata and data: name, encoding, format, tag, value.
    struct Field<'a>(&'a [u8], u8, u8, u16, &'a [u8]);

    /// An EventHeader event (64-bit, little-endian) with these fields.
    fn event(fields: &[Field<'_>]) -> Vec<u8> {
        let mut meta = b"E\0".to_vec();
        let mut data = Vec::new();
        for Field(name, encoding, format, tag, value) in fields {
            meta.extend_from_slice(name);
            meta.push(0);
            meta.push(encoding | 0x80); // a format follows
            if *tag != 0 {
                meta.push(format | 0x80); // a tag follows
                meta.extend_from_slice(&tag.to_le_bytes());
            } else {
                meta.push(*format);
            }
            data.extend_from_slice(value);
        }
        let mut ev = vec![7u8, 0, 0, 0, 0, 0, 0, 5];
        ev.extend_from_slice(&(meta.len() as u16).to_le_bytes());
        ev.extend_from_slice(&1u16.to_le_bytes()); // kind: metadata
        ev.extend_from_slice(&meta);
        ev.extend_from_slice(&data);
        ev
    }

    /// The members as the crate writes them, and as [`push_members`] does.
    fn both(ev: &[u8]) -> (String, String) {
        let convert = td::PerfConvertOptions::Default;
        let mut context = td::EventHeaderEnumeratorContext::new();
        let mut e = context
            .enumerate_with_name_and_data("P_L5K1", ev, 4096)
            .expect("a valid event");
        let mut theirs = String::new();
        e.move_next();
        while e.state().can_move_next() {
            e.write_json_item_and_move_next_sibling(&mut JsonText(&mut theirs), true, convert)
                .expect("writing to a String");
        }
        let mut context = td::EventHeaderEnumeratorContext::new();
        let mut e = context
            .enumerate_with_name_and_data("P_L5K1", ev, 4096)
            .expect("a valid event");
        let mut ours = String::new();
        let (mut taken, mut spans) = (Taken::default(), Vec::new());
        assert!(push_members(
            &mut ours,
            &mut e,
            convert,
            (&mut taken, &mut spans)
        ));
        // The spans are the members a JSON reader finds.
        let parsed: Vec<_> = super::super::view::members(&ours).collect();
        let noted: Vec<_> = spans
            .iter()
            .map(|s| (&ours[s.key.0..s.key.1], &ours[s.value.0..s.value.1]))
            .collect();
        assert_eq!(noted, parsed);
        (theirs, ours)
    }

    fn counted(bytes: &[u8]) -> Vec<u8> {
        let mut v = (bytes.len() as u16).to_le_bytes().to_vec();
        v.extend_from_slice(bytes);
        v
    }

    #[test]
    fn matches_the_crate() {
        let texts: [&[u8]; 14] = [
            b"",
            b"1",
            b"22",
            b"4444",
            b"88888888",
            b"sixteen 16 bytes",
            b"\x80\xff\x00\x01",
            b"plain text",
            b"q\"uote\\",
            b"tab\tnl\n\x01\x1f",
            "caf\u{e9} \u{1f600}".as_bytes(),
            b"latin1 \xe9\xff",
            b"\xef\xbb\xbfbom",
            b"\x7f del",
        ];
        // Times among them: 9999-12-31T23:59:59, year 10000, 0001-01-01,
        // year 0.
        let ints: [u64; 10] = [
            0,
            1,
            2,
            0x7f,
            0x8000_0000,
            u64::MAX,
            253_402_300_799,
            253_402_300_800,
            -62_135_596_800i64 as u64,
            -62_135_596_801i64 as u64,
        ];
        let mut checked = 0;
        for format in 0..=20u8 {
            for tag in [0u16, 0xbeef] {
                for encoding in 2..=5u8 {
                    let size = 1usize << (encoding - 2);
                    for v in ints {
                        let bytes = v.to_le_bytes();
                        let ev = event(&[Field(b"f", encoding, format, tag, &bytes[..size])]);
                        let (theirs, ours) = both(&ev);
                        assert_eq!(
                            ours, theirs,
                            "encoding {encoding} format {format} value {v:#x}"
                        );
                        checked += 1;
                    }
                }
                for text in texts {
                    let mut z = text.to_vec();
                    z.push(0);
                    for (encoding, value) in
                        [(7u8, z.clone()), (10, counted(text)), (13, counted(text))]
                    {
                        let ev = event(&[Field(b"s", encoding, format, tag, &value)]);
                        let (theirs, ours) = both(&ev);
                        assert_eq!(
                            ours, theirs,
                            "encoding {encoding} format {format} text {text:?}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 2000);
    }

    #[test]
    fn names_arrays_and_structs_match_the_crate() {
        let names: [&[u8]; 5] = [b"n", b"meta", b"a \"q\"", b"tab\t", b"caf\xc3\xa9\xe9"];
        for name in names {
            let ev = event(&[Field(name, 4, 0, 0, &7u32.to_le_bytes())]);
            let (theirs, ours) = both(&ev);
            assert_eq!(ours, theirs, "name {name:?}");
        }
        // A struct of two fields (format = its field count), then a
        // variable array of 32-bit values (count in the data), then an
        // array of strings (elements written by the walk).
        let mut meta = b"E\0s\0".to_vec();
        meta.extend_from_slice(&[0x81, 2]);
        meta.extend_from_slice(b"x\0\x04y\0\x87\x0b");
        meta.extend_from_slice(b"arr\0\x44");
        meta.extend_from_slice(b"strs\0\x47");
        let mut data = 5u32.to_le_bytes().to_vec();
        data.extend_from_slice(b"y\"v\0");
        data.extend_from_slice(&3u16.to_le_bytes());
        for v in [1u32, 2, 3] {
            data.extend_from_slice(&v.to_le_bytes());
        }
        data.extend_from_slice(&2u16.to_le_bytes());
        data.extend_from_slice(b"a\0b c\0");
        let mut ev = vec![7u8, 0, 0, 0, 0, 0, 0, 5];
        ev.extend_from_slice(&(meta.len() as u16).to_le_bytes());
        ev.extend_from_slice(&1u16.to_le_bytes());
        ev.extend_from_slice(&meta);
        ev.extend_from_slice(&data);
        let (theirs, ours) = both(&ev);
        assert_eq!(ours, theirs);
        assert!(ours.contains("\"strs\": [ \"a\", \"b c\" ]"), "{ours}");
    }
}
