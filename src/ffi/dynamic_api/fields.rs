//! The field exports: values, arrays of values, strings, arrays of
//! strings, structs and arrays of structs, and the raw metadata and payload
//! of advanced use.

use core::ffi::{c_char, c_int, c_void};

use super::args::{builder_mut, bytes_arg, chars_arg, name_arg, non_null, with_bookmark};
use super::{ehd_builder, EHD_NTS};
use crate::dynamic::builder::{self, Builder, Name, NO_BOOKMARK};

/// Adds a field holding one value. `encoding`: event_field_encoding_value8,
/// 16, 32, 64 or 128 (1, 2, 4, 8 or 16 bytes at `value`, any alignment);
/// `format`: an event_field_format (0 = default: unsigned for 1-8 bytes,
/// hex bytes for 16); `field_tag`: 0 or a provider-defined tag.
///
/// Every ehd_builder_add_* function returns 0 or the latched error: EINVAL
/// for a NULL builder or invalid arguments (NULL pointer with a length, NUL
/// in the name, encoding or format out of range), ERANGE once the event
/// exceeds 65467 bytes of metadata and payload, ENOMEM if a buffer cannot
/// grow. Field names are (`name`, `name_len`) like ehd_builder_reset's.
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only;
/// `name` as for ehd_builder_reset; `value` NULL or readable for the
/// encoding's size.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_add_value(
    builder: *mut ehd_builder,
    name: *const c_char,
    name_len: usize,
    encoding: u8,
    format: u8,
    field_tag: u16,
    value: *const c_void,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the caller's guarantee.
    let name = unsafe { name_arg(name, name_len) };
    let size = builder::value_size(encoding).filter(|_| non_null(value).is_some());
    // SAFETY: `value` is readable for the encoding's size (the caller's guarantee).
    let value = size.and_then(|size| unsafe { bytes_arg(value, size) });
    match (name, value) {
        (Some(name), Some(value)) => b.add_value(name, encoding, format, field_tag, value),
        _ => b.fail(libc::EINVAL),
    }
}

/// Adds an array of `count` values (contiguous, `count` times the value size
/// at `values`). `encoding`: value8 ... value128 as for ehd_builder_add_value,
/// or'ed with event_field_encoding_carray_flag for a constant-count array
/// (the count goes in the metadata: every event of this name has it), else a
/// variable-count array (optionally with event_field_encoding_varray_flag;
/// the count goes in the payload). At most 65535 values (ERANGE).
///
/// # Safety
/// As for ehd_builder_add_value; `values` NULL (with `count` 0) or readable
/// for `count` values.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_add_values(
    builder: *mut ehd_builder,
    name: *const c_char,
    name_len: usize,
    encoding: u8,
    format: u8,
    field_tag: u16,
    values: *const c_void,
    count: usize,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    let Ok(count16) = u16::try_from(count) else {
        return b.fail(libc::ERANGE);
    };
    // SAFETY: the caller's guarantee.
    let name = unsafe { name_arg(name, name_len) };
    let bytes =
        builder::value_size(encoding).and_then(|size| size.checked_mul(usize::from(count16)));
    // SAFETY: `values` is readable for `count` values (the caller's guarantee).
    let values = bytes.and_then(|len| unsafe { bytes_arg(values, len) });
    match (name, values) {
        (Some(name), Some(values)) => {
            b.add_values(name, encoding, format, field_tag, values, count16)
        }
        _ => b.fail(libc::EINVAL),
    }
}

/// Adds a string or binary field. `encoding`:
/// - event_field_encoding_string_length16_char8, _char16, _char32: a counted
///   string of `count` characters of 1, 2 or 4 bytes (at most 65535);
/// - event_field_encoding_zstring_char8, _char16, _char32: a NUL-terminated
///   string: the characters before the first zero character among the
///   `count` given, then a zero character;
/// - event_field_encoding_binary_length16_char8: `count` bytes.
///
/// `count` is in characters; EHD_NTS: `chars` is zero-terminated. `format` 0
/// is UTF for strings, hex bytes for binary (string8, string_json, ...,
/// or any value format for a nullable value, see eventheader.h).
///
/// # Safety
/// As for ehd_builder_add_value; `chars` NULL (with `count` 0) or readable
/// for `count` characters (zero-terminated for EHD_NTS).
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_add_string(
    builder: *mut ehd_builder,
    name: *const c_char,
    name_len: usize,
    encoding: u8,
    format: u8,
    field_tag: u16,
    chars: *const c_void,
    count: usize,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the caller's guarantee.
    let name = unsafe { name_arg(name, name_len) };
    // SAFETY: `chars` is readable as described (the caller's guarantee).
    let chars =
        builder::char_size(encoding).and_then(|unit| unsafe { chars_arg(chars, count, unit) });
    match (name, chars) {
        (Some(name), Some(chars)) => b.add_string(name, encoding, format, field_tag, chars),
        _ => b.fail(libc::EINVAL),
    }
}

