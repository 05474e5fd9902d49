//! Capture files (TRACEPOINT_CAPTURE_FILE): records of `u32 size` (little
//! endian, including itself), the NUL-terminated tracepoint name and the
//! event bytes — ours and the reference's (docs/format.md §7.1).

use std::path::Path;

/// One record of a capture file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tracepoint name, without the NUL.
    pub name: String,
    /// The event bytes (eventheader, extensions, payload).
    pub event: Vec<u8>,
}

/// Parses a capture file's bytes; Err names the offset of the first
/// malformed record.
pub fn parse(bytes: &[u8]) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        if bytes.len() - pos < 4 {
            return Err(format!("truncated record size at offset {pos}"));
        }
        let size = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        if size <= 4 || size > bytes.len() - pos {
            return Err(format!(
                "bad record size {size} at offset {pos} (file {} bytes)",
                bytes.len()
            ));
        }
        let body = &bytes[pos + 4..pos + size];
        let nul = body
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| format!("record at offset {pos} has no NUL-terminated name"))?;
        let name = std::str::from_utf8(&body[..nul])
            .map_err(|_| format!("record at offset {pos}: name is not UTF-8"))?;
        out.push(Record {
            name: name.to_string(),
            event: body[nul + 1..].to_vec(),
        });
        pos += size;
    }
    Ok(out)
}

/// Reads and parses a capture file.
pub fn read(path: &Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The distinct tracepoint names of `records`, in order of first use.
pub fn names(records: &[Record]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for r in records {
        if !out.contains(&r.name.as_str()) {
            out.push(&r.name);
        }
    }
    out
}

/// The event name from an EventHeader event's metadata extension (without
/// the `;`-separated event attributes), if it has one.
pub fn event_name(event: &[u8]) -> Option<String> {
    if event.len() < 8 || event[0] & 0x04 == 0 {
        return None;
    }
    let mut pos = 8;
    loop {
        let size = u16::from_le_bytes(event.get(pos..pos + 2)?.try_into().ok()?) as usize;
        let kind = u16::from_le_bytes(event.get(pos + 2..pos + 4)?.try_into().ok()?);
        let data = event.get(pos + 4..pos + 4 + size)?;
        if kind & 0x7fff == 1 {
            let nul = data.iter().position(|&b| b == 0)?;
            let full = std::str::from_utf8(&data[..nul]).ok()?;
            return Some(full.split(';').next().unwrap_or(full).to_string());
        }
        if kind & 0x8000 == 0 {
            return None;
        }
        pos += 4 + size;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_rejects_a_truncated_record() {
        let mut bytes = 12u32.to_le_bytes().to_vec();
        bytes.extend_from_slice(b"Tp\0\x01\x02\x03\x04\x05");
        assert_eq!(
            parse(&bytes).unwrap(),
            vec![Record {
                name: "Tp".into(),
                event: vec![1, 2, 3, 4, 5]
            }]
        );
        assert!(parse(&bytes[..bytes.len() - 1]).is_err());
        assert!(parse(&[5, 0, 0]).is_err());
    }
}
