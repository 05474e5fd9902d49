//! Every output of `decode` is valid JSON whatever the strings in the events
//! (no field can end a string early or add keys): hostile event, provider and
//! field names and string values in every text encoding EventHeader has (UTF-8,
//! UTF-16 and UTF-32, NUL-terminated and counted, char8/char16/char32 values,
//! strings with a byte-order mark), quotes, backslashes, control characters,
//! invalid code units, and a value that tries to inject keys. Each decode
//! output (array, JSON Lines, all metadata; capture file and perf.data) is
//! parsed with a JSON parser, and the injected text must come back as the
//! string value.

mod common;

use common::{capture_record, run, Rng};
use testkit::json::{try_parse, J};
use testkit::synth::write_perf_data;

/// Characters JSON text must escape, or that tempt a writer to get it wrong.
const HOSTILE: &[u32] = &[
    '"' as u32,
    '\\' as u32,
    '/' as u32,
    0x01,
    0x08,
    0x09,
    0x0a,
    0x0c,
    0x0d,
    0x1b,
    0x1f,
    0x7f,
    0x80,
    0x85,
    0xa0,
    0xe9,
    0x2028,
    0x2029,
    0xfeff,
    0xfffd,
    0x1f600,
    0x10ffff,
    // Not Unicode scalar values: a surrogate, past U+10FFFF.
    0xd800,
    0xdfff,
    0x110000,
    0xffff_ffff,
    'a' as u32,
    '{' as u32,
    ':' as u32,
    ',' as u32,
];

/// A value that would inject keys into the event object if it were not escaped.
const INJECTION: &str = "x\", \"admin\": true, \"y\": \"";

fn hostile_chars(rng: &mut Rng, max: u64) -> Vec<u32> {
    (0..1 + rng.below(max as usize))
        .map(|_| HOSTILE[rng.below(HOSTILE.len())])
        .collect()
}

/// A name (UTF-8 in metadata, NUL-terminated): hostile characters except NUL
/// and the attribute separator ';'.
fn hostile_name(rng: &mut Rng) -> Vec<u8> {
    let mut s = String::new();
    for c in hostile_chars(rng, 6) {
        if let Some(c) = char::from_u32(c).filter(|&c| c != '\0' && c != ';') {
            s.push(c);
        }
    }
    s.push('n');
    s.into_bytes()
}

/// Text as UTF-16LE code units (unpaired surrogates kept; other values
/// outside the BMP become pairs, invalid ones U+FFFD).
fn utf16(chars: &[u32]) -> Vec<u8> {
    let mut out = Vec::new();
    for &c in chars {
        match c {
            0..=0xffff => out.extend_from_slice(&(c as u16).to_le_bytes()),
            _ => {
                let ch = char::from_u32(c).unwrap_or('\u{fffd}');
                let mut buf = [0u16; 2];
                for u in ch.encode_utf16(&mut buf) {
                    out.extend_from_slice(&u.to_le_bytes());
                }
            }
        }
    }
    out
}

fn utf32(chars: &[u32]) -> Vec<u8> {
    chars.iter().flat_map(|c| c.to_le_bytes()).collect()
}

/// UTF-8 (invalid sequences become U+FFFD... or are written as they are:
/// both must come out as valid JSON), plus raw bytes that are not UTF-8.
fn utf8(chars: &[u32], rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for &c in chars {
        match char::from_u32(c) {
            Some(ch) => out.extend_from_slice(ch.to_string().as_bytes()),
            None => out.push(0x80 | rng.below(0x7f) as u8),
        }
    }
    out
}

/// Fields of one event: metadata (name, encoding, format) and payload.
struct Event {
    meta: Vec<u8>,
    data: Vec<u8>,
}

impl Event {
    fn new(name: &[u8]) -> Event {
        let mut meta = name.to_vec();
        meta.push(0);
        Event {
            meta,
            data: Vec::new(),
        }
    }

