//! The EventHeader layer: providers with a name and options, events with a
//! header, optional metadata and a keyword, written as EventHeader events.

use core::ffi::{c_char, c_int, c_void, CStr};
use core::ptr;
use core::sync::atomic::Ordering;

use libc::iovec;

use super::{boundary, pointer_range, PANIC_ERRNO};
use crate::abi::{EventHeader, EventHeaderExtension, TracepointProviderState, TracepointState};
use crate::backend;
use crate::eventheader::header::{pack_prefix, FLAG_EXTENSION, PREFIX_MAX};
use crate::eventheader::names::{format_command, validate_provider, CommandBuf};
use crate::provider;

/// Vectors eventheader_write uses when the event has no metadata:
/// [0] for tracepoint_write, [1] header + activity id extension.
pub const EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA: u32 = 2;

/// Vectors eventheader_write uses when the event has metadata:
/// [0] for tracepoint_write, [1] header + activity id, [2] metadata extension.
pub const EVENTHEADER_PREFIX_DATAVEC_COUNT: u32 = 3;

/// An event: usually a const static for each event, pointing at the event's
/// tracepoint state.
#[repr(C)]
pub struct EventHeaderTracepoint {
    pub state: *mut TracepointState,
    /// The metadata extension block (kind metadata), or NULL.
    pub metadata: *const EventHeaderExtension,
    pub header: EventHeader,
    pub keyword: u64,
}

/// A provider: usually a const static for each provider, pointing at the
/// provider's state.
#[repr(C)]
pub struct EventHeaderProvider {
    pub state: *mut TracepointProviderState,
    /// Options string, e.g. "Gmygroup" (uppercase option letter, then
    /// lowercase letters and digits, options sorted); "" or NULL if none.
    pub options: *const c_char,
    /// Provider name: no ' ' or ':'; name + "_LxKx" + options must be shorter
    /// than EVENTHEADER_NAME_MAX.
    pub name: *const c_char,
}

/// The provider's name and options as validated bytes.
///
/// # Safety
/// `provider` must be NULL or valid, with C strings (or NULL) for name and options.
unsafe fn provider_parts<'a>(
    provider: *const EventHeaderProvider,
) -> Result<(&'a EventHeaderProvider, &'a [u8], &'a [u8]), c_int> {
    // SAFETY: per the function contract.
    unsafe {
        let Some(p) = provider.as_ref() else {
            return Err(libc::EINVAL);
        };
        if p.state.is_null() || p.name.is_null() {
            return Err(libc::EINVAL);
        }
        let name = CStr::from_ptr(p.name).to_bytes();
        let options = if p.options.is_null() {
            &[][..]
        } else {
            CStr::from_ptr(p.options).to_bytes()
        };
        validate_provider(name, options)?;
        Ok((p, name, options))
    }
}

/// Closes the provider (see tracepoint_close_provider). NULL is a no-op.
///
/// # Safety
/// `provider` must be NULL or a valid provider.
#[no_mangle]
pub unsafe extern "C" fn eventheader_close_provider(provider: *const EventHeaderProvider) {
    boundary((), || {
        // SAFETY: per the contract.
        if let Some(p) = unsafe { provider.as_ref() } {
            if !p.state.is_null() {
                // SAFETY: a provider's state is valid per the contract.
                unsafe { provider::close(p.state) }
            }
        }
    })
}

/// Opens the provider. Returns 0 or an errno: EINVAL for NULL pointers, an
/// empty name, a name with ' ' or ':', or malformed options; E2BIG if the
/// name and options leave no room for the level and keyword; else as
/// tracepoint_open_provider.
///
/// # Safety
/// `provider` must be NULL or a valid provider.
#[no_mangle]
pub unsafe extern "C" fn eventheader_open_provider(provider: *const EventHeaderProvider) -> c_int {
    boundary(PANIC_ERRNO, || {
        // SAFETY: per the contract.
        match unsafe { provider_parts(provider) } {
            // SAFETY: the state pointer was checked and is valid per the contract.
            Ok((p, _, _)) => unsafe { super::tracepoint::tracepoint_open_provider(p.state) },
            Err(e) => e,
        }
    })
}

