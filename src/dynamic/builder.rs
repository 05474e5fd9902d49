//! The event builder: an EventHeader event whose name, fields and header
//! values are given at run time. Fields append their metadata (name,
//! encoding, format, tag, constant count) and their payload to two buffers
//! that are reused from event to event; [`Builder::write`] sends header,
//! metadata extension and payload with one call of the write path.
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
//! Metadata layout (spec-notes §5), byte for byte the reference's
//! `EventHeaderDynamic.h`: `name\0`, then `encoding` alone when format and
//! tag are 0, `encoding|0x80, format` when only the format is set,
//! `encoding|0x80, format|0x80, tag` when a tag is set, then a `u16` count
//! for constant-count arrays. Integers are in the target's byte order, as
//! the header's flags announce.
#![deny(clippy::multiple_unsafe_ops_per_block)]
#![deny(clippy::undocumented_unsafe_blocks)]

use core::ffi::c_int;

use super::buffer::Buffer;
use super::lower;

/// The largest metadata + payload an event may have, in bytes: 64 KiB less
/// room for the header and extensions, the reference's bound. Over it, the
/// write returns ERANGE (the kernel drops events over about 64 KiB).
pub const EVENT_SIZE_LIMIT: usize = 65535 - 68;

/// A bookmark that refers to nothing: what a failed `add_struct` returns;
/// setting a field count through it does nothing.
pub const NO_BOOKMARK: usize = usize::MAX;

/// Encoding values (low 5 bits of the encoding byte, spec-notes §4).
pub mod encoding {
    pub const STRUCT: u8 = 1;
    pub const VALUE8: u8 = 2;
    pub const VALUE128: u8 = 6;
    pub const ZSTRING_CHAR8: u8 = 7;
    pub const ZSTRING_CHAR32: u8 = 9;
    pub const STRING_LENGTH16_CHAR8: u8 = 10;
    pub const STRING_LENGTH16_CHAR32: u8 = 12;
    pub const BINARY_LENGTH16_CHAR8: u8 = 13;
    /// The encoding bits of the byte.
    pub const VALUE_MASK: u8 = 0x1f;
    /// Constant-count array: `u16` count in the metadata.
    pub const CARRAY: u8 = 0x20;
    /// Variable-count array: `u16` count in the payload.
    pub const VARRAY: u8 = 0x40;
    /// A format byte follows the encoding byte.
    pub const CHAIN: u8 = 0x80;
}

use encoding as enc;

/// The largest format value; 0x80 in the format byte means a tag follows.
const FORMAT_MAX: u8 = 0x7f;
const FORMAT_CHAIN: u8 = 0x80;

/// Bytes at the start of the metadata buffer for the metadata extension's
/// own header (`u16 size`, `u16 kind`), filled in by `write`.
const EXT_HEADER: usize = 4;
/// eventheader_extension_kind_metadata.
const KIND_METADATA: u16 = 1;

/// Size in bytes of one value of a value encoding (value8 ... value128).
pub fn value_size(encoding: u8) -> Option<usize> {
    match encoding & enc::VALUE_MASK {
        2 => Some(1),
        3 => Some(2),
        4 => Some(4),
        5 => Some(8),
        6 => Some(16),
        _ => None,
    }
}

/// Size in bytes of one character of a string or binary encoding
/// (zstring_char*, string_length16_char*, binary_length16_char8).
pub fn char_size(encoding: u8) -> Option<usize> {
    match encoding & enc::VALUE_MASK {
        7 | 10 | 13 => Some(1),
        8 | 11 => Some(2),
        9 | 12 => Some(4),
        _ => None,
    }
}

/// The array flags of an array field: `CARRAY` keeps it, anything else
/// (`VARRAY` or no flag) is a variable-count array. None if both are set or
/// the chain bit is.
fn array_flag(encoding: u8) -> Option<u8> {
    match encoding & !enc::VALUE_MASK {
        enc::CARRAY => Some(enc::CARRAY),
        0 | enc::VARRAY => Some(enc::VARRAY),
        _ => None,
    }
}

/// An event or field name: bytes without a NUL (it may carry attributes,
/// "Name;attr=value"). Checked once where it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name<'a>(&'a [u8]);

impl<'a> Name<'a> {
    /// The empty name.
    pub const EMPTY: Name<'static> = Name(&[]);

