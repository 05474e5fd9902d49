//! `--format text`: one line per event, as perf script writes them:
//!
//! ```text
//! my-program 4242/4243 [003] 2024-03-28T00:45:12.640913120Z: MyProvider:MyEvent: level=4 keyword=0x1 x=5 s="a\nb"
//! ```
//!
//! The process name (`:PID` when the recording names none), pid/tid, cpu
//! and time when the recording has them, the event, its level, keyword and
//! opcode when non-zero, then its fields as `name=value` with JSON values
//! (strings quoted and escaped): an event is always exactly one line.

use std::io::{self, BufWriter, Write};

use super::json::{push_escaped_char, push_json_str};
use super::meta::{push_hex_upper, push_u64};
use super::view::{EventView, Sink};
use super::window::TimeFormat;

pub struct TextOutput {
    w: BufWriter<Box<dyn Write>>,
    line: String,
    time_format: Option<TimeFormat>,
}

/// Not empty, without white space, control characters, quotes or `=`.
fn is_word(s: &str) -> bool {
    // One pass without early exit (vectorized): printable ASCII other than
    // `"` and `=` is a word.
    if !s.is_empty()
        && !s.bytes().fold(false, |bad, b| {
            bad | (b <= b' ') | (b >= 0x7f) | (b == b'"') | (b == b'=')
        })
    {
        return true;
    }
    if s.is_ascii() {
        return false;
    }
    !s.chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '=')
}

/// Appends `s` as it is when it is a plain word, else as a JSON string.
fn push_word(out: &mut String, s: &str) {
    if is_word(s) {
        out.push_str(s);
    } else {
        push_json_str(out, s);
    }
}

/// Appends JSON value text on one line (white space between its tokens as
/// spaces; inside its strings control characters are escaped already).
fn push_value(out: &mut String, v: &str) {
    if !v
        .bytes()
        .fold(false, |bad, b| bad | !(b' '..0x7f).contains(&b))
    {
        out.push_str(v);
        return;
    }
    out.extend(v.chars().map(|c| if c.is_control() { ' ' } else { c }));
}

impl TextOutput {
    pub fn new(w: Box<dyn Write>, time_format: Option<TimeFormat>) -> TextOutput {
        TextOutput {
            w: BufWriter::with_capacity(1 << 16, w),
            line: String::new(),
            time_format,
        }
    }

    /// The line of an event, without its newline.
    pub fn line(out: &mut String, e: &EventView<'_>, time_format: Option<TimeFormat>) {
        match (e.comm, e.pid) {
            (Some(comm), _) => push_word(out, comm),
            (None, Some(pid)) => {
                out.push(':');
                push_u64(out, pid.into());
            }
            (None, None) => out.push('-'),
        }
        if let Some(pid) = e.pid {
            out.push(' ');
            push_u64(out, pid.into());
            out.push('/');
            push_u64(out, e.tid.unwrap_or(pid).into());
        }
        if let Some(cpu) = e.cpu {
            out.push_str(" [");
            if cpu < 100 {
                out.push('0');
            }
            if cpu < 10 {
                out.push('0');
            }
            push_u64(out, cpu.into());
            out.push(']');
        }
        if let Some(t) = e.time {
            out.push(' ');
            super::time::push_time_as(out, t, e.first_time, time_format, false);
            out.push(':');
        }
        out.push(' ');
        if e.provider.is_empty() {
            push_word(out, e.tracepoint);
        } else {
            if is_word(e.provider) && is_word(e.event) {
                out.push_str(e.provider);
                out.push(':');
                out.push_str(e.event);
            } else {
                out.push('"');
                for c in e.provider.chars().chain([':']).chain(e.event.chars()) {
                    push_escaped_char(out, c);
                }
                out.push('"');
            }
        }
        out.push(':');
        if let Some(l) = e.level {
            out.push_str(" level=");
            push_u64(out, l.into());
        }
        if let Some(k) = e.keyword {
            out.push_str(" keyword=0x");
            push_hex_upper(out, k);
        }
        if let Some(o) = e.opcode {
            out.push_str(" opcode=");
            push_u64(out, o.into());
        }
        for (key, value) in e.members() {
            out.push(' ');
            // The key is JSON string content: escaped, no control character.
            if key.is_empty() || key.bytes().any(|b| matches!(b, b' ' | b'=' | b'"' | b'\\')) {
                out.push('"');
                out.push_str(key);
                out.push('"');
            } else {
                out.push_str(key);
            }
            out.push('=');
            push_value(out, value);
        }
    }
}

impl Sink for TextOutput {
    fn begin_input(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn event(&mut self, e: &EventView<'_>) -> io::Result<()> {
        self.line.clear();
        Self::line(&mut self.line, e, self.time_format);
        self.line.push('\n');
        self.w.write_all(self.line.as_bytes())
    }

    fn end_input(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        for w in ["a", "Provider_1", "caf\u{e9}", "x:y", "\u{1f600}", "a\\b"] {
            assert!(is_word(w), "{w:?}");
        }
        let long = "X".repeat(300);
        assert!(is_word(&long));
        for s in [
            "",
            "a b",
            "a=b",
            "q\"",
            "\u{7f}",
            "tab\t",
            "caf\u{e9} x",
            "nel\u{85}",
            "nbsp\u{a0}",
            "=\u{e9}",
        ] {
            assert!(!is_word(s), "{s:?}");
        }
        assert!(!is_word(&format!("{long} ")));
    }

    #[test]
    fn values_stay_on_one_line() {
        let mut s = String::new();
        for v in ["{ \"a\": 1 }", "[\n1,\t2\r]", "\"caf\u{e9}\"", "x\u{85}y"] {
            push_value(&mut s, v);
            s.push('|');
        }
        assert_eq!(s, "{ \"a\": 1 }|[ 1, 2 ]|\"caf\u{e9}\"|x y|");
    }
}
