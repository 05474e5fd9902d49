//! perf.data (normal and pipe mode) to JSON, in file order or in time order.
//!
//! Time order sorts the samples of each perf round (the events between two
//! FINISHED_ROUND records, which perf and `collect` write after each pass
//! over the ring buffers) by timestamp, as perf does. The file is read in
//! file order and one round is kept at a time: `tracepoint_perf` 0.5.0's own
//! time order keeps the buffers of every round until the file closes, so its
//! memory grows with the file (a 123 MB file took 125 MB).

use tracepoint_decode as td;
use tracepoint_perf as tp;

use super::{sample, Formatter, InputError, Order, Outcome, Output, Stats};
use crate::progress::Progress;

/// Attributes a sample to its event: by its id, or, when samples carry no id
/// and the file describes a single event, to that event.
fn sample_info<'a>(
    reader: &'a tp::PerfDataFileReader,
    event: &td::PerfEventBytes<'a>,
) -> Result<td::PerfSampleEventInfo<'a>, String> {
    match reader.get_sample_event_info(event) {
        Ok(info) => Ok(info),
        Err(tp::PerfDataFileError::NoData) => {
            let desc = single_event(reader.event_desc_list()).ok_or_else(|| {
                format!(
                    "sample without an event id in a file with {} event descriptions",
                    reader.event_desc_list().len()
                )
            })?;
            sample::parse(
                event.data,
                reader.byte_reader(),
                reader.session_info(),
                desc,
            )
            .map_err(|e| e.to_string())
        }
        Err(e) => Err(format!("cannot attribute sample: {e}")),
    }
}

/// The one event of a file, if its descriptions name a single event (the
/// reader lists an event once per source: the attribute section and the
/// EVENT_DESC header), preferring a description with a tracefs format.
pub fn single_event(descs: &[td::PerfEventDesc]) -> Option<&td::PerfEventDesc> {
    let first = descs.first()?;
    let same = |d: &td::PerfEventDesc| {
        let (a, b) = (d.attr(), first.attr());
        (a.attr_type, a.config, a.sample_type) == (b.attr_type, b.config, b.sample_type)
    };
    if !descs.iter().all(same) {
        return None;
    }
    descs.iter().find(|d| d.format().is_some()).or(Some(first))
}

/// The samples of the current round: their bytes, one after another, and
/// (time, position in the file, start, header) to sort them by.
#[derive(Default)]
struct Round {
    bytes: Vec<u8>,
    index: Vec<(u64, usize, usize, td::PerfEventHeader)>,
}

/// A round larger than this gives its memory back once written.
const ROUND_KEEP: usize = 16 << 20;

struct Emitter<'o> {
    fmt: &'o mut Formatter,
    out: &'o mut Output,
    json: String,
}

impl Emitter<'_> {
    fn sample(
        &mut self,
        reader: &tp::PerfDataFileReader,
        event: &td::PerfEventBytes<'_>,
        stats: &mut Stats,
    ) -> Result<(), InputError> {
        self.json.clear();
        let outcome = match sample_info(reader, event) {
            Ok(info) => self.fmt.perf_sample(&mut self.json, &info),
            Err(why) => {
                self.fmt.unattributed(&mut self.json, event.data, &why);
                Outcome::Malformed
            }
        };
        stats.count(outcome);
        self.out.event(&self.json)?;
        Ok(())
    }

    /// Writes the round's samples in time order (file order among equal times).
    fn flush(
        &mut self,
        reader: &tp::PerfDataFileReader,
        round: &mut Round,
        stats: &mut Stats,
    ) -> Result<(), InputError> {
        round
            .index
            .sort_unstable_by_key(|&(time, seq, _, _)| (time, seq));
        for i in 0..round.index.len() {
            let (_, _, start, header) = round.index[i];
            let data = &round.bytes[start..start + header.size as usize];
            self.sample(reader, &td::PerfEventBytes::new(header, data), stats)?;
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

fn read_u64_at(reader: &tp::PerfDataFileReader, data: &[u8], at: usize) -> u64 {
    data.get(at..at + 8)
        .map_or(0, |b| reader.byte_reader().read_u64(b))
}

pub fn decode(
    path: &str,
    len: u64,
    fmt: &mut Formatter,
    out: &mut Output,
    order: Order,
    progress: bool,
    stats: &mut Stats,
) -> Result<(), InputError> {
    let mut reader = tp::PerfDataFileReader::new();
    reader
        .open_file(path, tp::PerfDataFileEventOrder::File)
        .map_err(|e| InputError::Input(format!("{path}: not a readable perf.data file: {e}")))?;
    let mut progress = Progress::new(path, len, progress);
    let mut done = reader.data_begin_file_pos();
    let mut emit = Emitter {
        fmt,
        out,
        json: String::new(),
    };
    let mut round = Round::default();
    let mut seq = 0usize;
    let result = loop {
        match reader.move_next_event() {
            Ok(true) => {}
            Ok(false) => break Ok(()),
            Err(e) => {
                break Err(InputError::Input(format!(
                    "{path}: malformed event data after {} events: {e}",
                    stats.events + round.index.len() as u64
                )))
            }
        }
        let event = reader.current_event();
        done += event.header.size as u64;
        seq += 1;
        match event.header.ty {
            td::PerfEventHeaderType::Sample if order == Order::File => {
                emit.sample(&reader, &event, stats)?
            }
            td::PerfEventHeaderType::Sample => {
                let time = sample_info(&reader, &event).map_or(0, |i| i.time);
                round
                    .index
                    .push((time, seq, round.bytes.len(), event.header));
                round.bytes.extend_from_slice(event.data);
            }
            td::PerfEventHeaderType::FinishedRound | td::PerfEventHeaderType::FinishedInit => {
                emit.flush(&reader, &mut round, stats)?
            }
            // PERF_RECORD_LOST: u64 id, u64 lost; PERF_RECORD_LOST_SAMPLES: u64 lost.
            td::PerfEventHeaderType::Lost => stats.lost += read_u64_at(&reader, event.data, 16),
            td::PerfEventHeaderType::LostSamples => {
                stats.lost += read_u64_at(&reader, event.data, 8)
            }
            _ => {}
        }
        progress.update(done, stats.events);
    };
    // What was read before the end (or the damage) is still written.
    emit.flush(&reader, &mut round, stats)?;
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(config: u64, with_format: bool) -> td::PerfEventDesc {
        let attr = td::PerfEventAttr {
            attr_type: td::PerfEventAttrType(2),
            config,
            ..Default::default()
        };
        let format = td::PerfEventFormat::parse(
            true,
            "s",
            &format!(
                "name: e\nID: {config}\nformat:\n\tfield:int a;\toffset:0;\tsize:4;\tsigned:1;\n"
            ),
        )
        .map(std::sync::Arc::new);
        td::PerfEventDesc::new(
            attr,
            "s:e".into(),
            if with_format { format.as_ref() } else { None },
            Box::new([]),
        )
    }

    #[test]
    fn one_event_listed_twice_is_one_event() {
        assert!(single_event(&[]).is_none());
        let a = [desc(7, false), desc(7, true)];
        assert!(single_event(&a).unwrap().format().is_some());
        let b = [desc(7, false)];
        assert!(single_event(&b).is_some());
        let c = [desc(7, true), desc(8, true)];
        assert!(single_event(&c).is_none());
    }
}
