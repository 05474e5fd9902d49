//! One event as one JSON object, with `tracepoint_decode`'s JSON writers:
//!
//! ```text
//! { "n": "Provider:Event", "field": value, ..., "meta": { "time": ..., "level": 4, ... } }
//! ```
//!
//! EventHeader events are decoded from their own metadata; other tracepoints
//! from the tracefs format the perf.data file carries. An event that cannot be
//! decoded is written as `{ "n": "tracepoint", "raw": "HEX", "error": "why" }`
//! so that every event of the input appears in the output. `"n"` and
//! `"meta"` step aside for top-level fields of the same name (see [`keys`]).

use std::collections::HashMap;

use tracepoint_decode as td;

use super::capture::Stamp;
use super::event_meta::EventMeta;
use super::fields::{self, FieldWalk};
use super::json::{push_json_str, JsonText};
use super::keys::{self, Key};
use super::members;
use super::meta::{self, push_identity};
use super::view::{EventView, Time};
use super::window::{TimeFormat, TimeWindow};
use crate::filter::{Filter, Subject};
use crate::guard;

mod records;

/// Formatting options and the reusable decoding context.
pub struct Formatter {
    context: td::EventHeaderEnumeratorContext,
    meta: td::PerfMetaOptions,
    convert: td::PerfConvertOptions,
    /// The current event's top-level fields that the decoder's keys avoid.
    taken: keys::Taken,
    filter: Filter,
    /// The field terms' walk (`--where`).
    walk: FieldWalk,
    /// Warn about a capture without time, pid or tid (see
    /// `super::Settings::warn_untimed`).
    pub warn_untimed: bool,
    /// The current event's metadata (for its [`EventView`]).
    ev: EventMeta,
    /// The time of the input's first event.
    first_time: Option<Time>,
    /// Process names by thread id, from the recording's COMM records.
    comms: HashMap<u32, String>,
    /// `--meta comm`.
    comm_meta: bool,
    time_format: Option<TimeFormat>,
    window: TimeWindow,
}

/// What became of one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Decoded: an EventHeader event or a tracepoint with a tracefs format.
    Decoded,
    /// Not decodable by design (a plain tracepoint without a format, e.g. in a
    /// capture file): written as raw bytes.
    Raw,
    /// Malformed: written as raw bytes with an "error" member (whatever the
    /// filters: what cannot be decoded cannot be filtered).
    Malformed,
    /// Decodable, but the filters leave it out: nothing written.
    Filtered,
}

fn push_hex(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for &b in bytes {
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 15) as usize] as char);
    }
}

/// The name of thread `tid`, or else of process `pid`.
fn comm_of(comms: &HashMap<u32, String>, pid: Option<u32>, tid: Option<u32>) -> Option<&str> {
    tid.and_then(|t| comms.get(&t))
        .or_else(|| pid.and_then(|p| comms.get(&p)))
        .map(String::as_str)
}

/// The sample's process id, if it records one.
fn sample_pid(sample: &td::PerfSampleEventInfo<'_>) -> Option<u32> {
    sample
        .sample_type()
        .has_flag(td::PerfEventAttrSampleType::Tid)
        .then_some(sample.pid)
}

/// The sample's thread id, if it records one.
pub fn sample_tid(sample: &td::PerfSampleEventInfo<'_>) -> Option<u32> {
    sample
        .sample_type()
        .has_flag(td::PerfEventAttrSampleType::Tid)
        .then_some(sample.tid)
}

/// The sample's CPU, if it records one.
pub fn sample_cpu(sample: &td::PerfSampleEventInfo<'_>) -> Option<u32> {
    sample
        .sample_type()
        .has_flag(td::PerfEventAttrSampleType::Cpu)
        .then_some(sample.cpu)
}

impl Formatter {
    pub fn new(meta: td::PerfMetaOptions, filter: Filter) -> Formatter {
        Formatter {
            context: td::EventHeaderEnumeratorContext::new(),
            meta,
            // Booleans outside 0/1 as numbers, as the reference's decoder
            // writes them; the rest is tracepoint_decode's default.
            convert: td::PerfConvertOptions::Default
                .and_not(td::PerfConvertOptions::BoolOutOfRangeAsString),
            taken: keys::Taken::default(),
            filter,
            walk: FieldWalk::default(),
            warn_untimed: false,
            ev: EventMeta::default(),
            first_time: None,
            comms: HashMap::new(),
            comm_meta: false,
            time_format: None,
            window: TimeWindow::default(),
        }
    }

    /// The time options: how times are written, which are kept, and whether
    /// the JSON metadata has the process name.
    pub fn with_times(
        mut self,
        format: Option<TimeFormat>,
        window: TimeWindow,
        comm: bool,
    ) -> Formatter {
        self.time_format = format;
        self.window = window;
        self.comm_meta = comm;
        self
    }

