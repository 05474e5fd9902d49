//! `--format csv`: a header row, then one row per event (RFC 4180: CRLF
//! line ends, cells with a comma, quote, CR or LF quoted, quotes doubled),
//! with the columns `--fields` names: metadata (time, pid, tid, comm, cpu,
//! provider, event, tracepoint, level, keyword, opcode, activity, related),
//! `fields` (all the event's fields as one JSON object), or a field's name
//! (a nested one as `a.b`). A column the event does not have is empty.

use std::io::{self, BufWriter, Write};

use super::meta::{push_hex_upper, push_u64, push_uuid};
use super::view::{lookup, push_unescaped, EventView, Sink};
use super::window::TimeFormat;

/// The columns without `--fields`.
pub const DEFAULT_COLUMNS: &str =
    "time,cpu,pid,tid,comm,provider,event,level,keyword,opcode,activity,related,fields";

#[derive(Clone, Debug, PartialEq, Eq)]
enum Column {
    Time,
    Cpu,
    Pid,
    Tid,
    Comm,
    Provider,
    Event,
    Tracepoint,
    Level,
    Keyword,
    Opcode,
    Activity,
    Related,
    Fields,
    Field(String),
}

impl Column {
    /// Whether the column's cells may hold any character (the others hold
    /// numbers, times and ids, which never need quotes).
    fn is_text(&self) -> bool {
        matches!(
            self,
            Column::Comm | Column::Provider | Column::Event | Column::Tracepoint | Column::Field(_)
        )
    }

    fn of(name: &str) -> Column {
        match name {
            "time" => Column::Time,
            "cpu" => Column::Cpu,
            "pid" => Column::Pid,
            "tid" => Column::Tid,
            "comm" => Column::Comm,
            "provider" => Column::Provider,
            "event" => Column::Event,
            "tracepoint" => Column::Tracepoint,
            "level" => Column::Level,
            "keyword" => Column::Keyword,
            "opcode" => Column::Opcode,
            "activity" => Column::Activity,
            "related" => Column::Related,
            "fields" => Column::Fields,
            _ => Column::Field(name.to_string()),
        }
    }
}

pub struct CsvOutput {
    w: BufWriter<Box<dyn Write>>,
    names: Vec<String>,
    columns: Vec<Column>,
    header: bool,
    row: String,
    scratch: String,
    bytes: Vec<u8>,
    time_format: Option<TimeFormat>,
}

/// Whether a cell must be quoted (RFC 4180: a comma, quote, CR or LF).
fn needs_quotes(cell: &[u8]) -> bool {
    cell.iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
}

/// Appends `cell` between quotes, its quotes doubled (`bytes` is
/// scratch).
fn push_quoted(out: &mut String, cell: &str, bytes: &mut Vec<u8>) {
    bytes.clear();
    push_doubled(bytes, cell.as_bytes());
    out.push('"');
    // Doubling ASCII quotes keeps UTF-8 text UTF-8.
    out.push_str(std::str::from_utf8(bytes).unwrap_or_default());
    out.push('"');
}

/// Whether one of the 8 bytes of `word` is a quote (the bitwise test for a
/// zero byte, applied to the word with quotes turned to zeros).
fn has_quote(word: u64) -> bool {
    let x = word ^ 0x2222_2222_2222_2222;
    x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080 != 0
}

/// Appends `cell` with its quotes doubled. Eight bytes at a time: most
/// words of a field list have no quote and are copied whole.
fn push_doubled(out: &mut Vec<u8>, cell: &[u8]) {
    out.reserve(cell.len() + cell.len() / 4 + 8);
    let mut words = cell.chunks_exact(8);
    for word in &mut words {
        let value = u64::from_ne_bytes(word.try_into().unwrap_or_default());
        if has_quote(value) {
            push_doubled_bytes(out, word);
        } else {
            out.extend_from_slice(word);
        }
    }
    push_doubled_bytes(out, words.remainder());
}

fn push_doubled_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        out.push(b);
        if b == b'"' {
            out.push(b'"');
        }
    }
}

/// Appends `cell` quoted as RFC 4180 asks.
fn push_cell(out: &mut String, cell: &str, bytes: &mut Vec<u8>) {
    if needs_quotes(cell.as_bytes()) {
        push_quoted(out, cell, bytes);
    } else {
        out.push_str(cell);
    }
}

/// Quotes the cell written to `row` from `start` on, if RFC 4180 asks for
/// it (`scratch` holds its text meanwhile, `bytes` its quoted form).
fn quote_from(row: &mut String, start: usize, scratch: &mut String, bytes: &mut Vec<u8>) {
    if needs_quotes(&row.as_bytes()[start..]) {
        scratch.clear();
        scratch.push_str(&row[start..]);
        row.truncate(start);
        push_quoted(row, scratch, bytes);
    }
}

impl CsvOutput {
    /// `fields`: the column names (empty: [`DEFAULT_COLUMNS`]).
    pub fn new(w: Box<dyn Write>, fields: &[String], time_format: Option<TimeFormat>) -> Self {
        let names: Vec<String> = if fields.is_empty() {
            DEFAULT_COLUMNS.split(',').map(String::from).collect()
        } else {
            fields.to_vec()
        };
        CsvOutput {
            w: BufWriter::with_capacity(1 << 16, w),
            columns: names.iter().map(|n| Column::of(n)).collect(),
            names,
            header: false,
            row: String::new(),
            scratch: String::new(),
            bytes: Vec::new(),
            time_format,
        }
    }

