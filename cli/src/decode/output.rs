//! Where decoded events go: one JSON array of events (with several inputs,
//! an array holding one array per input, each at its input's position), or
//! JSON Lines.

use std::io::{self, BufWriter, Write};

use super::view::{EventView, Sink};

/// Where events go: a JSON array (of events, or with several inputs of
/// arrays of events), or JSON Lines.
pub struct Output {
    w: BufWriter<Box<dyn Write>>,
    jsonl: bool,
    /// Several inputs: each input's array is an element of an outer array.
    nested: bool,
    /// No event written yet in the current input's array.
    first: bool,
    /// No input's array written yet (nested).
    first_input: bool,
}

impl Output {
    pub fn new(w: Box<dyn Write>, jsonl: bool, inputs: usize) -> Output {
        Output {
            w: BufWriter::with_capacity(1 << 16, w),
            jsonl,
            nested: inputs > 1,
            first: true,
            first_input: true,
        }
    }

    fn begin_input_json(&mut self) -> io::Result<()> {
        self.first = true;
        if self.jsonl {
            return Ok(());
        }
        if self.nested {
            self.w.write_all(if self.first_input {
                b"[\n  ["
            } else {
                b",\n  ["
            })?;
        } else {
            self.w.write_all(b"[")?;
        }
        self.first_input = false;
        Ok(())
    }

    fn event_json(&mut self, json: &str) -> io::Result<()> {
        if !self.jsonl {
            let sep: &[u8] = match (self.first, self.nested) {
                (true, false) => b"\n  ",
                (false, false) => b",\n  ",
                (true, true) => b"\n    ",
                (false, true) => b",\n    ",
            };
            self.w.write_all(sep)?;
        }
        self.first = false;
        self.w.write_all(json.as_bytes())?;
        if self.jsonl {
            self.w.write_all(b"\n")?;
        }
        Ok(())
    }

    fn end_input_json(&mut self) -> io::Result<()> {
        if !self.jsonl {
            let end: &[u8] = match (self.first, self.nested) {
                (true, false) => b"]\n",
                (false, false) => b"\n]\n",
                (true, true) => b"]",
                (false, true) => b"\n  ]",
            };
            self.w.write_all(end)?;
        }
        Ok(())
    }

    /// Ends the output (the outer array with several inputs) and flushes.
    fn finish_json(&mut self) -> io::Result<()> {
        if self.nested && !self.jsonl {
            self.w.write_all(b"\n]\n")?;
        }
        self.w.flush()
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

impl Sink for Output {
    fn begin_input(&mut self) -> io::Result<()> {
        self.begin_input_json()
    }

    fn event(&mut self, event: &EventView<'_>) -> io::Result<()> {
        self.event_json(event.json)
    }

    fn end_input(&mut self) -> io::Result<()> {
        self.end_input_json()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.finish_json()
    }
}
