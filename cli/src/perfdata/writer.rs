//! Writing pipe-mode perf.data (`collect -o -`): the 16-byte header, the
//! metadata as records (HEADER_ATTR per event, HEADER_TRACING_DATA with the
//! tracefs formats, HEADER_FEATURE for EVENT_DESC, host, CPUs and clock),
//! FINISHED_INIT, then the data records as they come. perf, the reference's
//! decoder and `eventheader decode -` read it from a pipe.

use std::io::{self, Write};

use tracepoint_decode as td;

use super::headers::{ATTR_SIZE, FEATURE_CLOCKID, FEATURE_CLOCK_DATA, FEATURE_EVENT_DESC};

const HEADER_ATTR: u32 = 64;
const HEADER_TRACING_DATA: u32 = 66;
const HEADER_FEATURE: u32 = 80;
const FINISHED_INIT: u32 = 82;
const FEATURE_HOSTNAME: u64 = 3;
const FEATURE_OSRELEASE: u64 = 4;
const FEATURE_VERSION: u64 = 5;
const FEATURE_ARCH: u64 = 6;
const FEATURE_NRCPUS: u64 = 7;
const FEATURE_CPUDESC: u64 = 8;
const FEATURE_CPUID: u64 = 9;
const FEATURE_CMDLINE: u64 = 11;

/// One recorded event: its perf ids, attribute, name (`system:name`),
/// system and tracefs format text.
#[derive(Clone)]
pub struct EventInfo {
    pub ids: Vec<u64>,
    pub attr: td::PerfEventAttr,
    pub name: String,
    pub system: String,
    pub format: String,
}

/// What a recording's metadata says besides its events.
#[derive(Default)]
pub struct Metadata {
    pub long_size: u8,
    pub page_size: u32,
    /// tracefs `events/header_page` and `events/header_event` (empty: perf's
    /// defaults are assumed by readers).
    pub header_page: Vec<u8>,
    pub header_event: Vec<u8>,
    pub printk: Vec<u8>,
    pub hostname: Vec<u8>,
    pub os_release: Vec<u8>,
    pub arch: Vec<u8>,
    pub cpus_available: u32,
    pub cpus_online: u32,
    /// The clock of the timestamps, and (wall clock, that clock) at one
    /// instant, in nanoseconds.
    pub clockid: u32,
    pub clock_at: (u64, u64),
    /// The VERSION, CPUDESC and CPUID features: perf's readers take these
    /// three as present (`perf data convert --to-json` crashes on a file
    /// without them), so they are written even when empty.
    pub version: Vec<u8>,
    pub cpu_desc: Vec<u8>,
    pub cpuid: Vec<u8>,
    /// The CMDLINE feature: the recording program's arguments.
    pub cmdline: Vec<Vec<u8>>,
    /// Records written first in the data (header and body each): what
    /// readers must know before the first sample, the processes running
    /// when the recording started.
    pub processes: Vec<u8>,
}

/// The CMDLINE feature's bytes: a u32 count, then each argument as a
/// `perf_header_string`.
pub fn cmdline(args: &[Vec<u8>]) -> Vec<u8> {
    let mut b = (args.len() as u32).to_ne_bytes().to_vec();
    for a in args {
        header_string(&mut b, a);
    }
    b
}

/// A `perf_event_attr` as its bytes (this machine's byte order).
pub fn attr_bytes(a: &td::PerfEventAttr) -> Vec<u8> {
    let mut b = Vec::with_capacity(ATTR_SIZE);
    b.extend_from_slice(&a.attr_type.0.to_ne_bytes());
    b.extend_from_slice(&(ATTR_SIZE as u32).to_ne_bytes());
    for v in [
        a.config,
        a.sample_time,
        a.sample_type.0,
        a.read_format.0,
        a.options.0,
    ] {
        b.extend_from_slice(&v.to_ne_bytes());
    }
    b.extend_from_slice(&a.wakeup_value.to_ne_bytes());
    b.extend_from_slice(&a.bp_type.to_ne_bytes());
    for v in [
        a.config1,
        a.config2,
        a.branch_sample_type,
        a.sample_regs_user,
    ] {
        b.extend_from_slice(&v.to_ne_bytes());
    }
    b.extend_from_slice(&a.sample_stack_user.to_ne_bytes());
    b.extend_from_slice(&a.clockid.to_ne_bytes());
    b.extend_from_slice(&a.sample_regs_intr.to_ne_bytes());
    b.extend_from_slice(&a.aux_watermark.to_ne_bytes());
    b.extend_from_slice(&a.sample_max_stack.to_ne_bytes());
    b.extend_from_slice(&a.reserved2.to_ne_bytes());
    b.extend_from_slice(&a.aux_sample_size.to_ne_bytes());
    b.extend_from_slice(&a.reserved3.to_ne_bytes());
    b.extend_from_slice(&a.sig_data.to_ne_bytes());
    debug_assert_eq!(b.len(), ATTR_SIZE);
    b
}

