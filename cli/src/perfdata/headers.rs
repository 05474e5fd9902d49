//! The metadata structures of perf.data (the kernel's
//! `tools/perf/Documentation/perf.data-file-format.txt`), parsed from bytes
//! with every length checked against the bytes present: the file header,
//! event attributes, the EVENT_DESC, TRACING_DATA, CLOCKID and CLOCK_DATA
//! feature sections. Everything a hostile file can get wrong is an `Err`
//! naming what, never a panic.

use tracepoint_decode as td;

/// Feature bits of the file header (`HEADER_*`): the sections this decoder
/// reads.
pub const FEATURE_TRACING_DATA: usize = 1;
pub const FEATURE_EVENT_DESC: usize = 12;
pub const FEATURE_CLOCKID: usize = 23;
pub const FEATURE_CLOCK_DATA: usize = 29;

/// Size of the pipe-mode header (magic, size) and of the normal one.
pub const PIPE_HEADER_SIZE: u64 = 16;
pub const FILE_HEADER_SIZE: usize = 104;

/// `PERFILE2` in the file's byte order, and swapped.
const MAGIC: &[u8; 8] = b"PERFILE2";
const MAGIC_SWAPPED: &[u8; 8] = b"2ELIFREP";

/// The size of `perf_event_attr` this decoder knows (VER8); a larger one in
/// a file is cut to it, a smaller one (at least VER0, 64 bytes) zero-extended.
pub const ATTR_SIZE: usize = std::mem::size_of::<td::PerfEventAttr>();
const ATTR_SIZE_VER0: usize = 64;

/// The first 8 bytes of a perf.data file, either byte order.
pub fn is_perf_magic(head: &[u8]) -> bool {
    head.len() >= 8 && (&head[..8] == MAGIC || &head[..8] == MAGIC_SWAPPED)
}

/// The byte order of a file starting with `head` (a perf magic): the magic
/// reads "PERFILE2" in the writer's byte order, so the bytes as stored
/// decide it.
pub fn byte_reader(head: &[u8]) -> td::PerfByteReader {
    let little_endian_file = &head[..8] == MAGIC;
    td::PerfByteReader::new(!little_endian_file)
}

/// `offset`, `size` of a `perf_file_section`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileSection {
    pub offset: u64,
    pub size: u64,
}

impl FileSection {
    fn read(br: td::PerfByteReader, b: &[u8]) -> FileSection {
        FileSection {
            offset: br.read_u64(&b[0..8]),
            size: br.read_u64(&b[8..16]),
        }
    }

    pub fn end(&self) -> Option<u64> {
        self.offset.checked_add(self.size)
    }
}

/// The header of a normal-mode perf.data.
#[derive(Clone, Copy, Debug)]
pub struct FileHeader {
    /// Size of each entry of the attribute section (attr + ids section).
    pub attr_size: u64,
    pub attrs: FileSection,
    pub data: FileSection,
    /// Which feature sections follow the data (bit i: feature i).
    pub flags: [u64; 4],
}

/// The size field of the header (16: pipe mode, 104 or more: a file).
pub fn header_size(br: td::PerfByteReader, head: &[u8]) -> u64 {
    br.read_u64(&head[8..16])
}

/// Parses a normal-mode header (`bytes`: its first [`FILE_HEADER_SIZE`] bytes).
pub fn file_header(br: td::PerfByteReader, bytes: &[u8]) -> Result<FileHeader, String> {
    if bytes.len() < FILE_HEADER_SIZE {
        return Err(format!(
            "perf.data header of {} bytes, expected {FILE_HEADER_SIZE}",
            bytes.len()
        ));
    }
    let mut flags = [0u64; 4];
    for (i, f) in flags.iter_mut().enumerate() {
        *f = br.read_u64(&bytes[72 + 8 * i..80 + 8 * i]);
    }
    Ok(FileHeader {
        attr_size: br.read_u64(&bytes[16..24]),
        attrs: FileSection::read(br, &bytes[24..40]),
        data: FileSection::read(br, &bytes[40..56]),
        flags,
    })
}

/// The feature sections present (bit set in `flags`), in order, with the
/// index of each: the section table after the data lists one
/// `perf_file_section` per set bit.
pub fn feature_bits(flags: &[u64; 4]) -> Vec<usize> {
    (0..256)
        .filter(|&bit| flags[bit / 64] & (1u64 << (bit % 64)) != 0)
        .collect()
}

/// Parses a feature section table (`count` entries).
pub fn section_table(br: td::PerfByteReader, bytes: &[u8]) -> Vec<FileSection> {
    bytes
        .chunks_exact(16)
        .map(|b| FileSection::read(br, b))
        .collect()
}

