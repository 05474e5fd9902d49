//! `eventheader decode`: capture files and perf.data files (normal and pipe
//! mode) to JSON, streaming: one record (capture) or one perf round (perf.data
//! in time order) in memory at a time.

mod args;
pub mod capture;
mod csv;
mod event_json;
mod event_meta;
mod fields;
pub mod input;
pub(crate) mod json;
mod keys;
mod members;
pub(crate) mod meta;
mod output;
mod perf;
mod text;
pub(crate) mod time;
pub mod trace_event;
pub mod view;
pub mod window;

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::rc::Rc;

use tracepoint_decode as td;

use crate::exit::{Error, Status};
use crate::filter::{Filter, FilterArgs};
use crate::guard;
use crate::plural;
use crate::progress::Progress;
pub use args::{DecodeArgs, Format, Meta, Order};
pub use event_json::{sample_cpu, sample_tid, Formatter, Outcome};
pub use fields::FieldWalk;
pub use input::Source;
use input::{Opened, Recording};
pub use output::Output;
pub use view::{EventView, Sink, Time};
pub use window::{TimeFormat, TimeWindow};

/// Counts for one input, and what to tell the user about it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Stats {
    pub events: u64,
    pub raw: u64,
    pub malformed: u64,
    /// Events the filters left out.
    pub filtered: u64,
    /// Events the recording says were lost (PERF_RECORD_LOST/LOST_SAMPLES).
    pub lost: u64,
    /// Problems with the input's metadata that did not stop the decoding.
    pub notes: Vec<String>,
}

impl Stats {
    /// Counts an event; true if it is to be written.
    pub fn count(&mut self, o: Outcome) -> bool {
        self.events += 1;
        match o {
            Outcome::Decoded => {}
            Outcome::Raw => self.raw += 1,
            Outcome::Malformed => self.malformed += 1,
            Outcome::Filtered => {
                self.filtered += 1;
                return false;
            }
        }
        true
    }
}

/// What went wrong with one input.
pub enum InputError {
    /// The output failed (stop everything).
    Output(io::Error),
    /// The input is unreadable or malformed from this point on.
    Input(String),
}

impl From<io::Error> for InputError {
    fn from(e: io::Error) -> Self {
        InputError::Output(e)
    }
}

/// Decodes one input into `out` (an array of its events, empty if it cannot
/// be opened). A panic in the decoding crates that no guard prevented ends
/// this input as malformed (see [`guard`]).
pub fn decode_input(
    source: Source<'_>,
    fmt: &mut Formatter,
    out: &mut dyn Sink,
    order: Order,
    progress: bool,
    stats: &mut Stats,
) -> Result<(), InputError> {
    let name = source.name().to_string();
    fmt.begin_input();
    out.begin_input()?;
    let result = match guard::contain(|| decode_opened(source, fmt, out, order, progress, stats)) {
        Ok(r) => r,
        Err(panic) => Err(InputError::Input(format!(
            "{name}: decoding failed after {} (a decoder bug; please report it with the input): {panic}",
            plural::count(stats.events, "event")
        ))),
    };
    out.end_input()?;
    result
}

fn decode_opened(
    source: Source<'_>,
    fmt: &mut Formatter,
    out: &mut dyn Sink,
    order: Order,
    progress: bool,
    stats: &mut Stats,
) -> Result<(), InputError> {
    let name = source.name();
    let Opened { recording, len } =
        input::open(source).map_err(|e| InputError::Input(format!("{name}: {e}")))?;
    let progress = Progress::new(name, len.unwrap_or(0), progress);
    match recording {
        Recording::Perf(reader) => {
            let result = perf::decode(name, reader, progress, fmt, out, order, stats);
            if fmt.filter().has_comm() && !fmt.has_comms() {
                stats.notes.push(NO_COMM_RECORDS.to_string());
            }
            result
        }
        Recording::Capture(reader) => {
            if fmt.filter().has_comm() {
                stats.notes.push(NO_COMM_CAPTURE.to_string());
            }
            decode_capture(name, reader, progress, fmt, out, stats)
        }
    }
}

/// Said once per capture file with `--comm`.
pub const NO_COMM_CAPTURE: &str =
    "capture files carry no process names: --comm matches none of its events";

