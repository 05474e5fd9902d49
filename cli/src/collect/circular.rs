//! `collect --circular`: a flight recorder. Events go to overwrite-mode
//! ring buffers ([`super::backward`]) and nothing is written until a
//! snapshot, which saves what the rings hold to a new perf.data file
//! ([`super::snapshot`]).
//!
//! Snapshots: SIGUSR1 (and recording goes on); an event passing
//! `--snapshot-on` ([`super::trigger`]), `--after` seconds later; and a
//! last one when recording stops (SIGINT/SIGTERM, `--duration`, the
//! command's exit).
//!
//! Windows: a snapshot holds, per CPU, the events written since the
//! previous snapshot, as far back as the ring still holds them. No event
//! is in two snapshots, and none is missing between two snapshots unless
//! the ring wrapped (more was written than it holds: the snapshot says so)
//! or it arrived while the rings were paused for the copy (the kernel
//! counts those: PERF_RECORD_LOST in the next snapshot, status 6).
//!
//! Process names: the processes running at the start are in every
//! snapshot ([`super::processes`], read once), and the kernel's records of
//! those that start, rename themselves or end later go to forward rings of
//! their own, never paused, drained between snapshots and kept
//! ([`processes::Kept`]): each snapshot holds them all, whatever the
//! overwrite rings still hold.
//!
//! Memory: the rings, the kept process records (at most
//! [`processes::MAX_KEPT`]), plus during a snapshot one copy of the new
//! records (at most the rings' size) and of the process records, and 24
//! bytes of index per record, freed once the file is written.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use perf_event::{Counter, ReadFormat};

use super::backward::{self, BackwardRing};
use super::output::Recorded;
use super::perf_events::{self, EventIds};
use super::resolve::Tracepoint;
use super::session;
use super::snapshot::{self, Files, Summary};
use super::trigger::Trigger;
use super::{metadata, processes, resolve, CollectArgs};
use crate::exit::{Error, Status};
use crate::filter::Filter;
use crate::perfdata::writer::Metadata;
use crate::plural::count;
use crate::tracefs::Tracefs;

/// The time between a trigger event and its snapshot when `--after` is
/// not given: the trigger's perf event and the recording's are written one
/// after the other by the writer's system call; let it finish.
const TRIGGER_SETTLE: Duration = Duration::from_millis(20);

/// The overwrite rings and every event writing into them.
struct Rings {
    rings: Vec<BackwardRing>,
    redirected: Vec<Counter>,
    /// The process records (their own rings).
    side: processes::Kept,
    /// The new records of a snapshot (emptied once written).
    copy: Vec<u8>,
}

impl Rings {
    /// Opens the events (disabled) of `tracepoints` on `cpus` in overwrite
    /// mode, each CPU's into one ring of `data_bytes`, and the process
    /// records' event. Returns the tracepoints' ids and attributes, then
    /// the process records'.
    fn open(
        tracepoints: &[Tracepoint],
        cpus: &[usize],
        data_bytes: usize,
        filter: Option<&str>,
    ) -> Result<(Rings, Vec<EventIds>, EventIds), Error> {
        let filter = perf_events::kernel_filter(filter)?;
        let mut rings: Vec<BackwardRing> = Vec::new();
        let mut redirected = Vec::new();
        let mut descs = Vec::new();
        for tp in tracepoints {
            let mut b =
                perf_events::event_builder(tp, ReadFormat::ID, perf_events::Direction::Backward);
            let mut ids = Vec::new();
            for &cpu in cpus {
                b.one_cpu(cpu);
                let counter = match b.build() {
                    Ok(c) => c,
                    Err(e) if e.raw_os_error() == Some(libc::ENODEV) => continue,
                    Err(e) => return Err(perf_events::perf_open_error(&e, &tp.full_name())),
                };
                if let Some(f) = &filter {
                    perf_events::set_filter(&counter, f, &tp.full_name())?;
                }
                ids.push(counter.id());
                match rings.iter().find(|r| r.cpu == cpu) {
                    Some(ring) => {
                        perf_events::redirect(&counter, &ring.counter, &tp.full_name(), cpu)?;
                        redirected.push(counter);
                    }
                    None => rings.push(BackwardRing::map(cpu, counter, data_bytes)?),
                }
            }
            if ids.is_empty() {
                return Err(Error::new(Status::Failure, "no CPU could be opened"));
            }
            descs.push((ids, perf_events::file_attr(&b, 1, 0)));
        }
        let (side, side_desc) = perf_events::open_side_band(cpus, ReadFormat::ID)?;
        Ok((
            Rings {
                rings,
                redirected,
                side: processes::Kept::new(side),
                copy: Vec::new(),
            },
            descs,
            side_desc,
        ))
    }