/// A `perf_event_attr` of `bytes.len()` bytes (its own `size` field is not
/// trusted: the container says how long it is).
pub fn attr(br: td::PerfByteReader, bytes: &[u8]) -> Result<td::PerfEventAttr, String> {
    if bytes.len() < ATTR_SIZE_VER0 {
        return Err(format!(
            "event attribute of {} bytes (at least {ATTR_SIZE_VER0})",
            bytes.len()
        ));
    }
    let mut b = [0u8; ATTR_SIZE];
    let n = bytes.len().min(ATTR_SIZE);
    b[..n].copy_from_slice(&bytes[..n]);
    let u64_at = |at: usize| u64::from_ne_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let u32_at = |at: usize| u32::from_ne_bytes(b[at..at + 4].try_into().expect("4 bytes"));
    let u16_at = |at: usize| u16::from_ne_bytes(b[at..at + 2].try_into().expect("2 bytes"));
    let mut attr = td::PerfEventAttr {
        attr_type: td::PerfEventAttrType(u32_at(0)),
        size: td::PerfEventAttrSize(u32_at(4)),
        config: u64_at(8),
        sample_time: u64_at(16),
        sample_type: td::PerfEventAttrSampleType(u64_at(24)),
        read_format: td::PerfEventAttrReadFormat(u64_at(32)),
        options: td::PerfEventAttrOptions(u64_at(40)),
        wakeup_value: u32_at(48),
        bp_type: u32_at(52),
        config1: u64_at(56),
        config2: u64_at(64),
        branch_sample_type: u64_at(72),
        sample_regs_user: u64_at(80),
        sample_stack_user: u32_at(88),
        clockid: u32_at(92),
        sample_regs_intr: u64_at(96),
        aux_watermark: u32_at(104),
        sample_max_stack: u16_at(108),
        reserved2: u16_at(110),
        aux_sample_size: u32_at(112),
        reserved3: u32_at(116),
        sig_data: u64_at(120),
    };
    if br.byte_swap_needed() {
        attr.byte_swap();
    }
    attr.size = td::PerfEventAttrSize(n as u32);
    Ok(attr)
}

/// `count` u64 ids.
pub fn ids(br: td::PerfByteReader, bytes: &[u8]) -> Vec<u64> {
    bytes.chunks_exact(8).map(|b| br.read_u64(b)).collect()
}

/// Text of the perf.data strings (names, system names): bytes as Latin-1
/// characters, so that every byte string is a name (escaped when written).
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

/// One event of EVENT_DESC: its attribute, name and ids.
#[derive(Debug)]
pub struct EventDesc {
    pub attr: td::PerfEventAttr,
    pub name: String,
    pub ids: Vec<u64>,
}

/// A cursor over a section's bytes whose reads fail (with what was being
/// read) instead of running past the end.
struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    br: td::PerfByteReader,
    what: &'static str,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: u64) -> Result<&'a [u8], String> {
        let left = self.data.len() - self.pos;
        if n > left as u64 {
            return Err(format!(
                "{}: {n} bytes wanted at offset {} of {}",
                self.what,
                self.pos,
                self.data.len()
            ));
        }
        let out = &self.data[self.pos..self.pos + n as usize];
        self.pos += n as usize;
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(self.br.read_u32(b))
    }

    fn u64(&mut self) -> Result<u64, String> {
        let b = self.take(8)?;
        Ok(self.br.read_u64(b))
    }

    /// A NUL-terminated string (without its NUL).
    fn sz(&mut self) -> Result<&'a [u8], String> {
        let rest = &self.data[self.pos..];
        let nul = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| format!("{}: string without NUL at offset {}", self.what, self.pos))?;
        self.pos += nul + 1;
        Ok(&rest[..nul])
    }
}

/// The EVENT_DESC feature: `u32 nr, u32 attr_size`, then per event the
/// attribute, `u32 nr_ids`, a `perf_header_string` (u32 length, NUL-padded
/// text) and the ids.
pub fn event_desc(br: td::PerfByteReader, data: &[u8]) -> Result<Vec<EventDesc>, String> {
    let mut c = Cursor {
        data,
        pos: 0,
        br,
        what: "EVENT_DESC",
    };
    let nr = c.u32()?;
    let attr_size = c.u32()?;
    let mut out = Vec::new();
    for _ in 0..nr {
        let attr = attr(br, c.take(attr_size.into())?)?;
        let nr_ids = c.u32()?;
        let len = c.u32()?;
        let text = c.take(len.into())?;
        let name = &text[..text.iter().position(|&b| b == 0).unwrap_or(text.len())];
        let ids = ids(br, c.take(u64::from(nr_ids) * 8)?);
        out.push(EventDesc {
            attr,
            name: latin1(name),
            ids,
        });
    }
    Ok(out)
}

/// What the TRACING_DATA feature gives the decoder.
#[derive(Debug, Default)]
pub struct TracingData {
    /// The traced kernel's `long` is 64 bits.
    pub long_is_64: bool,
    /// (system name, format file text) per event.
    pub formats: Vec<(String, Vec<u8>)>,
}

