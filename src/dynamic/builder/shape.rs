//! The shapes of events that EventHeader decoders can read. The decoders in
//! use (the reference's `EventEnumerator` in C++, C# and Rust, and so
//! `tracepoint_decode`, which `eventheader decode` uses) read at most 255
//! fields at the top level of an event (the rest of its metadata is
//! ignored) and at most 8 levels of nested structs (deeper, they fail with
//! a stack overflow error), whatever the writer accepted. The builder
//! refuses such events at the write with E2BIG rather than write what no
//! decoder reads (docs/runtime-defined-events.md).

use core::ffi::c_int;

use super::field::{encoding as enc, FORMAT_CHAIN, FORMAT_MAX};

/// The most fields the top level of an event may have.
pub const TOP_LEVEL_FIELDS_MAX: u32 = 255;
/// The most structs that may be open (nested in one another) at once.
pub const STRUCT_NESTING_MAX: usize = 8;

/// Checks the fields' metadata (after the event name and its NUL): E2BIG
/// if it has more than [`TOP_LEVEL_FIELDS_MAX`] top-level fields or more
/// than [`STRUCT_NESTING_MAX`] nested structs (an array of structs counts
/// as a struct, whatever its length). Metadata that ends inside a field
/// (only raw metadata can) is left to the decoders, as it is.
#[inline(never)]
pub fn check(fields: &[u8]) -> Result<(), c_int> {
    // The fields still to come in each open struct, innermost last.
    let mut open = [0u8; STRUCT_NESTING_MAX];
    let mut depth = 0;
    let mut top_level = 0u32;
    let mut rest = fields;
    // Each field: name, NUL, encoding[, format[, tag]][, constant count].
    while let Some(name_len) = rest.iter().position(|&b| b == 0) {
        let Some((&encoding, after)) = rest.get(name_len + 1..).and_then(<[u8]>::split_first)
        else {
            return Ok(());
        };
        rest = after;
        let mut format = 0;
        if encoding & enc::CHAIN != 0 {
            let Some((&f, after)) = rest.split_first() else {
                return Ok(());
            };
            format = f;
            rest = after;
            if f & FORMAT_CHAIN != 0 {
                rest = rest.get(2..).unwrap_or_default(); // the tag
            }
        }
        if encoding & (enc::CARRAY | enc::VARRAY) == enc::CARRAY {
            rest = rest.get(2..).unwrap_or_default(); // the constant count
        }
        // The field belongs to the innermost open struct, or the top level.
        if depth == 0 {
            top_level += 1;
            if top_level > TOP_LEVEL_FIELDS_MAX {
                return Err(libc::E2BIG);
            }
        } else if let Some(left) = open.get_mut(depth - 1) {
            *left = left.wrapping_sub(1);
        }
        let members = format & FORMAT_MAX;
        if encoding & enc::VALUE_MASK == enc::STRUCT && members != 0 {
            let Some(slot) = open.get_mut(depth) else {
                return Err(libc::E2BIG);
            };
            *slot = members;
            depth += 1;
        } else {
            // Structs whose last member this was are complete.
            while depth > 0 && open.get(depth - 1) == Some(&0) {
                depth -= 1;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn scalar(meta: &mut Vec<u8>) {
        meta.extend_from_slice(b"v\0");
        meta.push(enc::VALUE8 + 2); // value32
    }

    fn structure(meta: &mut Vec<u8>, members: u8) {
        meta.extend_from_slice(b"s\0");
        meta.extend_from_slice(&[enc::STRUCT | enc::CHAIN, members]);
    }

    /// `depth` structs, each holding the next, the innermost a scalar.
    fn nested(depth: usize) -> Vec<u8> {
        let mut meta = Vec::new();
        for _ in 0..depth {
            structure(&mut meta, 1);
        }
        scalar(&mut meta);
        meta
    }

    /// The decoders' limits of docs/format.md §5.3.
    #[test]
    fn eight_nested_structs_and_no_more() {
        assert_eq!(check(&nested(8)), Ok(()));
        assert_eq!(check(&nested(9)), Err(libc::E2BIG));
        assert_eq!(check(&nested(30)), Err(libc::E2BIG));
        // Side by side, not nested: any number.
        let mut meta = Vec::new();
        for _ in 0..100 {
            structure(&mut meta, 1);
            scalar(&mut meta);
        }
        assert_eq!(check(&meta), Ok(()));
        // A struct closes after its last member: 8 deep, then 8 deep again.
        let mut meta = nested(8);
        meta.extend_from_slice(&nested(8));
        assert_eq!(check(&meta), Ok(()));
        // An array of structs nests as a struct does.
        let mut meta = nested(8);
        let inner = meta.len() - 3;
        meta.truncate(inner);
        meta.extend_from_slice(b"a\0");
        meta.extend_from_slice(&[enc::STRUCT | enc::CHAIN | enc::VARRAY, 1]);
        scalar(&mut meta);
        assert_eq!(check(&meta), Err(libc::E2BIG));
    }

    #[test]
    fn two_hundred_fifty_five_top_level_fields_and_no_more() {
        let mut meta = Vec::new();
        for _ in 0..255 {
            scalar(&mut meta);
        }
        assert_eq!(check(&meta), Ok(()));
        scalar(&mut meta);
        assert_eq!(check(&meta), Err(libc::E2BIG));
        // Members of structs are not top-level fields: 2 structs of 127
        // and 253 more fields.
        let mut meta = Vec::new();
        for _ in 0..2 {
            structure(&mut meta, 127);
            for _ in 0..127 {
                scalar(&mut meta);
            }
        }
        for _ in 0..253 {
            scalar(&mut meta);
        }
        assert_eq!(check(&meta), Ok(()));
        scalar(&mut meta);
        assert_eq!(check(&meta), Err(libc::E2BIG));
    }

    #[test]
    fn formats_tags_and_counts_are_stepped_over() {
        let mut meta = Vec::new();
        // value32 with a format and a tag; a constant-count array; a
        // variable-count one.
        meta.extend_from_slice(b"f\0");
        meta.extend_from_slice(&[(enc::VALUE8 + 2) | enc::CHAIN, 1 | FORMAT_CHAIN, 0x34, 0x12]);
        meta.extend_from_slice(b"c\0");
        meta.extend_from_slice(&[(enc::VALUE8 + 2) | enc::CARRAY, 4, 0]);
        meta.extend_from_slice(b"v\0");
        meta.push((enc::VALUE8 + 2) | enc::VARRAY);
        // A struct with a tag: its member count is still the format's.
        meta.extend_from_slice(b"s\0");
        meta.extend_from_slice(&[enc::STRUCT | enc::CHAIN, 1 | FORMAT_CHAIN, 0, 0]);
        scalar(&mut meta);
        let mut deep = meta.clone();
        deep.extend_from_slice(&nested(8));
        assert_eq!(check(&deep), Ok(()));
        // Truncated metadata (raw) is the decoders' to report.
        assert_eq!(check(&meta[..meta.len() - 1]), Ok(()));
        assert_eq!(check(b"name-without-nul"), Ok(()));
        assert_eq!(check(&[]), Ok(()));
    }
}
