//! ehkv: checks what the real-kernel suite recorded.
//!
//! Subcommands (exit status 0 = every check passed, 1 = a check failed, 2 = usage):
//!
//! - `names CAPTURE`: the distinct tracepoint names of a capture file, in order of first use.
//! - `compare PERF CAPTURE [REFERENCE]`: every user_events sample of the perf.data file, in time
//!   order, must carry exactly the bytes of the capture record at the same position (same
//!   tracepoint name; only the kernel's zero padding to 8-byte alignment may follow), and both must
//!   decode cleanly as EventHeader events. With REFERENCE, the capture file must also equal that
//!   capture-format file record for record.
//! - `summary PERF`: decodes every user_events sample (must be clean EventHeader), checks that a
//!   top-level `pid` field equals the sample's pid and tid, that `seq` fields count 0,1,2,... per
//!   (tracepoint, pid), and prints one line `NAME PID COUNT` per (tracepoint, pid), sorted.
//! - `fields PERF FIELD...`: decodes every user_events sample (must be clean EventHeader) and
//!   prints one line per sample, in time order: `NAME EVENT PID TID V...`, where EVENT is the
//!   EventHeader event name (`-` if none, white space as `_`) and each V the value of the top-level 4-byte field FIELD as an
//!   unsigned number, or `-` when the event has no such field.
//!
//! Every subcommand that reads perf.data fails when perf recorded that it lost samples
//! (`PERF_RECORD_LOST`, `PERF_RECORD_LOST_SAMPLES`): counts would then be meaningless.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::ExitCode;

use tracepoint_decode as td;
use tracepoint_perf as tp;

const SYSTEM_PREFIX: &str = "user_events:";

struct Record {
    name: String,
    data: Vec<u8>,
}

struct Sample {
    name: String,
    pid: u32,
    tid: u32,
    time: u64,
    data: Vec<u8>,
}

/// What walking an event found: its EventHeader event name and its top-level 4-byte fields.
#[derive(Default)]
struct Walk {
    event: String,
    values: Vec<(Vec<u8>, u32)>,
    items: u32,
}

impl Walk {
    fn value(&self, name: &[u8]) -> Option<u32> {
        self.values
            .iter()
            .find(|(n, _)| n.as_slice() == name)
            .map(|&(_, v)| v)
    }
}

fn read_capture(path: &str) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos < bytes.len() {
        if bytes.len() - pos < 4 {
            return Err(format!("{path}: truncated record size at offset {pos}"));
        }
        let size = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        if size < 5 || size > bytes.len() - pos {
            return Err(format!("{path}: bad record size {size} at offset {pos}"));
        }
        let rec = &bytes[pos + 4..pos + size];
        let nul = rec
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| format!("{path}: record at offset {pos} has no NUL-terminated name"))?;
        let name = std::str::from_utf8(&rec[..nul])
            .map_err(|_| format!("{path}: record at offset {pos}: name is not UTF-8"))?;
        out.push(Record {
            name: name.to_string(),
            data: rec[nul + 1..].to_vec(),
        });
        pos += size;
    }
    Ok(out)
}

/// All samples of the user_events system, in time order. Fails on any sample that cannot be
/// attributed (missing metadata) and when perf lost samples, since that would make counts
/// meaningless.
fn read_perf(path: &str) -> Result<Vec<Sample>, String> {
    let mut reader = tp::PerfDataFileReader::new();
    reader
        .open_file(path, tp::PerfDataFileEventOrder::Time)
        .map_err(|e| format!("{path}: open: {e}"))?;
    let mut out = Vec::new();
    let mut lost = 0u64;
    loop {
        match reader.move_next_event() {
            Err(e) => return Err(format!("{path}: read event: {e}")),
            Ok(false) => break,
            Ok(true) => {}
        }
        let event = reader.current_event();
        // PERF_RECORD_LOST: header, u64 id, u64 lost; PERF_RECORD_LOST_SAMPLES: header, u64 lost.
        let lost_at = match event.header.ty {
            td::PerfEventHeaderType::Lost => Some(16),
            td::PerfEventHeaderType::LostSamples => Some(8),
            _ => None,
        };
        if let Some(at) = lost_at {
            let n = event
                .data
                .get(at..at + 8)
                .map(|b| reader.byte_reader().read_u64(b))
                .unwrap_or(1);
            lost += n.max(1);
            continue;
        }
        if event.header.ty != td::PerfEventHeaderType::Sample {
            continue;
        }
        let info = reader
            .get_sample_event_info(&event)
            .map_err(|e| format!("{path}: sample without usable metadata: {e}"))?;
        let full = info.name();
        let Some(name) = full.strip_prefix(SYSTEM_PREFIX) else {
            continue;
        };
        let format = info
            .format()
            .ok_or_else(|| format!("{path}: sample {full} has no tracefs format"))?;
        if format.decoding_style() != td::PerfEventDecodingStyle::EventHeader {
            return Err(format!(
                "{path}: {full}: tracefs format is not the EventHeader layout"
            ));
        }
        out.push(Sample {
            name: name.to_string(),
            pid: info.pid,
            tid: info.tid,
            time: info.time,
            data: info.user_data().to_vec(),
        });
    }
    if lost != 0 {
        return Err(format!(
            "{path}: perf lost {lost} samples ({} recorded): its buffers overflowed",
            out.len()
        ));
    }
    Ok(out)
}

