//! The calls from the dynamic-event objects down into the rest of the
//! library, one small function each: open, close and connect of an
//! EventHeader provider and event (the EventHeader layer), the enabled word
//! of a tracepoint (the ABI types' atomic view), and the EventHeader event
//! write. Nothing else in `dynamic/` reaches outside it, but for the base
//! floor's byte helpers (`crate::bytes`; see docs/code-layout.md, Floors).

use core::ffi::c_int;
use core::sync::atomic::AtomicU32;

use libc::iovec;

pub use crate::abi::{
    EventHeader, EventHeaderExtension, EventHeaderTracepoint, TracepointListNode,
    TracepointProviderState, TracepointState,
};
pub use crate::bytes::{c_str_until_nul, find_nul, has_nul};
pub use crate::eventheader::event::Activity;
pub use crate::eventheader::registration::ProviderRef;
use crate::eventheader::{event, registration};

/// Opens an EventHeader provider: validates its name and options and opens
/// the backend. 0 or an errno (EINVAL, E2BIG, EOPNOTSUPP, ...).
pub fn open_provider(provider: &ProviderRef<'_>) -> c_int {
    // SAFETY: the state is a dynamic provider's, valid and initialized while
    // the provider lives (it owns it).
    unsafe { registration::open(provider) }
}

/// Closes an EventHeader provider: unregisters and resets every tracepoint
/// connected to it.
pub fn close_provider(provider: &ProviderRef<'_>) {
    // SAFETY: as for open_provider.
    unsafe { registration::close(provider.state) }
}

/// Connects an event (its state, level and keyword) to a provider,
/// registering `Provider_L<level>K<keyword><options>`.
///
/// # Safety
/// `event.state` must be valid and stay at its address while connected.
pub unsafe fn connect(event: &EventHeaderTracepoint, provider: &ProviderRef<'_>) -> c_int {
    // SAFETY: the event's state is valid and stays put (the caller's
    // guarantee); the provider's state is the dynamic provider's own.
    unsafe { registration::connect(event, Some(provider)) }
}

/// The enabled word of a tracepoint (non-zero while a collector listens).
///
/// # Safety
/// `tp` must be valid for `'a`.
pub unsafe fn status_word<'a>(tp: *const TracepointState) -> &'a AtomicU32 {
    // SAFETY: `tp` is valid for 'a (the caller's guarantee); the word is
    // only accessed atomically.
    unsafe { TracepointState::status_word(tp) }
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
    // SAFETY: the event, its state and metadata are valid and the payload
    // readable (the caller's guarantee); 4 vectors are enough for an event
    // with metadata.
    unsafe { event::write(event, activity, vecs) }
}

/// [`write`] for any number of vectors (at least 3): an event definition's
/// payload has a vector per value.
///
/// # Safety
/// As for [`write`].
#[inline(always)]
pub unsafe fn write_vecs(
    event: &EventHeaderTracepoint,
    activity: Option<Activity<'_>>,
    vecs: &mut [iovec],
) -> c_int {
    // SAFETY: the caller's guarantee; with fewer than 3 vectors the write
    // is EINVAL.
    unsafe { event::write(event, activity, vecs) }
}
