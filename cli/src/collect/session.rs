//! The kernel side of `collect`: one perf event per tracepoint and CPU, one
//! ring buffer per CPU (the CPU's other events redirect their output to it),
//! drained pass by pass into one batch of records (header rebuilt, then the
//! record's bytes), which `collect` hands to its recorder and its live view.

use std::os::fd::AsRawFd;

use perf_event::{Counter, ReadFormat};

use super::backward::data_bytes;
use super::forward::ForwardRing;
use super::metadata::clock_ns;
use super::perf_events::{
    event_builder, file_attr, kernel_filter, open_on_cpu, open_side_band, perf_open_error,
    redirect, set_filter, Direction, EventIds,
};
use super::pieces::{Cuts, Pieces};
use super::resolve::Tracepoint;
use crate::exit::{Error, Status};

const PERF_RECORD_LOST: u32 = 2;
const PERF_RECORD_THROTTLE: u32 = 5;
const PERF_RECORD_SAMPLE: u32 = 9;
const PERF_RECORD_LOST_SAMPLES: u32 = 13;

/// What the kernel delivered.
#[derive(Debug, Default, Clone, Copy)]
pub struct Stats {
    pub samples: u64,
    /// Samples the kernel dropped (PERF_RECORD_LOST and LOST_SAMPLES counts).
    pub lost: u64,
    /// PERF_RECORD_THROTTLE records: sampling was throttled, samples dropped
    /// without a count.
    pub throttled: u64,
    pub first_time: Option<u64>,
    pub last_time: u64,
}

pub struct Session {
    rings: Vec<ForwardRing>,
    /// Events writing into another event's ring (kept open).
    redirected: Vec<Counter>,
    /// The events count their lost samples (PERF_FORMAT_LOST).
    lost_counts: bool,
    /// At most this much of a ring per pass (and per perf round).
    pass_bytes: usize,
    /// The records of the current pass, when copied (`drain`).
    pub batch: Vec<u8>,
    /// The pieces of the current pass, when left in place
    /// (`drain_in_place`): (ring, end position), in the order to write
    /// them (`pieces::write_pieces`).
    pub cuts: Vec<(usize, u64)>,
    /// The least bytes of a piece (the wakeup mark).
    piece_bytes: usize,
    /// A record that wraps around its ring's end, while it is counted.
    scratch: Vec<u8>,
    pub stats: Stats,
}

/// What a pass over the rings found.
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    /// It moved records.
    pub any: bool,
    /// It took at least a piece (the wakeup mark) from a ring: events are
    /// arriving fast, drain again before waiting. A pass that took less
    /// waits for the next mark (or the poll's timeout), so that a burst is
    /// taken in pieces of a quarter ring, not record by record.
    pub full: bool,
    /// Every record with a timestamp before this one is in this pass or an
    /// earlier one: the pass started after it, and drained each ring it
    /// stopped short in up to then. (Records written during the pass may
    /// be in it or in the next.)
    pub complete_before: u64,
}

/// The time of a record of the layout `collect` asks for: samples have it
/// after the identifier and pid/tid; other records in their sample_id
/// trailer (pid/tid, time, cpu, identifier).
pub fn record_time(rec: &[u8]) -> Option<u64> {
    let ty = u32::from_ne_bytes(rec.get(0..4)?.try_into().ok()?);
    let at = if ty == PERF_RECORD_SAMPLE {
        24
    } else {
        rec.len().checked_sub(24)?
    };
    Some(u64::from_ne_bytes(rec.get(at..at + 8)?.try_into().ok()?))
}

/// The CPU of a non-sample record (from its sample_id trailer).
pub fn record_cpu(rec: &[u8]) -> Option<u32> {
    let at = rec.len().checked_sub(16)?;
    Some(u32::from_ne_bytes(rec.get(at..at + 4)?.try_into().ok()?))
}

