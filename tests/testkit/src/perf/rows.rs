//! The user_events samples reduced to what a check needs: counts per
//! tracepoint and process, or one row of chosen fields per sample.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use tracepoint_decode as td;

use super::{read_samples, walk};

/// Decodes every user_events sample (each must be clean EventHeader), checks
/// that a top-level `pid` field equals the sample's pid and tid and that
/// `seq` fields count 0, 1, 2, ... per (tracepoint, pid); returns the number
/// of samples per (tracepoint, pid), sorted.
pub fn summary(perf: &Path) -> Result<BTreeMap<(String, u32), u32>, String> {
    let samples = read_samples(perf)?;
    let mut ctx = td::EventHeaderEnumeratorContext::new();
    let mut errors = Vec::new();
    let mut counts: BTreeMap<(String, u32), u32> = BTreeMap::new();
    for (i, s) in samples.iter().enumerate() {
        let w = match walk(&mut ctx, &s.name, &s.data) {
            Ok(w) => w,
            Err(e) => {
                errors.push(format!("sample {i} ({}): {e}", s.name));
                continue;
            }
        };
        let n = counts.entry((s.name.clone(), s.pid)).or_insert(0);
        if let Some(pid) = w.value(b"pid") {
            if pid != s.pid || pid != s.tid {
                errors.push(format!(
                    "sample {i} ({}): payload pid {pid} but sample pid {} tid {}",
                    s.name, s.pid, s.tid
                ));
            }
        }
        if let Some(seq) = w.value(b"seq") {
            if seq != *n {
                errors.push(format!(
                    "sample {i} ({} pid {}): seq {seq}, expected {}",
                    s.name, s.pid, *n
                ));
            }
        }
        *n += 1;
    }
    if errors.is_empty() {
        Ok(counts)
    } else {
        errors.truncate(50);
        Err(errors.join("\n"))
    }
}

/// One sample reduced to chosen fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub tracepoint: String,
    /// The EventHeader event name; `-` if none, white space as `_`.
    pub event: String,
    pub pid: u32,
    pub tid: u32,
    /// The top-level 4-byte fields asked for, as unsigned numbers.
    pub values: Vec<Option<u32>>,
    /// Where perf recorded the sample: its time, CPU, id (stream id) and
    /// the record's offset in the file.
    pub time: u64,
    pub cpu: u32,
    pub id: u64,
    pub offset: u64,
}

impl Row {
    /// `TRACEPOINT EVENT PID TID V...`, `-` for a missing value.
    pub fn line(&self) -> String {
        let mut line = format!(
            "{} {} {} {}",
            self.tracepoint, self.event, self.pid, self.tid
        );
        for v in &self.values {
            match v {
                Some(v) => write!(line, " {v}").unwrap(),
                None => line.push_str(" -"),
            }
        }
        line
    }

    /// `time T cpu C id I at file offset O`: where to find the record.
    pub fn origin(&self) -> String {
        format!(
            "time {} cpu {} id {} at file offset {}",
            self.time, self.cpu, self.id, self.offset
        )
    }
}

/// Decodes every user_events sample (each must be clean EventHeader) and
/// returns one row per sample, in time order, with the values of `fields`.
pub fn fields(perf: &Path, fields: &[&str]) -> Result<Vec<Row>, String> {
    let samples = read_samples(perf)?;
    let mut ctx = td::EventHeaderEnumeratorContext::new();
    let mut errors = Vec::new();
    let mut rows = Vec::with_capacity(samples.len());
    for (i, s) in samples.iter().enumerate() {
        let w = match walk(&mut ctx, &s.name, &s.data) {
            Ok(w) => w,
            Err(e) => {
                errors.push(format!("sample {i} ({}): {e}", s.name));
                continue;
            }
        };
        // One word per column: an empty name is "-", white space becomes "_".
        let event: String = if w.event.is_empty() {
            "-".into()
        } else {
            w.event
                .chars()
                .map(|c| if c.is_whitespace() { '_' } else { c })
                .collect()
        };
        rows.push(Row {
            tracepoint: s.name.clone(),
            event,
            pid: s.pid,
            tid: s.tid,
            values: fields.iter().map(|f| w.value(f.as_bytes())).collect(),
            time: s.time,
            cpu: s.cpu,
            id: s.id,
            offset: s.offset,
        });
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        errors.truncate(50);
        Err(errors.join("\n"))
    }
}