/// Adds an array of `count` strings or binary blobs: element i is
/// `strings[i]` with `counts[i]` characters (EHD_NTS: zero-terminated;
/// `counts` NULL: all zero-terminated). `encoding` as for
/// ehd_builder_add_string, or'ed with event_field_encoding_carray_flag for a
/// constant-count array, else a variable-count one. At most 65535 elements.
///
/// # Safety
/// As for ehd_builder_add_value; `strings` NULL (with `count` 0) or `count`
/// pointers, each as `chars` of ehd_builder_add_string; `counts` NULL or
/// `count` lengths.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_add_strings(
    builder: *mut ehd_builder,
    name: *const c_char,
    name_len: usize,
    encoding: u8,
    format: u8,
    field_tag: u16,
    strings: *const *const c_void,
    counts: *const usize,
    count: usize,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    let Ok(count16) = u16::try_from(count) else {
        return b.fail(libc::ERANGE);
    };
    // SAFETY: the caller's guarantee.
    let name = unsafe { name_arg(name, name_len) };
    let (Some(name), Some(unit)) = (name, builder::char_size(encoding)) else {
        return b.fail(libc::EINVAL);
    };
    if non_null(strings).is_none() && count16 != 0 {
        return b.fail(libc::EINVAL);
    }
    let element = |i: usize| -> Result<&[u8], c_int> {
        // SAFETY: i < count, and `strings` holds `count` pointers.
        let slot = unsafe { strings.add(i) };
        // SAFETY: as above: a readable pointer.
        let chars = unsafe { slot.read() };
        let len = if non_null(counts).is_none() {
            EHD_NTS
        } else {
            // SAFETY: i < count, and `counts` holds `count` lengths.
            let slot = unsafe { counts.add(i) };
            // SAFETY: as above: a readable length.
            unsafe { slot.read() }
        };
        // SAFETY: each element is readable as described (the caller's guarantee).
        unsafe { chars_arg(chars, len, unit) }.ok_or(libc::EINVAL)
    };
    b.add_strings(name, encoding, format, field_tag, count16, element)
}

/// ehd_builder_add_struct(_array): the builder and name checks, then `add`;
/// the bookmark it returns is stored in `*bookmark` (if not NULL).
///
/// # Safety
/// As for ehd_builder_add_struct.
unsafe fn add_struct_with(
    builder: *mut ehd_builder,
    name: *const c_char,
    name_len: usize,
    bookmark: *mut usize,
    add: impl FnOnce(&mut Builder, Name<'_>) -> (c_int, usize),
) -> c_int {
    // SAFETY: the caller's guarantee.
    let added = match unsafe { builder_mut(builder) } {
        // SAFETY: the caller's guarantee.
        Some(mut b) => match unsafe { name_arg(name, name_len) } {
            Some(name) => add(&mut b, name),
            None => (b.fail(libc::EINVAL), NO_BOOKMARK),
        },
        None => (libc::EINVAL, NO_BOOKMARK),
    };
    // SAFETY: NULL or writable (the caller's guarantee).
    unsafe { with_bookmark(bookmark, added) }
}

/// Adds a struct field: the next `field_count` fields (1 ... 127) are its
/// members (a nested struct counts as one). If the number is not known yet,
/// pass 1 and a `bookmark`, and set the real number with
/// ehd_builder_set_struct_field_count once the members are added.
/// `*bookmark` (if not NULL) receives the bookmark, EHD_NO_BOOKMARK on error
/// or in EHD_FIELDS_PAYLOAD_ONLY mode.
///
/// # Safety
/// As for ehd_builder_add_value; `bookmark` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_add_struct(
    builder: *mut ehd_builder,
    name: *const c_char,
    name_len: usize,
    field_count: u8,
    field_tag: u16,
    bookmark: *mut usize,
) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe {
        add_struct_with(builder, name, name_len, bookmark, |b, name| {
            b.add_struct(name, field_count, field_tag)
        })
    }
}

