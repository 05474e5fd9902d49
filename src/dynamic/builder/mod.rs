//! The event builder: an EventHeader event whose name, fields and header
//! values are given at run time. Fields append their metadata (name,
//! encoding, format, tag, constant count) and their payload to two buffers
//! that are reused from event to event; [`Builder::finish`] hands both to
//! the write.
//!
//! - [`field`]: encoding values, names, one field's metadata bytes;
//! - [`adders`]: the typed adders (values, strings, arrays, structs);
//! - [`append`]: a value or string field that fits as it is, without the
//!   adders' general path (the field-array exports' common case);
//! - [`raw`]: metadata and payload as given (advanced use);
//! - [`storage`]: where a builder's buffers live (its own allocations,
//!   storage it is given, one heap block) and copies and moves of events
//!   between builders.
//!
//! Arrays of structs: [`Builder::add_struct_array`], then the members of the
//! first element as ordinary fields, then the other elements in
//! [`Parts::PayloadOnly`] mode; an empty array's members in
//! [`Parts::MetadataOnly`] mode.
//!
//! Errors are latched: the first failing call records its errno, the calls
//! after it do nothing and return it, and the write returns it without
//! writing. `reset` starts a new event and clears the error. A builder that
//! was never reset has the error EINVAL.
//!
//! Layout: `#[repr(C)]`, because `EventHeaderDynamic.h` keeps a builder
//! inside each `ehd::EventBuilder` (no allocation for a builder of typical
//! size) and appends the common fields to its buffers inline
//! (`_ehd_builder_state` in that header, checked against this type by
//! `tests/abi-layout`). What the inline code may do is part of the layout's
//! contract: append within a buffer's capacity while the event stays within
//! [`EVENT_SIZE_LIMIT`] (updating `len`), start an event as `reset` does
//! when the name fits, set the header values and the member count of a
//! struct at a valid bookmark; everything else (growth,
//! errors, other modes) goes through the library.

mod adders;
mod append;
pub use append::Run;
pub mod field;
mod limits;
pub use limits::Edit;
mod raw;
pub mod shape;
mod storage;
#[cfg(test)]
mod tests;

use core::ffi::c_int;

use super::buffer::Buffer;
pub use field::{char_size, encoding as enc, value_size, Name};

/// The largest metadata + payload an event may have, in bytes: 64 KiB less
/// room for the header and extensions, the reference's bound. Over it, the
/// write returns ERANGE (the kernel drops events over about 64 KiB).
pub const EVENT_SIZE_LIMIT: usize = 65535 - 68;

/// A bookmark that refers to nothing: what a failed `add_struct` returns;
/// setting a field count through it does nothing.
pub const NO_BOOKMARK: usize = usize::MAX;

/// Bytes at the start of the metadata buffer for the metadata extension's
/// own header (`u16 size`, `u16 kind`), filled in by `finish`.
pub const EXT_HEADER: usize = 4;
/// eventheader_extension_kind_metadata.
const KIND_METADATA: u16 = 1;

/// The metadata storage of a builder from [`Builder::boxed`] when less is
/// asked for: 256 bytes of metadata, its extension header and the room the
/// appends' 8-byte stores need past the end.
pub const BOXED_META_ROOM: usize = 256 + EXT_HEADER + 12;
/// The payload storage of a builder from [`Builder::boxed`] when less is
/// asked for.
pub const BOXED_DATA_ROOM: usize = 256;

/// Which parts of a field the typed adders append.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parts {
    /// Metadata and payload (the default).
    Both = 0,
    /// Payload only: the second and later elements of an array of structs.
    PayloadOnly = 1,
    /// Metadata only: the members of an array of no structs.
    MetadataOnly = 2,
}

/// The header values of the event being built.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct HeaderValues {
    pub id: u16,
    pub tag: u16,
    pub version: u8,
    pub opcode: u8,
    /// The level the event is meant for, 0 for any (the header always gets
    /// the event set's level).
    pub level: u8,
}

/// An event under construction. Not thread-safe: one thread at a time.
#[repr(C)]
pub struct Builder {
    /// The metadata extension: EXT_HEADER bytes, event name, NUL, fields.
    meta: Buffer<u8>,
    /// The payload.
    data: Buffer<u8>,
    /// The latched errno (0: none).
    error: c_int,
    /// The header values (HeaderValues, flat: the C layout has them so).
    id: u16,
    tag: u16,
    version: u8,
    opcode: u8,
    level: u8,
    /// Which parts of a field the typed adders append.
    parts: Parts,
    /// How far a field appended inline may take `meta`'s and `data`'s
    /// lengths ([`limits`]).
    meta_limit: usize,
    data_limit: usize,
}

