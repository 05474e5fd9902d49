//! `collect --circular --snapshot-on FILTER`: a snapshot when an event
//! passing FILTER (decode's filter language, written
//! `level=1,provider=P,size>=4096`) is written. Field terms are judged on
//! the decoded event; a `comm=` term on the thread's name as
//! `/proc/TID/comm` gives it when the event arrives (a live recording has
//! no COMM records).
//!
//! The overwrite rings cannot be watched (reading them needs a pause), so
//! the tracepoints whose names can pass the filter get a second perf event
//! per CPU, into a small ordinary ring per CPU ([`TRIGGER_RING_BYTES`]),
//! drained every pass; each of its samples is decoded and the whole filter
//! (the event name and provider in an EventHeader payload too) applied.
//! Memory stays bounded: these rings are fixed and small, and a pass holds
//! at most one ring's worth of records.

use tracepoint_decode as td;

use super::resolve::Tracepoint;
use super::session::Session;
use crate::decode::{Formatter, Outcome};
use crate::exit::{Error, Status};
use crate::filter::Filter;
use crate::perfdata::writer::Metadata;
use crate::perfdata::Events;

/// Each CPU's ring for the trigger events.
pub const TRIGGER_RING_BYTES: usize = 64 << 10;

const PERF_RECORD_SAMPLE: u32 = 9;

/// Parses `--snapshot-on`'s value: the filter language of `decode`'s
/// filters as one string (see [`crate::filter::line`]).
pub use crate::filter::line::parse_spec;

/// The trigger events and what decodes their samples.
pub struct Trigger {
    session: Session,
    events: Events,
    fmt: Formatter,
    json: String,
}

impl Trigger {
    /// Opens the trigger events for those of `tracepoints` whose names can
    /// pass `filter` (none: status 3).
    pub fn open(
        tracepoints: &[Tracepoint],
        cpus: &[usize],
        filter: &Filter,
        meta: &Metadata,
    ) -> Result<Trigger, Error> {
        let chosen: Vec<Tracepoint> = tracepoints
            .iter()
            .filter(|tp| filter.tracepoint_may_match(&tp.system, &tp.name))
            .cloned()
            .collect();
        if chosen.is_empty() {
            return Err(Error::new(
                Status::BadTracepoint,
                "--snapshot-on: no recorded tracepoint can match the filter",
            ));
        }
        let kernel_filter = filter.kernel_filter();
        let (mut session, descs, _) = Session::open(
            &chosen,
            cpus,
            TRIGGER_RING_BYTES,
            TRIGGER_RING_BYTES,
            kernel_filter.as_deref(),
            false,
        )?;
        session.copy_passes();
        let recorded = super::recorded(&chosen, descs, None);
        Ok(Trigger {
            session,
            events: super::live_events(meta, &recorded),
            fmt: Formatter::new(td::PerfMetaOptions::Default, filter.clone()),
            json: String::new(),
        })
    }

    pub fn enable(&mut self) -> Result<(), Error> {
        self.session.enable()
    }

    pub fn disable(&mut self) {
        self.session.disable()
    }

    /// Waits up to `timeout_ms` for trigger events.
    pub fn wait(&self, timeout_ms: i32) {
        self.session.wait(timeout_ms)
    }

    /// The first event that passes the filter among those arrived, as
    /// decode prints it; the rest of them are dropped. At most a few
    /// passes: a writer as fast as the drain cannot hold the loop.
    pub fn check(&mut self) -> Option<String> {
        // Names are read again each check: a thread may rename itself, and
        // the table stays small.
        self.fmt.begin_input();
        let mut found = None;
        for _ in 0..4 {
            let pass = self.session.drain();
            if !pass.any {
                break;
            }
            if found.is_none() {
                found = first_match(
                    &self.session.batch,
                    &self.events,
                    &mut self.fmt,
                    &mut self.json,
                );
            }
        }
        found
    }
}

