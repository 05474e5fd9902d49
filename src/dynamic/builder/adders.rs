//! The typed adders: one field's metadata and payload per call (values,
//! arrays of values, strings, arrays of strings, structs and arrays of
//! structs), with the checks every field needs: the latched error, the
//! format's range, the event size limit.

use core::ffi::c_int;

use super::field::{
    array_flag, char_size, is_zstring, meta_len, meta_tail, value_size, zstring_len, FORMAT_CHAIN,
    FORMAT_MAX,
};
use super::{enc, Builder, Name, Parts, EXT_HEADER, NO_BOOKMARK};

/// A zero character of up to 4 bytes (the end of a zstring).
const ZERO_CHAR: [u8; 4] = [0; 4];

impl Builder {
    /// Appends one value of 1, 2, 4, 8 or 16 bytes (fixed-size copies, no
    /// memcpy call), not in metadata-only mode.
    #[inline(always)]
    fn put_value(&mut self, value: &[u8]) -> Result<(), c_int> {
        if self.parts == Parts::MetadataOnly {
            return Ok(());
        }
        self.data.extend_small(value)
    }

    /// Appends payload bytes of a typed adder (not in metadata-only mode).
    #[inline(always)]
    pub(super) fn put_data(&mut self, bytes: &[u8]) -> Result<(), c_int> {
        if self.parts == Parts::MetadataOnly {
            return Ok(());
        }
        self.data.extend_from_slice(bytes)
    }

    /// Appends one field's metadata: name, NUL, encoding, [format, [tag]],
    /// [constant count]. Returns the offset of the format byte (NO_BOOKMARK
    /// when there is none). The caller checked `room` for `meta_len(..)`.
    #[inline(always)]
    pub(super) fn put_meta(
        &mut self,
        name: Name<'_>,
        encoding: u8,
        format: u8,
        tag: u16,
        count: Option<u16>,
    ) -> Result<usize, c_int> {
        let (tail, len) = meta_tail(encoding, format, tag, count);
        let bookmark = if tag != 0 || format != 0 {
            // The format byte follows name, NUL and encoding byte.
            self.meta
                .len()
                .saturating_add(name.bytes().len())
                .saturating_add(2)
        } else {
            NO_BOOKMARK
        };
        self.meta.extend_padded(name.bytes(), tail, len)?;
        Ok(bookmark)
    }

    /// The common prologue of the typed adders: the latched error, the
    /// format's range, the size limit. Returns the metadata bytes to add (0 in
    /// data-only mode).
    #[inline(always)]
    pub(super) fn begin_field(
        &mut self,
        name: Name<'_>,
        format: u8,
        tag: u16,
        carray: bool,
        data_len: usize,
    ) -> Result<usize, c_int> {
        if self.error != 0 {
            return Err(self.error);
        }
        if format > FORMAT_MAX {
            return Err(self.fail(libc::EINVAL));
        }
        let meta_len = if self.parts == Parts::PayloadOnly {
            0
        } else {
            meta_len(name, format, tag, carray)
        };
        let data_len = if self.parts == Parts::MetadataOnly {
            0
        } else {
            data_len
        };
        if let Err(e) = self.room(meta_len, data_len) {
            return Err(self.fail(e));
        }
        Ok(meta_len)
    }

    /// Adds a field holding one value: `encoding` value8 ... value128,
    /// `value` its bytes (exactly the encoding's size).
    #[inline(always)]
    pub fn add_value(
        &mut self,
        name: Name<'_>,
        encoding: u8,
        format: u8,
        tag: u16,
        value: &[u8],
    ) -> c_int {
        if value_size(encoding) != Some(value.len()) || encoding & !enc::VALUE_MASK != 0 {
            return self.fail(libc::EINVAL);
        }
        let meta_len = match self.begin_field(name, format, tag, false, value.len()) {
            Ok(n) => n,
            Err(e) => return e,
        };
        let result = self
            .put_meta_unless(meta_len, name, encoding, format, tag, None)
            .and_then(|_| self.put_value(value));
        self.done(result)
    }

    /// put_meta, unless in data-only mode (`meta_len` 0 then).
    #[inline(always)]
    fn put_meta_unless(
        &mut self,
        meta_len: usize,
        name: Name<'_>,
        encoding: u8,
        format: u8,
        tag: u16,
        count: Option<u16>,
    ) -> Result<usize, c_int> {
        if meta_len == 0 {
            Ok(NO_BOOKMARK)
        } else {
            self.put_meta(name, encoding, format, tag, count)
        }
    }

