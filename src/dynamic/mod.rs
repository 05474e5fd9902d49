//! Runtime-defined events: events whose name, fields and header values are
//! only known at run time (the C API of `eventheader/eventheader-dynamic.h`,
//! and under it the C++ API of `eventheader/EventHeaderDynamic.h`).
//!
//! - [`provider`]: providers and their event sets (one tracepoint per
//!   level and keyword), reference counted.
//! - [`builder`]: the event builder, which encodes metadata and payload.
//! - [`write`] (here): sends a built event to an event set.
//! - [`def`]: event definitions: metadata made once, values per event.
//! - [`buffer`], [`heap`]: `malloc`-backed storage; growth failure is ENOMEM;
//!   [`cursor`]: a buffer's end as a loop of appends sees it.
//! - [`layers_below`]: the only calls into the rest of the library.
//!
//! Library code only: `core` and `libc`, no allocation but `malloc`, no
//! panic path.

pub mod buffer;
pub mod builder;
pub mod cursor;
pub mod def;
pub mod heap;
pub mod layers_below;
pub mod provider;

use core::ffi::{c_int, c_void};
use core::ptr;

use libc::iovec;

use builder::{Builder, HeaderValues};
use layers_below::{Activity, EventHeader, EventHeaderTracepoint};
use provider::EventSet;

/// eventheader_flag_default_with_extension: this target's pointer size and
/// byte order, and the extension bit (the metadata extension follows).
pub const HEADER_FLAGS: u8 = (if cfg!(target_pointer_width = "64") {
    0x01
} else {
    0
}) | (if cfg!(target_endian = "little") {
    0x02
} else {
    0
}) | 0x04;

const EMPTY: iovec = iovec {
    iov_base: ptr::null_mut(),
    iov_len: 0,
};

/// Writes the builder's event to `set` with the optional activity ids.
///
/// Returns 0, else in this order: the builder's latched error (EINVAL for a
/// builder never reset, ENOMEM if a buffer could not grow, ERANGE for an
/// event over [`builder::EVENT_SIZE_LIMIT`], ...), E2BIG for a shape
/// decoders cannot read ([`builder::shape`]), EBADF if `set` is None,
/// EINVAL if the builder's level is set and is not the set's, EBADF if the
/// set is disabled, else the errno of the write.
pub fn write(
    builder: &mut Builder,
    set: Option<&EventSet>,
    activity: Option<Activity<'_>>,
) -> c_int {
    let header = builder.header();
    let (meta, data) = match builder.finish() {
        Ok(parts) => parts,
        Err(e) => return e,
    };
    let Some(set) = set else {
        return libc::EBADF;
    };
    if header.level != 0 && header.level != set.level() {
        // Decoders reject an event whose header level is not its
        // tracepoint's (the L<level> of the name).
        return libc::EINVAL;
    }
    if !set.enabled() {
        return libc::EBADF;
    }
    let event = event_of(set, header, meta.as_ptr());
    let mut vecs = [
        EMPTY,
        EMPTY,
        EMPTY,
        iovec {
            iov_base: data.as_ptr().cast_mut().cast::<c_void>(),
            iov_len: data.len(),
        },
    ];
    // SAFETY: the set's state lives as long as `set`; `meta` is the metadata
    // extension block (header filled in by finish, then `size` bytes), 2-byte
    // aligned (malloc'ed); `data` is readable; all outlive the call.
    unsafe { layers_below::write(&event, activity, &mut vecs) }
}

/// The EventHeader event of `set` (its tracepoint, level and keyword) with
/// the header values of `header` (but its level: the set's) and the
/// metadata extension block at `metadata`.
#[inline(always)]
pub fn event_of(
    set: &EventSet,
    header: HeaderValues,
    metadata: *const u8,
) -> EventHeaderTracepoint {
    EventHeaderTracepoint {
        state: set.state_ptr(),
        metadata: metadata.cast(),
        header: EventHeader {
            flags: HEADER_FLAGS,
            version: header.version,
            id: header.id,
            tag: header.tag,
            opcode: header.opcode,
            level: set.level(),
        },
        keyword: set.keyword(),
    }
}