/// The first sample in `batch` that `fmt`'s filter passes, decoded.
fn first_match(
    batch: &[u8],
    events: &Events,
    fmt: &mut Formatter,
    json: &mut String,
) -> Option<String> {
    let mut at = 0;
    while at + 8 <= batch.len() {
        let size = usize::from(u16::from_ne_bytes([batch[at + 6], batch[at + 7]]));
        if size < 8 || at + size > batch.len() {
            break;
        }
        let rec = &batch[at..at + size];
        at += size;
        if u32::from_ne_bytes(rec[0..4].try_into().expect("a header")) != PERF_RECORD_SAMPLE {
            continue;
        }
        let Ok(info) = events.sample_info(rec) else {
            continue;
        };
        if fmt.filter().has_comm() {
            if let Some(tid) = crate::decode::sample_tid(&info) {
                if let Some(name) = thread_name(tid) {
                    fmt.set_comm(tid, &name);
                }
            }
        }
        json.clear();
        if matches!(fmt.perf_sample(json, &info), Outcome::Decoded) {
            return Some(json.clone());
        }
    }
    None
}

/// The name of thread `tid` (`/proc/TID/comm`, at most 64 bytes read),
/// if it still runs.
fn thread_name(tid: u32) -> Option<String> {
    use std::io::Read;
    let mut buf = [0u8; 64];
    let mut file = std::fs::File::open(format!("/proc/{tid}/comm")).ok()?;
    let n = file.read(&mut buf).ok()?;
    let name = buf[..n].strip_suffix(b"\n").unwrap_or(&buf[..n]);
    Some(String::from_utf8_lossy(name).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let f = parse_spec("level=1").unwrap();
        assert_eq!(f.level, Some(1));
        let f = parse_spec("provider=A, provider=B event=E,keyword=0x6,pid=7").unwrap();
        assert_eq!(f.provider, vec!["A", "B"]);
        assert_eq!(f.event, vec!["E"]);
        assert_eq!(f.keyword, Some(6));
        assert_eq!(f.pid, vec![7]);
        let f = parse_spec("tid=8,tid=9,cpu=3").unwrap();
        assert_eq!((f.tid, f.cpu), (vec![8, 9], vec![3]));
        // A name that is no metadata name is a field's.
        let f = parse_spec("lvl=1").unwrap();
        assert_eq!(f.matching.where_[0].to_string(), "lvl=1");
        for (bad, says) in [
            ("", "no filter given"),
            (" , ", "no filter given"),
            ("level", "is not NAME=VALUE"),
            ("level=", "field 'level': no value"),
            ("level=0", "field 'level': '0' is not a level"),
            ("level=-1", "field 'level': '-1' is not a level"),
            ("level=1,level=2", "field 'level': given twice"),
            (
                "keyword=0",
                "field 'keyword': a keyword mask of 0 matches nothing",
            ),
            (
                "keyword=-3",
                "field 'keyword': not a hexadecimal keyword mask: -3",
            ),
            ("pid=x", "field 'pid': 'x' is not a process id"),
            ("pid=-1", "field 'pid': '-1' is not a process id"),
            (
                "level=1,pid=99999999",
                "field 'pid': '99999999' is not a process id",
            ),
            ("--level=1", "\"--level\" is no field name"),
            ("tid=-2", "field 'tid': '-2' is not a process id"),
            ("cpu=9000", "field 'cpu': '9000' is not a CPU number"),
        ] {
            let e = parse_spec(bad).unwrap_err();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }

    #[test]
    fn names_of_threads() {
        let me = std::fs::read_to_string("/proc/thread-self/comm").unwrap();
        let tid = std::fs::read_link("/proc/thread-self").unwrap();
        let tid: u32 = tid.file_name().unwrap().to_str().unwrap().parse().unwrap();
        assert_eq!(thread_name(tid).unwrap(), me.trim_end_matches('\n'));
        assert_eq!(thread_name(u32::MAX), None);
    }
}
