//! Packs the prefix of an EventHeader event: the 8-byte header, then the
//! activity id extension when there is one. The metadata extension (if any)
//! is the caller's static block and goes out as its own vector, uncopied.

use crate::abi::eventheader_format::{EventHeaderExtensionKind as Kind, EventHeaderFlags};
use core::mem::MaybeUninit;

use crate::abi::EventHeader;
use crate::bytes::copy;

/// Header + extension header + activity id + related activity id.
pub const PREFIX_MAX: usize = 8 + 4 + 32;

/// The extension bit of eventheader.flags.
pub const FLAG_EXTENSION: u8 = EventHeaderFlags::eventheader_flag_extension as u8;
const KIND_ACTIVITY_ID: u16 = Kind::eventheader_extension_kind_activity_id as u16;
const KIND_CHAIN: u16 = Kind::eventheader_extension_kind_chain_flag as u16;

/// The header and a chained activity id extension with its ids, laid out as
/// they go out: the prefix of an event with an activity id and metadata.
#[repr(C)]
pub struct ActivityPrefix {
    header: EventHeader,
    size: u16,
    kind: u16,
    id: [u8; 16],
    /// Initialized only when there is a related id (else it does not go out).
    related: MaybeUninit<[u8; 16]>,
}

const _: () = assert!(core::mem::size_of::<ActivityPrefix>() == PREFIX_MAX);

impl ActivityPrefix {
    /// The prefix of an event whose header already announces extensions
    /// (the metadata that follows): `header` as it is, then the activity id
    /// extension, chained, with `id` and `related`. Returns it and the
    /// length that goes out (28 or 44 bytes).
    #[inline(always)]
    pub fn chained(
        header: &EventHeader,
        id: &[u8; 16],
        related: Option<&[u8; 16]>,
    ) -> (Self, usize) {
        let mut prefix = ActivityPrefix {
            header: *header,
            size: 16,
            kind: KIND_ACTIVITY_ID | KIND_CHAIN,
            id: *id,
            related: MaybeUninit::uninit(),
        };
        if let Some(related) = related {
            prefix.size = 32;
            prefix.related.write(*related);
        }
        let len = 12 + usize::from(prefix.size);
        (prefix, len)
    }
}

/// Writes the event prefix into `out` and returns its length.
///
/// - `header` is the event's header; the extension flag is added when an
///   activity id or metadata follows.
/// - `activity` is `(activity_id, related_activity_id)`.
/// - `has_metadata`: a metadata extension follows the prefix, so the
///   activity extension (if any) carries the chain flag. It also carries it
///   when the event's own header already announces extensions (the caller's
///   payload starts with more of them).
pub fn pack_prefix(
    out: &mut [u8; PREFIX_MAX],
    header: &EventHeader,
    activity: Option<(&[u8; 16], Option<&[u8; 16]>)>,
    has_metadata: bool,
) -> usize {
    let mut flags = header.flags;
    let mut len = 8;
    if let Some((id, related)) = activity {
        let more = has_metadata || header.flags & FLAG_EXTENSION != 0;
        let kind = if more {
            KIND_ACTIVITY_ID | KIND_CHAIN
        } else {
            KIND_ACTIVITY_ID
        };
        let size: u16 = if related.is_some() { 32 } else { 16 };
        copy(&mut out[8..10], &size.to_ne_bytes());
        copy(&mut out[10..12], &kind.to_ne_bytes());
        copy(&mut out[12..28], id);
        len = 28;
        if let Some(related) = related {
            copy(&mut out[28..44], related);
            len = 44;
        }
        flags |= FLAG_EXTENSION;
    }
    if has_metadata {
        flags |= FLAG_EXTENSION;
    }
    out[0] = flags;
    out[1] = header.version;
    copy(&mut out[2..4], &header.id.to_ne_bytes());
    copy(&mut out[4..6], &header.tag.to_ne_bytes());
    out[6] = header.opcode;
    out[7] = header.level;
    len
}

#[cfg(test)]
mod tests {
    // The expected bytes follow docs/format.md §2.5 (header, then the
    // activity id extension and its chain bit), on a little-endian host.
    use super::*;

    fn header() -> EventHeader {
        EventHeader {
            flags: 3,
            version: 2,
            id: 0x1234,
            tag: 0xabcd,
            opcode: 1,
            level: 5,
        }
    }

    #[test]
    fn header_only() {
        let mut out = [0u8; PREFIX_MAX];
        let n = pack_prefix(&mut out, &header(), None, false);
        assert_eq!(&out[..n], &[3, 2, 0x34, 0x12, 0xcd, 0xab, 1, 5]);
    }

    #[test]
    fn metadata_sets_extension_flag() {
        let mut out = [0u8; PREFIX_MAX];
        let n = pack_prefix(&mut out, &header(), None, true);
        assert_eq!(n, 8);
        assert_eq!(out[0], 7);
    }

    #[test]
    fn activity_alone_is_the_last_extension() {
        let mut out = [0u8; PREFIX_MAX];
        let id = [0x11u8; 16];
        let n = pack_prefix(&mut out, &header(), Some((&id, None)), false);
        assert_eq!(n, 28);
        assert_eq!(out[0], 7);
        assert_eq!(&out[8..12], &[16, 0, 2, 0]);
        assert_eq!(&out[12..28], &id);
    }

    #[test]
    fn chained_activity_prefix_is_what_pack_prefix_writes_for_metadata() {
        let mut h = header();
        h.flags |= FLAG_EXTENSION;
        let id = [0x11u8; 16];
        let rel = [0x22u8; 16];
        for related in [None, Some(&rel)] {
            let mut out = [0u8; PREFIX_MAX];
            let n = pack_prefix(&mut out, &h, Some((&id, related)), true);
            let (prefix, len) = ActivityPrefix::chained(&h, &id, related);
            assert_eq!(len, n);
            // SAFETY: ActivityPrefix is repr(C) without padding, and its
            // first `len` bytes are initialized.
            let bytes = unsafe {
                core::slice::from_raw_parts(&prefix as *const ActivityPrefix as *const u8, len)
            };
            assert_eq!(bytes, &out[..n]);
        }
    }

    #[test]
    fn activity_chains_to_metadata_and_to_caller_extensions() {
        let mut out = [0u8; PREFIX_MAX];
        let id = [0x11u8; 16];
        let rel = [0x22u8; 16];
        let n = pack_prefix(&mut out, &header(), Some((&id, Some(&rel))), true);
        assert_eq!(n, 44);
        assert_eq!(&out[8..12], &[32, 0, 2, 0x80]);
        assert_eq!(&out[28..44], &rel);

        let mut h = header();
        h.flags |= 4;
        let n = pack_prefix(&mut out, &h, Some((&id, None)), false);
        assert_eq!(n, 28);
        assert_eq!(&out[8..12], &[16, 0, 2, 0x80]);
    }
}
