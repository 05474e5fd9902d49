//! `eventheader stats`: counts the events of capture files and perf.data
//! files (read as `decode` reads them) per event name, tracepoint,
//! provider, level and, with `--by process`, process. EventHeader events
//! are opened only as far as their names: no field is decoded.

mod report;
pub mod summary;

use std::collections::HashMap;
use std::io::{self, Write};

use clap::{Args, ValueEnum};
use tracepoint_decode as td;

use crate::decode::capture::CaptureReader;
use crate::decode::input::{self, Opened, Recording};
use crate::decode::window::Bound;
use crate::decode::FieldWalk;
use crate::decode::{sample_cpu, sample_tid, Source, TimeWindow};
use crate::exit::{Error, Status};
use crate::filter::{Filter, FilterArgs, MatchArgs, Subject};
use crate::guard;
use crate::perfdata::{Events, PerfReader};
use crate::progress::Progress;
use summary::{Event, Summary, Time};

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

/// Counts one input into `summary`; Err(message) when it cannot be read
/// (to its end).
pub fn count_input(
    source: Source<'_>,
    filter: &Filter,
    window: TimeWindow,
    summary: &mut Summary,
    progress: bool,
) -> Result<(), String> {
    let name = source.name();
    let Opened { recording, len } = input::open(source).map_err(|e| format!("{name}: {e}"))?;
    let progress = Progress::new(name, len.unwrap_or(0), progress);
    let mut counter = Counter {
        context: td::EventHeaderEnumeratorContext::new(),
        split: SplitCache::default(),
        filter,
        window,
        first: None,
        last: LastRow::default(),
        summary,
        walk: FieldWalk::default(),
        names: HashMap::new(),
    };
    if filter.has_comm() && matches!(recording, Recording::Capture(_)) {
        counter
            .summary
            .notes
            .push(crate::decode::NO_COMM_CAPTURE.to_string());
    }
    let result = match recording {
        Recording::Capture(reader) => {
            guard::contain(|| counter.capture(reader, progress)).map_err(|p| p.to_string())
        }
        Recording::Perf(reader) => {
            guard::contain(|| counter.perf(reader, progress)).map_err(|p| p.to_string())
        }
    };
    match result {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("{name}: {e}")),
        Err(panic) => Err(format!(
            "{name}: counting failed (a decoder bug; please report it with the input): {panic}"
        )),
    }
}

struct Counter<'a> {
    context: td::EventHeaderEnumeratorContext,
    split: SplitCache,
    filter: &'a Filter,
    window: TimeWindow,
    /// The time of the input's first event, as decode takes it: the
    /// earliest of the first perf round with a timed sample (decode writes
    /// each round in time order), a capture's first timed record.
    first: Option<Time>,
    /// The row of the last EventHeader event named from its header alone.
    last: LastRow,
    summary: &'a mut Summary,
    /// The field terms' walk (`--where`).
    walk: FieldWalk,
    /// Thread names from COMM and FORK records (`--comm`, as decode names
    /// them: the thread's, else its process's).
    names: HashMap<u32, String>,
}

/// The names of an EventHeader event (system, tracepoint and event name)
/// and the row they are counted in: the next event of the same names is
/// counted there without its names being looked at again or looked up.
#[derive(Default)]
struct LastRow {
    system: Vec<u8>,
    tracepoint: Vec<u8>,
    event: Vec<u8>,
    row: Option<usize>,
}

impl LastRow {
    fn get(&self, system: &[u8], tracepoint: &[u8], event: &[u8]) -> Option<usize> {
        self.row.filter(|_| {
            self.event == event && self.tracepoint == tracepoint && self.system == system
        })
    }

    fn set(&mut self, system: &[u8], tracepoint: &[u8], event: &[u8], row: usize) {
        for (to, from) in [
            (&mut self.system, system),
            (&mut self.tracepoint, tracepoint),
            (&mut self.event, event),
        ] {
            to.clear();
            to.extend_from_slice(from);
        }
        self.row = Some(row);
    }
}