/// Decodes one event completely; Err describes the first problem.
fn walk(
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
    let mut w = Walk {
        event: String::from_utf8_lossy(e.event_info().name_bytes()).into_owned(),
        ..Walk::default()
    };
    let mut depth = 0i32;
    while e.move_next() {
        w.items += 1;
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

/// The decoder refuses events without a metadata extension (they need an external manifest).
/// Such an event is still well formed when its header is valid, its level matches the
/// tracepoint name and its extension chain (if any) is intact and holds no metadata.
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

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

fn cmd_names(capture: &str) -> Result<(), String> {
    let recs = read_capture(capture)?;
    let mut seen = std::collections::HashSet::new();
    for r in &recs {
        if seen.insert(r.name.clone()) {
            println!("{}", r.name);
        }
    }
    Ok(())
}

fn cmd_compare(perf: &str, capture: &str, reference: Option<&str>) -> Result<(), String> {
    let samples = read_perf(perf)?;
    let recs = read_capture(capture)?;
    let mut ctx = td::EventHeaderEnumeratorContext::new();
    let mut errors = Vec::new();
    if let Some(reference) = reference {
        let refs = read_capture(reference)?;
        if refs.len() != recs.len() {
            errors.push(format!(
                "capture has {} records, reference {} has {}",
                recs.len(),
                reference,
                refs.len()
            ));
        }
        for (i, (c, r)) in recs.iter().zip(refs.iter()).enumerate() {
            if c.name != r.name || c.data != r.data {
                errors.push(format!(
                    "capture record {i} differs from the reference: {} {} vs {} {}",
                    c.name,
                    hex(&c.data),
                    r.name,
                    hex(&r.data)
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
    for (i, (s, r)) in samples.iter().zip(recs.iter()).enumerate() {
        if s.time < last_time {
            errors.push(format!("sample {i}: time order broken"));
        }
        last_time = s.time;
        if let Err(e) = walk(&mut ctx, &r.name, &r.data) {
            errors.push(format!("capture record {i} ({}): {e}", r.name));
        }
        if let Err(e) = walk(&mut ctx, &s.name, &s.data) {
            errors.push(format!("perf sample {i} ({}): {e}", s.name));
        }
        let pad_ok = s.data.len() >= r.data.len()
            && s.data.len() - r.data.len() < 8
            && s.data[r.data.len()..].iter().all(|&b| b == 0);
        if s.name == r.name && pad_ok && s.data[..r.data.len()] == r.data[..] {
            identical += 1;
        } else if errors.len() < 20 {
            errors.push(format!(
                "event {i}: perf {} {} != capture {} {}",
                s.name,
                hex(&s.data),
                r.name,
                hex(&r.data)
            ));
        }
    }
    println!(
        "compare: {} perf samples, {} capture records, {} byte-identical{}",
        samples.len(),
        recs.len(),
        identical,
        if reference.is_some() {
            ", capture == reference"
        } else {
            ""
        }
    );
    if errors.is_empty() && identical == recs.len() && !recs.is_empty() {
        Ok(())
    } else {
        if recs.is_empty() {
            errors.push("capture file has no records".into());
        }
        Err(errors.join("\n"))
    }
}

fn cmd_summary(perf: &str) -> Result<(), String> {
    let samples = read_perf(perf)?;
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
    for ((name, pid), n) in &counts {
        println!("{name} {pid} {n}");
    }
    if errors.is_empty() {
        Ok(())
    } else {
        errors.truncate(50);
        Err(errors.join("\n"))
    }
}

fn cmd_fields(perf: &str, fields: &[&str]) -> Result<(), String> {
    use std::io::Write as _;
    let samples = read_perf(perf)?;
    let mut ctx = td::EventHeaderEnumeratorContext::new();
    let mut errors = Vec::new();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
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
        let mut line = format!("{} {} {} {}", s.name, event, s.pid, s.tid);
        for f in fields {
            match w.value(f.as_bytes()) {
                Some(v) => write!(line, " {v}").unwrap(),
                None => line.push_str(" -"),
            }
        }
        writeln!(out, "{line}").map_err(|e| format!("stdout: {e}"))?;
    }
    out.flush().map_err(|e| format!("stdout: {e}"))?;
    if errors.is_empty() {
        Ok(())
    } else {
        errors.truncate(50);
        Err(errors.join("\n"))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["names", capture] => cmd_names(capture),
        ["compare", perf, capture] => cmd_compare(perf, capture, None),
        ["compare", perf, capture, reference] => cmd_compare(perf, capture, Some(reference)),
        ["summary", perf] => cmd_summary(perf),
        ["fields", perf, fields @ ..] => cmd_fields(perf, fields),
        _ => {
            eprintln!(
                "usage: ehkv names CAPTURE | compare PERF CAPTURE [REFERENCE] | summary PERF \
                 | fields PERF FIELD..."
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ehkv: FAIL\n{e}");
            ExitCode::FAILURE
        }
    }
}
