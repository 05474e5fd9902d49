//! The kernel side of `collect`: one perf event per tracepoint and CPU, one
//! ring buffer per CPU (the CPU's other events redirect their output to it),
//! and the perf.data file the records go to, written with `tracepoint_perf`'s
//! `PerfDataFileWriter` (headers, attributes, EVENT_DESC and TRACING_DATA
//! with the tracefs formats).

use std::os::fd::AsRawFd;

use perf_event::events::Tracepoint as TracepointEvent;
use perf_event::{Builder, Clock, Counter, ReadFormat, SampleFlag, Sampler};
use tracepoint_decode as td;
use tracepoint_perf as tp;

use super::resolve::Tracepoint;
use crate::exit::{Error, Status};
use crate::tracefs::Tracefs;

/// At most this much of a ring per pass (and per perf round).
const PASS_BYTES: usize = 1 << 20;

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

struct Ring {
    cpu: usize,
    sampler: Sampler,
}

pub struct Session {
    rings: Vec<Ring>,
    /// Events writing into another event's ring (kept open).
    redirected: Vec<Counter>,
    /// The events count their lost samples (PERF_FORMAT_LOST).
    lost_counts: bool,
    file: FileSink,
}

/// The output file and the records on their way to it.
struct FileSink {
    writer: tp::PerfDataFileWriter,
    output: String,
    batch: Vec<u8>,
    stats: Stats,
}

impl FileSink {
    fn flush(&mut self) -> Result<(), Error> {
        if !self.batch.is_empty() {
            self.writer
                .write_event_data(&self.batch)
                .map_err(|e| Error::io(&e, format!("writing {}", self.output)))?;
            self.batch.clear();
        }
        Ok(())
    }

