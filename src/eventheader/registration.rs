//! Opening EventHeader providers and connecting their events: the provider
//! name and options are validated, and each event registers the tracepoint
//! "Provider_L<level>K<keyword><options>" with the reference's arg spec.

use core::ffi::c_int;
use core::ptr;

use super::names::{format_command, validate_provider, CommandBuf};
use crate::abi::{EventHeaderTracepoint, TracepointProviderState};
use crate::{provider, tracepoint_layer};

/// An EventHeader provider as the layers below the C ABI see it: its state,
/// and its name and options (the C strings already read; options empty if
/// none).
pub struct ProviderRef<'a> {
    pub state: *mut TracepointProviderState,
    pub name: &'a [u8],
    pub options: &'a [u8],
}

/// Opens the provider. EINVAL or E2BIG for an invalid name or options (see
/// [`validate_provider`]), else as [`provider::open`].
///
/// # Safety
/// `provider.state` must point to a valid, initialized provider state.
pub unsafe fn open(provider: &ProviderRef<'_>) -> c_int {
    if let Err(e) = validate_provider(provider.name, provider.options) {
        return e;
    }
    // SAFETY: `provider.state` is a valid, initialized provider state (the caller's guarantee).
    unsafe { tracepoint_layer::open(provider.state) }
}

/// Closes the provider: unregisters and resets every tracepoint connected
/// to it (see [`provider::close`]). Closing a closed provider is a no-op.
///
/// # Safety
/// `state` must point to a valid, initialized provider state.
pub unsafe fn close(state: *mut TracepointProviderState) {
    // SAFETY: the caller's guarantee.
    unsafe { tracepoint_layer::close(state) }
}

/// Opens the provider, then connects every distinct event of `events`
/// (NULLs and repeats skipped), in the array's order; the array is only read
/// (see [`provider::UniquePointers`]). Connection errors of single events are
/// ignored (those events stay disabled). Returns 0 or the errno of opening.
///
/// # Safety
/// As for [`open`]; every non-NULL entry of `events` must point to an event
/// valid as for [`connect`] (its state may be NULL: it is skipped).
pub unsafe fn open_with_events(
    provider: &ProviderRef<'_>,
    events: &[*const EventHeaderTracepoint],
) -> c_int {
    let events = provider::UniquePointers::new(events);
    // SAFETY: `provider.state` is a valid, initialized provider state (the caller's guarantee).
    let err = unsafe { open(provider) };
    if err != 0 {
        return err;
    }
    for i in 0..events.entries() {
        let Some(event) = events.first_at(i) else {
            continue;
        };
        // SAFETY: a non-NULL entry is a valid event.
        let event = unsafe { &*event };
        if !event.state.is_null() {
            // SAFETY: the state is valid; the provider was validated by open.
            unsafe { connect_validated(event, Some(provider)) };
        }
    }
    0
}

/// Connects the event to the provider (None disconnects it). EINVAL for an
/// invalid provider name or options or level 0, E2BIG if the tracepoint
/// name would be EVENTHEADER_NAME_MAX bytes or longer (the event is left
/// unchanged in these cases), else as [`provider::connect`].
///
/// # Safety
/// `event.state` must be a valid, initialized tracepoint state that stays at
/// its address while connected; `provider.state` valid.
pub unsafe fn connect(event: &EventHeaderTracepoint, provider: Option<&ProviderRef<'_>>) -> c_int {
    if let Some(p) = provider {
        if let Err(e) = validate_provider(p.name, p.options) {
            return e;
        }
    }
    // SAFETY: the event's and the provider's states are valid (the caller's guarantee).
    unsafe { connect_validated(event, provider) }
}

/// [`connect`] for a provider whose name and options are valid.
///
/// # Safety
/// As for [`connect`].
unsafe fn connect_validated(
    event: &EventHeaderTracepoint,
    provider: Option<&ProviderRef<'_>>,
) -> c_int {
    let Some(provider) = provider else {
        // SAFETY: the caller guarantees the event's state.
        return unsafe { tracepoint_layer::connect(event.state, ptr::null_mut(), None) };
    };
    if event.header.level == 0 {
        return libc::EINVAL;
    }
    let mut command = CommandBuf::default();
    if let Err(e) = format_command(
        &mut command,
        provider.name,
        event.header.level,
        event.keyword,
        provider.options,
    ) {
        return e;
    }
    // SAFETY: the caller guarantees both states.
    unsafe { tracepoint_layer::connect(event.state, provider.state, Some(command.as_c_str())) }
}
