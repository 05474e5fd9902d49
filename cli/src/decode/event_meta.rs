//! The metadata of the event being written, gathered for its
//! [`EventView`](super::view::EventView) into buffers reused from one event
//! to the next.

use tracepoint_decode as td;

use super::view::{Span, Time};

type St = td::PerfEventAttrSampleType;

#[derive(Default)]
pub struct EventMeta {
    pub time: Option<Time>,
    pub cpu: Option<u32>,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    pub tracepoint: String,
    provider: String,
    event: String,
    /// Provider and event are the two sides of the tracepoint name's colon
    /// (found when they are asked for) rather than `provider` and `event`.
    names_in_tracepoint: bool,
    pub level: Option<u8>,
    pub keyword: Option<u64>,
    pub opcode: Option<u8>,
    pub activity: Option<[u8; 16]>,
    pub related: Option<[u8; 16]>,
    /// Where the fields are in the event's JSON text.
    pub fields: (usize, usize),
    /// Where each top-level member's key and value are in the event's JSON
    /// text, when its writer noted them (EventHeader events).
    pub spans: Vec<Span>,
    pub spans_noted: bool,
}

/// The time of a perf timestamp: wall-clock when the session knows the
/// offset.
pub fn time_of(session: &td::PerfSessionInfo, time: u64) -> Time {
    if session.clock_offset_known() {
        let ts = session.time_to_time_spec(time);
        let ns = ts
            .seconds()
            .saturating_mul(1_000_000_000)
            .saturating_add(i64::from(ts.nanoseconds()));
        Time { ns, wall: true }
    } else {
        Time {
            ns: i64::try_from(time).unwrap_or(i64::MAX),
            wall: false,
        }
    }
}

impl EventMeta {
    /// Forgets the previous event, and names the tracepoint.
    pub fn start(&mut self, tracepoint: &str) {
        self.time = None;
        self.cpu = None;
        self.pid = None;
        self.tid = None;
        self.tracepoint.clear();
        self.tracepoint.push_str(tracepoint);
        self.provider.clear();
        self.event.clear();
        self.names_in_tracepoint = false;
        self.level = None;
        self.keyword = None;
        self.opcode = None;
        self.activity = None;
        self.related = None;
        self.fields = (0, 0);
        self.spans.clear();
        self.spans_noted = false;
    }

    /// Takes the provider and event from the tracepoint name
    /// `Provider_L..K..`, `system:name` or `name`.
    pub fn names_from_tracepoint(&mut self) {
        self.names_in_tracepoint = true;
    }

    /// The provider and event.
    pub fn names(&self) -> (&str, &str) {
        if !self.names_in_tracepoint {
            return (&self.provider, &self.event);
        }
        self.tracepoint
            .split_once(':')
            .unwrap_or(("", &self.tracepoint))
    }

    /// What a perf sample records: time, cpu, pid, tid; provider and event
    /// from its format.
    pub fn sample(&mut self, s: &td::PerfSampleEventInfo<'_>) {
        self.start(s.name());
        let st = s.sample_type();
        if st.has_flag(St::Time) {
            self.time = Some(time_of(s.session_info, s.time));
        }
        if st.has_flag(St::Cpu) {
            self.cpu = Some(s.cpu);
        }
        if st.has_flag(St::Tid) {
            self.pid = Some(s.pid);
            self.tid = Some(s.tid);
        }
        match s.format() {
            Some(f) if s.name().is_empty() => {
                self.provider.push_str(f.system_name());
                self.event.push_str(f.name());
            }
            _ => self.names_from_tracepoint(),
        }
    }

    /// The identity and header of an EventHeader event.
    pub fn eventheader(&mut self, info: &td::EventHeaderEventInfo<'_, '_>) {
        self.names_in_tracepoint = false;
        self.provider.clear();
        self.provider.push_str(info.provider_name());
        self.event.clear();
        for chunk in info.name_bytes().utf8_chunks() {
            self.event.push_str(chunk.valid());
            self.event
                .extend(chunk.invalid().iter().map(|&b| b as char));
        }
        let h = info.header();
        self.level = Some(h.level.as_int()).filter(|&l| l != 0);
        self.keyword = Some(info.keyword()).filter(|&k| k != 0);
        self.opcode = Some(h.opcode.as_int()).filter(|&o| o != 0);
        let ids = info.activity_id_section();
        self.activity = ids.get(..16).and_then(|b| b.try_into().ok());
        self.related = ids.get(16..32).and_then(|b| b.try_into().ok());
    }
}