    fn enable(&mut self) -> Result<(), Error> {
        let all = self
            .rings
            .iter_mut()
            .map(|r| &mut r.counter)
            .chain(self.redirected.iter_mut())
            .chain(self.side.counters());
        for c in all {
            c.enable()
                .map_err(|e| Error::kernel(&e, "enabling perf events"))?;
        }
        Ok(())
    }

    fn disable(&mut self) {
        let all = self
            .rings
            .iter_mut()
            .map(|r| &mut r.counter)
            .chain(self.redirected.iter_mut())
            .chain(self.side.counters());
        for c in all {
            let _ = c.disable();
        }
    }

    /// Copies the records new since the previous snapshot, every ring
    /// paused during the copy (so that the copies end at one instant).
    /// Returns the CPUs whose ring wrapped, and each ring's mark before the
    /// copy (for [`Rings::untake`]).
    fn take(&mut self) -> Result<(Vec<usize>, Vec<u64>), Error> {
        self.copy.clear();
        let marks = self.rings.iter().map(|r| r.mark()).collect();
        for r in &self.rings {
            r.pause(true)?;
        }
        let mut wrapped = Vec::new();
        for r in &mut self.rings {
            if r.take_new(&mut self.copy).1 {
                wrapped.push(r.cpu);
            }
        }
        for r in &self.rings {
            r.pause(false)?;
        }
        Ok((wrapped, marks))
    }

    /// Forgets the copy of [`Rings::take`] (it could not be saved): the next
    /// snapshot starts where that one did.
    fn untake(&mut self, marks: &[u64]) {
        for (r, &m) in self.rings.iter_mut().zip(marks) {
            r.reset_mark(m);
        }
        self.copy = Vec::new();
    }
}

/// What the run has written.
#[derive(Default)]
struct Totals {
    snapshots: u64,
    samples: u64,
    lost: u64,
    /// Snapshots that could not be written.
    failed: u64,
}

struct Writer<'a> {
    files: Files,
    meta: &'a Metadata,
    recorded: &'a [Recorded],
    totals: Totals,
    /// The last snapshot (recording has stopped).
    last: bool,
}

