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
    row: Vec<u8>,
    cell: String,
    time_format: Option<TimeFormat>,
}

/// Appends `cell` quoted as RFC 4180 asks.
fn push_cell(out: &mut Vec<u8>, cell: &str) {
    let bytes = cell.as_bytes();
    if !bytes
        .iter()
        .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
    {
        out.extend_from_slice(bytes);
        return;
    }
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    for &b in bytes {
        out.push(b);
        if b == b'"' {
            out.push(b'"');
        }
    }
    out.push(b'"');
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
            row: Vec::new(),
            cell: String::new(),
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
                self.row.push(b',');
            }
            push_cell(&mut self.row, name);
        }
        self.row.extend_from_slice(b"\r\n");
        self.w.write_all(&self.row)
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
            Column::Fields => {
                out.push('{');
                out.push_str(e.fields.trim_start_matches([',', ' ']));
                out.push('}');
            }
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
                self.row.push(b',');
            }
            self.cell.clear();
            Self::cell(&mut self.cell, c, e, self.time_format);
            push_cell(&mut self.row, &self.cell);
        }
        self.row.extend_from_slice(b"\r\n");
        self.w.write_all(&self.row)
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
        let mut s = Vec::new();
        for c in ["a", "a,b", "say \"hi\"", "l1\nl2", ""] {
            push_cell(&mut s, c);
            s.push(b'|');
        }
        assert_eq!(s, b"a|\"a,b\"|\"say \"\"hi\"\"\"|\"l1\nl2\"||");
    }
}
