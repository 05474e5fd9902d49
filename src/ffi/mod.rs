//! The exported C functions, one file per header. Each export checks its
//! pointer arguments, then calls into the library under [`boundary`], so no
//! panic ever unwinds into C.
//!
//! `tracepoint.rs` -> `tracepoint/tracepoint.h`, `eventheader.rs` ->
//! `eventheader/eventheader-tracepoint.h`, `capture.rs` ->
//! `tracepoint/tracepoint-capture.h` (our addition). The headers are
//! generated from these files by cbindgen (see `tests/headers.rs`).

pub mod capture;
pub mod dynamic;
pub mod eventheader;
pub mod tracepoint;

use core::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The errno an export returns if the library panicked (a bug in this
/// library, never the caller's input).
pub const PANIC_ERRNO: c_int = libc::EIO;

/// Runs `f`, turning a panic into `on_panic`.
#[inline(always)]
pub(crate) fn boundary<R>(on_panic: R, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(on_panic)
}

/// Borrows a C pointer array `[start, stop)` as a mutable slice; None if the
/// bounds are not a valid range. Both NULL is an empty range.
///
/// # Safety
/// If both are non-NULL and `start <= stop`, the range must be one writable
/// array of pointers.
pub(crate) unsafe fn pointer_range<'a, T>(
    start: *mut *const T,
    stop: *mut *const T,
) -> Option<&'a mut [*const T]> {
    if start.is_null() && stop.is_null() {
        return Some(&mut []);
    }
    if start.is_null() || stop.is_null() || stop < start {
        return None;
    }
    // SAFETY: both pointers bound one array, per the function contract.
    unsafe {
        let len = usize::try_from(stop.offset_from(start)).ok()?;
        Some(core::slice::from_raw_parts_mut(start, len))
    }
}
