//! Streaming reader of capture files (docs/capture-mode.md, spec-notes §7):
//! records of `u32 size` (little-endian, including these 4 bytes), the
//! tracepoint name and a NUL, then the event bytes. One record is in memory at
//! a time.

use std::io::{self, Read};

pub struct CaptureReader<R> {
    input: R,
    /// Offset of the next record.
    pos: u64,
    /// Bytes left in the input when known (a regular file), to refuse a size
    /// field larger than the file before allocating for it.
    remaining: Option<u64>,
    record: Vec<u8>,
    name_len: usize,
}

/// A malformed record: what is wrong and where.
#[derive(Debug)]
pub struct FormatError(pub String);

impl<R: Read> CaptureReader<R> {
    pub fn new(input: R, len: Option<u64>) -> Self {
        CaptureReader {
            input,
            pos: 0,
            remaining: len,
            record: Vec::new(),
            name_len: 0,
        }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Reads the next record: `Ok(true)` if there is one (see `name`, `event`),
    /// `Ok(false)` at the end of the input.
    pub fn next_record(&mut self) -> Result<bool, FormatError> {
        let mut size = [0u8; 4];
        let mut got = 0;
        while got < 4 {
            match self.input.read(&mut size[got..]) {
                Ok(0) if got == 0 => return Ok(false),
                Ok(0) => {
                    return Err(FormatError(format!(
                        "truncated record size at offset {}",
                        self.pos
                    )))
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(FormatError(format!(
                        "read error at offset {}: {e}",
                        self.pos
                    )))
                }
            }
        }
        let size = u32::from_le_bytes(size) as u64;
        if size < 6 {
            return Err(FormatError(format!(
                "bad record size {size} at offset {} (at least a 1-byte name and its NUL)",
                self.pos
            )));
        }
        if let Some(rem) = self.remaining {
            if size > rem {
                return Err(FormatError(format!(
                    "record size {size} at offset {} exceeds the {rem} bytes left",
                    self.pos
                )));
            }
        }
        self.record.clear();
        let want = size - 4;
        let read = (&mut self.input)
            .take(want)
            .read_to_end(&mut self.record)
            .map_err(|e| FormatError(format!("read error at offset {}: {e}", self.pos)))?;
        if (read as u64) < want {
            return Err(FormatError(format!(
                "truncated record at offset {}: size {size}, {} bytes present",
                self.pos,
                read + 4
            )));
        }
        let Some(nul) = self.record.iter().position(|&b| b == 0) else {
            return Err(FormatError(format!(
                "record at offset {}: no NUL after the tracepoint name",
                self.pos
            )));
        };
        if std::str::from_utf8(&self.record[..nul]).is_err() {
            return Err(FormatError(format!(
                "record at offset {}: tracepoint name is not UTF-8",
                self.pos
            )));
        }
        self.name_len = nul;
        self.pos += size;
        if let Some(rem) = self.remaining.as_mut() {
            *rem -= size;
        }
        Ok(true)
    }

    /// The current record's tracepoint name.
    pub fn name(&self) -> &str {
        std::str::from_utf8(&self.record[..self.name_len]).expect("checked in next_record")
    }

    /// The current record's event bytes.
    pub fn event(&self) -> &[u8] {
        &self.record[self.name_len + 1..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(name: &str, event: &[u8]) -> Vec<u8> {
        let mut r = ((4 + name.len() + 1 + event.len()) as u32)
            .to_le_bytes()
            .to_vec();
        r.extend_from_slice(name.as_bytes());
        r.push(0);
        r.extend_from_slice(event);
        r
    }

    #[test]
    fn reads_records_in_order() {
        let mut data = record("A_L5K1", &[1, 2, 3]);
        data.extend(record("B", &[]));
        let mut r = CaptureReader::new(&data[..], Some(data.len() as u64));
        assert!(r.next_record().unwrap());
        assert_eq!((r.name(), r.event()), ("A_L5K1", &[1u8, 2, 3][..]));
        assert!(r.next_record().unwrap());
        assert_eq!((r.name(), r.event()), ("B", &[][..]));
        assert!(!r.next_record().unwrap());
        assert_eq!(r.position(), data.len() as u64);
    }

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
            let mut r = CaptureReader::new(&data[..], Some(data.len() as u64));
            let e = r.next_record().unwrap_err();
            assert!(e.0.contains(want), "{:?}: {}", data, e.0);
        }
        // Without a known length (a pipe), a size past the end is a truncation.
        let data = [100u8, 0, 0, 0, b'A', 0];
        let mut r = CaptureReader::new(&data[..], None);
        assert!(r.next_record().unwrap_err().0.contains("truncated record"));
        let mut r = CaptureReader::new(&good[..], None);
        assert!(r.next_record().unwrap());
    }
}
