//! Records of a perf.data file, normal or pipe mode, read through one
//! buffer ([`Buffered`]): the data section of a file, or a pipe-mode stream
//! from its header on. Metadata records of pipe mode (HEADER_ATTR,
//! HEADER_TRACING_DATA, HEADER_FEATURE) feed the [`Events`] as they come;
//! a normal-mode file's metadata is read first, with one positioned read per
//! section ([`open_file`]).

use std::io::Read;

use tracepoint_decode as td;

use super::buffered_input::{read_exact_at, Buffered, RandomAccess, Section, MAX_RECORD};
use super::events::Events;
use super::headers::{self, FileSection};

const HEADER_ATTR: u32 = 64;
const HEADER_TRACING_DATA: u32 = 66;
const AUXTRACE: u32 = 71;
const HEADER_FEATURE: u32 = 80;

/// Reads the records of one recording.
pub struct PerfReader<'a> {
    input: Buffered<Box<dyn Read + 'a>>,
    events: Events,
    /// Data bytes left to read (normal mode); None in pipe mode (until the end).
    left: Option<u64>,
    /// The current record: header, and its length at the start of the buffer.
    current: Option<(td::PerfEventHeader, usize)>,
    /// Bytes after the current record that belong to it and are skipped
    /// (AUXTRACE data).
    skip_after: u64,
    /// Input offset of the buffered stream's first byte.
    base: u64,
    /// Input offset of the first record.
    data_begin: u64,
}

/// Opens a normal-mode perf.data: reads its header and metadata, then
/// streams its data section.
pub fn open_file<'a, A: RandomAccess + 'a>(source: A) -> Result<PerfReader<'a>, String> {
    let head = read_exact_at(
        &source,
        0,
        headers::FILE_HEADER_SIZE as u64,
        "perf.data header",
    )?;
    if !headers::is_perf_magic(&head) {
        return Err("not a perf.data file".into());
    }
    let br = headers::byte_reader(&head);
    let size = headers::header_size(br, &head);
    if size < headers::FILE_HEADER_SIZE as u64 {
        return Err(format!(
            "perf.data header size {size} (a file's is {} or more; {} is pipe mode)",
            headers::FILE_HEADER_SIZE,
            headers::PIPE_HEADER_SIZE
        ));
    }
    let header = headers::file_header(br, &head)?;
    let mut events = Events::new(br);
    let file_size = source.size();
    let data_end = header
        .data
        .end()
        .filter(|&end| end <= file_size)
        .ok_or_else(|| {
            format!(
                "data section ({} bytes at {}) past the end of the file ({file_size} bytes)",
                header.data.size, header.data.offset
            )
        })?;
    // The attributes, then EVENT_DESC, which names them.
    read_attrs(&source, br, &header, &mut events)?;
    read_features(&source, br, &header, data_end, &mut events)?;
    let data = Section::new(source, header.data.offset, header.data.size);
    Ok(PerfReader {
        input: Buffered::new(Box::new(data), &[]),
        events,
        left: Some(header.data.size),
        current: None,
        skip_after: 0,
        base: header.data.offset,
        data_begin: header.data.offset,
    })
}

/// The attribute section: entries of `attr_size` bytes (the attribute, then
/// the file section of its ids).
fn read_attrs<A: RandomAccess>(
    source: &A,
    br: td::PerfByteReader,
    header: &headers::FileHeader,
    events: &mut Events,
) -> Result<(), String> {
    let entry = header.attr_size;
    if header.attrs.size == 0 {
        return Ok(());
    }
    if !(64 + 16..=0x10000).contains(&entry) {
        return Err(format!("attribute entries of {entry} bytes"));
    }
    let table = read_exact_at(
        source,
        header.attrs.offset,
        header.attrs.size,
        "attribute section",
    )?;
    let entries: Vec<(td::PerfEventAttr, FileSection)> = table
        .chunks_exact(entry as usize)
        .map(|e| {
            let (a, s) = e.split_at(entry as usize - 16);
            let ids = headers::section_table(br, s)[0];
            headers::attr(br, a).map(|a| (a, ids))
        })
        .collect::<Result<_, _>>()?;
    // The ids of every attribute, usually one after another: one read.
    let lo = entries.iter().map(|(_, s)| s.offset).min().unwrap_or(0);
    let hi = entries
        .iter()
        .map(|(_, s)| s.end().ok_or("attribute ids past the end of the file"))
        .try_fold(lo, |hi, end| end.map(|e| hi.max(e)))?;
    let all = read_exact_at(source, lo, hi - lo, "attribute ids")?;
    for (attr, s) in entries {
        let at = (s.offset - lo) as usize;
        events.add(
            attr,
            String::new(),
            headers::ids(br, &all[at..at + s.size as usize]),
        );
    }
    Ok(())
}

