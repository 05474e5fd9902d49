//! The counter of one input: the events of a capture file, and what every
//! event goes through (the time window, the filters, the row it is counted
//! in); perf.data's records are read in `perf.rs`.

use std::collections::HashMap;

use tracepoint_decode as td;

use super::names::{eventheader_names, quick_name, Named, SplitCache};
use super::summary::{Event, Summary, Time};
use crate::decode::capture::CaptureReader;
use crate::decode::input::{self, Opened, Recording};
use crate::decode::FieldWalk;
use crate::decode::{Source, TimeWindow};
use crate::filter::{Filter, Subject};
use crate::guard;
use crate::progress::Progress;

/// Counts one input into `summary`; Err(message) when it cannot be read
/// (to its end).
pub fn count_input(
    source: Source<'_>,
    filter: &Filter,
    window: TimeWindow,
    summary: &mut Summary,
    progress: bool,
) -> Result<(), String> {
    let name = source.name();
    let Opened { recording, len } = input::open(source).map_err(|e| format!("{name}: {e}"))?;
    let progress = Progress::new(name, len.unwrap_or(0), progress);
    let mut counter = Counter {
        context: td::EventHeaderEnumeratorContext::new(),
        split: SplitCache::default(),
        filter,
        window,
        first: None,
        last: LastRow::default(),
        summary,
        walk: FieldWalk::default(),
        names: HashMap::new(),
    };
    if filter.has_comm() && matches!(recording, Recording::Capture(_)) {
        counter
            .summary
            .notes
            .push(crate::decode::NO_COMM_CAPTURE.to_string());
    }
    let result = match recording {
        Recording::Capture(reader) => {
            guard::contain(|| counter.capture(reader, progress)).map_err(|p| p.to_string())
        }
        Recording::Perf(reader) => {
            guard::contain(|| counter.perf(reader, progress)).map_err(|p| p.to_string())
        }
    };
    match result {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("{name}: {e}")),
        Err(panic) => Err(format!(
            "{name}: counting failed (a decoder bug; please report it with the input): {panic}"
        )),
    }
}

pub(super) struct Counter<'a> {
    pub(super) context: td::EventHeaderEnumeratorContext,
    pub(super) split: SplitCache,
    pub(super) filter: &'a Filter,
    pub(super) window: TimeWindow,
    /// The time of the input's first event, as decode takes it: the
    /// earliest of the first perf round with a timed sample (decode writes
    /// each round in time order), a capture's first timed record.
    pub(super) first: Option<Time>,
    /// The row of the last EventHeader event named from its header alone.
    last: LastRow,
    pub(super) summary: &'a mut Summary,
    /// The field terms' walk (`--where`).
    walk: FieldWalk,
    /// Thread names from COMM and FORK records (`--comm`, as decode names
    /// them: the thread's, else its process's).
    pub(super) names: HashMap<u32, String>,
}

/// The names of an EventHeader event (system, tracepoint and event name)
/// and the row they are counted in: the next event of the same names is
/// counted there without its names being looked at again or looked up.
#[derive(Default)]
struct LastRow {
    system: Vec<u8>,
    tracepoint: Vec<u8>,
    event: Vec<u8>,
    row: Option<usize>,
}

impl LastRow {
    fn get(&self, system: &[u8], tracepoint: &[u8], event: &[u8]) -> Option<usize> {
        self.row.filter(|_| {
            self.event == event && self.tracepoint == tracepoint && self.system == system
        })
    }

    fn set(&mut self, system: &[u8], tracepoint: &[u8], event: &[u8], row: usize) {
        for (to, from) in [
            (&mut self.system, system),
            (&mut self.tracepoint, tracepoint),
            (&mut self.event, event),
        ] {
            to.clear();
            to.extend_from_slice(from);
        }
        self.row = Some(row);
    }
}

/// The process, thread and CPU of an event, when its recording has them.
#[derive(Clone, Copy, Default)]
pub(super) struct Who {
    pub(super) pid: Option<u32>,
    pub(super) tid: Option<u32>,
    pub(super) cpu: Option<u32>,
}

