//! The exports of `eventheader/eventheader-dynamic.h`: runtime-defined
//! events in C. Each export checks its arguments (NULL pointers, string and
//! array arguments, counts) and then makes one call into [`crate::dynamic`].
//! The header's overview is in `headers/eventheader-dynamic.head.h`.
#![deny(clippy::multiple_unsafe_ops_per_block)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_int, c_void, CStr};
use core::ptr::{self, NonNull};

use crate::dynamic::builder::{self, Builder, Name, Parts, NO_BOOKMARK};
use crate::dynamic::provider::{EventSet, NewSet, Provider};
use crate::dynamic::{heap, write};

/// A string length meaning "the string is NUL-terminated" (also a count of
/// characters, for the string functions). In C: `#define EHD_NTS` in the
/// header's fragment.
/// cbindgen:ignore
pub const EHD_NTS: usize = usize::MAX;

/// The bookmark a failed ehd_builder_add_struct stores; setting a field
/// count through it does nothing. In C: `#define EHD_NO_BOOKMARK`.
/// cbindgen:ignore
pub const EHD_NO_BOOKMARK: usize = NO_BOOKMARK;

/// A provider of runtime-defined events (opaque; declared in the header's
/// fragment).
pub struct ehd_provider {
    _opaque: [u8; 0],
}

/// An event set: the tracepoint of one provider, level and keyword (opaque,
/// but its first member is the status word: see EHD_EVENT_SET_ENABLED).
pub struct ehd_event_set {
    _opaque: [u8; 0],
}

/// An event builder (opaque).
pub struct ehd_builder {
    _opaque: [u8; 0],
}

fn set_errno(e: c_int) {
    // SAFETY: no preconditions; returns the calling thread's errno variable.
    let location = unsafe { libc::__errno_location() };
    // SAFETY: a valid, writable int of this thread.
    unsafe { *location = e };
}

fn provider_ptr(p: *const ehd_provider) -> Option<NonNull<Provider>> {
    NonNull::new(p.cast_mut().cast::<Provider>())
}

/// # Safety
/// `p` must be NULL or a live provider for `'a`.
unsafe fn provider_ref<'a>(p: *const ehd_provider) -> Option<&'a Provider> {
    // SAFETY: the caller's guarantee.
    unsafe { p.cast::<Provider>().as_ref() }
}

/// # Safety
/// `set` must be NULL or a live event set for `'a`.
unsafe fn set_ref<'a>(set: *const ehd_event_set) -> Option<&'a EventSet> {
    // SAFETY: the caller's guarantee.
    unsafe { set.cast::<EventSet>().as_ref() }
}

/// # Safety
/// `b` must be NULL or a live builder for `'a`, used by one thread.
unsafe fn builder_mut<'a>(b: *mut ehd_builder) -> Option<&'a mut Builder> {
    // SAFETY: the caller's guarantee.
    unsafe { b.cast::<Builder>().as_mut() }
}

/// The handle of a new object, or NULL with errno set to why there is none.
fn handle<T, H>(made: Result<NonNull<T>, c_int>) -> *mut H {
    match made {
        Ok(p) => p.as_ptr().cast(),
        Err(e) => {
            set_errno(e);
            ptr::null_mut()
        }
    }
}

/// Stores `mark` in `*bookmark` (if not NULL) and returns `err`.
///
/// # Safety
/// `bookmark` must be NULL or writable.
unsafe fn with_bookmark(bookmark: *mut usize, (err, mark): (c_int, usize)) -> c_int {
    // SAFETY: NULL or writable (the caller's guarantee).
    if let Some(out) = unsafe { bookmark.as_mut() } {
        *out = mark;
    }
    err
}

/// A (pointer, length) text argument: NULL with length 0 is empty, length
/// EHD_NTS means NUL-terminated. None if invalid.
///
/// # Safety
/// `text` must be NULL or `len` readable bytes (a C string for EHD_NTS).
unsafe fn text_arg<'a>(text: *const c_char, len: usize) -> Option<&'a [u8]> {
    if len == EHD_NTS {
        if text.is_null() {
            return None;
        }
        // SAFETY: a C string (the caller's guarantee).
        return Some(unsafe { CStr::from_ptr(text) }.to_bytes());
    }
    // SAFETY: forwarded contract.
    unsafe { bytes_arg(text.cast(), len) }
}