/// Said once per perf.data file without COMM records, with `--comm`.
pub const NO_COMM_RECORDS: &str =
    "this recording has no COMM records (no process names): --comm matches none of its events";

/// Said once per capture file with records of the reference's layout when
/// time, pid or tid was asked for (`--meta`, `--pid`).
const UNTIMED_CAPTURE: &str = "this capture carries no time, pid or tid (its records have the reference's layout; TRACEPOINT_CAPTURE_LAYOUT=timed writes them): --meta time/pid/tid show nothing and --pid matches none of its events";

fn decode_capture(
    path: &str,
    mut reader: capture::CaptureReader<'_>,
    mut progress: Progress,
    fmt: &mut Formatter,
    out: &mut dyn Sink,
    stats: &mut Stats,
) -> Result<(), InputError> {
    let mut json = String::new();
    let mut warned = false;
    loop {
        match reader.next_record() {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(e) => return Err(InputError::Input(format!("{path}: {}", e.0))),
        }
        let stamp = reader.stamp();
        if stamp.is_none() && fmt.warn_untimed && !warned {
            warned = true;
            stats.notes.push(UNTIMED_CAPTURE.to_string());
        }
        json.clear();
        let outcome = fmt.capture_event(&mut json, reader.name(), reader.event(), stamp);
        if stats.count(outcome) {
            out.event(&fmt.view(&json))?;
        }
        progress.update(reader.position(), stats.events);
    }
}

/// Refuses an output that is one of the inputs (it would be truncated
/// before being read): the same file by device and inode.
fn check_output(args: &DecodeArgs) -> Result<(), Error> {
    let output = match &args.output {
        Some(path) => input::identity(path),
        None => {
            let m = File::from(
                io::stdout()
                    .as_fd()
                    .try_clone_to_owned()
                    .map_err(|e| Error::io(&e, "standard output"))?,
            )
            .metadata()
            .ok();
            m.filter(|m| m.is_file()).map(|m| (m.dev(), m.ino()))
        }
    };
    let Some(output) = output else {
        return Ok(());
    };
    for path in &args.inputs {
        if input::identity(path) == Some(output) {
            let out = args.output.as_deref().unwrap_or("standard output");
            return Err(Error::new(
                Status::Usage,
                format!("the output {out} is the input {path} (the same file): it would be destroyed; write the output elsewhere"),
            ));
        }
    }
    Ok(())
}

/// What decoding does with its inputs (from the command line, or a fuzz
/// target's choice).
#[derive(Clone, Debug)]
pub struct Settings {
    pub format: Format,
    pub meta: td::PerfMetaOptions,
    /// `--meta comm`.
    pub comm: bool,
    pub time_format: Option<TimeFormat>,
    pub window: TimeWindow,
    /// The CSV columns (empty: the default ones).
    pub fields: Vec<String>,
    pub filter: Filter,
    pub order: Order,
    pub progress: bool,
    /// Time, pid or tid was asked for by name (`--meta`, `--pid`): a capture
    /// without them gets a warning.
    pub warn_untimed: bool,
}

/// The sink of the format the settings choose.
fn output_for(settings: &Settings, w: Box<dyn Write>, inputs: usize) -> Box<dyn Sink> {
    match settings.format {
        Format::Json => Box::new(Output::new(w, false, inputs)),
        Format::Jsonl => Box::new(Output::new(w, true, inputs)),
        Format::Text => Box::new(text::TextOutput::new(w, settings.time_format)),
        Format::Csv => Box::new(csv::CsvOutput::new(
            w,
            &settings.fields,
            settings.time_format,
        )),
        Format::TraceEvent => Box::new(trace_event::TraceEventOutput::new(w)),
    }
}

