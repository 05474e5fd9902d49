//! Streaming reader of capture files (docs/capture-mode.md, docs/format.md §7):
//! records of `u32 size` (little-endian, including these 4 bytes), the
//! tracepoint name and a NUL, then the event bytes, read through one buffer
//! (one record in memory at a time). A size field with its top bit set is a
//! record of the timed layout (§7.4): the size is the other 31 bits, and the
//! time, pid and tid come before the name. A file may mix both layouts.

use std::io::Read;

use crate::perfdata::buffered_input::{Buffered, MAX_RECORD};

pub struct CaptureReader<'a> {
    input: Buffered<Box<dyn Read + 'a>>,
    /// Bytes left in the input when known (a regular file), to refuse a size
    /// field larger than the file before allocating for it.
    remaining: Option<u64>,
    /// The current record's size (at the start of the buffer), and the
    /// length of its stamp and name (what comes before the name's NUL after
    /// the size field).
    size: usize,
    name_len: usize,
    /// The current record's time, pid and tid (timed layout only).
    stamp: Option<Stamp>,
}

/// What a record of the timed layout carries besides the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// CLOCK_MONOTONIC, in nanoseconds.
    pub time: u64,
    pub pid: u32,
    pub tid: u32,
}

/// The size field's flag of a record of the timed layout.
pub const TIMED_FLAG: u32 = 1 << 31;
/// The bytes of the time, pid and tid after the size field.
const STAMP_LEN: usize = 16;

/// A size field's record size and the length of the stamp after it.
fn split_size_field(field: u32) -> (u64, usize) {
    if field & TIMED_FLAG != 0 {
        (u64::from(field & !TIMED_FLAG), STAMP_LEN)
    } else {
        (u64::from(field), 0)
    }
}