/// A (pointer, length) name argument (text_arg's rules): None if invalid or
/// if it contains a NUL.
///
/// # Safety
/// As for text_arg.
#[inline]
unsafe fn name_arg<'a>(text: *const c_char, len: usize) -> Option<Name<'a>> {
    if len == EHD_NTS {
        if text.is_null() {
            return None;
        }
        // SAFETY: a C string (the caller's guarantee).
        return Some(Name::from_c_str(unsafe { CStr::from_ptr(text) }));
    }
    // SAFETY: forwarded contract.
    unsafe { bytes_arg(text.cast(), len) }.and_then(Name::new)
}

/// `len` bytes at `bytes`: NULL with length 0 is empty. None for NULL with a
/// length, or a length no object can have.
///
/// # Safety
/// `bytes` must be NULL or `len` readable bytes.
unsafe fn bytes_arg<'a>(bytes: *const c_void, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if bytes.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: `len` readable bytes (the caller's guarantee).
    Some(unsafe { core::slice::from_raw_parts(bytes.cast::<u8>(), len) })
}

/// Characters of `unit` bytes at `chars`: `count` of them, or up to the
/// first zero character for EHD_NTS.
///
/// # Safety
/// `chars` must be NULL or `count` readable characters (zero-terminated for
/// EHD_NTS).
unsafe fn chars_arg<'a>(chars: *const c_void, count: usize, unit: usize) -> Option<&'a [u8]> {
    if count != EHD_NTS {
        // SAFETY: forwarded contract.
        return unsafe { bytes_arg(chars, count.checked_mul(unit)?) };
    }
    if chars.is_null() {
        return None;
    }
    if unit == 1 {
        // SAFETY: a NUL-terminated 8-bit string (the caller's guarantee).
        return Some(unsafe { CStr::from_ptr(chars.cast()) }.to_bytes());
    }
    let start = chars.cast::<u8>();
    let mut len = 0usize;
    loop {
        // SAFETY: characters up to and including the terminator are readable.
        let at = unsafe { start.add(len) };
        let ch: u32 = match unit {
            // SAFETY: as above; reads one character, unaligned allowed.
            2 => u32::from(unsafe { at.cast::<u16>().read_unaligned() }),
            // SAFETY: as above.
            4 => unsafe { at.cast::<u32>().read_unaligned() },
            // SAFETY: as above.
            _ => u32::from(unsafe { at.read() }),
        };
        let zero = ch == 0;
        if zero {
            break;
        }
        len = len.checked_add(unit)?;
    }
    // SAFETY: the `len` bytes before the terminator are readable.
    unsafe { bytes_arg(chars, len) }
}

/// Creates a provider named `name` with the options string `options` (""
/// for none, "Gmygroup" for the provider group "mygroup"; options are
/// `[A-Z][0-9a-z]*` each, sorted) and opens it. Both are (pointer, length)
/// like every text argument (EHD_NTS for NUL-terminated; `options` may be
/// NULL with length 0 or EHD_NTS).
///
/// A provider whose name or options are invalid (empty name, ' ', ':', '/',
/// NUL or a control character in it, malformed options: EINVAL; name and
/// options too long for a tracepoint name: E2BIG), or that cannot open (no
/// user_events: EOPNOTSUPP, ENOENT, EACCES, ...), is still created:
/// ehd_provider_errno says why, and its event sets are never enabled.
/// Returns NULL only if `name` is NULL
/// (errno EINVAL) or there is no memory (errno ENOMEM).
///
/// # Safety
/// `name` must be NULL or a text argument as described; `options` likewise.
#[no_mangle]
pub unsafe extern "C" fn ehd_provider_new(
    name: *const c_char,
    name_len: usize,
    options: *const c_char,
    options_len: usize,
) -> *mut ehd_provider {
    // SAFETY: the caller's guarantee.
    let name = unsafe { text_arg(name, name_len) };
    let options = if options.is_null() && options_len == EHD_NTS {
        Some(&[][..])
    } else {
        // SAFETY: the caller's guarantee.
        unsafe { text_arg(options, options_len) }
    };
    let (Some(name), Some(options)) = (name, options) else {
        set_errno(libc::EINVAL);
        return ptr::null_mut();
    };
    handle(Provider::create(name, options))
}

