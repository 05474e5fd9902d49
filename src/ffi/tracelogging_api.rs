//! The entry points private to `eventheader/TraceLoggingProvider.h`: the
//! write of an enabled TraceLogging event. The macro builds every argument
//! itself, so they are valid by construction and nothing is checked again
//! here: the tracepoint state is the call site's, whose enabled test the
//! macro has just passed; the vector array is the macro's own, with a
//! compile-time count of at least `EVENTHEADER_PREFIX_DATAVEC_COUNT` and at
//! most 1024 (UIO_MAXIOV), the header in `[1]` and the metadata in `[2]`.
//!
//! No generated header declares them: `TraceLoggingProvider.h` does itself
//! (`tests/headers.rs` checks its declarations against these functions).
//! Programs must not call them; the public `eventheader_write` keeps every
//! argument check of the bad-input table.
#![deny(clippy::multiple_unsafe_ops_per_block)]

use core::ffi::{c_int, c_void};

use libc::iovec;

use crate::abi::{EventHeaderTracepoint, TracepointState};
use crate::eventheader::event;
use crate::provider;

/// Writes an enabled TraceLogging event without activity ids: `data_vecs[1]`
/// already points at the event's header (which announces the metadata
/// extension), `data_vecs[2]` at its metadata block, the payload follows;
/// `data_vecs[0]` is the library's. Returns 0 or an errno as
/// `eventheader_write`. (The vectors come before their count, where
/// `writev` takes them: the arguments are then already in place for it.)
///
/// # Safety
/// Only for `TraceLoggingProvider.h`: `state` must be a valid tracepoint
/// state; `data_vecs` must point to `data_count` (3..=1024) iovecs whose
/// buffers from `[1]` on are readable for their lengths.
#[no_mangle]
pub unsafe extern "C" fn _eventheader_tlg_write(
    state: *const TracepointState,
    data_vecs: *mut iovec,
    data_count: u32,
) -> c_int {
    // SAFETY: the macro's own array of `data_count` iovecs, which nothing
    // else uses during the call (this function's contract).
    let vecs = unsafe { core::slice::from_raw_parts_mut(data_vecs, data_count as usize) };
    // SAFETY: the state is valid, `vecs` not empty and the buffers from
    // vecs[1] on readable (this function's contract); the header makes the
    // event non-empty.
    unsafe { provider::write_nonempty(state, vecs) }
}

/// Writes an enabled TraceLogging event with an activity id (and optionally
/// a related activity id), 16 bytes each: packs the header and the activity
/// extension into `data_vecs[1]`. A NULL `activity_id` writes the event
/// without ids; a related id without an activity id is EINVAL, as for
/// `eventheader_write`.
///
/// # Safety
/// Only for `TraceLoggingProvider.h`: `event` must be a valid event (state,
/// metadata), the ids NULL or 16 readable bytes; `data_vecs` as for
/// [`_eventheader_tlg_write`].
#[no_mangle]
pub unsafe extern "C" fn _eventheader_tlg_write_activity(
    event: *const EventHeaderTracepoint,
    activity_id: *const c_void,
    related_id: *const c_void,
    data_count: u32,
    data_vecs: *mut iovec,
) -> c_int {
    if activity_id.is_null() && !related_id.is_null() {
        return libc::EINVAL;
    }
    // SAFETY: a valid event (this function's contract).
    let ev = unsafe { &*event };
    // SAFETY: the ids are NULL or 16 readable bytes (this function's contract).
    let activity = unsafe { activity_id.cast::<[u8; 16]>().as_ref() };
    // SAFETY: as for the activity id.
    let related = unsafe { related_id.cast::<[u8; 16]>().as_ref() };
    // SAFETY: the macro's own array of `data_count` iovecs.
    let vecs = unsafe { core::slice::from_raw_parts_mut(data_vecs, data_count as usize) };
    // SAFETY: the event, its state and metadata are valid and the payload
    // readable (this function's contract).
    unsafe { event::write(ev, activity.map(|id| (id, related)), vecs) }
}
