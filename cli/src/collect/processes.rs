//! The processes running when a recording starts, as perf records: for each
//! thread in /proc, a PERF_RECORD_FORK (its parent: the process's parent
//! for a main thread, the main thread for the others) and a PERF_RECORD_COMM
//! (its name), so that readers name the processes whose samples come
//! before the kernel reports anything about them. Processes that start
//! during the recording are reported by the kernel itself (the `comm` and
//! `task` bits of the side-band event, [`super::perf_events::open_side_band`]);
//! in circular mode those records are kept here ([`Kept`]) for every
//! snapshot.
//!
//! /proc is the kernel's, but a name is whatever a process set: its bytes
//! are copied as they are (at most 15, as the kernel keeps them), never
//! interpreted. A process that ends while /proc is read is left out.

use std::path::Path;

use perf_event::Counter;

use super::forward::ForwardRing;

const PERF_RECORD_COMM: u32 = 3;
const PERF_RECORD_FORK: u32 = 7;
/// perf's PERF_RECORD_MISC_FORK_EXEC: a fork record that perf synthesized.
const MISC_FORK_EXEC: u16 = 1 << 13;
/// The kernel's TASK_COMM_LEN, its NUL included.
const COMM_LEN: usize = 16;
/// At most this many threads are described (a bound on the time and
/// memory spent; /proc rarely lists more).
pub const MAX_THREADS: usize = 1 << 17;

const PERF_RECORD_LOST: u32 = 2;
/// At most this many bytes of process records are kept in circular mode
/// (about 100000 records).
pub const MAX_KEPT: usize = 8 << 20;

/// The process records the kernel sends during a circular recording, kept
/// for every snapshot: the side-band event's forward rings, drained between
/// snapshots (never paused, so the snapshots' pauses lose none of them),
/// and their records, at most [`MAX_KEPT`] bytes.
pub struct Kept {
    rings: Vec<ForwardRing>,
    /// The records kept, as the kernel wrote them.
    pub records: Vec<u8>,
    /// Process records the kernel could not write (their ring was full).
    pub lost: u64,
    /// Process records not kept (over [`MAX_KEPT`]).
    pub dropped: u64,
    scratch: Vec<u8>,
}

impl Kept {
    pub fn new(rings: Vec<ForwardRing>) -> Kept {
        Kept {
            rings,
            records: Vec::new(),
            lost: 0,
            dropped: 0,
            scratch: Vec::new(),
        }
    }

    /// The side-band events (to enable and disable them).
    pub fn counters(&mut self) -> impl Iterator<Item = &mut Counter> {
        self.rings.iter_mut().map(|r| &mut r.counter)
    }

    /// Moves what the rings hold into the kept records.
    pub fn drain(&mut self) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        for ring in &mut self.rings {
            ring.take(usize::MAX, &mut scratch, |_| {});
        }
        self.keep(&scratch);
        self.scratch = scratch;
    }

    /// Keeps the whole records of `records`, while there is room; a
    /// PERF_RECORD_LOST is counted, not kept: it counts process records,
    /// and readers would take it for lost events.
    fn keep(&mut self, records: &[u8]) {
        let mut at = 0;
        while at + 8 <= records.len() {
            let size = usize::from(u16::from_ne_bytes([records[at + 6], records[at + 7]]));
            if size < 8 || at + size > records.len() {
                break;
            }
            let rec = &records[at..at + size];
            let ty = u32::from_ne_bytes(rec[0..4].try_into().expect("4 bytes"));
            if ty == PERF_RECORD_LOST {
                // header, id, lost
                self.lost += rec
                    .get(16..24)
                    .map_or(0, |b| u64::from_ne_bytes(b.try_into().expect("8 bytes")));
            } else if self.records.len() + size <= MAX_KEPT {
                self.records.extend_from_slice(rec);
            } else {
                self.dropped += 1;
            }
            at += size;
        }
    }
}

/// What every synthesized record's sample_id trailer says: the event it is
/// attributed to, its CPU and time.
#[derive(Clone, Copy, Debug)]
pub struct Stamp {
    pub id: u64,
    pub cpu: u32,
    pub time: u64,
}

/// Ends a record started at `start`: the sample_id trailer of collect's
/// events (pid/tid, time, cpu/reserved, identifier), then the size.
fn finish(out: &mut Vec<u8>, start: usize, pid: u32, tid: u32, s: Stamp) {
    out.extend_from_slice(&pid.to_ne_bytes());
    out.extend_from_slice(&tid.to_ne_bytes());
    out.extend_from_slice(&s.time.to_ne_bytes());
    out.extend_from_slice(&s.cpu.to_ne_bytes());
    out.extend_from_slice(&0u32.to_ne_bytes());
    out.extend_from_slice(&s.id.to_ne_bytes());
    let size = (out.len() - start) as u16;
    out[start + 6..start + 8].copy_from_slice(&size.to_ne_bytes());
}