impl Stats {
    /// Counts one record (header and body as the ring holds them).
    fn count(&mut self, ty: u32, rec: &[u8]) {
        let u64_at = |at: usize| {
            rec.get(at..at + 8)
                .map_or(0, |b| u64::from_ne_bytes(b.try_into().expect("8 bytes")))
        };
        match ty {
            // header, identifier, pid+tid, time, ...
            PERF_RECORD_SAMPLE => {
                self.samples += 1;
                let t = u64_at(24);
                self.first_time = Some(self.first_time.map_or(t, |f| f.min(t)));
                self.last_time = self.last_time.max(t);
            }
            // header, id, lost
            PERF_RECORD_LOST => self.lost += u64_at(16),
            // header, lost
            PERF_RECORD_LOST_SAMPLES => self.lost += u64_at(8),
            PERF_RECORD_THROTTLE => self.throttled += 1,
            _ => {}
        }
    }
}

/// The CPUs in /sys/devices/system/cpu/online ("0-3,6").
pub fn online_cpus() -> Vec<usize> {
    let text = std::fs::read_to_string("/sys/devices/system/cpu/online").unwrap_or_default();
    let mut cpus = parse_cpu_list(text.trim());
    if cpus.is_empty() {
        let n = std::thread::available_parallelism().map_or(1, |n| n.get());
        cpus = (0..n).collect();
    }
    cpus
}

fn parse_cpu_list(s: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        if let (Ok(a), Ok(b)) = (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
            out.extend(a..=b.min(a + 65_536));
        }
    }
    out
}

/// The perf events [`Session::open`] opens on each CPU for `tracepoints`
/// tracepoints: one each, and with `side_band` the side-band event's.
pub fn events_per_cpu(tracepoints: usize, side_band: bool) -> usize {
    tracepoints.saturating_add(usize::from(side_band))
}

impl Session {
    /// Opens the events (disabled) of `tracepoints` on `cpus`; with
    /// `filter`, each event gets it as its kernel tracepoint filter; with
    /// `side_band`, the process records too ([`open_side_band`], drained
    /// with the rest). Returns the session and, per tracepoint, its ids and
    /// attribute, then the side-band event's.
    pub fn open(
        tracepoints: &[Tracepoint],
        cpus: &[usize],
        buffer_bytes: usize,
        pass_bytes: usize,
        filter: Option<&str>,
        side_band: bool,
    ) -> Result<(Session, Vec<EventIds>, Option<EventIds>), Error> {
        let wakeup = (buffer_bytes / 4).max(4096);
        let mut rings: Vec<ForwardRing> = Vec::new();
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
        let mut redirected = Vec::new();
        let mut descs = Vec::new();
        let mut lost_counts = true;
        let filter = kernel_filter(filter)?;
        for tp in tracepoints {
            // LOST: the kernel counts every sample it drops (Linux 6.0+).
            let read_format = if lost_counts {
                ReadFormat::ID | ReadFormat::LOST
            } else {
                ReadFormat::ID
            };
            let mut b = event_builder(tp, read_format, Direction::Forward { wakeup });
            let mut ids = Vec::new();
            for &cpu in cpus {
                let counter = match open_on_cpu(&mut b, cpu, &mut lost_counts) {
                    Ok(Some(c)) => c,
                    Ok(None) => continue,
                    Err(e) => return Err(perf_open_error(&e, &tp.full_name())),
                };
                if let Some(f) = &filter {
                    set_filter(&counter, f, &tp.full_name())?;
                }
                ids.push(counter.id());
                match rings.iter().find(|r| r.cpu == cpu) {
                    Some(ring) => {
                        redirect(&counter, &ring.counter, &tp.full_name(), cpu)?;
                        redirected.push(counter);
                    }
                    None => {
                        rings.push(ForwardRing::map(
                            cpu,
                            counter,
                            data_bytes(buffer_bytes, page),
                        )?);
                    }
                }
            }
            if ids.is_empty() {
                return Err(Error::new(Status::Failure, "no CPU could be opened"));
            }
            descs.push((ids, file_attr(&b, 1, wakeup as u32)));
        }
        // Its losses count with the samples' (its ring's PERF_RECORD_LOST
        // and its own count alike): a lost process record is a lost record.
        let side = if side_band {
            let read_format = if lost_counts {
                ReadFormat::ID | ReadFormat::LOST
            } else {
                ReadFormat::ID
            };
            let (side_rings, desc) = open_side_band(cpus, read_format)?;
            rings.extend(side_rings);
            Some(desc)
        } else {
            None
        };

        Ok((
            Session {
                rings,
                redirected,
                lost_counts,
                pass_bytes,
                batch: Vec::new(),
                cuts: Vec::new(),
                piece_bytes: wakeup,
                scratch: Vec::new(),
                stats: Stats::default(),
            },
            descs,
            side,
        ))
    }
    /// Makes `batch` room for a pass of `drain` over every ring (at most
    /// `pass_bytes` of each, and one record of up to 64 KiB past it), every
    /// page touched: no pass pays a page fault for it, the first burst
    /// included. Call before `enable` when the passes are copied.
    pub fn copy_passes(&mut self) {
        let bytes = self.rings.len() * (self.pass_bytes + (64 << 10)) + 64;
        // Written, not only allocated (an allocation of zeros may map
        // pages it never touches).
        self.batch = Vec::with_capacity(bytes);
        self.batch.resize(bytes, 1);
        self.batch.clear();
    }