/// The TRACING_DATA feature (trace-cmd's layout): the signature
/// `"\x17\x08\x44tracing"`, a version string, endianness, long size, page
/// size, `header_page` and `header_event` sections, ftrace formats, then per
/// system its name and event formats; what follows the formats is not needed.
pub fn tracing_data(data: &[u8]) -> Result<TracingData, String> {
    const SIGNATURE: &[u8] = b"\x17\x08\x44tracing";
    if !data.starts_with(SIGNATURE) {
        return Err("TRACING_DATA: no \"tracing\" signature".into());
    }
    let mut c = Cursor {
        data,
        pos: SIGNATURE.len(),
        br: td::PerfByteReader::new(false),
        what: "TRACING_DATA",
    };
    c.sz()?; // version
    c.br = td::PerfByteReader::new(c.u8()? != 0);
    let long_size = c.u8()?;
    c.u32()?; // page size
    for name in [&b"header_page"[..], b"header_event"] {
        if c.sz()? != name {
            return Err(format!(
                "TRACING_DATA: no {} section",
                String::from_utf8_lossy(name)
            ));
        }
        let len = c.u64()?;
        c.take(len)?;
    }
    let ftraces = c.u32()?;
    for _ in 0..ftraces {
        let len = c.u64()?;
        c.take(len)?;
    }
    let mut out = TracingData {
        long_is_64: long_size != 4,
        formats: Vec::new(),
    };
    let systems = c.u32()?;
    for _ in 0..systems {
        let system = latin1(c.sz()?);
        let events = c.u32()?;
        for _ in 0..events {
            let len = c.u64()?;
            out.formats.push((system.clone(), c.take(len)?.to_vec()));
        }
    }
    Ok(out)
}

/// The CLOCKID feature: the clock of the timestamps.
pub fn clockid(br: td::PerfByteReader, data: &[u8]) -> Option<u32> {
    (data.len() >= 8).then(|| br.read_u64(&data[..8]) as u32)
}

/// The CLOCK_DATA feature (`u32 version, u32 clockid, u64 wall_clock_ns,
/// u64 clockid_time_ns`): (clockid, wall clock, clock) at one instant.
pub fn clock_data(br: td::PerfByteReader, data: &[u8]) -> Option<(u32, u64, u64)> {
    if data.len() < 24 || br.read_u32(&data[0..4]) < 1 {
        return None;
    }
    Some((
        br.read_u32(&data[4..8]),
        br.read_u64(&data[8..16]),
        br.read_u64(&data[16..24]),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_sections_are_errors() {
        let br = td::PerfByteReader::new(false);
        assert!(event_desc(br, &[]).is_err());
        // One event, attr_size 64, but nothing after.
        let mut d = 1u32.to_le_bytes().to_vec();
        d.extend_from_slice(&64u32.to_le_bytes());
        assert!(event_desc(br, &d).unwrap_err().contains("EVENT_DESC"));
        // An attr too small.
        let mut d = 1u32.to_le_bytes().to_vec();
        d.extend_from_slice(&8u32.to_le_bytes());
        d.extend_from_slice(&[0; 8]);
        assert!(event_desc(br, &d).is_err());
        // Zero events is fine.
        let mut d = 0u32.to_le_bytes().to_vec();
        d.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(event_desc(br, &d).unwrap().is_empty());
        assert!(tracing_data(b"nope").is_err());
        assert!(tracing_data(b"\x17\x08\x44tracing0.6").is_err());
    }

    #[test]
    fn event_desc_round_trip() {
        let br = td::PerfByteReader::new(false);
        let mut d = 1u32.to_le_bytes().to_vec();
        d.extend_from_slice(&(ATTR_SIZE as u32).to_le_bytes());
        let mut a = vec![0u8; ATTR_SIZE];
        a[0] = 2; // tracepoint
        a[8] = 42; // config
        a[24] = 0x80; // sample_type: Cpu
        d.extend_from_slice(&a);
        d.extend_from_slice(&2u32.to_le_bytes());
        d.extend_from_slice(&8u32.to_le_bytes());
        d.extend_from_slice(b"s:name\0\0");
        d.extend_from_slice(&7u64.to_le_bytes());
        d.extend_from_slice(&9u64.to_le_bytes());
        let e = event_desc(br, &d).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].name, "s:name");
        assert_eq!(e[0].ids, [7, 9]);
        assert_eq!(e[0].attr.config, 42);
        assert_eq!(e[0].attr.attr_type, td::PerfEventAttrType(2));
    }

    #[test]
    fn feature_bits_in_order() {
        let mut flags = [0u64; 4];
        flags[0] = (1 << 1) | (1 << 12) | (1 << 29);
        flags[1] = 1;
        assert_eq!(feature_bits(&flags), [1, 12, 29, 64]);
    }
}