fn header(out: &mut Vec<u8>, ty: u32, misc: u16) -> usize {
    let start = out.len();
    out.extend_from_slice(&ty.to_ne_bytes());
    out.extend_from_slice(&misc.to_ne_bytes());
    out.extend_from_slice(&0u16.to_ne_bytes());
    start
}

/// A PERF_RECORD_COMM: thread `tid` of process `pid` is named `name` (at
/// most 15 bytes of it, up to a NUL or newline).
pub fn comm_record(out: &mut Vec<u8>, pid: u32, tid: u32, name: &[u8], s: Stamp) {
    let end = name
        .iter()
        .position(|&c| c == 0 || c == b'\n')
        .unwrap_or(name.len())
        .min(COMM_LEN - 1);
    let start = header(out, PERF_RECORD_COMM, 0);
    out.extend_from_slice(&pid.to_ne_bytes());
    out.extend_from_slice(&tid.to_ne_bytes());
    out.extend_from_slice(&name[..end]);
    // NUL-terminated, padded to 8 bytes.
    out.resize(out.len() + (end + 1).div_ceil(8) * 8 - end, 0);
    finish(out, start, pid, tid, s);
}

/// A PERF_RECORD_FORK: thread `tid` of process `pid` was started by thread
/// `ptid` of process `ppid`.
pub fn fork_record(out: &mut Vec<u8>, pid: u32, ppid: u32, tid: u32, ptid: u32, s: Stamp) {
    let start = header(out, PERF_RECORD_FORK, MISC_FORK_EXEC);
    for v in [pid, ppid, tid, ptid] {
        out.extend_from_slice(&v.to_ne_bytes());
    }
    out.extend_from_slice(&s.time.to_ne_bytes());
    finish(out, start, pid, tid, s);
}

/// The stamp of the records of a recording of `recorded` made on `cpus`,
/// synthesized now: the first event's first identifier (that event reports
/// the processes, [`super::perf_events::event_builder`]), the first CPU, the
/// monotonic clock now (before the recording starts, so that readers take
/// the names before any sample).
pub fn stamp(recorded: &[super::output::Recorded], cpus: &[usize]) -> Stamp {
    Stamp {
        id: recorded
            .first()
            .and_then(|r| r.info.ids.first().copied())
            .unwrap_or(0),
        cpu: cpus.first().map_or(0, |&c| c as u32),
        time: super::metadata::clock_ns(libc::CLOCK_MONOTONIC),
    }
}

/// The FORK and COMM records of the processes running now (from /proc).
pub fn running(s: Stamp) -> Vec<u8> {
    let mut out = Vec::new();
    synthesize(Path::new("/proc"), s, &mut out);
    out
}

/// At most `max` bytes of a small /proc file (None: it is gone).
fn read_small(path: &Path, max: usize) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut buf = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(max as u64)
        .read_to_end(&mut buf)
        .ok()?;
    Some(buf)
}

/// The `PPid:` of a /proc/PID/status text.
fn ppid_of(status: &[u8]) -> Option<u32> {
    status
        .split(|&c| c == b'\n')
        .find_map(|line| line.strip_prefix(b"PPid:"))
        .and_then(|v| std::str::from_utf8(v).ok())
        .and_then(|v| v.trim().parse().ok())
}

/// The numeric entries of a /proc directory, sorted.
fn numbered(dir: &Path) -> Vec<u32> {
    let mut ids: Vec<u32> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    ids.sort_unstable();
    ids
}

