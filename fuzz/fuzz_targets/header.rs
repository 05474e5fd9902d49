//! EventHeader prefix packing (header + activity id extension) for arbitrary
//! headers, ids and metadata presence, against a model of docs/format.md §2.5/§4.
#![no_main]

use eventheader_tracepoint::abi::EventHeader;
use eventheader_tracepoint::eventheader::prefix::{pack_prefix, PREFIX_MAX};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 10 + 32 {
        return;
    }
    let header = EventHeader {
        flags: data[0],
        version: data[1],
        id: u16::from_ne_bytes([data[2], data[3]]),
        tag: u16::from_ne_bytes([data[4], data[5]]),
        opcode: data[6],
        level: data[7],
    };
    let mode = data[8];
    let has_metadata = mode & 1 != 0;
    let id: [u8; 16] = data[10..26].try_into().unwrap();
    let related: [u8; 16] = data[26..42].try_into().unwrap();
    let activity = match (mode >> 1) & 3 {
        0 | 3 => None,
        1 => Some((&id, None)),
        _ => Some((&id, Some(&related))),
    };
    // Pre-fill with garbage: pack_prefix must write every byte it reports.
    let mut out = [data[9]; PREFIX_MAX];
    let len = pack_prefix(&mut out, &header, activity, has_metadata);

    let mut flags = header.flags;
    if activity.is_some() || has_metadata {
        flags |= 0x04;
    }
    let mut model = vec![flags, header.version];
    model.extend_from_slice(&header.id.to_ne_bytes());
    model.extend_from_slice(&header.tag.to_ne_bytes());
    model.push(header.opcode);
    model.push(header.level);
    if let Some((id, related)) = activity {
        let size: u16 = if related.is_some() { 32 } else { 16 };
        let chain = has_metadata || header.flags & 0x04 != 0;
        let kind: u16 = 2 | if chain { 0x8000 } else { 0 };
        model.extend_from_slice(&size.to_ne_bytes());
        model.extend_from_slice(&kind.to_ne_bytes());
        model.extend_from_slice(id);
        if let Some(r) = related {
            model.extend_from_slice(r);
        }
    }
    assert!(len <= PREFIX_MAX);
    assert_eq!(&out[..len], &model[..]);
});
