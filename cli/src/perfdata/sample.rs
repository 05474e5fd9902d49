//! Samples without an event id. When a recording has a single event
//! attribute, perf leaves `PERF_SAMPLE_IDENTIFIER`/`PERF_SAMPLE_ID` out of
//! `sample_type` and the samples carry no id: every sample is that event.
//! `tracepoint_perf` then refuses to attribute them (`NoData`); this module
//! walks such a sample with the one attribute's `sample_type` instead.
//!
//! The layout (perf_event_open(2), PERF_RECORD_SAMPLE): header, then in this
//! order the parts `sample_type` selects: identifier, ip, pid+tid, time, addr,
//! id, stream_id, cpu+res, period, read, callchain, raw (u32 size + bytes).
//! What follows raw is not needed for decoding.

use tracepoint_decode as td;

type St = td::PerfEventAttrSampleType;

const HEADER: usize = 8;

/// Attributes `bytes` (a whole PERF_RECORD_SAMPLE, header included) to `desc`.
pub fn parse<'a>(
    bytes: &'a [u8],
    byte_reader: td::PerfByteReader,
    session_info: &'a td::PerfSessionInfo,
    desc: &'a td::PerfEventDesc,
) -> Result<td::PerfSampleEventInfo<'a>, &'static str> {
    // A record is at most 64 KiB (u16 size), so u16 ranges hold.
    if bytes.len() < HEADER || bytes.len() > u16::MAX as usize {
        return Err("sample size out of range");
    }
    let attr = desc.attr();
    let st = attr.sample_type;
    let end = bytes.len() & !7;
    let mut pos = HEADER;
    let u64_at = |pos: usize| -> Result<u64, &'static str> {
        if pos + 8 > end {
            Err("sample shorter than its sample_type says")
        } else {
            Ok(byte_reader.read_u64(&bytes[pos..]))
        }
    };
    let mut info = td::PerfSampleEventInfo::new(bytes, session_info, desc);
    if st.has_flag(St::Identifier) {
        info.id = u64_at(pos)?;
        pos += 8;
    }
    if st.has_flag(St::IP) {
        info.ip = u64_at(pos)?;
        pos += 8;
    }
    if st.has_flag(St::Tid) {
        u64_at(pos)?;
        info.pid = byte_reader.read_u32(&bytes[pos..]);
        info.tid = byte_reader.read_u32(&bytes[pos + 4..]);
        pos += 8;
    }
    if st.has_flag(St::Time) {
        info.time = u64_at(pos)?;
        pos += 8;
    }
    if st.has_flag(St::Addr) {
        info.addr = u64_at(pos)?;
        pos += 8;
    }
    if st.has_flag(St::Id) {
        info.id = u64_at(pos)?;
        pos += 8;
    }
    if st.has_flag(St::StreamId) {
        info.stream_id = u64_at(pos)?;
        pos += 8;
    }
    if st.has_flag(St::Cpu) {
        u64_at(pos)?;
        info.cpu = byte_reader.read_u32(&bytes[pos..]);
        info.cpu_reserved = byte_reader.read_u32(&bytes[pos + 4..]);
        pos += 8;
    }
    if st.has_flag(St::Period) {
        info.period = u64_at(pos)?;
        pos += 8;
    }
    if st.has_flag(St::Read) {
        type Rf = td::PerfEventAttrReadFormat;
        let rf = attr.read_format;
        let flag = |f: Rf| rf.has_flag(f) as usize;
        let start = pos;
        if rf.has_flag(Rf::Group) {
            let nr = u64_at(pos)?;
            if nr > (end as u64) / 8 {
                return Err("sample read group too large");
            }
            let per_member = 1 + flag(Rf::Id) + flag(Rf::Lost);
            pos += 8 * (1 + flag(Rf::TotalTimeEnabled) + flag(Rf::TotalTimeRunning));
            pos += 8 * per_member * nr as usize;
        } else {
            pos += 8
                * (1 + flag(Rf::TotalTimeEnabled)
                    + flag(Rf::TotalTimeRunning)
                    + flag(Rf::Id)
                    + flag(Rf::Lost));
        }
        if pos > end {
            return Err("sample shorter than its read_format says");
        }
        info.read_range = start as u16..pos as u16;
    }
    if st.has_flag(St::Callchain) {
        let nr = u64_at(pos)?;
        if nr > (end as u64) / 8 {
            return Err("sample callchain too large");
        }
        let start = pos;
        pos += 8 * (1 + nr as usize);
        if pos > end {
            return Err("sample shorter than its callchain says");
        }
        info.callchain_range = start as u16..pos as u16;
    }
    if st.has_flag(St::Raw) {
        u64_at(pos)?;
        let size = byte_reader.read_u32(&bytes[pos..]) as usize;
        let start = pos + 4;
        if size > end - start {
            return Err("sample raw data longer than the sample");
        }
        info.raw_range = start as u16..(start + size) as u16;
    }
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(sample_type: u64) -> td::PerfEventDesc {
        let attr = td::PerfEventAttr {
            sample_type: td::PerfEventAttrSampleType(sample_type),
            ..Default::default()
        };
        td::PerfEventDesc::new(attr, "t:t".into(), None, Box::new([]))
    }

    fn push(v: &mut Vec<u8>, x: u64) {
        v.extend_from_slice(&x.to_le_bytes());
    }

    #[test]
    fn perf_default_tracepoint_layout() {
        // perf record -e tp: IP | TID | TIME | CPU | PERIOD | RAW.
        let st = St::IP.0 | St::Tid.0 | St::Time.0 | St::Cpu.0 | St::Period.0 | St::Raw.0;
        let d = desc(st);
        let session = td::PerfSessionInfo::new(td::PerfByteReader::new(false));
        let mut b = vec![9, 0, 0, 0, 0, 0, 0, 0]; // header, size patched below
        push(&mut b, 0x1234); // ip
        push(&mut b, 7 | (8 << 32)); // pid 7, tid 8
        push(&mut b, 1_000_000); // time
        push(&mut b, 3); // cpu 3
        push(&mut b, 1); // period
                         // raw: the kernel pads size + data to 8 bytes and counts the padding.
        b.extend_from_slice(&12u32.to_le_bytes());
        b.extend_from_slice(&[1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0]);
        let len = b.len() as u16;
        b[6..8].copy_from_slice(&len.to_le_bytes());
        let info = parse(&b, td::PerfByteReader::new(false), &session, &d).unwrap();
        assert_eq!(
            (
                info.ip,
                info.pid,
                info.tid,
                info.time,
                info.cpu,
                info.period
            ),
            (0x1234, 7, 8, 1_000_000, 3, 1)
        );
        assert_eq!(info.raw_data(), &[1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(b.len(), 64);
    }

    #[test]
    fn truncated_samples_are_refused() {
        let st = St::Tid.0 | St::Time.0 | St::Raw.0;
        let d = desc(st);
        let session = td::PerfSessionInfo::new(td::PerfByteReader::new(false));
        let mut b = vec![9, 0, 0, 0, 0, 0, 0, 0];
        push(&mut b, 1);
        assert!(parse(&b, td::PerfByteReader::new(false), &session, &d).is_err());
        push(&mut b, 2);
        b.extend_from_slice(&100u32.to_le_bytes());
        b.extend_from_slice(&[0; 4]);
        assert!(parse(&b, td::PerfByteReader::new(false), &session, &d).is_err());
    }
}