/// Unregisters the provider's event sets and destroys the provider. Event
/// sets obtained from it without ehd_event_set_retain become invalid; retained
/// ones stay valid (and disabled) until released. NULL is a no-op.
///
/// # Safety
/// `provider` must be NULL or a provider from ehd_provider_new, not used
/// afterwards, and not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn ehd_provider_delete(provider: *mut ehd_provider) {
    if let Some(p) = provider_ptr(provider) {
        // SAFETY: a live provider given up by the caller, used by no other thread.
        unsafe { Provider::destroy(p) }
    }
}

/// 0 if the provider opened, else the errno of its creation (see
/// ehd_provider_new). EINVAL for NULL.
///
/// # Safety
/// `provider` must be NULL or a live provider.
#[no_mangle]
pub unsafe extern "C" fn ehd_provider_errno(provider: *const ehd_provider) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { provider_ref(provider) }.map_or(libc::EINVAL, Provider::errno)
}

/// The provider's name ("" for NULL), valid while the provider lives.
///
/// # Safety
/// `provider` must be NULL or a live provider.
#[no_mangle]
pub unsafe extern "C" fn ehd_provider_name(provider: *const ehd_provider) -> *const c_char {
    // SAFETY: the caller's guarantee.
    unsafe { provider_ref(provider) }.map_or(c"".as_ptr(), |p| p.name().as_ptr())
}

/// The provider's options string ("" for none or NULL), valid while the
/// provider lives.
///
/// # Safety
/// `provider` must be NULL or a live provider.
#[no_mangle]
pub unsafe extern "C" fn ehd_provider_options(provider: *const ehd_provider) -> *const c_char {
    // SAFETY: the caller's guarantee.
    unsafe { provider_ref(provider) }.map_or(c"".as_ptr(), |p| p.options().as_ptr())
}

/// Closes the provider: every event set of it becomes disabled for good, and
/// the provider forgets them (event sets not retained become invalid). Sets
/// registered afterwards connect to the closed provider and stay disabled.
/// NULL is a no-op.
///
/// # Safety
/// `provider` must be NULL or a live provider not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn ehd_provider_unregister(provider: *mut ehd_provider) {
    if let Some(p) = provider_ptr(provider) {
        // SAFETY: live and used by no other thread (the caller's guarantee).
        unsafe { Provider::unregister(p) }
    }
}

/// Returns the provider's event set for `level` and `keyword`: the existing
/// one, or a new one registered as the tracepoint
/// `<name>_L<level>K<keyword><options>` (level and keyword in lowercase hex).
/// A set whose registration failed (see ehd_event_set_errno; level 0 is
/// EINVAL) is returned too: it is never enabled, and writes to it return
/// EBADF. The set stays valid until the provider is unregistered or deleted
/// (longer if retained). Returns NULL with errno EINVAL for a NULL provider,
/// ENOMEM without memory.
///
/// # Safety
/// `provider` must be NULL or a live provider not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn ehd_provider_register_set(
    provider: *mut ehd_provider,
    level: u8,
    keyword: u64,
) -> *mut ehd_event_set {
    let Some(p) = provider_ptr(provider) else {
        set_errno(libc::EINVAL);
        return ptr::null_mut();
    };
    // SAFETY: live and used by no other thread (the caller's guarantee).
    handle(unsafe { Provider::register_set(p, level, keyword, NewSet::Register) })
}

