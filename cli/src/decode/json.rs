//! The JSON text under every part of the decoder's output: strings written
//! with JSON's escapes, by this module or through the decoding crate.
//!
//! [`JsonText`] guards `tracepoint_decode` 0.5.0's writers, which write
//! UTF-32 text and char32/char16 values of `\` without JSON escaping. Its
//! UTF-32 path hands every character, ASCII included, to the writer as
//! "non-ASCII" (`write_char`), which its JSON filter passes through; its
//! char32 writer escapes values below `\` only and writes `\` itself as a
//! lone `"\"` string. [`JsonText`] escapes what JSON requires in both: the
//! crate's own escapes always arrive whole (`\"`, `\\`, `\n`, `\u001F`),
//! so a character arriving alone by `write_char`, or a lone backslash, is
//! text to escape.
//!
//! Nothing here uses the rest of `decode/`: the event writer
//! ([`super::event_json`]), the fields ([`super::fields`]) and the metadata
//! ([`super::meta`]) all write through it.

use std::fmt;

/// Appends `s` as a quoted JSON string, escaped as the crate's
/// `JsonEscapeDisplay` escapes (runs that need no escape are copied whole).
pub fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    push_json_content(out, s);
    out.push('"');
}

/// The content of [`push_json_str`]'s string, without its quotes.
pub fn push_json_content(out: &mut String, s: &str) {
    // One pass without early exit over the whole string (the compiler
    // vectorizes it) settles the common case: nothing to escape.
    if !s.bytes().fold(false, |any, b| {
        any | (b < 0x20) | (b == b'"') | (b == b'\\')
    }) {
        out.push_str(s);
        return;
    }
    let mut rest = s;
    while let Some(i) = rest
        .bytes()
        .position(|b| b < 0x20 || b == b'"' || b == b'\\')
    {
        // Byte `i` is ASCII: a character boundary.
        let (run, tail) = rest.split_at(i);
        out.push_str(run);
        let mut chars = tail.chars();
        if let Some(c) = chars.next() {
            push_escaped_char(out, c);
        }
        rest = chars.as_str();
    }
    out.push_str(rest);
}

/// A `fmt::Write` into a `String` that escapes the characters JSON forbids
/// in strings when they arrive one by one (`write_char`), as the crate's
/// UTF-32 writer delivers them, and a lone backslash (its char32 writer).
/// Other text is the crate's own JSON (already escaped) and passes through.
pub struct JsonText<'a>(pub &'a mut String);

impl fmt::Write for JsonText<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s == "\\" {
            self.0.push_str("\\\\");
        } else {
            self.0.push_str(s);
        }
        Ok(())
    }

    fn write_char(&mut self, c: char) -> fmt::Result {
        push_escaped_char(self.0, c);
        Ok(())
    }
}

/// Appends `c` as it must appear inside a JSON string.
pub fn push_escaped_char(out: &mut String, c: char) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        c if c < ' ' => {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push_str("\\u00");
            out.push(HEX[(c as usize) >> 4] as char);
            out.push(HEX[(c as usize) & 15] as char);
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use tracepoint_decode as td;

    use super::*;

    #[test]
    fn characters_written_one_by_one_are_escaped() {
        let mut s = String::new();
        let mut w = JsonText(&mut s);
        w.write_str("\"a\\\"").unwrap();
        w.write_str("\\").unwrap();
        for c in ['x', '"', '\\', '\n', '\u{1}', '\u{1f}', 'é', '\u{7f}'] {
            w.write_char(c).unwrap();
        }
        assert_eq!(s, "\"a\\\"\\\\x\\\"\\\\\\n\\u0001\\u001Fé\u{7f}");
    }

    #[test]
    fn strings_are_escaped_as_the_crate_escapes() {
        let mut text: String = (0u8..0x80).map(char::from).collect();
        text.push_str("\u{e9}\u{85}\u{2028}\u{1f600}");
        for s in [text.as_str(), "", "plain", "\"", "a\\", "\u{1f}x"] {
            let mut ours = String::new();
            push_json_str(&mut ours, s);
            let theirs = format!("\"{}\"", td::display::JsonEscapeDisplay::new(s));
            assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn strings_are_quoted_and_escaped() {
        let mut s = String::new();
        push_json_str(&mut s, "a\"b\\c\n\u{1}");
        assert_eq!(s, "\"a\\\"b\\\\c\\n\\u0001\"");
    }
}
