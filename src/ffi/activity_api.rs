//! The entry points private to `windows-compat/TraceLoggingActivity.h`: a
//! new activity id, and the calling thread's activity id (read and set),
//! which every TraceLogging event written without an id of its own carries
//! (see `tracelogging_api.rs`).
//!
//! A module of its own so that the static library keeps them in a member
//! of their own (`cmake/split-archive.cmake`): only programs that use the
//! activity classes link them and the id generator, and a TraceLogging
//! program without activities stays within its footprint bound.
//!
//! `TraceLoggingProvider.h` declares them (`tests/headers.rs` checks the
//! declarations against these functions). Programs must not call them.

use core::ffi::{c_int, c_void};

use crate::eventheader::{activity_id, thread_activity};

/// Stores a new activity id (16 bytes, random, never zero) at `id`.
///
/// # Safety
/// `id` must point at 16 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn _eventheader_tlg_activity_id_create(id: *mut c_void) {
    // SAFETY: 16 writable bytes (this function's contract).
    unsafe { id.cast::<[u8; 16]>().write(activity_id::create()) };
}

/// Copies the calling thread's activity id to `id` and returns 1, or
/// returns 0 if the thread has none (leaving `id` unchanged).
///
/// # Safety
/// `id` must point at 16 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn _eventheader_tlg_thread_activity_get(id: *mut c_void) -> c_int {
    match thread_activity::get() {
        Some(current) => {
            // SAFETY: 16 writable bytes (this function's contract).
            unsafe { id.cast::<[u8; 16]>().write(current) };
            1
        }
        None => 0,
    }
}

/// Sets the calling thread's activity id to the 16 bytes at `id`, or with
/// NULL leaves the thread without one.
///
/// # Safety
/// `id` must be NULL or point at 16 readable bytes.
#[no_mangle]
pub unsafe extern "C" fn _eventheader_tlg_thread_activity_set(id: *const c_void) {
    // SAFETY: NULL or 16 readable bytes (this function's contract).
    thread_activity::set(unsafe { id.cast::<[u8; 16]>().as_ref() });
}
