//! The entry points private to `eventheader/TraceLoggingProvider.h`: the
//! write of an enabled TraceLogging event. The macro builds every argument
//! itself, so they are valid by construction and nothing is checked here:
//! the event is the call site's (its state just tested enabled, its metadata
//! announced by its header), the vector array the macro's own, with a
//! compile-time count of at least `EVENTHEADER_PREFIX_DATAVEC_COUNT` and at
//! most 1024 (UIO_MAXIOV), and the macro calls the activity variant only
//! with an activity id.
//! Every event written without an activity id of its own carries the
//! calling thread's id when it has one (`TraceLoggingActivity.h` sets it
//! through `activity_api.rs`; the write reaches it through
//! `eventheader::thread_hook` once some thread has set one).
//!
//! No generated header declares them: `TraceLoggingProvider.h` does itself
//! (`tests/headers.rs` checks its declarations against these functions).
//! Programs must not call them; the public `eventheader_write` keeps every
//! argument check of the bad-input table.

use core::ffi::{c_int, c_void};

use libc::iovec;

use crate::abi::EventHeaderTracepoint;
use crate::eventheader::event;
use crate::eventheader::thread_hook;

/// Writes an enabled TraceLogging event without activity ids of its own:
/// sets `data_vecs[1]` (the header, with the calling thread's activity id
/// when it has one) and `data_vecs[2]` (the metadata); the payload follows;
/// `data_vecs[0]` is the library's. Returns 0 or an errno as
/// `eventheader_write`. (The vectors come before their count, where
/// `writev` takes them.)
///
/// # Safety
/// Only for `TraceLoggingProvider.h`: `event` must be a valid event with
/// metadata, announced by its header; `data_vecs` must point to
/// `data_count` (3..=1024) iovecs whose buffers from `[3]` on are readable
/// for their lengths.
#[no_mangle]
pub unsafe extern "C" fn _eventheader_tlg_write(
    event: *const EventHeaderTracepoint,
    data_vecs: *mut iovec,
    data_count: u32,
) -> c_int {
    thread_hook::dispatch(
        || {
            // SAFETY: a valid event (this function's contract).
            let ev = unsafe { &*event };
            // SAFETY: the event has metadata, and `data_count` >= 3 vectors
            // with a readable payload (this function's contract).
            unsafe { event::write_macro_event(ev, None, data_vecs, data_count) }
        },
        // SAFETY: this function's contract, which is write_hooked's.
        || unsafe { write_hooked(event, data_vecs, data_count) },
    )
}

/// [`_eventheader_tlg_write`] once a thread has set an activity id (off the
/// common path, with the same arguments, so that the common path passes
/// them on unmoved).
///
/// # Safety
/// As for [`_eventheader_tlg_write`].
#[cold]
#[inline(never)]
unsafe fn write_hooked(
    event: *const EventHeaderTracepoint,
    data_vecs: *mut iovec,
    data_count: u32,
) -> c_int {
    // SAFETY: a valid event (the caller's guarantee).
    let ev = unsafe { &*event };
    match thread_hook::installed() {
        // SAFETY: the caller's guarantee, which is the hook's contract.
        Some(hook) => unsafe { (hook.write)(ev, data_vecs, data_count) },
        // SAFETY: as above (the hook is never removed: not reached).
        None => unsafe { event::write_macro_event(ev, None, data_vecs, data_count) },
    }
}

/// [`_eventheader_tlg_write`] with an activity id (16 bytes, not NULL) and
/// a related activity id (16 bytes, or NULL): `data_vecs[1]` gets the header
/// packed with the activity id extension.
///
/// # Safety
/// As for [`_eventheader_tlg_write`]; `activity_id` must point at 16
/// readable bytes, `related_id` be NULL or point at 16 readable bytes.
#[no_mangle]
pub unsafe extern "C" fn _eventheader_tlg_write_activity(
    event: *const EventHeaderTracepoint,
    data_vecs: *mut iovec,
    data_count: u32,
    activity_id: *const c_void,
    related_id: *const c_void,
) -> c_int {
    // SAFETY: 16 readable bytes (this function's contract).
    let id = unsafe { &*activity_id.cast::<[u8; 16]>() };
    // SAFETY: NULL or 16 readable bytes (this function's contract).
    let related = unsafe { related_id.cast::<[u8; 16]>().as_ref() };
    // SAFETY: a valid event (this function's contract).
    let ev = unsafe { &*event };
    // SAFETY: the event has metadata, and `data_count` >= 3 vectors with a
    // readable payload (this function's contract).
    unsafe { event::write_macro_event(ev, Some((id, related)), data_vecs, data_count) }
}
