//! The common case of a field, appended without the typed adders' general
//! path: what the inline fast paths of `eventheader-dynamic.h` do in C,
//! for the library's own callers (the field-array exports). A [`Run`]
//! appends values and 8-bit strings one after the other while they fit the
//! buffers as they are, in a builder without an error in the normal fields
//! mode, the buffers' ends in registers: a field's metadata first, after
//! the end ([`Run::meta`]), then its payload, then the metadata is kept
//! ([`Run::keep`]). A field it refuses (growth, a format out of range, a NUL
//! in its name, a counted string over 65535 characters) is appended not at
//! all, and the caller takes the typed adder, which gives the same bytes or
//! the error.
//!
//! Bookkeeping the typed adders keep per field must be kept here too.

use core::ffi::c_int;

use super::{Builder, Name, Parts, EVENT_SIZE_LIMIT, EXT_HEADER};
use crate::dynamic::cursor::Cursor;

/// Appends of fields to a builder, the buffers' ends held until
/// [`Run::finish`] (a run that is not finished appends nothing).
pub struct Run<'b> {
    builder: &'b mut Builder,
    meta: Cursor,
    data: Cursor,
}

impl Builder {
    /// [`Builder::reset`] for a name given as bytes not checked yet: the
    /// check for a NUL made by the copy. 0, else reset's error, or EINVAL
    /// (latched, the event then named "") for a NUL in the name.
    #[inline(always)]
    pub fn reset_with(&mut self, name: &[u8], tag: u16) -> c_int {
        self.meta.clear();
        let mut meta = self.meta.end();
        // The extension header's bytes (filled in by finish), the name, its
        // NUL stored as a block of 8.
        if name.len() + EXT_HEADER + 8 <= meta.room() {
            // SAFETY: room for all of it was checked.
            unsafe { meta.put_block([0; EXT_HEADER], EXT_HEADER) };
            // SAFETY: as above.
            if unsafe { meta.put_without_nul(name) } {
                // SAFETY: as above.
                unsafe { meta.put_block([0; 8], 1) };
                self.start_fields(tag);
                // SAFETY: the end of this buffer, nothing else changed it.
                unsafe { self.meta.set_end(meta) };
                return 0;
            }
        }
        match Name::new(name) {
            Some(name) => self.reset(name, tag),
            None => {
                self.reset(Name::EMPTY, tag);
                self.fail(libc::EINVAL)
            }
        }
    }

    /// A run of field appends; None with a latched error or in another
    /// fields mode than the normal one.
    #[inline(always)]
    pub fn run(&mut self) -> Option<Run<'_>> {
        if self.error != 0 || self.parts != Parts::Both {
            return None;
        }
        let mut meta = self.meta.end();
        let mut data = self.data.end();
        // The event size limit as the rooms: while each field fits its
        // buffer's room, the event stays within the limit. Only an event
        // near the limit has its rooms clamped (a field the clamped rooms
        // refuse goes to the typed adder, which judges it).
        // Buffers whose capacities together stay within it (a new builder's)
        // need no clamp.
        let limit = EVENT_SIZE_LIMIT + EXT_HEADER;
        if meta.capacity() + data.capacity() > limit {
            let left = limit.saturating_sub(meta.len() + data.len());
            if meta.room() + data.room() > left {
                meta.clamp_room(left / 2);
                data.clamp_room(left - meta.room());
            }
        }
        Some(Run {
            builder: self,
            meta,
            data,
        })
    }
}