    /// Starts an input: no first event, no process names yet.
    pub fn begin_input(&mut self) {
        self.first_time = None;
        self.comms.clear();
    }

    /// Names thread `tid` (a COMM record).
    pub fn set_comm(&mut self, tid: u32, comm: &str) {
        let name = self.comms.entry(tid).or_default();
        name.clear();
        name.push_str(comm);
    }

    /// Thread `tid` of a new process or thread (a FORK record) of parent
    /// thread `ptid` inherits its name.
    pub fn fork(&mut self, tid: u32, ptid: u32) {
        if let Some(name) = self.comms.get(&ptid).cloned() {
            self.comms.insert(tid, name);
        }
    }

    fn comm(&self) -> Option<&str> {
        comm_of(&self.comms, self.ev.pid, self.ev.tid)
    }

    /// The filters.
    pub fn filter(&self) -> &Filter {
        &self.filter
    }

    /// Has the input named any process (a COMM record)?
    pub fn has_comms(&self) -> bool {
        !self.comms.is_empty()
    }

    /// The view of the event just written to `json` by [`Self::capture_event`]
    /// or [`Self::perf_sample`].
    pub fn view<'a>(&'a self, json: &'a str) -> EventView<'a> {
        let ev = &self.ev;
        let (provider, event) = ev.names();
        EventView {
            time: ev.time,
            first_time: self.first_time,
            cpu: ev.cpu,
            pid: ev.pid,
            tid: ev.tid,
            comm: self.comm(),
            tracepoint: &ev.tracepoint,
            provider,
            event,
            level: ev.level,
            keyword: ev.keyword,
            opcode: ev.opcode,
            activity: ev.activity,
            related: ev.related,
            json,
            fields: json.get(ev.fields.0..ev.fields.1).unwrap_or(""),
            spans: ev.spans_noted.then_some(&ev.spans[..]),
        }
    }

    /// The time format in effect.
    pub fn time_format(&self) -> Option<TimeFormat> {
        self.time_format
    }

    /// Notes the event's time as the input's first if it is; is it inside
    /// the time window?
    fn in_window(&mut self) -> bool {
        if self.first_time.is_none() {
            self.first_time = self.ev.time;
        }
        self.window.contains(self.ev.time, self.first_time)
    }

    /// Does an event with these names pass the filters?
    fn passes(&self, s: Subject<'_>) -> bool {
        self.filter.is_empty() || self.filter.matches(&s)
    }

