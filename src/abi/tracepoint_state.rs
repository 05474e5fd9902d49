//! State blocks owned by the caller and managed by the library.

use core::ffi::{c_int, c_uint};

/// Intrusive doubly-linked list node. Links a tracepoint into the list of its
/// provider. Managed by the library: do not modify.
#[repr(C)]
#[derive(Debug)]
pub struct TracepointListNode {
    pub next: *mut TracepointListNode,
    pub prev: *mut TracepointListNode,
}

/// Per-provider state. Initialize with TRACEPOINT_PROVIDER_STATE_INIT.
/// All fields are managed by the library: do not modify them.
///
/// data_file is -1 while the provider is closed, otherwise the file the
/// provider's events are written to (user_events_data or a capture file).
#[repr(C)]
#[derive(Debug)]
pub struct TracepointProviderState {
    pub data_file: c_int,
    pub ref_count: c_uint,
    pub tracepoint_list_head: TracepointListNode,
}

/// Per-tracepoint state. Initialize with TRACEPOINT_STATE_INIT.
/// All fields are managed by the library: do not modify them.
///
/// status_word is non-zero while at least one collector listens to the
/// tracepoint; test it with TRACEPOINT_ENABLED(state). write_index is the
/// index the kernel assigned at registration, or -1 if not registered.
#[repr(C)]
#[derive(Debug)]
pub struct TracepointState {
    pub status_word: c_uint,
    pub write_index: c_int,
    pub provider_state: *const TracepointProviderState,
    pub tracepoint_list_link: TracepointListNode,
}
