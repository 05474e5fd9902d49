//! `decode --format trace-event` as an output: each event's view becomes
//! the converter's [`Event`], and the converter's text goes to the writer.

use std::io::{self, BufWriter, Write};

use super::{Event, Summary, TraceEvents};
use crate::decode::view::{EventView, Sink};

/// `decode --format trace-event`: one document for all inputs.
pub struct TraceEventOutput {
    w: BufWriter<Box<dyn Write>>,
    conv: TraceEvents,
    text: String,
    name: String,
    fields: String,
    started: bool,
    summary: Option<Summary>,
}

impl TraceEventOutput {
    pub fn new(w: Box<dyn Write>) -> TraceEventOutput {
        TraceEventOutput {
            w: BufWriter::with_capacity(1 << 16, w),
            conv: TraceEvents::new(),
            text: String::new(),
            name: String::new(),
            fields: String::new(),
            started: false,
            summary: None,
        }
    }
}

impl Sink for TraceEventOutput {
    fn begin_input(&mut self) -> io::Result<()> {
        self.text.clear();
        if !self.started {
            self.started = true;
            self.conv.begin(&mut self.text);
        }
        self.conv.begin_input();
        self.w.write_all(self.text.as_bytes())
    }

    fn event(&mut self, e: &EventView<'_>) -> io::Result<()> {
        self.name.clear();
        if e.provider.is_empty() || e.event.is_empty() {
            self.name.push_str(e.tracepoint);
        } else {
            self.name.push_str(e.provider);
            self.name.push(':');
            self.name.push_str(e.event);
        }
        self.fields.clear();
        self.fields.push('{');
        self.fields
            .push_str(e.fields.trim_start_matches([',', ' ']).trim_end());
        self.fields.push('}');
        let event = Event {
            time_ns: e.time.map(|t| u64::try_from(t.ns).unwrap_or(0)),
            pid: e.pid,
            tid: e.tid,
            comm: e.comm,
            name: &self.name,
            opcode: e.opcode.unwrap_or(0),
            activity: e.activity,
            related: e.related,
            fields: &self.fields,
        };
        self.text.clear();
        self.conv.event(&mut self.text, &event);
        self.w.write_all(self.text.as_bytes())
    }

    fn end_input(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.text.clear();
        if !self.started {
            self.started = true;
            self.conv.begin(&mut self.text);
        }
        self.summary = Some(self.conv.finish(&mut self.text));
        self.w.write_all(self.text.as_bytes())?;
        self.w.flush()
    }

    fn notes(&self) -> Vec<String> {
        self.summary
            .as_ref()
            .and_then(Summary::unmatched_line)
            .into_iter()
            .collect()
    }
}
