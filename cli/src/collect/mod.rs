//! `eventheader collect`: records tracepoints into a perf.data file by
//! opening the kernel's perf events per CPU and reading their ring buffers
//! (no `perf` needed). Stops on SIGINT/SIGTERM, after `--duration`, or when
//! the command given after `--` exits.

mod resolve;
mod session;

use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;

use crate::exit::{Error, Status};
use crate::spec::{self, CollectSpec};
use crate::tracefs::Tracefs;

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

    /// Output file.
    #[arg(short, long, value_name = "FILE", default_value = "perf.data")]
    pub output: String,

    /// Size of each CPU's ring buffer in KiB (rounded up to a power of two).
    #[arg(short, long, value_name = "KIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u32).range(4..=1 << 21))]
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

Recording is system-wide, every online CPU; needs root (or CAP_PERFMON and
read access to tracefs). The file carries the tracefs formats, so it decodes
anywhere: eventheader decode trace.data, perf script -i trace.data.

Events the kernel drops because a ring buffer was full are reported on
stderr and make the exit status 6 (the file is still complete otherwise);
a larger --buffer-size helps. With a command, its failure (a non-zero exit, a
signal, or no such command) makes the status 7.",
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

fn collect_specs(args: &CollectArgs) -> Result<Vec<CollectSpec>, Error> {
    spec::gather(
        &args.tracepoints,
        &args.input,
        spec::parse_collect_spec,
        "tracepoints",
    )
}

/// Starts the command; one that cannot be started failed (status 7, as one
/// that exits non-zero).
fn spawn(command: &[String]) -> Result<Child, Error> {
    Command::new(&command[0])
        .args(&command[1..])
        .spawn()
        .map_err(|e| {
            Error::new(
                Status::CommandFailed,
                format!("cannot run {}: {e}", command[0]),
            )
        })
}

pub fn run(args: &CollectArgs) -> Result<Status, Error> {
    let specs = collect_specs(args)?;
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [libc::SIGINT, libc::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&stop))
            .map_err(|e| Error::io(&e, "installing signal handlers"))?;
    }
    let tracefs = Tracefs::find()?;
    let (tracepoints, registrations) = resolve::resolve(&tracefs, &specs, args.verbose)?;
    let cpus = session::online_cpus();
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
    let mut session = session::Session::open(
        &tracefs,
        &tracepoints,
        &cpus,
        args.buffer_size as usize * 1024,
        &args.output,
    )?;
    session.enable()?;
    let started = Instant::now();
    let deadline = args.duration.map(|d| started + d);
    let mut child = if args.command.is_empty() {
        None
    } else {
        match spawn(&args.command) {
            Ok(c) => Some(c),
            Err(e) => {
                // Leave a complete (empty) file behind, not a truncated one.
                session.finish()?;
                return Err(e);
            }
        }
    };
    let mut child_status = None;
    let mut more = false;
    loop {
        if !more {
            session.wait(100);
        }
        more = session.drain()?;
        if let Some(c) = child.as_mut() {
            if let Some(st) = c
                .try_wait()
                .map_err(|e| Error::io(&e, "waiting for the command"))?
            {
                child_status = Some(st);
                break;
            }
        }
        if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    let stats = session.finish()?;
    drop(registrations);
    if let (Some(mut c), None) = (child, child_status) {
        // Stopped by a signal or the duration while the command still runs.
        // SAFETY: kill has no memory-safety preconditions; the pid is our
        // child's, not yet reaped.
        unsafe { libc::kill(c.id() as libc::pid_t, libc::SIGTERM) };
        child_status = c.wait().ok();
    }

    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "eventheader: collect: {} events in {:.1} s to {}",
        stats.samples, secs, args.output
    );
    let mut status = Status::Success;
    if stats.lost > 0 || stats.throttled > 0 {
        eprintln!(
            "eventheader: collect: the kernel lost {} events{} (ring buffers full: try a larger --buffer-size)",
            stats.lost,
            if stats.throttled > 0 {
                format!(" and throttled sampling {} times (events dropped without a count)", stats.throttled)
            } else {
                String::new()
            }
        );
        status = status.worst(Status::EventsLost);
    }
    if let Some(st) = child_status {
        if !st.success() {
            eprintln!("eventheader: collect: {} {st}", args.command[0]);
            status = status.worst(Status::CommandFailed);
        }
    }
    Ok(status)
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
}
