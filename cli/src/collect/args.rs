//! `collect`'s command line: its options and their help, the values they
//! parse (seconds, ring sizes) and the options that go together.

use std::time::Duration;

use clap::Args;

use super::trigger;
use crate::decode::Meta;
use crate::exit::{Error, Status};
use crate::filter::FilterArgs;
use crate::spec::{self, CollectSpec};

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
pub(super) fn collect_specs(args: &CollectArgs) -> Result<Vec<CollectSpec>, Error> {
    spec::gather(
        &args.tracepoints,
        &args.input,
        spec::parse_collect_spec,
        "tracepoints",
    )
}
/// Checks the options that go together.
pub(super) fn check_args(args: &CollectArgs) -> Result<(), Error> {
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
