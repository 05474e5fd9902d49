//! The field-array exports: a whole event's fields in one call, from an
//! array of [`ehd_field`] that a program in another language (Python
//! ctypes, Go cgo, .NET P/Invoke, Rust FFI) can fill without inlining any
//! C. Each element is added exactly as the single-field export of its kind
//! adds it (the same builder methods, the same checks and limits), so the
//! bytes and the errors are those of the per-field calls; only the calls
//! across the language boundary are fewer.

use core::ffi::{c_char, c_int, c_void, CStr};
use core::ptr;

use super::args::{builder_mut, bytes_arg, chars_arg, name_arg, non_null, set_ref, text_arg};
use super::{ehd_builder, ehd_event_set, EHD_NTS};
use crate::dynamic::builder::{self, enc, Builder, Name, Run};
use crate::dynamic::write;

/// One field for ehd_builder_add_fields and ehd_builder_write_fields.
///
/// - `name`, `name_len`: the field's name as for ehd_builder_add_value
///   (`name_len` EHD_NTS: NUL-terminated).
/// - `encoding`: an event_field_encoding:
///   - event_field_encoding_struct: a struct whose next `count` fields (1 ...
///     127) are its members; `value` is ignored;
///   - value8 ... value128: one value of 1, 2, 4, 8 or 16 bytes at `value`
///     (`count` is ignored); or'ed with event_field_encoding_carray_flag or
///     event_field_encoding_varray_flag: an array of `count` such values at
///     `value` (as ehd_builder_add_values);
///   - the string and binary encodings (zstring_char8 ...
///     binary_length16_char8, no array flag): `count` characters at `value`
///     (EHD_NTS: zero-terminated), as ehd_builder_add_string.
/// - `format`: an event_field_format (0 for the default); `tag`: 0 or a
///   provider-defined field tag.
///
/// Arrays of strings and arrays of structs have their own functions
/// (ehd_builder_add_strings, ehd_builder_add_struct_array).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ehd_field {
    pub name: *const c_char,
    pub name_len: usize,
    pub value: *const c_void,
    pub count: usize,
    pub encoding: u8,
    pub format: u8,
    pub tag: u16,
}

/// A field's name, inline (the names of one event are short; an out-of-line
/// check per field would cost more than the check): None if invalid.
///
/// # Safety
/// As for name_arg.
#[inline(always)]
unsafe fn field_name<'a>(name: *const c_char, len: usize) -> Option<Name<'a>> {
    if len == EHD_NTS || len == 0 || non_null(name).is_none() {
        // SAFETY: the caller's guarantee.
        return unsafe { name_arg(name, len) };
    }
    // SAFETY: `len` readable bytes (the caller's guarantee).
    unsafe { bytes_arg(name.cast(), len) }.and_then(Name::new)
}

/// Adds one field as its single-field export would, after the builder
/// check: 0 or the latched error.
///
/// # Safety
/// The field's pointers as ehd_builder_add_fields describes.
#[inline(always)]
unsafe fn add_one(b: &mut Builder, f: &ehd_field) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(name) = (unsafe { field_name(f.name, f.name_len) }) else {
        return b.fail(libc::EINVAL);
    };
    let value_encoding = f.encoding & enc::VALUE_MASK;
    let flags = f.encoding & !enc::VALUE_MASK;
    if value_encoding == enc::STRUCT {
        return match u8::try_from(f.count) {
            Ok(members) if flags == 0 => b.add_struct(name, members, f.tag).0,
            _ => b.fail(libc::EINVAL),
        };
    }
    if let Some(size) = builder::value_size(value_encoding) {
        return if flags == 0 {
            // SAFETY: `value` is readable for the encoding's size (the
            // caller's guarantee).
            let value = unsafe { value_arg(f.value, size) };
            match value {
                Some(value) => b.add_value(name, f.encoding, f.format, f.tag, value),
                None => b.fail(libc::EINVAL),
            }
        } else {
            // SAFETY: as for ehd_builder_add_values.
            unsafe { add_values(b, name, f, size) }
        };
    }
    match builder::char_size(value_encoding) {
        Some(unit) if flags == 0 => {
            // SAFETY: `value` is readable as ehd_builder_add_string's
            // `chars` (the caller's guarantee).
            match unsafe { chars_arg(f.value, f.count, unit) } {
                Some(chars) => b.add_string(name, f.encoding, f.format, f.tag, chars),
                None => b.fail(libc::EINVAL),
            }
        }
        _ => b.fail(libc::EINVAL),
    }
}

