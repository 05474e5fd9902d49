//! What `stats` counts: one row per (tracepoint, provider, event name), one
//! per process with `--by process`, and the totals. Rows are found by a key
//! built in a reused buffer, so that counting an event of a known name
//! allocates nothing.

use std::collections::HashMap;

/// A time of an event, as decode has it: nanoseconds since 1970 (`wall`)
/// or on the recording's own clock.
pub use crate::decode::view::Time;

/// Count, bytes (the events' own data: what follows the common fields of a
/// perf sample, the event bytes of a capture record) and the first and
/// last time of a set of events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Row {
    pub count: u64,
    pub bytes: u64,
    pub first: Option<Time>,
    pub last: Option<Time>,
}

impl Row {
    fn add(&mut self, bytes: u64, time: Option<Time>) {
        self.count += 1;
        self.bytes += bytes;
        if let Some(t) = time {
            if !matches!(self.first, Some(f) if f.ns <= t.ns) {
                self.first = Some(t);
            }
            if !matches!(self.last, Some(l) if l.ns >= t.ns) {
                self.last = Some(t);
            }
        }
    }

    pub fn merge(&mut self, other: &Row) {
        self.count += other.count;
        self.bytes += other.bytes;
        if let Some(t) = other.first {
            if !matches!(self.first, Some(f) if f.ns <= t.ns) {
                self.first = Some(t);
            }
        }
        if let Some(t) = other.last {
            if !matches!(self.last, Some(l) if l.ns >= t.ns) {
                self.last = Some(t);
            }
        }
    }

    /// Events per second between the first and the last event (None for
    /// fewer than two events or no time between them).
    pub fn rate(&self) -> Option<f64> {
        let (first, last) = (self.first?, self.last?);
        let span = last.ns.checked_sub(first.ns)?;
        (self.count >= 2 && span > 0).then(|| (self.count - 1) as f64 * 1e9 / span as f64)
    }
}

/// The events of one name.
#[derive(Clone, Debug)]
pub struct EventRow {
    /// `system:name` (capture files: `user_events:name`).
    pub tracepoint: String,
    /// The EventHeader provider, or the tracepoint's system.
    pub provider: String,
    /// `Provider:Event` (EventHeader), or the tracepoint's name.
    pub name: String,
    /// The EventHeader level (other tracepoints have none).
    pub level: Option<u8>,
    pub row: Row,
}

/// One process (`--by process`).
#[derive(Clone, Debug, Default)]
pub struct ProcessRow {
    pub pid: u32,
    pub comm: Option<String>,
    pub row: Row,
}

/// One event, as the readers hand it to [`Summary::add`].
pub struct Event<'a> {
    pub system: &'a str,
    pub tracepoint: &'a str,
    pub provider: &'a str,
    /// The event's name (EventHeader: its own name, maybe not UTF-8; others:
    /// the tracepoint's name).
    pub event: &'a [u8],
    pub level: Option<u8>,
    pub bytes: usize,
    pub time: Option<Time>,
    pub pid: Option<u32>,
}

#[derive(Default)]
pub struct Summary {
    rows: HashMap<Vec<u8>, usize>,
    pub events: Vec<EventRow>,
    by_process: Option<HashMap<u32, Row>>,
    /// Process names from COMM records: the thread whose tid is the pid
    /// names the process.
    comms: HashMap<u32, String>,
    pub filtered: u64,
    pub lost: u64,
    pub malformed: u64,
    /// Problems with an input's metadata that did not stop the counting.
    pub notes: Vec<String>,
    key: Vec<u8>,
    /// The row found last, and its key.
    last: Option<usize>,
    last_key: Vec<u8>,
}

impl Summary {
    pub fn new(by_process: bool) -> Summary {
        Summary {
            by_process: by_process.then(HashMap::new),
            ..Summary::default()
        }
    }

    /// Counts `e` in its row, and returns the row.
    pub fn add(&mut self, e: &Event<'_>) -> usize {
        self.key.clear();
        for part in [
            e.system.as_bytes(),
            e.tracepoint.as_bytes(),
            e.provider.as_bytes(),
            e.event,
        ] {
            self.key.extend_from_slice(part);
            self.key.push(0);
        }
        // Events of one name often follow each other: the last row first.
        let i = match self.last {
            Some(i) if self.last_key == self.key => i,
            _ => {
                let i = self.find_or_add(e);
                self.last = Some(i);
                self.last_key.clone_from(&self.key);
                i
            }
        };
        self.add_at(i, e.bytes, e.time, e.pid);
        i
    }

    /// Counts an event of `bytes` at `time` of process `pid` in row `i` (as
    /// [`Self::add`] returned it for an event of the same names).
    pub fn add_at(&mut self, i: usize, bytes: usize, time: Option<Time>, pid: Option<u32>) {
        self.events[i].row.add(bytes as u64, time);
        if let (Some(map), Some(pid)) = (self.by_process.as_mut(), pid) {
            map.entry(pid).or_default().add(bytes as u64, time);
        }
    }

