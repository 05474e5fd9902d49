//! The calls from the dynamic-event objects down into the rest of the
//! library, one small function each: open, close and connect of an
//! EventHeader provider and event, the enabled word of a tracepoint, and the
//! EventHeader write path. Nothing else in `dynamic/` reaches outside it.
#![deny(clippy::multiple_unsafe_ops_per_block)]
#![deny(clippy::undocumented_unsafe_blocks)]

use core::ffi::c_int;
use core::sync::atomic::AtomicU32;

use libc::iovec;

pub use crate::abi::{
    EventHeader, EventHeaderExtension, TracepointListNode, TracepointProviderState, TracepointState,
};
pub use crate::ffi::eventheader::{EventHeaderProvider, EventHeaderTracepoint};

/// An activity id and an optional related activity id.
pub type Activity<'a> = (&'a [u8; 16], Option<&'a [u8; 16]>);

/// Opens an EventHeader provider: validates its name and options and opens
/// the backend. 0 or an errno (EINVAL, E2BIG, EOPNOTSUPP, ...).
pub fn open_provider(provider: &EventHeaderProvider) -> c_int {
    // SAFETY: `provider` is a valid provider: its state pointer and C
    // strings are owned by the dynamic provider that owns it.
    unsafe { crate::ffi::eventheader::eventheader_open_provider(provider) }
}

/// Closes an EventHeader provider: unregisters and resets every tracepoint
/// connected to it.
pub fn close_provider(provider: &EventHeaderProvider) {
    // SAFETY: as for open_provider.
    unsafe { crate::ffi::eventheader::eventheader_close_provider(provider) }
}

/// Connects an event (its state, level and keyword) to a provider,
/// registering `Provider_L<level>K<keyword><options>`.
///
/// # Safety
/// `event.state` must be valid and stay at its address while connected.
pub unsafe fn connect(event: &EventHeaderTracepoint, provider: &EventHeaderProvider) -> c_int {
    // SAFETY: valid event (the caller's guarantee) and provider.
    unsafe { crate::ffi::eventheader::eventheader_connect(event, provider) }
}

/// The enabled word of a tracepoint (non-zero while a collector listens).
///
/// # Safety
/// `tp` must be valid for `'a`.
pub unsafe fn status_word<'a>(tp: *const TracepointState) -> &'a AtomicU32 {
    // SAFETY: the caller's guarantee; the word is only accessed atomically.
    unsafe { crate::provider::status_word(tp) }
}

/// Writes an EventHeader event: `vecs[0]` is reserved, `vecs[1]` and
/// `vecs[2]` receive the header (+ activity extension) and the event's
/// metadata block, the payload follows from `vecs[3]`.
///
/// # Safety
/// `event.state` must be valid; `event.metadata` a metadata extension block
/// followed by its `size` bytes; the payload vectors readable.
#[inline(always)]
pub unsafe fn write(
    event: &EventHeaderTracepoint,
    activity: Option<Activity<'_>>,
    vecs: &mut [iovec; 4],
) -> c_int {
    let (activity_id, related_id) = match activity {
        Some((id, related)) => (
            id.as_ptr().cast(),
            related.map_or(core::ptr::null(), |r| r.as_ptr().cast()),
        ),
        None => (core::ptr::null(), core::ptr::null()),
    };
    // SAFETY: the caller's guarantees; 4 vectors, ids NULL or 16 bytes.
    unsafe {
        crate::ffi::eventheader::write_event(event, activity_id, related_id, 4, vecs.as_mut_ptr())
    }
}