    /// Adds an array of `count` values: `encoding` value8 ... value128, with
    /// CARRAY for a constant-count array (count in the metadata), else a
    /// variable-count array (count in the payload). `values` holds the
    /// `count` values' bytes.
    pub fn add_values(
        &mut self,
        name: Name<'_>,
        encoding: u8,
        format: u8,
        tag: u16,
        values: &[u8],
        count: u16,
    ) -> c_int {
        let (Some(size), Some(flag)) = (value_size(encoding), array_flag(encoding)) else {
            return self.fail(libc::EINVAL);
        };
        if size.checked_mul(usize::from(count)) != Some(values.len()) {
            return self.fail(libc::EINVAL);
        }
        let encoding = (encoding & enc::VALUE_MASK) | flag;
        let carray = flag == enc::CARRAY;
        if carray && count == 0 {
            // Decoders refuse constant-count arrays of length 0.
            return self.fail(libc::EINVAL);
        }
        let count_len = if carray { 0 } else { 2 };
        let meta_len = match self.begin_field(
            name,
            format,
            tag,
            carray,
            values.len().saturating_add(count_len),
        ) {
            Ok(n) => n,
            Err(e) => return e,
        };
        let result = self
            .put_meta_unless(
                meta_len,
                name,
                encoding,
                format,
                tag,
                carray.then_some(count),
            )
            .and_then(|_| {
                if !carray {
                    self.put_data(&count.to_ne_bytes())?;
                }
                self.put_data(values)
            });
        self.done(result)
    }

    /// The characters one string element writes: a zstring's end at the
    /// first zero character of `chars` (or all of them); a counted string's
    /// all of them (ERANGE over 65535 characters). Returns them and their
    /// payload size (plus the zero character or the u16 count).
    #[inline(always)]
    fn string_body(encoding: u8, chars: &[u8], unit: usize) -> Result<(&[u8], usize), c_int> {
        if is_zstring(encoding) {
            let body = chars.get(..zstring_len(chars, unit)).unwrap_or(chars);
            Ok((body, body.len().saturating_add(unit)))
        } else if chars.len().checked_div(unit).unwrap_or(0) > usize::from(u16::MAX) {
            Err(libc::ERANGE)
        } else {
            Ok((chars, chars.len().saturating_add(2)))
        }
    }

    /// Appends one string element's payload: `body` from string_body, then
    /// a zero character (zstring), or a u16 count then `body`.
    #[inline(always)]
    fn put_string_data(&mut self, encoding: u8, body: &[u8], unit: usize) -> Result<(), c_int> {
        if is_zstring(encoding) {
            self.put_data(body)?;
            self.put_value(ZERO_CHAR.get(..unit).unwrap_or(&[]))
        } else {
            let units = body.len().checked_div(unit).unwrap_or(0);
            let count = u16::try_from(units).map_err(|_| libc::ERANGE)?;
            self.put_value(&count.to_ne_bytes())?;
            self.put_data(body)
        }
    }

    /// Adds a string or binary field: `encoding` zstring_char8/16/32,
    /// string_length16_char8/16/32 or binary_length16_char8; `chars` the
    /// characters (a whole number of the encoding's characters).
    #[inline(always)]
    pub fn add_string(
        &mut self,
        name: Name<'_>,
        encoding: u8,
        format: u8,
        tag: u16,
        chars: &[u8],
    ) -> c_int {
        let Some(unit) = char_size(encoding) else {
            return self.fail(libc::EINVAL);
        };
        if encoding & !enc::VALUE_MASK != 0 || chars.len().checked_rem(unit) != Some(0) {
            return self.fail(libc::EINVAL);
        }
        let (body, data_len) = match Self::string_body(encoding, chars, unit) {
            Ok(parts) => parts,
            Err(e) => return self.fail(e),
        };
        let meta_len = match self.begin_field(name, format, tag, false, data_len) {
            Ok(n) => n,
            Err(e) => return e,
        };
        let result = self
            .put_meta_unless(meta_len, name, encoding, format, tag, None)
            .and_then(|_| self.put_string_data(encoding, body, unit));
        self.done(result)
    }

