//! The common case of a run of fields, appended without the typed adders'
//! general path: what the inline fast paths of `eventheader-dynamic.h` do
//! in C, for the library's own callers (the field-array exports). Values
//! and 8-bit strings whose metadata and payload all fit the buffers as they
//! are, in a builder without an error in the normal fields mode, are
//! checked once for the whole run and copied; anything else (growth,
//! errors, other modes, structs, arrays, wider strings) is refused with
//! nothing appended, and the caller adds the fields one by one with the
//! typed adders, which give the same bytes or the error.
//!
//! Bookkeeping the typed adders keep per field must be kept here too.
#![deny(clippy::multiple_unsafe_ops_per_block)]
#![deny(clippy::undocumented_unsafe_blocks)]

use super::field::{meta_tail, FORMAT_MAX};
use super::{Builder, Name, Parts, EVENT_SIZE_LIMIT, EXT_HEADER};

/// Fields per run (the callers split longer lists).
pub const SIMPLE_RUN: usize = 16;

/// One field of a run: its metadata (name, then the tail after it) and its
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
    /// Appends `fields` (at most SIMPLE_RUN) if they all fit as they are:
    /// no latched error, normal mode, room in both buffers without growing,
    /// within the event size limit. Else appends nothing and returns false.
    #[inline(always)]
    pub fn append_simple(&mut self, fields: &[Simple<'_>]) -> bool {
        if self.error != 0 || self.parts != Parts::Both || fields.len() > SIMPLE_RUN {
            return false;
        }
        // At most 16 fields of names and bodies of at most 65535 + 16
        // bytes each (the callers' bound): the sums cannot wrap.
        let mut meta: usize = 0;
        let mut data: usize = 0;
        for f in fields {
            if f.name.len() > usize::from(u16::MAX) || f.body.len() > usize::from(u16::MAX) {
                return false;
            }
            meta = meta + f.name.len() + usize::from(f.tail_len);
            data = data + usize::from(f.head_len) + f.body.len() + usize::from(f.zero);
        }
        // The last name's 8-byte tail block may reach 8 bytes past `meta`.
        if meta + 8 > self.meta.room()
            || data > self.data.room()
            || self.meta.len() + self.data.len() + meta + data > EVENT_SIZE_LIMIT + EXT_HEADER
        {
            return false;
        }
        for f in fields {
            // SAFETY: the room for every field's metadata (and the last
            // tail block's 8 bytes) and payload was checked above.
            unsafe {
                self.meta
                    .extend_padded_unchecked(f.name, f.tail, usize::from(f.tail_len))
            };
            let head = f.head.get(..usize::from(f.head_len)).unwrap_or(&[]);
            // SAFETY: as above.
            unsafe { self.data.extend_unchecked(head) };
            // SAFETY: as above.
            unsafe { self.data.extend_unchecked(f.body) };
            if f.zero {
                // SAFETY: as above.
                unsafe { self.data.extend_unchecked(&[0]) };
            }
        }
        true
    }
}