/// Offsets and sizes of the builder's fields, for the layout test against
/// `_ehd_builder_state` of `EventHeaderDynamic.h` (`tests/abi-layout`):
/// (C field path, offset, size).
#[doc(hidden)]
pub const LAYOUT: [(&str, usize, usize); 17] = {
    use core::mem::{offset_of, size_of};
    const M: usize = offset_of!(Builder, meta);
    const D: usize = offset_of!(Builder, data);
    let [ptr, len, cap, owned] = Buffer::<u8>::LAYOUT;
    [
        ("meta.ptr", M + ptr.0, ptr.1),
        ("meta.len", M + len.0, len.1),
        ("meta.cap", M + cap.0, cap.1),
        ("meta.owned", M + owned.0, owned.1),
        ("data.ptr", D + ptr.0, ptr.1),
        ("data.len", D + len.0, len.1),
        ("data.cap", D + cap.0, cap.1),
        ("data.owned", D + owned.0, owned.1),
        ("error", offset_of!(Builder, error), size_of::<c_int>()),
        ("id", offset_of!(Builder, id), 2),
        ("tag", offset_of!(Builder, tag), 2),
        ("version", offset_of!(Builder, version), 1),
        ("opcode", offset_of!(Builder, opcode), 1),
        ("level", offset_of!(Builder, level), 1),
        ("fields_mode", offset_of!(Builder, parts), 1),
        (
            "meta_limit",
            offset_of!(Builder, meta_limit),
            size_of::<usize>(),
        ),
        (
            "data_limit",
            offset_of!(Builder, data_limit),
            size_of::<usize>(),
        ),
    ]
};

impl Builder {
    /// The latched errno, 0 if none.
    pub fn error(&self) -> c_int {
        self.error
    }

    /// Latches `err` unless an error is latched already; returns the
    /// latched error.
    #[cold]
    pub fn fail(&mut self, err: c_int) -> c_int {
        if self.error == 0 {
            self.error = err;
        }
        self.error
    }

    /// The header values set so far.
    #[inline(always)]
    pub fn header(&self) -> HeaderValues {
        HeaderValues {
            id: self.id,
            tag: self.tag,
            version: self.version,
            opcode: self.opcode,
            level: self.level,
        }
    }

    fn set_header(&mut self, header: HeaderValues) {
        self.id = header.id;
        self.tag = header.tag;
        self.version = header.version;
        self.opcode = header.opcode;
        self.level = header.level;
    }

    /// The metadata so far (event name, NUL, fields), without the extension
    /// header.
    pub fn metadata(&self) -> &[u8] {
        self.meta.as_slice().get(EXT_HEADER..).unwrap_or(&[])
    }

    /// The payload so far.
    pub fn payload(&self) -> &[u8] {
        self.data.as_slice()
    }

    /// Capacities of the two buffers (metadata, payload), in bytes.
    pub fn capacities(&self) -> (usize, usize) {
        (self.meta.capacity(), self.data.capacity())
    }

    /// Whether either buffer has moved to `malloc`ed memory.
    pub fn allocated(&self) -> bool {
        self.meta.is_owned() || self.data.is_owned()
    }

    /// Starts a new event named `name` with event tag `tag`:
    /// clears fields, error, header values (opcode info, id, version and
    /// level 0) and data-only mode.
    #[inline(always)]
    pub fn reset(&mut self, name: Name<'_>, tag: u16) -> c_int {
        self.meta.clear();
        self.start_fields(tag);
        // The extension header's bytes (filled in by finish), the name, NUL.
        match self
            .meta
            .extend_framed([0; EXT_HEADER], name.bytes(), [0; 8], 1)
        {
            Ok(()) => 0,
            Err(e) => self.fail(e),
        }
    }

    /// What every reset does besides the metadata: no payload, no latched
    /// error, both parts (not data-only), the header values of a new event
    /// with tag `tag`.
    #[inline(always)]
    fn start_fields(&mut self, tag: u16) {
        self.data.clear();
        self.error = 0;
        self.parts = Parts::Both;
        self.set_header(HeaderValues {
            tag,
            ..HeaderValues::default()
        });
    }

