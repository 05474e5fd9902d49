//! Synthetic perf.data recordings of user_events tracepoints, as the kernel
//! and `perf record` (or `eventheader collect`) would write them: samples of
//! given event bytes with a tracefs format per tracepoint, written with
//! `tracepoint_perf`'s writer. For the CLI's tests and for
//! `benches/decode-side-by-side.sh` (`testkit synth-perf`), which need
//! recordings of known content and any size without a kernel.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use tracepoint_decode as td;
use tracepoint_perf as tp;

use crate::perf::COMMON_FIELDS;

/// The tracefs format of an EventHeader tracepoint, as a 6.12 kernel shows it
/// (copied from /sys/kernel/tracing/events/user_events/*/format in the VM).
pub fn eventheader_format(name: &str, id: u32) -> String {
    format!(
        "name: {name}\nID: {id}\nformat:\n{COMMON_FIELDS}\
         \tfield:u8 eventheader_flags;\toffset:8;\tsize:1;\tsigned:0;\n\
         \tfield:u8 version;\toffset:9;\tsize:1;\tsigned:0;\n\
         \tfield:u16 id;\toffset:10;\tsize:2;\tsigned:0;\n\
         \tfield:u16 tag;\toffset:12;\tsize:2;\tsigned:0;\n\
         \tfield:u8 opcode;\toffset:14;\tsize:1;\tsigned:0;\n\
         \tfield:u8 level;\toffset:15;\tsize:1;\tsigned:0;\n\n\
         print fmt: \"eventheader_flags=%u version=%u id=%u tag=%u opcode=%u level=%u\", \
         REC->eventheader_flags, REC->version, REC->id, REC->tag, REC->opcode, REC->level\n"
    )
}

/// Writes a perf.data file (with tracepoint_perf's writer) holding `count`
/// samples of user_events tracepoints: the capture records `records`, cycled,
/// as the kernel would record them (common fields, then the event bytes).
/// With `with_ids`, samples carry PERF_SAMPLE_IDENTIFIER; without, the file
/// must describe a single tracepoint, as perf writes single-event recordings.
/// A FINISHED_ROUND follows every 10 000 samples.
pub fn write_perf_data(path: &Path, records: &[(String, Vec<u8>)], count: usize, with_ids: bool) {
    Samples::new(records, count, with_ids).write(path);
}

/// [`write_perf_data`] with the tracefs formats `format(name, id)` (the
/// common fields must be the 8 bytes of [`eventheader_format`]'s).
pub fn write_perf_data_with(
    path: &Path,
    records: &[(String, Vec<u8>)],
    count: usize,
    with_ids: bool,
    format: fn(&str, u32) -> String,
) {
    Samples {
        format,
        ..Samples::new(records, count, with_ids)
    }
    .write(path);
}

/// [`write_perf_data`] (with ids) whose samples' thread (pid 4242, tid
/// 4243) is named `comm` by a PERF_RECORD_COMM before them.
pub fn write_perf_data_comm(path: &Path, records: &[(String, Vec<u8>)], count: usize, comm: &str) {
    Samples {
        comm: Some(comm),
        ..Samples::new(records, count, true)
    }
    .write(path);
}

/// [`write_perf_data`] (with ids) followed by the samples `again` once more,
/// byte for byte: what `perf record` writes when it reads part of a CPU
/// buffer twice (see `checks::stress`).
pub fn write_perf_data_again(
    path: &Path,
    records: &[(String, Vec<u8>)],
    count: usize,
    again: Range<usize>,
) {
    Samples {
        again,
        ..Samples::new(records, count, true)
    }
    .write(path);
}

/// One sample of [`write_perf_data_timed`]: tracepoint name, event bytes,
/// pid, tid and time (ns of the recording's clock).
pub struct TimedSample {
    pub name: String,
    pub event: Vec<u8>,
    pub pid: u32,
    pub tid: u32,
    pub time: u64,
}

/// A perf.data file (with sample ids) of `samples` as given: each with its
/// own pid, tid and time, for recordings of several threads over time.
pub fn write_perf_data_timed(path: &Path, samples: &[TimedSample]) {
    let records: Vec<(String, Vec<u8>)> = samples
        .iter()
        .map(|s| (s.name.clone(), s.event.clone()))
        .collect();
    let who = |k: usize| {
        let s = &samples[k];
        (s.pid, s.tid, s.time)
    };
    Samples {
        who: &who,
        ..Samples::new(&records, samples.len(), true)
    }
    .write(path);
}