/// Appends the field to the run if it is a value or an 8-bit string
/// without array flags, with valid arguments (but for its name's bytes,
/// which the run checks as it copies them) that fit; whether it did (else
/// it goes through add_one).
///
/// # Safety
/// The field's pointers as ehd_builder_add_fields describes.
#[inline(always)]
unsafe fn append(run: &mut Run<'_>, f: &ehd_field) -> bool {
    // Encoding, format and tag: 4 bytes in a row (checked below), read as
    // one word.
    // SAFETY: the 4 bytes from `encoding` are the field's.
    let word = u32::from_le_bytes(unsafe { ptr::addr_of!(f.encoding).cast::<[u8; 4]>().read() });
    let encoding = word & 0xff;
    // value8 ... value128 (2 ... 6): 1 << (encoding - 2) bytes.
    let value_class = encoding.wrapping_sub(u32::from(enc::VALUE8));
    if value_class < 5 {
        if non_null(f.value).is_none() {
            return false;
        }
        // SAFETY: `value` is readable for the encoding's size (the caller's
        // guarantee).
        let value = unsafe { core::slice::from_raw_parts(f.value.cast::<u8>(), 1 << value_class) };
        // SAFETY: the caller's guarantee.
        return unsafe {
            append_with(
                run,
                f,
                word,
                #[inline(always)]
                |run| run.value(value),
            )
        };
    }
    let zstring = encoding == u32::from(enc::ZSTRING_CHAR8);
    if !zstring
        && encoding != u32::from(enc::STRING_LENGTH16_CHAR8)
        && encoding != u32::from(enc::BINARY_LENGTH16_CHAR8)
    {
        return false;
    }
    // SAFETY: `value` is readable as ehd_builder_add_string's `chars` (the
    // caller's guarantee).
    let Some(chars) = (unsafe { text_of(f.value.cast(), f.count) }) else {
        return false;
    };
    // SAFETY: the caller's guarantee.
    unsafe {
        append_with(
            run,
            f,
            word,
            #[inline(always)]
            |run| {
                if zstring {
                    run.zstring(chars)
                } else {
                    run.counted(chars)
                }
            },
        )
    }
}

/// Appends the field's metadata, then its payload by `payload`, keeping the
/// metadata only if that appended it; whether it did.
///
/// # Safety
/// The field's name as ehd_builder_add_fields describes.
#[inline(always)]
unsafe fn append_with(
    run: &mut Run<'_>,
    f: &ehd_field,
    word: u32,
    payload: impl FnOnce(&mut Run<'_>) -> bool,
) -> bool {
    // SAFETY: the caller's guarantee.
    let Some(name) = (unsafe { text_of(f.name, f.name_len) }) else {
        return false;
    };
    let meta = run.meta(name, word);
    if meta == 0 || !payload(run) {
        return false;
    }
    run.keep(meta);
    true
}

// The word append reads: encoding, format, tag, in a row.
const _: () = {
    use core::mem::offset_of;
    assert!(offset_of!(ehd_field, format) == offset_of!(ehd_field, encoding) + 1);
    assert!(offset_of!(ehd_field, tag) == offset_of!(ehd_field, encoding) + 2);
};

/// A (pointer, length) argument's bytes as the run takes them: NULL with
/// length 0 is empty, EHD_NTS means NUL-terminated; None for NULL with a
/// length or a length over 65535 (which the typed adders judge).
///
/// # Safety
/// `text` must be NULL or `len` readable bytes (a C string for EHD_NTS).
#[inline(always)]
unsafe fn text_of<'a>(text: *const c_char, len: usize) -> Option<&'a [u8]> {
    if len.wrapping_sub(1) < usize::from(u16::MAX) {
        non_null(text)?;
        // SAFETY: `len` readable bytes (the caller's guarantee).
        return Some(unsafe { core::slice::from_raw_parts(text.cast::<u8>(), len) });
    }
    // SAFETY: the caller's guarantee.
    unsafe { text_of_other(text, len) }
}

/// text_of's other cases (out of line: the run's loop stays small).
///
/// # Safety
/// As for text_of.
#[inline(never)]
unsafe fn text_of_other<'a>(text: *const c_char, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if len != EHD_NTS || non_null(text).is_none() {
        return None;
    }
    // SAFETY: a C string (the caller's guarantee).
    let bytes = unsafe { CStr::from_ptr(text) }.to_bytes();
    (bytes.len() <= usize::from(u16::MAX)).then_some(bytes)
}

/// One value's bytes: None for NULL.
///
/// # Safety
/// `value` must be NULL or `size` readable bytes.
#[inline(always)]
unsafe fn value_arg<'a>(value: *const c_void, size: usize) -> Option<&'a [u8]> {
    non_null(value)?;
    // SAFETY: the caller's guarantee.
    unsafe { bytes_arg(value, size) }
}

/// An array-of-values element, as ehd_builder_add_values adds it.
///
/// # Safety
/// `f.value` NULL (with `f.count` 0) or readable for `f.count` values of
/// `size` bytes.
unsafe fn add_values(b: &mut Builder, name: Name<'_>, f: &ehd_field, size: usize) -> c_int {
    let Ok(count16) = u16::try_from(f.count) else {
        return b.fail(libc::ERANGE);
    };
    let bytes = size.checked_mul(usize::from(count16));
    // SAFETY: the caller's guarantee.
    match bytes.and_then(|len| unsafe { bytes_arg(f.value, len) }) {
        Some(values) => b.add_values(name, f.encoding, f.format, f.tag, values, count16),
        None => b.fail(libc::EINVAL),
    }
}

