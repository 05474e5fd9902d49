//! The common case of a field, appended without the typed adders' general
//! path: what the inline fast paths of `eventheader-dynamic.h` do in C,
//! for the library's own callers (the field-array exports). A value or an
//! 8-bit string whose metadata and payload fit the buffers as they are, in
//! a builder without an error in the normal fields mode, is checked and
//! copied here; anything else (growth, errors, other modes, structs,
//! arrays, wider strings) is refused with nothing appended, and the caller
//! takes the typed adder, which gives the same bytes or the error.
//!
//! Bookkeeping the typed adders keep per field must be kept here too.
#![deny(clippy::multiple_unsafe_ops_per_block)]
#![deny(clippy::undocumented_unsafe_blocks)]

use super::field::{meta_tail, FORMAT_MAX};
use super::{Builder, Name, Parts, EVENT_SIZE_LIMIT, EXT_HEADER};

/// A field: its metadata (name, then the tail after it) and its
/// payload (a head of 0 or 2 bytes, the body, and a zero byte or not).
#[derive(Clone, Copy)]
pub struct Simple<'a> {
    name: &'a [u8],
    tail: [u8; 8],
    tail_len: u8,
    head: [u8; 2],
    head_len: u8,
    zero: bool,
    body: &'a [u8],
}

impl<'a> Simple<'a> {
    /// A field of one value (`encoding` value8 ... value128 without flags,
    /// `value` its size). None if `format` is out of range.
    #[inline(always)]
    pub fn value(
        name: Name<'a>,
        encoding: u8,
        format: u8,
        tag: u16,
        value: &'a [u8],
    ) -> Option<Self> {
        if format > FORMAT_MAX {
            return None;
        }
        let (tail, tail_len) = meta_tail(encoding, format, tag, None);
        Some(Simple {
            name: name.bytes(),
            tail,
            tail_len: tail_len as u8,
            head: [0; 2],
            head_len: 0,
            zero: false,
            body: value,
        })
    }

    /// An 8-bit string field: counted (string_length16_char8 or
    /// binary_length16_char8: the u16 count, then `chars`), or
    /// NUL-terminated (zstring_char8: `chars`, which hold no NUL, then a
    /// zero byte). None if `format` is out of range or a counted string is
    /// over 65535 characters.
    #[inline(always)]
    pub fn string8(
        name: Name<'a>,
        encoding: u8,
        format: u8,
        tag: u16,
        chars: &'a [u8],
        counted: bool,
    ) -> Option<Self> {
        let count = u16::try_from(chars.len()).ok()?;
        if format > FORMAT_MAX {
            return None;
        }
        let (tail, tail_len) = meta_tail(encoding, format, tag, None);
        Some(Simple {
            name: name.bytes(),
            tail,
            tail_len: tail_len as u8,
            head: count.to_ne_bytes(),
            head_len: if counted { 2 } else { 0 },
            zero: !counted,
            body: chars,
        })
    }
}

impl Builder {
    /// Appends `field` if it fits as it is: no latched error, normal mode,
    /// room in both buffers without growing, within the event size limit.
    /// Else appends nothing and returns false.
    #[inline(always)]
    pub fn append_simple(&mut self, field: Simple<'_>) -> bool {
        let meta = field.name.len() + usize::from(field.tail_len);
        let data = usize::from(field.head_len) + field.body.len() + usize::from(field.zero);
        // Names and bodies are at most 65535 bytes (the constructors' and
        // callers' bound) and the lengths below the limit: no sum wraps. The
        // name's 8-byte tail block may reach 8 bytes past `meta`.
        if self.error != 0
            || self.parts != Parts::Both
            || field.name.len() > usize::from(u16::MAX)
            || meta + 8 > self.meta.room()
            || data > self.data.room()
            || self.meta.len() + self.data.len() + meta + data > EVENT_SIZE_LIMIT + EXT_HEADER
        {
            return false;
        }
        // SAFETY: the room for the metadata (and the tail block's 8 bytes)
        // and the payload was checked above.
        unsafe {
            self.meta
                .extend_padded_unchecked(field.name, field.tail, usize::from(field.tail_len))
        };
        if field.head_len != 0 {
            // SAFETY: as above.
            unsafe { self.data.extend_unchecked(&field.head) };
        }
        // SAFETY: as above.
        unsafe { self.data.extend_unchecked(field.body) };
        if field.zero {
            // SAFETY: as above.
            unsafe { self.data.extend_unchecked(&[0]) };
        }
        true
    }
}