/// Adds a variable-count array of `count` structs of `field_count` members
/// each (1 ... 127). Then add the members of the first element as fields
/// (their metadata describes every element), and the members of the other
/// elements, in order, in EHD_FIELDS_PAYLOAD_ONLY mode: exactly `count`
/// elements. With `count` 0, add the members once in
/// EHD_FIELDS_METADATA_ONLY mode. `bookmark` as for ehd_builder_add_struct.
///
/// There is no constant-count array of structs: the decoders in use
/// (tracepoint_decode, the reference's) misread those with more than one
/// element.
///
/// # Safety
/// As for ehd_builder_add_struct.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_add_struct_array(
    builder: *mut ehd_builder,
    name: *const c_char,
    name_len: usize,
    field_count: u8,
    field_tag: u16,
    count: u16,
    bookmark: *mut usize,
) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe {
        add_struct_with(builder, name, name_len, bookmark, |b, name| {
            b.add_struct_array(name, field_count, field_tag, count)
        })
    }
}

/// Sets the member count of the struct (or struct array) at `bookmark`, from
/// ehd_builder_add_struct(_array) since the last reset, to `field_count`
/// (1 ... 127). EHD_NO_BOOKMARK is ignored; any other invalid bookmark, or
/// a count out of range, is EINVAL (latched).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_set_struct_field_count(
    builder: *mut ehd_builder,
    bookmark: usize,
    field_count: u8,
) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { builder_mut(builder) }.map_or(libc::EINVAL, |mut b| {
        b.set_struct_field_count(bookmark, field_count)
    })
}

/// Advanced: appends one field's metadata as given, without payload (in
/// every fields mode). `encoding`: any event_field_encoding from struct to
/// binary_length16_char8, or'ed with at most one of the carray and varray
/// flags; `const_count`: the element count of a carray field (else
/// ignored); for a struct, `format` is the member count. The payload must
/// then be added with ehd_builder_raw_add_data; mistakes make events that
/// do not decode.
///
/// # Safety
/// As for ehd_builder_add_value.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_raw_add_meta(
    builder: *mut ehd_builder,
    name: *const c_char,
    name_len: usize,
    encoding: u8,
    format: u8,
    field_tag: u16,
    const_count: u16,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the caller's guarantee.
    match unsafe { name_arg(name, name_len) } {
        Some(name) => b.raw_add_meta(name, encoding, format, field_tag, const_count),
        None => b.fail(libc::EINVAL),
    }
}

/// Advanced: appends `size` bytes to the payload as given.
///
/// # Safety
/// `builder` as for ehd_builder_add_value; `data` NULL (with `size` 0) or
/// `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_raw_add_data(
    builder: *mut ehd_builder,
    data: *const c_void,
    size: usize,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the caller's guarantee.
    match unsafe { bytes_arg(data, size) } {
        Some(data) => b.raw_add_data(data),
        None => b.fail(libc::EINVAL),
    }
}

/// Advanced: appends a 16-bit count to the payload (the count of a
/// variable-count array) and stores its bookmark in `*bookmark` (if not
/// NULL; EHD_NO_BOOKMARK on error), for ehd_builder_raw_set_count when the
/// count is only known after the elements.
///
/// # Safety
/// `builder` as for ehd_builder_add_value; `bookmark` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_raw_add_count(
    builder: *mut ehd_builder,
    count: u16,
    bookmark: *mut usize,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let added = match unsafe { builder_mut(builder) } {
        Some(mut b) => b.raw_add_count(count),
        None => (libc::EINVAL, NO_BOOKMARK),
    };
    // SAFETY: NULL or writable (the caller's guarantee).
    unsafe { with_bookmark(bookmark, added) }
}

/// Advanced: replaces the count at `bookmark` (from ehd_builder_raw_add_count
/// since the last reset). EHD_NO_BOOKMARK is ignored; another bookmark
/// outside the payload is EINVAL (latched).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_raw_set_count(
    builder: *mut ehd_builder,
    bookmark: usize,
    count: u16,
) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { builder_mut(builder) }.map_or(libc::EINVAL, |mut b| b.raw_set_count(bookmark, count))
}
