//! Metadata and payload as given (advanced use): what the typed adders
//! cannot express, and the counts of variable-count arrays whose length is
//! only known after their elements.

use core::ffi::c_int;

use super::enc;
use super::{Builder, Name, Parts, NO_BOOKMARK};

impl Builder {
    /// Appends metadata for one field as given (advanced use): `encoding`
    /// any encoding (struct ... binary_length16_char8) with at most one of
    /// CARRAY and VARRAY, `const_count` the count of a CARRAY field (1 or
    /// more; ignored otherwise). Always metadata, also in data-only mode.
    pub fn raw_add_meta(
        &mut self,
        name: Name<'_>,
        encoding: u8,
        format: u8,
        tag: u16,
        const_count: u16,
    ) -> c_int {
        let value = encoding & enc::VALUE_MASK;
        let flags = encoding & !enc::VALUE_MASK;
        if !(enc::STRUCT..=enc::BINARY_LENGTH16_CHAR8).contains(&value)
            || !matches!(flags, 0 | enc::CARRAY | enc::VARRAY)
        {
            return self.fail(libc::EINVAL);
        }
        let carray = flags == enc::CARRAY;
        if carray && const_count == 0 {
            // Decoders refuse constant-count arrays of length 0.
            return self.fail(libc::EINVAL);
        }
        let parts = core::mem::replace(&mut self.parts, Parts::Both);
        let result = self.begin_field(name, format, tag, carray, 0);
        self.parts = parts;
        if let Err(e) = result {
            return e;
        }
        let result = self
            .put_meta(name, encoding, format, tag, carray.then_some(const_count))
            .map(|_| ());
        if result.is_ok() && value == enc::STRUCT {
            self.mark_struct();
        }
        self.done(result)
    }

    /// Appends payload bytes as given (advanced use).
    pub fn raw_add_data(&mut self, bytes: &[u8]) -> c_int {
        if self.error != 0 {
            return self.error;
        }
        let result = self
            .room(0, bytes.len())
            .and_then(|()| self.data.extend_from_slice(bytes));
        self.done(result)
    }

    /// Appends a `u16` count to the payload and returns its bookmark, for
    /// raw_set_count once the real count is known (advanced use).
    pub fn raw_add_count(&mut self, count: u16) -> (c_int, usize) {
        let at = self.data.len();
        match self.raw_add_data(&count.to_ne_bytes()) {
            0 => (0, at),
            e => (e, NO_BOOKMARK),
        }
    }

    /// Overwrites the payload count at `bookmark` (from raw_add_count).
    /// NO_BOOKMARK is ignored; an offset outside the payload is EINVAL.
    pub fn raw_set_count(&mut self, bookmark: usize, count: u16) -> c_int {
        if self.error != 0 {
            return self.error;
        }
        if bookmark == NO_BOOKMARK {
            return 0;
        }
        let bytes = count.to_ne_bytes();
        let end = bookmark.saturating_add(2);
        match self.data.as_mut_slice().get_mut(bookmark..end) {
            Some([a, b]) => {
                *a = bytes[0];
                *b = bytes[1];
                0
            }
            _ => self.fail(libc::EINVAL),
        }
    }
}
