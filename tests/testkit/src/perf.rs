//! perf.data files of the real-kernel suite: the user_events samples, decoded
//! as EventHeader events, compared with capture files, counted, or reduced to
//! chosen fields; or the samples of plain tracepoints, decoded through their
//! tracefs formats ([`read_plain`]).
//!
//! Every reader fails when perf recorded that it lost samples
//! (`PERF_RECORD_LOST`, `PERF_RECORD_LOST_SAMPLES`): counts would then be
//! meaningless.

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use eventheader_types::FieldEncoding;
use tracepoint_decode as td;
use tracepoint_perf as tp;

pub use crate::activity_ids::ActivityIds;
use crate::layout::{self, Kind, Value};

mod comparison;
mod event;
mod rows;

pub use comparison::{compare, Comparison};
pub use event::{walk, Walk};
pub use rows::{fields, summary, Row};

const SYSTEM_PREFIX: &str = "user_events:";

/// The common fields that begin the tracefs format of every user_events
/// tracepoint (8 bytes), as the kernel prints them, and the blank line after
/// them: for the formats of tests.
pub const COMMON_FIELDS: &str = "\
    \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
    \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n\
    \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n\
    \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

/// One user_events sample.
pub struct Sample {
    /// The tracepoint name, without `user_events:`.
    pub name: String,
    pub pid: u32,
    pub tid: u32,
    pub time: u64,
    /// The CPU whose buffer held the sample, and the sample's id (perf's
    /// stream id: one per tracepoint and CPU).
    pub cpu: u32,
    pub id: u64,
    /// Where the record starts in the file.
    pub offset: u64,
    pub data: Vec<u8>,
}
/// Calls `each` with the reader and every record of the perf.data file
/// `path`, in `order`; stops at `each`'s first error.
pub fn for_each_record(
    path: &Path,
    order: tp::PerfDataFileEventOrder,
    each: &mut dyn FnMut(&tp::PerfDataFileReader, &td::PerfEventBytes) -> Result<(), String>,
) -> Result<(), String> {
    let shown = path.display();
    let utf8 = path
        .to_str()
        .ok_or_else(|| format!("{shown}: not a UTF-8 path"))?;
    let mut reader = tp::PerfDataFileReader::new();
    reader
        .open_file(utf8, order)
        .map_err(|e| format!("{shown}: open: {e}"))?;
    loop {
        match reader.move_next_event() {
            Err(e) => return Err(format!("{shown}: read event: {e}")),
            Ok(false) => return Ok(()),
            Ok(true) => each(&reader, &reader.current_event())?,
        }
    }
}

/// Where the count of lost events is in the data of a PERF_RECORD_LOST
/// (header, u64 id, u64 lost) or PERF_RECORD_LOST_SAMPLES (header, u64
/// lost) record; None for other records.
pub fn lost_at(ty: td::PerfEventHeaderType) -> Option<usize> {
    match ty {
        td::PerfEventHeaderType::Lost => Some(16),
        td::PerfEventHeaderType::LostSamples => Some(8),
        _ => None,
    }
}

/// Calls `each` with every sample of the user_events system, in time
/// order, and its tracefs format. Fails on any sample that cannot be
/// attributed (missing metadata or format), on `each`'s first error, and
/// when perf lost samples.
fn for_each_sample(
    path: &Path,
    each: &mut dyn FnMut(
        &td::PerfSampleEventInfo,
        &str,
        &td::PerfEventFormat,
    ) -> Result<(), String>,
) -> Result<usize, String> {
    let shown = path.display();
    let mut count = 0;
    let mut lost = 0u64;
    for_each_record(
        path,
        tp::PerfDataFileEventOrder::Time,
        &mut |reader, event| {
            if let Some(at) = lost_at(event.header.ty) {
                let n = event
                    .data
                    .get(at..at + 8)
                    .map(|b| reader.byte_reader().read_u64(b))
                    .unwrap_or(1);
                lost += n.max(1);
                return Ok(());
            }
            if event.header.ty != td::PerfEventHeaderType::Sample {
                return Ok(());
            }
            let info = reader
                .get_sample_event_info(event)
                .map_err(|e| format!("{shown}: sample without usable metadata: {e}"))?;
            let full = info.name();
            let Some(name) = full.strip_prefix(SYSTEM_PREFIX) else {
                return Ok(());
            };
            let format = info
                .format()
                .ok_or_else(|| format!("{shown}: sample {full} has no tracefs format"))?;
            each(&info, name, format).map_err(|e| format!("{shown}: {full}: {e}"))?;
            count += 1;
            Ok(())
        },
    )?;
    if lost != 0 {
        return Err(format!(
            "{shown}: perf lost {lost} samples ({count} recorded): its buffers overflowed"
        ));
    }
    Ok(count)
}

