//! The event and provider definitions of `eventheader/eventheader-tracepoint.h`
//! (with the functions of `src/ffi/eventheader_api.rs`).

use core::ffi::c_char;

use super::{EventHeader, EventHeaderExtension, TracepointProviderState, TracepointState};

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
    /// Provider name: no ' ', ':', '/' or control character; name + "_LxKx" +
    /// options must be shorter than EVENTHEADER_NAME_MAX.
    pub name: *const c_char,
}