fn pad8(b: &mut Vec<u8>) {
    b.resize(b.len().div_ceil(8) * 8, 0);
}

/// A `perf_header_string`: u32 length (NUL and padding to 8 included), text.
fn header_string(b: &mut Vec<u8>, s: &[u8]) {
    let len = (s.len() + 1).div_ceil(8) * 8;
    b.extend_from_slice(&(len as u32).to_ne_bytes());
    b.extend_from_slice(s);
    b.resize(b.len() + len - s.len(), 0);
}

/// The TRACING_DATA section: trace-cmd's layout, version 0.6 (what
/// `headers::tracing_data` reads).
pub fn tracing_data(meta: &Metadata, events: &[EventInfo]) -> Vec<u8> {
    let mut b = b"\x17\x08\x44tracing0.6\0".to_vec();
    b.push(u8::from(cfg!(target_endian = "big")));
    b.push(meta.long_size);
    b.extend_from_slice(&meta.page_size.to_ne_bytes());
    for (name, data) in [
        (&b"header_page\0"[..], &meta.header_page),
        (b"header_event\0", &meta.header_event),
    ] {
        b.extend_from_slice(name);
        b.extend_from_slice(&(data.len() as u64).to_ne_bytes());
        b.extend_from_slice(data);
    }
    b.extend_from_slice(&0u32.to_ne_bytes()); // no ftrace formats
                                              // Only tracepoints have a format (and a system).
    let events: Vec<&EventInfo> = events.iter().filter(|e| !e.format.is_empty()).collect();
    let mut systems: Vec<&str> = Vec::new();
    for e in &events {
        if !systems.contains(&e.system.as_str()) {
            systems.push(&e.system);
        }
    }
    b.extend_from_slice(&(systems.len() as u32).to_ne_bytes());
    for system in systems {
        b.extend_from_slice(system.as_bytes());
        b.push(0);
        let formats: Vec<&&EventInfo> = events.iter().filter(|e| e.system == system).collect();
        b.extend_from_slice(&(formats.len() as u32).to_ne_bytes());
        for e in formats {
            b.extend_from_slice(&(e.format.len() as u64).to_ne_bytes());
            b.extend_from_slice(e.format.as_bytes());
        }
    }
    b.extend_from_slice(&0u32.to_ne_bytes()); // kallsyms
    b.extend_from_slice(&(meta.printk.len() as u32).to_ne_bytes());
    b.extend_from_slice(&meta.printk);
    b.extend_from_slice(&0u64.to_ne_bytes()); // saved_cmdline
    b
}

/// The EVENT_DESC feature: the events' attributes, names and ids.
pub fn event_desc(events: &[EventInfo]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&(events.len() as u32).to_ne_bytes());
    b.extend_from_slice(&(ATTR_SIZE as u32).to_ne_bytes());
    for e in events {
        b.extend_from_slice(&attr_bytes(&e.attr));
        b.extend_from_slice(&(e.ids.len() as u32).to_ne_bytes());
        header_string(&mut b, e.name.as_bytes());
        for id in &e.ids {
            b.extend_from_slice(&id.to_ne_bytes());
        }
    }
    b
}

/// A record: header (type, misc 0, size), then `body`.
fn record(out: &mut Vec<u8>, ty: u32, body: &[u8]) {
    out.extend_from_slice(&ty.to_ne_bytes());
    out.extend_from_slice(&0u16.to_ne_bytes());
    out.extend_from_slice(&((8 + body.len()) as u16).to_ne_bytes());
    out.extend_from_slice(body);
}

fn feature(out: &mut Vec<u8>, id: u64, data: &[u8]) {
    let mut body = id.to_ne_bytes().to_vec();
    body.extend_from_slice(data);
    pad8(&mut body);
    record(out, HEADER_FEATURE, &body);
}

