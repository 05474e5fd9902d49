//! Reading the arguments of every export: the one place that tells a NULL
//! pointer from a usable one ([`non_null`]), optional C strings, pointer
//! ranges, iovec arrays; for runtime-defined events their handles,
//! (pointer, length) text and byte arguments, character counts and
//! bookmarks; and reporting errors through errno.
//!
//! Each reader returns None for what the export refuses; the export then
//! returns (or sets errno to) the errno its C documentation names, EINVAL
//! for every NULL it does not accept. The readers are `#[inline]` or
//! generic, so that each export's code stays in its own archive member
//! (see `cmake/split-archive.cmake`): a program links only what it calls.

use core::ffi::{c_char, c_int, c_uint, c_void, CStr};
use core::ptr::{self, NonNull};

use libc::iovec;

use super::dynamic_api::types::{ehd_builder, ehd_event_set, ehd_provider, EHD_NTS};
use crate::dynamic::builder::{Builder, Edit, Name};
use crate::dynamic::provider::{EventSet, Provider};

/// The most vectors a write may have: the kernel's UIO_MAXIOV, which
/// `writev` enforces too. The exports check it before reading the caller's
/// array, so a count larger than the array is refused without reading past
/// it.
const MAX_VECS: c_uint = 1024;

/// A pointer argument, None if it is NULL.
#[inline(always)]
pub(super) fn non_null<T>(p: *const T) -> Option<NonNull<T>> {
    NonNull::new(p.cast_mut())
}

/// A C string argument that may be NULL.
///
/// # Safety
/// `text` must be NULL or a C string that lives for `'a`.
#[inline(always)]
pub(super) unsafe fn optional_c_str<'a>(text: *const c_char) -> Option<&'a CStr> {
    let text = non_null(text)?;
    // SAFETY: non-NULL, so a C string (the caller's guarantee).
    Some(unsafe { CStr::from_ptr(text.as_ptr()) })
}

/// Borrows a C pointer array `[start, stop)` as a slice, only read (it may
/// be in read-only memory); None if the bounds are not a valid range. Both
/// NULL is an empty range.
///
/// # Safety
/// If both are non-NULL and `start <= stop`, the range must be one readable
/// array of pointers that lives for `'a`.
#[inline]
pub(super) unsafe fn pointer_range<'a, T>(
    start: *mut *const T,
    stop: *mut *const T,
) -> Option<&'a [*const T]> {
    let (start, stop) = match (non_null(start), non_null(stop)) {
        (None, None) => return Some(&[]),
        (Some(start), Some(stop)) if start <= stop => (start.as_ptr(), stop.as_ptr()),
        _ => return None,
    };
    // SAFETY: both pointers bound one array (the caller's guarantee), so the
    // distance between them is a whole number of elements.
    let len = unsafe { stop.offset_from(start) };
    let len = usize::try_from(len).ok()?;
    // SAFETY: `start` is the first of `len` readable pointers.
    Some(unsafe { core::slice::from_raw_parts(start.cast_const(), len) })
}

/// A write's iovec array: None for NULL, fewer than `min` vectors or more
/// than [`MAX_VECS`] (checked before any vector is read).
///
/// # Safety
/// `vecs` must be NULL or point to `count` iovecs that nothing else uses
/// for `'a`.
#[inline(always)]
pub(super) unsafe fn vecs_arg<'a>(
    vecs: *mut iovec,
    count: c_uint,
    min: c_uint,
) -> Option<&'a mut [iovec]> {
    let vecs = non_null(vecs)?;
    if count < min || count > MAX_VECS {
        return None;
    }
    // SAFETY: `count` iovecs, not used elsewhere (the caller's guarantee).
    Some(unsafe { core::slice::from_raw_parts_mut(vecs.as_ptr(), count as usize) })
}

#[inline]
pub(super) fn set_errno(e: c_int) {
    // SAFETY: no preconditions; returns the calling thread's errno variable.
    let location = unsafe { libc::__errno_location() };
    // SAFETY: a valid, writable int of this thread.
    unsafe { *location = e };
}

