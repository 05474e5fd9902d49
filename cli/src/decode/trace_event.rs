//! `decode --format trace-event`: the Trace Event Format's JSON object form
//! (`{"traceEvents": [...], ...}`), which Perfetto's UI, chrome://tracing
//! and speedscope open.
//!
//! - A thread's name (`M` `thread_name`) and its process's (`process_name`)
//!   come from the recording's process names, once per thread.
//! - An activity (an event with opcode start and an activity id, through the
//!   event with opcode stop and the same id) is one complete slice (`X`)
//!   named after its start event; its arguments are the start and stop
//!   events' fields, its activity id and its related (parent) id.
//! - Every other event is an instant event (`i`, thread scope) with its
//!   fields as arguments.
//!
//! Slices nest on every track. A slice's track is decided when it closes,
//! and its `X` event is written then, with its start time: an activity that
//! starts and stops on one thread and is the innermost open activity of
//! that thread when it stops goes on that thread. Every such slice closed
//! while it was the innermost, so two slices of one thread either nest or do
//! not overlap. Any other activity (it stops on another thread, or an
//! activity started inside it is still open when it stops) goes on a
//! virtual thread of its own process named after it; a virtual thread is
//! reused by a later activity of the same name that starts after its last
//! slice ended, so the slices of a virtual thread never overlap. Speedscope
//! reads only `B`/`E`/`X` and Perfetto all of them: `X` slices placed this
//! way draw correctly in both, and nothing waits in memory but the open
//! activities (with their start fields) and one entry per thread.
//!
//! A start whose activity never stops (or starts again before it stops) and
//! a stop without a start are kept as instant events whose arguments say
//! so (the first at the time it is found out, the end of the input or the
//! second start, with its own time as `startTs`), and counted in the [`Summary`] (written at the end as `otherData`).
//!
//! Times are microseconds from the first event's time, with three decimals
//! (nanoseconds); the first event's time is `otherData.originNs`. An input
//! without times (capture files) counts one microsecond per event. Several
//! inputs are laid end to end: each input's times count from its own first
//! event, starting where the previous input's last event was (their clocks
//! need not be comparable), so that every track stays in time order. An
//! event earlier than its input's first (file order) is placed at it.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::json::push_json_str;
use super::meta::push_u64;

mod output;
pub use output::TraceEventOutput;

/// Opcodes of EventHeader (and ETW) activities.
pub const OPCODE_START: u8 = 1;
pub const OPCODE_STOP: u8 = 2;

/// Virtual threads are numbered above the largest Linux thread id (2^22).
const FIRST_VIRTUAL_TID: u32 = (1 << 22) + 1;

/// What the converter needs of one decoded event.
#[derive(Clone, Copy, Debug, Default)]
pub struct Event<'a> {
    /// Nanoseconds on the recording's clock.
    pub time_ns: Option<u64>,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    /// The process name (comm) of the thread, if the recording has it.
    pub comm: Option<&'a str>,
    /// `Provider:Event`, or the tracepoint's name.
    pub name: &'a str,
    pub opcode: u8,
    pub activity: Option<[u8; 16]>,
    pub related: Option<[u8; 16]>,
    /// The event's fields as one JSON object text (`{ ... }`).
    pub fields: &'a str,
}

/// Counts for the user (stderr) and for `otherData`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub slices: u64,
    pub instants: u64,
    pub virtual_threads: u64,
    pub unmatched_starts: u64,
    pub unmatched_stops: u64,
}

impl Summary {
    /// The line for stderr when something did not match, else `None`.
    pub fn unmatched_line(&self) -> Option<String> {
        (self.unmatched_starts + self.unmatched_stops > 0).then(|| {
            format!(
                "trace-event: {} activity start(s) without a stop, {} stop(s) without a start (written as instant events with \"unmatched\" in their args)",
                self.unmatched_starts, self.unmatched_stops
            )
        })
    }
}

/// An activity between its start and its stop.
struct Open {
    name: String,
    start_ns: u64,
    pid: u32,
    tid: u32,
    related: Option<[u8; 16]>,
    start_fields: String,
}

/// A virtual thread: its id and the end of its last slice.
struct Virtual {
    tid: u32,
    end_ns: u64,
}

/// The streaming converter: [`Self::begin`], [`Self::event`] per event,
/// [`Self::finish`]; each appends JSON text to `out`.
#[derive(Default)]
pub struct TraceEvents {
    open: HashMap<[u8; 16], Open>,
    /// Per thread, its open activities, outermost first.
    stacks: HashMap<(u32, u32), Vec<[u8; 16]>>,
    /// Per process and activity name, its virtual threads.
    virtuals: HashMap<(u32, String), Vec<Virtual>>,
    next_virtual: u32,
    /// Threads and processes already named.
    named_threads: HashMap<(u32, u32), ()>,
    named_processes: HashMap<u32, ()>,
    /// The first input's first time (for `otherData`).
    origin_ns: Option<u64>,
    /// The current input's first time, and where it is on the output's
    /// time line.
    input_origin: Option<u64>,
    base_ns: u64,
    /// Events seen in this input (the time of an input without times).
    ordinal: u64,
    /// The latest time written, on the output's time line.
    last_ns: u64,
    any: bool,
    summary: Summary,
}

