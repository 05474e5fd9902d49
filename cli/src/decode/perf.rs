//! perf.data (normal and pipe mode) to JSON, in file order or in time order.
//!
//! Time order sorts the samples of each perf round (the events between two
//! FINISHED_ROUND records, which perf and `collect` write after each pass
//! over the ring buffers) by timestamp, as perf does. The file is read in
//! file order and one round is kept at a time (`tracepoint_perf` 0.5.0's own
//! time order keeps the buffers of every round until the file closes, so its
//! memory grows with the file: a 123 MB file took 125 MB).

use tracepoint_decode as td;

use super::{Formatter, InputError, Order, Outcome, Sink, Stats};
use crate::perfdata::{Events, PerfReader};
use crate::progress::Progress;

/// The samples of the current round: their bytes, one after another, and
/// (time, position in the file, start, length) to sort them by.
#[derive(Default)]
struct Round {
    bytes: Vec<u8>,
    index: Vec<(u64, usize, usize, usize)>,
}

/// A round larger than this gives its memory back once written.
const ROUND_KEEP: usize = 16 << 20;

struct Emitter<'o> {
    fmt: &'o mut Formatter,
    out: &'o mut dyn Sink,
    json: String,
}

impl Emitter<'_> {
    fn sample(
        &mut self,
        events: &Events,
        data: &[u8],
        stats: &mut Stats,
    ) -> Result<(), InputError> {
        self.json.clear();
        let outcome = match events.sample_info(data) {
            Ok(info) => self.fmt.perf_sample(&mut self.json, &info),
            Err(why) => {
                self.fmt.unattributed(&mut self.json, data, &why);
                Outcome::Malformed
            }
        };
        if stats.count(outcome) {
            self.out.event(&self.fmt.view(&self.json))?;
        }
        Ok(())
    }

    /// Writes the round's samples in time order (file order among equal times).
    fn flush(
        &mut self,
        events: &Events,
        round: &mut Round,
        stats: &mut Stats,
    ) -> Result<(), InputError> {
        round
            .index
            .sort_unstable_by_key(|&(time, seq, _, _)| (time, seq));
        for i in 0..round.index.len() {
            let (_, _, start, len) = round.index[i];
            self.sample(events, &round.bytes[start..start + len], stats)?;
        }
        round.index.clear();
        round.bytes.clear();
        if round.bytes.capacity() > ROUND_KEEP {
            round.bytes = Vec::new();
            round.index = Vec::new();
        }
        Ok(())
    }
}

fn read_u64_at(events: &Events, data: &[u8], at: usize) -> u64 {
    data.get(at..at + 8)
        .map_or(0, |b| events.byte_reader().read_u64(b))
}

/// PERF_RECORD_COMM (`data` from its 8-byte header): u32 pid, u32 tid, the
/// name up to a NUL.
fn comm(fmt: &mut Formatter, events: &Events, data: &[u8]) {
    let (Some(tid), Some(name)) = (data.get(12..16), data.get(16..)) else {
        return;
    };
    let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
    let name = String::from_utf8_lossy(name);
    fmt.set_comm(events.byte_reader().read_u32(tid), &name);
}

pub fn decode(
    path: &str,
    mut reader: Box<PerfReader<'_>>,
    mut progress: Progress,
    fmt: &mut Formatter,
    out: &mut dyn Sink,
    order: Order,
    stats: &mut Stats,
) -> Result<(), InputError> {
    let mut emit = Emitter {
        fmt,
        out,
        json: String::new(),
    };
    let mut round = Round::default();
    let mut seq = 0usize;
    let result = loop {
        match reader.move_next() {
            Ok(true) => {}
            Ok(false) => break Ok(()),
            Err(e) => {
                break Err(InputError::Input(format!(
                    "{path}: malformed event data after {}: {e}",
                    crate::plural::count(stats.events + round.index.len() as u64, "event")
                )))
            }
        }
        let event = reader.current();
        let events = reader.events();
        seq += 1;
        match event.header.ty {
            td::PerfEventHeaderType::Sample if order == Order::File => {
                emit.sample(events, event.data, stats)?
            }
            td::PerfEventHeaderType::Sample => {
                let time = events.sample_time(event.data);
                round
                    .index
                    .push((time, seq, round.bytes.len(), event.data.len()));
                round.bytes.extend_from_slice(event.data);
            }
            td::PerfEventHeaderType::FinishedRound | td::PerfEventHeaderType::FinishedInit => {
                emit.flush(events, &mut round, stats)?
            }
            // PERF_RECORD_LOST: u64 id, u64 lost; PERF_RECORD_LOST_SAMPLES: u64 lost.
            td::PerfEventHeaderType::Comm => comm(emit.fmt, events, event.data),
            td::PerfEventHeaderType::Fork => {
                // After the 8-byte header: u32 pid, ppid, tid, ptid.
                let r = events.byte_reader();
                if let (Some(tid), Some(ptid)) = (event.data.get(16..20), event.data.get(20..24)) {
                    emit.fmt.fork(r.read_u32(tid), r.read_u32(ptid));
                }
            }
            td::PerfEventHeaderType::Lost => stats.lost += read_u64_at(events, event.data, 16),
            td::PerfEventHeaderType::LostSamples => {
                stats.lost += read_u64_at(events, event.data, 8)
            }
            _ => {}
        }
        progress.update(reader.position(), stats.events);
    };
    // What was read before the end (or the damage) is still written.
    emit.flush(reader.events(), &mut round, stats)?;
    stats
        .notes
        .extend(std::mem::take(&mut reader.events_mut().notes));
    result
}