impl Run<'_> {
    /// Writes a field's metadata after the metadata's end: its name (the
    /// bytes as given, kept only if they hold no NUL) and the bytes after it
    /// as [`meta_tail`](super::field::meta_tail) lays them out, from `word`:
    /// the encoding, format and tag bytes in that order (the tag's in the
    /// target's order) as a little-endian word. Returns their length for
    /// [`Run::keep`] once the payload is appended, or 0 if it refused them (a
    /// format out of range, a NUL, no room).
    #[inline(always)]
    pub fn meta(&mut self, name: &[u8], word: u32) -> usize {
        // The name's 8-byte tail block may reach 8 bytes past the name (its
        // own bytes are fewer); a slice's length is at most isize::MAX.
        if word & 0x8000 != 0 || name.len() + 8 > self.meta.room() {
            return 0; // a format over FORMAT_MAX, or no room
        }
        let mut meta = self.meta;
        // SAFETY: room for the name was checked.
        if !unsafe { meta.put_without_nul(name) } {
            return 0;
        }
        let (tail, tail_len) = tail_of(word);
        // SAFETY: room for the tail block after the name was checked.
        unsafe { meta.put_block(tail, tail_len) };
        name.len() + tail_len
    }

    /// Keeps the `len` bytes of metadata [`Run::meta`] wrote.
    #[inline(always)]
    pub fn keep(&mut self, len: usize) {
        self.meta.advance(len);
    }

    /// Appends one value of 1, 2, 4, 8 or 16 bytes to the payload, if the
    /// room holds 16; whether it did.
    #[inline(always)]
    pub fn value(&mut self, value: &[u8]) -> bool {
        // Room for the largest value: one compare with a constant.
        if self.data.room() < 16 {
            return false;
        }
        // SAFETY: room checked.
        unsafe { self.data.put_value(value) };
        true
    }

    /// Appends the bytes of `chars` before its first NUL and a zero byte to
    /// the payload (zstring_char8), if all of `chars` and the zero byte fit
    /// the room; whether it did.
    #[inline(always)]
    pub fn zstring(&mut self, chars: &[u8]) -> bool {
        // A slice's length is at most isize::MAX: no wrap.
        if chars.len() + 1 > self.data.room() {
            return false;
        }
        // SAFETY: room checked.
        unsafe { self.data.put_zstring(chars) };
        true
    }

    /// Appends the u16 count and the bytes of `chars` to the payload
    /// (string_length16_char8, binary_length16_char8), if they fit the room
    /// and are at most 65535; whether it did.
    #[inline(always)]
    pub fn counted(&mut self, chars: &[u8]) -> bool {
        let Ok(count) = u16::try_from(chars.len()) else {
            return false;
        };
        if chars.len() + 2 > self.data.room() {
            return false;
        }
        // SAFETY: room checked.
        unsafe { self.data.put_block(count.to_ne_bytes(), 2) };
        // SAFETY: as above.
        unsafe { self.data.put(chars) };
        true
    }

    /// Keeps the fields appended.
    #[inline(always)]
    pub fn finish(self) {
        // SAFETY: both ends are the buffers' own, nothing else changed them
        // (the run borrows the builder).
        unsafe { self.builder.meta.set_end(self.meta) };
        // SAFETY: as above.
        unsafe { self.builder.data.set_end(self.data) };
    }
}

/// The bytes after a field's name in its metadata, as
/// [`meta_tail`](super::field::meta_tail) makes them without a count,
/// computed from the encoding, format and tag as one word
/// (their bytes in that order, the tag's in the target's order): NUL, the encoding (with the chain bit if a format or tag follows), the
/// format (with the chain bit if a tag follows), the tag; as an 8-byte block
/// and the number of its bytes that count.
#[inline(always)]
fn tail_of(word: u32) -> ([u8; 8], usize) {
    let word = u64::from(word);
    let (tail, len) = if word <= 0xff {
        (word << 8, 2)
    } else if word <= 0xffff {
        ((word << 8) | 0x8000, 3)
    } else {
        ((word << 8) | 0x80_8000, 5)
    };
    (tail.to_le_bytes(), len)
}

#[cfg(test)]
mod tests {
    use super::super::field::meta_tail;
    use super::*;

    #[test]
    fn tails_are_meta_tails() {
        for encoding in [2, 5, 7, 13] {
            for format in [0, 1, 0x7f] {
                for tag in [0u16, 1, 0x100, 0xffff] {
                    let t = tag.to_ne_bytes();
                    assert_eq!(
                        tail_of(u32::from_le_bytes([encoding, format, t[0], t[1]])),
                        meta_tail(encoding, format, tag, None),
                        "{encoding} {format} {tag}"
                    );
                }
            }
        }
    }
}
