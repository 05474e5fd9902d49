//! The exports of `eventheader/eventheader-tracepoint.h`: providers with a
//! name and options, events with a header, optional metadata and a keyword,
//! written as EventHeader events.

use core::ffi::{c_int, c_void, CStr};
use core::sync::atomic::Ordering;

use libc::iovec;

use super::args::{non_null, optional_c_str, pointer_range, vecs_arg};
use crate::abi::eventheader_definitions::EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA;
use crate::abi::{EventHeaderProvider, EventHeaderTracepoint, TracepointState};
use crate::eventheader::{event, registration, registration::ProviderRef};

/// The provider argument as the layers below see it; None (EINVAL) for
/// NULL, or a NULL state or name.
///
/// # Safety
/// `provider` must be NULL or valid: its name a C string, its options NULL
/// or a C string, all living for `'a`.
unsafe fn provider_arg<'a>(provider: *const EventHeaderProvider) -> Option<ProviderRef<'a>> {
    // SAFETY: NULL or a valid provider (the caller's guarantee).
    let p = unsafe { provider.as_ref() }?;
    non_null(p.state)?;
    // SAFETY: the name is NULL or a C string (the caller's guarantee).
    let name = unsafe { optional_c_str(p.name) }?.to_bytes();
    // SAFETY: options are NULL or a C string (the caller's guarantee).
    let options = unsafe { optional_c_str(p.options) }.map_or(&[][..], CStr::to_bytes);
    Some(ProviderRef {
        state: p.state,
        name,
        options,
    })
}

/// The event, or None for NULL or an event without a state.
///
/// # Safety
/// `event` must be NULL or valid for `'a`.
#[inline(always)]
unsafe fn event_arg<'a>(event: *const EventHeaderTracepoint) -> Option<&'a EventHeaderTracepoint> {
    // SAFETY: NULL or a valid event (the caller's guarantee).
    unsafe { event.as_ref() }.filter(|ev| non_null(ev.state).is_some())
}

/// Closes the provider (see tracepoint_close_provider). NULL is a no-op.
///
/// # Safety
/// `provider` must be NULL or a valid provider.
#[no_mangle]
pub unsafe extern "C" fn eventheader_close_provider(provider: *const EventHeaderProvider) {
    // SAFETY: NULL or a valid provider (this function's contract).
    let Some(p) = (unsafe { provider.as_ref() }) else {
        return;
    };
    if let Some(state) = non_null(p.state) {
        // SAFETY: a valid provider's state is valid (this function's contract).
        unsafe { registration::close(state.as_ptr()) }
    }
}

/// Opens the provider. Returns 0 or an errno: EINVAL for NULL pointers, an
/// empty name, a name with ' ', ':', '/' or a control character, or
/// malformed options; E2BIG if the
/// name and options leave no room for the level and keyword; else as
/// tracepoint_open_provider.
///
/// # Safety
/// `provider` must be NULL or a valid provider.
#[no_mangle]
pub unsafe extern "C" fn eventheader_open_provider(provider: *const EventHeaderProvider) -> c_int {
    // SAFETY: NULL or a valid provider (this function's contract).
    let Some(p) = (unsafe { provider_arg(provider) }) else {
        return libc::EINVAL;
    };
    // SAFETY: a valid provider's state is valid and initialized.
    unsafe { registration::open(&p) }
}