/// Opens the provider and connects the events of the array
/// [events_start, events_stop), which is sorted and de-duplicated in place
/// first (NULLs moved to the end). Connection errors of single events are
/// ignored (those events stay disabled). Returns 0 or the errno of opening.
///
/// # Safety
/// `provider` as for eventheader_open_provider; the range must be one
/// writable array of NULL or valid event pointers.
#[no_mangle]
pub unsafe extern "C" fn eventheader_open_provider_with_events(
    provider: *const EventHeaderProvider,
    events_start: *mut *const EventHeaderTracepoint,
    events_stop: *mut *const EventHeaderTracepoint,
) -> c_int {
    boundary(PANIC_ERRNO, || {
        // SAFETY: the range is valid per the contract.
        let Some(events) = (unsafe { pointer_range(events_start, events_stop) }) else {
            return libc::EINVAL;
        };
        // SAFETY: forwarded contract.
        let err = unsafe { eventheader_open_provider(provider) };
        if err != 0 {
            return err;
        }
        let count = provider::sort_unique_pointers(events);
        for &event in &events[..count] {
            // SAFETY: non-NULL entries are valid events per the contract.
            unsafe { eventheader_connect(event, provider) };
        }
        0
    })
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
    boundary(PANIC_ERRNO, || {
        // SAFETY: per the contract.
        let Some(ev) = (unsafe { event.as_ref() }) else {
            return libc::EINVAL;
        };
        if ev.state.is_null() {
            return libc::EINVAL;
        }
        if provider.is_null() {
            // SAFETY: the state is valid per the contract.
            return unsafe { provider::connect(ev.state, ptr::null_mut(), None, 0) };
        }
        // SAFETY: per the contract.
        let (p, name, options) = match unsafe { provider_parts(provider) } {
            Ok(parts) => parts,
            Err(e) => return e,
        };
        if ev.header.level == 0 {
            return libc::EINVAL;
        }
        let mut command = CommandBuf::default();
        if let Err(e) = format_command(&mut command, name, ev.header.level, ev.keyword, options) {
            return e;
        }
        // SAFETY: both states are valid per the contract.
        unsafe { provider::connect(ev.state, p.state, Some(command.as_c_str()), 0) }
    })
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
/// few vectors or a related id without an activity id, else as
/// tracepoint_write.
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
    // SAFETY: forwarded contract.
    boundary(PANIC_ERRNO, || unsafe {
        write_event(event, activity_id, related_id, data_count, data_vecs)
    })
}

/// The body of eventheader_write. The common case (no activity id, a header
/// that already announces the metadata extension) takes no copy of anything:
/// vecs[1] points at the event's own header and vecs[2] at its metadata.
///
/// # Safety
/// As for eventheader_write.
#[inline(always)]
pub(crate) unsafe fn write_event(
    event: *const EventHeaderTracepoint,
    activity_id: *const c_void,
    related_id: *const c_void,
    data_count: u32,
    data_vecs: *mut iovec,
) -> c_int {
    // SAFETY: per the contract; vector indexes are checked against
    // data_count before use; every state field is read atomically.
    unsafe {
        let Some(ev) = event.as_ref() else {
            return libc::EINVAL;
        };
        let tp = ev.state;
        if tp.is_null() {
            return libc::EINVAL;
        }
        if provider::status_word(tp).load(Ordering::Relaxed) == 0 {
            return libc::EBADF;
        }
        if data_vecs.is_null()
            || data_count < EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA
            || (activity_id.is_null() && !related_id.is_null())
        {
            return libc::EINVAL;
        }
        let metadata = ev.metadata;

        // The prefix buffer is only filled (and so only paid for) when the
        // event's own header cannot go out as it is.
        let mut prefix: [u8; PREFIX_MAX];
        let header_vec = if activity_id.is_null()
            && (metadata.is_null() || ev.header.flags & FLAG_EXTENSION != 0)
        {
            iovec {
                iov_base: &ev.header as *const EventHeader as *mut c_void,
                iov_len: core::mem::size_of::<EventHeader>(),
            }
        } else {
            let activity = (!activity_id.is_null()).then(|| {
                (
                    &*activity_id.cast::<[u8; 16]>(),
                    related_id.cast::<[u8; 16]>().as_ref(),
                )
            });
            prefix = [0u8; PREFIX_MAX];
            let len = pack_prefix(&mut prefix, &ev.header, activity, !metadata.is_null());
            iovec {
                iov_base: prefix.as_mut_ptr().cast(),
                iov_len: len,
            }
        };
        if !metadata.is_null() {
            if data_count < EVENTHEADER_PREFIX_DATAVEC_COUNT {
                return libc::EINVAL;
            }
            *data_vecs.add(2) = iovec {
                iov_base: metadata as *mut c_void,
                iov_len: usize::from((*metadata).size)
                    + core::mem::size_of::<EventHeaderExtension>(),
            };
        }
        *data_vecs.add(1) = header_vec;
        let vecs = core::slice::from_raw_parts_mut(data_vecs, data_count as usize);
        // The event is never empty: it has at least its header.
        backend::write_enabled(tp, vecs, false)
    }
}