/// The samples of a perf round held back until the round's earliest time,
/// the input's first, is known (only for a window relative to it).
#[derive(Default)]
struct Held {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

/// What the name of an event's data says.
enum Named<'n, 'd> {
    /// An EventHeader event: provider, event name, level, keyword.
    EventHeader(&'n str, &'d [u8], u8, u64),
    /// Not EventHeader.
    Plain,
    /// An EventHeader tracepoint whose data is not a valid event.
    Malformed,
}

/// The last tracepoint name split into provider (its length) and keyword
/// (checking a name costs more than counting its event).
#[derive(Default)]
struct SplitCache {
    name: String,
    split: Option<(usize, u64)>,
}

impl SplitCache {
    fn get(&mut self, tracepoint: &str) -> Option<(usize, u64)> {
        if self.name != tracepoint {
            self.name.clear();
            self.name.push_str(tracepoint);
            self.split = crate::spec::split_eventheader_name(tracepoint)
                .map(|(provider, _, keyword)| (provider.len(), keyword));
        }
        self.split
    }
}

/// The event name and level of a well-formed EventHeader event, read from
/// its header and the first metadata extension in its chain: None when
/// anything is unusual (the enumerator then judges the event).
fn quick_name(data: &[u8]) -> Option<(&[u8], u8)> {
    // eventheader_flags: pointer64 0x01, little-endian 0x02, extension 0x04.
    let flags = *data.first()?;
    if flags & !0x07 != 0 || flags & 0x04 == 0 {
        return None;
    }
    let read = |b: &[u8]| {
        let b = [b[0], b[1]];
        if flags & 0x02 != 0 {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        }
    };
    let level = *data.get(7)?;
    let mut at = 8;
    loop {
        // Extension: u16 size, u16 kind (0x8000: another follows).
        let head = data.get(at..at + 4)?;
        let (size, kind) = (usize::from(read(&head[..2])), read(&head[2..]));
        let body = data.get(at + 4..at + 4 + size)?;
        if kind & 0x7fff == 1 {
            let nul = body.iter().position(|&b| b == 0)?;
            return Some((&body[..nul], level));
        }
        if kind & 0x8000 == 0 {
            return None;
        }
        at += 4 + size;
    }
}

/// The provider, event name, level and keyword of an EventHeader event,
/// from its header and metadata (no field is decoded).
fn eventheader_names<'n, 'd>(
    context: &mut td::EventHeaderEnumeratorContext,
    split: &mut SplitCache,
    tracepoint: &'n str,
    data: &'d [u8],
) -> Result<Named<'n, 'd>, td::EventHeaderEnumeratorError> {
    if let (Some((name, level)), Some((provider_len, keyword))) =
        (quick_name(data), split.get(tracepoint))
    {
        return Ok(Named::EventHeader(
            &tracepoint[..provider_len],
            name,
            level,
            keyword,
        ));
    }
    let e = context.enumerate_with_name_and_data(
        tracepoint,
        data,
        td::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
    )?;
    let info = e.event_info();
    Ok(Named::EventHeader(
        info.provider_name(),
        info.name_bytes(),
        info.header().level.as_int(),
        info.keyword(),
    ))
}

/// A perf sample's time (None without PERF_SAMPLE_TIME): wall-clock when
/// the recording gives its clock's offset.
fn sample_time(sample: &td::PerfSampleEventInfo<'_>) -> Option<Time> {
    if !sample
        .sample_type()
        .has_flag(td::PerfEventAttrSampleType::Time)
    {
        return None;
    }
    let session = sample.session_info;
    Some(if session.clock_offset_known() {
        let ts = session.time_to_time_spec(sample.time);
        Time {
            ns: ts
                .seconds()
                .saturating_mul(1_000_000_000)
                .saturating_add(i64::from(ts.nanoseconds())),
            wall: true,
        }
    } else {
        Time {
            ns: i64::try_from(sample.time).unwrap_or(i64::MAX),
            wall: false,
        }
    })
}

fn read_u32_at(events: &Events, data: &[u8], at: usize) -> Option<u32> {
    data.get(at..at + 4)
        .map(|b| events.byte_reader().read_u32(b))
}

fn read_u64_at(events: &Events, data: &[u8], at: usize) -> u64 {
    data.get(at..at + 8)
        .map_or(0, |b| events.byte_reader().read_u64(b))
}

/// The process, thread and CPU of an event, when its recording has them.
#[derive(Clone, Copy, Default)]
struct Who {
    pid: Option<u32>,
    tid: Option<u32>,
    cpu: Option<u32>,
}

impl Counter<'_> {
    /// Counts an EventHeader event of the last row's names in that row
    /// (no filter can leave it out): false when it is not one.
    fn count_again(
        &mut self,
        system: &[u8],
        tracepoint: &[u8],
        data: &[u8],
        time: Option<Time>,
        pid: Option<u32>,
    ) -> bool {
        if self.last.row.is_none() || !self.filter.is_empty() {
            return false;
        }
        let Some((event, _)) = quick_name(data) else {
            return false;
        };
        let Some(row) = self.last.get(system, tracepoint, event) else {
            return false;
        };
        self.summary.add_at(row, data.len(), time, pid);
        true
    }

