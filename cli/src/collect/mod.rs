//! `eventheader collect`: records tracepoints into a perf.data file (or a
//! pipe-mode stream on standard output) by opening the kernel's perf events
//! per CPU and reading their ring buffers (no `perf` needed), and with
//! `--live` prints each event decoded as it arrives. Stops on
//! SIGINT/SIGTERM, after `--duration`, or when the command given after `--`
//! exits.

mod backward;
mod circular;
mod command;
mod fd_limit;
mod forward;
mod live;
mod metadata;
mod outdir;
mod output;
mod pieces;
mod processes;
mod resolve;
mod session;
pub mod signals;
mod snapshot;
mod trigger;

/// The circular mode's readers of untrusted bytes and text, for the fuzz
/// target `circular` (fuzz/).
#[doc(hidden)]
pub mod fuzzing {
    pub use super::backward::copy_records;
    pub use super::snapshot::time_order;
    pub use super::trigger::parse_spec;
}

use std::os::fd::AsFd;
use std::process::{Child, Command};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use tracepoint_decode as td;

use crate::decode::Meta;
use crate::exit::{Error, Status};
use crate::filter::{Filter, FilterArgs};
use crate::perfdata::writer::EventInfo;
use crate::perfdata::Events;
use crate::plural::count;
use crate::spec::{self, CollectSpec};
use crate::tracefs::Tracefs;
use output::{Recorded, Recorder};

#[derive(Args, Debug)]
#[command(after_help = COLLECT_AFTER_HELP)]
pub struct CollectArgs {
    /// Tracepoints to record: `Provider_L5K1`, `Provider_*`, `sched:sched_switch`,
    /// `"MyEvent u32 a"` (see below).
    #[arg(value_name = "TRACEPOINT")]
    pub tracepoints: Vec<String>,

    /// Read more tracepoint specs from FILE, one per line; empty lines and
    /// lines starting with '#' are ignored. May be repeated.
    #[arg(short, long, value_name = "FILE")]
    pub input: Vec<String>,

    /// Output file (default: perf.data, none with --live); `-` writes
    /// pipe-mode perf.data to standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,

    /// Print each event as it arrives, decoded, one JSON object per line
    /// (as `decode --jsonl`), in timestamp order; with -o, record it too.
    #[arg(short, long)]
    pub live: bool,

    /// With --live: metadata in each event's "meta" object (as decode's
    /// --meta).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "default",
        value_name = "LIST",
        requires = "live"
    )]
    pub meta: Vec<Meta>,

    /// Size of each CPU's ring buffer in KiB, or with a suffix K, M or G
    /// (8M); 4 KiB to 2 GiB, rounded up to a power of two.
    #[arg(short, long, value_name = "KIB", default_value = "1024",
          value_parser = parse_buffer_size)]
    pub buffer_size: u32,

    /// Stop after this many seconds (decimals allowed).
    #[arg(short, long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub duration: Option<Duration>,

    /// Print what is recorded on stderr.
    #[arg(short, long)]
    pub verbose: bool,

    /// Command to run once recording has started; collection stops when it
    /// exits.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,

    #[command(flatten)]
    pub filter: FilterArgs,

    /// Flight recorder: overwriting ring buffers, written to a new file
    /// (-o NAME gives NAME.0001.ext, ...) only on a snapshot: SIGUSR1, an
    /// event passing --snapshot-on, and when recording stops.
    #[arg(short, long, help_heading = "Circular mode")]
    pub circular: bool,

    /// With --circular: keep only the newest N snapshot files (older ones
    /// this run wrote are deleted).
    #[arg(long, value_name = "N", requires = "circular", help_heading = "Circular mode",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_snapshots: Option<u32>,

    /// With --circular: a snapshot when an event passing FILTER is written;
    /// FILTER is decode's filter language, terms separated by commas (all
    /// must hold): provider, event, level, keyword, pid, tid, cpu, comm as
    /// NAME=VALUE, any other name a field (=, <, >, <=, >=; nested a.b),
    /// e.g. level=1,provider=MyProv or provider=MyProv,latency_ms>=500.
    #[arg(long, value_name = "FILTER", requires = "circular", help_heading = "Circular mode",
          value_parser = trigger::parse_spec)]
    pub snapshot_on: Option<FilterArgs>,

    /// With --snapshot-on: take the snapshot this many seconds after the
    /// event, so that it holds what followed too (the buffers must hold
    /// both).
    #[arg(long, value_name = "SECONDS", requires = "snapshot_on", help_heading = "Circular mode",
          value_parser = parse_seconds)]
    pub after: Option<Duration>,
}