    /// The row of the key in `self.key`, made for the event `e` if new.
    fn find_or_add(&mut self, e: &Event<'_>) -> usize {
        if let Some(&i) = self.rows.get(self.key.as_slice()) {
            return i;
        }
        let name = if e.level.is_some() {
            format!("{}:{}", e.provider, String::from_utf8_lossy(e.event))
        } else {
            String::from_utf8_lossy(e.event).into_owned()
        };
        self.events.push(EventRow {
            tracepoint: format!("{}:{}", e.system, e.tracepoint),
            provider: e.provider.to_string(),
            name,
            level: e.level,
            row: Row::default(),
        });
        self.rows.insert(self.key.clone(), self.events.len() - 1);
        self.events.len() - 1
    }

    /// A COMM record: thread `tid` of process `pid` is named `comm`.
    pub fn comm(&mut self, pid: u32, tid: u32, comm: &[u8]) {
        if pid == tid || !self.comms.contains_key(&pid) {
            self.comms
                .insert(pid, String::from_utf8_lossy(comm).into_owned());
        }
    }

    /// The process name of `pid`, when a COMM record gave one.
    pub fn comm_of(&self, pid: u32) -> Option<&str> {
        self.comms.get(&pid).map(String::as_str)
    }

    /// All events.
    pub fn total(&self) -> Row {
        let mut total = Row::default();
        for e in &self.events {
            total.merge(&e.row);
        }
        total
    }

    /// Rows grouped by `group`, most events first (then by name).
    pub fn grouped<K: Ord + Clone + std::hash::Hash>(
        &self,
        group: impl Fn(&EventRow) -> K,
    ) -> Vec<(K, Row)> {
        let mut map: HashMap<K, Row> = HashMap::new();
        for e in &self.events {
            map.entry(group(e)).or_default().merge(&e.row);
        }
        let mut v: Vec<(K, Row)> = map.into_iter().collect();
        v.sort_by(|a, b| b.1.count.cmp(&a.1.count).then_with(|| a.0.cmp(&b.0)));
        v
    }

    /// The event rows, most events first (then by name and tracepoint).
    pub fn sorted_events(&self) -> Vec<&EventRow> {
        let mut v: Vec<&EventRow> = self.events.iter().collect();
        v.sort_by(|a, b| {
            b.row
                .count
                .cmp(&a.row.count)
                .then_with(|| a.name.cmp(&b.name))
                .then_with(|| a.tracepoint.cmp(&b.tracepoint))
        });
        v
    }

    /// The process rows (`--by process`), most events first, then by pid.
    pub fn processes(&self) -> Option<Vec<ProcessRow>> {
        let map = self.by_process.as_ref()?;
        let mut v: Vec<ProcessRow> = map
            .iter()
            .map(|(&pid, row)| ProcessRow {
                pid,
                comm: self.comm_of(pid).map(str::to_string),
                row: *row,
            })
            .collect();
        v.sort_by(|a, b| b.row.count.cmp(&a.row.count).then(a.pid.cmp(&b.pid)));
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev<'a>(event: &'a [u8], bytes: usize, ns: Option<i64>, pid: u32) -> Event<'a> {
        Event {
            system: "user_events",
            tracepoint: "P_L5K1",
            provider: "P",
            event,
            level: Some(5),
            bytes,
            time: ns.map(|ns| Time { ns, wall: true }),
            pid: Some(pid),
        }
    }

    #[test]
    fn rows_count_bytes_and_times() {
        let mut s = Summary::new(true);
        s.add(&ev(b"A", 10, Some(3_000_000_000), 7));
        s.add(&ev(b"A", 20, Some(1_000_000_000), 7));
        s.add(&ev(b"B", 5, None, 8));
        s.comm(7, 7, b"seven");
        assert_eq!(s.events.len(), 2);
        let a = &s.sorted_events()[0];
        assert_eq!((a.name.as_str(), a.row.count, a.row.bytes), ("P:A", 2, 30));
        assert_eq!(a.row.first.unwrap().ns, 1_000_000_000);
        assert_eq!(a.row.last.unwrap().ns, 3_000_000_000);
        assert_eq!(a.row.rate(), Some(0.5));
        assert_eq!(s.sorted_events()[1].row.rate(), None);
        let total = s.total();
        assert_eq!((total.count, total.bytes), (3, 35));
        let p = s.processes().unwrap();
        assert_eq!(
            (p[0].pid, p[0].comm.as_deref(), p[0].row.count),
            (7, Some("seven"), 2)
        );
        assert_eq!((p[1].pid, p[1].comm.as_deref()), (8, None));
        let levels = s.grouped(|e| e.level);
        assert_eq!(levels, vec![(Some(5), total)]);
    }
}