fn push_uuid(out: &mut String, b: &[u8; 16]) {
    out.push('"');
    for (i, byte) in b.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        let _ = write!(out, "{byte:02x}");
    }
    out.push('"');
}

/// Microseconds with three decimals (signed: a duration is a difference).
fn push_us(out: &mut String, ns: i128) {
    if ns < 0 {
        out.push('-');
    }
    let a = ns.unsigned_abs();
    match u64::try_from(a / 1000) {
        Ok(us) => push_u64(out, us),
        Err(_) => {
            let _ = write!(out, "{}", a / 1000);
        }
    }
    let frac = (a % 1000) as u16;
    out.push('.');
    for d in [frac / 100, frac / 10 % 10, frac % 10] {
        out.push(char::from(b'0' + d as u8));
    }
}

/// The category: the provider of `Provider:Event`, else the whole name.
fn category(name: &str) -> &str {
    name.split_once(':').map_or(name, |(p, _)| p)
}

impl TraceEvents {
    pub fn new() -> TraceEvents {
        TraceEvents {
            next_virtual: FIRST_VIRTUAL_TID,
            ..TraceEvents::default()
        }
    }

    pub fn begin(&mut self, out: &mut String) {
        out.push_str("{\"traceEvents\":[");
    }

    /// Starts one trace event object (with the separator before it).
    fn open_object(&mut self, out: &mut String, ph: char, name: &str, pid: u32, tid: u32) {
        out.push_str(if self.any { ",\n" } else { "\n" });
        self.any = true;
        out.push_str("{\"ph\":\"");
        out.push(ph);
        out.push_str("\",\"pid\":");
        push_u64(out, pid.into());
        out.push_str(",\"tid\":");
        push_u64(out, tid.into());
        out.push_str(",\"name\":");
        push_json_str(out, name);
    }

    /// Starts an input: its times follow the previous input's.
    pub fn begin_input(&mut self) {
        self.input_origin = None;
        self.base_ns = self.last_ns;
        self.ordinal = 0;
    }

    fn push_ts(&self, out: &mut String, ns: u64) {
        out.push_str(",\"ts\":");
        push_us(out, i128::from(ns));
    }

    fn name_thread(&mut self, out: &mut String, pid: u32, tid: u32, name: &str) {
        if self.named_threads.insert((pid, tid), ()).is_none() {
            self.open_object(out, 'M', "thread_name", pid, tid);
            out.push_str(",\"args\":{\"name\":");
            push_json_str(out, name);
            out.push_str("}}");
        }
    }

    fn name_process(&mut self, out: &mut String, pid: u32, name: &str) {
        if self.named_processes.insert(pid, ()).is_none() {
            self.open_object(out, 'M', "process_name", pid, pid);
            out.push_str(",\"args\":{\"name\":");
            push_json_str(out, name);
            out.push_str("}}");
        }
    }

    /// Converts one event.
    pub fn event(&mut self, out: &mut String, e: &Event<'_>) {
        let raw = match e.time_ns {
            Some(t) => t,
            None => self.ordinal * 1000,
        };
        self.ordinal += 1;
        self.origin_ns.get_or_insert(raw);
        let origin = *self.input_origin.get_or_insert(raw);
        let ns = self.base_ns.saturating_add(raw.saturating_sub(origin));
        self.last_ns = self.last_ns.max(ns);
        let (pid, tid) = (e.pid.unwrap_or(0), e.tid.or(e.pid).unwrap_or(0));
        if let Some(comm) = e.comm {
            if tid == pid {
                self.name_process(out, pid, comm);
            }
            self.name_thread(out, pid, tid, comm);
        }
        let id = e.activity.filter(|a| *a != [0; 16]);
        match (e.opcode, id) {
            (OPCODE_START, Some(id)) => self.start(out, e, id, ns, pid, tid),
            (OPCODE_STOP, Some(id)) => self.stop(out, e, id, ns, pid, tid),
            _ => self.instant(out, e.name, ns, pid, tid, |out| out.push_str(e.fields)),
        }
    }

    /// An instant event with the arguments `args` writes.
    fn instant(
        &mut self,
        out: &mut String,
        name: &str,
        ns: u64,
        pid: u32,
        tid: u32,
        args: impl FnOnce(&mut String),
    ) {
        self.summary.instants += 1;
        self.open_object(out, 'i', name, pid, tid);
        out.push_str(",\"cat\":");
        push_json_str(out, category(name));
        out.push_str(",\"s\":\"t\"");
        self.push_ts(out, ns);
        out.push_str(",\"args\":");
        args(out);
        out.push('}');
    }

    fn start(
        &mut self,
        out: &mut String,
        e: &Event<'_>,
        id: [u8; 16],
        ns: u64,
        pid: u32,
        tid: u32,
    ) {
        let open = Open {
            name: e.name.to_string(),
            start_ns: ns,
            pid,
            tid,
            related: e.related,
            start_fields: e.fields.to_string(),
        };
        if let Some(earlier) = self.open.insert(id, open) {
            self.unmatched_start(out, id, earlier, ns);
        }
        self.stacks.entry((pid, tid)).or_default().push(id);
    }

