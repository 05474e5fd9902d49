//! The exported C functions, one file per public header:
//! `tracepoint_api.rs` -> `tracepoint/tracepoint.h`, `eventheader_api.rs` ->
//! `eventheader/eventheader-tracepoint.h`, `capture_api.rs` ->
//! `tracepoint/tracepoint-capture.h` (our addition), `dynamic_api/` ->
//! `eventheader/eventheader-dynamic.h`. The headers are generated from these
//! files and their types in `src/abi/` by cbindgen (see `tests/headers.rs`).
//! `tracelogging_api.rs` is the write entry point private to
//! `eventheader/TraceLoggingProvider.h`, which declares it itself,
//! `activity_api.rs` the activity ids private to
//! `windows-compat/TraceLoggingActivity.h` (declared there too), and
//! `dynamic_api/cpp.rs` the builder entry points private to
//! `eventheader/EventHeaderDynamic.h`, which declares them itself.
//!
//! Each public export checks its arguments (NULL pointers, counts, ranges;
//! C strings are read here), a write tests whether its tracepoint is
//! enabled, then the export makes one call into a layer below. The private
//! entry point checks nothing: the macro builds its arguments, valid by
//! construction. No export calls another.
//!
//! There is no panic boundary: the library has no panic path at all (it is
//! built with `panic = "abort"`, and `scripts/footprint.sh` fails if the
//! shipped `.so` or `.a` links any of Rust's panic machinery), so nothing
//! can unwind into C and there is nothing to catch.
#![deny(clippy::multiple_unsafe_ops_per_block)]

pub mod activity_api;
mod args;
pub mod capture_api;
pub mod dynamic_api;
pub mod eventheader_api;
pub mod tracelogging_api;
pub mod tracepoint_api;

use core::ffi::{c_char, c_uint, CStr};

/// The most vectors a write may have: the kernel's UIO_MAXIOV, which
/// `writev` enforces too. The exports check it before reading the caller's
/// array, so a count larger than the array is refused without reading past
/// it.
const MAX_VECS: c_uint = 1024;

/// Borrows a C pointer array `[start, stop)` as a mutable slice; None if the
/// bounds are not a valid range. Both NULL is an empty range.
///
/// # Safety
/// If both are non-NULL and `start <= stop`, the range must be one writable
/// array of pointers that lives for `'a`.
unsafe fn pointer_range<'a, T>(
    start: *mut *const T,
    stop: *mut *const T,
) -> Option<&'a mut [*const T]> {
    if start.is_null() && stop.is_null() {
        return Some(&mut []);
    }
    if start.is_null() || stop.is_null() || stop < start {
        return None;
    }
    // SAFETY: both pointers bound one array (the caller's guarantee), so the
    // distance between them is a whole number of elements.
    let len = unsafe { stop.offset_from(start) };
    let len = usize::try_from(len).ok()?;
    // SAFETY: `start` is the first of `len` writable pointers.
    Some(unsafe { core::slice::from_raw_parts_mut(start, len) })
}

/// A C string argument that may be NULL.
///
/// # Safety
/// `text` must be NULL or a C string that lives for `'a`.
unsafe fn optional_c_str<'a>(text: *const c_char) -> Option<&'a CStr> {
    if text.is_null() {
        return None;
    }
    // SAFETY: non-NULL, so a C string (the caller's guarantee).
    Some(unsafe { CStr::from_ptr(text) })
}
