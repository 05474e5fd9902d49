//! `collect` without `--circular`: a recording to a file or standard
//! output and the live view, pass after pass over the forward rings until
//! collect stops, then what was recorded and lost.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::output::{self, Recorder};
use super::spool::{self, Spool};
use super::{
    collect_specs, command, fd_limit, live, live_events, metadata, pieces, processes, recorded,
    resolve, session, signals, spawn, CollectArgs,
};
use crate::decode::Meta;
use crate::exit::{Error, Status};
use crate::filter::Filter;
use crate::plural::count;
use crate::tracefs::Tracefs;

/// A recording opens the side-band event of the process records with its
/// tracepoints' events.
const SIDE_BAND: bool = true;

/// The perf events a recording of `tracepoints` tracepoints opens on each
/// CPU.
pub(super) fn events_per_cpu(tracepoints: usize) -> usize {
    session::events_per_cpu(tracepoints, SIDE_BAND)
}

/// Records (and with `--live` prints) until collect stops; `flags.stop` is
/// set by SIGINT and SIGTERM.
pub fn run(args: &CollectArgs, flags: signals::Flags) -> Result<Status, Error> {
    let specs = collect_specs(args)?;
    let filter = Filter::new(&args.filter);
    let output = match &args.output {
        Some(o) => Some(o.clone()),
        None if args.live => None,
        None => Some("perf.data".to_string()),
    };
    let stop = flags.stop;
    let tracefs = Tracefs::find()?;
    let (tracepoints, registrations) = resolve::resolve(&tracefs, &specs, &filter, args.verbose)?;
    let cpus = session::online_cpus();
    let nofile = fd_limit::raise(events_per_cpu(tracepoints.len()), cpus.len())?;
    if args.verbose {
        eprintln!(
            "eventheader: tracefs at {}, {} CPUs",
            tracefs.root().display(),
            cpus.len()
        );
        for tp in &tracepoints {
            eprintln!(
                "eventheader: recording {} (id {})",
                tp.full_name(),
                tp.format.id()
            );
        }
    }
    // A live view sorts each pass in memory: smaller passes.
    let pass_bytes = if args.live { 256 << 10 } else { 1 << 20 };
    let kernel_filter = filter.kernel_filter();
    let (mut session, descs, side_band) = session::Session::open(
        &tracepoints,
        &cpus,
        args.buffer_size as usize * 1024,
        pass_bytes,
        kernel_filter.as_deref(),
        SIDE_BAND,
    )?;
    // A live view sorts and decodes each pass: copied out of the rings.
    // A recording alone is written from the rings in place.
    if args.live {
        session.copy_passes();
    }
    let mut meta = metadata::gather(&tracefs, cpus.len());
    let recorded = recorded(&tracepoints, descs, side_band);
    meta.processes = processes::running(processes::stamp(&recorded, &cpus));
    let mut recorder = output
        .as_deref()
        .map(|path| Recorder::create(path, &meta, &recorded))
        .transpose()?;
    // A recording alone goes through the writer thread: a slow write does
    // not hold the rings.
    let mut spool = match (args.live, recorder.take()) {
        (false, Some(r)) => {
            let (piece, rings) = session.sizes();
            match spool::pool(rings, piece) {
                Some((n, bytes)) => Some(Spool::start(r, n, bytes)?),
                None => {
                    recorder = Some(r);
                    None
                }
            }
        }
        (_, r) => {
            recorder = r;
            None
        }
    };
    let mut live = args.live.then(|| {
        live::Live::new(
            live_events(&meta, &recorded),
            Meta::union(&args.meta),
            filter.clone(),
            Box::new(std::io::stdout()),
        )
    });
    session.enable()?;
    let started = Instant::now();
    let deadline = args.duration.map(|d| started + d);
    // Ended when an error ends collect too (command::Running).
    let mut child = command::Running(if args.command.is_empty() {
        None
    } else {
        let stdout_is_data = args.live || output.as_deref() == Some("-");
        match spawn(&args.command, stdout_is_data, nofile) {
            Ok(c) => Some(c),
            Err(e) => {
                // Leave a complete (empty) recording behind, not a truncated one.
                if let Some(s) = spool {
                    recorder = Some(s.finish()?.0);
                }
                if let Some(r) = recorder {
                    r.finish(None)?;
                }
                return Err(e);
            }
        }
    });
    let mut child_status = None;
    let mut more = false;
    // Standard output closed (a reader of -o - or --live went away).
    let mut closed = false;
    loop {
        if !more {
            session.wait(100);
        }
        if live.is_some() {
            let pass = session.drain();
            more = pass.full;
            closed |= deliver(&mut session.batch, pass, &mut recorder, &mut live)?;
        } else {
            let pass = session.drain_in_place();
            more = pass.full;
            closed |= write_in_place(&mut session, pass, &mut recorder, &mut spool)?;
        }
        if let Some(c) = child.as_mut() {
            if let Some(st) = c
                .try_wait()
                .map_err(|e| Error::io(&e, "waiting for the command"))?
            {
                child_status = Some(st);
                break;
            }
        }
        if closed || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    // Nothing new arrives now: drain until every ring is empty.
    session.disable();
    loop {
        if live.is_some() {
            let pass = session.drain();
            if !pass.any {
                break;
            }
            closed |= deliver(&mut session.batch, pass, &mut recorder, &mut live)?;
        } else {
            let pass = session.drain_in_place();
            if !pass.any {
                break;
            }
            closed |= write_in_place(&mut session, pass, &mut recorder, &mut spool)?;
        }
    }
    if let Some(rec) = session.unreported_lost() {
        let pass = session::Pass {
            any: true,
            full: false,
            complete_before: u64::MAX,
        };
        let mut batch = rec;
        match spool.as_mut() {
            Some(s) => {
                output::push_finished_round(&mut batch);
                s.push(&[std::io::IoSlice::new(&batch)])?;
                s.end_of_pass()?;
            }
            None => closed |= deliver(&mut batch, pass, &mut recorder, &mut live)?,
        }
    }
    if let Some(s) = spool {
        let (r, gone) = s.finish()?;
        closed |= gone;
        recorder = Some(r);
    }
    let stats = session.stats;
    drop(registrations);
    let live_stats = match live.as_mut() {
        Some(l) => {
            let _ = l.finish();
            Some(l.stats.clone())
        }
        None => None,
    };
    let recorded_to = recorder.as_ref().map(|r| r.name().to_string());
    if let Some(r) = recorder {
        match r.finish(stats.first_time.map(|f| (f, stats.last_time))) {
            Err(e) if closed => drop(e),
            other => other?,
        }
    }
    // Stopped by a signal, the duration or a closed output while the
    // command still runs (or a Ctrl-C ended both): collect's doing.
    let collect_stopped = child_status.is_none() || stop.load(Ordering::Relaxed);
    if let (Some(mut c), None) = (child.take(), child_status) {
        child_status = command::end(&mut c, command::GRACE);
    }

    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "eventheader: collect: {} in {:.1} s{}",
        count(stats.samples, "event"),
        secs,
        recorded_to.map_or(String::new(), |to| format!(" to {to}"))
    );
    let mut status = Status::Success;
    if let Some(l) = live_stats {
        if l.malformed > 0 {
            eprintln!(
                "eventheader: collect: {} of {} could not be decoded (printed raw)",
                l.malformed,
                count(l.events, "event")
            );
            status = status.worst(Status::Failure);
        }
    }
    if stats.lost > 0 || stats.throttled > 0 {
        eprintln!(
            "eventheader: collect: the kernel lost {}{} (ring buffers full: try a larger --buffer-size)",
            count(stats.lost, "event"),
            if stats.throttled > 0 {
                format!(
                    " and throttled sampling {} (events dropped without a count)",
                    count(stats.throttled, "time")
                )
            } else {
                String::new()
            }
        );
        status = status.worst(Status::EventsLost);
    }
    if let Some(st) = child_status {
        if command::failed(st, collect_stopped) {
            eprintln!("eventheader: collect: {} {st}", args.command[0]);
            status = status.worst(Status::CommandFailed);
        }
    }
    Ok(status)
}