/// All samples of the user_events system, in time order. Fails on any sample
/// that cannot be attributed (missing metadata), on a tracepoint whose format
/// is not the EventHeader layout, and when perf lost samples.
///
/// Each sample's file offset comes from a second pass in file order, which
/// also checks the time-ordered reader: it must return every sample record
/// exactly as often as the file holds it.
pub fn read_samples(path: &Path) -> Result<Vec<Sample>, String> {
    let mut offsets = sample_offsets(path)?;
    let mut out = Vec::new();
    for_each_sample(path, &mut |info, name, format| {
        if format.decoding_style() != td::PerfEventDecodingStyle::EventHeader {
            return Err("tracefs format is not the EventHeader layout".into());
        }
        let key = (info.time, info.cpu, info.id);
        let offset = offsets
            .get_mut(&key)
            .and_then(VecDeque::pop_front)
            .ok_or_else(|| {
                format!(
                    "the time-ordered reader returned the sample of time {}, cpu {}, id {} \
                     more often than the file holds it",
                    key.0, key.1, key.2
                )
            })?;
        out.push(Sample {
            name: name.to_string(),
            pid: info.pid,
            tid: info.tid,
            time: info.time,
            cpu: info.cpu,
            id: info.id,
            offset,
            data: info.user_data().to_vec(),
        });
        Ok(())
    })?;
    if let Some(at) = offsets.values().flatten().min() {
        return Err(format!(
            "{}: the time-ordered reader skipped the sample at file offset {at}",
            path.display()
        ));
    }
    Ok(out)
}

/// The file offsets of samples, in file order, by (time, cpu, id).
type Offsets = HashMap<(u64, u32, u64), VecDeque<u64>>;

/// The file offsets of the user_events samples.
fn sample_offsets(path: &Path) -> Result<Offsets, String> {
    let mut offsets = Offsets::new();
    let mut at = None;
    for_each_record(
        path,
        tp::PerfDataFileEventOrder::File,
        &mut |reader, event| {
            // The event's bytes include the data some records carry after them
            // (tracing data, AUX data): together they are what the file holds.
            let offset = *at.get_or_insert(reader.data_begin_file_pos());
            at = Some(offset + event.data.len() as u64);
            if event.header.ty == td::PerfEventHeaderType::Sample {
                if let Ok(info) = reader.get_sample_event_info(event) {
                    if info.name().starts_with(SYSTEM_PREFIX) {
                        let key = (info.time, info.cpu, info.id);
                        offsets.entry(key).or_default().push_back(offset);
                    }
                }
            }
            Ok(())
        },
    )?;
    Ok(offsets)
}

/// One sample of a plain (non-EventHeader) user_events tracepoint, its
/// fields decoded through the tracefs format perf stored with it.
pub struct PlainSample {
    /// The tracepoint name, without `user_events:`.
    pub name: String,
    pub pid: u32,
    pub tid: u32,
    pub time: u64,
    /// The trace entry as perf recorded it: the common fields, the event's
    /// fields, their `__rel_loc`/`__data_loc` data, then perf's zero padding
    /// (the u32 size and this are a multiple of 8 bytes).
    pub raw: Vec<u8>,
    /// Where the event's own fields start in `raw` (the common fields' size).
    pub fields_at: usize,
    /// The fields after the common ones, in format order, with their values.
    pub fields: Vec<(String, Value)>,
}

impl PlainSample {
    /// The bytes after the common fields.
    pub fn payload(&self) -> &[u8] {
        &self.raw[self.fields_at.min(self.raw.len())..]
    }
}

