//! `eventheader stats`: counts the events of capture files and perf.data
//! files (read as `decode` reads them) per event name, tracepoint,
//! provider, level and, with `--by process`, process. EventHeader events
//! are opened only as far as their names: no field is decoded.

mod counter;
mod names;
mod perf;
mod report;
pub mod summary;

use std::io::{self, Write};

use clap::{Args, ValueEnum};

use crate::decode::{Source, TimeWindow};
use crate::exit::{Error, Status};
use crate::filter::{Filter, FilterArgs, MatchArgs};
pub use counter::count_input;
use summary::Summary;

#[derive(Args, Debug)]
#[command(after_help = STATS_AFTER_HELP)]
pub struct StatsArgs {
    /// Capture files (TRACEPOINT_CAPTURE_FILE) and perf.data files, normal or
    /// pipe mode (recognized by their content); `-` is standard input.
    #[arg(value_name = "FILE", required = true)]
    pub inputs: Vec<String>,

    /// Output: a table for people, or one JSON object.
    #[arg(long, value_enum, default_value = "table")]
    pub format: StatsFormat,

    /// Also count per process (pid, and its name when the recording has
    /// COMM records).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub by: Vec<By>,

    /// Only events from START to END (inclusive; either may be empty): each
    /// an RFC 3339 date-time or seconds after the input's first event, e.g.
    /// `--time 1.5,3` or `--time 2024-03-28T00:45:12Z,`. The same window
    /// as decode's --time.
    #[arg(long, value_name = "START,END", value_parser = TimeWindow::parse)]
    pub time: Option<TimeWindow>,

    /// No progress display on stderr (shown only when stderr is a terminal and
    /// an input is larger than 32 MiB).
    #[arg(long)]
    pub no_progress: bool,

    #[command(flatten)]
    pub filter: FilterArgs,

    #[command(flatten)]
    pub matching: MatchArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    Table,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum By {
    Process,
}

const STATS_AFTER_HELP: &str = concat!(
    "\
Counts the events of all inputs together: per event (`Provider:Event` for
EventHeader events, the tracepoint's name for others) and tracepoint, per
provider (the tracepoint's system for non-EventHeader events), per level,
and with --by process per process. Each row gives the count, the bytes (the
event's data after the tracepoint's common fields), the first and last time
and the rate (events per second between them). Capture files of the
reference's layout carry no time: their rows have none. --time keeps the
events of decode's window (seconds count from the input's first event in
time order); events outside it are counted as filtered. Events lost by the recording (PERF_RECORD_LOST and
LOST_SAMPLES) are counted, as are the events the filters left out.

--format json writes one object:
  { \"inputs\": [...], \"total\": ROW, \"filtered\": N, \"lost\": N, \"malformed\": N,
    \"events\": [ { \"name\", \"tracepoint\", \"provider\", \"level\", ROW }, ... ],
    \"tracepoints\": [...], \"providers\": [...], \"levels\": [...],
    \"processes\": [ { \"pid\", \"comm\", ROW }, ... ] }
where ROW is \"count\", \"bytes\", \"first\", \"last\", \"rate\"; times as decode
writes them (RFC 3339 when the recording gives its wall-clock offset, else
seconds), null when unknown.

Exit status 1 when an input cannot be read or holds malformed records or
events (they are still counted, under their tracepoint).

Examples:
  eventheader stats trace.data
  eventheader stats --by process --format json a.data b.dat",
    "\n\n",
    exit_status_help!()
);

/// Which events are counted: those the filters and the time window keep.
#[derive(Clone, Copy)]
pub struct Keep<'a> {
    pub filter: &'a Filter,
    pub window: TimeWindow,
}

/// Counts `sources` and writes the report to `sink`: the exit status, and a
/// message through `report` for each problem.
pub fn stats_all(
    sources: &[Source<'_>],
    Keep { filter, window }: Keep<'_>,
    by_process: bool,
    format: StatsFormat,
    progress: bool,
    sink: &mut dyn Write,
    report: &mut dyn FnMut(String),
) -> Result<Status, Error> {
    let mut summary = Summary::new(by_process);
    let mut status = Status::Success;
    for &source in sources {
        if let Err(message) = count_input(source, filter, window, &mut summary, progress) {
            report(message);
            status = status.worst(Status::Failure);
        }
        for note in std::mem::take(&mut summary.notes) {
            report(format!("{}: {note}", source.name()));
        }
    }
    if summary.malformed > 0 {
        report(format!(
            "{} malformed (counted under their tracepoint)",
            crate::plural::count(summary.malformed, "event")
        ));
        status = status.worst(Status::Failure);
    }
    let names: Vec<&str> = sources.iter().map(|s| s.name()).collect();
    let text = match format {
        StatsFormat::Table => report::table(&summary, &names),
        StatsFormat::Json => report::json(&summary, &names),
    };
    match sink.write_all(text.as_bytes()).and_then(|()| sink.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::io(&e, "writing the output")),
        _ => Ok(status),
    }
}

pub fn run(args: &StatsArgs) -> Result<Status, Error> {
    let sources: Vec<Source<'_>> = args.inputs.iter().map(|p| Source::Path(p)).collect();
    let mut out = io::stdout().lock();
    stats_all(
        &sources,
        Keep {
            filter: &Filter::new(&FilterArgs {
                matching: args.matching.clone(),
                ..args.filter.clone()
            }),
            window: args.time.unwrap_or_default(),
        },
        args.by.contains(&By::Process),
        args.format,
        !args.no_progress,
        &mut out,
        &mut |m| eprintln!("eventheader: stats: {m}"),
    )
}