    /// A field: its name, encoding and format (0 = none), and its value.
    fn field(&mut self, name: &[u8], encoding: u8, format: u8, value: &[u8]) {
        self.meta.extend_from_slice(name);
        self.meta.push(0);
        if format == 0 {
            self.meta.push(encoding);
        } else {
            self.meta.extend_from_slice(&[encoding | 0x80, format]);
        }
        self.data.extend_from_slice(value);
    }

    /// The event bytes: header (64-bit, little-endian, extension; level 5),
    /// the metadata extension, the payload.
    fn bytes(&self) -> Vec<u8> {
        let mut ev = vec![7u8, 0, 0, 0, 0, 0, 0, 5];
        ev.extend_from_slice(&(self.meta.len() as u16).to_le_bytes());
        ev.extend_from_slice(&1u16.to_le_bytes());
        ev.extend_from_slice(&self.meta);
        ev.extend_from_slice(&self.data);
        ev
    }
}

// Field encodings and formats (docs/format.md §4.5, §4.6).
const VALUE8: u8 = 2;
const VALUE16: u8 = 3;
const VALUE32: u8 = 4;
const ZSTR8: u8 = 7;
const ZSTR16: u8 = 8;
const ZSTR32: u8 = 9;
const STR8: u8 = 10;
const STR16: u8 = 11;
const STR32: u8 = 12;
const BINARY: u8 = 13;
const F_STRING8: u8 = 10;
const F_UTF: u8 = 11;
const F_UTF_BOM: u8 = 12;
const F_XML: u8 = 13;
const F_JSON: u8 = 14;

fn counted(unit: usize, bytes: &[u8]) -> Vec<u8> {
    let mut v = ((bytes.len() / unit) as u16).to_le_bytes().to_vec();
    v.extend_from_slice(bytes);
    v
}

fn zstring(unit: usize, bytes: &[u8]) -> Vec<u8> {
    // Text up to its first NUL unit, then the terminator.
    let mut v: Vec<u8> = bytes
        .chunks(unit)
        .take_while(|c| c.iter().any(|&b| b != 0))
        .flatten()
        .copied()
        .collect();
    v.resize(v.len() + unit, 0);
    v
}

/// One event with a field of every text kind, hostile names and values.
fn hostile_event(rng: &mut Rng) -> Event {
    let mut e = Event::new(&hostile_name(rng));
    let text = |rng: &mut Rng| hostile_chars(rng, 12);
    let t = text(rng);
    e.field(&hostile_name(rng), ZSTR8, 0, &zstring(1, &utf8(&t, rng)));
    let t = text(rng);
    e.field(&hostile_name(rng), ZSTR16, 0, &zstring(2, &utf16(&t)));
    let t = text(rng);
    e.field(&hostile_name(rng), ZSTR32, 0, &zstring(4, &utf32(&t)));
    let t = text(rng);
    e.field(&hostile_name(rng), STR8, 0, &counted(1, &utf8(&t, rng)));
    let t = text(rng);
    e.field(&hostile_name(rng), STR16, 0, &counted(2, &utf16(&t)));
    let t = text(rng);
    e.field(&hostile_name(rng), STR32, 0, &counted(4, &utf32(&t)));
    let t = text(rng);
    e.field(
        &hostile_name(rng),
        STR8,
        F_STRING8,
        &counted(1, &utf8(&t, rng)),
    );
    // Single characters.
    let c = HOSTILE[rng.below(HOSTILE.len())];
    e.field(&hostile_name(rng), VALUE32, F_UTF, &c.to_le_bytes());
    e.field(
        &hostile_name(rng),
        VALUE16,
        F_UTF,
        &(c as u16).to_le_bytes(),
    );
    e.field(&hostile_name(rng), VALUE8, F_STRING8, &[c as u8]);
    // Strings with a byte-order mark (UTF-32LE, UTF-16LE, UTF-8), and XML
    // and JSON formats, which decode the same way.
    for format in [F_UTF_BOM, F_XML, F_JSON] {
        let t = text(rng);
        let mut v = vec![0xff, 0xfe, 0, 0];
        v.extend_from_slice(&utf32(&t));
        e.field(&hostile_name(rng), STR8, format, &counted(1, &v));
        let mut v = vec![0xff, 0xfe];
        v.extend_from_slice(&utf16(&t));
        e.field(&hostile_name(rng), BINARY, format, &counted(1, &v));
    }
    e
}