/// FORK and COMM records of every thread under `proc_root` (/proc), at
/// most [`MAX_THREADS`], appended to `out`. Returns how many threads.
pub fn synthesize(proc_root: &Path, s: Stamp, out: &mut Vec<u8>) -> usize {
    let mut threads = 0;
    for pid in numbered(proc_root) {
        let dir = proc_root.join(pid.to_string());
        let Some(status) = read_small(&dir.join("status"), 4096) else {
            continue;
        };
        let ppid = ppid_of(&status).unwrap_or(0);
        for tid in numbered(&dir.join("task")) {
            if threads == MAX_THREADS {
                return threads;
            }
            let Some(name) = read_small(&dir.join(format!("task/{tid}/comm")), 64) else {
                continue;
            };
            let parent = if tid == pid { ppid } else { pid };
            fork_record(out, pid, parent, tid, parent, s);
            comm_record(out, pid, tid, &name, s);
            threads += 1;
        }
    }
    threads
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Stamp = Stamp {
        id: 9,
        cpu: 1,
        time: 5,
    };

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_ne_bytes(b[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn comm_is_padded_truncated_and_carries_the_sample_id() {
        let mut b = Vec::new();
        comm_record(&mut b, 10, 11, b"a-very-long-process-name\n", S);
        // header 8, pid/tid 8, 15 bytes + NUL, trailer 32
        assert_eq!(b.len(), 8 + 8 + 16 + 32);
        assert_eq!(u32_at(&b, 0), PERF_RECORD_COMM);
        assert_eq!(usize::from(u16::from_ne_bytes([b[6], b[7]])), b.len());
        assert_eq!(&b[16..32], b"a-very-long-pro\0");
        assert_eq!(crate::collect::session::record_time(&b), Some(5));
        assert_eq!(crate::collect::session::record_cpu(&b), Some(1));
        let mut short = Vec::new();
        comm_record(&mut short, 1, 1, b"sh\n", S);
        assert_eq!(&short[16..24], b"sh\0\0\0\0\0\0");
        assert_eq!(short.len() % 8, 0);
    }

    #[test]
    fn fork_layout() {
        let mut b = Vec::new();
        fork_record(&mut b, 10, 1, 12, 10, S);
        assert_eq!(b.len(), 8 + 16 + 8 + 32);
        assert_eq!(
            [
                u32_at(&b, 8),
                u32_at(&b, 12),
                u32_at(&b, 16),
                u32_at(&b, 20)
            ],
            [10, 1, 12, 10]
        );
    }

    #[test]
    fn this_process_is_described() {
        let mut b = Vec::new();
        let n = synthesize(Path::new("/proc"), S, &mut b);
        assert!(n >= 1);
        let me = std::process::id();
        let own = std::fs::read("/proc/self/comm").unwrap();
        let mut found = false;
        let mut at = 0;
        while at < b.len() {
            let size = usize::from(u16::from_ne_bytes([b[at + 6], b[at + 7]]));
            let rec = &b[at..at + size];
            if u32_at(rec, 0) == PERF_RECORD_COMM && u32_at(rec, 8) == me && u32_at(rec, 12) == me {
                let name = &rec[16..];
                let len = name.iter().position(|&c| c == 0).unwrap();
                found = name[..len] == own[..own.len() - 1];
            }
            at += size;
        }
        assert!(found, "no COMM record for this process");
    }

    /// A PERF_RECORD_LOST of `n` records, as the kernel writes it.
    fn lost_record(n: u64) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&PERF_RECORD_LOST.to_ne_bytes());
        b.extend_from_slice(&0u16.to_ne_bytes());
        b.extend_from_slice(&56u16.to_ne_bytes());
        for v in [9, n, 0, 5, 1, 9] {
            b.extend_from_slice(&v.to_ne_bytes());
        }
        b
    }

    #[test]
    fn kept_records_leave_out_losses_and_stop_at_the_bound() {
        let mut comm = Vec::new();
        comm_record(&mut comm, 10, 11, b"sleep", S);
        let mut input = comm.clone();
        input.extend_from_slice(&lost_record(17));
        input.extend_from_slice(&comm);
        input.extend_from_slice(&[1, 2, 3]); // a partial record: ignored
        let mut kept = Kept::new(Vec::new());
        kept.keep(&input);
        assert_eq!(kept.records, [comm.clone(), comm.clone()].concat());
        assert_eq!((kept.lost, kept.dropped), (17, 0));
        let fill = MAX_KEPT - kept.records.len() - comm.len() + 1;
        kept.records.resize(kept.records.len() + fill, 0);
        kept.keep(&comm);
        assert_eq!(kept.dropped, 1);
        assert_eq!(kept.records.len(), MAX_KEPT - comm.len() + 1);
    }

    /// The side-band event opens on this machine (perf events as root),
    /// and reports a process that starts and ends while it is enabled.
    #[test]
    fn the_side_band_event_reports_a_new_process() {
        use super::super::perf_events::open_side_band;
        let cpus = super::super::session::online_cpus();
        let (rings, (ids, attr)) = open_side_band(&cpus, perf_event::ReadFormat::ID).unwrap();
        assert_eq!(ids.len(), cpus.len());
        // comm | task | sample_id_all
        assert_ne!(attr.options.0 & (1 << 9), 0);
        assert_ne!(attr.options.0 & (1 << 13), 0);
        assert_ne!(attr.options.0 & (1 << 18), 0);
        let mut kept = Kept::new(rings);
        for c in kept.counters() {
            c.enable().unwrap();
        }
        let child = std::process::Command::new("true").status().unwrap();
        assert!(child.success());
        for c in kept.counters() {
            c.disable().unwrap();
        }
        kept.drain();
        let mut at = 0;
        let mut named = false;
        while at < kept.records.len() {
            let rec = &kept.records[at..];
            let size = usize::from(u16::from_ne_bytes([rec[6], rec[7]]));
            if u32_at(rec, 0) == PERF_RECORD_COMM && rec[16..].starts_with(b"true\0") {
                named = true;
                // Its trailer names one of the side-band event's ids.
                let id = u64::from_ne_bytes(rec[size - 8..size].try_into().unwrap());
                assert!(ids.contains(&id), "id {id} of {ids:?}");
            }
            at += size;
        }
        assert!(
            named,
            "no COMM record of `true` in {} bytes",
            kept.records.len()
        );
    }

    #[test]
    fn a_missing_proc_gives_nothing() {
        let mut b = Vec::new();
        assert_eq!(synthesize(Path::new("/nonexistent-proc"), S, &mut b), 0);
        assert!(b.is_empty());
    }
}