    /// Appends `, "meta": { ... }` (the key with the underscores
    /// [`keys::Taken`] says) with the items `write` writes, unless it writes
    /// none.
    fn push_meta(&self, out: &mut String, write: impl FnOnce(&mut meta::Items<'_>)) {
        let mark = out.len();
        out.push_str(", ");
        self.taken.push(out, Key::Meta);
        out.push_str("{ ");
        let mut items = meta::Items::new(out);
        if let Some(t) = self
            .ev
            .time
            .filter(|_| self.meta.has_flag(td::PerfMetaOptions::Time))
        {
            let out = items.key("time");
            super::time::push_time_as(out, t, self.first_time, self.time_format, true);
        }
        write(&mut items);
        if let Some(comm) = self.comm().filter(|_| self.comm_meta) {
            push_json_str(items.key("comm"), comm);
        }
        if items.any {
            out.push_str(" }");
        } else {
            out.truncate(mark);
        }
    }

    /// [`Self::push_meta`] with the metadata of the perf sample itself (not
    /// of an EventHeader event in it).
    fn push_sample_meta(&self, out: &mut String, sample: &td::PerfSampleEventInfo<'_>) {
        let m = self.meta.and_not(td::PerfMetaOptions::Time);
        self.push_meta(out, |items| meta::sample(items, sample, m));
    }

    /// `{ "n": NAME, "raw": "HEX"[, "error": WHY], "meta": ... }`.
    fn push_raw(
        &mut self,
        out: &mut String,
        name: &str,
        data: &[u8],
        error: Option<&str>,
        sample: Option<&td::PerfSampleEventInfo<'_>>,
    ) {
        self.taken.clear();
        out.push_str("{ \"n\": ");
        push_json_str(out, name);
        let start = out.len();
        out.push_str(", \"raw\": \"");
        push_hex(out, data);
        out.push('"');
        if let Some(error) = error {
            out.push_str(", \"error\": ");
            push_json_str(out, error);
        }
        self.ev.fields = (start, out.len());
        if let Some(sample) = sample {
            self.push_sample_meta(out, sample);
        } else if let Some((pid, tid)) = self.stamped() {
            self.push_meta(out, |items| {
                meta::stamp(
                    items,
                    pid,
                    tid,
                    self.meta.and_not(td::PerfMetaOptions::Time),
                )
            });
        }
        out.push_str(" }");
    }

    /// Writes an EventHeader event: Ok(false) if the filters leave it out,
    /// `Err(why)` if it is not a well-formed EventHeader event (nothing is
    /// written then).
    fn push_eventheader(
        &mut self,
        out: &mut String,
        tracepoint: &str,
        data: &[u8],
        sample: Option<&td::PerfSampleEventInfo<'_>>,
    ) -> Result<bool, td::EventHeaderEnumeratorError> {
        let mark = out.len();
        let mut e = self.context.enumerate_with_name_and_data(
            tracepoint,
            data,
            td::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
        )?;
        let info = e.event_info();
        let header = info.header();
        let pid = sample.map_or(self.ev.pid, sample_pid);
        let tid = sample.map_or(self.ev.tid, sample_tid);
        let subject = Subject {
            provider: info.provider_name(),
            event: info.name_bytes(),
            level_keyword: Some((header.level.as_int(), info.keyword())),
            pid,
            tid,
            cpu: sample.and_then(sample_cpu),
            comm: comm_of(&self.comms, pid, tid),
        };
        if !self.filter.is_empty() && !self.filter.matches(&subject) {
            return Ok(false);
        }
        let terms = self.filter.field_terms();
        if !terms.is_empty() && !self.walk.eventheader_holds(&mut e, terms) {
            return Ok(false);
        }
        self.ev.eventheader(&info);
        out.push_str("{ \"n\": \"");
        push_identity(out, info.provider_name(), info.name_bytes());
        out.push('"');
        // `, "name": value` for each top-level field, noting the names the
        // decoder's keys must avoid.
        self.taken.clear();
        let fields_start = out.len();
        let noted = members::push_members(
            out,
            &mut e,
            self.convert,
            (&mut self.taken, &mut self.ev.spans),
        );
        if !noted {
            self.ev.spans.clear();
            let err = e.last_error();
            out.truncate(mark);
            return Err(if err == td::EventHeaderEnumeratorError::Success {
                td::EventHeaderEnumeratorError::InvalidData
            } else {
                err
            });
        }
        self.ev.fields = (fields_start, out.len());
        self.ev.spans_noted = true;
        if self.taken.underscores(Key::Name) > 0 {
            // A field "n": the event's name, written first as "n", steps aside.
            let mut name_key = String::new();
            self.taken.push(&mut name_key, Key::Name);
            out.replace_range(mark + 2..mark + 2 + "\"n\": ".len(), &name_key);
            let grown = name_key.len() - "\"n\": ".len();
            self.ev.fields = (fields_start + grown, out.len());
            for span in &mut self.ev.spans {
                span.key = (span.key.0 + grown, span.key.1 + grown);
                span.value = (span.value.0 + grown, span.value.1 + grown);
            }
        }
        // The time comes first, from the event's metadata (push_meta).
        let m = self.meta.and_not(td::PerfMetaOptions::Time);
        let stamp = self.stamped().filter(|_| sample.is_none());
        self.push_meta(out, |items| {
            if let Some((pid, tid)) = stamp {
                meta::stamp(items, pid, tid, m);
            }
            meta::eventheader(items, &info, sample, m)
        });
        out.push_str(" }");
        Ok(true)
    }

    /// A perf sample that cannot be attributed to an event.
    pub fn unattributed(&mut self, out: &mut String, record: &[u8], why: &str) {
        self.ev.start("");
        self.push_raw(out, "", record, Some(why), None);
    }

    /// Runs `write` (which writes one event to `out`); if it panics (a
    /// decoder bug no guard prevents), the event is written raw with the
    /// panic as its error.
    fn contained(
        &mut self,
        out: &mut String,
        name: &str,
        data: &[u8],
        sample: Option<&td::PerfSampleEventInfo<'_>>,
        write: impl FnOnce(&mut Self, &mut String) -> Outcome,
    ) -> Outcome {
        let mark = out.len();
        match guard::contain(|| write(&mut *self, &mut *out)) {
            Ok(outcome) => outcome,
            Err(panic) => {
                out.truncate(mark);
                self.context = td::EventHeaderEnumeratorContext::new();
                let why = format!("the decoder failed on this event: {panic}");
                if guard::contain(|| self.push_raw(out, name, data, Some(&why), sample)).is_err() {
                    // Its metadata failed too: without it.
                    out.truncate(mark);
                    self.push_raw(out, name, data, Some(&why), None);
                }
                Outcome::Malformed
            }
        }
    }
}

#[cfg(test)]
mod tests;
