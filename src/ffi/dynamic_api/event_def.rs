//! The event-definition exports: an event's name, tag and fields checked
//! and turned into metadata once (ehd_event_def_new), then one call per
//! event with only the values (ehd_event_def_write), for programs in other
//! languages (Python ctypes, Go cgo, .NET P/Invoke, Rust FFI) that log the
//! same shape of event many times. The fields are described by the
//! [`ehd_field`] array of the field-array exports (their values ignored),
//! and each is checked as that export checks it, so the metadata, and the
//! events, are those of the builder's.

use core::ffi::{c_char, c_int, c_void};
use core::ptr::NonNull;

use super::args::{handle, name_arg, non_null, set_ref, text_arg};
use super::field_array::ehd_field;
use super::{ehd_event_def, ehd_event_set, EHD_NTS};
use crate::dynamic::builder::{self, enc, Builder, Name, Parts};
use crate::dynamic::def::{self, EventDef, Value};

/// One field's value for ehd_event_def_write:
/// - a value field (value8 ... value128): `size` bytes at `data`, exactly
///   the encoding's size (1, 2, 4, 8 or 16);
/// - a string or binary field: `size` characters at `data` (EHD_NTS: up to
///   the first zero character); a zstring ends at its first zero character
///   (the rest is not written);
/// - a struct field: ignored.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ehd_value {
    pub data: *const c_void,
    pub size: usize,
}

// ehd_value is the library's def::Value, by layout.
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(size_of::<ehd_value>() == size_of::<Value>());
    assert!(align_of::<ehd_value>() == align_of::<Value>());
    assert!(offset_of!(ehd_value, data) == offset_of!(Value, data));
    assert!(offset_of!(ehd_value, size) == offset_of!(Value, size));
    assert!(EHD_NTS == usize::MAX);
};

/// Zero bytes standing for a value while only metadata is made.
const NO_VALUE: [u8; 16] = [0; 16];

/// Adds a field's metadata (the builder in metadata-only mode) after the
/// checks ehd_builder_add_fields makes: 0 or the latched error. Arrays of
/// values are refused (EINVAL).
///
/// # Safety
/// The field's name as ehd_builder_add_fields describes.
unsafe fn add_meta(b: &mut Builder, f: &ehd_field) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(name) = (unsafe { name_arg(f.name, f.name_len) }) else {
        return b.fail(libc::EINVAL);
    };
    let value_encoding = f.encoding & enc::VALUE_MASK;
    if f.encoding & !enc::VALUE_MASK != 0 || !def::supported(f.encoding) {
        return b.fail(libc::EINVAL);
    }
    if value_encoding == enc::STRUCT {
        return match u8::try_from(f.count) {
            Ok(members) => b.add_struct(name, members, f.tag).0,
            Err(_) => b.fail(libc::EINVAL),
        };
    }
    match builder::value_size(value_encoding) {
        Some(size) => {
            let value = NO_VALUE.get(..size).unwrap_or_default();
            b.add_value(name, f.encoding, f.format, f.tag, value)
        }
        None => b.add_string(name, f.encoding, f.format, f.tag, &[]),
    }
}

/// The definition, or the errno of the first check that fails.
///
/// # Safety
/// As for ehd_event_def_new.
unsafe fn make(
    name: *const c_char,
    name_len: usize,
    fields: *const ehd_field,
    count: usize,
    tag: u16,
) -> Result<NonNull<EventDef>, c_int> {
    // SAFETY: the caller's guarantee.
    let name = unsafe { text_arg(name, name_len) }
        .and_then(Name::new)
        .ok_or(libc::EINVAL)?;
    let fields: &[ehd_field] = if count == 0 {
        &[]
    } else {
        // No array of `count` fields can be larger than isize::MAX bytes.
        if non_null(fields).is_none()
            || count > isize::MAX as usize / core::mem::size_of::<ehd_field>()
        {
            return Err(libc::EINVAL);
        }
        // SAFETY: `count` readable fields (the caller's guarantee).
        unsafe { core::slice::from_raw_parts(fields, count) }
    };
    let mut b = Builder::new(256, 0)?;
    let err = b.reset(name, tag);
    if err != 0 {
        return Err(err);
    }
    b.set_parts(Parts::MetadataOnly);
    for f in fields {
        // SAFETY: each field's name as described (the caller's guarantee).
        let err = unsafe { add_meta(&mut b, f) };
        if err != 0 {
            return Err(err);
        }
    }
    EventDef::new(&mut b, tag, fields.len(), |i| {
        fields.get(i).map_or(0, |f| f.encoding)
    })
}