/// The feature sections after the data: the table (one read), then each
/// section the decoder uses (one read each).
fn read_features<A: RandomAccess>(
    source: &A,
    br: td::PerfByteReader,
    header: &headers::FileHeader,
    data_end: u64,
    events: &mut Events,
) -> Result<(), String> {
    let bits = headers::feature_bits(&header.flags);
    if bits.is_empty() {
        return Ok(());
    }
    let table = read_exact_at(
        source,
        data_end,
        16 * bits.len() as u64,
        "feature section table",
    )?;
    let sections = headers::section_table(br, &table);
    for (bit, section) in bits.into_iter().zip(sections) {
        let what = match bit {
            headers::FEATURE_TRACING_DATA => "TRACING_DATA",
            headers::FEATURE_EVENT_DESC => "EVENT_DESC",
            headers::FEATURE_CLOCKID => "CLOCKID",
            headers::FEATURE_CLOCK_DATA => "CLOCK_DATA",
            _ => continue,
        };
        let data = read_exact_at(source, section.offset, section.size, what)?;
        feature(events, br, bit, &data)?;
    }
    Ok(())
}

/// Applies one feature section (from the file's table or a HEADER_FEATURE
/// record).
fn feature(
    events: &mut Events,
    br: td::PerfByteReader,
    bit: usize,
    data: &[u8],
) -> Result<(), String> {
    match bit {
        headers::FEATURE_TRACING_DATA => events.add_tracing_data(data),
        headers::FEATURE_EVENT_DESC => {
            for d in headers::event_desc(br, data)? {
                events.add(d.attr, d.name, d.ids);
            }
        }
        headers::FEATURE_CLOCKID => {
            if let Some(id) = headers::clockid(br, data) {
                events.set_clock_id(id);
            }
        }
        headers::FEATURE_CLOCK_DATA => {
            if let Some((id, wall, clock)) = headers::clock_data(br, data) {
                events.set_clock_data(id, wall, clock);
            }
        }
        _ => {}
    }
    Ok(())
}

impl<'a> PerfReader<'a> {
    /// Reads a pipe-mode stream; `input` starts with its 16-byte header.
    pub fn open_stream(mut input: Buffered<Box<dyn Read + 'a>>) -> Result<PerfReader<'a>, String> {
        let ok = input
            .fill(headers::PIPE_HEADER_SIZE as usize)
            .map_err(|e| e.to_string())?;
        let head = input.available();
        if !ok || !headers::is_perf_magic(head) {
            return Err("not a perf.data stream".into());
        }
        let br = headers::byte_reader(head);
        let size = headers::header_size(br, head);
        if size != headers::PIPE_HEADER_SIZE {
            return Err(format!(
                "perf.data header size {size}: a file (not pipe mode), which needs a seekable input"
            ));
        }
        input.consume(headers::PIPE_HEADER_SIZE as usize);
        Ok(PerfReader {
            input,
            events: Events::new(br),
            left: None,
            current: None,
            skip_after: 0,
            base: 0,
            data_begin: headers::PIPE_HEADER_SIZE,
        })
    }

    pub fn events(&self) -> &Events {
        &self.events
    }

    pub fn events_mut(&mut self) -> &mut Events {
        &mut self.events
    }

    /// Input offset of the first record.
    pub fn data_begin(&self) -> u64 {
        self.data_begin
    }

    /// Input offset after the current record.
    pub fn position(&self) -> u64 {
        self.base + self.input.position() + self.current.map_or(0, |(_, n)| n as u64)
    }

    /// The current record (header included).
    pub fn current(&self) -> td::PerfEventBytes<'_> {
        match self.current {
            Some((header, len)) => td::PerfEventBytes::new(header, &self.input.available()[..len]),
            None => td::PerfEventBytes::new(td::PerfEventHeader::default(), &[]),
        }
    }