/// The injection attempt in every 32-bit and 16-bit string form.
fn injection_event() -> Event {
    let chars: Vec<u32> = INJECTION.chars().map(u32::from).collect();
    let mut e = Event::new(b"Injection");
    e.field(b"z32", ZSTR32, 0, &zstring(4, &utf32(&chars)));
    e.field(b"s32", STR32, 0, &counted(4, &utf32(&chars)));
    e.field(b"z16", ZSTR16, 0, &zstring(2, &utf16(&chars)));
    e.field(b"z8", ZSTR8, 0, &zstring(1, INJECTION.as_bytes()));
    e.field(b"backslash", VALUE32, F_UTF, &u32::from('\\').to_le_bytes());
    e
}

/// Tracepoint names: providers with quotes and backslashes (no white space,
/// ':' or control characters: those are no EventHeader name; ASCII, as the
/// tracefs formats in perf.data are).
const PROVIDERS: &[&str] = &["P\"q", "P\\q", "P{q}", "Plain"];

fn decode_outputs(path: &std::path::Path) -> Vec<(String, String)> {
    let p = path.to_str().unwrap();
    let mut outputs = Vec::new();
    for args in [
        &["decode", p][..],
        &["decode", "--jsonl", p],
        &["decode", "--meta", "all", p],
        &["decode", "--jsonl", "--meta", "all", "--order", "file", p],
    ] {
        let out = run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: output is not UTF-8: {e}"));
        outputs.push((format!("{args:?}"), text));
    }
    outputs
}

fn assert_valid(what: &str, text: &str, jsonl: bool) -> Vec<J> {
    if jsonl {
        text.lines()
            .map(|l| try_parse(l).unwrap_or_else(|e| panic!("{what}: {e}")))
            .collect()
    } else {
        try_parse(text)
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .as_array()
            .to_vec()
    }
}

#[test]
fn every_output_is_valid_json() {
    const EVENTS: usize = 600;
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut records = vec![("Injection_L5K1".to_string(), injection_event().bytes())];
    for i in 0..EVENTS {
        let provider = PROVIDERS[i % PROVIDERS.len()];
        records.push((format!("{provider}_L5K1"), hostile_event(&mut rng).bytes()));
    }
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("hostile.dat");
    let mut bytes = Vec::new();
    for (name, event) in &records {
        capture_record(&mut bytes, name, event);
    }
    std::fs::write(&capture, bytes).unwrap();
    // tracefs format files hold no quotes or backslashes in event names (a
    // quote would start a string to the format parser).
    let perf_records: Vec<(String, Vec<u8>)> = records
        .iter()
        .map(|(n, e)| (n.replace(['"', '\\'], "_"), e.clone()))
        .collect();
    let perf = dir.path().join("hostile.data");
    write_perf_data(&perf, &perf_records, perf_records.len(), true);

    for path in [&capture, &perf] {
        for (what, text) in decode_outputs(path) {
            let events = assert_valid(&what, &text, what.contains("jsonl"));
            assert_eq!(events.len(), records.len(), "{what}");
            // The injection comes back as the value it was, and adds no key.
            let first = &events[0];
            for field in ["z32", "s32", "z16", "z8"] {
                assert_eq!(
                    first.get(field).and_then(J::as_str),
                    Some(INJECTION),
                    "{what}: {field} in {first:?}"
                );
            }
            assert_eq!(first.get("backslash").and_then(J::as_str), Some("\\"));
            assert!(first.get("admin").is_none(), "{what}: {first:?}");
            for e in &events {
                assert!(
                    e.get("error").is_none(),
                    "{what}: an event failed to decode: {e:?}"
                );
            }
        }
    }
}
