//! The builder exports: create, copy, destroy, start an event, its header
//! values and fields mode, and the write.

use core::ffi::{c_char, c_int, c_void};
use core::ptr::{self, NonNull};

use super::args::{builder_mut, builder_unchanged, handle, name_arg, set_errno, set_ref};
use super::{ehd_builder, ehd_event_set};
use crate::dynamic::builder::{Builder, Name, Parts};
use crate::dynamic::write;

/// Creates an event builder whose buffers start with room for
/// `meta_capacity` bytes of metadata and `data_capacity` bytes of payload
/// (0 is fine: they grow as needed, and keep their memory from event to
/// event). Each is capped at 65536 bytes, more than any event can hold: a
/// larger request reserves no more than that. Call
/// ehd_builder_reset to start an event. Returns NULL with errno ENOMEM if
/// there is no memory.
#[no_mangle]
pub extern "C" fn ehd_builder_new(meta_capacity: usize, data_capacity: usize) -> *mut ehd_builder {
    handle(Builder::boxed(
        meta_capacity.min(MAX_CAPACITY),
        data_capacity.min(MAX_CAPACITY),
    ))
}

/// The largest initial capacity `ehd_builder_new` reserves per buffer: an
/// event's metadata and payload together are at most 65467 bytes (the
/// builder refuses more with ERANGE), so a buffer never needs more.
const MAX_CAPACITY: usize = 65536;

/// Creates a copy of `builder` and its event so far. NULL with errno EINVAL
/// for NULL, ENOMEM without memory.
///
/// # Safety
/// `builder` must be NULL or a live builder not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_clone(builder: *const ehd_builder) -> *mut ehd_builder {
    // SAFETY: the caller's guarantee.
    let Some(b) = (unsafe { builder.cast::<Builder>().as_ref() }) else {
        set_errno(libc::EINVAL);
        return ptr::null_mut();
    };
    handle(Builder::boxed_copy(b))
}

/// Destroys the builder. NULL is a no-op.
///
/// # Safety
/// `builder` must be NULL or a builder from ehd_builder_new/clone, not used
/// afterwards.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_delete(builder: *mut ehd_builder) {
    if let Some(b) = NonNull::new(builder.cast::<Builder>()) {
        // SAFETY: a live builder from Builder::boxed(_copy), given up by
        // the caller.
        unsafe { Builder::free_boxed(b) }
    }
}

/// Starts a new event named `name` (`name_len` bytes, or EHD_NTS; no NUL in
/// it; it may carry attributes, "Name;attr=value") with event tag `tag`:
/// clears the previous event's fields, its error, and its header values
/// (opcode info, id, version and level 0) and leaves data-only mode. Returns
/// 0, or EINVAL (NULL builder, invalid name: latched) or ENOMEM (latched).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only;
/// `name` as described.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_reset(
    builder: *mut ehd_builder,
    name: *const c_char,
    name_len: usize,
    tag: u16,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the caller's guarantee.
    match unsafe { name_arg(name, name_len) } {
        Some(name) => b.reset(name, tag),
        None => {
            // An invalid name still starts a new event, in error.
            b.reset(Name::EMPTY, tag);
            b.fail(libc::EINVAL)
        }
    }
}

/// The builder's latched error: 0, or the errno of the first call that
/// failed since ehd_builder_reset (EINVAL before the first reset, and for
/// NULL).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_error(builder: *mut ehd_builder) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { builder_unchanged(builder) }.map_or(libc::EINVAL, |b| b.error())
}

/// Sets the event's id and version (0 after reset: the event is identified
/// by its name). Returns the latched error (EINVAL for NULL).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_set_id_version(
    builder: *mut ehd_builder,
    id: u16,
    version: u8,
) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { builder_unchanged(builder) }.map_or(libc::EINVAL, |b| b.set_id_version(id, version))
}

