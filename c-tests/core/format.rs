//! Expected event bytes, built here from the format description
//! (docs/format.md §2.5, §5).

/// Flags of an event with extensions, 64-bit little-endian.
pub const FLAGS_EXT: u8 = 0x07;
/// Flags of an event without extensions.
pub const FLAGS_PLAIN: u8 = 0x03;

/// An eventheader: flags, version, id, tag, opcode, level (little-endian).
pub fn hdr(flags: u8, version: u8, id: u16, tag: u16, opcode: u8, level: u8) -> Vec<u8> {
    let mut v = vec![flags, version];
    v.extend_from_slice(&id.to_le_bytes());
    v.extend_from_slice(&tag.to_le_bytes());
    v.push(opcode);
    v.push(level);
    v
}

/// An extension block header.
pub fn ext(size: usize, kind: u16) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&u16::try_from(size).unwrap().to_le_bytes());
    v.extend_from_slice(&kind.to_le_bytes());
    v
}

/// A complete metadata extension (kind 1, no chain) with `body` = event name,
/// NUL, field definitions.
pub fn meta(body: &[u8]) -> Vec<u8> {
    let mut v = ext(body.len(), 0x0001);
    v.extend_from_slice(body);
    v
}

pub fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

pub fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}
