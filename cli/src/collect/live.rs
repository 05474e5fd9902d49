//! `collect --live`: each event decoded as it arrives, one JSON object per
//! line on standard output (as `decode --jsonl`), in timestamp order.
//!
//! Order: the records of a pass over the ring buffers are sorted by
//! timestamp and printed up to the pass's `complete_before` time (every
//! record before it has been read, from every CPU); later ones wait for the
//! next pass. Events are therefore in timestamp order across CPUs, printed
//! at most one pass (the 100 ms poll, plus the time to drain) after they
//! reach a ring buffer. The records waiting are at most one pass's.
//!
//! Lost events appear in the stream where the kernel reported them:
//! `{ "lost": N, "meta": { "time": ..., "cpu": C } }`, and throttling as
//! `{ "throttled": true, "meta": { ... } }` (objects without "n": no event).

use std::io::{self, BufWriter, Write};

use tracepoint_decode as td;

use super::session::{record_cpu, record_time};
use crate::decode::meta::push_u64;
use crate::decode::time::push_time_of;
use crate::decode::{Formatter, Outcome, Stats};
use crate::filter::Filter;
use crate::perfdata::Events;

const PERF_RECORD_LOST: u32 = 2;
const PERF_RECORD_THROTTLE: u32 = 5;
const PERF_RECORD_SAMPLE: u32 = 9;
const PERF_RECORD_LOST_SAMPLES: u32 = 13;

pub struct Live {
    events: Events,
    fmt: Formatter,
    out: BufWriter<Box<dyn Write>>,
    /// Records waiting for their time to be complete: their bytes, and
    /// (time, arrival, start, length) to sort them by.
    held: Vec<u8>,
    index: Vec<(u64, u64, usize, usize)>,
    arrival: u64,
    json: String,
    pub stats: Stats,
}

impl Live {
    /// Prints to `out` (standard output).
    pub fn new(
        events: Events,
        meta: td::PerfMetaOptions,
        filter: Filter,
        out: Box<dyn Write>,
    ) -> Live {
        Live {
            events,
            fmt: Formatter::new(meta, filter),
            out: BufWriter::with_capacity(1 << 16, out),
            held: Vec::new(),
            index: Vec::new(),
            arrival: 0,
            json: String::new(),
            stats: Stats::default(),
        }
    }

    /// Takes the records of a pass (`batch`) and prints, in timestamp
    /// order, those before `complete_before`. An error: standard output is
    /// gone.
    pub fn pass(&mut self, batch: &[u8], complete_before: u64) -> io::Result<()> {
        let mut at = 0;
        while at + 8 <= batch.len() {
            let size = usize::from(u16::from_ne_bytes([batch[at + 6], batch[at + 7]]));
            if size < 8 || at + size > batch.len() {
                break;
            }
            let rec = &batch[at..at + size];
            let time = record_time(rec).unwrap_or(0);
            self.index.push((time, self.arrival, self.held.len(), size));
            self.arrival += 1;
            self.held.extend_from_slice(rec);
            at += size;
        }
        self.index.sort_unstable_by_key(|&(t, a, _, _)| (t, a));
        let ready = self
            .index
            .partition_point(|&(t, _, _, _)| t < complete_before);
        for i in 0..ready {
            let (_, _, start, len) = self.index[i];
            let rec = &self.held[start..start + len];
            emit(
                &self.events,
                &mut self.fmt,
                &mut self.json,
                &mut self.stats,
                rec,
            );
            if !self.json.is_empty() {
                self.out.write_all(self.json.as_bytes())?;
                self.out.write_all(b"\n")?;
            }
        }
        // Keep the rest, compacted.
        let rest: Vec<(u64, u64, usize, usize)> = self.index.drain(..).skip(ready).collect();
        let mut held = Vec::with_capacity(rest.iter().map(|r| r.3).sum());
        for (t, a, start, len) in rest {
            self.index.push((t, a, held.len(), len));
            held.extend_from_slice(&self.held[start..start + len]);
        }
        self.held = held;
        self.out.flush()
    }

    /// Prints whatever still waits.
    pub fn finish(&mut self) -> io::Result<()> {
        self.pass(&[], u64::MAX)
    }
}

/// Writes one record's line into `json` (empty: nothing to print).
fn emit(events: &Events, fmt: &mut Formatter, json: &mut String, stats: &mut Stats, rec: &[u8]) {
    json.clear();
    let ty = u32::from_ne_bytes([rec[0], rec[1], rec[2], rec[3]]);
    let u64_at = |at: usize| {
        rec.get(at..at + 8)
            .map_or(0, |b| u64::from_ne_bytes(b.try_into().expect("8 bytes")))
    };
    match ty {
        PERF_RECORD_SAMPLE => {
            let outcome = match events.sample_info(rec) {
                Ok(info) => fmt.perf_sample(json, &info),
                Err(why) => {
                    fmt.unattributed(json, rec, &why);
                    Outcome::Malformed
                }
            };
            if !stats.count(outcome) {
                json.clear();
            }
        }
        PERF_RECORD_LOST | PERF_RECORD_LOST_SAMPLES => {
            let lost = u64_at(if ty == PERF_RECORD_LOST { 16 } else { 8 });
            stats.lost += lost;
            json.push_str("{ \"lost\": ");
            push_u64(json, lost);
            push_record_meta(json, events, rec);
        }
        PERF_RECORD_THROTTLE => {
            json.push_str("{ \"throttled\": true");
            push_record_meta(json, events, rec);
        }
        _ => {}
    }
}

