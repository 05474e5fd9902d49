//! The provider and event set exports: create, open, register sets, find
//! them, unregister, destroy; the sets' enabled test, errno, level, keyword
//! and reference counts.

use core::ffi::{c_char, c_int};
use core::ptr::{self, NonNull};

use super::args::{handle, non_null, provider_ptr, provider_ref, set_errno, set_ref, text_arg};
use super::{ehd_event_set, ehd_provider, EHD_NTS};
use crate::dynamic::provider::{EventSet, NewSet, Provider};

/// Creates a provider named `name` with the options string `options` (""
/// for none, "Gmygroup" for the provider group "mygroup"; options are
/// `[A-Z][0-9a-z]*` each, sorted) and opens it. Both are (pointer, length)
/// like every text argument (EHD_NTS for NUL-terminated; `options` may be
/// NULL with length 0 or EHD_NTS).
///
/// A provider whose name or options are invalid (empty name, ' ', ':', '/',
/// NUL or a control character in it, malformed options, or an argument that
/// is not text, such as `options` NULL with a length: EINVAL; name and
/// options too long for a tracepoint name: E2BIG), or that cannot open (no
/// user_events: EOPNOTSUPP, ENOENT, EACCES, ...), is still created:
/// ehd_provider_errno says why, and its event sets are never enabled (an
/// argument that is not text reads as ""). Returns NULL only if `name` is
/// NULL (errno EINVAL) or there is no memory (errno ENOMEM).
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
    if non_null(name).is_none() {
        set_errno(libc::EINVAL);
        return ptr::null_mut();
    }
    // SAFETY: the caller's guarantee.
    let name = unsafe { text_arg(name, name_len) };
    let options = if non_null(options).is_none() && options_len == EHD_NTS {
        Some(&[][..])
    } else {
        // SAFETY: the caller's guarantee.
        unsafe { text_arg(options, options_len) }
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
