//! `eventheader decode`'s command line: its options, formats, metadata
//! names and orders, and its help text.

use clap::{Args, ValueEnum};
use tracepoint_decode as td;

use super::window::{TimeFormat, TimeWindow};
use crate::filter::{FilterArgs, MatchArgs};

#[derive(Args, Debug)]
#[command(after_help = DECODE_AFTER_HELP)]
pub struct DecodeArgs {
    /// Capture files (TRACEPOINT_CAPTURE_FILE) and perf.data files, normal or
    /// pipe mode (recognized by their content); `-` is standard input.
    #[arg(value_name = "FILE", required = true)]
    pub inputs: Vec<String>,

    /// Output format: json (an array), jsonl (one JSON object per line),
    /// text (one line per event, as perf script writes them), csv.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,

    /// The columns of --format csv, comma-separated: time, pid, tid, comm,
    /// cpu, provider, event, tracepoint, level, keyword, opcode, activity,
    /// related, fields (all fields as one JSON object), or a field's name
    /// (nested: a.b). Default: time,cpu,pid,tid,comm,provider,event,level,
    /// keyword,opcode,activity,related,fields.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub fields: Vec<String>,

    /// The same as --format jsonl.
    #[arg(long, conflicts_with = "format")]
    pub jsonl: bool,

    /// How times are written: rfc3339 (a string), ns (an integer), s (a
    /// number of seconds), relative (seconds since the input's first event).
    /// Default: rfc3339 when the recording has a wall-clock time, else
    /// seconds of the recording's clock.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub time_format: Option<TimeFormat>,

    /// Only events from START to END (inclusive; either may be empty): each
    /// an RFC 3339 date-time or seconds after the input's first event, e.g.
    /// `--time 1.5,3` or `--time 2024-03-28T00:45:12Z,`.
    #[arg(long, value_name = "START,END", value_parser = TimeWindow::parse)]
    pub time: Option<TimeWindow>,

    /// Metadata to put in each event's "meta" object, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "default",
        value_name = "LIST"
    )]
    pub meta: Vec<Meta>,

    /// Order of perf.data events: by timestamp (sorted per perf round, as perf
    /// does; memory holds one round) or as stored in the file. Capture files
    /// are always in file order.
    #[arg(long, value_enum, default_value = "time")]
    pub order: Order,

    /// Write to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,

    /// No progress display on stderr (shown only when stderr is a terminal and
    /// an input is larger than 32 MiB).
    #[arg(long)]
    pub no_progress: bool,

    #[command(flatten)]
    pub filter: FilterArgs,

    #[command(flatten)]
    pub matching: MatchArgs,
}

const DECODE_AFTER_HELP: &str = concat!(
    "\
Output: one JSON array of the events of the input; with several inputs, one
JSON array holding an array of events per input, in the order of the inputs
(an input that cannot be read is an empty array at its place). --jsonl
writes the events of all inputs one per line, input after input. Each event is
  { \"n\": \"Provider:Event\", \"field\": value, ..., \"meta\": { ... } }
EventHeader events decode from their own metadata; other tracepoints in
perf.data (TPP, .NET, OpenTelemetry layouts, kernel tracepoints) from the
tracefs format the file carries. An event that cannot be decoded appears as
  { \"n\": \"tracepoint\", \"raw\": \"HEX\"[, \"error\": \"why\"] }
(plain tracepoints in capture files have no format: raw, no error).
\"n\" and \"meta\" never repeat a key of their object: when an event has a
top-level field of that name (the .NET runtime's layout has a field meta), the
field keeps it and the event's name or metadata object takes the key with \"_\"
appended, as often as needed (\"meta_\", \"meta__\", ...).

A recording of a single event (perf writes its samples without ids) decodes
completely: every sample is that event.

--format text writes one line per event (as perf script does), --format csv
a header row and a row per event with the columns --fields names; both take
the same times (--time-format) and windows (--time).

Metadata names (--meta): default (time,cpu,pid,tid,id,version,level,keyword,
opcode,tag,activity,related), all, none, time, cpu, pid, tid (shown when it
differs from pid), comm (the process name, from COMM records), id, version,
level, keyword, opcode, tag, activity, related (the related activity id),
provider, event, options, flags, common (tracefs common_* fields, before the
event's own fields). Items without a
value (zero, absent) are omitted.

Lost events recorded in a perf.data file are reported on stderr. Exit status
1 when an input cannot be read or holds malformed records or events (they are
still written, as raw).

Examples:
  eventheader decode trace.data
  TRACEPOINT_CAPTURE_FILE=events.dat ./my-program && eventheader decode events.dat
  eventheader decode --jsonl --meta all a.data b.data
  eventheader collect -o - 'MyProvider_*' | eventheader decode -",
    "\n\n",
    exit_status_help!()
);

/// The output formats of `decode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON array of events (per input).
    Json,
    /// One JSON object per line (JSON Lines).
    Jsonl,
    /// One line per event, as perf script writes them.
    Text,
    /// A header row, then one row per event (RFC 4180), columns --fields.
    Csv,
    /// The Trace Event Format (Perfetto's UI, chrome://tracing, speedscope).
    TraceEvent,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Meta {
    Default,
    All,
    None,
    Time,
    Cpu,
    Pid,
    Tid,
    /// The process name (from the recording's COMM records).
    Comm,
    Id,
    Version,
    Level,
    Keyword,
    Opcode,
    Tag,
    Activity,
    Related,
    Provider,
    Event,
    Options,
    Flags,
    Common,
}

impl Meta {
    fn options(self) -> td::PerfMetaOptions {
        use td::PerfMetaOptions as M;
        match self {
            Meta::Default => M::Default,
            Meta::All => M::All,
            Meta::None => M::None,
            Meta::Time => M::Time,
            Meta::Cpu => M::Cpu,
            Meta::Pid => M::Pid,
            Meta::Tid => M::Tid,
            Meta::Comm => M::None,
            Meta::Id => M::Id,
            Meta::Version => M::Version,
            Meta::Level => M::Level,
            Meta::Keyword => M::Keyword,
            Meta::Opcode => M::Opcode,
            Meta::Tag => M::Tag,
            Meta::Activity => M::Activity,
            Meta::Related => M::RelatedActivity,
            Meta::Provider => M::Provider,
            Meta::Event => M::Event,
            Meta::Options => M::Options,
            Meta::Flags => M::Flags,
            Meta::Common => M::Common,
        }
    }

    /// The union of the selected items.
    pub fn union(items: &[Meta]) -> td::PerfMetaOptions {
        items
            .iter()
            .fold(td::PerfMetaOptions::None, |acc, m| acc.or(m.options()))
    }

    /// Do the selected items include the process name?
    pub fn has_comm(items: &[Meta]) -> bool {
        items.iter().any(|m| matches!(m, Meta::Comm | Meta::All))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Order {
    Time,
    File,
}