/// `, "meta": { "time": ..., "cpu": C } }` of a non-sample record.
fn push_record_meta(json: &mut String, events: &Events, rec: &[u8]) {
    json.push_str(", \"meta\": { \"time\": ");
    let time = record_time(rec).unwrap_or(0);
    if !push_time_of(json, events.session(), time) {
        push_u64(json, time);
    }
    json.push_str(", \"cpu\": ");
    push_u64(json, record_cpu(rec).unwrap_or(0).into());
    json.push_str(" } }");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::SharedBuf;
    use std::cell::RefCell;
    use std::rc::Rc;

    const ID: u64 = 77;

    /// A sample as collect's events write them (identifier, pid/tid, time,
    /// cpu, raw): cli_writer's Burst event with i = `i`.
    fn sample(time: u64, cpu: u64, i: u32) -> Vec<u8> {
        let (_, event) = testkit::synth::burst_records(i + 1).pop().unwrap();
        let mut raw = vec![0u8; 8]; // common fields
        raw[..2].copy_from_slice(&12u16.to_ne_bytes());
        raw.extend_from_slice(&event);
        let padded = (4 + raw.len()).div_ceil(8) * 8 - 4;
        let size = 8 + 32 + 4 + padded;
        let mut r = 9u32.to_ne_bytes().to_vec();
        r.extend_from_slice(&0u16.to_ne_bytes());
        r.extend_from_slice(&(size as u16).to_ne_bytes());
        for v in [ID, 5 | (5 << 32), time, cpu] {
            r.extend_from_slice(&v.to_ne_bytes());
        }
        r.extend_from_slice(&(padded as u32).to_ne_bytes());
        r.extend_from_slice(&raw);
        r.resize(size, 0);
        r
    }

    /// A PERF_RECORD_LOST of `n` at `time` on `cpu` (sample_id trailer).
    fn lost(time: u64, cpu: u64, n: u64) -> Vec<u8> {
        let mut r = 2u32.to_ne_bytes().to_vec();
        r.extend_from_slice(&0u16.to_ne_bytes());
        r.extend_from_slice(&56u16.to_ne_bytes());
        for v in [ID, n, 5 | (5 << 32), time, cpu, ID] {
            r.extend_from_slice(&v.to_ne_bytes());
        }
        r
    }

    #[test]
    fn passes_print_in_time_order_up_to_their_complete_time() {
        type St = td::PerfEventAttrSampleType;
        let mut events = Events::new(td::PerfByteReader::new(cfg!(target_endian = "big")));
        let attr = td::PerfEventAttr {
            attr_type: td::PerfEventAttrType::Tracepoint,
            config: 12,
            sample_type: td::PerfEventAttrSampleType(
                St::Identifier.0 | St::Tid.0 | St::Time.0 | St::Cpu.0 | St::Raw.0,
            ),
            ..Default::default()
        };
        events.add(attr, "user_events:CliBurst_L5K1".into(), vec![ID]);
        let format = testkit::synth::eventheader_format("CliBurst_L5K1", 12);
        events.add_format("user_events", format.as_bytes()).unwrap();
        let printed = Rc::new(RefCell::new(Vec::new()));
        let mut live = Live::new(
            events,
            td::PerfMetaOptions::Cpu,
            Filter::default(),
            Box::new(SharedBuf(Rc::clone(&printed))),
        );
        let text = |p: &Rc<RefCell<Vec<u8>>>| String::from_utf8(p.borrow().clone()).unwrap();
        // Pass 1, CPU 0's ring then CPU 1's; complete up to time 100.
        let mut batch = [
            sample(10, 0, 0),
            sample(120, 0, 1),
            sample(50, 1, 2),
            lost(60, 1, 3),
        ]
        .concat();
        live.pass(&batch, 100).unwrap();
        assert_eq!(
            text(&printed),
            "{ \"n\": \"CliBurst:Burst\", \"i\": 0, \"meta\": { \"cpu\": 0 } }\n\
             { \"n\": \"CliBurst:Burst\", \"i\": 2, \"meta\": { \"cpu\": 1 } }\n\
             { \"lost\": 3, \"meta\": { \"time\": 60, \"cpu\": 1 } }\n"
        );
        printed.borrow_mut().clear();
        // Pass 2: an event at 110 arrives after the one held at 120.
        batch = sample(110, 1, 3);
        live.pass(&batch, 200).unwrap();
        live.finish().unwrap();
        let t = text(&printed);
        let i3 = t.find("\"i\": 3").unwrap();
        let i1 = t.find("\"i\": 1").unwrap();
        assert!(i3 < i1, "{t}");
        assert_eq!(live.stats.events, 4);
        assert_eq!(live.stats.lost, 3);
    }
}