/// Creates the definition of an event named `name` (`name_len` bytes, or
/// EHD_NTS: NUL-terminated) with event tag `tag` and the `count` fields of
/// `fields` (as for ehd_builder_add_fields; their `value` members are not
/// read, a struct's `count` is its member count, a string's is not read).
/// Everything is checked here, once: each field as ehd_builder_add_fields
/// checks it, and the event's shape and metadata size as ehd_builder_write
/// does. Arrays of values or strings (an encoding with an array flag) are
/// not supported.
///
/// Returns the definition, or NULL with errno: EINVAL for an invalid name,
/// `fields` NULL with a `count`, or an invalid field (an array flag
/// included); ERANGE for metadata over the event size limit; E2BIG for a
/// shape decoders cannot read (more than 255 top-level fields, more than 8
/// nested structs) or more than 1021 value and string fields; ENOMEM.
///
/// # Safety
/// `name` NULL or readable as described; `fields` NULL (with `count` 0) or
/// `count` readable ehd_field with readable names.
#[no_mangle]
pub unsafe extern "C" fn ehd_event_def_new(
    name: *const c_char,
    name_len: usize,
    fields: *const ehd_field,
    count: usize,
    tag: u16,
) -> *mut ehd_event_def {
    // SAFETY: the caller's guarantee.
    handle(unsafe { make(name, name_len, fields, count, tag) })
}

/// Destroys a definition. NULL is a no-op.
///
/// # Safety
/// `def` must be NULL or a definition from ehd_event_def_new, not used
/// afterwards (nor during the call by another thread).
#[no_mangle]
pub unsafe extern "C" fn ehd_event_def_delete(def: *mut ehd_event_def) {
    if let Some(d) = NonNull::new(def.cast::<EventDef>()) {
        // SAFETY: a live definition from EventDef::new, given up by the
        // caller.
        unsafe { EventDef::free(d) }
    }
}

/// Writes one event of `def` to `set`: the definition's header values and
/// metadata, and as payload the `count` values of `values`, one per field
/// of the definition in order (a struct field's is ignored), without
/// copying them. The bytes are those ehd_builder_write_fields writes for
/// the same name, fields and values (with tag 0; ehd_builder_reset's tag
/// otherwise). Any number of threads may write with one definition.
///
/// Returns 0, else: EINVAL for a NULL definition, a `count` that is not the
/// definition's field count, `values` NULL with a count, a value NULL with
/// a size or whose size is not its value encoding's, `related_id` without
/// `activity_id`; ERANGE for a counted string over 65535 characters or an
/// event over the size limit; EBADF for a NULL or disabled set; ENOMEM
/// (only for a definition of more than 61 payload vectors, a value taking
/// one and a string two, whose payload is gathered in a block); else the
/// errno of the write.
///
/// # Safety
/// `def` NULL or a live definition; `set` NULL or a live event set;
/// `values` NULL (with `count` 0) or `count` readable ehd_value, each
/// readable as described; `activity_id` and `related_id` NULL or 16
/// readable bytes.
#[no_mangle]
pub unsafe extern "C" fn ehd_event_def_write(
    def: *const ehd_event_def,
    set: *const ehd_event_set,
    values: *const ehd_value,
    count: usize,
    activity_id: *const c_void,
    related_id: *const c_void,
) -> c_int {
    // SAFETY: NULL or a live definition (the caller's guarantee).
    let Some(d) = (unsafe { def.cast::<EventDef>().as_ref() }) else {
        return libc::EINVAL;
    };
    let values: &[Value] = if count == 0 {
        &[]
    } else {
        if non_null(values).is_none() || count != d.count() {
            return libc::EINVAL;
        }
        // SAFETY: `count` readable values (the caller's guarantee), of the
        // layout of Value (checked above).
        unsafe { core::slice::from_raw_parts(values.cast::<Value>(), count) }
    };
    // SAFETY: 16 readable bytes each, or NULL (the caller's guarantee).
    let activity = unsafe { activity_id.cast::<[u8; 16]>().as_ref() };
    // SAFETY: as above.
    let related = unsafe { related_id.cast::<[u8; 16]>().as_ref() };
    if activity.is_none() && related.is_some() {
        return libc::EINVAL;
    }
    // SAFETY: the caller's guarantee.
    let set = unsafe { set_ref(set) };
    // SAFETY: the values readable as described (the caller's guarantee).
    unsafe { d.write(values, set, activity.map(|id| (id, related))) }
}