    /// `bytes` as a name; None if they contain a NUL.
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Option<Name<'a>> {
        if has_nul(bytes) {
            None
        } else {
            Some(Name(bytes))
        }
    }

    /// A C string's bytes (never a NUL among them).
    #[inline]
    pub fn from_c_str(text: &'a core::ffi::CStr) -> Name<'a> {
        Name(text.to_bytes())
    }

    /// The bytes of the name.
    #[inline]
    pub fn bytes(self) -> &'a [u8] {
        self.0
    }
}

/// Whether `bytes` contain a zero byte. Names are short: 4 to 16 bytes are
/// tested as two overlapping words (the "has a zero byte" bit trick), other
/// lengths byte by byte.
#[inline(always)]
fn has_nul(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero64 = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS != 0;
    let zero32 = |w: u32| w.wrapping_sub(ONES as u32) & !w & HIGHS as u32 != 0;
    let len = bytes.len();
    let tail = |n: usize| bytes.get(len.saturating_sub(n)..).unwrap_or(&[]);
    let head = |n: usize| bytes.get(..n).unwrap_or(&[]);
    match len {
        8..=16 => match (<[u8; 8]>::try_from(head(8)), <[u8; 8]>::try_from(tail(8))) {
            (Ok(h), Ok(t)) => zero64(u64::from_ne_bytes(h)) || zero64(u64::from_ne_bytes(t)),
            _ => lower::has_nul(bytes),
        },
        4..=7 => match (<[u8; 4]>::try_from(head(4)), <[u8; 4]>::try_from(tail(4))) {
            (Ok(h), Ok(t)) => zero32(u32::from_ne_bytes(h)) || zero32(u32::from_ne_bytes(t)),
            _ => lower::has_nul(bytes),
        },
        _ => lower::has_nul(bytes),
    }
}

/// Which parts of a field the typed adders append.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parts {
    /// Metadata and payload (the default).
    Both,
    /// Payload only: the second and later elements of an array of structs.
    PayloadOnly,
    /// Metadata only: the members of an array of no structs.
    MetadataOnly,
}

/// A zero character of up to 4 bytes (the end of a zstring).
const ZERO_CHAR: [u8; 4] = [0; 4];

/// The header values of the event being built.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct HeaderValues {
    pub id: u16,
    pub version: u8,
    pub tag: u16,
    pub opcode: u8,
    /// The level the event is meant for, 0 for any (the header always gets
    /// the event set's level).
    pub level: u8,
}

/// An event under construction. Not thread-safe: one thread at a time.
pub struct Builder {
    /// The metadata extension: EXT_HEADER bytes, event name, NUL, fields.
    meta: Buffer<u8>,
    /// The payload.
    data: Buffer<u8>,
    /// The latched errno (0: none).
    error: c_int,
    /// Which parts of a field the typed adders append.
    parts: Parts,
    header: HeaderValues,
}

impl Builder {
    /// A builder whose buffers start with room for `meta_capacity` and
    /// `data_capacity` bytes (they grow as needed). ENOMEM if that cannot be
    /// allocated.
    pub fn new(meta_capacity: usize, data_capacity: usize) -> Result<Builder, c_int> {
        let meta_capacity = meta_capacity.checked_add(EXT_HEADER).ok_or(libc::ENOMEM)?;
        Ok(Builder {
            meta: Buffer::with_capacity(meta_capacity)?,
            data: Buffer::with_capacity(data_capacity)?,
            error: libc::EINVAL,
            parts: Parts::Both,
            header: HeaderValues::default(),
        })
    }