const COLLECT_AFTER_HELP: &str = concat!(
    "\
Tracepoint specs (a system name may precede the name; user_events: when none):
  Provider_L5K1Gmygroup        an EventHeader tracepoint; registered for the
                               collection if no program has registered it yet
  \"MyEvent u32 a; u8 b\"        a plain user_events tracepoint with its fields;
                               registered if missing (\"MyEvent ;\": no fields)
  sched:sched_switch, :MyEvent an existing tracepoint (a leading ':' never
                               registers)
  MyProvider_*, sched:sched_*  every existing tracepoint matching * and ?

Examples:
  eventheader collect -o trace.data 'MyProvider_*' -- ./my-program --its-args
  eventheader collect -d 10 MyProvider_L4K1 MyProvider_L5K1
  eventheader collect --live --level 4 'MyProvider_*'
  eventheader collect -o - 'MyProvider_*' | eventheader decode -
  eventheader collect -c -b 8M --snapshot-on level=1 -o crash.data 'MyProvider_*'

Filters: collect records only the tracepoints whose names can pass them
(EventHeader names carry provider, level and keyword) and gives --pid and
--tid to the kernel's tracepoint filter; --event (an EventHeader event's name
is in its payload) and --cpu need --live, where every filter applies to what
is printed.

With --live or -o -, the command's standard output goes to standard error.

Live output is in timestamp order across CPUs: an event is printed at most
one pass over the ring buffers (about 100 ms) after it reaches them. Lost
events appear in the stream as { \"lost\": N, \"meta\": { \"time\": ..., \"cpu\": C } }.

Recording is system-wide, every online CPU; needs root (or CAP_PERFMON and
read access to tracefs). The file carries the tracefs formats, so it decodes
anywhere: eventheader decode trace.data, perf script -i trace.data.

--circular keeps the newest events in overwriting buffers and writes
NAME.0001.ext, NAME.0002.ext, ... (from -o NAME.ext) on SIGUSR1, on an event
passing --snapshot-on, and when it stops; each snapshot holds the events
written since the previous one (none twice), as far back as the buffers go.

Output files are created new, never through a link: an existing -o FILE (a
file or a link) is renamed FILE.old; a snapshot skips any name that is taken.
A snapshot that cannot be written (a full disk) is reported, its partial file
removed, and recording goes on (status 1 at the end). An error that ends
collect ends its command too.

Events the kernel drops because a ring buffer was full are reported on
stderr and make the exit status 6 (the file is still complete otherwise);
a larger --buffer-size helps. With a command, its failure (a non-zero exit, a
signal, or no such command) makes the status 7. When collect stops first
(--duration, SIGINT, SIGTERM) it ends the command: SIGTERM, then SIGKILL 2 s
later; that is not the command failing.

Each tracepoint takes one file descriptor per CPU: collect raises its soft
RLIMIT_NOFILE to the hard limit, and says how many it needs if that is too
few (status 1).",
    "\n\n",
    exit_status_help!()
);

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("not a number of seconds: {s}"))?;
    if !(v > 0.0 && v < 1e9) {
        return Err(format!("duration out of range: {s}"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// `--buffer-size`: KiB, or a number with K, M or G (KiB, MiB, GiB); 4 KiB
/// to 2 GiB (the kernel's rings are a power of two of pages).
fn parse_buffer_size(s: &str) -> Result<u32, String> {
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "K" | "KIB" => 0,
        "M" | "MIB" => 10,
        "G" | "GIB" => 20,
        _ => return Err(format!("not a size in KiB (or with K, M, G): {s}")),
    };
    let kib = digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_shl(shift).filter(|k| k >> shift == n))
        .ok_or_else(|| format!("not a size in KiB (or with K, M, G): {s}"))?;
    if !(4..=1 << 21).contains(&kib) {
        return Err(format!(
            "{s}: a ring buffer is 4 KiB to 2 GiB (2097152 KiB) per CPU"
        ));
    }
    Ok(kib as u32)
}

fn collect_specs(args: &CollectArgs) -> Result<Vec<CollectSpec>, Error> {
    spec::gather(
        &args.tracepoints,
        &args.input,
        spec::parse_collect_spec,
        "tracepoints",
    )
}

/// Starts the command; one that cannot be started failed (status 7, as one
/// that exits non-zero). When collect's standard output carries data (a
/// live view, or `-o -`), the command's goes to standard error instead.
fn spawn(
    command: &[String],
    stdout_is_data: bool,
    nofile: fd_limit::Limit,
) -> Result<Child, Error> {
    let mut cmd = Command::new(&command[0]);
    cmd.args(&command[1..]);
    fd_limit::restore_for(&mut cmd, nofile);
    if stdout_is_data {
        let stderr = std::io::stderr()
            .as_fd()
            .try_clone_to_owned()
            .map_err(|e| Error::io(&e, "standard error"))?;
        cmd.stdout(std::process::Stdio::from(stderr));
    }
    cmd.spawn().map_err(|e| {
        Error::new(
            Status::CommandFailed,
            format!("cannot run {}: {e}", command[0]),
        )
    })
}

/// The events of the recording, for decoding them live.
fn live_events(meta: &crate::perfdata::writer::Metadata, recorded: &[Recorded]) -> Events {
    let mut events = Events::new(td::PerfByteReader::new(cfg!(target_endian = "big")));
    events.set_clock_id(meta.clockid);
    events.set_clock_data(meta.clockid, meta.clock_at.0, meta.clock_at.1);
    for r in recorded {
        events.add(r.info.attr, r.info.name.clone(), r.info.ids.clone());
        if r.format.is_some() {
            events.add_format(&r.info.system, r.info.format.as_bytes());
        }
    }
    events
}

/// Checks the options that go together.
fn check_args(args: &CollectArgs) -> Result<(), Error> {
    if args.live && args.output.as_deref() == Some("-") {
        return Err(Error::new(
            Status::Usage,
            "--live prints to standard output: -o - cannot write there too",
        ));
    }
    if args.circular && args.live {
        return Err(Error::new(
            Status::Usage,
            "--circular writes only on snapshots, --live prints events as they arrive: choose one",
        ));
    }
    if args.circular && args.output.as_deref() == Some("-") {
        return Err(Error::new(
            Status::Usage,
            "--circular writes one file per snapshot: -o - (one stream) cannot hold them",
        ));
    }
    if !args.live && !args.filter.cpu.is_empty() {
        return Err(Error::new(
            Status::Usage,
            "--cpu needs --live (a recording holds every CPU's events; the kernel's tracepoint filter has no CPU)",
        ));
    }
    if !args.live && !args.filter.event.is_empty() {
        return Err(Error::new(
            Status::Usage,
            "--event needs --live (a recording holds tracepoints; an EventHeader event's name is in its payload)",
        ));
    }
    Ok(())
}

/// What the files say about each of `tracepoints`, given its ids and
/// attribute.
fn recorded(
    tracepoints: &[resolve::Tracepoint],
    descs: Vec<session::EventIds>,
    side_band: Option<session::EventIds>,
) -> Vec<Recorded> {
    let mut recorded: Vec<Recorded> = tracepoints
        .iter()
        .zip(descs)
        .map(|(tp, (ids, attr))| Recorded {
            info: EventInfo {
                ids,
                attr,
                name: tp.full_name(),
                system: tp.system.clone(),
                format: tp.format_text.clone(),
            },
            format: Some(Arc::clone(&tp.format)),
        })
        .collect();
    // The process records' event: no tracefs format of its own.
    recorded.extend(side_band.map(|(ids, attr)| Recorded {
        info: EventInfo {
            ids,
            attr,
            name: session::SIDE_BAND_NAME.into(),
            system: String::new(),
            format: String::new(),
        },
        format: None,
    }));
    recorded
}

pub fn run(args: &CollectArgs) -> Result<Status, Error> {
    // First: a signal that arrived since the start is handled now.
    let flags = signals::install(args.circular)?;
    check_args(args)?;
    if args.circular {
        return circular::run(args, flags);
    }
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
    let nofile = fd_limit::raise(tracepoints.len(), cpus.len())?;
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
        true,
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
            more = pass.any;
            closed |= deliver(&mut session.batch, pass, &mut recorder, &mut live)?;
        } else {
            let pass = session.drain_in_place();
            more = pass.any;
            closed |= write_in_place(&mut session, pass, &mut recorder)?;
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
            closed |= write_in_place(&mut session, pass, &mut recorder)?;
        }
    }
    if let Some(rec) = session.unreported_lost() {
        let pass = session::Pass {
            any: true,
            complete_before: u64::MAX,
        };
        let mut batch = rec;
        closed |= deliver(&mut batch, pass, &mut recorder, &mut live)?;
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

/// Writes the records a pass left in the rings to the recorder straight
/// from the rings (no copy), piece by piece, each piece's room given back
/// to the kernel as soon as it is written (`pieces`), the last with the end
/// of the round; true if standard output is gone.
fn write_in_place(
    session: &mut session::Session,
    pass: session::Pass,
    recorder: &mut Option<Recorder>,
) -> Result<bool, Error> {
    let mut closed = false;
    let cuts = std::mem::take(&mut session.cuts);
    let result = match recorder.as_mut() {
        Some(r) if pass.any => pieces::write_pieces(session, &cuts, |bufs| {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_seconds("1.5").unwrap(), Duration::from_millis(1500));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("x").is_err());
        assert!(parse_seconds("inf").is_err());
    }

    #[test]
    fn buffer_sizes() {
        assert_eq!(parse_buffer_size("1024"), Ok(1024));
        assert_eq!(parse_buffer_size("4"), Ok(4));
        assert_eq!(parse_buffer_size("8M"), Ok(8 << 10));
        assert_eq!(parse_buffer_size("8mib"), Ok(8 << 10));
        assert_eq!(parse_buffer_size("2G"), Ok(1 << 21));
        assert_eq!(parse_buffer_size("64k"), Ok(64));
        for bad in [
            "3",
            "0",
            "3G",
            "2097153",
            "",
            "M",
            "1.5M",
            "8T",
            "-8",
            "99999999999999999999G",
        ] {
            assert!(parse_buffer_size(bad).is_err(), "{bad}");
        }
        assert!(parse_buffer_size("3G")
            .unwrap_err()
            .contains("4 KiB to 2 GiB"));
    }

    fn parse(args: &[&str]) -> Result<CollectArgs, clap::Error> {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            c: CollectArgs,
        }
        let mut all = vec!["collect"];
        all.extend_from_slice(args);
        <Cli as clap::Parser>::try_parse_from(all).map(|c| c.c)
    }

    #[test]
    fn circular_arguments() {
        let a = parse(&[
            "-c",
            "--max-snapshots",
            "3",
            "--snapshot-on",
            "level=1",
            "--after",
            "0.5",
            "P_L5K1",
        ])
        .unwrap();
        assert!(a.circular);
        assert_eq!(a.max_snapshots, Some(3));
        assert_eq!(a.snapshot_on.unwrap().level, Some(1));
        assert_eq!(a.after, Some(Duration::from_millis(500)));
        // Options of circular mode need it; --after needs --snapshot-on.
        for bad in [
            &["--max-snapshots", "3", "P_L5K1"][..],
            &["--snapshot-on", "level=1", "P_L5K1"],
            &["-c", "--after", "1", "P_L5K1"],
            &["-c", "--max-snapshots", "0", "P_L5K1"],
            &["-c", "--snapshot-on", "level=9x", "P_L5K1"],
            &["-c", "-b", "4G", "P_L5K1"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        // Refused combinations: usage errors (status 2).
        for bad in [
            &["-c", "--live", "P_L5K1"][..],
            &["-c", "-o", "-", "P_L5K1"],
        ] {
            let e = check_args(&parse(bad).unwrap()).unwrap_err();
            assert_eq!(e.status, Status::Usage, "{bad:?}");
        }
        assert!(check_args(&parse(&["-c", "-o", "t.data", "P_L5K1"]).unwrap()).is_ok());
    }
}
