//! Streaming reader of capture files (docs/capture-mode.md, docs/format.md §7):
//! records of `u32 size` (little-endian, including these 4 bytes), the
//! tracepoint name and a NUL, then the event bytes, read through one buffer
//! (one record in memory at a time).

use std::io::Read;

use crate::perfdata::buffered_input::{Buffered, MAX_RECORD};

pub struct CaptureReader<'a> {
    input: Buffered<Box<dyn Read + 'a>>,
    /// Bytes left in the input when known (a regular file), to refuse a size
    /// field larger than the file before allocating for it.
    remaining: Option<u64>,
    /// The current record's size (at the start of the buffer) and name length.
    size: usize,
    name_len: usize,
}

/// A malformed record: what is wrong and where.
#[derive(Debug)]
pub struct FormatError(pub String);

impl<'a> CaptureReader<'a> {
    pub fn new(input: Buffered<Box<dyn Read + 'a>>, len: Option<u64>) -> Self {
        CaptureReader {
            input,
            remaining: len,
            size: 0,
            name_len: 0,
        }
    }

    /// Bytes consumed so far (the current record included).
    pub fn position(&self) -> u64 {
        self.input.position() + self.size as u64
    }

    /// Reads the next record: `Ok(true)` if there is one (see `name`, `event`),
    /// `Ok(false)` at the end of the input.
    pub fn next_record(&mut self) -> Result<bool, FormatError> {
        self.input.consume(std::mem::take(&mut self.size));
        let pos = self.input.position();
        let read_error =
            |e: std::io::Error| FormatError(format!("read error at offset {pos}: {e}"));
        if !self.input.fill(4).map_err(read_error)? {
            if self.input.available().is_empty() {
                return Ok(false);
            }
            return Err(FormatError(format!(
                "truncated record size at offset {pos}"
            )));
        }
        let head = self.input.available();
        let size = u64::from(u32::from_le_bytes([head[0], head[1], head[2], head[3]]));
        if size < 6 {
            return Err(FormatError(format!(
                "bad record size {size} at offset {pos} (at least a 1-byte name and its NUL)"
            )));
        }
        if let Some(rem) = self.remaining {
            if size > rem {
                return Err(FormatError(format!(
                    "record size {size} at offset {pos} exceeds the {rem} bytes left"
                )));
            }
        }
        if size > MAX_RECORD as u64 {
            return Err(FormatError(format!(
                "record size {size} at offset {pos}: more than this decoder accepts ({MAX_RECORD})"
            )));
        }
        let size = size as usize;
        if !self.input.fill(size).map_err(read_error)? {
            return Err(FormatError(format!(
                "truncated record at offset {pos}: size {size}, {} bytes present",
                self.input.available().len()
            )));
        }
        let record = &self.input.available()[4..size];
        let Some(nul) = record.iter().position(|&b| b == 0) else {
            return Err(FormatError(format!(
                "record at offset {pos}: no NUL after the tracepoint name"
            )));
        };
        if std::str::from_utf8(&record[..nul]).is_err() {
            return Err(FormatError(format!(
                "record at offset {pos}: tracepoint name is not UTF-8"
            )));
        }
        self.name_len = nul;
        self.size = size;
        if let Some(rem) = self.remaining.as_mut() {
            *rem -= size as u64;
        }
        Ok(true)
    }

    /// The current record's tracepoint name.
    pub fn name(&self) -> &str {
        let name = &self.input.available()[4..4 + self.name_len];
        std::str::from_utf8(name).unwrap_or_default()
    }

    /// The current record's event bytes.
    pub fn event(&self) -> &[u8] {
        &self.input.available()[4 + self.name_len + 1..self.size]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(data: &[u8], len: Option<u64>) -> CaptureReader<'_> {
        CaptureReader::new(Buffered::new(Box::new(data), &[]), len)
    }

    fn record(name: &str, event: &[u8]) -> Vec<u8> {
        let mut r = ((4 + name.len() + 1 + event.len()) as u32)
            .to_le_bytes()
            .to_vec();
        r.extend_from_slice(name.as_bytes());
        r.push(0);
        r.extend_from_slice(event);
        r
    }

    /// The records of docs/format.md §7.1.
    #[test]
    fn reads_records_in_order() {
        let mut data = record("A_L5K1", &[1, 2, 3]);
        data.extend(record("B", &[]));
        let mut r = reader(&data, Some(data.len() as u64));
        assert!(r.next_record().unwrap());
        assert_eq!((r.name(), r.event()), ("A_L5K1", &[1u8, 2, 3][..]));
        assert!(r.next_record().unwrap());
        assert_eq!((r.name(), r.event()), ("B", &[][..]));
        assert!(!r.next_record().unwrap());
        assert_eq!(r.position(), data.len() as u64);
    }

    /// What ends the readable part of a capture file (docs/format.md §7.3).
    #[test]
    fn malformed_records() {
        let good = record("A", &[1]);
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (vec![1, 0], "truncated record size"),
            (vec![4, 0, 0, 0], "bad record size 4"),
            (vec![100, 0, 0, 0, b'A', 0], "exceeds"),
            (vec![7, 0, 0, 0, b'A', b'B', b'C'], "no NUL"),
            (vec![6, 0, 0, 0, 0xff, 0], "not UTF-8"),
        ];
        for (data, want) in cases {
            let mut r = reader(&data, Some(data.len() as u64));
            let e = r.next_record().unwrap_err();
            assert!(e.0.contains(want), "{:?}: {}", data, e.0);
        }
        // Without a known length (a pipe), a size past the end is a truncation.
        let data = [100u8, 0, 0, 0, b'A', 0];
        let mut r = reader(&data, None);
        assert!(r.next_record().unwrap_err().0.contains("truncated record"));
        let mut r = reader(&good, None);
        assert!(r.next_record().unwrap());
    }
}
