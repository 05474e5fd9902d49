//! Counting a perf.data input: its samples (held back until a round's end
//! when the time window counts from the first event), the COMM and FORK
//! records that name threads, and the lost-event records.

use tracepoint_decode as td;

use super::counter::{Counter, Who};
use super::names::{eventheader_names, Named};
use super::summary::{Event, Time};
use crate::decode::window::Bound;
use crate::decode::{sample_cpu, sample_tid};
use crate::perfdata::{Events, PerfReader};
use crate::progress::Progress;

/// The samples of a perf round held back until the round's earliest time,
/// the input's first, is known (only for a window relative to it).
#[derive(Default)]
struct Held {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

/// A perf sample's time (None without PERF_SAMPLE_TIME): wall-clock when
/// the recording gives its clock's offset.
fn sample_time(sample: &td::PerfSampleEventInfo<'_>) -> Option<Time> {
    if !sample
        .sample_type()
        .has_flag(td::PerfEventAttrSampleType::Time)
    {
        return None;
    }
    let session = sample.session_info;
    Some(if session.clock_offset_known() {
        let ts = session.time_to_time_spec(sample.time);
        Time {
            ns: ts
                .seconds()
                .saturating_mul(1_000_000_000)
                .saturating_add(i64::from(ts.nanoseconds())),
            wall: true,
        }
    } else {
        Time {
            ns: i64::try_from(sample.time).unwrap_or(i64::MAX),
            wall: false,
        }
    })
}

fn read_u32_at(events: &Events, data: &[u8], at: usize) -> Option<u32> {
    data.get(at..at + 4)
        .map(|b| events.byte_reader().read_u32(b))
}

fn read_u64_at(events: &Events, data: &[u8], at: usize) -> u64 {
    data.get(at..at + 8)
        .map_or(0, |b| events.byte_reader().read_u64(b))
}

impl Counter<'_> {
    pub(super) fn perf(
        &mut self,
        mut reader: Box<PerfReader<'_>>,
        mut progress: Progress,
    ) -> Result<(), String> {
        let mut n = 0u64;
        // Only a window relative to the first event waits for it.
        let relative = |b: Option<Bound>| matches!(b, Some(Bound::Relative(_)));
        let mut held =
            (relative(self.window.start) || relative(self.window.end)).then(Held::default);
        let result = loop {
            match reader.move_next() {
                Ok(true) => {}
                Ok(false) => break Ok(()),
                Err(e) => {
                    break Err(format!(
                        "malformed event data after {}: {e}",
                        crate::plural::count(n, "event")
                    ))
                }
            }
            let record = reader.current();
            let events = reader.events();
            match record.header.ty {
                td::PerfEventHeaderType::Sample => {
                    n += 1;
                    match held.as_mut() {
                        Some(held) => {
                            held.bytes.extend_from_slice(record.data);
                            held.ends.push(held.bytes.len());
                        }
                        None => self.sample(events, record.data),
                    }
                }
                td::PerfEventHeaderType::FinishedRound | td::PerfEventHeaderType::FinishedInit => {
                    if let Some(h) = held.take() {
                        held = self.release(events, h);
                    }
                }
                // PERF_RECORD_COMM: u32 pid, u32 tid, char comm[].
                td::PerfEventHeaderType::Comm => {
                    if let (Some(pid), Some(tid), Some(comm)) = (
                        read_u32_at(events, record.data, 8),
                        read_u32_at(events, record.data, 12),
                        record.data.get(16..),
                    ) {
                        let end = comm.iter().position(|&b| b == 0).unwrap_or(comm.len());
                        self.summary.comm(pid, tid, &comm[..end]);
                        if self.filter.has_comm() {
                            let name = String::from_utf8_lossy(&comm[..end]).into_owned();
                            self.names.insert(tid, name);
                        }
                    }
                }
                // PERF_RECORD_FORK: u32 pid, ppid, tid, ptid; the new thread
                // has its parent's name.
                td::PerfEventHeaderType::Fork if self.filter.has_comm() => {
                    if let (Some(tid), Some(ptid)) = (
                        read_u32_at(events, record.data, 16),
                        read_u32_at(events, record.data, 20),
                    ) {
                        if let Some(name) = self.names.get(&ptid).cloned() {
                            self.names.insert(tid, name);
                        }
                    }
                }
                // PERF_RECORD_LOST: u64 id, u64 lost; PERF_RECORD_LOST_SAMPLES: u64 lost.
                td::PerfEventHeaderType::Lost => {
                    self.summary.lost += read_u64_at(events, record.data, 16)
                }
                td::PerfEventHeaderType::LostSamples => {
                    self.summary.lost += read_u64_at(events, record.data, 8)
                }
                _ => {}
            }
            progress.update(reader.position(), n);
        };
        if let Some(h) = held {
            self.release(reader.events(), h);
        }
        self.summary
            .notes
            .extend(std::mem::take(&mut reader.events_mut().notes));
        if self.filter.has_comm() && self.names.is_empty() {
            self.summary
                .notes
                .push(crate::decode::NO_COMM_RECORDS.to_string());
        }
        result
    }

    /// A round's end: the input's first time is the earliest of the held
    /// samples, which are then counted; None (hold no more) once it is known.
    fn release(&mut self, events: &Events, held: Held) -> Option<Held> {
        let samples = || {
            let starts = std::iter::once(0).chain(held.ends.iter().copied());
            starts.zip(&held.ends).map(|(a, &b)| &held.bytes[a..b])
        };
        self.first = samples()
            .filter_map(|data| events.sample_info(data).ok().and_then(|s| sample_time(&s)))
            .min_by_key(|t| t.ns);
        for data in samples() {
            self.sample(events, data);
        }
        self.first.is_none().then(Held::default)
    }

    fn sample(&mut self, events: &Events, data: &[u8]) {
        let sample = match events.sample_info(data) {
            Ok(sample) => sample,
            Err(_) => {
                self.summary.malformed += 1;
                self.summary.add(&Event {
                    system: "",
                    tracepoint: "(unattributed)",
                    provider: "",
                    event: b"(unattributed)",
                    level: None,
                    bytes: data.len(),
                    time: None,
                    pid: None,
                });
                return;
            }
        };
        let time = sample_time(&sample);
        if !self.in_window(time) {
            self.summary.filtered += 1;
            return;
        }
        let tid = sample_tid(&sample);
        let who = Who {
            pid: tid.map(|_| sample.pid),
            tid,
            cpu: sample_cpu(&sample),
        };
        let Some(format) = sample.format() else {
            let name = sample.name();
            let (system, tracepoint) = name.split_once(':').unwrap_or(("", name));
            let bytes = sample.raw_data().len();
            self.event(system, tracepoint, Named::Malformed, bytes, time, who);
            return;
        };
        let (system, tracepoint) = (format.system_name(), format.name());
        let user = sample.user_data();
        let named = if format.decoding_style() == td::PerfEventDecodingStyle::EventHeader {
            let (s, t) = (system.as_bytes(), tracepoint.as_bytes());
            if self.count_again(s, t, user, time, who.pid) {
                return;
            }
            match eventheader_names(&mut self.context, &mut self.split, tracepoint, user) {
                Ok(named) => named,
                // Well-formed without metadata: counted as a tracepoint.
                Err(td::EventHeaderEnumeratorError::NotSupported) => Named::Plain,
                Err(_) => Named::Malformed,
            }
        } else {
            Named::Plain
        };
        if !self.fields_hold(&named, tracepoint, user, Some(&sample)) {
            self.summary.filtered += 1;
            return;
        }
        self.event_of(system, tracepoint, named, user, time, who);
    }
}