    /// A copy of the builder and its event so far. ENOMEM if it cannot be
    /// allocated.
    pub fn try_clone(&self) -> Result<Builder, c_int> {
        Ok(Builder {
            meta: self.meta.try_clone()?,
            data: self.data.try_clone()?,
            error: self.error,
            parts: self.parts,
            header: self.header,
        })
    }

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
    pub fn header(&self) -> HeaderValues {
        self.header
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

    /// Starts a new event named `name` with event tag `tag`:
    /// clears fields, error, header values (opcode info, id, version and
    /// level 0) and data-only mode.
    #[inline(always)]
    pub fn reset(&mut self, name: Name<'_>, tag: u16) -> c_int {
        self.meta.clear();
        self.data.clear();
        self.error = 0;
        self.parts = Parts::Both;
        self.header = HeaderValues {
            tag,
            ..HeaderValues::default()
        };
        let ext = [0, 0, 0, 0];
        let appended = self
            .meta
            .extend_from_slice(&ext)
            .and_then(|()| self.meta.extend_padded(name.bytes(), [0; 8], 1));
        match appended {
            Ok(()) => 0,
            Err(e) => self.fail(e),
        }
    }

    /// Sets the event's id and version (both 0 after reset).
    pub fn set_id_version(&mut self, id: u16, version: u8) -> c_int {
        self.header.id = id;
        self.header.version = version;
        self.error
    }

    /// Sets the event's opcode (info after reset).
    pub fn set_opcode(&mut self, opcode: u8) -> c_int {
        self.header.opcode = opcode;
        self.error
    }

    /// Sets the event's tag (reset's argument until then).
    pub fn set_tag(&mut self, tag: u16) -> c_int {
        self.header.tag = tag;
        self.error
    }

    /// Sets the level the event is meant for; 0 (after reset): any. The
    /// write refuses (EINVAL) an event set of another level.
    pub fn set_level(&mut self, level: u8) -> c_int {
        self.header.level = level;
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
    fn put_data(&mut self, bytes: &[u8]) -> Result<(), c_int> {
        if self.parts == Parts::MetadataOnly {
            return Ok(());
        }
        self.data.extend_from_slice(bytes)
    }

    /// Ok if `meta_more` metadata and `data_more` payload bytes still fit the
    /// event size limit, else ERANGE. The buffers never grow past it.
    #[inline]
    fn room(&self, meta_more: usize, data_more: usize) -> Result<(), c_int> {
        let used = self
            .meta
            .len()
            .saturating_sub(EXT_HEADER)
            .saturating_add(self.data.len());
        let total = used.saturating_add(meta_more).saturating_add(data_more);
        if total > EVENT_SIZE_LIMIT {
            Err(libc::ERANGE)
        } else {
            Ok(())
        }
    }

    /// Appends one field's metadata: name, NUL, encoding, [format, [tag]],
    /// [constant count]. Returns the offset of the format byte (NO_BOOKMARK
    /// when there is none). The caller checked `room` for `meta_len(..)`.
    #[inline(always)]
    fn put_meta(
        &mut self,
        name: Name<'_>,
        encoding: u8,
        format: u8,
        tag: u16,
        count: Option<u16>,
    ) -> Result<usize, c_int> {
        let t = tag.to_ne_bytes();
        let c = count.unwrap_or(0).to_ne_bytes();
        // NUL, encoding, [format, [tag]], [count]: at most 7 bytes.
        let (tail, len) = if tag != 0 {
            let tail = [
                0,
                encoding | enc::CHAIN,
                format | FORMAT_CHAIN,
                t[0],
                t[1],
                c[0],
                c[1],
                0,
            ];
            (tail, 5)
        } else if format != 0 {
            ([0, encoding | enc::CHAIN, format, c[0], c[1], 0, 0, 0], 3)
        } else {
            ([0, encoding, c[0], c[1], 0, 0, 0, 0], 2)
        };
        let len = if count.is_some() { len + 2 } else { len };
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

    /// Bytes put_meta appends for a field with this name, format, tag and
    /// constant count.
    fn meta_len(name: Name<'_>, format: u8, tag: u16, carray: bool) -> usize {
        let tail = if tag != 0 {
            4
        } else if format != 0 {
            2
        } else {
            1
        };
        let count = if carray { 2 } else { 0 };
        name.bytes().len().saturating_add(1 + tail + count)
    }

    /// The common prologue of the typed adders: the latched error, the
    /// format's range, the size limit. Returns the metadata bytes to add (0 in
    /// data-only mode).
    #[inline(always)]
    fn begin_field(
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
            Self::meta_len(name, format, tag, carray)
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

    /// Records the outcome of an append: 0, or the latched error.
    fn done(&mut self, result: Result<(), c_int>) -> c_int {
        match result {
            Ok(()) => 0,
            Err(e) => self.fail(e),
        }
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
            Ok(bookmark) => (0, bookmark),
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

    /// Checks that the event can be written: the latched error, else ERANGE
    /// if metadata + payload exceed EVENT_SIZE_LIMIT. Then fills in the
    /// metadata extension header and returns (extension block, payload).
    pub fn finish(&mut self) -> Result<(&[u8], &[u8]), c_int> {
        if self.error != 0 {
            return Err(self.error);
        }
        self.room(0, 0)?;
        let size = self.meta.len().saturating_sub(EXT_HEADER);
        let size = u16::try_from(size).map_err(|_| libc::ERANGE)?.to_ne_bytes();
        let kind = KIND_METADATA.to_ne_bytes();
        if let Some([s0, s1, k0, k1]) = self.meta.as_mut_slice().get_mut(..EXT_HEADER) {
            *s0 = size[0];
            *s1 = size[1];
            *k0 = kind[0];
            *k1 = kind[1];
        }
        Ok((self.meta.as_slice(), self.data.as_slice()))
    }
}

/// Whether `encoding` (bits VALUE_MASK) is a NUL-terminated string.
fn is_zstring(encoding: u8) -> bool {
    (enc::ZSTRING_CHAR8..=enc::ZSTRING_CHAR32).contains(&(encoding & enc::VALUE_MASK))
}

/// Bytes of `chars` before its first all-zero character of `unit` bytes (all
/// of it if it has none).
fn zstring_len(chars: &[u8], unit: usize) -> usize {
    match unit {
        1 => chars.iter().position(|&b| b == 0).unwrap_or(chars.len()),
        _ => {
            let mut at: usize = 0;
            while let Some(ch) = chars.get(at..at.saturating_add(unit)) {
                if ch.len() < unit || ch.iter().all(|&b| b == 0) {
                    return at;
                }
                at = at.saturating_add(unit);
            }
            chars.len()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENC_VALUE32: u8 = 4;
    const ENC_VALUE64: u8 = 5;
    const ENC_ZSTR16: u8 = 8;
    const ENC_STR8: u8 = 10;
    const ENC_STR32: u8 = 12;
    const ENC_BIN: u8 = 13;

    fn started(name: &str) -> Builder {
        let mut b = Builder::new(0, 0).unwrap();
        assert_eq!(b.reset(n(name.as_bytes()), 0), 0);
        b
    }

    fn n(bytes: &[u8]) -> Name<'_> {
        Name::new(bytes).expect("a name without NUL")
    }

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn a_new_builder_must_be_reset_first() {
        let mut b = Builder::new(16, 16).unwrap();
        assert_eq!(b.error(), libc::EINVAL);
        assert_eq!(b.add_value(n(b"x"), 2, 0, 0, &[1]), libc::EINVAL);
        assert!(matches!(b.finish(), Err(libc::EINVAL)));
        assert_eq!(b.reset(n(b"Ev"), 7), 0);
        assert_eq!(b.header().tag, 7);
        let (meta, data) = b.finish().unwrap();
        assert_eq!(meta, &[3, 0, 1, 0, b'E', b'v', 0]);
        assert!(data.is_empty());
    }

    #[test]
    fn metadata_encoding_matches_the_format_and_tag_rules() {
        let mut b = started("E");
        b.add_value(n(b"a"), 2, 0, 0, &[1]);
        b.add_value(n(b"b"), 3, 2, 0, &[2, 0]);
        b.add_value(n(b"c"), ENC_VALUE32, 0, 0x1234, &[3, 0, 0, 0]);
        b.add_value(n(b"d"), ENC_VALUE64, 8, 5, &7f64.to_ne_bytes());
        assert_eq!(b.error(), 0);
        let t = 0x1234u16.to_ne_bytes();
        assert_eq!(
            b.metadata(),
            cat(&[
                b"E\0",
                b"a\0\x02",
                b"b\0\x83\x02",
                &[b'c', 0, 0x84, 0x80, t[0], t[1]],
                &[b'd', 0, 0x85, 0x88, 5, 0],
            ])
        );
        assert_eq!(
            b.payload(),
            cat(&[&[1, 2, 0, 3, 0, 0, 0], &7f64.to_ne_bytes()])
        );
    }

    #[test]
    fn strings_counted_and_nul_terminated() {
        let mut b = started("S");
        b.add_string(n(b"s8"), ENC_STR8, 0, 0, b"abc");
        b.add_string(
            n(b"z16"),
            ENC_ZSTR16,
            0,
            0,
            &[b'h', 0, b'i', 0, 0, 0, b'x', 0],
        );
        b.add_string(n(b"s32"), ENC_STR32, 0, 0, &[b'Q', 0, 0, 0]);
        b.add_string(n(b"bin"), ENC_BIN, 9, 0, &[0xff, 0]);
        b.add_string(n(b"z8"), 7, 0, 0, b"no-nul");
        assert_eq!(b.error(), 0);
        assert_eq!(
            b.payload(),
            cat(&[
                &[3, 0],
                b"abc",
                &[b'h', 0, b'i', 0, 0, 0],
                &[1, 0, b'Q', 0, 0, 0],
                &[2, 0, 0xff, 0],
                b"no-nul\0",
            ])
        );
        assert_eq!(
            b.add_string(n(b"odd"), ENC_ZSTR16, 0, 0, &[1, 2, 3]),
            libc::EINVAL
        );
    }

    #[test]
    fn arrays_constant_and_variable() {
        let mut b = started("A");
        let v = [1u16, 2, 3];
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_ne_bytes()).collect();
        b.add_values(n(b"va"), 3, 0, 0, &bytes, 3);
        b.add_values(n(b"ca"), 3 | enc::CARRAY, 0, 0, &bytes, 3);
        let strings: [&[u8]; 2] = [b"ab", b"c"];
        b.add_strings(n(b"ss"), ENC_STR8, 0, 0, 2, |i| Ok(strings[i]));
        b.add_strings(n(b"zs"), 7 | enc::CARRAY, 0, 0, 2, |i| Ok(strings[i]));
        assert_eq!(b.error(), 0);
        assert_eq!(
            b.metadata(),
            cat(&[
                b"A\0",
                b"va\0\x43",
                b"ca\0\x23\x03\x00",
                b"ss\0\x4a",
                b"zs\0\x27\x02\x00"
            ])
        );
        assert_eq!(
            b.payload(),
            cat(&[
                &[3, 0],
                &bytes,
                &bytes,
                &[2, 0, 2, 0],
                b"ab",
                &[1, 0],
                b"c",
                b"ab\0c\0"
            ])
        );
        // Constant count 0 (decoders refuse it).
        let mut b = started("A");
        assert_eq!(
            b.add_values(n(b"x"), 3 | enc::CARRAY, 0, 0, &[], 0),
            libc::EINVAL
        );
        let mut b = started("A");
        assert_eq!(
            b.add_strings(n(b"x"), 7 | enc::CARRAY, 0, 0, 0, |_| Ok(&[])),
            libc::EINVAL
        );
        let mut b = started("A");
        assert_eq!(
            b.raw_add_meta(n(b"x"), 2 | enc::CARRAY, 0, 0, 0),
            libc::EINVAL
        );
        // Wrong byte count for the count, both flags, string callback error.
        assert_eq!(b.add_values(n(b"x"), 3, 0, 0, &bytes, 2), libc::EINVAL);
        let mut b = started("A");
        assert_eq!(
            b.add_values(n(b"x"), 3 | 0x60, 0, 0, &bytes, 3),
            libc::EINVAL
        );
        let mut b = started("A");
        assert_eq!(
            b.add_strings(n(b"x"), ENC_STR8, 0, 0, 1, |_| Err(libc::EFAULT)),
            libc::EFAULT
        );
    }

    #[test]
    fn nested_structs_with_bookmarks_and_struct_arrays() {
        let mut b = started("N");
        let (e, outer) = b.add_struct(n(b"outer"), 1, 0);
        assert_eq!(e, 0);
        b.add_value(n(b"a"), 2, 0, 0, &[1]);
        let (_, inner) = b.add_struct(n(b"inner"), 1, 0x55);
        b.add_value(n(b"b"), 2, 0, 0, &[2]);
        b.add_value(n(b"c"), 2, 0, 0, &[3]);
        assert_eq!(b.set_struct_field_count(inner, 2), 0);
        assert_eq!(b.set_struct_field_count(outer, 2), 0);
        let (_, arr) = b.add_struct_array(n(b"pts"), 1, 0, 2);
        b.add_value(n(b"x"), 2, 0, 0, &[10]);
        b.add_value(n(b"y"), 2, 0, 0, &[11]);
        b.set_parts(Parts::PayloadOnly);
        b.add_value(n(b"x"), 2, 0, 0, &[20]);
        b.add_value(n(b"y"), 2, 0, 0, &[21]);
        b.set_parts(Parts::Both);
        assert_eq!(b.set_struct_field_count(arr, 2), 0);
        b.add_struct_array(n(b"none"), 1, 0x66, 0);
        b.set_parts(Parts::MetadataOnly);
        b.add_value(n(b"z"), 2, 0, 0, &[9]);
        b.add_string(n(b"s"), ENC_STR8, 0, 0, b"ignored");
        b.set_parts(Parts::Both);
        b.add_value(n(b"after"), 2, 0, 0, &[8]);
        assert_eq!(b.error(), 0);
        let t = 0x55u16.to_ne_bytes();
        assert_eq!(
            b.metadata(),
            cat(&[
                b"N\0",
                b"outer\0\x81\x02",
                b"a\0\x02",
                &cat(&[b"inner\0\x81\x82", &t]),
                b"b\0\x02c\0\x02",
                b"pts\0\xc1\x02x\0\x02y\0\x02",
                &cat(&[b"none\0\xc1\x81", &0x66u16.to_ne_bytes(), b"z\0\x02s\0\x0a"]),
                b"after\0\x02",
            ])
        );
        // An empty array of structs still describes its members; the
        // payload has no element for them.
        assert_eq!(b.payload(), &[1, 2, 3, 2, 0, 10, 11, 20, 21, 0, 0, 8]);
        // Bookmarks that are not a struct's, NO_BOOKMARK, bad counts.
        assert_eq!(b.set_struct_field_count(NO_BOOKMARK, 3), 0);
        assert_eq!(b.set_struct_field_count(outer, 0), libc::EINVAL);
        let mut b = started("N");
        b.add_value(n(b"v"), 2, 3, 0, &[1]);
        assert_eq!(b.set_struct_field_count(EXT_HEADER + 4, 1), libc::EINVAL);
        let mut b = started("N");
        assert_eq!(b.add_struct(n(b"s"), 128, 0).0, libc::EINVAL);
        let mut b = started("N");
        assert_eq!(b.set_struct_field_count(1_000_000, 1), libc::EINVAL);
    }

    #[test]
    fn raw_meta_data_and_counts() {
        let mut b = started("R");
        assert_eq!(b.raw_add_meta(n(b"v"), 2 | enc::VARRAY, 1, 0, 0), 0);
        let (e, at) = b.raw_add_count(0);
        assert_eq!(e, 0);
        b.raw_add_data(&[5, 6, 7]);
        assert_eq!(b.raw_set_count(at, 3), 0);
        assert_eq!(b.raw_add_meta(n(b"c"), 2 | enc::CARRAY, 0, 0, 2), 0);
        b.raw_add_data(&[8, 9]);
        assert_eq!(b.metadata(), b"R\0v\0\xc2\x01c\0\x22\x02\x00");
        assert_eq!(b.payload(), &[3, 0, 5, 6, 7, 8, 9]);
        assert_eq!(b.raw_set_count(6, 1), libc::EINVAL);
        let mut b = started("R");
        assert_eq!(b.raw_add_meta(n(b"v"), 14, 0, 0, 0), libc::EINVAL);
        let mut b = started("R");
        assert_eq!(b.raw_add_meta(n(b"v"), 2 | 0x80, 0, 0, 0), libc::EINVAL);
    }

    #[test]
    fn the_first_error_is_latched_until_reset() {
        let mut b = started("L");
        assert_eq!(Name::new(b"bad\0name"), None);
        assert_eq!(
            b.add_value(n(b"x"), 2, 0x80, 0, &[1]),
            libc::EINVAL,
            "format over 127"
        );
        assert_eq!(b.add_value(n(b"ok"), 2, 0, 0, &[1]), libc::EINVAL);
        assert_eq!(b.set_opcode(1), libc::EINVAL);
        assert!(matches!(b.finish(), Err(libc::EINVAL)));
        assert_eq!(b.reset(n(b"L"), 0), 0);
        assert_eq!(
            b.add_value(n(b"x"), 2, 0, 0, &[1, 2]),
            libc::EINVAL,
            "size mismatch"
        );
    }

    #[test]
    fn oversize_is_erange_and_the_buffers_stay_bounded() {
        let mut b = started("Big");
        let big = vec![b'x'; EVENT_SIZE_LIMIT];
        assert_eq!(b.add_string(n(b"s"), ENC_BIN, 0, 0, &big[..60000]), 0);
        assert_eq!(
            b.add_string(n(b"t"), ENC_BIN, 0, 0, &big[..6000]),
            libc::ERANGE
        );
        assert!(matches!(b.finish(), Err(libc::ERANGE)));
        let (meta_cap, data_cap) = b.capacities();
        assert!(data_cap < 2 * 65536 && meta_cap < 4096);
        // Exactly at the limit is fine; one byte more is not.
        let mut b = started("");
        let meta = 1 + 2 + 1; // "" NUL, "b" NUL, encoding
        let room = EVENT_SIZE_LIMIT - meta - 2;
        assert_eq!(b.add_string(n(b"b"), ENC_BIN, 0, 0, &big[..room]), 0);
        assert!(b.finish().is_ok());
        let mut b = started("");
        assert_eq!(
            b.add_string(n(b"b"), ENC_BIN, 0, 0, &big[..room + 1]),
            libc::ERANGE
        );
        // A counted string over 65535 characters can never fit.
        let mut b = started("");
        let huge = vec![b'h'; 70000];
        assert_eq!(b.add_string(n(b"s"), ENC_STR8, 0, 0, &huge), libc::ERANGE);
        let mut b = started("");
        assert_eq!(
            b.add_strings(n(b"s"), 7, 0, 0, 2, |_| Ok(&huge[..40000])),
            libc::ERANGE
        );
    }

    #[test]
    fn reset_reuses_memory() {
        let mut b = started("W");
        for i in 0..50u8 {
            b.add_value(n(b"field"), 2, 0, 0, &[i]);
            b.add_string(n(b"text"), ENC_STR8, 0, 0, b"hello world");
        }
        b.finish().unwrap();
        let caps = b.capacities();
        let ptrs = (b.meta.as_ptr(), b.data.as_ptr());
        for _ in 0..100 {
            b.reset(n(b"W"), 0);
            for i in 0..50u8 {
                b.add_value(n(b"field"), 2, 0, 0, &[i]);
                b.add_string(n(b"text"), ENC_STR8, 0, 0, b"hello world");
            }
            b.finish().unwrap();
        }
        assert_eq!(b.capacities(), caps);
        assert_eq!((b.meta.as_ptr(), b.data.as_ptr()), ptrs);
    }

    #[test]
    fn clone_copies_the_event() {
        let mut b = started("C");
        b.set_id_version(3, 4);
        b.add_value(n(b"v"), 2, 0, 0, &[1]);
        let mut c = b.try_clone().unwrap();
        assert_eq!(c.metadata(), b.metadata());
        assert_eq!(c.payload(), b.payload());
        assert_eq!(c.header(), b.header());
        c.add_value(n(b"w"), 2, 0, 0, &[2]);
        assert_ne!(c.metadata(), b.metadata());
    }

    #[test]
    fn nul_detection_in_names_of_every_length() {
        for len in 0..40usize {
            let name = vec![b'n'; len];
            assert!(!has_nul(&name), "length {len}");
            for at in 0..len {
                let mut with = name.clone();
                with[at] = 0;
                assert!(has_nul(&with), "length {len}, NUL at {at}");
                // High bytes next to a zero must not hide it or fake one.
                let mut high = vec![0x80u8; len];
                assert!(!has_nul(&high));
                high[at] = 0;
                assert!(has_nul(&high), "0x80 bytes, length {len}, NUL at {at}");
                let mut one = vec![0x01u8; len];
                assert!(!has_nul(&one));
                one[at] = 0;
                assert!(has_nul(&one));
            }
        }
    }

    #[test]
    fn zstring_lengths() {
        assert_eq!(zstring_len(b"ab\0c", 1), 2);
        assert_eq!(zstring_len(b"abc", 1), 3);
        assert_eq!(zstring_len(&[1, 0, 0, 0, 2, 0], 2), 2);
        assert_eq!(zstring_len(&[1, 0, 0, 0, 0, 0, 0, 0], 4), 4);
        assert_eq!(zstring_len(&[1, 0, 0, 0], 4), 4);
        assert_eq!(zstring_len(&[], 2), 0);
    }
}
