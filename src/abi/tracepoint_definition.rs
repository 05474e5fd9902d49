//! The tracepoint definition of `tracepoint/tracepoint.h` (with the
//! functions of `src/ffi/tracepoint_api.rs`).

use core::ffi::c_char;

use super::TracepointState;

/// A tracepoint and its "Name arg-spec" registration string, for
/// tracepoint_open_provider_with_tracepoints.
#[repr(C)]
pub struct TracepointDefinition {
    pub state: *mut TracepointState,
    pub tp_name_args: *const c_char,
}