    /// Counts an event of `system:tracepoint` with event data `data` (whose
    /// length is its bytes) named `named`, and makes its row the last row
    /// when its names came from its header alone.
    fn event_of(
        &mut self,
        system: &str,
        tracepoint: &str,
        named: Named<'_, '_>,
        data: &[u8],
        time: Option<Time>,
        who: Who,
    ) {
        let eventheader = matches!(named, Named::EventHeader(..));
        let row = self.event(system, tracepoint, named, data.len(), time, who);
        if let (true, Some(row), true) = (eventheader, row, self.filter.is_empty()) {
            if let (Some((event, _)), Some(_)) = (quick_name(data), self.split.get(tracepoint)) {
                self.last
                    .set(system.as_bytes(), tracepoint.as_bytes(), event, row);
            }
        }
    }

    /// Counts one event of `system:tracepoint` with `bytes` of event data:
    /// its row, None when a filter left it out.
    fn event(
        &mut self,
        system: &str,
        tracepoint: &str,
        named: Named<'_, '_>,
        bytes: usize,
        time: Option<Time>,
        who: Who,
    ) -> Option<usize> {
        let (provider, event, level, keyword) = match named {
            Named::EventHeader(p, e, l, k) => (p, e, Some(l), Some(k)),
            Named::Plain => (system, tracepoint.as_bytes(), None, None),
            Named::Malformed => {
                self.summary.malformed += 1;
                (system, tracepoint.as_bytes(), None, None)
            }
        };
        let subject = Subject {
            provider,
            event,
            level_keyword: level.zip(keyword),
            pid: who.pid,
            tid: who.tid,
            cpu: who.cpu,
            comm: who
                .tid
                .and_then(|t| self.names.get(&t))
                .or_else(|| who.pid.and_then(|p| self.names.get(&p)))
                .map(String::as_str),
        };
        if !self.filter.is_empty() && !self.filter.matches(&subject) {
            self.summary.filtered += 1;
            return None;
        }
        Some(self.summary.add(&Event {
            system,
            tracepoint,
            provider,
            event,
            level,
            bytes,
            time,
            pid: who.pid,
        }))
    }

    fn capture(
        &mut self,
        mut reader: CaptureReader<'_>,
        mut progress: Progress,
    ) -> Result<(), String> {
        let mut n = 0u64;
        while reader.next_record().map_err(|e| e.0)? {
            let data = reader.event();
            let stamp = reader.stamp();
            let time = stamp.map(|s| Time {
                ns: i64::try_from(s.time).unwrap_or(i64::MAX),
                wall: false,
            });
            n += 1;
            progress.update(reader.position(), n);
            if !self.in_window(time) {
                self.summary.filtered += 1;
                continue;
            }
            let who = Who {
                pid: stamp.map(|s| s.pid),
                tid: stamp.map(|s| s.tid),
                cpu: None,
            };
            let system = crate::spec::USER_EVENTS;
            if self.count_again(system.as_bytes(), reader.name_bytes(), data, time, who.pid) {
                continue;
            }
            let name = reader.name();
            let named = match eventheader_names(&mut self.context, &mut self.split, name, data) {
                Ok(named) => named,
                Err(_) if crate::spec::check_eventheader_name(name).is_err() => Named::Plain,
                Err(_) => Named::Malformed,
            };
            if !self.fields_hold(&named, name, data, None) {
                self.summary.filtered += 1;
                continue;
            }
            self.event_of(system, name, named, data, time, who);
        }
        Ok(())
    }