/// Decodes `sources` into `sink` as `eventheader decode` does: the exit
/// status, and a message for the user through `report` for each problem.
pub fn decode_all(
    sources: &[Source<'_>],
    settings: &Settings,
    sink: Box<dyn Write>,
    report: &mut dyn FnMut(String),
) -> Result<Status, Error> {
    let mut out = output_for(settings, sink, sources.len());
    let out = &mut *out;
    // Text and CSV take the metadata from the event's view: the JSON object
    // they read the fields from needs no "meta" (but the common fields, if
    // asked for).
    let json = matches!(settings.format, Format::Json | Format::Jsonl);
    let meta = match settings.meta {
        m if json => m,
        m if m.has_flag(td::PerfMetaOptions::Common) => td::PerfMetaOptions::Common,
        _ => td::PerfMetaOptions::None,
    };
    let mut fmt = Formatter::new(meta, settings.filter.clone()).with_times(
        settings.time_format,
        settings.window,
        settings.comm && json,
    );
    fmt.warn_untimed = settings.warn_untimed;
    let mut status = Status::Success;
    for &source in sources {
        let name = source.name();
        let mut stats = Stats::default();
        let result = decode_input(
            source,
            &mut fmt,
            out,
            settings.order,
            settings.progress,
            &mut stats,
        );
        for note in std::mem::take(&mut stats.notes) {
            report(format!("{name}: {note}"));
        }
        match result {
            Ok(()) => {}
            Err(InputError::Input(message)) => {
                report(message);
                status = status.worst(Status::Failure);
            }
            Err(InputError::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
                return Ok(status)
            }
            Err(InputError::Output(e)) => return Err(Error::io(&e, "writing the output")),
        }
        if stats.malformed > 0 {
            report(format!(
                "{name}: {} of {} malformed (written as raw)",
                stats.malformed,
                plural::count(stats.events, "event")
            ));
            status = status.worst(Status::Failure);
        }
        if stats.raw > 0 {
            report(format!(
                "{name}: {} of {} not EventHeader and without a format (written as raw)",
                stats.raw,
                plural::count(stats.events, "event")
            ));
        }
        if stats.lost > 0 {
            report(format!(
                "{name}: the recording lost {}",
                plural::count(stats.lost, "event")
            ));
        }
    }
    let finished = out.finish();
    for note in out.notes() {
        report(note);
    }
    match finished {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::io(&e, "writing the output")),
        _ => Ok(status),
    }
}

/// A `Write` into a buffer the caller keeps (for [`decode_bytes`] and
/// tests).
pub(crate) struct SharedBuf(pub(crate) Rc<RefCell<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Decodes one input held in memory (read as a file, or with `stream` as a
/// pipe): its output, exit status and messages. For the fuzz targets.
pub fn decode_bytes(
    bytes: &[u8],
    stream: bool,
    settings: &Settings,
) -> (Vec<u8>, Status, Vec<String>) {
    let buf = Rc::new(RefCell::new(Vec::new()));
    let source = if stream {
        Source::Stream(bytes)
    } else {
        Source::Bytes(bytes)
    };
    let mut messages = Vec::new();
    let status = decode_all(
        &[source],
        settings,
        Box::new(SharedBuf(Rc::clone(&buf))),
        &mut |m| messages.push(m),
    )
    .unwrap_or_else(|e| e.status);
    let out = std::mem::take(&mut *buf.borrow_mut());
    (out, status, messages)
}

pub fn run(args: &DecodeArgs) -> Result<Status, Error> {
    check_output(args)?;
    if !args.fields.is_empty() && args.format != Format::Csv {
        return Err(Error::new(
            Status::Usage,
            "--fields chooses the columns of --format csv",
        ));
    }
    let sink: Box<dyn Write> = match &args.output {
        Some(path) => {
            Box::new(File::create(path).map_err(|e| Error::io(&e, format!("creating {path}")))?)
        }
        None => Box::new(io::stdout()),
    };
    let sources: Vec<Source<'_>> = args.inputs.iter().map(|p| Source::Path(p)).collect();
    let settings = Settings {
        format: if args.jsonl {
            Format::Jsonl
        } else {
            args.format
        },
        meta: Meta::union(&args.meta),
        comm: Meta::has_comm(&args.meta),
        time_format: args.time_format,
        window: args.time.unwrap_or_default(),
        fields: args.fields.clone(),
        filter: Filter::new(&FilterArgs {
            matching: args.matching.clone(),
            ..args.filter.clone()
        }),
        order: args.order,
        progress: !args.no_progress,
        warn_untimed: !args.filter.pid.is_empty()
            || args
                .meta
                .iter()
                .any(|m| matches!(m, Meta::Time | Meta::Pid | Meta::Tid)),
    };
    decode_all(&sources, &settings, sink, &mut |m| {
        eprintln!("eventheader: decode: {m}")
    })
}