/// How many bytes of a capture file's start show its first record's name
/// (`head`: at least its 4-byte size field): no more than the record's
/// size, nor than a 256-byte name and its NUL.
pub fn first_name_end(head: &[u8]) -> usize {
    let Some(field) = head.get(..4) else {
        return 4;
    };
    let (size, stamp) =
        split_size_field(u32::from_le_bytes([field[0], field[1], field[2], field[3]]));
    (size as usize).clamp(4, 4 + stamp + 257)
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
    let (size, stamp) = split_size_field(u32::from_le_bytes([size[0], size[1], size[2], size[3]]));
    let least = 6 + stamp as u64;
    if size < least {
        return Err(format!("a first record of {size} bytes (at least {least})"));
    }
    if let Some(len) = len {
        if size > len {
            return Err(format!("a first record of {size} bytes in a file of {len}"));
        }
    }
    let start = (4 + stamp).min(head.len());
    let rest = &head[start..head.len().min(size.min(4 + stamp as u64 + 257) as usize)];
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
            stamp: None,
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
        let (size, stamp_len) =
            split_size_field(u32::from_le_bytes([head[0], head[1], head[2], head[3]]));
        if size < 6 + stamp_len as u64 {
            let what = if stamp_len == 0 {
                ""
            } else {
                "a time, pid and tid, "
            };
            return Err(FormatError(format!(
                "bad record size {size} at offset {pos} (at least {what}a 1-byte name and its NUL)"
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
        let (stamp, record) = record.split_at(stamp_len);
        self.stamp = (stamp_len != 0).then(|| {
            let word = |at: usize| {
                u32::from_le_bytes([stamp[at], stamp[at + 1], stamp[at + 2], stamp[at + 3]])
            };
            Stamp {
                time: u64::from(word(0)) | u64::from(word(4)) << 32,
                pid: word(8),
                tid: word(12),
            }
        });
        let Some(nul) = record.iter().position(|&b| b == 0) else {
            return Err(FormatError(format!(
                "record at offset {pos}: no NUL after the tracepoint name"
            )));
        };
        // ASCII (every name a provider makes) is UTF-8, and quicker to check.
        if !record[..nul].is_ascii() && std::str::from_utf8(&record[..nul]).is_err() {
            return Err(FormatError(format!(
                "record at offset {pos}: tracepoint name is not UTF-8"
            )));
        }
        self.name_len = stamp_len + nul;
        self.size = size;
        if let Some(rem) = self.remaining.as_mut() {
            *rem -= size as u64;
        }
        Ok(true)
    }

    /// The current record's tracepoint name.
    pub fn name(&self) -> &str {
        let start = 4 + self.stamp_len();
        let name = &self.input.available()[start..4 + self.name_len];
        std::str::from_utf8(name).unwrap_or_default()
    }

    /// The current record's tracepoint name as bytes (UTF-8: checked by
    /// [`Self::next_record`]).
    pub fn name_bytes(&self) -> &[u8] {
        &self.input.available()[4 + self.stamp_len()..4 + self.name_len]
    }

    /// The current record's time, pid and tid, if it has the timed layout.
    pub fn stamp(&self) -> Option<Stamp> {
        self.stamp
    }

    fn stamp_len(&self) -> usize {
        if self.stamp.is_some() {
            STAMP_LEN
        } else {
            0
        }
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

    fn timed_record(name: &str, event: &[u8], time: u64, pid: u32, tid: u32) -> Vec<u8> {
        let size = (4 + 16 + name.len() + 1 + event.len()) as u32;
        let mut r = (size | TIMED_FLAG).to_le_bytes().to_vec();
        r.extend_from_slice(&time.to_le_bytes());
        r.extend_from_slice(&pid.to_le_bytes());
        r.extend_from_slice(&tid.to_le_bytes());
        r.extend_from_slice(name.as_bytes());
        r.push(0);
        r.extend_from_slice(event);
        r
    }

    /// The timed layout (docs/format.md §7.4), mixed with the reference's
    /// in one file, from a regular file and from a pipe.
    #[test]
    fn reads_timed_records() {
        let mut data = timed_record("A_L5K1", &[1, 2, 3], 0x1_0000_0002, 7, 8);
        data.extend(record("B", &[9]));
        data.extend(timed_record("C", &[], 5, 1, 1));
        for len in [Some(data.len() as u64), None] {
            let mut r = reader(&data, len);
            assert!(r.next_record().unwrap());
            assert_eq!((r.name(), r.event()), ("A_L5K1", &[1u8, 2, 3][..]));
            let stamp = Stamp {
                time: 0x1_0000_0002,
                pid: 7,
                tid: 8,
            };
            assert_eq!(r.stamp(), Some(stamp));
            assert!(r.next_record().unwrap());
            assert_eq!((r.name(), r.event(), r.stamp()), ("B", &[9u8][..], None));
            assert!(r.next_record().unwrap());
            assert_eq!((r.name(), r.event()), ("C", &[][..]));
            assert_eq!(r.stamp().map(|s| s.time), Some(5));
            assert!(!r.next_record().unwrap());
            assert_eq!(r.position(), data.len() as u64);
        }
        assert_eq!(plausible_start(&data, Some(data.len() as u64)), Ok(()));
        assert_eq!(first_name_end(&data), 4 + 16 + 7 + 3);
        // Too short for a stamp and a name.
        let mut short = (21u32 | TIMED_FLAG).to_le_bytes().to_vec();
        short.extend_from_slice(&[0; 17]);
        let e = reader(&short, Some(21)).next_record().unwrap_err();
        assert!(e.0.contains("bad record size 21"), "{}", e.0);
        assert!(plausible_start(&short, Some(21))
            .unwrap_err()
            .contains("at least 22"));
        // A timed size past the end of the file.
        let mut long = (100u32 | TIMED_FLAG).to_le_bytes().to_vec();
        long.extend_from_slice(&[0; 30]);
        assert!(reader(&long, Some(34))
            .next_record()
            .unwrap_err()
            .0
            .contains("exceeds"));
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
