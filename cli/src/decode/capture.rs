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

/// Does the input start as a capture file does (`head`: its first bytes,
/// `len`: its size when known)? Empty, or a first record whose size fits
/// the input and whose tracepoint name (1 to 256 bytes of UTF-8 without
/// white space or control characters) ends with a NUL. Says why not, so
/// that a file of another kind is named as such instead of failing at its
/// first record.
pub fn plausible_start(head: &[u8], len: Option<u64>) -> Result<(), String> {
    if head.is_empty() {
        return Ok(());
    }
    let Some(size) = head.get(..4) else {
        return Err(format!("{} bytes, less than one record", head.len()));
    };
    let size = u64::from(u32::from_le_bytes([size[0], size[1], size[2], size[3]]));
    if size < 6 {
        return Err(format!("a first record of {size} bytes (at least 6)"));
    }
    if let Some(len) = len {
        if size > len {
            return Err(format!("a first record of {size} bytes in a file of {len}"));
        }
    }
    let rest = &head[4..head.len().min(size.min(4 + 257) as usize)];
    let name = match rest.iter().position(|&b| b == 0) {
        Some(0) => return Err("an empty tracepoint name in its first record".into()),
        Some(nul) => &rest[..nul],
        None => return Err("no NUL-terminated tracepoint name in its first record".into()),
    };
    match std::str::from_utf8(name) {
        Ok(n) if !n.chars().any(|c| c.is_whitespace() || c.is_control()) => Ok(()),
        _ => Err("its first record's tracepoint name is not printable".into()),
    }
}

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

    #[test]
    fn plausible_starts() {
        let mut good = 12u32.to_le_bytes().to_vec();
        good.extend_from_slice(b"P_L5K1\0\x01\x02");
        assert_eq!(plausible_start(&good, Some(12)), Ok(()));
        assert_eq!(plausible_start(&good, None), Ok(()));
        assert_eq!(plausible_start(b"", Some(0)), Ok(()));
        let text = b"#include <stdio.h>\nint main(void) { return 0; }\n";
        let e = plausible_start(text, Some(text.len() as u64)).unwrap_err();
        assert!(
            e.starts_with("a first record of 1668180259 bytes in a file of"),
            "{e}"
        );
        assert!(plausible_start(b"ab", None)
            .unwrap_err()
            .contains("2 bytes"));
        assert!(plausible_start(&5u32.to_le_bytes(), None).is_err());
        let mut spaced = 12u32.to_le_bytes().to_vec();
        spaced.extend_from_slice(b"a b\0\0\0\0\0");
        assert!(plausible_start(&spaced, None).is_err());
        let mut empty = 12u32.to_le_bytes().to_vec();
        empty.extend_from_slice(&[0; 8]);
        assert!(plausible_start(&empty, None).unwrap_err().contains("empty"));
        let mut long = 1000u32.to_le_bytes().to_vec();
        long.extend_from_slice(&[b'x'; 300]);
        assert!(plausible_start(&long, None).unwrap_err().contains("no NUL"));
    }
}