impl Counter<'_> {
    /// Counts an EventHeader event of the last row's names in that row
    /// (no filter can leave it out): false when it is not one.
    pub(super) fn count_again(
        &mut self,
        system: &[u8],
        tracepoint: &[u8],
        data: &[u8],
        time: Option<Time>,
        pid: Option<u32>,
    ) -> bool {
        if self.last.row.is_none() || !self.filter.is_empty() {
            return false;
        }
        let Some((event, _)) = quick_name(data) else {
            return false;
        };
        let Some(row) = self.last.get(system, tracepoint, event) else {
            return false;
        };
        self.summary.add_at(row, data.len(), time, pid);
        true
    }

    /// Counts an event of `system:tracepoint` with event data `data` (whose
    /// length is its bytes) named `named`, and makes its row the last row
    /// when its names came from its header alone.
    pub(super) fn event_of(
        &mut self,
        system: &str,
        tracepoint: &str,
        named: Named<'_, '_>,
        data: &[u8],
        time: Option<Time>,
        who: Who,
    ) {
        let eventheader = matches!(named, Named::EventHeader(..));
        let row = self.event(system, tracepoint, named, data.len(), time, who);
        if let (true, Some(row), true) = (eventheader, row, self.filter.is_empty()) {
            if let (Some((event, _)), Some(_)) = (quick_name(data), self.split.get(tracepoint)) {
                self.last
                    .set(system.as_bytes(), tracepoint.as_bytes(), event, row);
            }
        }
    }

    /// Counts one event of `system:tracepoint` with `bytes` of event data:
    /// its row, None when a filter left it out.
    pub(super) fn event(
        &mut self,
        system: &str,
        tracepoint: &str,
        named: Named<'_, '_>,
        bytes: usize,
        time: Option<Time>,
        who: Who,
    ) -> Option<usize> {
        let (provider, event, level, keyword) = match named {
            Named::EventHeader(p, e, l, k) => (p, e, Some(l), Some(k)),
            Named::Plain => (system, tracepoint.as_bytes(), None, None),
            Named::Malformed => {
                self.summary.malformed += 1;
                (system, tracepoint.as_bytes(), None, None)
            }
        };
        let subject = Subject {
            provider,
            event,
            level_keyword: level.zip(keyword),
            pid: who.pid,
            tid: who.tid,
            cpu: who.cpu,
            comm: who
                .tid
                .and_then(|t| self.names.get(&t))
                .or_else(|| who.pid.and_then(|p| self.names.get(&p)))
                .map(String::as_str),
        };
        if !self.filter.is_empty() && !self.filter.matches(&subject) {
            self.summary.filtered += 1;
            return None;
        }
        Some(self.summary.add(&Event {
            system,
            tracepoint,
            provider,
            event,
            level,
            bytes,
            time,
            pid: who.pid,
        }))
    }

    fn capture(
        &mut self,
        mut reader: CaptureReader<'_>,
        mut progress: Progress,
    ) -> Result<(), String> {
        let mut n = 0u64;
        while reader.next_record().map_err(|e| e.0)? {
            let data = reader.event();
            let stamp = reader.stamp();
            let time = stamp.map(|s| Time {
                ns: i64::try_from(s.time).unwrap_or(i64::MAX),
                wall: false,
            });
            n += 1;
            progress.update(reader.position(), n);
            if !self.in_window(time) {
                self.summary.filtered += 1;
                continue;
            }
            let who = Who {
                pid: stamp.map(|s| s.pid),
                tid: stamp.map(|s| s.tid),
                cpu: None,
            };
            let system = crate::spec::USER_EVENTS;
            if self.count_again(system.as_bytes(), reader.name_bytes(), data, time, who.pid) {
                continue;
            }
            let name = reader.name();
            let named = match eventheader_names(&mut self.context, &mut self.split, name, data) {
                Ok(named) => named,
                Err(_) if crate::spec::check_eventheader_name(name).is_err() => Named::Plain,
                Err(_) => Named::Malformed,
            };
            if !self.fields_hold(&named, name, data, None) {
                self.summary.filtered += 1;
                continue;
            }
            self.event_of(system, name, named, data, time, who);
        }
        Ok(())
    }

    /// Do the field terms (`--where`) hold for this event? EventHeader
    /// events are enumerated, tracefs-format events read through `sample`'s
    /// format; others have no fields to hold a term.
    pub(super) fn fields_hold(
        &mut self,
        named: &Named<'_, '_>,
        tracepoint: &str,
        data: &[u8],
        sample: Option<&td::PerfSampleEventInfo<'_>>,
    ) -> bool {
        let terms = self.filter.field_terms();
        if terms.is_empty() {
            return true;
        }
        match named {
            Named::EventHeader(..) => match self.context.enumerate_with_name_and_data(
                tracepoint,
                data,
                td::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
            ) {
                Ok(mut e) => self.walk.eventheader_holds(&mut e, terms),
                Err(_) => false,
            },
            Named::Plain => match sample.and_then(|s| s.format().map(|f| (s, f))) {
                Some((s, format)) => {
                    self.walk
                        .tracefs_holds(format, s.raw_data(), s.byte_reader(), terms)
                }
                None => false,
            },
            // Counted as malformed whatever the filters.
            Named::Malformed => true,
        }
    }

    /// Is an event at `time` inside the window? The first timed event of the
    /// input sets the time relative bounds count from.
    pub(super) fn in_window(&mut self, time: Option<Time>) -> bool {
        if self.first.is_none() {
            self.first = time;
        }
        self.window.contains(time, self.first)
    }
}