/// Opens the provider and connects every distinct event of the array
/// [events_start, events_stop) (NULLs and repeats skipped), in the array's
/// order. The array is only read, so it may be in read-only memory, and
/// nothing is allocated. Connection errors of single events are ignored
/// (those events stay disabled). Returns 0 or the errno of opening.
///
/// # Safety
/// `provider` as for eventheader_open_provider; the range must be one
/// readable array of NULL or valid event pointers.
#[no_mangle]
pub unsafe extern "C" fn eventheader_open_provider_with_events(
    provider: *const EventHeaderProvider,
    events_start: *mut *const EventHeaderTracepoint,
    events_stop: *mut *const EventHeaderTracepoint,
) -> c_int {
    // SAFETY: a valid range is one readable array (this function's contract).
    let Some(events) = (unsafe { pointer_range(events_start, events_stop) }) else {
        return libc::EINVAL;
    };
    // SAFETY: NULL or a valid provider (this function's contract).
    let Some(p) = (unsafe { provider_arg(provider) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the provider's state is valid and every non-NULL event valid
    // (this function's contract).
    unsafe { registration::open_with_events(&p, events) }
}

/// Connects the event to the provider, registering the tracepoint
/// "Provider_L<level>K<keyword><options>" with the reference's arg spec.
/// provider NULL disconnects the event. Returns 0 or an errno: EINVAL for
/// NULL pointers, level 0 or an invalid provider name/options, E2BIG if the
/// tracepoint name would be EVENTHEADER_NAME_MAX bytes or longer (the event
/// is left unchanged in these cases), else as tracepoint_connect.
///
/// # Safety
/// `event` must be NULL or valid (its state stays at its address while
/// connected); `provider` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn eventheader_connect(
    event: *const EventHeaderTracepoint,
    provider: *const EventHeaderProvider,
) -> c_int {
    // SAFETY: NULL or a valid event (this function's contract).
    let Some(ev) = (unsafe { event_arg(event) }) else {
        return libc::EINVAL;
    };
    // NULL disconnects; any other provider must be valid.
    let p = match non_null(provider) {
        None => None,
        // SAFETY: a valid provider (this function's contract).
        Some(_) => match unsafe { provider_arg(provider) } {
            None => return libc::EINVAL,
            p => p,
        },
    };
    // SAFETY: the event's state is valid and stays put while connected, the
    // provider's state valid (this function's contract).
    unsafe { registration::connect(ev, p.as_ref()) }
}

/// Writes an EventHeader event: data_vecs[0] is reserved for the tracepoint
/// layer, data_vecs[1] receives the header (and the activity id extension if
/// activity_id is not NULL), data_vecs[2] the metadata extension if the
/// event has metadata; the payload follows in the remaining vectors.
///
/// activity_id and related_id point at 16-byte ids or are NULL;
/// related_id requires activity_id.
///
/// Returns 0, EBADF if the event is disabled, EINVAL for NULL pointers, too
/// few vectors or more than 1024 (checked before any vector is read), or a
/// related id without an activity id, else as tracepoint_write.
///
/// # Safety
/// `event` must be NULL or valid; ids NULL or 16 readable bytes each;
/// `data_vecs` must point to `data_count` iovecs with readable buffers.
#[no_mangle]
pub unsafe extern "C" fn eventheader_write(
    event: *const EventHeaderTracepoint,
    activity_id: *const c_void,
    related_id: *const c_void,
    data_count: u32,
    data_vecs: *mut iovec,
) -> c_int {
    // SAFETY: NULL or a valid event (this function's contract).
    let Some(ev) = (unsafe { event_arg(event) }) else {
        return libc::EINVAL;
    };
    // SAFETY: a valid event's state is valid.
    if unsafe { TracepointState::status_word(ev.state) }.load(Ordering::Relaxed) == 0 {
        return libc::EBADF;
    }
    // SAFETY: the ids are NULL or 16 readable bytes (this function's contract).
    let activity = unsafe { activity_id.cast::<[u8; 16]>().as_ref() };
    // SAFETY: the related id is NULL or 16 readable bytes (this function's
    // contract).
    let related = unsafe { related_id.cast::<[u8; 16]>().as_ref() };
    // An event with metadata needs one more vector: event::write checks.
    // SAFETY: `data_vecs` points to `data_count` iovecs (this function's
    // contract), which nothing else uses during the call.
    let vecs = unsafe {
        vecs_arg(
            data_vecs,
            data_count,
            EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA,
        )
    };
    let Some(vecs) = vecs else {
        return libc::EINVAL;
    };
    if activity.is_none() && related.is_some() {
        return libc::EINVAL;
    }
    // SAFETY: the event, its state and metadata are valid and the payload
    // buffers readable (this function's contract); event::write checks that
    // `vecs` has the vectors the event needs.
    unsafe { event::write(ev, activity.map(|id| (id, related)), vecs) }
}