    /// Appends one ring-buffer record (header rebuilt, then its bytes).
    fn push(&mut self, record: &perf_event::Record<'_>) -> Result<(), Error> {
        let start = self.batch.len();
        let size = record.len() + 8;
        self.batch.extend_from_slice(&record.ty().to_ne_bytes());
        self.batch.extend_from_slice(&record.misc().to_ne_bytes());
        self.batch.extend_from_slice(&(size as u16).to_ne_bytes());
        for part in record.data() {
            self.batch.extend_from_slice(part);
        }
        let rec = &self.batch[start..];
        let u64_at = |at: usize| {
            rec.get(at..at + 8)
                .map_or(0, |b| u64::from_ne_bytes(b.try_into().expect("8 bytes")))
        };
        let stats = &mut self.stats;
        match record.ty() {
            // header, identifier, pid+tid, time, ...
            PERF_RECORD_SAMPLE => {
                stats.samples += 1;
                let t = u64_at(24);
                stats.first_time = Some(stats.first_time.map_or(t, |f| f.min(t)));
                stats.last_time = stats.last_time.max(t);
            }
            // header, id, lost
            PERF_RECORD_LOST => stats.lost += u64_at(16),
            // header, lost
            PERF_RECORD_LOST_SAMPLES => stats.lost += u64_at(8),
            PERF_RECORD_THROTTLE => stats.throttled += 1,
            _ => {}
        }
        if self.batch.len() >= 1 << 20 {
            self.flush()?;
        }
        Ok(())
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

fn perf_open_error(e: &std::io::Error, what: &str) -> Error {
    match e.raw_os_error() {
        Some(libc::EACCES) | Some(libc::EPERM) => Error::new(
            Status::PermissionDenied,
            format!(
                "permission denied opening perf events for {what} (needs root or CAP_PERFMON, or kernel.perf_event_paranoid = -1): {e}"
            ),
        ),
        Some(libc::ENOSYS) => Error::new(
            Status::NoUserEvents,
            format!("the kernel has no perf events (perf_event_open: {e})"),
        ),
        _ => Error::new(Status::Failure, format!("perf_event_open for {what}: {e}")),
    }
}

/// The perf.data attribute of an event, from what the kernel was given.
fn file_attr(b: &Builder<'_>, sample_period: u64, wakeup: u32) -> td::PerfEventAttr {
    let a = b.attrs();
    td::PerfEventAttr {
        attr_type: td::PerfEventAttrType(a.type_),
        size: td::PerfEventAttrSize(std::mem::size_of::<td::PerfEventAttr>() as u32),
        config: a.config,
        sample_time: sample_period,
        sample_type: td::PerfEventAttrSampleType(a.sample_type),
        read_format: td::PerfEventAttrReadFormat(a.read_format),
        // The C bit-field of options (disabled, ..., use_clockid, ...).
        options: td::PerfEventAttrOptions(a._bitfield_1.get(0, 64)),
        wakeup_value: wakeup,
        clockid: a.clockid as u32,
        ..Default::default()
    }
}

fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; clock_gettime has no other
    // preconditions and CLOCK_REALTIME/CLOCK_MONOTONIC always exist.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// (nodename, release, machine) from uname(2).
fn utsname() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    // SAFETY: utsname is plain old data; all-zero is a valid value.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: `u` is a valid, writable utsname.
    if unsafe { libc::uname(&mut u) } != 0 {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let field = |f: &[libc::c_char]| -> Vec<u8> {
        f.iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect()
    };
    (field(&u.nodename), field(&u.release), field(&u.machine))
}

impl Session {
    /// Opens the events (disabled) and creates the output file.
    pub fn open(
        tracefs: &Tracefs,
        tracepoints: &[Tracepoint],
        cpus: &[usize],
        buffer_bytes: usize,
        output: &str,
    ) -> Result<Session, Error> {
        let wakeup = (buffer_bytes / 4).max(4096);
        let mut rings: Vec<Ring> = Vec::new();
        let mut redirected = Vec::new();
        let mut writer = tp::PerfDataFileWriter::new();
        let mut descs = Vec::new();
        let mut lost_counts = true;
        for tp in tracepoints {
            let mut b = Builder::new(TracepointEvent::with_id(u64::from(tp.format.id())));
            b.any_pid()
                .sample_period(1)
                .sample(
                    SampleFlag::IDENTIFIER
                        | SampleFlag::TID
                        | SampleFlag::TIME
                        | SampleFlag::CPU
                        | SampleFlag::RAW,
                )
                // LOST: the kernel counts every sample it drops (Linux 6.0+).
                .read_format(if lost_counts {
                    ReadFormat::ID | ReadFormat::LOST
                } else {
                    ReadFormat::ID
                })
                .sample_id_all(true)
                .include_kernel()
                .exclude_hv(true)
                .clockid(Clock::MONOTONIC)
                .wakeup_watermark(wakeup)
                .enabled(false);
            let mut ids = Vec::new();
            for &cpu in cpus {
                b.one_cpu(cpu);
                let built = match b.build() {
                    Err(e) if e.raw_os_error() == Some(libc::EINVAL) && lost_counts => {
                        // A kernel before 6.0: no PERF_FORMAT_LOST.
                        lost_counts = false;
                        b.read_format(ReadFormat::ID);
                        b.build()
                    }
                    other => other,
                };
                let counter = match built {
                    Ok(c) => c,
                    // Offline since we listed it.
                    Err(e) if e.raw_os_error() == Some(libc::ENODEV) => continue,
                    Err(e) => return Err(perf_open_error(&e, &tp.full_name())),
                };
                ids.push(counter.id());
                match rings.iter().find(|r| r.cpu == cpu) {
                    Some(ring) => {
                        // SAFETY: both descriptors are open perf events on the
                        // same CPU, owned by this session; SET_OUTPUT only
                        // redirects the first's records into the second's ring.
                        let rc = unsafe {
                            perf_event_open_sys::ioctls::SET_OUTPUT(
                                counter.as_raw_fd(),
                                ring.sampler.as_raw_fd(),
                            )
                        };
                        if rc != 0 {
                            return Err(Error::kernel(
                                &std::io::Error::last_os_error(),
                                format!("redirecting {} on CPU {cpu}", tp.full_name()),
                            ));
                        }
                        redirected.push(counter);
                    }
                    None => {
                        let sampler = counter.sampled(buffer_bytes).map_err(|e| {
                            Error::kernel(&e, format!("mapping the ring buffer of CPU {cpu}"))
                        })?;
                        rings.push(Ring { cpu, sampler });
                    }
                }
            }
            if ids.is_empty() {
                return Err(Error::new(Status::Failure, "no CPU could be opened"));
            }
            descs.push((ids, file_attr(&b, 1, wakeup as u32)));
        }

        writer
            .create_file(output)
            .map_err(|e| Error::io(&e, format!("creating {output}")))?;
        for (tp, (ids, attr)) in tracepoints.iter().zip(&descs) {
            if !writer.add_tracepoint_event_desc(ids, attr, &tp.full_name(), &tp.format) {
                return Err(Error::new(
                    Status::Failure,
                    format!("{}: cannot describe the event in perf.data", tp.full_name()),
                ));
            }
        }
        // SAFETY: sysconf has no preconditions.
        let page_size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u32;
        writer.set_tracing_data_required(std::mem::size_of::<usize>() as u8, page_size);
        let (header_page, header_event) = tracefs.ring_headers();
        writer.set_tracing_data_header_page(&header_page);
        writer.set_tracing_data_header_event(&header_event);
        writer.set_tracing_data_printk(&tracefs.printk_formats());
        let (host, release, machine) = utsname();
        writer.set_utsname_headers(&host, &release, &machine);
        // SAFETY: sysconf has no preconditions.
        let configured = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_CONF) }.max(1) as u32;
        writer.set_nr_cpus_header(configured, cpus.len() as u32);
        let clock = libc::CLOCK_MONOTONIC as u32;
        writer.set_clockid_header(clock);
        let (wall, mono) = (
            clock_ns(libc::CLOCK_REALTIME),
            clock_ns(libc::CLOCK_MONOTONIC),
        );
        writer.set_clock_data_header(clock, wall, mono);
        writer
            .write_finished_init()
            .map_err(|e| Error::io(&e, format!("writing {output}")))?;
        Ok(Session {
            rings,
            redirected,
            lost_counts,
            file: FileSink {
                writer,
                output: output.to_string(),
                batch: Vec::with_capacity(1 << 20),
                stats: Stats::default(),
            },
        })
    }

