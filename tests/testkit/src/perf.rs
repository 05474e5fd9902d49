//! perf.data files of the real-kernel suite: the user_events samples, decoded
//! as EventHeader events, compared with capture files, counted, or reduced to
//! chosen fields; or the samples of plain tracepoints, decoded through their
//! tracefs formats ([`read_plain`]).
//!
//! Every reader fails when perf recorded that it lost samples
//! (`PERF_RECORD_LOST`, `PERF_RECORD_LOST_SAMPLES`): counts would then be
//! meaningless.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Write as _;
use std::path::Path;

use eventheader_types::FieldEncoding;
use tracepoint_decode as td;
use tracepoint_perf as tp;

pub use crate::activity_ids::ActivityIds;
use crate::activity_ids::IdMap;
use crate::capture;
use crate::layout::{self, hex, Kind, Value};

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

/// What walking an event found: its EventHeader event name and its top-level
/// 4-byte fields.
#[derive(Default)]
pub struct Walk {
    pub event: String,
    pub values: Vec<(Vec<u8>, u32)>,
    /// The activity id and the related activity id, those the event has.
    pub ids: Vec<[u8; 16]>,
}

impl Walk {
    /// The value of the top-level 4-byte field `name`.
    pub fn value(&self, name: &[u8]) -> Option<u32> {
        self.values
            .iter()
            .find(|(n, _)| n.as_slice() == name)
            .map(|&(_, v)| v)
    }
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

/// Decodes one event completely; Err describes the first problem.
pub fn walk(
    ctx: &mut td::EventHeaderEnumeratorContext,
    name: &str,
    data: &[u8],
) -> Result<Walk, String> {
    let mut e = match ctx.enumerate_with_name_and_data(
        name,
        data,
        td::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
    ) {
        Ok(e) => e,
        Err(td::EventHeaderEnumeratorError::NotSupported) => return check_no_metadata(name, data),
        Err(err) => return Err(format!("not an EventHeader event: {err}")),
    };
    let info = e.event_info();
    let mut w = Walk {
        event: String::from_utf8_lossy(info.name_bytes()).into_owned(),
        ids: [info.activity_id(), info.related_activity_id()]
            .into_iter()
            .flatten()
            .copied()
            .collect(),
        ..Walk::default()
    };
    let mut depth = 0i32;
    while e.move_next() {
        match e.state() {
            td::EventHeaderEnumeratorState::StructBegin
            | td::EventHeaderEnumeratorState::ArrayBegin => depth += 1,
            td::EventHeaderEnumeratorState::StructEnd
            | td::EventHeaderEnumeratorState::ArrayEnd => depth -= 1,
            td::EventHeaderEnumeratorState::Value if depth == 0 => {
                let item = e.item_info();
                let value = item.value();
                if value.bytes().len() == 4 {
                    w.values.push((item.name_bytes().to_vec(), value.to_u32(0)));
                }
            }
            _ => {}
        }
    }
    if e.state() != td::EventHeaderEnumeratorState::AfterLastItem {
        return Err(format!("decoding stopped with {}", e.last_error()));
    }
    Ok(w)
}

/// The decoder refuses events without a metadata extension (they need an
/// external manifest). Such an event is still well formed when its header is
/// valid, its level matches the tracepoint name and its extension chain (if
/// any) is intact and holds no metadata.
fn check_no_metadata(name: &str, data: &[u8]) -> Result<Walk, String> {
    let bad = |why: &str| Err(format!("not an EventHeader event: {why}"));
    if data.len() < 8 {
        return bad("shorter than the 8-byte header");
    }
    if data[0] & !0x07 != 0 {
        return bad("unknown header flags");
    }
    let level = name
        .rfind("_L")
        .and_then(|i| {
            let rest = &name[i + 2..];
            let end = rest.find('K')?;
            u8::from_str_radix(&rest[..end], 16).ok()
        })
        .ok_or("tracepoint name has no _L<level>K<keyword>")?;
    if data[7] != level {
        return bad("header level differs from the tracepoint name's level");
    }
    let mut pos = 8usize;
    let mut more = data[0] & 0x04 != 0;
    while more {
        if data.len() - pos < 4 {
            return bad("truncated extension");
        }
        let size = u16::from_le_bytes([data[pos], data[pos + 1]]) as usize;
        let kind = u16::from_le_bytes([data[pos + 2], data[pos + 3]]);
        if kind & 0x7fff == 1 || kind & 0x7fff == 0 || data.len() - pos - 4 < size {
            return bad("undecodable extension chain");
        }
        pos += 4 + size;
        more = kind & 0x8000 != 0;
    }
    Ok(Walk::default())
}

/// The outcome of [`compare`].
pub struct Comparison {
    pub samples: usize,
    pub records: usize,
    pub identical: usize,
    pub with_reference: bool,
    /// With [`ActivityIds::Random`]: how many activity ids of the capture
    /// stood for other ids in perf's samples, and how many for themselves.
    pub random_ids: Option<(usize, usize)>,
    /// Empty when every check held.
    pub errors: Vec<String>,
}

impl Comparison {
    /// `compare: N perf samples, M capture records, K byte-identical[, capture == reference]`.
    pub fn summary(&self) -> String {
        let ids = match self.random_ids {
            Some((random, same)) => format!(
                " once its {random} random activity ids are replaced, one to one \
                 ({same} given ids the same in both)"
            ),
            None => String::new(),
        };
        format!(
            "compare: {} perf samples, {} capture records, {} byte-identical{ids}{}",
            self.samples,
            self.records,
            self.identical,
            if self.with_reference {
                ", capture == reference"
            } else {
                ""
            }
        )
    }
}

/// Every user_events sample of `perf`, in time order, must carry exactly the
/// bytes of the capture record at the same position (same tracepoint name;
/// only the kernel's zero padding to 8-byte alignment may follow), and both
/// must decode cleanly as EventHeader events; activity ids as `ids` says.
/// With `reference`, the capture file must also equal that capture-format
/// file record for record.
pub fn compare(
    perf: &Path,
    capture: &Path,
    reference: Option<&Path>,
    ids: ActivityIds,
) -> Result<Comparison, String> {
    let samples = read_samples(perf)?;
    let recs = capture::read(capture)?;
    let mut ctx = td::EventHeaderEnumeratorContext::new();
    let mut errors = Vec::new();
    if let Some(reference) = reference {
        let refs = capture::read(reference)?;
        if refs.len() != recs.len() {
            errors.push(format!(
                "capture has {} records, reference {} has {}",
                recs.len(),
                reference.display(),
                refs.len()
            ));
        }
        for (i, (c, r)) in recs.iter().zip(refs.iter()).enumerate() {
            if c != r {
                errors.push(format!(
                    "capture record {i} differs from the reference: {} {} vs {} {}",
                    c.name,
                    hex(&c.event),
                    r.name,
                    hex(&r.event)
                ));
            }
        }
    }
    if samples.len() != recs.len() {
        errors.push(format!(
            "perf recorded {} user_events samples, capture has {} records",
            samples.len(),
            recs.len()
        ));
    }
    let mut identical = 0usize;
    let mut last_time = 0u64;
    let mut id_map = IdMap::default();
    for (i, (s, r)) in samples.iter().zip(recs.iter()).enumerate() {
        if s.time < last_time {
            errors.push(format!("sample {i}: time order broken"));
        }
        last_time = s.time;
        let capture_walk = walk(&mut ctx, &r.name, &r.event)
            .inspect_err(|e| errors.push(format!("capture record {i} ({}): {e}", r.name)));
        let sample_walk = walk(&mut ctx, &s.name, &s.data)
            .inspect_err(|e| errors.push(format!("perf sample {i} ({}): {e}", s.name)));
        let mut expected = r.event.clone();
        if let (ActivityIds::Random, Ok(cw), Ok(sw)) = (ids, &capture_walk, &sample_walk) {
            match id_map.add(&cw.ids, &sw.ids) {
                Ok(()) => expected = id_map.apply(&r.event),
                Err(e) => errors.push(format!("event {i} ({}): {e}", r.name)),
            }
        }
        let pad_ok = s.data.len() >= expected.len()
            && s.data.len() - expected.len() < 8
            && s.data[expected.len()..].iter().all(|&b| b == 0);
        if s.name == r.name && pad_ok && s.data[..expected.len()] == expected[..] {
            identical += 1;
        } else if errors.len() < 20 {
            errors.push(format!(
                "event {i}: perf {} {} != capture {} {}",
                s.name,
                hex(&s.data),
                r.name,
                hex(&r.event)
            ));
        }
    }
    // Every mismatch above left an error (the first 20 with their bytes).
    if recs.is_empty() {
        errors.push("capture file has no records".into());
    }
    Ok(Comparison {
        samples: samples.len(),
        records: recs.len(),
        identical,
        with_reference: reference.is_some(),
        random_ids: (ids == ActivityIds::Random).then(|| id_map.counts()),
        errors,
    })
}

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
