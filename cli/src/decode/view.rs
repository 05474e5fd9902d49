//! The seam between decoding and the output formats: for each event that
//! passes the filters, the [`Formatter`](super::Formatter) renders it as one
//! JSON object and describes it as an [`EventView`]; a [`Sink`] (JSON,
//! JSON Lines, text, CSV, ...) writes it. The view borrows the formatter's
//! reused buffers: no allocation per event.

use std::io;

/// An event's time in nanoseconds: since 1970 (UTC) when the recording
/// gives its wall-clock offset (`wall`), else of the recording's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Time {
    pub ns: i64,
    pub wall: bool,
}

/// One event as the output formats see it. Metadata that the recording does
/// not carry (a capture has no time, cpu, pid or tid; a tracepoint that is
/// not EventHeader has no level) is `None`.
#[derive(Clone, Copy, Debug)]
pub struct EventView<'a> {
    pub time: Option<Time>,
    /// The time of the input's first event (for relative times).
    pub first_time: Option<Time>,
    pub cpu: Option<u32>,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    /// The process name of `pid` from the recording's COMM records.
    pub comm: Option<&'a str>,
    /// The tracepoint (`Provider_L5K1`, or `system:name` in perf.data).
    pub tracepoint: &'a str,
    pub provider: &'a str,
    /// The event name (EventHeader names that are not UTF-8 read as Latin-1).
    pub event: &'a str,
    /// Level, keyword and opcode of an EventHeader event, when non-zero.
    pub level: Option<u8>,
    pub keyword: Option<u64>,
    pub opcode: Option<u8>,
    pub activity: Option<[u8; 16]>,
    pub related: Option<[u8; 16]>,
    /// The event as the JSON output writes it (one object, one line).
    pub json: &'a str,
    /// The event's fields within `json`: `, "name": value` members (for an
    /// event that could not be decoded, its `raw` and `error` members).
    /// [`members`] reads them.
    pub fields: &'a str,
    /// The members of `fields` as spans of `json`, when the writer noted
    /// them ([`EventView::members`] reads them, or parses `fields`).
    pub spans: Option<&'a [Span]>,
}

/// Where one member's key (as written, without quotes) and value are in
/// an event's JSON text: byte ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub key: (usize, usize),
    pub value: (usize, usize),
}

impl<'a> EventView<'a> {
    /// The event's fields: (key as written, still escaped; value text).
    pub fn members(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let json = self.json;
        let (spans, parsed) = match self.spans {
            Some(spans) => (spans, members("")),
            None => (&[][..], members(self.fields)),
        };
        spans
            .iter()
            .map(move |s| {
                (
                    json.get(s.key.0..s.key.1).unwrap_or(""),
                    json.get(s.value.0..s.value.1).unwrap_or(""),
                )
            })
            .chain(parsed)
    }
}

/// Where events go: one implementation per output format.
pub trait Sink {
    /// Starts an input (several inputs are written one after another).
    fn begin_input(&mut self) -> io::Result<()>;
    fn event(&mut self, event: &EventView<'_>) -> io::Result<()>;
    fn end_input(&mut self) -> io::Result<()>;
    /// Ends the output and flushes it.
    fn finish(&mut self) -> io::Result<()>;
    /// What the output has to tell the user once finished (stderr lines).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The members of JSON object text (or of the member list of
/// [`EventView::fields`]): (key as written, still escaped; value text).
/// Stops at the first thing that is not a member: never panics.
pub fn members(text: &str) -> Members<'_> {
    let text = text.trim_start();
    let text = text.strip_prefix('{').unwrap_or(text);
    Members { rest: text }
}

pub struct Members<'a> {
    rest: &'a str,
}