    /// Sets the event's id and version (both 0 after reset).
    pub fn set_id_version(&mut self, id: u16, version: u8) -> c_int {
        self.id = id;
        self.version = version;
        self.error
    }

    /// Sets the event's opcode (info after reset).
    pub fn set_opcode(&mut self, opcode: u8) -> c_int {
        self.opcode = opcode;
        self.error
    }

    /// Sets the event's tag (reset's argument until then).
    pub fn set_tag(&mut self, tag: u16) -> c_int {
        self.tag = tag;
        self.error
    }

    /// Sets the level the event is meant for; 0 (after reset): any. The
    /// write refuses (EINVAL) an event set of another level.
    pub fn set_level(&mut self, level: u8) -> c_int {
        self.level = level;
        self.error
    }

    /// Which parts of their field the typed adders append from now on (the
    /// elements of an array of structs: see add_struct_array).
    pub fn set_parts(&mut self, parts: Parts) -> c_int {
        self.parts = parts;
        self.error
    }

    /// Which parts of their field the typed adders append.
    pub fn parts(&self) -> Parts {
        self.parts
    }

    /// Ok if `meta_more` metadata and `data_more` payload bytes still fit the
    /// event size limit, else ERANGE. The buffers never grow past it.
    #[inline(always)]
    fn room(&self, meta_more: usize, data_more: usize) -> Result<(), c_int> {
        // Both lengths are below the limit plus one field (every append
        // checks), so the sum cannot wrap; the additions saturate.
        let used = self.meta.len().wrapping_add(self.data.len());
        let total = used.saturating_add(meta_more).saturating_add(data_more);
        if total > EVENT_SIZE_LIMIT + EXT_HEADER {
            Err(libc::ERANGE)
        } else {
            Ok(())
        }
    }

    /// Counts a struct field (saturating at 255), so that the write checks
    /// the shape ([`shape`]) of an event with more structs than may nest:
    /// the extension header's first byte, 0 from the reset until `finish`
    /// fills the header in (the inline paths of `eventheader-dynamic.h`
    /// count theirs too).
    fn mark_struct(&mut self) {
        if let Some(first) = self.meta.as_mut_slice().first_mut() {
            *first = first.saturating_add(1);
        }
    }

    /// Records the outcome of an append: 0, or the latched error.
    #[inline(always)]
    fn done(&mut self, result: Result<(), c_int>) -> c_int {
        match result {
            Ok(()) => 0,
            Err(e) => self.fail(e),
        }
    }

    /// Checks that the event can be written: the latched error, else ERANGE
    /// if metadata + payload exceed EVENT_SIZE_LIMIT, else E2BIG if
    /// decoders cannot read its shape (more than 255 top-level fields or 8
    /// nested structs: [`shape`]). Then fills in the metadata extension
    /// header and returns (extension block, payload).
    #[inline(always)]
    pub fn finish(&mut self) -> Result<(&[u8], &[u8]), c_int> {
        if self.error != 0 {
            return Err(self.error);
        }
        self.room(0, 0)?;
        // Only an event with more struct fields than may nest (counted in
        // the extension header's first byte, 0 from the reset until this
        // fills it in) or with at least 2 bytes of metadata per possible
        // top-level field can have a shape decoders cannot read: no other
        // event pays for the walk (a logs exporter's record has a few
        // structs and a few hundred bytes of metadata).
        let meta = self.meta.as_slice();
        if meta
            .first()
            .is_some_and(|&structs| usize::from(structs) > shape::STRUCT_NESTING_MAX)
            || meta.len() >= EXT_HEADER + 2 * shape::TOP_LEVEL_FIELDS_MAX as usize
        {
            // After the extension header: the event name, its NUL, the fields.
            let named = meta.get(EXT_HEADER..).unwrap_or_default();
            if let Some(name_len) = crate::bytes::find_nul(named) {
                shape::check(named.get(name_len + 1..).unwrap_or_default())?;
            }
        }
        // At most EVENT_SIZE_LIMIT: fits 16 bits.
        let size = self.meta.len().wrapping_sub(EXT_HEADER) as u16;
        let size = size.to_ne_bytes();
        let kind = KIND_METADATA.to_ne_bytes();
        let ext = u32::from_ne_bytes([size[0], size[1], kind[0], kind[1]]);
        if let Some(head) = self.meta.as_mut_slice().first_chunk_mut::<EXT_HEADER>() {
            *head = ext.to_ne_bytes();
        }
        Ok((self.meta.as_slice(), self.data.as_slice()))
    }
}