/// The value of one field of a tracefs format in `raw` (the whole trace
/// entry): integers (no array, 1, 2, 4 or 8 bytes) by their `signed:` flag;
/// everything else (fixed arrays, structs, the data of a `__rel_loc` or
/// `__data_loc` field, the rest of the event) as bytes. Integers and 4-byte
/// `__rel_loc` words are read as [`layout::read`] reads the declared fields:
/// the offset relative to the end of the word (tracepoint_decode 0.5
/// resolves it from the start of the entry, like `__data_loc`).
pub fn plain_field(
    field: &td::PerfFieldFormat,
    raw: &[u8],
    reader: td::PerfByteReader,
) -> Result<Value, String> {
    let size = usize::from(field.size());
    let integer = [
        FieldEncoding::Value8,
        FieldEncoding::Value16,
        FieldEncoding::Value32,
        FieldEncoding::Value64,
    ]
    .contains(&field.deduced_encoding());
    let kind = match field.array() {
        td::PerfFieldArray::None if integer && matches!(size, 1 | 2 | 4 | 8) => {
            if field.signed() == Some(true) {
                Kind::Signed(size)
            } else {
                Kind::Unsigned(size)
            }
        }
        td::PerfFieldArray::RelLoc4 => Kind::RelLoc,
        _ => {
            return field
                .get_field_bytes(raw, reader)
                .map(|b| Value::Bytes(b.to_vec()))
                .ok_or_else(|| {
                    format!(
                        "field {} ({}) beyond the {} bytes of the entry",
                        field.name(),
                        field.field(),
                        raw.len()
                    )
                })
        }
    };
    layout::read(kind, raw, usize::from(field.offset()))
        .map_err(|e| format!("field {} ({}): {e}", field.name(), field.field()))
}

/// All samples of the user_events system, in time order, each decoded
/// through its tracefs format; fails on an EventHeader tracepoint, on a field
/// that does not decode, and when perf lost samples.
pub fn read_plain(path: &Path) -> Result<Vec<PlainSample>, String> {
    let mut out = Vec::new();
    for_each_sample(path, &mut |info, name, format| {
        if format.decoding_style() != td::PerfEventDecodingStyle::TraceEventFormat {
            return Err("an EventHeader tracepoint, not a plain one".into());
        }
        let raw = info.raw_data();
        let mut fields = Vec::new();
        for field in &format.fields()[format.common_field_count()..] {
            let value = plain_field(field, raw, info.byte_reader())?;
            fields.push((field.name().to_string(), value));
        }
        out.push(PlainSample {
            name: name.to_string(),
            pid: info.pid,
            tid: info.tid,
            time: info.time,
            raw: raw.to_vec(),
            fields_at: usize::from(format.common_fields_size()),
            fields,
        });
        Ok(())
    })?;
    Ok(out)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_fields_decode_and_rel_loc_counts_from_the_end_of_its_word() {
        // A user_events format as the kernel prints it, and an entry of it.
        let text = format!(
            "name: t\nID: 1\nformat:\n{COMMON_FIELDS}\
             \tfield:u16 port;\toffset:8;\tsize:2;\tsigned:0;\n\
             \tfield:__rel_loc char[] path;\toffset:10;\tsize:4;\tsigned:1;\n\
             \tfield:s8 x;\toffset:14;\tsize:1;\tsigned:1;\n\
             \tfield:struct p pt;\toffset:15;\tsize:2;\tsigned:1;\n\n\
             print fmt: \"\"\n"
        );
        let format = td::PerfEventFormat::parse(true, "user_events", &text).expect("format");
        // common fields; port 8080; path: 3 bytes, 3 after the word (after x and pt);
        // x = -1; pt = 01 02; "hi\0".
        let mut raw = vec![0u8; 8];
        raw.extend([
            0x90, 0x1f, 0x03, 0x00, 0x03, 0x00, 0xff, 0x01, 0x02, b'h', b'i', 0,
        ]);
        let reader = td::PerfByteReader::new(false);
        let values: Vec<Value> = format.fields()[format.common_field_count()..]
            .iter()
            .map(|f| plain_field(f, &raw, reader).unwrap())
            .collect();
        assert_eq!(
            values,
            vec![
                Value::U(8080),
                Value::Bytes(b"hi\0".to_vec()),
                Value::S(-1),
                Value::Bytes(vec![1, 2]),
            ]
        );
        assert!(plain_field(&format.fields()[5], &raw[..16], reader).is_err());
    }
}