    fn perf(
        &mut self,
        mut reader: Box<PerfReader<'_>>,
        mut progress: Progress,
    ) -> Result<(), String> {
        let mut n = 0u64;
        // Only a window relative to the first event waits for it.
        let relative = |b: Option<Bound>| matches!(b, Some(Bound::Relative(_)));
        let mut held =
            (relative(self.window.start) || relative(self.window.end)).then(Held::default);
        let result = loop {
            match reader.move_next() {
                Ok(true) => {}
                Ok(false) => break Ok(()),
                Err(e) => {
                    break Err(format!(
                        "malformed event data after {}: {e}",
                        crate::plural::count(n, "event")
                    ))
                }
            }
            let record = reader.current();
            let events = reader.events();
            match record.header.ty {
                td::PerfEventHeaderType::Sample => {
                    n += 1;
                    match held.as_mut() {
                        Some(held) => {
                            held.bytes.extend_from_slice(record.data);
                            held.ends.push(held.bytes.len());
                        }
                        None => self.sample(events, record.data),
                    }
                }
                td::PerfEventHeaderType::FinishedRound | td::PerfEventHeaderType::FinishedInit => {
                    if let Some(h) = held.take() {
                        held = self.release(events, h);
                    }
                }
                // PERF_RECORD_COMM: u32 pid, u32 tid, char comm[].
                td::PerfEventHeaderType::Comm => {
                    if let (Some(pid), Some(tid), Some(comm)) = (
                        read_u32_at(events, record.data, 8),
                        read_u32_at(events, record.data, 12),
                        record.data.get(16..),
                    ) {
                        let end = comm.iter().position(|&b| b == 0).unwrap_or(comm.len());
                        self.summary.comm(pid, tid, &comm[..end]);
                        if self.filter.has_comm() {
                            let name = String::from_utf8_lossy(&comm[..end]).into_owned();
                            self.names.insert(tid, name);
                        }
                    }
                }
                // PERF_RECORD_FORK: u32 pid, ppid, tid, ptid; the new thread
                // has its parent's name.
                td::PerfEventHeaderType::Fork if self.filter.has_comm() => {
                    if let (Some(tid), Some(ptid)) = (
                        read_u32_at(events, record.data, 16),
                        read_u32_at(events, record.data, 20),
                    ) {
                        if let Some(name) = self.names.get(&ptid).cloned() {
                            self.names.insert(tid, name);
                        }
                    }
                }
                // PERF_RECORD_LOST: u64 id, u64 lost; PERF_RECORD_LOST_SAMPLES: u64 lost.
                td::PerfEventHeaderType::Lost => {
                    self.summary.lost += read_u64_at(events, record.data, 16)
                }
                td::PerfEventHeaderType::LostSamples => {
                    self.summary.lost += read_u64_at(events, record.data, 8)
                }
                _ => {}
            }
            progress.update(reader.position(), n);
        };
        if let Some(h) = held {
            self.release(reader.events(), h);
        }
        self.summary
            .notes
            .extend(std::mem::take(&mut reader.events_mut().notes));
        if self.filter.has_comm() && self.names.is_empty() {
            self.summary
                .notes
                .push(crate::decode::NO_COMM_RECORDS.to_string());
        }
        result
    }