/// The header and every metadata record of a pipe-mode stream, up to and
/// including FINISHED_INIT.
pub fn pipe_preamble(meta: &Metadata, events: &[EventInfo]) -> Vec<u8> {
    let mut out = b"PERFILE2".to_vec();
    if cfg!(target_endian = "big") {
        out.reverse();
    }
    out.extend_from_slice(&16u64.to_ne_bytes());
    for e in events {
        let mut body = attr_bytes(&e.attr);
        for id in &e.ids {
            body.extend_from_slice(&id.to_ne_bytes());
        }
        record(&mut out, HEADER_ATTR, &body);
    }
    for (id, text) in [
        (FEATURE_HOSTNAME, &meta.hostname),
        (FEATURE_OSRELEASE, &meta.os_release),
        (FEATURE_VERSION, &meta.version),
        (FEATURE_ARCH, &meta.arch),
        (FEATURE_CPUDESC, &meta.cpu_desc),
        (FEATURE_CPUID, &meta.cpuid),
    ] {
        let mut s = Vec::new();
        header_string(&mut s, text);
        feature(&mut out, id, &s);
    }
    feature(&mut out, FEATURE_CMDLINE, &cmdline(&meta.cmdline));
    let mut cpus = meta.cpus_available.to_ne_bytes().to_vec();
    cpus.extend_from_slice(&meta.cpus_online.to_ne_bytes());
    feature(&mut out, FEATURE_NRCPUS, &cpus);
    feature(&mut out, FEATURE_EVENT_DESC as u64, &event_desc(events));
    feature(
        &mut out,
        FEATURE_CLOCKID as u64,
        &u64::from(meta.clockid).to_ne_bytes(),
    );
    let mut clock = 1u32.to_ne_bytes().to_vec();
    clock.extend_from_slice(&meta.clockid.to_ne_bytes());
    clock.extend_from_slice(&meta.clock_at.0.to_ne_bytes());
    clock.extend_from_slice(&meta.clock_at.1.to_ne_bytes());
    feature(&mut out, FEATURE_CLOCK_DATA as u64, &clock);
    let mut tracing = tracing_data(meta, events);
    pad8(&mut tracing);
    record(
        &mut out,
        HEADER_TRACING_DATA,
        &(tracing.len() as u32).to_ne_bytes(),
    );
    out.extend_from_slice(&tracing);
    record(&mut out, FINISHED_INIT, &[]);
    out
}

/// A pipe-mode perf.data stream being written.
pub struct PipeWriter<W: Write> {
    out: W,
}

impl<W: Write> PipeWriter<W> {
    /// Writes the header, the metadata and the records that come before
    /// the data (`meta.processes`).
    pub fn new(mut out: W, meta: &Metadata, events: &[EventInfo]) -> io::Result<PipeWriter<W>> {
        out.write_all(&pipe_preamble(meta, events))?;
        out.write_all(&meta.processes)?;
        out.flush()?;
        Ok(PipeWriter { out })
    }

    /// Data records (each header and body, as the ring buffers hold them).
    pub fn write_records(&mut self, data: &[u8]) -> io::Result<()> {
        self.out.write_all(data)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    pub fn finish(mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perfdata::headers;

    #[test]
    fn attr_round_trip() {
        let a = td::PerfEventAttr {
            attr_type: td::PerfEventAttrType::Tracepoint,
            config: 42,
            sample_type: td::PerfEventAttrSampleType(0x4c6),
            read_format: td::PerfEventAttrReadFormat(0x14),
            options: td::PerfEventAttrOptions(0x1234_5678),
            wakeup_value: 4096,
            clockid: 1,
            sig_data: 9,
            ..Default::default()
        };
        let b = attr_bytes(&a);
        assert_eq!(b.len(), ATTR_SIZE);
        let back = headers::attr(td::PerfByteReader::new(cfg!(target_endian = "big")), &b).unwrap();
        assert_eq!(attr_bytes(&back), b);
        assert_eq!(back.config, 42);
    }

    #[test]
    fn tracing_data_and_event_desc_parse_back() {
        let events = vec![EventInfo {
            ids: vec![7, 8],
            attr: td::PerfEventAttr::default(),
            name: "user_events:P_L5K1".into(),
            system: "user_events".into(),
            format: "name: P_L5K1\nID: 12\nformat:\n".into(),
        }];
        let meta = Metadata {
            long_size: 8,
            page_size: 4096,
            ..Default::default()
        };
        let t = headers::tracing_data(&tracing_data(&meta, &events)).unwrap();
        assert!(t.long_is_64);
        assert_eq!(t.formats.len(), 1);
        assert_eq!(t.formats[0].0, "user_events");
        assert_eq!(t.formats[0].1, events[0].format.as_bytes());
        let br = td::PerfByteReader::new(cfg!(target_endian = "big"));
        let d = headers::event_desc(br, &event_desc(&events)).unwrap();
        assert_eq!(
            (d[0].name.as_str(), &d[0].ids[..]),
            ("user_events:P_L5K1", &[7u64, 8][..])
        );
    }
}