/// The length of the JSON string at the start of `s` (quotes included).
fn string_len(s: &[u8]) -> Option<usize> {
    let mut i = 1;
    while i < s.len() {
        match s[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The length of the JSON value at the start of `s`.
fn value_len(s: &[u8]) -> usize {
    let mut depth = 0usize;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'"' => match string_len(&s[i..]) {
                Some(n) => i += n,
                None => return s.len(),
            },
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' if depth == 0 => return i,
            b'}' | b']' => {
                depth -= 1;
                i += 1;
                if depth == 0 {
                    return i;
                }
            }
            b',' if depth == 0 => return i,
            _ => i += 1,
        }
    }
    s.len()
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let s = skip(self.rest, b",");
        let b = s.as_bytes();
        if b.first() != Some(&b'"') {
            self.rest = "";
            return None;
        }
        let klen = string_len(b)?;
        let key = s.get(1..klen - 1)?;
        let after = skip(s.get(klen..)?, b"");
        let after = skip(after.strip_prefix(':')?, b"");
        let vlen = value_len(after.as_bytes());
        let value = after.get(..vlen)?.trim_end_matches(is_space);
        self.rest = after.get(vlen..)?;
        Some((key, value))
    }
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\n' | '\t' | '\r')
}

/// `s` after its leading JSON white space and bytes of `also`.
fn skip<'a>(s: &'a str, also: &[u8]) -> &'a str {
    let n = s
        .bytes()
        .take_while(|&b| matches!(b, b' ' | b'\n' | b'\t' | b'\r') || also.contains(&b))
        .count();
    // The skipped bytes are ASCII: `n` is a character boundary.
    s.get(n..).unwrap_or("")
}

/// The value at `path` (`a` or `a.b.c`) among the members: a top-level key
/// equal to the whole path first, else one level at a time.
pub fn lookup<'a>(fields: &'a str, path: &str) -> Option<&'a str> {
    if let Some((_, v)) = members(fields).find(|(k, _)| *k == path) {
        return Some(v);
    }
    let (head, rest) = path.split_once('.')?;
    let (_, v) = members(fields).find(|(k, _)| *k == head)?;
    if !v.starts_with('{') {
        return None;
    }
    lookup(v, rest)
}

/// Appends the text of a JSON string's content (`escaped`, without its
/// quotes) with its escapes resolved; an invalid escape is kept as written.
pub fn push_unescaped(out: &mut String, escaped: &str) {
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex = |chars: &mut std::str::Chars<'_>| {
                    let h: String = chars.by_ref().take(4).collect();
                    u32::from_str_radix(&h, 16).ok()
                };
                let Some(hi) = hex(&mut chars) else {
                    out.push('\u{fffd}');
                    continue;
                };
                let code = if (0xd800..0xdc00).contains(&hi) {
                    let mut look = chars.clone();
                    match (look.next(), look.next(), hex(&mut look)) {
                        (Some('\\'), Some('u'), Some(lo)) if (0xdc00..0xe000).contains(&lo) => {
                            chars = look;
                            0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                        }
                        _ => 0xfffd,
                    }
                } else {
                    hi
                };
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            Some(c) => out.push(c),
            None => out.push('\\'),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_of_fields_and_objects() {
        let f = r#", "a": 1, "s": "x,\"}y", "o": { "b": [1, {"c": 2}], "d": "e" }, "a.b": true"#;
        let m: Vec<_> = members(f).collect();
        assert_eq!(
            m,
            vec![
                ("a", "1"),
                ("s", r#""x,\"}y""#),
                ("o", r#"{ "b": [1, {"c": 2}], "d": "e" }"#),
                ("a.b", "true"),
            ]
        );
        assert_eq!(lookup(f, "o.d"), Some("\"e\""));
        assert_eq!(lookup(f, "a.b"), Some("true"));
        assert_eq!(lookup(f, "o.x"), None);
        assert_eq!(lookup(f, "a.x"), None);
        let obj = r#"{ "n": "P:E", "x": -2, "meta": { "cpu": 1 } }"#;
        assert_eq!(members(obj).count(), 3);
        for bad in ["\"", "\"a", "\"a\":", "{\"a\" 1}", "\"\\", "]"] {
            let _ = members(bad).count();
            let _ = lookup(bad, "a.b");
        }
    }

    #[test]
    fn unescaping() {
        let mut s = String::new();
        push_unescaped(&mut s, r#"a\"b\\c\n\u0001\ud83d\ude00\u00e9\ud800x\"#);
        assert_eq!(s, "a\"b\\c\n\u{1}\u{1f600}é\u{fffd}x\\");
    }
}