/// Writes the records a pass left in the rings to the recorder, piece by
/// piece, each piece's room given back to the kernel as soon as it is
/// written (`pieces`), the last with the end of the round: straight from
/// the rings (no copy), or copied to the writer thread's pool (`spool`);
/// true if standard output is gone.
fn write_in_place(
    session: &mut session::Session,
    pass: session::Pass,
    recorder: &mut Option<Recorder>,
    spool: &mut Option<Spool>,
) -> Result<bool, Error> {
    let mut closed = false;
    let cuts = std::mem::take(&mut session.cuts);
    let result = match (recorder.as_mut(), spool.as_mut()) {
        (_, Some(s)) => {
            let r = pieces::write_pieces(session, &cuts, |bufs| s.push(bufs))
                .and_then(|()| s.end_of_pass());
            closed = s.closed();
            r
        }
        (Some(r), None) if pass.any => pieces::write_pieces(session, &cuts, |bufs| {
            if closed {
                return Ok(());
            }
            match r.write_vectored(bufs) {
                Err(_) if r.name() == "standard output" => closed = true,
                other => other?,
            }
            Ok(())
        }),
        // Nothing to write to (a live view alone copies its passes).
        _ => pieces::write_pieces(session, &cuts, |_| Ok::<(), Error>(())),
    };
    session.cuts = cuts;
    result.map(|()| closed)
}

/// Hands a pass's records to the recorder and the live view; true if
/// standard output is gone (its reader left).
fn deliver(
    batch: &mut Vec<u8>,
    pass: session::Pass,
    recorder: &mut Option<Recorder>,
    live: &mut Option<live::Live>,
) -> Result<bool, Error> {
    let mut closed = false;
    if let Some(l) = live.as_mut() {
        closed |= l.pass(batch, pass.complete_before).is_err();
    }
    if let Some(r) = recorder.as_mut() {
        if pass.any {
            // The records and the end of the round in one write.
            output::push_finished_round(batch);
            match r.write(batch) {
                Ok(()) => {}
                Err(_) if r.name() == "standard output" => closed = true,
                Err(e) => return Err(e),
            }
        }
    }
    batch.clear();
    Ok(closed)
}
