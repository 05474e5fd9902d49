//! The entry point private to `eventheader/TraceLoggingProvider.h`: the
//! write of an enabled TraceLogging event. The macro builds every argument
//! itself, so they are valid by construction and nothing is checked again
//! here: the tracepoint state is the call site's, whose enabled test the
//! macro has just passed; the vector array is the macro's own, with a
//! compile-time count of at least `EVENTHEADER_PREFIX_DATAVEC_COUNT` and at
//! most 1024 (UIO_MAXIOV), the header (with the activity id extension, if
//! any) in `[1]` and the metadata in `[2]`.
//!
//! No generated header declares it: `TraceLoggingProvider.h` does itself
//! (`tests/headers.rs` checks its declaration against this function).
//! Programs must not call it; the public `eventheader_write` keeps every
//! argument check of the bad-input table.
#![deny(clippy::multiple_unsafe_ops_per_block)]

use core::ffi::c_int;

use libc::iovec;

use crate::abi::TracepointState;
use crate::provider;

/// Writes an enabled TraceLogging event: `data_vecs[1]` already points at
/// the event's header (which announces the extensions that follow: the
/// activity id extension packed behind it if the event has ids, then the
/// metadata), `data_vecs[2]` at its metadata block, the payload follows;
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