    /// The least bytes of a piece (`drain_in_place`), and the bytes of
    /// every ring together.
    pub fn sizes(&self) -> (usize, usize) {
        let rings = self.rings.iter().map(|r| r.data_len()).sum();
        (self.piece_bytes, rings)
    }

    /// Starts recording.
    pub fn enable(&mut self) -> Result<(), Error> {
        for ring in &mut self.rings {
            ring.counter
                .enable()
                .map_err(|e| Error::kernel(&e, "enabling perf events"))?;
        }
        for c in &mut self.redirected {
            c.enable()
                .map_err(|e| Error::kernel(&e, "enabling perf events"))?;
        }
        Ok(())
    }

    /// Stops recording (what is in the rings stays to be drained).
    pub fn disable(&mut self) {
        for ring in &mut self.rings {
            let _ = ring.counter.disable();
        }
        for c in &mut self.redirected {
            let _ = c.disable();
        }
    }

    /// Waits up to `timeout_ms` for a ring to pass its wakeup mark.
    pub fn wait(&self, timeout_ms: i32) {
        let mut fds: Vec<libc::pollfd> = self
            .rings
            .iter()
            .map(|r| libc::pollfd {
                fd: r.counter.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // SAFETY: `fds` is a valid array of `fds.len()` pollfd structures for
        // the duration of the call. Errors (EINTR from a signal) just end the wait.
        unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
    }

    /// Moves what the rings hold into `batch` (cleared first), at most
    /// `pass_bytes` of each ring, so that a writer as fast as the pass
    /// cannot make one endless round (readers sort a round in memory).
    pub fn drain(&mut self) -> Pass {
        self.batch.clear();
        let mut complete_before = clock_ns(libc::CLOCK_MONOTONIC);
        let mut any = false;
        let stats = &mut self.stats;
        let mut full = false;
        for ring in &mut self.rings {
            let start = self.batch.len();
            let mut last_time = None;
            any |= ring.take(self.pass_bytes, &mut self.batch, |rec| {
                let ty = u32::from_ne_bytes(rec[0..4].try_into().expect("4 bytes"));
                stats.count(ty, rec);
                last_time = record_time(rec).or(last_time);
            });
            full |= self.batch.len() - start >= self.piece_bytes;
            if self.batch.len() - start >= self.pass_bytes {
                // Stopped short: what remains in this ring is after its
                // last record taken.
                if let Some(t) = last_time {
                    complete_before = complete_before.min(t);
                }
            }
        }
        Pass {
            any,
            full,
            complete_before,
        }
    }

    /// A pass as `drain` makes it, but the records stay in the rings:
    /// `cuts` says where they are cut into pieces (`pieces`), to be
    /// written out as the rings hold them (the bytes a recording has:
    /// header and body as the kernel wrote them), without a copy, each
    /// given back to the kernel once written. Only their headers, times
    /// and lost counts are read here.
    pub fn drain_in_place(&mut self) -> Pass {
        let mut complete_before = clock_ns(libc::CLOCK_MONOTONIC);
        let mut any = false;
        let stats = &mut self.stats;
        let mut full = false;
        self.cuts.clear();
        for (i, ring) in self.rings.iter().enumerate() {
            let mut last_time = None;
            let mut cuts = Cuts::new(self.piece_bytes);
            let mut ends = Vec::new();
            let (tail, to) = ring.walk(self.pass_bytes, &mut self.scratch, |rec| {
                let ty = u32::from_ne_bytes(rec[0..4].try_into().expect("4 bytes"));
                stats.count(ty, rec);
                last_time = record_time(rec).or(last_time);
                if let Some(n) = cuts.add(rec.len()) {
                    ends.push(n);
                }
            });
            ends.extend(cuts.rest());
            self.cuts
                .extend(ends.into_iter().map(|n| (i, tail.wrapping_add(n))));
            any |= to != tail;
            full |= to.wrapping_sub(tail) >= self.piece_bytes as u64;
            if to.wrapping_sub(tail) >= self.pass_bytes as u64 {
                // Stopped short, as in `drain`.
                if let Some(t) = last_time {
                    complete_before = complete_before.min(t);
                }
            }
        }
        Pass {
            any,
            full,
            complete_before,
        }
    }

    /// Samples the kernel dropped, by the events' own counts: the kernel
    /// reports drops in a PERF_RECORD_LOST only once there is room again in
    /// the ring, so the last ones may never be reported there.
    fn counted_lost(&mut self) -> Option<u64> {
        if !self.lost_counts {
            return None;
        }
        let mut total = 0;
        for c in self
            .rings
            .iter_mut()
            .map(|r| &mut r.counter)
            .chain(self.redirected.iter_mut())
        {
            total += c.read_full().ok()?.lost()?;
        }
        Some(total)
    }

    /// Samples the kernel counted as lost but did not report (in a
    /// PERF_RECORD_LOST), as one PERF_RECORD_LOST record of their own, so
    /// that readers learn about every lost event; None if there are none.
    /// Call once the rings are disabled and drained.
    pub fn unreported_lost(&mut self) -> Option<Vec<u8>> {
        let counted = self.counted_lost()?;
        let ring = self.rings.first()?;
        if counted <= self.stats.lost {
            return None;
        }
        let id = ring.counter.id();
        let cpu = ring.cpu as u64;
        let missing = counted - self.stats.lost;
        let time = self.stats.last_time;
        // header; id, lost; sample_id: pid+tid, time, cpu+res, identifier
        let mut rec = Vec::with_capacity(56);
        rec.extend_from_slice(&PERF_RECORD_LOST.to_ne_bytes());
        rec.extend_from_slice(&0u16.to_ne_bytes());
        rec.extend_from_slice(&56u16.to_ne_bytes());
        for v in [id, missing, 0, time, cpu, id] {
            rec.extend_from_slice(&v.to_ne_bytes());
        }
        self.stats.lost = counted;
        Some(rec)
    }
}

impl Pieces for Session {
    fn piece(&self, ring: usize, end: u64) -> [&[u8]; 2] {
        self.rings.get(ring).map_or([&[], &[]], |r| r.pending(end))
    }
    fn release_to(&mut self, ring: usize, end: u64) {
        if let Some(r) = self.rings.get_mut(ring) {
            r.release(end);
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists() {
        assert_eq!(parse_cpu_list("0"), vec![0]);
        assert_eq!(parse_cpu_list("0-3,6"), vec![0, 1, 2, 3, 6]);
        assert_eq!(parse_cpu_list("2-1"), Vec::<usize>::new());
        assert_eq!(parse_cpu_list(""), Vec::<usize>::new());
        assert!(!online_cpus().is_empty());
    }
}