/// Adds `count` fields, in order, each exactly as its single-field export
/// (ehd_builder_add_struct, _add_value, _add_values, _add_string) adds it:
/// the same bytes, the same checks and limits, the same latched errors.
/// Stops at the first field that fails.
///
/// Returns 0 or the latched error: EINVAL for a NULL builder, `fields` NULL
/// with a `count`, or a field with invalid arguments (as the single-field
/// export would say, plus: an array flag on a struct or a string, a struct
/// member count outside 1 ... 127); ERANGE, ENOMEM as the other adders.
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only;
/// `fields` NULL (with `count` 0) or `count` readable ehd_field, each with
/// pointers as its single-field export needs them.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_add_fields(
    builder: *mut ehd_builder,
    fields: *const ehd_field,
    count: usize,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the caller's guarantee.
    unsafe { add_all(&mut b, fields, count) }
}

/// The fields of ehd_builder_add_fields, after the builder check.
///
/// # Safety
/// As for ehd_builder_add_fields.
#[inline(always)]
unsafe fn add_all(b: &mut Builder, fields: *const ehd_field, count: usize) -> c_int {
    if count == 0 {
        return b.error();
    }
    // No array of `count` fields can be larger than isize::MAX bytes.
    if non_null(fields).is_none() || count > isize::MAX as usize / core::mem::size_of::<ehd_field>()
    {
        return b.fail(libc::EINVAL);
    }
    // SAFETY: `count` readable fields (the caller's guarantee), not NULL,
    // within isize::MAX bytes.
    let fields = unsafe { core::slice::from_raw_parts(fields, count) };
    // SAFETY: each field's pointers as described (the caller's guarantee).
    let appended = unsafe { run(b, fields) };
    match fields.get(appended..) {
        // SAFETY: as above.
        Some(rest) if !rest.is_empty() => unsafe { add_rest(b, rest) },
        _ => 0,
    }
}

/// Appends the fields of a run (Builder::run) while it takes them: how
/// many.
///
/// # Safety
/// As for ehd_builder_add_fields, for `fields`.
#[inline(always)]
unsafe fn run(b: &mut Builder, fields: &[ehd_field]) -> usize {
    let Some(mut run) = b.run() else {
        return 0;
    };
    let mut rest = fields;
    while let Some((f, after)) = rest.split_first() {
        // SAFETY: each field's pointers as described (the caller's guarantee).
        if !unsafe { append(&mut run, f) } {
            break;
        }
        rest = after;
    }
    run.finish();
    fields.len() - rest.len()
}

/// The fields from the first one the run did not append: that one through
/// its typed adder, then the next run, and so on. 0 or the latched error.
///
/// # Safety
/// As for ehd_builder_add_fields, for `fields`.
#[cold]
#[inline(never)]
unsafe fn add_rest(b: &mut Builder, mut fields: &[ehd_field]) -> c_int {
    while let Some((f, after)) = fields.split_first() {
        // SAFETY: the field's pointers as described (the caller's guarantee).
        let err = unsafe { add_one(b, f) };
        if err != 0 {
            return err;
        }
        // SAFETY: as above.
        let appended = unsafe { run(b, after) };
        fields = after.get(appended..).unwrap_or_default();
    }
    0
}

/// One event in one call: ehd_builder_reset(builder, name, name_len, 0),
/// ehd_builder_add_fields(builder, fields, count), then
/// ehd_builder_write(builder, set, activity_id, related_id); the builder
/// keeps the event, as after those calls.
///
/// Returns what those calls would: EINVAL for a NULL builder; the first
/// error of the reset or a field (latched, and then the event is not
/// written); else ehd_builder_write's result (EBADF for a NULL or disabled
/// set, ...).
///
/// # Safety
/// As for ehd_builder_reset, ehd_builder_add_fields and ehd_builder_write.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_write_fields(
    builder: *mut ehd_builder,
    set: *const ehd_event_set,
    name: *const c_char,
    name_len: usize,
    fields: *const ehd_field,
    count: usize,
    activity_id: *const c_void,
    related_id: *const c_void,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the caller's guarantee.
    let err = match unsafe { text_arg(name, name_len) } {
        Some(name) => b.reset_with(name, 0),
        None => {
            // As ehd_builder_reset: an invalid name starts an event in error.
            b.reset(Name::EMPTY, 0);
            b.fail(libc::EINVAL)
        }
    };
    if err != 0 {
        return err;
    }
    // SAFETY: the caller's guarantee.
    let err = unsafe { add_all(&mut b, fields, count) };
    if err != 0 {
        return err;
    }
    // SAFETY: 16 readable bytes each, or NULL (the caller's guarantee).
    let activity = unsafe { activity_id.cast::<[u8; 16]>().as_ref() };
    // SAFETY: as above.
    let related = unsafe { related_id.cast::<[u8; 16]>().as_ref() };
    if activity.is_none() && related.is_some() {
        return libc::EINVAL;
    }
    // SAFETY: the caller's guarantee.
    let set = unsafe { set_ref(set) };
    write(&mut b, set, activity.map(|id| (id, related)))
}
