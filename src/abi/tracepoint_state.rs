//! State blocks owned by the caller and managed by the library
//! (`tracepoint/tracepoint-state.h`), and the atomic views of the fields the
//! write path reads without the library lock.

use core::ffi::{c_int, c_uint};
use core::mem::offset_of;
use core::sync::atomic::{AtomicI32, AtomicPtr, AtomicU32};

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

// Every field below is stored only under the library lock, but some are read
// without it (by the write path, and by the kernel and the caller's inline
// TRACEPOINT_ENABLED for status_word), so every access goes through one of
// these atomic views: a concurrent reader sees the old or the new value,
// never a torn one. c_uint/c_int are u32/i32 on every Linux target, and
// `*const T` and `*mut T` have the same layout, so each view has the
// field's size and alignment.

impl TracepointState {
    /// The `status_word` field, atomically.
    ///
    /// # Safety
    /// `tp` must point to a live tracepoint state for `'a`, and every
    /// concurrent access to the field must be atomic.
    #[inline(always)]
    pub unsafe fn status_word<'a>(tp: *const Self) -> &'a AtomicU32 {
        let field = tp.wrapping_byte_add(offset_of!(Self, status_word));
        // SAFETY: the field is a valid, aligned u32 for 'a (the caller's
        // guarantee), accessed only atomically.
        unsafe { AtomicU32::from_ptr(field.cast::<u32>().cast_mut()) }
    }

    /// The `write_index` field, atomically.
    ///
    /// # Safety
    /// As for [`TracepointState::status_word`].
    #[inline(always)]
    pub unsafe fn write_index<'a>(tp: *const Self) -> &'a AtomicI32 {
        let field = tp.wrapping_byte_add(offset_of!(Self, write_index));
        // SAFETY: as in status_word, for an i32 field.
        unsafe { AtomicI32::from_ptr(field.cast::<i32>().cast_mut()) }
    }

    /// The `provider_state` field, atomically.
    ///
    /// # Safety
    /// As for [`TracepointState::status_word`].
    #[inline(always)]
    pub unsafe fn provider_state<'a>(tp: *const Self) -> &'a AtomicPtr<TracepointProviderState> {
        let field = tp.wrapping_byte_add(offset_of!(Self, provider_state));
        // SAFETY: as in status_word, for a pointer field.
        unsafe { AtomicPtr::from_ptr(field.cast::<*mut TracepointProviderState>().cast_mut()) }
    }
}

impl TracepointProviderState {
    /// The `data_file` field, atomically.
    ///
    /// # Safety
    /// `provider` must point to a live provider state for `'a`, and every
    /// concurrent access to the field must be atomic.
    #[inline(always)]
    pub unsafe fn data_file<'a>(provider: *const Self) -> &'a AtomicI32 {
        let field = provider.wrapping_byte_add(offset_of!(Self, data_file));
        // SAFETY: the field is a valid, aligned i32 for 'a (the caller's
        // guarantee), accessed only atomically.
        unsafe { AtomicI32::from_ptr(field.cast::<i32>().cast_mut()) }
    }

    /// The `ref_count` field, atomically.
    ///
    /// # Safety
    /// As for [`TracepointProviderState::data_file`].
    #[inline(always)]
    pub unsafe fn ref_count<'a>(provider: *const Self) -> &'a AtomicU32 {
        let field = provider.wrapping_byte_add(offset_of!(Self, ref_count));
        // SAFETY: as in data_file, for a u32 field.
        unsafe { AtomicU32::from_ptr(field.cast::<u32>().cast_mut()) }
    }
}