    /// Adds an array of `count` strings (or binary blobs): `encoding` as for
    /// add_string, with CARRAY for a constant-count array, else a
    /// variable-count one; `element(i)` returns the characters of element i
    /// (or an errno, which is latched).
    pub fn add_strings<'a>(
        &mut self,
        name: Name<'_>,
        encoding: u8,
        format: u8,
        tag: u16,
        count: u16,
        mut element: impl FnMut(usize) -> Result<&'a [u8], c_int>,
    ) -> c_int {
        let (Some(unit), Some(flag)) = (char_size(encoding), array_flag(encoding)) else {
            return self.fail(libc::EINVAL);
        };
        let value_encoding = encoding & enc::VALUE_MASK;
        let carray = flag == enc::CARRAY;
        if carray && count == 0 {
            // Decoders refuse constant-count arrays of length 0.
            return self.fail(libc::EINVAL);
        }
        // The total is only known after the elements: check the field's own
        // bytes now and each element as it comes.
        let count_len = if carray { 0 } else { 2 };
        let meta_len = match self.begin_field(name, format, tag, carray, count_len) {
            Ok(n) => n,
            Err(e) => return e,
        };
        let result = self
            .put_meta_unless(
                meta_len,
                name,
                value_encoding | flag,
                format,
                tag,
                carray.then_some(count),
            )
            .and_then(|_| {
                if self.parts == Parts::MetadataOnly {
                    return Ok(());
                }
                if !carray {
                    self.put_data(&count.to_ne_bytes())?;
                }
                for i in 0..usize::from(count) {
                    let chars = element(i)?;
                    if chars.len().checked_rem(unit) != Some(0) {
                        return Err(libc::EINVAL);
                    }
                    let (body, len) = Self::string_body(value_encoding, chars, unit)?;
                    self.room(0, len)?;
                    self.put_string_data(value_encoding, body, unit)?;
                }
                Ok(())
            });
        self.done(result)
    }

    /// Adds a struct field whose next `field_count` fields (1 ... 127) are
    /// its members. Returns the bookmark for set_struct_field_count
    /// (NO_BOOKMARK in data-only mode or on error).
    pub fn add_struct(&mut self, name: Name<'_>, field_count: u8, tag: u16) -> (c_int, usize) {
        self.add_struct_field(name, field_count, tag, None)
    }

    /// Adds a variable-count array of `count` structs of `field_count`
    /// member fields each. The members' metadata follows once (the fields
    /// added next); the payload holds the members of element 0, then element
    /// 1, ...: add the first element's members normally and the others in
    /// [`Parts::PayloadOnly`] mode (with no elements, add the members in
    /// [`Parts::MetadataOnly`] mode). Returns the bookmark as add_struct.
    ///
    /// No constant-count variant: the decoders in use (tracepoint_decode 0.5
    /// and the reference's v1.4 decoder) misread constant-count arrays of
    /// more than one struct (after the first element they parse the member
    /// metadata from the count's offset). raw_add_meta can still make one.
    pub fn add_struct_array(
        &mut self,
        name: Name<'_>,
        field_count: u8,
        tag: u16,
        count: u16,
    ) -> (c_int, usize) {
        self.add_struct_field(name, field_count, tag, Some(count))
    }

    /// A struct field, or with `varray_count` a variable-count array of them.
    fn add_struct_field(
        &mut self,
        name: Name<'_>,
        field_count: u8,
        tag: u16,
        varray_count: Option<u16>,
    ) -> (c_int, usize) {
        if field_count == 0 || field_count > FORMAT_MAX {
            return (self.fail(libc::EINVAL), NO_BOOKMARK);
        }
        let data_len = if varray_count.is_some() { 2 } else { 0 };
        let meta_len = match self.begin_field(name, field_count, tag, false, data_len) {
            Ok(n) => n,
            Err(e) => return (e, NO_BOOKMARK),
        };
        let encoding = if varray_count.is_some() {
            enc::STRUCT | enc::VARRAY
        } else {
            enc::STRUCT
        };
        let result = self
            .put_meta_unless(meta_len, name, encoding, field_count, tag, None)
            .and_then(|bookmark| {
                if let Some(count) = varray_count {
                    self.put_data(&count.to_ne_bytes())?;
                }
                Ok(bookmark)
            });
        match result {
            Ok(bookmark) => {
                self.mark_struct();
                (0, bookmark)
            }
            Err(e) => (self.fail(e), NO_BOOKMARK),
        }
    }

    /// Changes the member count of the struct field at `bookmark` (from
    /// add_struct or add_struct_array) to `field_count` (1 ... 127).
    /// NO_BOOKMARK is ignored; any other value that is not a struct's
    /// bookmark is EINVAL.
    pub fn set_struct_field_count(&mut self, bookmark: usize, field_count: u8) -> c_int {
        if self.error != 0 {
            return self.error;
        }
        if field_count == 0 || field_count > FORMAT_MAX {
            return self.fail(libc::EINVAL);
        }
        if bookmark == NO_BOOKMARK {
            return 0;
        }
        let encoding = bookmark
            .checked_sub(1)
            .and_then(|at| self.meta.as_slice().get(at))
            .copied();
        let is_struct = matches!(encoding, Some(e) if e & enc::VALUE_MASK == enc::STRUCT && e & enc::CHAIN != 0);
        match self.meta.as_mut_slice().get_mut(bookmark) {
            Some(format) if is_struct && bookmark >= EXT_HEADER => {
                *format = (*format & FORMAT_CHAIN) | field_count;
                0
            }
            _ => self.fail(libc::EINVAL),
        }
    }
}