    /// Starts recording.
    pub fn enable(&mut self) -> Result<(), Error> {
        for ring in &mut self.rings {
            ring.sampler
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
            let _ = ring.sampler.disable();
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
                fd: r.sampler.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // SAFETY: `fds` is a valid array of `fds.len()` pollfd structures for
        // the duration of the call. Errors (EINTR from a signal) just end the wait.
        unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
    }

    /// Moves what the rings hold to the file, then marks a round. A pass
    /// takes at most `PASS_BYTES` from each ring, so that a writer as fast as
    /// the pass cannot make one endless round (readers sort a round in
    /// memory). Returns whether it moved anything (then drain again before
    /// waiting: events are arriving).
    pub fn drain(&mut self) -> Result<bool, Error> {
        let mut any = false;
        for ring in &mut self.rings {
            let mut taken = 0;
            while let Some(record) = ring.sampler.next_record() {
                any = true;
                taken += record.len() + 8;
                self.file.push(&record)?;
                if taken >= PASS_BYTES {
                    break;
                }
            }
        }
        self.file.flush()?;
        if any {
            self.file
                .writer
                .write_finished_round()
                .map_err(|e| Error::io(&e, format!("writing {}", self.file.output)))?;
        }
        Ok(any)
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
            .map(|r| &mut *r.sampler)
            .chain(self.redirected.iter_mut())
        {
            total += c.read_full().ok()?.lost()?;
        }
        Some(total)
    }

    /// Stops, drains what is left and completes the file's headers. Drops
    /// the kernel counted but did not report get a PERF_RECORD_LOST of
    /// their own, so that the file tells readers about every lost event.
    pub fn finish(mut self) -> Result<Stats, Error> {
        self.disable();
        // Nothing new arrives now: drain until every ring is empty.
        while self.drain()? {}
        if let (Some(counted), Some(ring)) = (self.counted_lost(), self.rings.first()) {
            if counted > self.file.stats.lost {
                let id = ring.sampler.id();
                let cpu = ring.cpu as u64;
                let missing = counted - self.file.stats.lost;
                let time = self.file.stats.last_time;
                // header; id, lost; sample_id: pid+tid, time, cpu+res, identifier
                let mut rec = Vec::with_capacity(56);
                rec.extend_from_slice(&PERF_RECORD_LOST.to_ne_bytes());
                rec.extend_from_slice(&0u16.to_ne_bytes());
                rec.extend_from_slice(&56u16.to_ne_bytes());
                for v in [id, missing, 0, time, cpu, id] {
                    rec.extend_from_slice(&v.to_ne_bytes());
                }
                self.file
                    .writer
                    .write_event_data(&rec)
                    .map_err(|e| Error::io(&e, format!("writing {}", self.file.output)))?;
                self.file.stats.lost = counted;
            }
        }
        let f = &mut self.file;
        if let Some(first) = f.stats.first_time {
            f.writer.set_sample_time_header(first, f.stats.last_time);
        }
        f.writer
            .finalize_and_close()
            .map_err(|e| Error::io(&e, format!("writing {}", f.output)))?;
        Ok(f.stats)
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