    fn write_header(&mut self) -> io::Result<()> {
        if self.header {
            return Ok(());
        }
        self.header = true;
        self.row.clear();
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                self.row.push(',');
            }
            push_cell(&mut self.row, name, &mut self.bytes);
        }
        self.row.push_str("\r\n");
        self.w.write_all(self.row.as_bytes())
    }

    /// The text of one cell.
    fn cell(out: &mut String, c: &Column, e: &EventView<'_>, tf: Option<TimeFormat>) {
        let num = |out: &mut String, v: Option<u64>| {
            if let Some(v) = v {
                push_u64(out, v);
            }
        };
        match c {
            Column::Time => {
                if let Some(t) = e.time {
                    super::time::push_time_as(out, t, e.first_time, tf, false);
                }
            }
            Column::Cpu => num(out, e.cpu.map(u64::from)),
            Column::Pid => num(out, e.pid.map(u64::from)),
            Column::Tid => num(out, e.tid.map(u64::from)),
            Column::Comm => out.push_str(e.comm.unwrap_or("")),
            Column::Provider => out.push_str(e.provider),
            Column::Event => out.push_str(e.event),
            Column::Tracepoint => out.push_str(e.tracepoint),
            Column::Level => num(out, e.level.map(u64::from)),
            Column::Keyword => {
                if let Some(k) = e.keyword {
                    out.push_str("0x");
                    push_hex_upper(out, k);
                }
            }
            Column::Opcode => num(out, e.opcode.map(u64::from)),
            Column::Activity | Column::Related => {
                let id = if *c == Column::Activity {
                    e.activity
                } else {
                    e.related
                };
                if let Some(id) = id {
                    let mark = out.len();
                    push_uuid(out, &id);
                    // Without the JSON quotes.
                    out.pop();
                    out.remove(mark);
                }
            }
            // Written by the caller, which quotes it as it copies it.
            Column::Fields => {}
            Column::Field(name) => match lookup(e.fields, name) {
                Some(v) if v.len() >= 2 && v.starts_with('"') && v.ends_with('"') => {
                    push_unescaped(out, &v[1..v.len() - 1])
                }
                Some(v) => out.push_str(v),
                None => {}
            },
        }
    }
}

impl Sink for CsvOutput {
    fn begin_input(&mut self) -> io::Result<()> {
        self.write_header()
    }

    fn event(&mut self, e: &EventView<'_>) -> io::Result<()> {
        self.row.clear();
        for (i, c) in self.columns.iter().enumerate() {
            if i > 0 {
                self.row.push(',');
            }
            if *c == Column::Fields {
                // The one long cell: its quotes doubled as it is copied,
                // and written between the row's parts.
                let fields = e.fields.trim_start_matches([',', ' ']);
                // A field list starts with its first key's quote: the
                // test ends at its first byte.
                if needs_quotes(fields.as_bytes()) {
                    self.row.push_str("\"{");
                    self.w.write_all(self.row.as_bytes())?;
                    self.row.clear();
                    self.bytes.clear();
                    push_doubled(&mut self.bytes, fields.as_bytes());
                    self.w.write_all(&self.bytes)?;
                    self.row.push_str("}\"");
                } else {
                    self.row.push('{');
                    self.row.push_str(fields);
                    self.row.push('}');
                }
                continue;
            }
            let start = self.row.len();
            Self::cell(&mut self.row, c, e, self.time_format);
            if c.is_text() {
                quote_from(&mut self.row, start, &mut self.scratch, &mut self.bytes);
            }
        }
        self.row.push_str("\r\n");
        self.w.write_all(self.row.as_bytes())
    }

    fn end_input(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.write_header()?;
        self.w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        let mut s = String::new();
        let mut bytes = Vec::new();
        for c in ["a", "a,b", "say \"hi\"", "l1\nl2", "cr\r", "", "\"\""] {
            push_cell(&mut s, c, &mut bytes);
            s.push('|');
        }
        assert_eq!(
            s,
            "a|\"a,b\"|\"say \"\"hi\"\"\"|\"l1\nl2\"|\"cr\r\"||\"\"\"\"\"\"|"
        );
    }

    #[test]
    fn quotes_are_doubled_in_every_position_of_a_word() {
        for len in 0..40 {
            for at in 0..len {
                let mut cell: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                cell[at] = b'"';
                if at + 3 < len {
                    cell[at + 3] = b'"';
                }
                let mut ours = Vec::new();
                push_doubled(&mut ours, &cell);
                let text = String::from_utf8(cell).unwrap();
                assert_eq!(String::from_utf8(ours).unwrap(), text.replace('"', "\"\""));
            }
        }
        for word in [
            0u64,
            0x2222,
            0x21,
            0x23,
            0x2200_0000_0000_0000,
            0xa2a2_a2a2_a2a2_a2a2,
        ] {
            let bytes = word.to_ne_bytes();
            assert_eq!(has_quote(word), bytes.contains(&b'"'), "{word:#x}");
        }
    }

    #[test]
    fn cells_written_in_place_are_quoted_in_place() {
        let mut scratch = String::new();
        let mut bytes = Vec::new();
        for (cell, want) in [
            ("plain", "x,plain"),
            ("a\"b", "x,\"a\"\"b\""),
            ("é,ü", "x,\"é,ü\""),
        ] {
            let mut row = String::from("x,");
            row.push_str(cell);
            quote_from(&mut row, 2, &mut scratch, &mut bytes);
            assert_eq!(row, want);
        }
    }
}