/// Returns the provider's existing event set for `level` and `keyword`, or
/// NULL if there is none (or `provider` is NULL). May run concurrently with
/// other lookups, not with functions that change the provider.
///
/// # Safety
/// `provider` must be NULL or a live provider.
#[no_mangle]
pub unsafe extern "C" fn ehd_provider_find_set(
    provider: *const ehd_provider,
    level: u8,
    keyword: u64,
) -> *mut ehd_event_set {
    // SAFETY: the caller's guarantee.
    match unsafe { provider_ref(provider) }.and_then(|p| p.find_set(level, keyword)) {
        Some(set) => set.as_ptr().cast(),
        None => ptr::null_mut(),
    }
}

/// For tests: returns the existing event set for `level` and `keyword`, or a
/// new one that is not registered: always enabled if `enabled` is non-zero,
/// else never; writes to it return EBADF (it reaches no tracepoint).
/// NULL as for ehd_provider_register_set.
///
/// # Safety
/// As for ehd_provider_register_set.
#[no_mangle]
pub unsafe extern "C" fn ehd_provider_create_unregistered(
    provider: *mut ehd_provider,
    level: u8,
    keyword: u64,
    enabled: c_int,
) -> *mut ehd_event_set {
    let Some(p) = provider_ptr(provider) else {
        set_errno(libc::EINVAL);
        return ptr::null_mut();
    };
    let how = NewSet::Unregistered {
        enabled: enabled != 0,
    };
    // SAFETY: live and used by no other thread (the caller's guarantee).
    handle(unsafe { Provider::register_set(p, level, keyword, how) })
}

/// Non-zero if a collector listens to the event set (0 for NULL). The same
/// test as the inline EHD_EVENT_SET_ENABLED, as a function (for callers that
/// cannot use the header, e.g. other languages).
///
/// # Safety
/// `set` must be NULL or a live event set.
#[no_mangle]
pub unsafe extern "C" fn ehd_event_set_enabled(set: *const ehd_event_set) -> c_int {
    // SAFETY: the caller's guarantee.
    c_int::from(unsafe { set_ref(set) }.is_some_and(EventSet::enabled))
}

/// 0 if the event set was registered, else the errno of its registration
/// (or of its provider's creation). EINVAL for NULL.
///
/// # Safety
/// `set` must be NULL or a live event set.
#[no_mangle]
pub unsafe extern "C" fn ehd_event_set_errno(set: *const ehd_event_set) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { set_ref(set) }.map_or(libc::EINVAL, EventSet::errno)
}

/// The event set's level (0 for NULL).
///
/// # Safety
/// `set` must be NULL or a live event set.
#[no_mangle]
pub unsafe extern "C" fn ehd_event_set_level(set: *const ehd_event_set) -> u8 {
    // SAFETY: the caller's guarantee.
    unsafe { set_ref(set) }.map_or(0, EventSet::level)
}

/// The event set's keyword (0 for NULL).
///
/// # Safety
/// `set` must be NULL or a live event set.
#[no_mangle]
pub unsafe extern "C" fn ehd_event_set_keyword(set: *const ehd_event_set) -> u64 {
    // SAFETY: the caller's guarantee.
    unsafe { set_ref(set) }.map_or(0, EventSet::keyword)
}

/// Keeps the event set valid until a matching ehd_event_set_release, also
/// after its provider is unregistered or deleted (it is disabled then).
/// Returns `set`. Thread-safe. NULL is a no-op.
///
/// # Safety
/// `set` must be NULL or a live event set.
#[no_mangle]
pub unsafe extern "C" fn ehd_event_set_retain(set: *mut ehd_event_set) -> *mut ehd_event_set {
    // SAFETY: the caller's guarantee.
    if let Some(s) = unsafe { set_ref(set) } {
        s.retain();
    }
    set
}

/// Gives up a reference taken with ehd_event_set_retain. Thread-safe. NULL is
/// a no-op.
///
/// # Safety
/// `set` must be NULL or an event set the caller retained, not used after
/// its last reference is released.
#[no_mangle]
pub unsafe extern "C" fn ehd_event_set_release(set: *mut ehd_event_set) {
    if let Some(s) = NonNull::new(set.cast::<EventSet>()) {
        // SAFETY: a reference the caller holds and gives up; a retained set
        // is never the last reference to a connected set (the provider's
        // table holds those).
        unsafe { EventSet::release(s) }
    }
}