/// What a synthetic recording holds: `count` samples cycling through
/// `records`, then the samples `again` once more; sample `k` has the pid,
/// tid and time `who(k)`. The public `write_perf_data*` functions fill it.
struct Samples<'a> {
    records: &'a [(String, Vec<u8>)],
    count: usize,
    with_ids: bool,
    format: fn(&str, u32) -> String,
    again: Range<usize>,
    comm: Option<&'a str>,
    who: &'a dyn Fn(usize) -> (u32, u32, u64),
}

/// Sample `k` of a single-thread recording: pid 4242, tid 4243, 1 us apart.
fn one_thread(k: usize) -> (u32, u32, u64) {
    (4242, 4243, 1_000_000_000 + k as u64 * 1000)
}

impl<'a> Samples<'a> {
    fn new(records: &'a [(String, Vec<u8>)], count: usize, with_ids: bool) -> Self {
        Samples {
            records,
            count,
            with_ids,
            format: eventheader_format,
            again: 0..0,
            comm: None,
            who: &one_thread,
        }
    }

    fn write(self, path: &Path) {
        let Samples {
            records,
            count,
            with_ids,
            format,
            again,
            comm,
            who,
        } = self;
        let mut names: Vec<&str> = Vec::new();
        for (name, _) in records {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        assert!(
            with_ids || names.len() == 1,
            "a file without sample ids holds one event"
        );
        type St = td::PerfEventAttrSampleType;
        let sample_type = St::Tid.0
            | St::Time.0
            | St::Cpu.0
            | St::Raw.0
            | if with_ids { St::Identifier.0 } else { 0 };
        let mut w = tp::PerfDataFileWriter::new();
        w.create_file(path.to_str().unwrap()).unwrap();
        for (i, name) in names.iter().enumerate() {
            let id = 1000 + i as u32;
            let format =
                td::PerfEventFormat::parse(true, "user_events", &format(name, id)).unwrap();
            let attr = td::PerfEventAttr {
                attr_type: td::PerfEventAttrType(2), // PERF_TYPE_TRACEPOINT
                size: td::PerfEventAttrSize(std::mem::size_of::<td::PerfEventAttr>() as u32),
                config: u64::from(id),
                sample_time: 1,
                sample_type: td::PerfEventAttrSampleType(sample_type),
                options: td::PerfEventAttrOptions::SampleIdAll,
                ..Default::default()
            };
            let desc = format!("user_events:{name}");
            assert!(w.add_tracepoint_event_desc(
                &[5000 + i as u64],
                &attr,
                &desc,
                &Arc::new(format)
            ));
        }
        w.set_tracing_data_required(8, 4096);
        // Timestamps on CLOCK_MONOTONIC (1), whose time 0 was 2024-03-28 00:00:00
        // UTC: the wall-clock times decoders show, as `collect` records them.
        w.set_clockid_header(1);
        w.set_clock_data_header(1, 1_711_584_000_000_000_000, 0);
        let mut buf = Vec::with_capacity(1 << 20);
        if let Some(comm) = comm {
            // PERF_RECORD_COMM: pid, tid, the name (NUL-padded to 8 bytes), then
            // the sample id fields (tid, time, cpu, identifier).
            let name_len = (comm.len() + 1).div_ceil(8) * 8;
            let size = 8 + 8 + name_len + 8 + 8 + 8 + 8 * with_ids as usize;
            buf.extend_from_slice(&3u32.to_le_bytes());
            buf.extend_from_slice(&0u16.to_le_bytes());
            buf.extend_from_slice(&(size as u16).to_le_bytes());
            buf.extend_from_slice(&4242u32.to_le_bytes());
            buf.extend_from_slice(&4243u32.to_le_bytes());
            buf.extend_from_slice(comm.as_bytes());
            buf.resize(buf.len() + name_len - comm.len(), 0);
            buf.extend_from_slice(&4242u32.to_le_bytes());
            buf.extend_from_slice(&4243u32.to_le_bytes());
            buf.extend_from_slice(&999_999_000u64.to_le_bytes());
            buf.extend_from_slice(&0u64.to_le_bytes());
            if with_ids {
                buf.extend_from_slice(&5000u64.to_le_bytes());
            }
        }
        for k in (0..count).chain(again) {
            let (name, event) = &records[k % records.len()];
            let i = names.iter().position(|n| n == name).unwrap();
            let raw_len = 8 + event.len();
            let raw_padded = (4 + raw_len).div_ceil(8) * 8 - 4;
            let size = 8 + 8 * (3 + with_ids as usize) + 4 + raw_padded;
            buf.extend_from_slice(&9u32.to_le_bytes()); // PERF_RECORD_SAMPLE
            buf.extend_from_slice(&0u16.to_le_bytes());
            buf.extend_from_slice(&(size as u16).to_le_bytes());
            if with_ids {
                buf.extend_from_slice(&(5000 + i as u64).to_le_bytes());
            }
            let (pid, tid, time) = who(k);
            buf.extend_from_slice(&pid.to_le_bytes());
            buf.extend_from_slice(&tid.to_le_bytes());
            buf.extend_from_slice(&time.to_le_bytes());
            buf.extend_from_slice(&((k % 4) as u64).to_le_bytes()); // cpu, res
            buf.extend_from_slice(&(raw_padded as u32).to_le_bytes());
            buf.extend_from_slice(&(1000 + i as u16).to_le_bytes()); // common_type
            buf.extend_from_slice(&[0, 0]); // common_flags, common_preempt_count
            buf.extend_from_slice(&(tid as i32).to_le_bytes()); // common_pid
            buf.extend_from_slice(event);
            buf.resize(buf.len() + raw_padded - raw_len, 0);
            if buf.len() >= 1 << 20 {
                w.write_event_data(&buf).unwrap();
                buf.clear();
            }
            if (k + 1) % 10_000 == 0 {
                w.write_event_data(&buf).unwrap();
                buf.clear();
                w.write_finished_round().unwrap();
            }
        }
        w.write_event_data(&buf).unwrap();
        w.finalize_and_close().unwrap();
    }
}

/// `count` events like `cli_writer burst` writes (cli/tests/vm/cli_writer.c):
/// `Burst` of provider CliBurst (level 5, keyword 1) with one field
/// `u32 i` = 0, 1, ..., as (tracepoint name, event bytes).
pub fn burst_records(count: u32) -> Vec<(String, Vec<u8>)> {
    // Metadata: event name, then field "i" with encoding value32.
    let meta = b"Burst\0i\0\x04";
    (0..count)
        .map(|i| {
            // Flags: 64-bit, little-endian, extension; version 0, id 0, tag 0,
            // opcode 0, level 5; then the metadata extension and the payload.
            let mut ev = vec![7u8, 0, 0, 0, 0, 0, 0, 5];
            ev.extend_from_slice(&(meta.len() as u16).to_le_bytes());
            ev.extend_from_slice(&1u16.to_le_bytes());
            ev.extend_from_slice(meta);
            ev.extend_from_slice(&i.to_le_bytes());
            ("CliBurst_L5K1".to_string(), ev)
        })
        .collect()
}

/// An EventHeader event `name` of `Provider_L5K1` with opcode `opcode`,
/// activity id `activity` and related id `related` (when not zero) and
/// one string field `s`, as (tracepoint name, event bytes).
pub fn activity_event(
    provider: &str,
    name: &str,
    opcode: u8,
    activity: [u8; 16],
    related: [u8; 16],
    s: &str,
) -> (String, Vec<u8>) {
    let mut meta = name.as_bytes().to_vec();
    meta.extend_from_slice(b"\0s\0\x07"); // field s: ZStringChar8 (NUL-terminated)
                                          // Flags: 64-bit, little-endian, extension; version 0, id 0, tag 0, opcode, level 5.
    let mut ev = vec![7u8, 0, 0, 0, 0, 0, opcode, 5];
    if activity != [0; 16] {
        let ids = if related != [0; 16] { 32u16 } else { 16 };
        ev.extend_from_slice(&ids.to_le_bytes());
        ev.extend_from_slice(&0x8002u16.to_le_bytes()); // activity ids, chained
        ev.extend_from_slice(&activity);
        if related != [0; 16] {
            ev.extend_from_slice(&related);
        }
    }
    ev.extend_from_slice(&(meta.len() as u16).to_le_bytes());
    ev.extend_from_slice(&1u16.to_le_bytes()); // metadata, last
    ev.extend_from_slice(&meta);
    ev.extend_from_slice(s.as_bytes());
    ev.push(0);
    (format!("{provider}_L5K1"), ev)
}