    /// Moves to the next record: Ok(false) at the end; Err(why) if the data
    /// is damaged (nothing after it can be read).
    pub fn move_next(&mut self) -> Result<bool, String> {
        let at = self.base + self.input.position();
        if let Some((_, len)) = self.current.take() {
            self.input.consume(len);
            let skip = std::mem::take(&mut self.skip_after);
            if !self
                .input
                .skip(skip)
                .map_err(|e| format!("read error: {e}"))?
            {
                return Err(format!("record at offset {at}: its data is cut short"));
            }
        }
        let at = self.base + self.input.position();
        if self.left == Some(0) {
            return Ok(false);
        }
        let io = |e: std::io::Error| format!("read error at offset {at}: {e}");
        if !self.input.fill(8).map_err(io)? {
            if self.input.available().is_empty() && self.left.is_none() {
                return Ok(false);
            }
            return Err(format!("truncated record header at offset {at}"));
        }
        let br = self.events.byte_reader();
        let header = td::PerfEventHeader::from_bytes(
            self.input.available()[..8].try_into().expect("8 bytes"),
            br,
        );
        let size = usize::from(header.size);
        if size < 8 {
            return Err(format!(
                "record of {size} bytes at offset {at} (at least 8)"
            ));
        }
        // Data that follows some records beyond their size.
        let (extra, keep_extra) = match header.ty.0 {
            HEADER_TRACING_DATA if size >= 12 => {
                self.fill(size, at)?;
                (u64::from(br.read_u32(&self.input.available()[8..12])), true)
            }
            AUXTRACE if size >= 16 => {
                self.fill(size, at)?;
                (br.read_u64(&self.input.available()[8..16]), false)
            }
            _ => (0, false),
        };
        let total = (size as u64).saturating_add(extra);
        if let Some(left) = self.left {
            if total > left {
                return Err(format!(
                    "record of {total} bytes at offset {at} runs past the end of the data ({left} bytes left)"
                ));
            }
            self.left = Some(left - total);
        }
        let len = if keep_extra {
            if total > MAX_RECORD as u64 {
                return Err(format!(
                    "tracing data of {extra} bytes at offset {at}: more than this decoder accepts"
                ));
            }
            total as usize
        } else {
            self.skip_after = extra;
            size
        };
        self.fill(len, at)?;
        self.current = Some((header, len));
        self.metadata(header, len)?;
        Ok(true)
    }

    fn fill(&mut self, n: usize, at: u64) -> Result<(), String> {
        match self.input.fill(n) {
            Ok(true) => Ok(()),
            Ok(false) => Err(format!(
                "truncated record at offset {at}: {n} bytes, {} present",
                self.input.available().len()
            )),
            Err(e) => Err(format!("read error at offset {at}: {e}")),
        }
    }

    /// The metadata records of pipe mode.
    fn metadata(&mut self, header: td::PerfEventHeader, len: usize) -> Result<(), String> {
        let br = self.events.byte_reader();
        let size = usize::from(header.size);
        let record = &self.input.available()[..len];
        match header.ty.0 {
            HEADER_ATTR => {
                // The attribute (its own size field says how long), then ids.
                let body = &record[8..size];
                if body.len() < 8 {
                    return Err("HEADER_ATTR record too short".into());
                }
                let attr_size = br.read_u32(&body[4..8]) as usize;
                if attr_size > body.len() {
                    return Err(format!(
                        "HEADER_ATTR: attribute of {attr_size} bytes in a record of {}",
                        body.len()
                    ));
                }
                let attr = headers::attr(br, &body[..attr_size])?;
                let ids = headers::ids(br, &body[attr_size..]);
                self.events.add(attr, String::new(), ids);
            }
            HEADER_TRACING_DATA => {
                let data = record[size..].to_vec();
                self.events.add_tracing_data(&data);
            }
            HEADER_FEATURE if size >= 16 => {
                let bit = br.read_u64(&record[8..16]);
                let data = record[16..size].to_vec();
                if bit < 256 {
                    feature(&mut self.events, br, bit as usize, &data)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}