    /// Removes `id` from its start thread's stack: whether it was the
    /// innermost open activity there.
    fn unstack(&mut self, id: [u8; 16], pid: u32, tid: u32) -> bool {
        let Some(stack) = self.stacks.get_mut(&(pid, tid)) else {
            return false;
        };
        let innermost = stack.last() == Some(&id);
        if let Some(i) = stack.iter().rposition(|x| *x == id) {
            stack.remove(i);
        }
        if stack.is_empty() {
            self.stacks.remove(&(pid, tid));
        }
        innermost
    }

    /// An activity found without a stop at `now_ns` (it starts again, or
    /// the input ends): an instant event at `now_ns`, which keeps its track
    /// in time order, with the start's time in its arguments.
    fn unmatched_start(&mut self, out: &mut String, id: [u8; 16], o: Open, now_ns: u64) {
        self.unstack(id, o.pid, o.tid);
        self.summary.unmatched_starts += 1;
        self.instant(out, &o.name, now_ns, o.pid, o.tid, |out| {
            out.push_str("{\"unmatched\":\"start without a stop\",\"startTs\":");
            push_us(out, i128::from(o.start_ns));
            out.push_str(",\"activity\":");
            push_uuid(out, &id);
            push_related(out, o.related);
            out.push_str(",\"start\":");
            out.push_str(&o.start_fields);
            out.push('}');
        });
    }

    fn stop(&mut self, out: &mut String, e: &Event<'_>, id: [u8; 16], ns: u64, pid: u32, tid: u32) {
        let Some(o) = self.open.remove(&id) else {
            self.summary.unmatched_stops += 1;
            self.instant(out, e.name, ns, pid, tid, |out| {
                out.push_str("{\"unmatched\":\"stop without a start\",\"activity\":");
                push_uuid(out, &id);
                out.push_str(",\"stop\":");
                out.push_str(e.fields);
                out.push('}');
            });
            return;
        };
        let innermost = self.unstack(id, o.pid, o.tid);
        let end_ns = ns.max(o.start_ns);
        let track = if innermost && (o.pid, o.tid) == (pid, tid) {
            o.tid
        } else {
            self.virtual_thread(out, &o, end_ns)
        };
        self.summary.slices += 1;
        self.open_object(out, 'X', &o.name, o.pid, track);
        out.push_str(",\"cat\":");
        push_json_str(out, category(&o.name));
        self.push_ts(out, o.start_ns);
        out.push_str(",\"dur\":");
        push_us(out, i128::from(end_ns - o.start_ns));
        out.push_str(",\"args\":{\"activity\":");
        push_uuid(out, &id);
        push_related(out, o.related);
        if let Some(parent) = o.related.and_then(|r| self.open.get(&r)) {
            out.push_str(",\"parent\":");
            push_json_str(out, &parent.name);
        }
        out.push_str(",\"start\":");
        out.push_str(&o.start_fields);
        out.push_str(",\"stop\":");
        out.push_str(e.fields);
        out.push_str("}}");
    }

    /// The virtual thread for `o` (ending at `end_ns`): one of its name
    /// whose last slice ended by `o`'s start, or a new one, named.
    fn virtual_thread(&mut self, out: &mut String, o: &Open, end_ns: u64) -> u32 {
        let list = self.virtuals.entry((o.pid, o.name.clone())).or_default();
        if let Some(v) = list.iter_mut().find(|v| v.end_ns <= o.start_ns) {
            v.end_ns = end_ns;
            return v.tid;
        }
        let tid = self.next_virtual;
        self.next_virtual = self.next_virtual.wrapping_add(1).max(FIRST_VIRTUAL_TID);
        list.push(Virtual { tid, end_ns });
        self.summary.virtual_threads += 1;
        self.name_thread(out, o.pid, tid, &o.name);
        tid
    }

    /// Writes the activities still open as unmatched starts and the end of
    /// the document (with the summary as `otherData`).
    pub fn finish(&mut self, out: &mut String) -> Summary {
        let mut left: Vec<([u8; 16], Open)> = self.open.drain().collect();
        left.sort_by_key(|(id, o)| (o.start_ns, *id));
        for (id, o) in left {
            self.unmatched_start(out, id, o, self.last_ns);
        }
        let s = &self.summary;
        let _ = write!(
            out,
            "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{{\"originNs\":\"{}\",\"slices\":{},\"instants\":{},\"virtualThreads\":{},\"unmatchedStarts\":{},\"unmatchedStops\":{}}}}}\n",
            self.origin_ns.unwrap_or(0),
            s.slices,
            s.instants,
            s.virtual_threads,
            s.unmatched_starts,
            s.unmatched_stops
        );
        self.summary.clone()
    }
}

fn push_related(out: &mut String, related: Option<[u8; 16]>) {
    if let Some(r) = related.filter(|r| *r != [0; 16]) {
        out.push_str(",\"related\":");
        push_uuid(out, &r);
    }
}

#[cfg(test)]
mod tests;