/// Sets the event's opcode (event_opcode; info after reset). Returns the
/// latched error (EINVAL for NULL).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_set_opcode(builder: *mut ehd_builder, opcode: u8) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { builder_unchanged(builder) }.map_or(libc::EINVAL, |b| b.set_opcode(opcode))
}

/// Sets the event's tag (reset's `tag` until then). Returns the latched
/// error (EINVAL for NULL).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_set_tag(builder: *mut ehd_builder, tag: u16) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { builder_unchanged(builder) }.map_or(libc::EINVAL, |b| b.set_tag(tag))
}

/// Sets the level the event is meant for (0 after reset: any). The event's
/// header always carries the level of the event set it is written to
/// (decoders reject an event whose header level differs from its
/// tracepoint's); with a level set here, ehd_builder_write refuses an event
/// set of another level with EINVAL instead of writing the event there.
/// Returns the latched error (EINVAL for NULL).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_set_level(builder: *mut ehd_builder, level: u8) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { builder_unchanged(builder) }.map_or(libc::EINVAL, |b| b.set_level(level))
}

/// Fields mode ehd_builder_add_* functions append metadata and payload (the
/// default, restored by reset).
/// cbindgen:ignore
pub const EHD_FIELDS_NORMAL: c_int = 0;
/// Fields mode: payload only.
/// cbindgen:ignore
pub const EHD_FIELDS_PAYLOAD_ONLY: c_int = 1;
/// Fields mode: metadata only.
/// cbindgen:ignore
pub const EHD_FIELDS_METADATA_ONLY: c_int = 2;

/// Sets which parts of their field the ehd_builder_add_* functions append
/// from now on: EHD_FIELDS_NORMAL (metadata and payload; reset restores it),
/// EHD_FIELDS_PAYLOAD_ONLY (for the second and later elements of an array of
/// structs; names, formats and tags are not used) or
/// EHD_FIELDS_METADATA_ONLY (for the members of an array of no structs;
/// values must still be valid arguments). The raw functions are not
/// affected. Returns the latched error (EINVAL for NULL or another mode,
/// latched).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_set_fields_mode(
    builder: *mut ehd_builder,
    mode: c_int,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(mut b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    match mode {
        EHD_FIELDS_NORMAL => b.set_parts(Parts::Both),
        EHD_FIELDS_PAYLOAD_ONLY => b.set_parts(Parts::PayloadOnly),
        EHD_FIELDS_METADATA_ONLY => b.set_parts(Parts::MetadataOnly),
        _ => b.fail(libc::EINVAL),
    }
}

/// Writes the event to `set`, with its level and keyword, and with the
/// 16-byte `activity_id` and `related_id` if not NULL (`related_id` needs
/// `activity_id`). Header, metadata and payload go to the kernel (or the
/// capture file) in one write; the builder keeps the event (write it again,
/// or reset).
///
/// Returns 0, else in this order: EINVAL for a NULL builder or a related id
/// without an activity id; the builder's latched error (EINVAL before the
/// first reset or after invalid arguments, ENOMEM if a buffer could not
/// grow, ERANGE if metadata and payload exceed 65467 bytes: the event is
/// refused, never cut short); E2BIG if decoders cannot read the event's
/// shape: more than 255 fields at its top level or more than 8 nested
/// structs (an array of structs counts as a struct); EBADF if `set` is
/// NULL; EINVAL if a level was
/// set (ehd_builder_set_level) and `set` has another; EBADF if `set` is
/// disabled (nobody listens, or its registration failed); else the errno of
/// the write.
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only; `set`
/// NULL or a live event set; each id NULL or 16 readable bytes.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_write(
    builder: *mut ehd_builder,
    set: *const ehd_event_set,
    activity_id: *const c_void,
    related_id: *const c_void,
) -> c_int {
    // SAFETY: the caller's guarantee.
    let Some(b) = (unsafe { builder_unchanged(builder) }) else {
        return libc::EINVAL;
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
    write(b, set, activity.map(|id| (id, related)))
}