impl Writer<'_> {
    /// Reports a snapshot that could not be written.
    fn failed(&mut self, what: &str) {
        self.totals.failed += 1;
        let next = if self.last {
            "its events are not saved"
        } else {
            "its events stay in the buffers for the next snapshot (as far back as they hold them); recording goes on"
        };
        eprintln!("eventheader: collect: snapshot failed: {what}; {next}");
    }

    /// Takes a snapshot for `why` and writes it (none if nothing is new).
    /// A snapshot that cannot be written (a full disk) is reported, its
    /// partial file removed, and its records stay for the next snapshot:
    /// recording goes on.
    fn snapshot(&mut self, rings: &mut Rings, why: &str) -> Result<Option<Summary>, Error> {
        // The process records up to now, before the pause (their rings are
        // never paused: the pause stays the copy's alone).
        rings.side.drain();
        let (wrapped, marks) = rings.take()?;
        if rings.copy.is_empty() {
            eprintln!("eventheader: collect: nothing new to save ({why})");
            return Ok(None);
        }
        // Sorted by time with the events: the names come before the
        // events of the processes they name.
        rings.copy.extend_from_slice(&rings.side.records);
        let new = match self.files.create_next() {
            Ok(new) => new,
            Err(e) => {
                rings.untake(&marks);
                self.failed(&e.message);
                return Ok(None);
            }
        };
        let path = new.path.clone();
        let written = new
            .file
            .try_clone()
            .map_err(|e| Error::io(&e, format!("writing {path}")))
            .and_then(|f| snapshot::write(f, &path, self.meta, self.recorded, &rings.copy));
        let summary = match written {
            Ok(s) => s,
            Err(e) => {
                rings.untake(&marks);
                let partial = match self.files.remove_partial(&new) {
                    Ok(true) => "the partial file was removed".to_string(),
                    Ok(false) => format!("{path} is no longer this snapshot's file: left alone"),
                    Err(r) => format!("{path} is INCOMPLETE: it could not be removed ({r})"),
                };
                self.failed(&format!("{e}; {partial}"));
                return Ok(None);
            }
        };
        // Free the copy: between snapshots only the rings take memory.
        rings.copy = Vec::new();
        let span = summary
            .first_time
            .map_or(0.0, |f| (summary.last_time - f) as f64 / 1e9);
        let mut line = format!(
            "eventheader: collect: snapshot {path}: {} over {span:.3} s ({why})",
            count(summary.samples, "event")
        );
        if !wrapped.is_empty() {
            line += &format!(
                "; the buffers of CPUs {wrapped:?} wrapped: older events of the window overwritten"
            );
        }
        if summary.lost > 0 {
            line += &format!(
                "; {} lost while the buffers were paused",
                count(summary.lost, "event")
            );
        }
        eprintln!("{line}");
        for old in self.files.written(path) {
            eprintln!("eventheader: collect: deleted {old} (--max-snapshots)");
        }
        self.totals.snapshots += 1;
        self.totals.samples += summary.samples;
        self.totals.lost += summary.lost;
        Ok(Some(summary))
    }
}

/// The perf events circular mode opens on each CPU for `tracepoints`
/// tracepoints: [`Rings::open`]'s (one per tracepoint and the side-band
/// event), and with a `trigger` [`Trigger::open`]'s (one per tracepoint it
/// watches, at most all of them; no side band).
pub(super) fn events_per_cpu(tracepoints: usize, trigger: bool) -> usize {
    let rings = session::events_per_cpu(tracepoints, true);
    if trigger {
        rings.saturating_add(session::events_per_cpu(tracepoints, false))
    } else {
        rings
    }
}