#[inline]
pub(super) fn provider_ptr(p: *const ehd_provider) -> Option<NonNull<Provider>> {
    NonNull::new(p.cast_mut().cast::<Provider>())
}

/// # Safety
/// `p` must be NULL or a live provider for `'a`.
#[inline]
pub(super) unsafe fn provider_ref<'a>(p: *const ehd_provider) -> Option<&'a Provider> {
    // SAFETY: the caller's guarantee.
    unsafe { p.cast::<Provider>().as_ref() }
}

/// # Safety
/// `set` must be NULL or a live event set for `'a`.
#[inline]
pub(super) unsafe fn set_ref<'a>(set: *const ehd_event_set) -> Option<&'a EventSet> {
    // SAFETY: the caller's guarantee.
    unsafe { set.cast::<EventSet>().as_ref() }
}

/// The builder, for an export that may change it: its inline appends'
/// limits are set again when the returned guard is dropped.
///
/// # Safety
/// `b` must be NULL or a live builder for `'a`, used by one thread.
#[inline]
pub(super) unsafe fn builder_mut<'a>(b: *mut ehd_builder) -> Option<Edit<'a>> {
    // SAFETY: the caller's guarantee.
    unsafe { b.cast::<Builder>().as_mut() }.map(Edit::new)
}

/// The builder, for an export that changes none of what its limits follow
/// (lengths, capacities, error, mode): the header setters, the error's
/// getter, and the write, which only fills in the metadata's extension
/// header.
///
/// # Safety
/// As for [`builder_mut`].
#[inline]
pub(super) unsafe fn builder_unchanged<'a>(b: *mut ehd_builder) -> Option<&'a mut Builder> {
    // SAFETY: the caller's guarantee.
    unsafe { b.cast::<Builder>().as_mut() }
}

/// The handle of a new object, or NULL with errno set to why there is none.
#[inline]
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
#[inline]
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
#[inline]
pub(super) unsafe fn text_arg<'a>(text: *const c_char, len: usize) -> Option<&'a [u8]> {
    if len == EHD_NTS {
        // SAFETY: a C string (the caller's guarantee); None for NULL.
        return unsafe { optional_c_str(text) }.map(CStr::to_bytes);
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
        // SAFETY: a C string (the caller's guarantee); None for NULL.
        return unsafe { optional_c_str(text) }.map(Name::from_c_str);
    }
    // SAFETY: forwarded contract.
    unsafe { bytes_arg(text.cast(), len) }.and_then(Name::new)
}

/// `len` bytes at `bytes`: NULL with length 0 is empty. None for NULL with a
/// length, or a length no object can have.
///
/// # Safety
/// `bytes` must be NULL or `len` readable bytes.
#[inline]
pub(super) unsafe fn bytes_arg<'a>(bytes: *const c_void, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    let bytes = non_null(bytes.cast::<u8>())?;
    if len > isize::MAX as usize {
        return None;
    }
    // SAFETY: `len` readable bytes (the caller's guarantee).
    Some(unsafe { core::slice::from_raw_parts(bytes.as_ptr(), len) })
}

/// Characters of `unit` bytes at `chars`: `count` of them, or up to the
/// first zero character for EHD_NTS.
///
/// # Safety
/// `chars` must be NULL or `count` readable characters (zero-terminated for
/// EHD_NTS).
#[inline]
pub(super) unsafe fn chars_arg<'a>(
    chars: *const c_void,
    count: usize,
    unit: usize,
) -> Option<&'a [u8]> {
    if count != EHD_NTS {
        // SAFETY: forwarded contract.
        return unsafe { bytes_arg(chars, count.checked_mul(unit)?) };
    }
    if unit == 1 {
        // SAFETY: a NUL-terminated 8-bit string (the caller's guarantee);
        // None for NULL.
        return unsafe { optional_c_str(chars.cast()) }.map(CStr::to_bytes);
    }
    non_null(chars)?;
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
