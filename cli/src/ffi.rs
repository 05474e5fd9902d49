//! Registration through the project's library, by its stable C ABI
//! (`tracepoint.h`): the same code every instrumented program runs, reached
//! through the exported symbols rather than Rust paths, so the library's
//! internal layout can change freely.

use std::ffi::{c_char, c_int, c_uint, CString};
use std::ptr;
use std::sync::atomic::AtomicU32;

/// `tracepoint_list_node` (tracepoint-state.h).
#[repr(C)]
struct ListNode {
    next: *mut ListNode,
    prev: *mut ListNode,
}

/// `tracepoint_provider_state`, initialized as `TRACEPOINT_PROVIDER_STATE_INIT`.
#[repr(C)]
struct ProviderState {
    data_file: c_int,
    ref_count: c_uint,
    tracepoint_list_head: ListNode,
}

/// `tracepoint_state`, initialized as `TRACEPOINT_STATE_INIT`. The kernel sets
/// and clears `status_word` from outside, hence atomic.
#[repr(C)]
struct TracepointState {
    status_word: AtomicU32,
    write_index: c_int,
    provider_state: *const ProviderState,
    tracepoint_list_link: ListNode,
}

extern "C" {
    fn tracepoint_open_provider(provider_state: *mut ProviderState) -> c_int;
    fn tracepoint_close_provider(provider_state: *mut ProviderState);
    fn tracepoint_connect2(
        tp_state: *mut TracepointState,
        provider_state: *mut ProviderState,
        tp_name_args: *const c_char,
        flags: c_uint,
    ) -> c_int;
}

/// `USER_EVENT_REG_PERSIST` (linux/user_events.h): the tracepoint stays
/// after its last registration is gone; needs CAP_PERFMON.
pub const USER_EVENT_REG_PERSIST: u32 = 1;

const NULL_NODE: ListNode = ListNode {
    next: ptr::null_mut(),
    prev: ptr::null_mut(),
};

/// An open provider and the tracepoints registered through it. The state
/// blocks live on the heap at fixed addresses (the library links them into
/// lists and the kernel writes the status words) until the provider closes.
pub struct Provider {
    state: *mut ProviderState,
    tracepoints: Vec<*mut TracepointState>,
}

impl Provider {
    /// Opens a provider on the kernel's `user_events_data`. Returns the errno
    /// of the library: `EOPNOTSUPP` without tracefs, `ENOENT` without
    /// user_events, `EACCES` without permission.
    pub fn open() -> Result<Provider, i32> {
        let state = Box::into_raw(Box::new(ProviderState {
            data_file: -1,
            ref_count: 0,
            tracepoint_list_head: NULL_NODE,
        }));
        // SAFETY: `state` is a valid, initialized provider state that stays at
        // this address until `Drop` closes it (also on the error path below).
        let err = unsafe { tracepoint_open_provider(state) };
        let provider = Provider {
            state,
            tracepoints: Vec::new(),
        };
        if err == 0 {
            Ok(provider)
        } else {
            Err(err)
        }
    }

    /// Registers `command` (`Name args`) with the kernel. Returns the errno on
    /// failure (the tracepoint then stays unregistered).
    pub fn connect(&mut self, command: &str, flags: u32) -> Result<(), i32> {
        let command = CString::new(command).map_err(|_| libc::EINVAL)?;
        let tp = Box::into_raw(Box::new(TracepointState {
            status_word: AtomicU32::new(0),
            write_index: -1,
            provider_state: ptr::null(),
            tracepoint_list_link: NULL_NODE,
        }));
        // Kept whatever the result: the library may have linked it.
        self.tracepoints.push(tp);
        // SAFETY: `tp` and `self.state` are valid, initialized state blocks
        // at fixed heap addresses that outlive the connection (freed only
        // after tracepoint_close_provider in Drop); `command` is a C string
        // the library copies (it does not keep the pointer).
        let err = unsafe { tracepoint_connect2(tp, self.state, command.as_ptr(), flags) };
        if err == 0 {
            Ok(())
        } else {
            Err(err)
        }
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        // SAFETY: `self.state` is the provider state opened in `open`; closing
        // unregisters and unlinks every tracepoint, after which no one refers
        // to the state blocks and they can be freed.
        unsafe {
            tracepoint_close_provider(self.state);
            for &tp in &self.tracepoints {
                drop(Box::from_raw(tp));
            }
            drop(Box::from_raw(self.state));
        }
    }
}
