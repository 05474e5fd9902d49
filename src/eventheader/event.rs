//! The vectors of one EventHeader event: `vecs[1]` gets the header (or a
//! packed prefix of header and activity id extension), `vecs[2]` the event's
//! metadata extension when it has one, and the caller's payload follows.
//! Nothing is copied in the common case (no activity id, and a header that
//! already announces the metadata extension): the header and metadata go
//! out by pointer.

use core::ffi::{c_int, c_void};

use libc::iovec;

use super::prefix::{pack_prefix, ActivityPrefix, FLAG_EXTENSION, PREFIX_MAX};
use crate::abi::{EventHeader, EventHeaderExtension, EventHeaderTracepoint};
use crate::tracepoint_layer;

/// An activity id and an optional related activity id, 16 bytes each.
pub type Activity<'a> = (&'a [u8; 16], Option<&'a [u8; 16]>);

/// Writes `event`: fills `vecs[1]` (and `vecs[2]` for an event with
/// metadata) and writes all of `vecs` as one event of the event's
/// tracepoint. EINVAL if `vecs` has too few entries for that
/// (EVENTHEADER_PREFIX_DATAVEC_COUNT with metadata, else
/// EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA).
///
/// # Safety
/// `event.state` must be a valid tracepoint state; `event.metadata` NULL or
/// an extension block followed by its `size` bytes; the buffers of the
/// payload vectors (from `vecs[2]`, or `vecs[3]` with metadata) readable for
/// their lengths.
#[inline(always)]
pub unsafe fn write(
    event: &EventHeaderTracepoint,
    activity: Option<Activity<'_>>,
    vecs: &mut [iovec],
) -> c_int {
    let metadata = event.metadata;

    // The prefix buffer is only filled (and so only paid for) when the
    // event's own header cannot go out as it is.
    let mut prefix: [u8; PREFIX_MAX];
    let header_vec =
        if activity.is_none() && (metadata.is_null() || event.header.flags & FLAG_EXTENSION != 0) {
            iovec {
                iov_base: &event.header as *const EventHeader as *mut c_void,
                iov_len: core::mem::size_of::<EventHeader>(),
            }
        } else {
            prefix = [0u8; PREFIX_MAX];
            let len = pack_prefix(&mut prefix, &event.header, activity, !metadata.is_null());
            iovec {
                iov_base: prefix.as_mut_ptr().cast(),
                iov_len: len,
            }
        };
    if !metadata.is_null() {
        // SAFETY: a non-NULL metadata pointer is a valid extension block
        // (the caller's guarantee).
        let size = unsafe { (*metadata).size };
        let Some(slot) = vecs.get_mut(2) else {
            return libc::EINVAL;
        };
        *slot = iovec {
            iov_base: metadata as *mut c_void,
            iov_len: usize::from(size) + core::mem::size_of::<EventHeaderExtension>(),
        };
    }
    let Some(slot) = vecs.get_mut(1) else {
        return libc::EINVAL;
    };
    *slot = header_vec;
    // SAFETY: the state is valid; vecs[1] and vecs[2] point at the event's
    // header or `prefix` (live until the write returns) and its metadata
    // block (valid, the caller's guarantee), the rest at the caller's
    // readable payload.
    unsafe { tracepoint_layer::write(event.state, vecs) }
}

/// Writes an event of `TraceLoggingProvider.h`, whose arguments the macro
/// built: sets `vecs[1]` (the header, or the header packed with the chained
/// activity id extension) and `vecs[2]` (the metadata), checking nothing,
/// and writes the `count` vectors.
///
/// # Safety
/// `event.state` must be a valid tracepoint state; `event.metadata` an
/// extension block followed by its `size` bytes, announced by the header's
/// extension flag; `vecs` must point to `count` >= 3 iovecs, the buffers of
/// those from `vecs[3]` on readable for their lengths.
#[inline(always)]
pub unsafe fn write_macro_event(
    event: &EventHeaderTracepoint,
    activity: Option<Activity<'_>>,
    vecs: *mut iovec,
    count: u32,
) -> c_int {
    let metadata = event.metadata;
    // SAFETY: the metadata is a valid extension block (the caller's guarantee).
    let size = unsafe { (*metadata).size };
    let prefix: ActivityPrefix;
    let header_vec = match activity {
        None => iovec {
            iov_base: &event.header as *const EventHeader as *mut c_void,
            iov_len: core::mem::size_of::<EventHeader>(),
        },
        Some((id, related)) => {
            let len;
            (prefix, len) = ActivityPrefix::chained(&event.header, id, related);
            iovec {
                iov_base: &prefix as *const ActivityPrefix as *mut c_void,
                iov_len: len,
            }
        }
    };
    // [1] and [2] are in the array: it has at least 3 elements (the caller's
    // guarantee).
    let header_slot = vecs.wrapping_add(1);
    let metadata_slot = vecs.wrapping_add(2);
    // SAFETY: a writable iovec of the array (see above).
    unsafe { header_slot.write(header_vec) };
    // SAFETY: a writable iovec of the array (see above).
    unsafe {
        metadata_slot.write(iovec {
            iov_base: metadata as *mut c_void,
            iov_len: usize::from(size) + core::mem::size_of::<EventHeaderExtension>(),
        })
    };
    // SAFETY: `count` iovecs (the caller's guarantee), which nothing else
    // uses during the call.
    let vecs = unsafe { core::slice::from_raw_parts_mut(vecs, count as usize) };
    // SAFETY: the state is valid; vecs[1] and vecs[2] point at the event's
    // header or `prefix` (live until the write returns) and its metadata, the
    // rest at the caller's readable payload.
    unsafe { tracepoint_layer::write(event.state, vecs) }
}