/// Creates an event builder whose buffers start with room for
/// `meta_capacity` bytes of metadata and `data_capacity` bytes of payload
/// (0 is fine: they grow as needed, and keep their memory from event to
/// event). Call ehd_builder_reset to start an event. Returns NULL with errno
/// ENOMEM if there is no memory.
#[no_mangle]
pub extern "C" fn ehd_builder_new(meta_capacity: usize, data_capacity: usize) -> *mut ehd_builder {
    handle(Builder::new(meta_capacity, data_capacity).and_then(heap::alloc))
}

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
    handle(b.try_clone().and_then(heap::alloc))
}

/// Destroys the builder. NULL is a no-op.
///
/// # Safety
/// `builder` must be NULL or a builder from ehd_builder_new/clone, not used
/// afterwards.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_delete(builder: *mut ehd_builder) {
    if let Some(b) = NonNull::new(builder.cast::<Builder>()) {
        // SAFETY: a live builder from heap::alloc, given up by the caller.
        unsafe { heap::free(b) }
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
    let Some(b) = (unsafe { builder_mut(builder) }) else {
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
    unsafe { builder_mut(builder) }.map_or(libc::EINVAL, |b| b.error())
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
    unsafe { builder_mut(builder) }.map_or(libc::EINVAL, |b| b.set_id_version(id, version))
}

/// Sets the event's opcode (event_opcode; info after reset). Returns the
/// latched error (EINVAL for NULL).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_set_opcode(builder: *mut ehd_builder, opcode: u8) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { builder_mut(builder) }.map_or(libc::EINVAL, |b| b.set_opcode(opcode))
}

/// Sets the event's tag (reset's `tag` until then). Returns the latched
/// error (EINVAL for NULL).
///
/// # Safety
/// `builder` must be NULL or a live builder used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn ehd_builder_set_tag(builder: *mut ehd_builder, tag: u16) -> c_int {
    // SAFETY: the caller's guarantee.
    unsafe { builder_mut(builder) }.map_or(libc::EINVAL, |b| b.set_tag(tag))
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
    unsafe { builder_mut(builder) }.map_or(libc::EINVAL, |b| b.set_level(level))
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
    let Some(b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    match mode {
        EHD_FIELDS_NORMAL => b.set_parts(Parts::Both),
        EHD_FIELDS_PAYLOAD_ONLY => b.set_parts(Parts::PayloadOnly),
        EHD_FIELDS_METADATA_ONLY => b.set_parts(Parts::MetadataOnly),
        _ => b.fail(libc::EINVAL),
    }
}

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
    let Some(b) = (unsafe { builder_mut(builder) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the caller's guarantee.
    let name = unsafe { name_arg(name, name_len) };
    let size = builder::value_size(encoding).filter(|_| !value.is_null());
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
    let Some(b) = (unsafe { builder_mut(builder) }) else {
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
    let Some(b) = (unsafe { builder_mut(builder) }) else {
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
    let Some(b) = (unsafe { builder_mut(builder) }) else {
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
    if strings.is_null() && count16 != 0 {
        return b.fail(libc::EINVAL);
    }
    let element = |i: usize| -> Result<&[u8], c_int> {
        // SAFETY: i < count, and `strings` holds `count` pointers.
        let slot = unsafe { strings.add(i) };
        // SAFETY: as above: a readable pointer.
        let chars = unsafe { slot.read() };
        let len = if counts.is_null() {
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
        Some(b) => match unsafe { name_arg(name, name_len) } {
            Some(name) => add(b, name),
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
    unsafe { builder_mut(builder) }.map_or(libc::EINVAL, |b| {
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
    let Some(b) = (unsafe { builder_mut(builder) }) else {
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
    let Some(b) = (unsafe { builder_mut(builder) }) else {
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
        Some(b) => b.raw_add_count(count),
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
    unsafe { builder_mut(builder) }.map_or(libc::EINVAL, |b| b.raw_set_count(bookmark, count))
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
/// refused, never cut short); EBADF if `set` is NULL; EINVAL if a level was
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
    let Some(b) = (unsafe { builder_mut(builder) }) else {
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
