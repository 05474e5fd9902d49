//! Reading the arguments of the exports: handles, (pointer, length) text
//! and byte arguments, character counts, bookmarks; and reporting errors
//! through errno.
#![deny(clippy::multiple_unsafe_ops_per_block)]
#![deny(clippy::undocumented_unsafe_blocks)]

use core::ffi::{c_char, c_int, c_void, CStr};
use core::ptr::{self, NonNull};

use super::dynamic_api::{ehd_builder, ehd_event_set, ehd_provider, EHD_NTS};
use crate::dynamic::builder::{Builder, Name};
use crate::dynamic::provider::{EventSet, Provider};

pub(super) fn set_errno(e: c_int) {
    // SAFETY: no preconditions; returns the calling thread's errno variable.
    let location = unsafe { libc::__errno_location() };
    // SAFETY: a valid, writable int of this thread.
    unsafe { *location = e };
}

pub(super) fn provider_ptr(p: *const ehd_provider) -> Option<NonNull<Provider>> {
    NonNull::new(p.cast_mut().cast::<Provider>())
}

/// # Safety
/// `p` must be NULL or a live provider for `'a`.
pub(super) unsafe fn provider_ref<'a>(p: *const ehd_provider) -> Option<&'a Provider> {
    // SAFETY: the caller's guarantee.
    unsafe { p.cast::<Provider>().as_ref() }
}

/// # Safety
/// `set` must be NULL or a live event set for `'a`.
pub(super) unsafe fn set_ref<'a>(set: *const ehd_event_set) -> Option<&'a EventSet> {
    // SAFETY: the caller's guarantee.
    unsafe { set.cast::<EventSet>().as_ref() }
}

/// # Safety
/// `b` must be NULL or a live builder for `'a`, used by one thread.
pub(super) unsafe fn builder_mut<'a>(b: *mut ehd_builder) -> Option<&'a mut Builder> {
    // SAFETY: the caller's guarantee.
    unsafe { b.cast::<Builder>().as_mut() }
}

/// The handle of a new object, or NULL with errno set to why there is none.
pub(super) fn handle<T, H>(made: Result<NonNull<T>, c_int>) -> *mut H {
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
pub(super) unsafe fn with_bookmark(bookmark: *mut usize, (err, mark): (c_int, usize)) -> c_int {
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
pub(super) unsafe fn text_arg<'a>(text: *const c_char, len: usize) -> Option<&'a [u8]> {
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
pub(super) unsafe fn name_arg<'a>(text: *const c_char, len: usize) -> Option<Name<'a>> {
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
pub(super) unsafe fn bytes_arg<'a>(bytes: *const c_void, len: usize) -> Option<&'a [u8]> {
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
pub(super) unsafe fn chars_arg<'a>(
    chars: *const c_void,
    count: usize,
    unit: usize,
) -> Option<&'a [u8]> {
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