pub fn run(args: &CollectArgs, flags: super::signals::Flags) -> Result<Status, Error> {
    let specs = super::collect_specs(args)?;
    let filter = Filter::new(&args.filter);
    let output = args.output.clone().unwrap_or_else(|| "perf.data".into());
    // Refused at once where no snapshot file can be created.
    let files = Files::new(&output, args.max_snapshots.map(|n| n as usize))?;
    let (stop, usr1) = (flags.stop, flags.usr1);
    let tracefs = Tracefs::find()?;
    let (tracepoints, registrations) = resolve::resolve(&tracefs, &specs, &filter, args.verbose)?;
    let cpus = session::online_cpus();
    let events = events_per_cpu(tracepoints.len(), args.snapshot_on.is_some());
    let nofile = super::fd_limit::raise(events, cpus.len())?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
    let data_bytes = backward::data_bytes(args.buffer_size as usize * 1024, page);
    let kernel_filter = filter.kernel_filter();
    let (mut rings, descs, side_desc) =
        Rings::open(&tracepoints, &cpus, data_bytes, kernel_filter.as_deref())?;
    let mut meta = metadata::gather(&tracefs, cpus.len());
    let recorded = super::recorded(&tracepoints, descs, Some(side_desc));
    // Every snapshot names the processes running at the start (written
    // first in each file).
    meta.processes = processes::running(processes::stamp(&recorded, &cpus));
    let mut trigger = match &args.snapshot_on {
        Some(f) => Some(Trigger::open(&tracepoints, &cpus, &Filter::new(f), &meta)?),
        None => None,
    };
    if args.verbose {
        eprintln!(
            "eventheader: circular: {}, {} x {} KiB overwrite buffers{}",
            count(tracepoints.len() as u64, "tracepoint"),
            count(cpus.len() as u64, "CPU"),
            data_bytes >> 10,
            if trigger.is_some() {
                format!(
                    ", trigger buffers {} KiB per CPU",
                    super::trigger::TRIGGER_RING_BYTES >> 10
                )
            } else {
                String::new()
            }
        );
    }
    let mut writer = Writer {
        files,
        meta: &meta,
        recorded: &recorded,
        totals: Totals::default(),
        last: false,
    };
    rings.enable()?;
    if let Some(t) = trigger.as_mut() {
        t.enable()?;
    }
    let started = Instant::now();
    let deadline = args.duration.map(|d| started + d);
    let after = args.after.unwrap_or(TRIGGER_SETTLE).max(TRIGGER_SETTLE);
    // Ended when an error ends collect too (command::Running).
    let mut child = super::command::Running(if args.command.is_empty() {
        None
    } else {
        Some(super::spawn(&args.command, false, nofile)?)
    });
    let mut child_status = None;
    // A trigger event seen: its snapshot's time and what it was.
    let mut pending: Option<(Instant, String)> = None;
    let stop_reason = loop {
        match trigger.as_ref() {
            Some(t) => t.wait(50),
            // SAFETY: poll on no descriptors is a sleep that a signal ends.
            None => unsafe {
                libc::poll(std::ptr::null_mut(), 0, 50);
            },
        }
        rings.side.drain();
        if usr1.swap(false, Ordering::Relaxed) {
            writer.snapshot(&mut rings, "SIGUSR1")?;
        }
        if let Some(t) = trigger.as_mut() {
            if let Some(event) = t.check() {
                if pending.is_none() {
                    pending = Some((Instant::now() + after, event));
                }
            }
        }
        if pending
            .as_ref()
            .is_some_and(|(at, _)| Instant::now() >= *at)
        {
            let (_, event) = pending.take().expect("pending");
            writer.snapshot(&mut rings, &format!("on {event}"))?;
        }
        if let Some(c) = child.as_mut() {
            if let Some(st) = c
                .try_wait()
                .map_err(|e| Error::io(&e, "waiting for the command"))?
            {
                child_status = Some(st);
                break "the command exited";
            }
        }
        if stop.load(Ordering::Relaxed) {
            break "signalled to stop";
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break "--duration";
        }
    };
    rings.disable();
    if let Some(t) = trigger.as_mut() {
        t.disable();
        // A trigger event written just before the stop still has its own
        // snapshot: the final one holds it.
        if pending.is_none() {
            pending = t.check().map(|e| (Instant::now(), e));
        }
    }
    let why = match &pending {
        Some((_, event)) => format!("{stop_reason}, on {event}"),
        None => stop_reason.to_string(),
    };
    writer.last = true;
    writer.snapshot(&mut rings, &why)?;
    drop(registrations);
    // Stopped by a signal or the duration while the command still runs:
    // collect's doing, not the command's failure.
    let collect_stopped = child_status.is_none() || stop.load(Ordering::Relaxed);
    if let (Some(mut c), None) = (child.take(), child_status) {
        child_status = super::command::end(&mut c, super::command::GRACE);
    }
    let t = &writer.totals;
    eprintln!(
        "eventheader: collect: {}, {} in {:.1} s",
        count(t.snapshots, "snapshot"),
        count(t.samples, "event"),
        started.elapsed().as_secs_f64()
    );
    let mut status = Status::Success;
    if t.failed > 0 {
        eprintln!(
            "eventheader: collect: {} snapshot{} could not be written",
            t.failed,
            if t.failed == 1 { "" } else { "s" }
        );
        status = status.worst(Status::Failure);
    }
    let side = &rings.side;
    if side.lost > 0 || side.dropped > 0 {
        eprintln!(
            "eventheader: collect: {} lost by the kernel and {} not kept (over {} MiB): \
             some events may show without their process's name",
            count(side.lost, "process record"),
            side.dropped,
            processes::MAX_KEPT >> 20
        );
    }
    if t.lost > 0 {
        eprintln!(
            "eventheader: collect: the kernel lost {} while the buffers were paused for snapshots",
            count(t.lost, "event")
        );
        status = status.worst(Status::EventsLost);
    }
    if let Some(st) = child_status {
        if super::command::failed(st, collect_stopped) {
            eprintln!("eventheader: collect: {} {st}", args.command[0]);
            status = status.worst(Status::CommandFailed);
        }
    }
    Ok(status)
}