    /// Do the field terms (`--where`) hold for this event? EventHeader
    /// events are enumerated, tracefs-format events read through `sample`'s
    /// format; others have no fields to hold a term.
    fn fields_hold(
        &mut self,
        named: &Named<'_, '_>,
        tracepoint: &str,
        data: &[u8],
        sample: Option<&td::PerfSampleEventInfo<'_>>,
    ) -> bool {
        let terms = self.filter.field_terms();
        if terms.is_empty() {
            return true;
        }
        match named {
            Named::EventHeader(..) => match self.context.enumerate_with_name_and_data(
                tracepoint,
                data,
                td::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
            ) {
                Ok(mut e) => self.walk.eventheader_holds(&mut e, terms),
                Err(_) => false,
            },
            Named::Plain => match sample.and_then(|s| s.format().map(|f| (s, f))) {
                Some((s, format)) => {
                    self.walk
                        .tracefs_holds(format, s.raw_data(), s.byte_reader(), terms)
                }
                None => false,
            },
            // Counted as malformed whatever the filters.
            Named::Malformed => true,
        }
    }

    /// Is an event at `time` inside the window? The first timed event of the
    /// input sets the time relative bounds count from.
    fn in_window(&mut self, time: Option<Time>) -> bool {
        if self.first.is_none() {
            self.first = time;
        }
        self.window.contains(time, self.first)
    }

    /// A round's end: the input's first time is the earliest of the held
    /// samples, which are then counted; None (hold no more) once it is known.
    fn release(&mut self, events: &Events, held: Held) -> Option<Held> {
        let samples = || {
            let starts = std::iter::once(0).chain(held.ends.iter().copied());
            starts.zip(&held.ends).map(|(a, &b)| &held.bytes[a..b])
        };
        self.first = samples()
            .filter_map(|data| events.sample_info(data).ok().and_then(|s| sample_time(&s)))
            .min_by_key(|t| t.ns);
        for data in samples() {
            self.sample(events, data);
        }
        self.first.is_none().then(Held::default)
    }

    fn sample(&mut self, events: &Events, data: &[u8]) {
        let sample = match events.sample_info(data) {
            Ok(sample) => sample,
            Err(_) => {
                self.summary.malformed += 1;
                self.summary.add(&Event {
                    system: "",
                    tracepoint: "(unattributed)",
                    provider: "",
                    event: b"(unattributed)",
                    level: None,
                    bytes: data.len(),
                    time: None,
                    pid: None,
                });
                return;
            }
        };
        let time = sample_time(&sample);
        if !self.in_window(time) {
            self.summary.filtered += 1;
            return;
        }
        let tid = sample_tid(&sample);
        let who = Who {
            pid: tid.map(|_| sample.pid),
            tid,
            cpu: sample_cpu(&sample),
        };
        let Some(format) = sample.format() else {
            let name = sample.name();
            let (system, tracepoint) = name.split_once(':').unwrap_or(("", name));
            let bytes = sample.raw_data().len();
            self.event(system, tracepoint, Named::Malformed, bytes, time, who);
            return;
        };
        let (system, tracepoint) = (format.system_name(), format.name());
        let user = sample.user_data();
        let named = if format.decoding_style() == td::PerfEventDecodingStyle::EventHeader {
            let (s, t) = (system.as_bytes(), tracepoint.as_bytes());
            if self.count_again(s, t, user, time, who.pid) {
                return;
            }
            match eventheader_names(&mut self.context, &mut self.split, tracepoint, user) {
                Ok(named) => named,
                // Well-formed without metadata: counted as a tracepoint.
                Err(td::EventHeaderEnumeratorError::NotSupported) => Named::Plain,
                Err(_) => Named::Malformed,
            }
        } else {
            Named::Plain
        };
        if !self.fields_hold(&named, tracepoint, user, Some(&sample)) {
            self.summary.filtered += 1;
            return;
        }
        self.event_of(system, tracepoint, named, user, time, who);
    }
}

/// Counts `sources` and writes the report to `sink`: the exit status, and a
/// message through `report` for each problem.
/// Which events are counted: those the filters and the time window keep.
#[derive(Clone, Copy)]
pub struct Keep<'a> {
    pub filter: &'a Filter,
    pub window: TimeWindow,
}

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
