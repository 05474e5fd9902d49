//! Where decoded events go: one JSON array of events (with several inputs,
//! an array holding one array per input, each at its input's position),
//! JSON Lines, or one Trace Event Format document for all inputs
//! ([`super::trace_event`]).

use std::io::{self, BufWriter, Write};

use super::event_json::Facts;
use super::trace_event::{Event, Summary, TraceEvents};

/// The trace-event converter with its text buffers.
struct Trace {
    conv: TraceEvents,
    text: String,
    fields: String,
    started: bool,
    summary: Option<Summary>,
}

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
    trace: Option<Box<Trace>>,
}

impl Output {
    pub fn new(w: Box<dyn Write>, jsonl: bool, inputs: usize) -> Output {
        Output {
            w: BufWriter::with_capacity(1 << 16, w),
            jsonl,
            nested: inputs > 1,
            first: true,
            first_input: true,
            trace: None,
        }
    }

    /// One Trace Event Format document of the events of all inputs.
    pub fn trace_event(w: Box<dyn Write>) -> Output {
        let mut out = Output::new(w, false, 1);
        out.trace = Some(Box::new(Trace {
            conv: TraceEvents::new(),
            text: String::new(),
            fields: String::new(),
            started: false,
            summary: None,
        }));
        out
    }

    /// The trace-event output's counts, once finished.
    pub fn trace_summary(&self) -> Option<&Summary> {
        self.trace.as_ref().and_then(|t| t.summary.as_ref())
    }

    /// An event as trace events: `json` is its JSON, `facts` what the
    /// formatter noted of it.
    fn trace_event_of(&mut self, json: &str, facts: &Facts) -> io::Result<()> {
        let Some(t) = self.trace.as_deref_mut() else {
            return Ok(());
        };
        t.fields.clear();
        t.fields.push('{');
        let members = json.get(facts.fields.clone()).unwrap_or("");
        t.fields
            .push_str(members.trim_start_matches([',', ' ']).trim_end());
        t.fields.push('}');
        t.text.clear();
        let event = Event {
            time_ns: facts.time_ns,
            pid: facts.pid,
            tid: facts.tid,
            comm: None,
            name: &facts.name,
            opcode: facts.opcode,
            activity: facts.activity,
            related: facts.related,
            fields: &t.fields,
        };
        t.conv.event(&mut t.text, &event);
        self.w.write_all(t.text.as_bytes())
    }

    pub(super) fn begin_input(&mut self) -> io::Result<()> {
        if let Some(t) = self.trace.as_deref_mut() {
            if !t.started {
                t.started = true;
                t.text.clear();
                t.conv.begin(&mut t.text);
                self.w.write_all(t.text.as_bytes())?;
            }
            t.conv.begin_input();
            return Ok(());
        }
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

    pub(super) fn event(&mut self, json: &str, facts: &Facts) -> io::Result<()> {
        if self.trace.is_some() {
            return self.trace_event_of(json, facts);
        }
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

    pub(super) fn end_input(&mut self) -> io::Result<()> {
        if !self.jsonl && self.trace.is_none() {
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
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(t) = self.trace.as_deref_mut() {
            t.text.clear();
            if !t.started {
                t.conv.begin(&mut t.text);
            }
            t.summary = Some(t.conv.finish(&mut t.text));
            self.w.write_all(t.text.as_bytes())?;
            return self.w.flush();
        }
        if self.nested && !self.jsonl {
            self.w.write_all(b"\n]\n")?;
        }
        self.w.flush()
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}
